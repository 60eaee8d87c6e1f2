// One side of a kernel-free bench: a system top and the memory behind its port,
// stepped by the bench's own loop instead of the SystemC kernel.  SystemcSide holds the
// SystemC umbra_system (run_systemc, and the SystemC half of run_cosim); the Verilated
// system has the same three steps in harness/cosim (RtlSide).  Every bench runs them
// in the order a SystemC simulation would:
//   1. before_edge(): what the ending cycle left on the wires, which everything clocked
//      at the rising edge reads (the host the busy and faults, the memory the request
//      and reset);
//   2. edge(): the system's registers take that cycle's inputs, then the memory's;
//   3. the host's edge (HostScript::edge), which may stop the run;
//   4. after_edge(): the host writes due at the end of the cycle (memory_side's), then
//      the host's and the memory's new outputs reach the system's inputs and settle.
// The host's stop check comes after the system's edge because what it checks (a
// protocol error, a requested stop) is raised by that edge.
#pragma once
#include <cstdint>
#include <vector>

#include "host_driver.h"
#include "memory_side.h"
#include "umbra_system.h"

namespace umbra::harness {

// What the rising edge's readers take from one side.
struct EdgeInputs {
  bool busy = false, fault = false, mem_fault = false;  // the host's
  bool rst = false, launch_valid = false;               // the memory side's bookkeeping
  scm::memory_model::Request req;                       // the memory's
};

class SystemcSide {
 public:
  // Throws CoreConfigError, QueueConfigError or std::invalid_argument (the memory's
  // parameters, a host write) for what cannot be built.  The system is never
  // destroyed by a run (its modules are registered SystemC objects); `name` keeps two
  // sides apart in the object tree.
  SystemcSide(const char* name, const Config& cfg, unsigned core_id, std::vector<umbra::HostWrite> writes,
              uint32_t ncore);

  EdgeInputs before_edge() const;
  void edge(const EdgeInputs& e);
  void after_edge(const harness::HostScript::Outputs& host);

  scm::umbra_system sys;
  harness::memory_side memory;

 private:
  void apply(const harness::HostScript::Outputs& host);
};

// A bench of one side: steps it under the host's script until the host stops the run,
// calling `each_cycle()` after every cycle's inputs have settled.
template <class Side, class EachCycle>
void run_alone(Side& side, harness::HostScript& host, EachCycle&& each_cycle) {
  for (;;) {
    const EdgeInputs e = side.before_edge();
    side.edge(e);
    if (host.edge(e.busy, e.fault, e.mem_fault)) return;
    side.after_edge(host.outputs());
    each_cycle();
  }
}

}  // namespace umbra::harness
