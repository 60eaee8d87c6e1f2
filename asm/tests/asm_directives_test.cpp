// The assembly language beyond single instructions: directives, sections, symbols,
// expressions, pseudo-instructions, the register limit and .include.  Expected words
// are computed through isa::encode or by assembling the documented expansion, never
// written out as hex, so these tests check the language and not a copy of the ISA.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstring>
#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/isa.h"

namespace {

using umbra::Program;
using umbra::as::assemble_file;
using umbra::as::assemble_string;
using umbra::as::Options;

const std::string kData = UMBRA_ASM_TEST_DATA;

Program ok(const std::string& src, const Options& o = {}) {
  auto r = assemble_string(src, "t.s", o);
  std::string all;
  for (const auto& d : r.errors) all += d.render();
  EXPECT_TRUE(r.ok()) << src << "\n" << all;
  return r.program;
}

uint32_t enc(const char* name, std::vector<int32_t> v, uint8_t base = 0) {
  const auto* in = umbra::isa::find_name(name);
  EXPECT_NE(in, nullptr) << name;
  v.resize(3);
  auto w = umbra::isa::encode(*in, v.data(), base);
  EXPECT_TRUE(w) << name;
  return w.value_or(0);
}

uint32_t data_word(const Program& p, size_t i) {
  uint32_t w = 0;
  std::memcpy(&w, p.data.data() + 4 * i, 4);  // the test host is little-endian like Umbra
  return w;
}

int64_t value_of(const std::string& expr) {
  const Program p = ok(".data\n.word " + expr + "\n");
  EXPECT_EQ(p.data.size(), 4u);
  return int32_t(data_word(p, 0));
}

TEST(AsmExpr, PrecedenceAndOperators) {
  EXPECT_EQ(value_of("1 + 2 * 3"), 7);
  EXPECT_EQ(value_of("(1 + 2) * 3"), 9);
  EXPECT_EQ(value_of("1 << 2 + 1"), 8);      // + binds tighter than <<
  EXPECT_EQ(value_of("6 & 3 ^ 1 | 8"), 11);  // & before ^ before |
  EXPECT_EQ(value_of("1 | 2 ^ 3 & 1"), 3);   // 1 | (2 ^ (3 & 1))
  EXPECT_EQ(value_of("10 - 2 - 3"), 5);      // left associative
  EXPECT_EQ(value_of("100 / 10 / 2"), 5);
  EXPECT_EQ(value_of("-2 * 3"), -6);
  EXPECT_EQ(value_of("- (2 + 3)"), -5);
  EXPECT_EQ(value_of("~0 & 0xff"), 255);
  EXPECT_EQ(value_of("+7"), 7);
  EXPECT_EQ(value_of("-7 / 2"), -3);  // truncates toward zero, like C
  EXPECT_EQ(value_of("-7 % 3"), -1);
  EXPECT_EQ(value_of("-16 >> 2"), -4);  // arithmetic shift
  EXPECT_EQ(value_of("0b1011"), 11);
  EXPECT_EQ(value_of("0X1f"), 31);
  EXPECT_EQ(value_of("010"), 10);  // leading zeros are decimal
  EXPECT_EQ(value_of("'a'"), 97);
  EXPECT_EQ(value_of("'\\n'"), 10);
  EXPECT_EQ(value_of("((1 << 40) >> 38)"), 4);  // 64-bit intermediate values
  EXPECT_EQ(value_of("0xffffffff"), -1);
}

TEST(AsmSymbols, LabelsConstantsAndDot) {
  const Program p =
      ok("N = 3\n"
         ".equ M, N * 2\n"
         "a: nop\n"
         "b: nop\n"
         "   .data\n"
         "d: .word N, M, b - a, ., END - a, LATER\n"
         "   .text\n"
         "c: nop\n"
         "END:\n"
         "LATER = END + 4\n");
  ASSERT_EQ(p.data.size(), 24u);
  EXPECT_EQ(data_word(p, 0), 3u);
  EXPECT_EQ(data_word(p, 1), 6u);
  EXPECT_EQ(data_word(p, 2), 4u);
  EXPECT_EQ(data_word(p, 3), 0x10000u + 12);  // `.` is the address of that word
  EXPECT_EQ(data_word(p, 4), 12u);            // forward reference
  EXPECT_EQ(data_word(p, 5), 16u);            // constant defined from a later label
  EXPECT_EQ(p.symbol("c"), 8u);
  EXPECT_EQ(p.symbol("d"), 0x10000u);
  EXPECT_EQ(p.text_label(4), "b");
}

TEST(AsmDirectives, SectionsWordFloatSpaceAlign) {
  const Program p =
      ok("      .word 0x12345678, -1\n"  // raw words in .text
         "      .data\n"
         "x:    .space 3, 0xab\n"
         "      .align 4\n"
         "y:    .float 1.5, -2, 0x1p-2, inf\n"
         "      .space 2\n"
         "      .text\n"
         "      .align 16\n"  // pads .text with nop
         "t:    .space 8, 1\n"
         "      .data\n"
         "z:    .align 8\n");
  ASSERT_EQ(p.text.size(), 6u);
  EXPECT_EQ(p.text[0], 0x12345678u);
  EXPECT_EQ(p.text[1], 0xffffffffu);
  EXPECT_EQ(p.text[2], enc("nop", {}));
  EXPECT_EQ(p.text[3], enc("nop", {}));
  EXPECT_EQ(p.text[4], 0x01010101u);
  EXPECT_EQ(p.symbol("t"), 16u);
  ASSERT_EQ(p.data.size(), 24u);
  EXPECT_EQ(p.data[0], 0xab);
  EXPECT_EQ(p.data[2], 0xab);
  EXPECT_EQ(p.data[3], 0);  // .align pads .data with zero bytes
  EXPECT_EQ(p.symbol("y"), 0x10004u);
  float f[4];
  std::memcpy(f, p.data.data() + 4, 16);
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -2.0f);
  EXPECT_EQ(f[2], 0.25f);
  EXPECT_TRUE(std::isinf(f[3]) && f[3] > 0);
  EXPECT_EQ(p.symbol("z"), 0x10000u + 22);
}

