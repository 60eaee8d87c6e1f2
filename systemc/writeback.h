// Writeback: stage W.  It writes an instruction's register result, and it completes
// loads and returning atomics: when one reaches W it looks in its thread's return
// buffer; if the data is there it is written and the thread woken, otherwise the
// destination register and pc are remembered and W looks again each time the sleeping
// thread's bubble reaches W, every T cycles (docs/microarchitecture.md, "W (n+3+L)").
// Its outputs are registered: the register-file write port (rf_*) and the wake
// (wake_*, to fetch and to the load/store unit, which then empties the buffer) are
// valid in the cycle after W.  It emits the regwrite events, stamped with W's cycle.
// A dflush (w_flush) sleeps like a load but is woken without a register write.  It
// also measures every load's and returning atomic's latency, X1 to the wake cycle.
#pragma once
#include <systemc.h>

#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(writeback) {
  in<bool> rst;
  in<bool> w_valid;
  in<bool> w_sleep;
  in<uint32_t> w_thread;
  in<uint32_t> w_pc;
  in<bool> w_we;
  in<bool> w_load;
  in<bool> w_flush;
  in<uint32_t> w_rd;
  in<uint32_t> w_result;
  std::vector<in<bool>> rb_valid;
  std::vector<in<uint32_t>> rb_data;
  in<uint64_t> clock;  // event time stamps

  out<bool> rf_we;
  out<uint32_t> rf_wthread;
  out<uint32_t> rf_wreg;
  out<uint32_t> rf_wdata;
  out<bool> wake_valid;
  out<uint32_t> wake_thread;

  writeback(sc_module_name name, const BlockParams& p);

  const LatencyHistogram& load_latency() const {
    return latency_;
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  void write(unsigned thread, uint32_t pc, uint32_t reg, uint32_t value);
  void try_wake(unsigned thread);

  BlockParams p_;
  // Per thread: the sleeping load's destination register and pc.
  std::vector<uint32_t> pend_rd_, pend_pc_;
  std::vector<bool> pend_flush_;   // the sleeper is a dflush: no register write
  std::vector<uint64_t> pend_x1_;  // the sleeping load's X1 cycle
  LatencyHistogram latency_;
  bool we_ = false;  // whether this cycle's tick wrote rf_we high
};

}  // namespace umbra::scm
