// CycleSample, one cycle of a core as seen from outside, and core_monitor, which makes
// them for the SystemC core: at every rising clock edge it reads the core's memory port
// and its busy/fault outputs and turns them into the contract's mem and memresp events
// (docs/microarchitecture.md, "Events") of the cycle that edge ends, the memory-side
// view compared with the RTL's besides the model's own events.  The RTL's samples,
// every event kind from its trace outputs, are made by rtl_system (rtl_system.h), which
// reads them from the Verilated model directly.
//
// The bench calls it at every rising edge with the values before the edge, i.e. the
// values the cycle that is ending had (as a method on the edge reads signals); the edge on which reset is
// high precedes cycle 0, so cycles count from the first edge with reset low, as the cores' `clock` does.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

#include "events.h"
#include "umbra_core.h"
#include "umbra_system.h"

namespace umbra::cosim {

// The place of an event kind in a cycle's contract order (events.h's EventOrder):
// Issue and Bubble share the first, every later kind follows in enum order.
constexpr unsigned rank(umbra::EventKind k) {
  return k == umbra::EventKind::Issue ? 0 : unsigned(k) - 1;
}

// One cycle as seen from outside a core.  events[k] holds the event of rank k (issue
// or bubble, regwrite, mem, memresp, cache, wake, dram), the contract's order; a core
// never makes a dram event (the reorder queue does; it rides with core 0's sample).
// busy, fault and fault_cause are the core's own; the system_* and fault_core,
// fault_thread and fault_pc are the system top's outputs (what the host sees: the
// lowest-numbered faulting core's), the same in every core's sample of a cycle.
struct CycleSample {
  uint64_t cycle = 0;
  unsigned core = 0;
  std::array<std::optional<umbra::Event>, umbra::kEventRanks> events;
  bool busy = false, fault = false;
  bool system_busy = false;  // the system top's busy: the cores' or the queue's pending DRAM traffic
  bool system_fault = false;
  uint32_t fault_core = 0, fault_thread = 0, fault_pc = 0, fault_cause = 0;
  bool protocol_error = false;
};

class core_monitor {
 public:
  // Gets each cycle's sample to keep or change (the cosimulation's injections).
  using Callback = std::function<void(CycleSample&)>;
  core_monitor(unsigned core, Callback on_cycle) : core_(core), on_cycle_(std::move(on_cycle)) {}

  // A rising edge: the core's inputs (as its system routed them) and outputs, the
  // system's outputs and the cause of the core's fault, as the cycle that ends had them.
  void edge(const scm::umbra_core::Inputs& in, const scm::umbra_core::PortValues& out,
            const scm::umbra_system::Outputs& system, uint32_t fault_cause);

 private:
  unsigned core_;
  Callback on_cycle_;
  bool started_ = false;
  uint64_t next_ = 0;
};

}  // namespace umbra::cosim
