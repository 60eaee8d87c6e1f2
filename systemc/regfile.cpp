// Register file block (regfile.h).
#include "regfile.h"

namespace umbra::scm {

regfile::regfile(sc_module_name name, const BlockParams& p)
    : sc_module(name), p_(p), regs_(size_t(p.threads) * p.registers, 0u) {}

void regfile::tick() {
  // Read before write: the RAMs are read-first.  No instruction ever reads a register
  // of the thread being written in the same cycle, so the order is not observable.
  const unsigned t = r_thread.read();
  rf_a.write(read(t, r_ra.read()));
  rf_b.write(read(t, r_rb.read()));
  rf_c.write(read(t, r_rc.read()));
  if (rf_we.read()) {
    const unsigned reg = rf_wreg.read();
    if (reg != isa::kZeroRegister) regs_[rf_wthread.read() * p_.registers + reg] = rf_wdata.read();
  }
}

}  // namespace umbra::scm
