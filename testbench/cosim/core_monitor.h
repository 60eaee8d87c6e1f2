// CycleSample, one cycle of a core as seen from outside, and core_monitor, which makes
// them for the SystemC core: at every rising clock edge it reads the core's memory port
// and its busy/fault outputs and turns them into the contract's mem and memresp events
// (docs/microarchitecture.md, "Events") of the cycle that edge ends, the memory-side
// view compared with the RTL's besides the model's own events.  The RTL's samples,
// every event kind from its trace outputs, are made by rtl_system (rtl_system.h), which
// reads them from the Verilated model directly.
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
  // The memory port and the status outputs.
  sc_in<bool> mem_req_valid, mem_req_ready, mem_resp_valid, busy, fault;
  sc_in<bool> system_busy;  // the system top's busy output (what ends a run)
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag, mem_resp_data,
      mem_resp_tag;
  sc_in<uint32_t> fault_thread, fault_pc;

  using Callback = std::function<void(const CycleSample&)>;
  SC_HAS_PROCESS(core_monitor);
  core_monitor(sc_module_name name, Callback on_cycle);

 private:
  void tick();
  Callback on_cycle_;
  bool started_ = false;
  uint64_t next_ = 0;
};

}  // namespace umbra::cosim
