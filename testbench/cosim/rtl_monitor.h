// core_monitor: watches one core from outside, at every rising clock edge, and turns
// what it sees into the contract's events (docs/microarchitecture.md, "Events") for the
// cycle that edge ends.  For the Verilated RTL it is the only source of events: issue,
// register writes, the data cache's C2 outcome and wake-ups come from the trace_* ports,
// memory requests and responses from the generic memory port.  For the SystemC core it watches only the
// memory port and the busy/fault outputs, giving the memory-side view that is compared with the RTL's besides
// the model's own events.
//
// A method on the clock edge reads every signal's value before the edge, i.e. the
// value the cycle that is ending had; the edge on which reset is high precedes cycle
// 0, so cycles count from the first edge with reset low, as the cores' `clock` does.
#pragma once
#include <systemc.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "events.h"

namespace umbra::cosim {

// The place of an event kind in a cycle's contract order (events.h's EventOrder):
// Issue and Bubble share the first, every later kind follows in enum order.
constexpr unsigned rank(scm::EventKind k) {
  return k == scm::EventKind::Issue ? 0 : unsigned(k) - 1;
}

// One cycle as seen from outside a core.  events[k] holds the event of rank k (issue
// or bubble, regwrite, mem, memresp, cache, wake, dram), the contract's order; a core
// never makes a dram event (the reorder queue does).
struct CycleSample {
  uint64_t cycle = 0;
  std::array<std::optional<scm::Event>, scm::kEventRanks> events;
  bool busy = false, fault = false;
  bool system_busy = false;  // the system top's busy: the core's or the queue's pending DRAM traffic
  uint32_t fault_thread = 0, fault_pc = 0, fault_cause = 0;
  bool protocol_error = false;
};

SC_MODULE(core_monitor) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  // Generic memory port and status outputs (both models).
  sc_in<bool> mem_req_valid, mem_req_ready, mem_resp_valid, busy, fault;
  sc_in<bool> system_busy;  // the system top's busy output (what ends a run)
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag, mem_resp_data,
      mem_resp_tag;
  sc_in<uint32_t> fault_thread, fault_pc;
  // RTL trace ports; bound but ignored when built without_trace.
  sc_in<bool> trace_issue_valid, trace_regwrite_valid, trace_protocol_error, trace_cache_valid,
      trace_wake_valid;
  sc_in<uint32_t> trace_issue_thread, trace_issue_pc, trace_issue_reason, trace_regwrite_thread,
      trace_regwrite_pc, trace_regwrite_reg, trace_regwrite_value, trace_fault_cause, trace_cache_thread,
      trace_cache_op, trace_cache_addr, trace_cache_outcome, trace_wake_thread;
  // The DRAM port of the RTL's system top: a transfer (trace_dram_valid) and its request.
  sc_in<bool> trace_dram_valid;
  sc_in<uint32_t> dram_req_op, dram_req_addr, dram_req_data, dram_req_cmp, dram_req_tag;

  using Callback = std::function<void(const CycleSample&)>;
  SC_HAS_PROCESS(core_monitor);
  core_monitor(sc_module_name name, bool with_trace, Callback on_cycle);

  // Binds the trace ports to constant signals, for a core that has none.
  void tie_off_trace();

 private:
  void tick();
  bool with_trace_;
  Callback on_cycle_;
  bool started_ = false;
  uint64_t next_ = 0;
  sc_signal<bool> zero_bit_{"zero_bit"};
  sc_signal<uint32_t> zero_word_{"zero_word"};
};

}  // namespace umbra::cosim
