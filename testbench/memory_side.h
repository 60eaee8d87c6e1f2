// memory_side: the memory behind a system's DRAM port, as the configuration's
// memory.model says — the DRAM timing model (dram.h) behind the reorder queue, or the
// fixed-latency memory (fixed_memory.h) with the queue bypassed — plus the host-write
// hook (HostWrite, systemc_run.h).  Both runners (systemc_run, cosim_run) build one per
// side from here, so the two sides of a cosimulation get the same memory.
#pragma once
#include <systemc.h>

#include <memory>
#include <string>
#include <vector>

#include "dram.h"
#include "fixed_memory.h"
#include "umbra/config.h"
#include "umbra/systemc_run.h"

namespace umbra::tb {

SC_MODULE(memory_side) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> launch_valid;  // the host's launch, to time host writes
  sc_in<bool> mem_req_valid;
  sc_out<bool> mem_req_ready;
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  sc_out<bool> mem_resp_valid;
  sc_out<uint32_t> mem_resp_data, mem_resp_tag;
  sc_out<bool> fault;
  sc_out<bool> bypass_queue;  // to the system: high for the fixed-latency memory

  SC_HAS_PROCESS(memory_side);
  // Throws std::invalid_argument for a memory the configuration cannot have.
  memory_side(sc_module_name name, const Config& cfg, std::vector<scm::HostWrite> writes = {});

  bool is_dram() const {
    return dram_ != nullptr;
  }
  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  void poke32(uint32_t addr, uint32_t value);
  const std::vector<uint8_t>& bytes() const;
  const MemFault& first_fault() const;
  // The DRAM's counters into `m` (nothing for the fixed memory).
  void add_stats(scm::MemoryStats & m) const;

 private:
  void count();
  void host_write();

  std::unique_ptr<fixed_memory> fixed_;
  std::unique_ptr<dram> dram_;
  std::vector<scm::HostWrite> writes_;
  uint64_t cycle_ = 0;  // cycles completed since reset
  bool launched_ = false;
  uint64_t launch_ = 0;
};

}  // namespace umbra::tb
