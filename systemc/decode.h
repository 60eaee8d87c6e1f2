// Decode: takes apart the word fetch issued (isa::decode, driven by the tables
// generated from isa.yaml) and presents the register-file read addresses.  Which
// fields are register reads, and the class flags execute steers by (writes_result,
// returns_data, memory, fpu), are the generated InstrInfo attributes, the same table
// the RTL's decode.v reads as umbra_decode_attr().  A field
// the instruction does not read as a register is presented as r0, which reads 0, so
// execute gets exactly the RegValues the semantics functions expect.  A word that is
// no instruction, or that names a register beyond the configuration's `registers`,
// is marked illegal and faults in X1.  r_flush marks dflush, the one instruction that
// sleeps in X1 but writes no register (docs/memory-system.md).
#pragma once
#include <systemc.h>

#include "core_types.h"

namespace umbra::scm {

SC_MODULE(decode) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> d_valid;
  sc_in<uint32_t> d_thread;
  sc_in<uint32_t> d_pc;
  sc_in<uint32_t> d_word;
  sc_in<uint32_t> d_reason;

  // Valid in R.
  sc_out<bool> r_valid;
  sc_out<bool> r_sleep;  // a bubble of a sleeping thread: W looks at its return buffer
  sc_out<uint32_t> r_thread;
  sc_out<uint32_t> r_pc;
  sc_out<bool> r_illegal;
  sc_out<bool> r_flush;  // dflush
  sc_out<DecodedInstr> r_inst;
  sc_out<uint32_t> r_ra;  // register-file read addresses (register numbers; 0 = unused)
  sc_out<uint32_t> r_rb;
  sc_out<uint32_t> r_rc;

  SC_HAS_PROCESS(decode);
  decode(sc_module_name name, const BlockParams& p);

 private:
  void tick();
  bool registers_exist(const isa::Decoded& d) const;

  BlockParams p_;
};

}  // namespace umbra::scm
