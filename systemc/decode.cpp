// Decode block (decode.h).
#include "decode.h"

namespace umbra::scm {

decode::decode(sc_module_name name, const BlockParams& p)
    : sc_module(name), p_(p), cache_(size_t(1) << kCacheBits) {}

// The assembler refuses registers the target lacks; a hand-made word can still name
// one, and a smaller register file must not alias it onto another register.
bool decode::registers_exist(const isa::Decoded& d) const {
  if (p_.registers >= isa::kRegisters) return true;
  for (unsigned i = 0; i < d.info->num_operands; ++i) {
    const isa::OperandInfo& op = d.info->operands[i];
    isa::Field f = isa::Field::None;
    if (op.kind == isa::Kind::Reg) f = op.field;
    if (op.kind == isa::Kind::Mem) f = op.base;
    if (f != isa::Field::None && isa::field_value(d.word, f) >= p_.registers) return false;
  }
  return true;
}

const decode::Entry& decode::decoded(uint32_t word) {
  Entry& e = cache_[(word * 0x9e3779b1u) >> (32 - kCacheBits)];
  if (!e.filled || e.inst.d.word != word) {
    const auto dec = isa::decode(word);
    e.filled = true;
    e.legal = dec && isa::in_groups(*dec->info, p_.groups) && registers_exist(*dec);
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
