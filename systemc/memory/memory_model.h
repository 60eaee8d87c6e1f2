// memory_model: what stands behind a system's memory port (the generic port of
// docs/microarchitecture.md with the 16-bit {core, thread} tag, docs/memory-system.md),
// as one interface, and the factory that builds the one a configuration names
// (`memory.model`).  A memory model is one class derived from memory_model plus one
// UMBRA_REGISTER_MEMORY_MODEL line in its .cpp; the run harness, the cosimulation
// (one instance per side) and the tools know it only through this header.  Whether
// the reorder queue stands in front of it is the configuration's `queue.enabled`, not
// a property of the model.
//
// The port has the C++ types a Verilated model's ports have, so a memory serves the
// SystemC core and the RTL alike.  The backdoor (load, poke32, bytes) and the
// statistics are virtual, called before and after a run; so are ready/edge/response,
// the plain stepping that the kernel-free benches (harness/system_side.h) call every cycle.
// Registration is a static object in each model's file; the library is linked whole
// (systemc/memory/CMakeLists.txt) so that no linker drops an unreferenced model.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mem_fault.h"
#include "run_result.h"
#include "umbra/config.h"
#include "umbra/port_line_sc.h"
#include "umbra/semantics.h"

namespace umbra::scm {

class memory_model : public sc_module {
 public:
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> mem_req_valid;
  sc_out<bool> mem_req_ready;
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  // The line port (cache.line_port): a wline's word mask and line, a fill's one beat.
  sc_in<uint32_t> mem_req_mask;
  sc_in<PortLine> mem_req_line;
  sc_out<bool> mem_resp_valid;
  sc_out<uint32_t> mem_resp_data, mem_resp_tag;
  sc_out<PortLine> mem_resp_line;
  sc_out<bool> fault;  // sticky: a refused request (first_fault() says which)

  // Backdoor access for loading and inspecting (not timed, not on the port).  Throws
  // std::out_of_range for bytes outside the memory.
  virtual void load(uint32_t addr, const std::vector<uint8_t>& bytes) = 0;
  virtual void poke32(uint32_t addr, uint32_t value) = 0;
  virtual const std::vector<uint8_t>& bytes() const = 0;
  virtual const MemFault& first_fault() const = 0;
  // Finishes what the memory has accepted, before a run's end reads its contents: a
  // model that writes some cycles after it takes a store (the SDRAM, at its WRITE
  // command) steps without requests until it has.  Nothing by default: the others
  // write when they take the request.
  virtual void drain() {}
  // The model's own counters into `m` (the DRAM's rows and bus); nothing by default.
  virtual void add_stats(umbra::MemoryStats& m) const { (void)m; }

  // The same model stepped without the SystemC kernel (harness/system_side.h): the
  // port as plain values.  Each model's clocked process is these calls on its ports,
  // so a bench under the kernel and one without it step one behaviour.
  struct Request {
    bool valid = false;
    uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0;
    uint32_t mask = 0;  // wline: the words written (bit i: word i of the line)
    PortLine line;      // wline: the data
  };
  struct Response {
    bool valid = false;
    uint32_t data = 0, tag = 0;
    PortLine line;  // a fill's line, on a line port
  };
  // mem_req_ready in the current cycle for a request with this op (a memory may let a
  // request that needs no response pass while it waits to answer another).
  virtual bool ready(uint32_t op) const = 0;
  // The rising edge that ends the current cycle: back to reset, or `r` transfers if it
  // is valid and ready(r.op) holds.
  virtual void edge(bool rst, const Request& r) = 0;
  // The response outputs of the cycle the last edge began.
  virtual Response response() const = 0;

 protected:
  explicit memory_model(sc_module_name name) : sc_module(name) {}
};

// Builds a model for a configuration; throws std::invalid_argument for parameters the
// model cannot have.
using MemoryFactory = std::function<std::unique_ptr<memory_model>(sc_module_name, const Config&)>;

struct MemoryModelInfo {
  std::string name;         // the value of `memory.model`
  std::string description;  // one line, for --help texts and docs
  MemoryFactory make;
};

// Every registered model, sorted by name.
std::vector<MemoryModelInfo> memory_models();
// The model cfg.mem_model names; throws std::invalid_argument naming the known ones.
std::unique_ptr<memory_model> make_memory(sc_module_name name, const Config& cfg);

// For UMBRA_REGISTER_MEMORY_MODEL; returns true.
bool register_memory_model(MemoryModelInfo info);

}  // namespace umbra::scm

// One line per model, at namespace scope in its .cpp:
//   UMBRA_REGISTER_MEMORY_MODEL(fixed, "on-chip RAM ...", [](sc_module_name n, const Config& c) {...});
#define UMBRA_REGISTER_MEMORY_MODEL(id, description, factory)             \
  static const bool umbra_memory_model_registered_##id [[maybe_unused]] = \
      ::umbra::scm::register_memory_model({#id, description, factory})
