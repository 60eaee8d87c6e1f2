// Fetch: the slot counter, the 64-bit clock, every thread's pc and state, and the
// instruction store (docs/microarchitecture.md, "Threads and slots", "Launch").  In
// cycle n it serves thread `slot`: a RUN thread's instruction at pc goes to decode on
// d_*, any other thread issues a bubble with its reason.  The pc/state updates that
// X1 and W register at the end of their cycles arrive here one cycle later on
// x2_upd_* and wake_*; they are applied before the slot's decision, which is what
// makes them effective "at the end of the cycle named" (only the wake can concern
// the very thread of the slot, and only when T equals the pipeline depth).
#pragma once
#include <systemc.h>

#include <vector>

#include "core_types.h"

namespace umbra::scm {

SC_MODULE(fetch) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  // Host port and launch (the core's ports, passed through).
  sc_in<bool> host_imem_we;
  sc_in<uint32_t> host_imem_addr;
  sc_in<uint32_t> host_imem_data;
  sc_in<bool> launch_valid;
  sc_in<uint32_t> launch_count;
  sc_in<uint32_t> launch_entry;
  // From execute: the X1 outcome of the instruction fetched 4 cycles ago.
  sc_in<bool> x2_upd_valid;
  sc_in<uint32_t> x2_upd_thread;
  sc_in<uint32_t> x2_upd_pc;
  sc_in<uint32_t> x2_upd_state;
  // From writeback: a sleeping thread's data was written in the previous cycle.
  sc_in<bool> wake_valid;
  sc_in<uint32_t> wake_thread;
  // From the load/store unit, for the statistics window (busy = f_busy | lsu_busy).
  sc_in<bool> lsu_busy;

  // To decode (valid in D).
  sc_out<bool> d_valid;
  sc_out<uint32_t> d_thread;
  sc_out<uint32_t> d_pc;
  sc_out<uint32_t> d_word;
  sc_out<uint32_t> d_reason;  // BubbleReason when !d_valid
  // Core-wide registers.
  sc_out<uint64_t> clock;  // the current cycle's clock value
  sc_out<uint32_t> domw;   // launch_count of the last launch
  sc_out<bool> f_busy;     // some thread is RUN or SLEEP

  SC_HAS_PROCESS(fetch);
  fetch(sc_module_name name, const BlockParams& p);

  const CoreStats& stats() const {
    return stats_;
  }
  ThreadStateCode thread_state(unsigned t) const {
    return state_[t];
  }

 private:
  void tick();
  void reset();
  void set_state(unsigned t, ThreadStateCode s);

  BlockParams p_;
  std::vector<uint32_t> imem_;
  std::vector<uint32_t> pc_;
  std::vector<ThreadStateCode> state_;
  unsigned slot_ = 0;
  uint64_t clock_ = 0;
  unsigned active_ = 0;  // threads in RUN or SLEEP
  bool busy_q_ = false;  // the f_busy value visible this cycle
  CoreStats stats_;
};

}  // namespace umbra::scm
