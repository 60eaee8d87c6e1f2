// umbra_system: one core and the memory reorder queue in front of the DRAM port
// (docs/memory-system.md, "Blocks and names"), with exactly the ports of
// rtl/umbra_system.v and the C++ types a Verilated SystemC model of it has, so one
// testbench drives either.  The outside sees the generic memory port with a 16-bit
// {core, thread} tag.  bypass_queue (static) connects the core straight to the
// outside, for memory that answers in a fixed time (memory.model fixed).  busy covers
// the requests still in the queue; the queue's dram events join the core's events in
// its per-cycle order.
//
// One clocked method advances the whole system: the queue's edge (with the core's
// request as it stood in the cycle that ends), the core's edge, then the DRAM port's
// registered outputs.  What rtl/umbra_system.v routes combinationally from outside
// inputs to the core (the port's ready and the responses) is one small method on
// those inputs, as before.
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

  // The core's own port (the RTL's trace_port_* outputs), under the kernel; stepped
  // without it, core_inputs() and core().port_values() have its values.
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

  // Stepped without the SystemC kernel (harness/system_side.h): the input ports as plain
  // values, set by the bench; edge() is the rising edge (the clocked method without its
  // port writes), settle() routes the inputs to the core as route_responses does, and
  // outputs() are the output ports' values after the last edge.  Call bind_plain()
  // once, before the first settle(), instead of elaborating.
  struct Inputs : umbra_core::Inputs {
    bool bypass_queue = false;
  };
  using Outputs = umbra_core::PortValues;  // the same ports as the core's, routed
  void bind_plain();
  Inputs& inputs() {
    return in_;
  }
  const Inputs& inputs() const {
    return in_;
  }
  // The core's inputs as settle() routed them (what the core's own port sees).
  const umbra_core::Inputs& core_inputs() const {
    return core_in_;
  }
  void edge() {
    tick();
  }
  void settle();
  Outputs outputs() const;

 private:
  void tick();
  void route_responses();
  void end_of_elaboration() override;

  sc_signal<bool> q_req_ready;  // the queue's registered ready, for route_responses
  // The values of the signals on the input ports tick() reads (see umbra_core.cpp).
  const bool *bypass_ = nullptr, *rst_ = nullptr, *mem_req_ready_ = nullptr;
  unsigned core_id_;
  umbra_core core_;
  ReorderQueueModel queue_;
  bool events_ = false;       // a sink is set: the queue's dram events go to the core's order
  uint64_t queue_cycle_ = 0;  // cycles since reset, the dram events' time stamps
  // What was last written to each DRAM-port output and busy (the signals start at 0).
  struct Driven {
    bool busy = false, mem_req_valid = false;
    uint32_t mem_req_op = 0, mem_req_addr = 0, mem_req_data = 0, mem_req_cmp = 0, mem_req_tag = 0;
  } driven_;
  // bind_plain(): the inputs, the core's (what route_responses writes), no port writes.
  bool plain_ = false;
  Inputs in_;
  umbra_core::Inputs core_in_;
};

// The core's memory counters and, when the queue is in use, the queue's, as a run
// reports them (the DRAM's come from the testbench's memory).
MemoryStats memory_stats(const MemStats& core, const QueueStats* queue);

}  // namespace umbra::scm
