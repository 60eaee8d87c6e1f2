// Decode block (decode.h).
#include "decode.h"

#include "umbra/semantics.h"

namespace umbra::scm {

decode::decode(sc_module_name name, const BlockParams& p)
    : sc_module(name), p_(p), cache_(size_t(1) << kCacheBits) {}

const decode::Entry& decode::decoded(uint32_t word) {
  Entry& e = cache_[(word * 0x9e3779b1u) >> (32 - kCacheBits)];
  if (!e.filled || e.inst.d.word != word) {
    const auto dec = isa::decode(word);
    e.filled = true;
    // An absent group or a register the core lacks (the assembler refuses both; a
    // hand-made word can still name them): the same rule the fault's reason words.
    e.legal = dec && illegal_reason(*dec, p_.registers, p_.groups).empty();
    e.inst = DecodedInstr{};
    if (e.legal) e.inst.d = *dec;
    e.inst.d.word = word;
  }
  return e;
}

void decode::tick() {
  if (rst.read()) {
    r_valid.write(false);
    r_sleep.write(false);
    r_flush.write(false);
    return;
  }
  const bool valid = d_valid.read();
  r_valid.write(valid);
  r_sleep.write(!valid && d_reason.read() == uint32_t(BubbleReason::Memory));
  r_thread.write(d_thread.read());
  r_flush.write(false);
  if (!valid) return;

  r_pc.write(d_pc.read());
  const uint32_t word = d_word.read();
  const Entry& e = decoded(word);
  if (!e.legal) {
    // The word still travels (info stays null) so that X1 can say what was wrong.
    r_illegal.write(true);
    r_inst.write(e.inst);
    r_ra.write(0);
    r_rb.write(0);
    r_rc.write(0);
    return;
  }
  const isa::Decoded& dec = e.inst.d;
  const isa::InstrInfo& in = *dec.info;
  r_illegal.write(false);
  r_flush.write(dec.op() == isa::Op::DFLUSH);
  r_inst.write(e.inst);
  r_ra.write(in.reads_a ? dec.a : 0u);
  r_rb.write(in.reads_b ? dec.b : 0u);
  r_rc.write(in.reads_c ? dec.c : 0u);
}

}  // namespace umbra::scm
