// Writeback block (writeback.h).
#include "writeback.h"

namespace umbra::scm {

writeback::writeback(sc_module_name name, const BlockParams& p)
    : sc_module(name),
      rb_valid(p.threads),
      rb_data(p.threads),
      p_(p),
      pend_rd_(p.threads, 0u),
      pend_pc_(p.threads, 0u),
      pend_flush_(p.threads, false),
      pend_x1_(p.threads, 0) {
  latency_.bucket_width = p.threads;
}

void writeback::write(unsigned thread, uint32_t pc, uint32_t reg, uint32_t value) {
  // Writes to r0 are dropped and make no event.
  if (reg == isa::kZeroRegister) return;
  we_ = true;
  rf_wthread.write(thread);
  rf_wreg.write(reg);
  rf_wdata.write(value);
  if (p_.events->enabled()) {
    Event e;
    e.cycle = clock.read();
    e.kind = EventKind::RegWrite;
    e.thread = thread;
    e.pc = pc;
    e.reg = uint8_t(reg);
    e.value = value;
    p_.events->emit(e);
  }
}

void writeback::try_wake(unsigned thread) {
  if (!rb_valid[thread].read()) return;
  if (!pend_flush_[thread]) {
    write(thread, pend_pc_[thread], pend_rd_[thread], rb_data[thread].read());
    // Woken in the next cycle (wake_valid high).
    latency_.add(clock.read() + 1 - pend_x1_[thread]);
  }
  wake_valid.write(true);
  wake_thread.write(thread);
}

void writeback::tick() {
  if (rst.read()) {
    rf_we.write(false);
    wake_valid.write(false);
    return;
  }
  we_ = false;
  wake_valid.write(false);
  const unsigned t = w_thread.read();
  if (w_valid.read()) {
    if (w_load.read() || w_flush.read()) {
      pend_rd_[t] = w_rd.read();
      pend_pc_[t] = w_pc.read();
      pend_flush_[t] = w_flush.read();
      pend_x1_[t] = clock.read() - p_.execute_stages;  // W is X1 + L
      try_wake(t);
    } else if (w_we.read()) {
      write(t, w_pc.read(), w_rd.read(), w_result.read());
    }
  } else if (w_sleep.read()) {
    try_wake(t);
  }
  rf_we.write(we_);
}

}  // namespace umbra::scm
