// Register file: every thread's registers, addressed by {thread, register} as the
// RTL's block RAMs are.  The RTL keeps three copies (three 1R1W RAMs with a common
// write port) to get three read ports; one array read three times is the same thing.
// Reads are synchronous: the addresses decode registers in D are valid in R, and the
// values appear on rf_a/b/c in X1.  The write port is writeback's registered output
// (valid in the cycle after W) and the array takes the write at the end of that cycle,
// long before the thread's next instruction reads (T >= the pipeline depth).  The contents start at
// zero, like initialised block RAM, and neither reset nor launch clears them.
#pragma once
#include <systemc.h>

#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(regfile) {
  in<uint32_t> r_thread;
  in<uint32_t> r_ra;
  in<uint32_t> r_rb;
  in<uint32_t> r_rc;
  in<bool> rf_we;
  in<uint32_t> rf_wthread;
  in<uint32_t> rf_wreg;
  in<uint32_t> rf_wdata;

  // Valid in X1.
  out<uint32_t> rf_a;
  out<uint32_t> rf_b;
  out<uint32_t> rf_c;

  regfile(sc_module_name name, const BlockParams& p);

  // Backdoor for dumps after a run.
  uint32_t peek(unsigned thread, unsigned reg) const {
    return regs_[thread * p_.registers + reg];
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  uint32_t read(unsigned thread, unsigned reg) const {
    return reg == isa::kZeroRegister ? 0u : regs_[thread * p_.registers + reg];
  }

  BlockParams p_;
  std::vector<uint32_t> regs_;
};

}  // namespace umbra::scm
