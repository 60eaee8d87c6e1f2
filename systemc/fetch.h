// Fetch: the slot counter, the 64-bit clock, every thread's pc and state, and the
// instruction store (docs/microarchitecture.md, "Threads and slots", "Launch").  In
// cycle n it serves thread `slot`: a RUN thread's instruction at pc goes to decode on
// d_*, any other thread issues a bubble with its reason.  The pc/state updates that
// X1 and W register at the end of their cycles arrive here one cycle later on
// x2_upd_* and wake_*; they are applied before the slot's decision, which is what
// makes them effective "at the end of the cycle named" (only the wake can concern
// the very thread of the slot, and only when T equals the pipeline depth).
//
// A domain launch (domain_valid, from umbra_system's dispatcher) latches the entry,
// `domw` and `domh` and starts nothing; each start_valid then starts the lowest free
// (IDLE or EXITED) thread on the work item start_lx/start_ly, which goes to execute on
// item_* (a wire, so execute keeps it a cycle later than the RTL's RAM write: the
// thread's first instruction reaches X1 three cycles after that at the earliest).
#pragma once
#include <systemc.h>

#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(fetch) {
  in<bool> rst;
  // Host port and launch (the core's ports, passed through).
  in<bool> host_imem_we;
  in<uint32_t> host_imem_addr;
  in<uint32_t> host_imem_data;
  in<bool> launch_valid;
  in<uint32_t> launch_count;
  in<uint32_t> launch_entry;
  in<uint32_t> launch_lx0;   // `lx` of thread 0 (the threads of the cores before this one)
  in<uint32_t> launch_domw;  // `domw`: the threads launched on every core
  in<bool> domain_valid;     // a domain launch: entry, domw, domh; no thread yet
  in<uint32_t> domain_w;
  in<uint32_t> domain_h;
  in<bool> start_valid;  // start the lowest free thread on work item start_lx/start_ly
  in<uint32_t> start_lx;
  in<uint32_t> start_ly;
  // From execute: the X1 outcome of the instruction fetched 4 cycles ago.
  in<bool> x2_upd_valid;
  in<uint32_t> x2_upd_thread;
  in<uint32_t> x2_upd_pc;
  in<uint32_t> x2_upd_state;
  // From writeback: a sleeping thread's data was written in the previous cycle.
  in<bool> wake_valid;
  in<uint32_t> wake_thread;
  // From the load/store unit, for the statistics window (busy = f_busy | lsu_busy).
  in<bool> lsu_busy;

  // To decode (valid in D).
  out<bool> d_valid;
  out<uint32_t> d_thread;
  out<uint32_t> d_pc;
  out<uint32_t> d_word;
  out<uint32_t> d_reason;  // BubbleReason when !d_valid
  // Core-wide registers.
  out<uint64_t> clock;  // the current cycle's clock value
  out<uint32_t> domw;   // launch_domw of the last launch
  out<uint32_t> lx0;    // launch_lx0 of the last launch
  out<uint32_t> domh;   // 1 after a thread launch, domain_h after a domain launch
  out<bool> items;      // the last launch was a domain: `lx`/`ly` are per thread
  // The work item of the thread started in the cycle that ended.
  out<bool> item_we;
  out<uint32_t> item_thread;
  out<uint32_t> item_lx;
  out<uint32_t> item_ly;
  out<bool> f_busy;  // some thread is RUN or SLEEP

  fetch(sc_module_name name, const BlockParams& p);

  const CoreStats& stats() const {
    return stats_;
  }
  ThreadStateCode thread_state(unsigned t) const {
    return state_[t];
  }
  // Some thread is IDLE or EXITED (the core's can_start), as of the last edge.
  bool can_start() const {
    return p_.dispatch && free_count_ > 0;
  }

  // The slot of the cycle the last edge ended issued an instruction (the RTL's
  // trace_issue_valid; the command processor's instruction counters).
  bool issued() const {
    return issued_;
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  void reset();
  void set_state(unsigned t, ThreadStateCode s);

  BlockParams p_;
  std::vector<uint32_t> imem_;
  std::vector<uint32_t> pc_;
  std::vector<ThreadStateCode> state_;
  uint32_t entry_ = 0;  // the domain launch's entry
  unsigned slot_ = 0;
  uint64_t clock_ = 0;
  unsigned active_ = 0;      // threads in RUN or SLEEP
  unsigned free_count_ = 0;  // threads IDLE or EXITED
  bool busy_q_ = false;      // the f_busy value visible this cycle
  CoreStats stats_;
  bool issued_ = false;
};

}  // namespace umbra::scm