TEST(AsmDirectives, DataBaseOption) {
  Options o;
  o.data_base = 0x2000;
  const Program p = ok(".data\nv: .word v\n", o);
  EXPECT_EQ(p.data_base, 0x2000u);
  EXPECT_EQ(data_word(p, 0), 0x2000u);
}

TEST(AsmDirectives, GlobalAndEntry) {
  Program p = ok(".global main, _start\nmain: nop\n_start: exit\n");
  EXPECT_EQ(p.entry, 4u);
  ASSERT_EQ(p.symbols.size(), 2u);
  for (const auto& s : p.symbols) EXPECT_TRUE(s.global) << s.name;
  p = ok("a: nop\nb: exit\n");
  EXPECT_EQ(p.entry, 0u);  // no _start: the start of .text
  for (const auto& s : p.symbols) EXPECT_FALSE(s.global) << s.name;
}

TEST(AsmPseudo, ExpandAsIsaYamlSays) {
  // Each pair: the pseudo-instruction and the expansion listed in isa.yaml.
  const std::pair<const char*, const char*> cases[] = {
      {"mov r5, r6", "addi r5, r6, 0"},
      {"not r5, r6", "xori r5, r6, -1"},
      {"neg r5, r6", "sub r5, r0, r6"},
      {"b . + 8", "j . + 8"},
      {"ret", "jalr r0, r31"},
      {"call . - 4", "jal r31, . - 4"},
      {"li r7, -32768", "movi r7, -32768"},
      {"li r7, 32767", "movi r7, 32767"},
      {"li r7, 0x12345678", "movi r7, 0x5678\nmovhi r7, 0x1234"},
      {"li r7, 32768", "movi r7, -32768\nmovhi r7, 0"},
      {"li r7, 0xffff8000", "movi r7, -32768\nmovhi r7, 0xffff"},
      {"li r7, -32769", "movi r7, 0x7fff\nmovhi r7, 0xffff"},
      {"li r7, LATER\nLATER = 5", "movi r7, 5\nmovhi r7, 0"},  // not known yet: two words
      {"la r7, 8", "movi r7, 8\nmovhi r7, 0"},                 // la is always two words
      {"la r7, tbl\n.data\n.space 8\ntbl: .word 0", "movi r7, 8\nmovhi r7, 1"},
  };
  for (const auto& [pseudo, expansion] : cases) {
    const Program a = ok(std::string(".space 16\n") + pseudo + "\n");
    const Program b = ok(std::string(".space 16\n") + expansion + "\n");
    EXPECT_EQ(a.text, b.text) << pseudo;
  }
}

