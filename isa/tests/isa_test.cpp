// Tests of the ISA library: the generated tables against isa.yaml itself (read here
// with yaml-cpp, independently of the generator), and the generic encode, decode and
// disassembly built on them.  Every instruction is exercised from the tables, so an
// instruction added to the YAML is covered without touching this file; a handful
// of hand-assembled words pin the encodings and the assembly text users rely on.
#include "umbra/isa.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "umbra/format.h"

namespace umbra::isa {
namespace {

const YAML::Node& yaml() {
  static const YAML::Node root = YAML::LoadFile(UMBRA_ISA_YAML);
  return root;
}

// The YAML spelling of the tables' enums, to compare the two.
std::string yaml_field(Field f) {
  switch (f) {
    case Field::A: return "a";
    case Field::B: return "b";
    case Field::C: return "c";
    case Field::Imm16: return "imm16";
    case Field::Imm24: return "imm24";
    case Field::Zero: return "zero";
    case Field::None: return "";
  }
  return "?";
}

std::string yaml_access(Access a) {
  switch (a) {
    case Access::None: return "";
    case Access::Read: return "r";
    case Access::Write: return "w";
    case Access::ReadWrite: return "rw";
  }
  return "?";
}

std::string str(const YAML::Node& n, const char* key) {
  return n[key] ? n[key].as<std::string>() : "";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// ---- the tables are the YAML -----------------------------------------------------

TEST(Tables, InstructionsMatchIsaYaml) {
  const YAML::Node instrs = yaml()["instructions"];
  ASSERT_EQ(kNumOps, instrs.size());
  for (unsigned i = 0; i < kNumOps; ++i) {
    const YAML::Node y = instrs[i];
    const InstrInfo& in = kInstrs[i];
    SCOPED_TRACE(str(y, "name"));
    EXPECT_EQ(in.name, str(y, "name"));
    EXPECT_EQ(in.opcode, y["opcode"].as<int>());
    EXPECT_EQ(format_name(in.format), str(y, "format"));
    EXPECT_EQ(class_name(in.cls), str(y, "class"));
    ASSERT_LT(in.group, kNumGroups);
    EXPECT_EQ(kGroups[in.group].name, str(y, "group"));
    EXPECT_EQ(find_group(str(y, "group")), &kGroups[in.group]);
    EXPECT_TRUE(in_groups(in, kAllGroups));
    EXPECT_EQ(in_groups(in, 1u << group::BASE), str(y, "group") == "base");
    EXPECT_EQ(&info(in.op), &in);
    EXPECT_EQ(find_name(in.name), &in);
    EXPECT_EQ(find_opcode(in.opcode), &in);
    ASSERT_EQ(in.num_operands, y["operands"].size());
    bool reads[3] = {false, false, false}, writes_a = false;
    for (unsigned k = 0; k < in.num_operands; ++k) {
      const YAML::Node yo = y["operands"][k];
      const OperandInfo& op = in.operands[k];
      EXPECT_EQ(op.name, str(yo, "name"));
      EXPECT_EQ(kind_info(op.kind).name, str(yo, "kind"));
      EXPECT_EQ(yaml_field(op.field), str(yo, "field"));
      EXPECT_EQ(yaml_access(op.access), str(yo, "access"));
      EXPECT_EQ(yaml_field(op.base), str(yo, "base"));
      // What the hazard logic needs: register reads per field, and the write.
      const std::string access = str(yo, "access"), field = str(yo, "field"), base = str(yo, "base");
      if (contains(access, "r")) reads[field[0] - 'a'] = true;
      if (contains(access, "w")) writes_a = true;
      if (!base.empty()) reads[base[0] - 'a'] = true;
    }
    EXPECT_EQ(in.reads_a, reads[0]);
    EXPECT_EQ(in.reads_b, reads[1]);
    EXPECT_EQ(in.reads_c, reads[2]);
    EXPECT_EQ(in.writes_a, writes_a);
  }
  EXPECT_EQ(find_name("no.such"), nullptr);
}

TEST(Tables, KindsMatchIsaYamlAndTheirEnum) {
  std::map<std::string, YAML::Node> by_name;
  for (const auto& k : yaml()["operand_kinds"])
    by_name.emplace(str(k, "name"), static_cast<const YAML::Node&>(k));
  ASSERT_EQ(kNumKinds, by_name.size());
  for (unsigned i = 0; i < kNumKinds; ++i) {
    // kind_info() indexes by the enum: entry i must describe Kind(i).
    const KindInfo& ki = kind_info(Kind(i));
    EXPECT_EQ(ki.kind, Kind(i));
    ASSERT_EQ(by_name.count(ki.name), 1u) << ki.name;
    const YAML::Node y = by_name[ki.name];
    EXPECT_EQ(ki.bits, y["bits"].as<int>()) << ki.name;
    EXPECT_EQ(ki.is_signed, y["signed"] && y["signed"].as<bool>()) << ki.name;
    EXPECT_EQ(ki.pcrel, y["pcrel"] && y["pcrel"].as<bool>()) << ki.name;
    EXPECT_EQ(ki.scale, y["scale"] ? y["scale"].as<int>() : 1) << ki.name;
  }
}

TEST(Tables, SpecialRegistersMatchIsaYaml) {
  ASSERT_EQ(kNumSpecialRegs, yaml()["special_registers"].size());
  for (const auto& s : yaml()["special_registers"]) {
    const std::string name = str(s, "name");
    const int number = s["number"].as<int>();
    ASSERT_NE(find_sreg(name), nullptr) << name;
    EXPECT_EQ(find_sreg(name)->number, number);
    ASSERT_NE(find_sreg(uint8_t(number)), nullptr) << name;
    EXPECT_EQ(find_sreg(uint8_t(number))->name, name);
  }
}

TEST(Tables, FieldPositionsAgreeWithFormats) {
  for (const auto& f : yaml()["formats"]) {
    const std::string fname = str(f, "name");
    Format format = Format::R;
    bool found = false;
    for (Format cand : {Format::R, Format::I, Format::J, Format::N})
      if (format_name(cand) == fname) format = cand, found = true;
    ASSERT_TRUE(found) << fname;
    std::vector<std::string> yaml_fields, table_fields;
    for (const auto& fl : f["fields"]) {
      const std::string name = str(fl, "name");
      if (name == "op") {
        EXPECT_EQ(kOpcodeLsb, fl["lsb"].as<unsigned>());
        EXPECT_EQ(fl["width"].as<int>(), 8);
        continue;
      }
      yaml_fields.push_back(name);
      bool known = false;
      for (Field cand : {Field::A, Field::B, Field::C, Field::Imm16, Field::Imm24, Field::Zero})
        if (yaml_field(cand) == name) {
          known = true;
          EXPECT_EQ(field_lsb(cand), fl["lsb"].as<unsigned>()) << fname << "." << name;
          EXPECT_EQ(field_width(cand), fl["width"].as<unsigned>()) << fname << "." << name;
        }
      EXPECT_TRUE(known) << name;
    }
    // decode() takes a format's fields from kFormatFields.
    for (Field fld : kFormatFields[unsigned(format)])
      if (fld != Field::None) table_fields.push_back(yaml_field(fld));
    EXPECT_EQ(table_fields, yaml_fields) << fname;
  }
}

// ---- encode / decode -------------------------------------------------------------

TEST(OperandRange, PerKindAsIsaYamlDocumentsThem) {
  // The ranges the operand-kind docs in isa.yaml state; the assembler's range errors
  // and every encoder depend on them.
  const std::map<Kind, Range> documented = {
      {Kind::Reg, {0, 255}},         {Kind::Sreg, {0, 255}},
      {Kind::Simm8, {-128, 127}},    {Kind::Uimm5, {0, 31}},
      {Kind::Lane, {0, 3}},          {Kind::Simm16, {-32768, 32767}},
      {Kind::Uimm16, {0, 65535}},    {Kind::Br8, {-128, 127}},
      {Kind::Br16, {-32768, 32767}}, {Kind::Br24, {-(1 << 23), (1 << 23) - 1}},
      {Kind::Mem, {-512, 508}},
  };
  ASSERT_EQ(documented.size(), kNumKinds);
  for (const auto& [k, r] : documented) {
    EXPECT_EQ(operand_range(k).lo, r.lo) << kind_info(k).name;
    EXPECT_EQ(operand_range(k).hi, r.hi) << kind_info(k).name;
  }
}

// Boundary values of an operand: its kind's minimum, maximum and zero (for a memory
// operand also one scale step either side of zero); for a special register, the
// lowest and highest defined numbers.
std::vector<int32_t> boundaries(const OperandInfo& op) {
  if (op.kind == Kind::Sreg) {
    int lo = 255, hi = 0;
    for (const SpecialRegInfo& s : kSpecialRegs)
      lo = std::min<int>(lo, s.number), hi = std::max<int>(hi, s.number);
    return {lo, hi};
  }
  const Range r = operand_range(op.kind);
  const int32_t step = kind_info(op.kind).scale;
  std::vector<int32_t> v = {int32_t(r.lo), int32_t(r.hi), 0};
  if (step > 1) v.insert(v.end(), {-step, step});
  return v;
}

// A valid value for every operand, to vary one at a time from.
std::vector<int32_t> neutral(const InstrInfo& in) {
  std::vector<int32_t> v(3, 0);
  for (unsigned i = 0; i < in.num_operands; ++i) v[i] = boundaries(in.operands[i])[0];
  return v;
}

void expect_round_trip(const InstrInfo& in, const std::vector<int32_t>& values, uint8_t base) {
  std::string why;
  const auto word = encode(in, values.data(), base, &why);
  ASSERT_TRUE(word) << in.name << ": " << why;
  EXPECT_EQ(opcode_of(*word), in.opcode) << in.name;
  const auto d = decode(*word, &why);
  ASSERT_TRUE(d) << in.name << " " << std::hex << *word << ": " << why;
  EXPECT_EQ(d->info, &in);
  EXPECT_EQ(d->word, *word);
  for (unsigned i = 0; i < in.num_operands; ++i) {
    EXPECT_EQ(d->operand(int(i)), values[i]) << in.name << " operand " << in.operands[i].name;
    if (in.operands[i].kind == Kind::Mem) {
      EXPECT_EQ(d->mem_base(), base) << in.name;
    }
  }
}

TEST(Encode, BoundaryValuesOfEveryOperandRoundTrip) {
  for (const InstrInfo& in : kInstrs) {
    SCOPED_TRACE(in.name);
    for (uint8_t base : {0, 255}) {
      // Each operand through its boundaries with the others held (so that a value
      // leaking into a neighbouring field shows up there) ...
      for (unsigned i = 0; i < in.num_operands; ++i)
        for (int32_t v : boundaries(in.operands[i])) {
          std::vector<int32_t> values = neutral(in);
          values[i] = v;
          expect_round_trip(in, values, base);
        }
      // ... and all operands at their maximum, then at their minimum, together.
      for (int end : {0, 1}) {
        std::vector<int32_t> values(3, 0);
        for (unsigned i = 0; i < in.num_operands; ++i) values[i] = boundaries(in.operands[i])[end];
        expect_round_trip(in, values, base);
      }
    }
  }
}

TEST(Encode, OutOfRangeValuesAreRejectedNamingTheOperand) {
  for (const InstrInfo& in : kInstrs)
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const OperandInfo& op = in.operands[i];
      const Range r = operand_range(op.kind);
      std::vector<int64_t> bad = {r.lo - 1, r.hi + 1, int64_t(INT32_MIN), int64_t(INT32_MAX)};
      if (kind_info(op.kind).scale > 1) bad.insert(bad.end(), {1, -1, r.hi - 1});
      if (op.kind == Kind::Sreg)
        for (int n = 0; n < 256; ++n)
          if (!find_sreg(uint8_t(n))) bad.push_back(n);
      for (int64_t v : bad) {
        if (v < INT32_MIN || v > INT32_MAX) continue;
        std::vector<int32_t> values = neutral(in);
        values[i] = int32_t(v);
        std::string why;
        EXPECT_FALSE(encode(in, values.data(), 0, &why)) << in.name << " " << op.name << " = " << v;
        EXPECT_TRUE(contains(why, std::string(in.name) + " " + op.name))
            << "message does not name " << in.name << " " << op.name << ": " << why;
      }
    }
}

TEST(Decode, EveryOpcodeIsAnInstructionExactlyWhenIsaYamlSaysSo) {
  std::map<int, std::string> yaml_ops;
  for (const auto& y : yaml()["instructions"]) yaml_ops[y["opcode"].as<int>()] = str(y, "name");
  for (int opcode = 0; opcode < 256; ++opcode) {
    // All-zero operand fields are valid for every instruction (r0, tid, offset 0).
    std::string why;
    const auto d = decode(uint32_t(opcode) << 24, &why);
    if (yaml_ops.count(opcode)) {
      ASSERT_TRUE(d) << opcode << ": " << why;
      EXPECT_EQ(d->info->name, yaml_ops[opcode]);
    } else {
      EXPECT_FALSE(d) << "opcode " << opcode << " decodes as " << d->info->name;
      EXPECT_EQ(find_opcode(uint8_t(opcode)), nullptr);
      EXPECT_TRUE(contains(why, "opcode " + umbra::hex(opcode))) << why;
    }
  }
}

TEST(Decode, OpcodeZeroIsIllegalSoZeroedMemoryFaults) {
  EXPECT_EQ(find_opcode(0), nullptr);
  EXPECT_FALSE(decode(0x00000000));
  EXPECT_FALSE(decode(0x00ffffff));
}

// Which fields of its format an instruction leaves unused, read from the YAML.
std::vector<std::pair<int, int>> unused_fields(const YAML::Node& instr) {
  std::set<std::string> used = {"op"};
  for (const auto& o : instr["operands"]) {
    used.insert(str(o, "field"));
    if (o["base"]) used.insert(str(o, "base"));
  }
  std::vector<std::pair<int, int>> r;  // lsb, width
  for (const auto& f : yaml()["formats"])
    if (str(f, "name") == str(instr, "format"))
      for (const auto& fl : f["fields"])
        if (!used.count(str(fl, "name"))) r.push_back({fl["lsb"].as<int>(), fl["width"].as<int>()});
  return r;
}

TEST(Decode, NonZeroUnusedFieldsAreRejected) {
  int checked = 0;
  for (const auto& y : yaml()["instructions"]) {
    const uint32_t base_word = y["opcode"].as<uint32_t>() << 24;
    ASSERT_TRUE(decode(base_word));
    for (auto [lsb, width] : unused_fields(y))
      for (int bit = lsb; bit < lsb + width; ++bit) {
        std::string why;
        EXPECT_FALSE(decode(base_word | (1u << bit), &why)) << str(y, "name") << " bit " << bit;
        EXPECT_TRUE(contains(why, str(y, "name"))) << why;
        ++checked;
      }
  }
  // nop's 24 zero bits at least; jalr's c, rdsr's c and red.*'s a besides.
  EXPECT_GT(checked, 24);
}

TEST(Decode, StrayBitsAboveNarrowKindsAreRejected) {
  int checked = 0;
  for (const InstrInfo& in : kInstrs)
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const OperandInfo& op = in.operands[i];
      const KindInfo& ki = kind_info(op.kind);
      if (ki.is_signed) continue;
      for (unsigned bit = ki.bits; bit < field_width(op.field); ++bit) {
        std::string why;
        const uint32_t word = (uint32_t(in.opcode) << 24) | (1u << (field_lsb(op.field) + bit));
        EXPECT_FALSE(decode(word, &why)) << in.name << " " << op.name << " bit " << bit;
        EXPECT_TRUE(contains(why, std::string(in.name) + " " + op.name)) << why;
        ++checked;
      }
    }
  EXPECT_GT(checked, 0);
  // The two narrow kinds of isa.yaml, by hand: shift amounts stop at 31, lanes at 3.
  EXPECT_FALSE(decode(0x34010220));  // shli r1, r2, 32
  EXPECT_TRUE(decode(0x3401021f));   // shli r1, r2, 31
  EXPECT_FALSE(decode(0x4e010204));  // unpack r1, r2, 4
  ASSERT_TRUE(decode(0x4e010203));   // unpack r1, r2, 3
  EXPECT_EQ(decode(0x4e010203)->operand(2), 3);
}

TEST(Decode, UnknownSpecialRegisterNumbersAreRejected) {
  std::set<int> defined;
  for (const auto& s : yaml()["special_registers"]) defined.insert(s["number"].as<int>());
  const InstrInfo* rdsr = find_name("rdsr");
  ASSERT_NE(rdsr, nullptr);
  for (int n = 0; n < 256; ++n) {
    std::string why;
    const auto d = decode((uint32_t(rdsr->opcode) << 24) | (5u << 16) | (uint32_t(n) << 8), &why);
    if (defined.count(n)) {
      ASSERT_TRUE(d) << n << ": " << why;
      EXPECT_EQ(d->operand(1), n);
    } else {
      EXPECT_FALSE(d) << n;
      EXPECT_TRUE(contains(why, "special register " + std::to_string(n))) << why;
    }
  }
}

TEST(Decode, BranchTargetsAreWordOffsetsFromTheBranch) {
  const auto beq = decode(0x780102fe);  // beq r1, r2, -2 words
  ASSERT_TRUE(beq);
  EXPECT_EQ(beq->operand(2), -2);
  EXPECT_EQ(beq->target(0x100), 0xf8u);
  const auto j = decode(0x70800000);  // j, the most negative 24-bit offset
  ASSERT_TRUE(j);
  EXPECT_EQ(j->target(0x02000000), 0u);
}

// ---- disassembly -----------------------------------------------------------------

TEST(Disassemble, RepresentativeInstructions) {
  // Words assembled by hand from the layouts in docs/isa.md.
  EXPECT_EQ(disassemble(0x01000000, 0), "nop");
  EXPECT_EQ(disassemble(0x500103fe, 0), "ldw r1, -8(r3)");
  EXPECT_EQ(disassemble(0x51ff0a7f, 0), "stw r255, 508(r10)");
  EXPECT_EQ(disassemble(0x06000380, 0), "dinv -512(r3)");
  EXPECT_EQ(disassemble(0x30010280, 0), "addi r1, r2, -128");
  EXPECT_EQ(disassemble(0x03050400, 0), "rdsr r5, clock");
  EXPECT_EQ(disassemble(0x4e010203, 0), "unpack r1, r2, 3");
  EXPECT_EQ(disassemble(0x0407ffff, 0), "movi r7, -1");
  EXPECT_EQ(disassemble(0x0507ffff, 0), "movhi r7, 65535");
  EXPECT_EQ(disassemble(0x60000304, 0), "red.add r3, r4");
  EXPECT_EQ(disassemble(0x6c010203, 0), "atom.cas r1, r2, r3");
}

TEST(Disassemble, BranchTargetsAreAbsoluteAddresses) {
  EXPECT_EQ(disassemble(0x780102fe, 0x100), "beq r1, r2, 0xf8");
  EXPECT_EQ(disassemble(0x74040003, 0x40), "bnz r4, 0x4c");
  EXPECT_EQ(disassemble(0x707fffff, 0), "j 0x1fffffc");
  EXPECT_EQ(disassemble(0x711f0000, 0x20), "jal r31, 0x20");
}

TEST(Disassemble, BranchTargetsUseLabelsWhenTheLabelFunctionNamesThem) {
  std::vector<uint32_t> asked;
  const LabelFn label = [&](uint32_t address) -> std::optional<std::string> {
    asked.push_back(address);
    if (address == 0xf8) return "loop";
    return std::nullopt;
  };
  EXPECT_EQ(disassemble(0x780102fe, 0x100, label), "beq r1, r2, loop");
  EXPECT_EQ(disassemble(0x74040003, 0x40, label), "bnz r4, 0x4c");  // no label there
  EXPECT_EQ(asked, (std::vector<uint32_t>{0xf8, 0x4c}));
  asked.clear();
  EXPECT_EQ(disassemble(0x10010203, 0, label), "add r1, r2, r3");
  EXPECT_TRUE(asked.empty()) << "only branch targets are looked up";
}

TEST(Disassemble, InvalidWordsPrintAsDataWithTheReason) {
  EXPECT_EQ(disassemble(0x00000000, 0).rfind(".word 0x00000000  # invalid: ", 0), 0u);
  const std::string shli = disassemble(0x34010240, 0);  // shli with sh = 64
  EXPECT_EQ(shli.rfind(".word 0x34010240  # invalid: ", 0), 0u) << shli;
  EXPECT_TRUE(contains(shli, "shli sh")) << shli;
  const std::string jalr = disassemble(0x721f0001, 0);  // jalr uses no field c
  EXPECT_EQ(jalr.rfind(".word 0x721f0001  # invalid: ", 0), 0u) << jalr;
}

// ---- opcode-bit conventions the RTL decode relies on (isa.yaml header) -----------

TEST(OpcodeConventions, HighNibbleSelectsTheClass) {
  std::map<int, std::set<Class>> groups;
  for (const InstrInfo& in : kInstrs) groups[in.opcode >> 4].insert(in.cls);
  // Documented in isa.yaml ("0x5_: loads and stores"): the memory unit's group holds
  // both loads and stores.  Every other group is a single class.
  const std::set<Class> memory = {Class::Load, Class::Store};
  int memory_groups = 0;
  for (const auto& [group, classes] : groups) {
    if (classes == memory) {
      ++memory_groups;
      continue;
    }
    EXPECT_EQ(classes.size(), 1u) << "opcode group 0x" << std::hex << group << "_ mixes classes";
  }
  EXPECT_EQ(memory_groups, 1);
}

TEST(OpcodeConventions, AtomicOp3MeansTheOldValueIsReturned) {
  int atomics = 0;
  for (const InstrInfo& in : kInstrs) {
    if (in.cls != Class::Atomic) continue;
    ++atomics;
    const bool op3 = in.opcode & 0x08;
    const std::string name = in.name;
    EXPECT_EQ(op3, name.rfind("atom.", 0) == 0) << name;
    EXPECT_EQ(op3, in.writes_a) << name << ": op[3] must say whether rd is written";
    // The returning and the non-returning form of one operation differ only in op[3].
    const std::string twin = (op3 ? "red." : "atom.") + name.substr(name.find('.') + 1);
    const InstrInfo* other = find_name(twin);
    ASSERT_NE(other, nullptr) << name << " has no " << twin;
    EXPECT_EQ(other->opcode, in.opcode ^ 0x08) << name;
  }
  EXPECT_GT(atomics, 0);
}

}  // namespace
}  // namespace umbra::isa
