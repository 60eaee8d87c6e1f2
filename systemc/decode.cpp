// Decode block (decode.h).
#include "decode.h"

namespace umbra::scm {

decode::decode(sc_module_name name, const BlockParams& p) : sc_module(name), p_(p) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

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
  const auto dec = isa::decode(word);
  if (!dec || !registers_exist(*dec)) {
    // The word still travels (info stays null) so that X1 can say what was wrong.
    DecodedInstr bad;
    bad.d.word = word;
    r_illegal.write(true);
    r_inst.write(bad);
    r_ra.write(0);
    r_rb.write(0);
    r_rc.write(0);
    return;
  }
  const isa::InstrInfo& in = *dec->info;
  r_illegal.write(false);
  r_flush.write(dec->op() == isa::Op::DFLUSH);
  r_inst.write(DecodedInstr{*dec});
  r_ra.write(in.reads_a ? dec->a : 0u);
  r_rb.write(in.reads_b ? dec->b : 0u);
  r_rc.write(in.reads_c ? dec->c : 0u);
}

}  // namespace umbra::scm