// What li builds, run through the ISA's own decode: movi sign-extends, movhi
// replaces the high half, so the register ends up holding exactly the value.
TEST(AsmPseudo, LiLoadsEveryValue) {
  for (int64_t v : {int64_t(0), int64_t(-1), int64_t(32767), int64_t(-32768), int64_t(32768), int64_t(65535),
                    int64_t(65536), int64_t(0x7fffffff), int64_t(-0x80000000LL), int64_t(0xdeadbeef),
                    int64_t(0x8000), int64_t(0xffff7fff)}) {
    const Program p = ok("li r3, " + std::to_string(v) + "\n");
    ASSERT_FALSE(p.text.empty());
    EXPECT_EQ(p.text.size(), (v >= -32768 && v <= 32767) ? 1u : 2u) << v;
    uint32_t reg = 0;
    for (uint32_t w : p.text) {
      auto d = umbra::isa::decode(w);
      ASSERT_TRUE(d);
      if (d->info->name == std::string("movi"))
        reg = uint32_t(d->operand(1));
      else
        reg = (uint32_t(d->operand(1)) << 16) | (reg & 0xffff);
    }
    EXPECT_EQ(reg, uint32_t(v)) << v;
  }
}

// Every pseudo-instruction isa.yaml lists must be accepted, with its documented
// syntax: a pseudo added to the YAML without assembler support fails here.
TEST(AsmPseudo, EveryYamlPseudoIsSupported) {
  const YAML::Node root = YAML::LoadFile(UMBRA_ISA_YAML);
  ASSERT_TRUE(root["pseudo_instructions"]);
  size_t n = 0;
  for (const auto& p : root["pseudo_instructions"]) {
    std::string syntax = p["syntax"].as<std::string>();
    // Replace the placeholder operand names with concrete operands.
    const std::pair<const char*, const char*> subst[] = {
        {"rd", "r4"}, {"ra", "r5"}, {"value", "1234"}, {"symbol", "here"}, {"target", "here"}};
    for (const auto& [from, to] : subst) {
      const size_t at =
          syntax.find(from, syntax.find(' ') == std::string::npos ? syntax.size() : syntax.find(' '));
      if (at != std::string::npos) syntax.replace(at, std::strlen(from), to);
    }
    const auto r = assemble_string("here: " + syntax + "\n", "p.s");
    EXPECT_TRUE(r.ok()) << syntax << "\n" << (r.errors.empty() ? "" : r.errors[0].render());
    EXPECT_FALSE(r.program.text.empty()) << syntax;
    ++n;
  }
  EXPECT_EQ(n, 8u);
}

TEST(AsmRegisters, TargetLimit) {
  Options o;
  o.registers = 32;
  ok("add r31, r30, r0\nldw r1, 4(r31)\n", o);
  auto r = assemble_string("add r1, r2, r40\nldw r1, (r32)\n", "lim.s", o);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].message, "register 'r40' is beyond this target's 32 registers (r0..r31)");
  EXPECT_EQ(r.errors[0].col, 13);
  EXPECT_EQ(r.errors[1].message, "register 'r32' is beyond this target's 32 registers (r0..r31)");
  EXPECT_EQ(r.errors[1].line, 2);
  o.registers = 16;  // call and ret use r31
  r = assemble_string("ret\n", "lim.s", o);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "register 'r31' is beyond this target's 16 registers (r0..r15)");
  r = assemble_string("add r1, r2, r256\n", "lim.s");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "register 'r256' does not exist (the ISA has r0..r255)");
}

