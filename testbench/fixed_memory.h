// fixed_memory: the data memory that stands behind the core's generic memory port
// until the real memory system exists (docs/microarchitecture.md, "The generic memory
// port").  Flat, little-endian, always ready; it performs every access when it accepts
// the request (so the port's order is the memory's order, atomics included, via
// umbra::atomic_update) and answers a load or returning atomic accepted in cycle m in
// cycle m + latency.  Its ports have the types a Verilated model's ports have, so it
// serves the SystemC core and the RTL alike.  A misaligned or out-of-range access, or
// a request whose op is no memory instruction, is refused: no access, no response,
// and the sticky `fault` output (a testbench signal, not part of the core's port)
// rises with the details kept in first_fault().
#pragma once
#include <systemc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "umbra/semantics.h"

namespace umbra::tb {

struct MemFault {
  bool raised = false;
  Fault kind = Fault::None;  // Misaligned, OutOfRange, or IllegalInstruction for a bad op
  uint32_t tag = 0, addr = 0, op = 0;
  uint64_t cycle = 0;  // the cycle the request was on the port (counted from reset)
  std::string detail;
};

SC_MODULE(fixed_memory) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> mem_req_valid;
  sc_out<bool> mem_req_ready;
  sc_in<uint32_t> mem_req_op;
  sc_in<uint32_t> mem_req_addr;
  sc_in<uint32_t> mem_req_data;
  sc_in<uint32_t> mem_req_cmp;
  sc_in<uint32_t> mem_req_tag;
  sc_out<bool> mem_resp_valid;
  sc_out<uint32_t> mem_resp_data;
  sc_out<uint32_t> mem_resp_tag;
  sc_out<bool> fault;

  SC_HAS_PROCESS(fixed_memory);
  // bytes: a multiple of 4; latency: at least 1 cycle (throws std::invalid_argument).
  fixed_memory(sc_module_name name, uint32_t bytes, unsigned latency);

  // Backdoor access for loading and inspecting (not timed, not on the port).  Throws
  // std::out_of_range for bytes outside the memory.
  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  void poke32(uint32_t addr, uint32_t value);
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const {
    return mem_;
  }
  unsigned latency() const {
    return latency_;
  }

  const MemFault& first_fault() const {
    return fault_;
  }

 private:
  struct Response {
    bool valid = false;
    uint32_t data = 0, tag = 0;
  };
  void tick();
  void accept();
  bool check(uint64_t addr, size_t n) const {
    return addr + n <= mem_.size();
  }
  uint32_t word(uint32_t addr) const;
  void set_word(uint32_t addr, uint32_t v);
  void refuse(Fault kind, std::string detail);

  std::vector<uint8_t> mem_;
  unsigned latency_;
  // Responses by due cycle, modulo latency + 1: at most one request is accepted per
  // cycle, so at most one response is due per cycle.
  std::vector<Response> ring_;
  uint64_t now_ = 0;
  MemFault fault_;
};

}  // namespace umbra::tb
