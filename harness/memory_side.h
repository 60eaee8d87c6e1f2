// memory_side: the memory behind one system's memory port in a run — the model the
// configuration's memory.model names, made by the factory (systemc/memory/
// memory_model.h) — plus the host-write hook (HostWrite, run_result.h), which writes
// words straight into the model's storage in the middle of a run.  Every runner
// (run_systemc, run_rtl, run_cosim: one per side) builds its memory here, so the two
// sides of a cosimulation get the same memory and a new model needs no runner change.
// A side whose memory is RTL of its own (the cosimulation's RTL side with the
// Verilated SDRAM controller, harness/cosim/rtl_sdram.h) passes its factory instead.
#pragma once
#include <systemc.h>

#include <memory>
#include <vector>

#include "memory_model.h"
#include "run_result.h"
#include "umbra/config.h"

namespace umbra::harness {

SC_MODULE(memory_side) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> launch_valid;  // the host's launch, to time host writes
  sc_in<bool> mem_req_valid;
  sc_out<bool> mem_req_ready;
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag, mem_req_mask;
  sc_in<PortLine> mem_req_line;
  sc_out<bool> mem_resp_valid;
  sc_out<uint32_t> mem_resp_data, mem_resp_tag;
  sc_out<PortLine> mem_resp_line;
  sc_out<bool> fault;

  SC_HAS_PROCESS(memory_side);
  // Throws std::invalid_argument for a memory the configuration cannot have.  `make`:
  // the factory, when not the configuration's model (scm::make_memory).
  memory_side(sc_module_name name, const Config& cfg, std::vector<umbra::HostWrite> writes = {},
              const scm::MemoryFactory& make = nullptr);

  scm::memory_model& model() {
    return *model_;
  }
  const scm::memory_model& model() const {
    return *model_;
  }

  // Without the SystemC kernel (system_side.h): the rising edge (the model takes the
  // ending cycle's request, reset and launch as they were in that cycle), and the end of
  // the cycle, when the host writes due land.  Under the kernel these are its processes.
  void edge(bool rst, bool launch_valid, const scm::memory_model::Request& req) {
    model_->edge(rst, req);
    count(rst, launch_valid);
  }
  void end_of_cycle() {
    if (!writes_.empty()) host_write();
  }

 private:
  void count(bool rst, bool launch_valid);
  void host_write();
  void count_process() {
    count(rst.read(), launch_valid.read());
  }

  std::unique_ptr<scm::memory_model> model_;
  std::vector<umbra::HostWrite> writes_;
  uint64_t cycle_ = 0;  // cycles completed since reset
  bool launched_ = false;
  uint64_t launch_ = 0;
};

}  // namespace umbra::harness
