// dispatcher: hands out the work items of a domain launch to the cores' free threads;
// rtl/dispatcher.v is the same block, cycle for cycle (its header says why it is
// shaped so).  A domain is w x h work items, taken row by row, one a cycle: the first
// core with a free thread, counting from the one after the core served last, gets the
// item and starts its lowest free thread on it at the end of the cycle.
//
// With dispatch.registered_start the grant goes into registers and reaches its core a
// cycle later (start()), and a core with a start on its way is passed over.
//
// A plain C++ state machine, clocked by umbra_system's one clocked method like the
// reorder queue: grant() depends only on the state at the start of the cycle and the
// cores' can_start (their thread states, registers too), clock() is the edge.
#pragma once
#include <cstdint>
#include <vector>

namespace umbra::scm {

class Dispatcher {
 public:
  explicit Dispatcher(unsigned cores, bool registered_start = false)
      : cores_(cores), registered_(registered_start) {}

  struct Grant {
    bool valid = false;       // an item is handed out this cycle...
    unsigned core = 0;        // ... to this core ...
    uint32_t lx = 0, ly = 0;  // ... and it is this one
  };
  // This cycle's grant, given each core's can_start.
  Grant grant(const std::vector<bool>& can_start) const;
  // The start the cores see this cycle: the grant, or the registered one.
  Grant start(const std::vector<bool>& can_start) const { return registered_ ? start_q_ : grant(can_start); }
  // The edge ending the cycle: a domain launch, or the grant taken.
  void clock(bool rst, bool domain_valid, uint32_t domain_w, uint32_t domain_h,
             const std::vector<bool>& can_start);
  // Items are left, or a registered start has not reached its core (the system's busy).
  bool busy() const { return have_ || start_q_.valid; }

 private:
  unsigned cores_;
  bool registered_;
  Grant start_q_;  // registered_start: the start the cores see
  uint32_t w_ = 0, h_ = 0, x_ = 0, y_ = 0;
  bool have_ = false;
  unsigned first_ = 0;
};

}  // namespace umbra::scm