// An instruction of a group the target lacks: refused at its mnemonic, naming the
// instruction, the group and the configuration; the pseudo-instructions, which expand
// to base instructions, stay usable on a base-only target.
TEST(AsmGroups, AnAbsentGroupsInstructionIsRefused) {
  Options o;
  o.groups = 1u << umbra::isa::group::BASE | 1u << umbra::isa::group::ATOMIC;
  o.config = "'lean' (lean.yaml)";
  ok("li r1, 100000\nmov r2, r1\nnot r3, r2\nneg r4, r3\ncall f\nf: ret\natom.add r1, r2, r3\n", o);
  auto r = assemble_string("add r1, r2, r3\n  fmul r1, r2, r3\nmulhu r1, r2, r3\n", "g.s", o);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].message,
            "'fmul' is in extension group 'fp32', which configuration 'lean' (lean.yaml) does not have "
            "(core.groups: base, atomic)");
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_EQ(r.errors[0].col, 3);
  EXPECT_NE(r.errors[0].render().find("g.s:2:3: error: 'fmul' is in extension group 'fp32'"),
            std::string::npos);
  EXPECT_NE(r.errors[0].render().find("\n  fmul r1, r2, r3\n  ^\n"), std::string::npos)
      << r.errors[0].render();
  EXPECT_EQ(r.errors[1].line, 3);
  EXPECT_NE(r.errors[1].message.find("'mulhu' is in extension group 'mulh'"), std::string::npos);
  // A runner skips on this error, by the group it names, not by its wording.
  EXPECT_EQ(r.errors[0].absent_group, int(umbra::isa::group::FP32));
  EXPECT_EQ(r.errors[1].absent_group, int(umbra::isa::group::MULH));
  ASSERT_EQ(umbra::as::absent_group_error(r), &r.errors[0]);
  const auto other = assemble_string("add r1, r2\nbogus r1\n", "h.s", o);
  ASSERT_EQ(other.errors.size(), 2u);
  EXPECT_EQ(other.errors[0].absent_group, -1) << "any other error is not a group's";
  EXPECT_EQ(umbra::as::absent_group_error(other), nullptr);
  // Without a configuration every group is there.
  ok("fmul r1, r2, r3\nmulhu r1, r2, r3\npack r1, r2, r3\n");
}

TEST(AsmInclude, RelativeAndIncludeDirs) {
  Options o;
  o.include_dirs = {kData + "/sub"};
  const auto r = assemble_file(kData + "/inc_main.s", o);
  ASSERT_TRUE(r.ok()) << r.errors[0].render();
  EXPECT_EQ(r.program.symbol("ANSWER"), 42u);
  EXPECT_EQ(r.program.symbol("MORE"), 43u);  // nested include, relative to inc/
  EXPECT_EQ(r.program.symbol("lib_func"), 0u);
  EXPECT_EQ(r.program.entry, 8u);
  EXPECT_EQ(r.program.text[2], enc("movi", {1, 42}));
}

TEST(AsmInclude, NotFoundAndCycle) {
  auto r = assemble_file(kData + "/inc_main.s");  // lib.s only exists under sub/
  ASSERT_EQ(r.errors.size(), 2u);                 // not found, then the call to the missing lib_func
  EXPECT_EQ(r.errors[1].message, "undefined symbol 'lib_func'");
  EXPECT_EQ(r.errors[0].line, 3);
  EXPECT_EQ(r.errors[0].col, 18);
  EXPECT_EQ(r.errors[0].message.rfind("include file 'lib.s' not found (searched: ", 0), 0u)
      << r.errors[0].message;

  r = assemble_file(kData + "/cycle_a.s");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, kData + "/cycle_b.s");
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_EQ(r.errors[0].message,
            "include cycle: " + kData + "/cycle_a.s -> " + kData + "/cycle_b.s -> " + kData + "/cycle_a.s");
}

TEST(AsmListing, RecordsEveryLine) {
  Options o;
  o.listing = true;
  auto r = assemble_string("start: li r1, 0x12345\n  # comment\n.data\n.word 7, 8\n", "l.s", o);
  ASSERT_TRUE(r.ok());
  const auto& l = r.program.listing;
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0].words, r.program.text);
  EXPECT_EQ(l[0].source, "start: li r1, 0x12345");
  EXPECT_TRUE(l[1].words.empty());
  EXPECT_FALSE(l[3].in_text);
  EXPECT_EQ(l[3].address, 0x10000u);
  EXPECT_EQ(l[3].words, (std::vector<uint32_t>{7, 8}));
  const std::string text = umbra::as::render_listing(r.program);
  EXPECT_NE(text.find("d:00010000  00000007 00000008"), std::string::npos) << text;
  EXPECT_NE(text.find("    4  .word 7, 8"), std::string::npos) << text;
}

TEST(AsmSyntax, CommentsCaseAndWhitespace) {
  const Program p =
      ok("\tadd r1, r2, r3 # hash\n"
         "add r1,r2,r3 ; semicolon\n"
         "  add   r1 ,  r2 , r3// slashes\n"
         "a: b: c: add r1, r2, r3\n"
         "\n"
         "d:\n");
  ASSERT_EQ(p.text.size(), 4u);
  for (uint32_t w : p.text) EXPECT_EQ(w, enc("add", {1, 2, 3}));
  EXPECT_EQ(p.symbol("c"), 12u);
  EXPECT_EQ(p.symbol("d"), 16u);
}

}  // namespace
