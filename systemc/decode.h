// Decode: takes apart the word fetch issued (isa::decode, driven by the tables
// generated from isa.yaml) and presents the register-file read addresses.  Which
// fields are register reads, and the class flags execute steers by (writes_result,
// returns_data, memory, fpu), are the generated InstrInfo attributes, the same table
// the RTL's decode.v reads as umbra_decode_attr().  A field
// the instruction does not read as a register is presented as r0, which reads 0, so
// execute gets exactly the RegValues the semantics functions expect.  A word that is
// no instruction, that names a register beyond the configuration's `registers`, or
// whose extension group the configuration lacks (`groups`), is marked illegal and
// faults in X1.  r_flush marks dflush, the one instruction that
// sleeps in X1 but writes no register (docs/memory-system.md).
#pragma once
#include <systemc.h>

#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(decode) {
  in<bool> rst;
  in<bool> d_valid;
  in<uint32_t> d_thread;
  in<uint32_t> d_pc;
  in<uint32_t> d_word;
  in<uint32_t> d_reason;

  // Valid in R.
  out<bool> r_valid;
  out<bool> r_sleep;  // a bubble of a sleeping thread: W looks at its return buffer
  out<uint32_t> r_thread;
  out<uint32_t> r_pc;
  out<bool> r_illegal;
  out<bool> r_flush;  // dflush
  out<DecodedInstr> r_inst;
  out<uint32_t> r_ra;  // register-file read addresses (register numbers; 0 = unused)
  out<uint32_t> r_rb;
  out<uint32_t> r_rc;

  decode(sc_module_name name, const BlockParams& p);

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  // A word's decoding: the bundle and whether it is legal on this core.
  struct Entry {
    bool filled = false, legal = false;
    DecodedInstr inst;  // inst.d.word is the entry's tag; inst.d.info null when illegal
  };
  const Entry& decoded(uint32_t word);

  BlockParams p_;
  // isa::decode walks the tables; a thread issues the same few words of the
  // instruction store over and over, so each word is decoded once and kept here
  // (direct-mapped on a hash of the word, the word itself as the tag).  The RTL
  // decodes in logic every cycle; what decode presents is the same.
  static constexpr unsigned kCacheBits = 10;
  std::vector<Entry> cache_;
};

}  // namespace umbra::scm
