// The Umbra ISA as tables: every instruction's opcode, format, operands and class,
// generated from isa/isa.yaml (isa_gen.h/.cpp in the build tree), plus the generic
// decode, encode and disassembly that work from those tables alone.  Nothing here
// names a particular instruction's encoding; adding an instruction to the YAML is
// enough for the assembler, the disassembler and the decoders to know it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace umbra::isa {

enum class Format : uint8_t { R, I, J, N };
enum class Class : uint8_t { Integer, Float, Branch, Load, Store, Atomic, Special };
// How an operand is written and stored (isa.yaml, operand_kinds).
enum class Kind : uint8_t { Reg, Sreg, Simm8, Uimm5, Lane, Simm16, Uimm16, Br8, Br16, Br24, Mem };
// Instruction fields; each has one position in every format that has it.
enum class Field : uint8_t { A, B, C, Imm16, Imm24, Zero, None };
enum class Access : uint8_t { None, Read, Write, ReadWrite };

struct KindInfo {
  Kind kind;
  const char* name;
  uint8_t bits;    // significant bits of the stored value
  bool is_signed;  // stored two's complement
  bool pcrel;      // stored as a word offset from the instruction's own address
  uint8_t scale;   // stored value = written value / scale
  const char* doc;
};

struct OperandInfo {
  const char* name;
  Kind kind;
  Field field;
  Access access;  // registers only
  Field base;     // Mem only: the field holding the base register
};

enum class Op : uint16_t;  // defined in isa_gen.h

struct InstrInfo {
  Op op;
  const char* name;
  uint8_t opcode;
  Format format;
  Class cls;
  uint8_t num_operands;
  OperandInfo operands[3];
  const char* semantics;
  // Derived from the operands: which of fields a, b, c are register reads, and
  // whether field a names a register the instruction writes.
  bool reads_a, reads_b, reads_c, writes_a;
  // Decode attributes, derived by umbra-isagen from the operands and the class (the
  // RTL's umbra_decode_attr() has the same): a conditional branch; field a's register
  // written from the computed result, or from memory (a load, a returning atomic: the
  // thread sleeps); a data-memory request (load, store, atomic); an FPU instruction.
  bool cond_branch, writes_result, returns_data, memory, fpu;
  // Its extension group (isa.yaml, groups): an index into kGroups and the group's bit
  // in a configuration's mask (Config::groups).
  uint8_t group;
};

// An extension group: a configuration implements the instructions of the groups it
// lists (core.groups); a required group is in every configuration.
struct GroupInfo {
  const char* name;
  bool required;
  const char* doc;
};

struct SpecialRegInfo {
  const char* name;
  uint8_t number;
  const char* doc;
};

}  // namespace umbra::isa

#include "umbra/isa_gen.h"  // Op, kNumOps, kInstrs, kKinds, kSpecialRegs (generated)

namespace umbra::isa {

constexpr unsigned kOpcodeLsb = 24;
unsigned field_lsb(Field f);
unsigned field_width(Field f);
inline uint32_t field_value(uint32_t word, Field f) {
  const unsigned w = field_width(f);
  return (word >> field_lsb(f)) & (w >= 32 ? 0xffffffffu : ((1u << w) - 1u));
}
inline uint8_t opcode_of(uint32_t word) { return uint8_t(word >> kOpcodeLsb); }

const InstrInfo& info(Op op);
const InstrInfo* find_opcode(uint8_t opcode);  // nullptr if no instruction has it
const InstrInfo* find_name(std::string_view mnemonic);
const KindInfo& kind_info(Kind k);
const SpecialRegInfo* find_sreg(std::string_view name);
const SpecialRegInfo* find_sreg(uint8_t number);
const char* class_name(Class c);
const GroupInfo* find_group(std::string_view name);  // nullptr if no group has it
// The group of an instruction is in a configuration's mask (Config::groups).
inline bool in_groups(const InstrInfo& in, uint32_t groups) {
  return (groups >> in.group) & 1u;
}
const char* format_name(Format f);

// A decoded word: raw fields plus operand values as the assembler writes them.
struct Decoded {
  const InstrInfo* info = nullptr;
  uint32_t word = 0;
  uint8_t a = 0, b = 0, c = 0;
  uint32_t imm16 = 0, imm24 = 0;  // raw, not sign-extended

  Op op() const { return info->op; }
  // Operand i: register/special-register number, immediate (sign-extended per its
  // kind), the byte offset of a memory operand, or the word offset of a branch.
  int32_t operand(int i) const;
  uint8_t mem_base() const;  // base register of the memory operand
  // Branch target of the pc-relative operand for an instruction at address pc.
  uint32_t target(uint32_t pc) const;
};

// Decodes a word.  A word no instruction encodes (unknown opcode, a non-zero field
// the format reserves, stray bits above a narrow immediate) gives nullopt and a
// reason in *why.
std::optional<Decoded> decode(uint32_t word, std::string* why = nullptr);

// Encodes an instruction from operand values in the sense of Decoded::operand
// (branch operands as word offsets; a memory operand's byte offset, with its base
// register in mem_base).  Out-of-range values give nullopt and a message naming the
// operand and its range in *why.
std::optional<uint32_t> encode(const InstrInfo& in, const int32_t* values, uint8_t mem_base = 0,
                               std::string* why = nullptr);

// Range of written values an operand of this kind accepts (branches: word offsets).
struct Range {
  int64_t lo, hi;
};
Range operand_range(Kind k);

// Assembly text for a word that umbra-as accepts back.  Branch targets print as
// absolute addresses (or through `label`, when it names one); invalid words print
// as `.word 0x...  # invalid: reason`.
using LabelFn = std::function<std::optional<std::string>(uint32_t address)>;
std::string disassemble(uint32_t word, uint32_t pc, const LabelFn& label = nullptr);

}  // namespace umbra::isa
