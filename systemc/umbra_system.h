// umbra_system: one core and the memory reorder queue in front of the DRAM port
// (docs/memory-system.md, "Blocks and names"), with exactly the ports of
// rtl/umbra_system.v and the C++ types a Verilated SystemC model of it has, so one
// testbench drives either.  The outside sees the generic memory port with a 16-bit
// {core, thread} tag.  bypass_queue (static) connects the core straight to the
// outside, for memory that answers in a fixed time (memory.model fixed).  busy covers
// the requests still in the queue; the queue's dram events join the core's events in
// its per-cycle order.
#pragma once
#include <systemc.h>

#include "reorder_queue.h"
#include "run_result.h"
#include "umbra_core.h"

namespace umbra::scm {

SC_MODULE(umbra_system) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> bypass_queue;
  sc_in<bool> host_imem_we;
  sc_in<uint32_t> host_imem_addr, host_imem_data;
  sc_in<bool> launch_valid;
  sc_in<uint32_t> launch_count, launch_entry, ncore;
  sc_out<bool> busy, fault;
  sc_out<uint32_t> fault_thread, fault_pc;
  // The DRAM port.
  sc_out<bool> mem_req_valid;
  sc_in<bool> mem_req_ready;
  sc_out<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  sc_in<bool> mem_resp_valid;
  sc_in<uint32_t> mem_resp_data, mem_resp_tag;

  // The core's own port (the RTL's trace_port_* outputs), for the cosimulation.
  sc_signal<bool> c_req_valid{"c_req_valid"}, c_req_ready{"c_req_ready"}, c_resp_valid{"c_resp_valid"};
  sc_signal<uint32_t> c_req_op{"c_req_op"}, c_req_addr{"c_req_addr"}, c_req_data{"c_req_data"},
      c_req_cmp{"c_req_cmp"}, c_req_tag{"c_req_tag"}, c_resp_data{"c_resp_data"}, c_resp_tag{"c_resp_tag"};
  sc_signal<bool> core_busy{"core_busy"};  // the RTL's trace_core_busy

  SC_HAS_PROCESS(umbra_system);
  // Throws CoreConfigError or QueueConfigError for parameters the blocks cannot take.
  umbra_system(sc_module_name name, const Config& cfg, unsigned core_id = 0);

  umbra_core& core() {
    return core_;
  }
  const umbra_core& core() const {
    return core_;
  }
  const QueueStats& queue_stats() const {
    return queue_.stats();
  }
  void set_event_sink(EventSink * sink);

 private:
  struct Forward : EventSink {
    umbra_core* core = nullptr;
    void on_event(const Event& e) override { core->emit_event(e); }
  };
  void route();
  void drive_busy();

  sc_signal<bool> q_req_valid{"q_req_valid"}, q_req_ready{"q_req_ready"}, q_resp_valid{"q_resp_valid"};
  sc_signal<uint32_t> q_req_tag{"q_req_tag"}, q_resp_data{"q_resp_data"}, q_resp_tag{"q_resp_tag"};
  sc_signal<bool> q_dram_valid{"q_dram_valid"}, q_dram_ready{"q_dram_ready"};
  sc_signal<uint32_t> q_dram_op{"q_dram_op"}, q_dram_addr{"q_dram_addr"}, q_dram_data{"q_dram_data"},
      q_dram_cmp{"q_dram_cmp"}, q_dram_tag{"q_dram_tag"};
  unsigned core_id_;
  umbra_core core_;
  reorder_queue queue_;
  Forward forward_;
};

// The core's memory counters and, when the queue is in use, the queue's, as a run
// reports them (the DRAM's come from the testbench's memory).
MemoryStats memory_stats(const MemStats& core, const QueueStats* queue);

}  // namespace umbra::scm
