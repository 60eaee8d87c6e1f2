// Generic decode, encode and disassembly driven by the generated tables.  No
// instruction is named here: the operand kinds and fields in isa.yaml say how every
// word is taken apart and put together, so the assembler, the disassembler and the
// simulators agree by construction.
#include "umbra/isa.h"

#include <array>
#include <cstdio>

#include "umbra/format.h"

namespace umbra::isa {

namespace {

struct OpcodeMap {
  std::array<const InstrInfo*, 256> by_opcode{};
  OpcodeMap() {
    for (const InstrInfo& in : kInstrs) by_opcode[in.opcode] = &in;
  }
};
const OpcodeMap& opcode_map() {
  static const OpcodeMap m;
  return m;
}

uint32_t raw_operand_field(const Decoded& d, Field f) {
  switch (f) {
    case Field::A: return d.a;
    case Field::B: return d.b;
    case Field::C: return d.c;
    case Field::Imm16: return d.imm16;
    case Field::Imm24: return d.imm24;
    default: return 0;
  }
}

int32_t sign_extend(uint32_t v, unsigned bits) {
  const uint32_t m = 1u << (bits - 1);
  v &= (bits >= 32) ? 0xffffffffu : ((1u << bits) - 1u);
  return int32_t((v ^ m) - m);
}

}  // namespace

const InstrInfo& info(Op op) { return kInstrs[unsigned(op)]; }
const InstrInfo* find_opcode(uint8_t opcode) { return opcode_map().by_opcode[opcode]; }
const InstrInfo* find_name(std::string_view mnemonic) {
  for (const InstrInfo& in : kInstrs)
    if (mnemonic == in.name) return &in;
  return nullptr;
}
const KindInfo& kind_info(Kind k) { return kKinds[unsigned(k)]; }
const SpecialRegInfo* find_sreg(std::string_view name) {
  for (const SpecialRegInfo& s : kSpecialRegs)
    if (name == s.name) return &s;
  return nullptr;
}
const SpecialRegInfo* find_sreg(uint8_t number) {
  for (const SpecialRegInfo& s : kSpecialRegs)
    if (number == s.number) return &s;
  return nullptr;
}
const char* class_name(Class c) {
  static const char* names[] = {"integer", "float", "branch", "load", "store", "atomic", "special"};
  return names[unsigned(c)];
}
const GroupInfo* find_group(std::string_view name) {
  for (const GroupInfo& g : kGroups)
    if (name == g.name) return &g;
  return nullptr;
}
const char* format_name(Format f) {
  static const char* names[] = {"R", "I", "J", "N"};
  return names[unsigned(f)];
}

Range operand_range(Kind k) {
  const KindInfo& ki = kind_info(k);
  Range r = ki.is_signed ? Range{-(int64_t(1) << (ki.bits - 1)), (int64_t(1) << (ki.bits - 1)) - 1}
                         : Range{0, (int64_t(1) << ki.bits) - 1};
  r.lo *= ki.scale;
  r.hi *= ki.scale;
  return r;
}

int32_t Decoded::operand(int i) const {
  const OperandInfo& op = info->operands[i];
  const KindInfo& ki = kind_info(op.kind);
  const uint32_t raw = raw_operand_field(*this, op.field);
  const int32_t v = ki.is_signed ? sign_extend(raw, ki.bits) : int32_t(raw);
  return v * ki.scale;
}

uint8_t Decoded::mem_base() const {
  for (unsigned i = 0; i < info->num_operands; ++i)
    if (info->operands[i].kind == Kind::Mem) return uint8_t(raw_operand_field(*this, info->operands[i].base));
  return 0;
}

uint32_t Decoded::target(uint32_t pc) const {
  for (unsigned i = 0; i < info->num_operands; ++i)
    if (kind_info(info->operands[i].kind).pcrel) return pc + uint32_t(operand(int(i))) * 4u;
  return pc;
}

std::optional<Decoded> decode(uint32_t word, std::string* why) {
  auto reject = [&](std::string reason) -> std::optional<Decoded> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const InstrInfo* in = find_opcode(opcode_of(word));
  if (!in) return reject("opcode " + hex(opcode_of(word)) + " is not an instruction");
  Decoded d;
  d.info = in;
  d.word = word;
  d.a = uint8_t(field_value(word, Field::A));
  d.b = uint8_t(field_value(word, Field::B));
  d.c = uint8_t(field_value(word, Field::C));
  d.imm16 = field_value(word, Field::Imm16);
  d.imm24 = field_value(word, Field::Imm24);
  // Every field of the format (from isa.yaml, via kFormatFields) is either an
  // operand's, a memory operand's base, or reserved and therefore zero.
  for (const Field f : kFormatFields[unsigned(in->format)]) {
    if (f == Field::None) break;
    const OperandInfo* user = nullptr;
    bool is_base = false;
    for (unsigned i = 0; i < in->num_operands; ++i) {
      if (in->operands[i].field == f) user = &in->operands[i];
      if (in->operands[i].base == f) is_base = true;
    }
    const uint32_t v = field_value(word, f);
    if (!user && !is_base && v != 0) return reject(std::string(in->name) + " requires unused bits to be zero");
    if (user) {
      const KindInfo& ki = kind_info(user->kind);
      if (!ki.is_signed && ki.bits < field_width(f) && (v >> ki.bits) != 0)
        return reject(std::string(in->name) + " " + user->name + " " + std::to_string(v) + " exceeds " +
                      std::to_string(ki.bits) + " bits");
      if (user->kind == Kind::Sreg && !find_sreg(uint8_t(v)))
        return reject("special register " + std::to_string(v) + " does not exist");
    }
  }
  return d;
}

std::optional<uint32_t> encode(const InstrInfo& in, const int32_t* values, uint8_t mem_base, std::string* why) {
  uint32_t word = uint32_t(in.opcode) << kOpcodeLsb;
  for (unsigned i = 0; i < in.num_operands; ++i) {
    const OperandInfo& op = in.operands[i];
    const KindInfo& ki = kind_info(op.kind);
    const Range r = operand_range(op.kind);
    int64_t v = values[i];
    if (v < r.lo || v > r.hi || v % ki.scale != 0) {
      if (why) {
        *why = std::string(in.name) + " " + op.name + " " + std::to_string(v) + " out of range " +
               std::to_string(r.lo) + ".." + std::to_string(r.hi);
        if (ki.scale > 1) *why += " (a multiple of " + std::to_string(ki.scale) + ")";
      }
      return std::nullopt;
    }
    // Checked after the range, so that uint8_t(v) is the number that was written.
    if (op.kind == Kind::Sreg && !find_sreg(uint8_t(v))) {
      if (why)
        *why = std::string(in.name) + " " + op.name + ": special register " + std::to_string(v) +
               " does not exist";
      return std::nullopt;
    }
    const uint32_t stored = uint32_t(v / ki.scale) & ((1u << field_width(op.field)) - 1u) &
                            (ki.is_signed ? ~0u : ((1u << ki.bits) - 1u));
    word |= stored << field_lsb(op.field);
    if (op.kind == Kind::Mem) word |= uint32_t(mem_base) << field_lsb(op.base);
  }
  return word;
}

std::string disassemble(uint32_t word, uint32_t pc, const LabelFn& label) {
  std::string why;
  const auto d = decode(word, &why);
  char buf[32];
  if (!d) {
    std::snprintf(buf, sizeof buf, ".word 0x%08x", word);
    return std::string(buf) + "  # invalid: " + why;
  }
  std::string s = d->info->name;
  for (unsigned i = 0; i < d->info->num_operands; ++i) {
    const OperandInfo& op = d->info->operands[i];
    s += i ? ", " : " ";
    switch (op.kind) {
      case Kind::Reg: s += "r" + std::to_string(d->operand(int(i))); break;
      case Kind::Sreg: s += find_sreg(uint8_t(d->operand(int(i))))->name; break;
      case Kind::Mem: s += std::to_string(d->operand(int(i))) + "(r" + std::to_string(d->mem_base()) + ")"; break;
      case Kind::Br8:
      case Kind::Br16:
      case Kind::Br24: {
        const uint32_t t = d->target(pc);
        std::optional<std::string> name = label ? label(t) : std::nullopt;
        s += name ? *name : hex(t);
        break;
      }
      default: s += std::to_string(d->operand(int(i))); break;
    }
  }
  return s;
}

}  // namespace umbra::isa
