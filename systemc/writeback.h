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

namespace umbra::scm {

SC_MODULE(writeback) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> w_valid;
  sc_in<bool> w_sleep;
  sc_in<uint32_t> w_thread;
  sc_in<uint32_t> w_pc;
  sc_in<bool> w_we;
  sc_in<bool> w_load;
  sc_in<bool> w_flush;
  sc_in<uint32_t> w_rd;
  sc_in<uint32_t> w_result;
  sc_vector<sc_in<bool>> rb_valid;
  sc_vector<sc_in<uint32_t>> rb_data;
  sc_in<uint64_t> clock;  // event time stamps

  sc_out<bool> rf_we;
  sc_out<uint32_t> rf_wthread;
  sc_out<uint32_t> rf_wreg;
  sc_out<uint32_t> rf_wdata;
  sc_out<bool> wake_valid;
  sc_out<uint32_t> wake_thread;

  SC_HAS_PROCESS(writeback);
  writeback(sc_module_name name, const BlockParams& p);

  const LatencyHistogram& load_latency() const {
    return latency_;
  }

 private:
  void tick();
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
