// Diagnostics are part of the assembler's interface: users find their mistakes by
// them and editors jump to file:line:col.  Each case pins the exact position and
// text of one error; the later tests check that a file with many errors gets all of
// them (in source order, with carets) and that the cap adds a note.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "umbra/asm.h"

namespace {

using umbra::as::assemble_file;
using umbra::as::assemble_string;

const std::string kData = UMBRA_ASM_TEST_DATA;

struct Case {
  const char* source;
  int line, col;
  const char* message;
};

const Case kCases[] = {
    // undefined symbol, duplicate label
    {"bz r1, nowhere\n", 1, 8, "undefined symbol 'nowhere'"},
    {"x: nop\n\n  x: nop\n", 3, 3, "duplicate label 'x' (first defined at e.s:1:1)"},
    {"N = 1\nN = 2\n", 2, 1, "duplicate symbol 'N' (first defined at e.s:1:1)"},
    // immediates and branches
    {"addi r1, r2, 128\n", 1, 14, "immediate 128 is out of range -128..127"},
    {"shli r1, r2, 32\n", 1, 14, "immediate 32 is out of range 0..31"},
    {"movhi r1, -1\n", 1, 11, "immediate -1 is out of range 0..65535"},
    {"unpack r1, r2, 4\n", 1, 16, "immediate 4 is out of range 0..3"},
    {"beq r1, r2, . + 512\n", 1, 13,
     "branch target out of range: offset 128 words, beq reaches -128..127 words"},
    {".space 1024\nbeq r1, r2, . - 516\n", 2, 13,
     "branch target out of range: offset -129 words, beq reaches -128..127 words"},
    {"bz r1, . + 4 * 32768\n", 1, 8,
     "branch target out of range: offset 32768 words, bz reaches -32768..32767 words"},
    {"call . + 4 * 32768\n", 1, 6,
     "branch target out of range: offset 32768 words, call reaches -32768..32767 words"},
    {"j 6\n", 1, 3, "branch target 0x6 is not a multiple of 4"},
    {"j -8\n", 1, 3, "branch target -8 is not an address (0..0xffffffff)"},
    {"j tbl\n.data\ntbl: .word 0\n", 1, 3, "branch target 'tbl' is a .data label, not code"},
    // memory operands
    {"ldw r1, 6(r2)\n", 1, 9, "memory offset 6 is not a multiple of 4"},
    {"stw r1, 512(r2)\n", 1, 9, "memory offset 512 is out of range -512..508"},
    {"ldw r1, r2\n", 1, 9, "expected a memory operand OFFSET(rB), got 'r2'"},
    {"ldw r1, 4(8)\n", 1, 11, "expected a base register inside the parentheses, got '8'"},
    // mnemonics and directives
    {"  ad r1, r2, r3\n", 1, 3, "unknown mnemonic 'ad' (did you mean 'add'?)"},
    {"mvoi r1, 2\n", 1, 1, "unknown mnemonic 'mvoi' (did you mean 'movi'?)"},
    {"frobnicate r1\n", 1, 1, "unknown mnemonic 'frobnicate'"},
    {".wrod 1\n", 1, 1, "unknown directive '.wrod' (did you mean '.word'?)"},
    {".bogus\n", 1, 1, "unknown directive '.bogus'"},
    // operand kinds and counts
    {"add r1, 5, r2\n", 1, 9, "expected a register, got '5'"},
    {"add r1, r2\n", 1, 1, "add takes 3 operands, got 2"},
    {"exit r1\n", 1, 1, "exit takes no operands, got 1"},
    {"j\n", 1, 1, "j takes 1 operand, got 0"},
    {"add r1, , r2\n", 1, 9, "missing operand"},
    {"addi r1, r2, r3\n", 1, 14, "expected an immediate, got register 'r3'"},
    {"rdsr r1, r2\n", 1, 10, "expected a special register, got 'r2'"},
    {"rdsr r1, bogus\n", 1, 10,
     "unknown special register 'bogus' (one of tid, cid, nthr, ncore, clock, clockh, lx, ly, domw, domh, arg)"},
    {"rdsr r1, 200\n", 1, 10, "special register 200 does not exist"},
    {"li r1, 0x100000000\n", 1, 8, "value 4294967296 does not fit in 32 bits"},
    {"nop\n.data\nadd r1, r2, r3\n", 3, 1, "instruction 'add' in .data (instructions belong in .text)"},
    // registers
    {"add r1, r2, r300\n", 1, 13, "register 'r300' does not exist (the ISA has r0..r255)"},
    {"r5: nop\n", 1, 1, "'r5' is a register name and cannot be a symbol"},
    // .include
    {".include \"no/such/file.s\"\n", 1, 10,
     "include file 'no/such/file.s' not found (searched: no/such/file.s)"},
    {".include nofile\n", 1, 10, "expected a quoted file name after .include"},
    // numbers and expression syntax
    {"addi r1, r2, 12ab\n", 1, 14, "bad number '12ab'"},
    {"addi r1, r2, 0x\n", 1, 14, "bad number '0x': no digits"},
    {"addi r1, r2, 1.5\n", 1, 14, "bad number '1.5'"},
    {".word 99999999999999999999\n", 1, 7,
     "number '99999999999999999999' is out of range (at most 9223372036854775807, 64-bit signed)"},
    {"li r1, 9223372036854775808\n", 1, 8,
     "number '9223372036854775808' is out of range (at most 9223372036854775807, 64-bit signed)"},
    {".align 0x80000000\n", 1, 8, ".align 2147483648 is too large (at most 2^30)"},
    {"addi r1, r2, (1 + 2\n", 1, 20, "expected ')' to close the '(' at column 14"},
    {"addi r1, r2, 1 +\n", 1, 17, "expected an immediate, got the end of the operand"},
    {"addi r1, r2, 1 2\n", 1, 16, "expected an operator or the end of the operand, got '2'"},
    {"addi r1, r2, 1)\n", 1, 15, "unbalanced ')' in expression"},
    {".word 1 @ 2\n", 1, 9, "unexpected character '@'"},
    {".word 'ab'\n", 1, 7, "bad character literal (one character between quotes)"},
    {".float 1.5x\n", 1, 8, "bad floating-point number '1.5x'"},
    {".float 1e39\n", 1, 8, "floating-point number '1e39' is too large for binary32"},
    {".float r1\n", 1, 8, "expected a floating-point number, got 'r1'"},
    {".word 1 << 64\n", 1, 9, "shift count 64 is out of range 0..63"},
    // division by zero, in an operand and inside a constant
    {"addi r1, r2, 4 / (2 - 2)\n", 1, 16, "division by zero"},
    {"X = 5 % 0\n", 1, 7, "division by zero"},
    {"li r1, Y\nY = 1 / Z\nZ = 0\n", 2, 7, "division by zero"},
    {"A = B + 1\nB = A + 1\nli r1, A\n", 2, 5, "circular definition: 'A' depends on itself"},
    // directives' operands
    {".align 3\n", 1, 8, ".align 3 is not a power of 2 (up to 2^30)"},
    {".align 0\n", 1, 8, ".align 0 is not a power of 2 (up to 2^30)"},
    {".data\n.space -4\n", 2, 8, ".space size -4 is negative"},
    {".space 6\n", 1, 8, ".space in .text must be a whole number of words, got 6 bytes"},
    {".space 4, 256\n", 1, 11, ".space fill 256 is not a byte (-128..255)"},
    {".space N\nN = 4\n", 1, 8, "'N' must be defined before this line (the .space size must be known here)"},
    {".align K\n", 1, 8, "undefined symbol 'K'"},
    {".space 1 << 40\n", 1, 8, ".space size 1099511627776 exceeds the 64 MiB section limit"},
    {".data\n.space 1\n.word 2\n", 3, 1, ".word at 0x10001 is not word-aligned (add .align 4 before it)"},
    {".text 1\n", 1, 1, ".text takes no operands, got 1"},
    {".space\n", 1, 1, ".space takes 1 or 2 operands, got 0"},
    {".equ X\n", 1, 1, ".equ takes 2 operands, got 1"},
    {".global nothere\n", 1, 9, "undefined symbol 'nothere' declared .global"},
    {".data\n_start: .word 0\n", 2, 1, "_start (the entry point) must be a label in .text"},
    {". = 4\n", 1, 1, "'.' (the current address) cannot be defined"},
    {"5 nop\n", 1, 1, "expected a label, directive or instruction, got '5'"},
};

TEST(AsmErrors, EachMessageWithItsPosition) {
  for (const Case& c : kCases) {
    const auto r = assemble_string(c.source, "e.s");
    ASSERT_FALSE(r.ok()) << c.source;
    std::string all;
    for (const auto& d : r.errors) all += d.render();
    ASSERT_EQ(r.errors.size(), 1u) << c.source << all;
    const auto& d = r.errors[0];
    EXPECT_EQ(d.file, "e.s");
    EXPECT_EQ(d.line, c.line) << c.source << all;
    EXPECT_EQ(d.col, c.col) << c.source << all;
    EXPECT_EQ(d.message, c.message) << c.source;
    EXPECT_FALSE(d.note);
  }
}

TEST(AsmErrors, RenderShowsLineAndCaret) {
  const auto r = assemble_string("nop\n\taddi r1, r2, 300  # x\n", "caret.s");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].render(),
            "caret.s:2:15: error: immediate 300 is out of range -128..127\n"
            "\taddi r1, r2, 300  # x\n"
            "\t             ^\n");
}

TEST(AsmErrors, AllErrorsInAFileAreReportedInOrder) {
  const auto r = assemble_string(
      "add r1, r2\n"     // 1: count
      "j later\n"        // 2: undefined (found in pass 2)
      ".align 5\n"       // 3: pass 1
      "ldw r1, 2(r0)\n"  // 4: pass 2
      "good: nop\n"
      "frob\n",  // 6
      "many.s");
  ASSERT_EQ(r.errors.size(), 5u);
  const int lines[] = {1, 2, 3, 4, 6};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.errors[size_t(i)].line, lines[i]) << r.errors[size_t(i)].message;
}

TEST(AsmErrors, CapAddsANote) {
  std::string src;
  for (int i = 0; i < 30; ++i) src += "frob\n";
  umbra::as::Options o;
  o.max_errors = 5;
  auto r = assemble_string(src, "cap.s", o);
  ASSERT_EQ(r.errors.size(), 6u);
  EXPECT_TRUE(r.errors[5].note);
  EXPECT_EQ(r.errors[5].render(), "cap.s: note: 25 more errors not shown (the limit is 5)\n");
  EXPECT_EQ(r.errors[4].line, 5);
  o.max_errors = 0;  // no limit
  r = assemble_string(src, "cap.s", o);
  EXPECT_EQ(r.errors.size(), 30u);
}

TEST(AsmErrors, MissingFileAndBinaryGarbage) {
  auto r = assemble_file(kData + "/does-not-exist.s");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].render(), kData + "/does-not-exist.s: error: cannot open: no such file\n");
  std::string junk = "nop\n";
  for (int i = 0; i < 256; ++i) junk += char(i);
  r = assemble_string(junk, "junk.s");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_EQ(r.errors[0].message, "unexpected character '\\x00'");
}

// asm/tests/data/broken.s carries many different mistakes; every one is reported with
// its line, column and a caret under that column.
TEST(AsmErrors, BrokenFileReportsEverything) {
  umbra::as::Options o;
  o.registers = 32;
  const std::string path = kData + "/broken.s";
  const auto r = assemble_file(path, o);
  const Case expect[] = {
      {nullptr, 4, 9, "add takes 3 operands, got 2"},
      {nullptr, 5, 22, "immediate 300 is out of range -128..127"},
      {nullptr, 6, 17, "memory offset 6 is not a multiple of 4"},
      {nullptr, 7, 9, "unknown mnemonic 'ad' (did you mean 'add'?)"},
      {nullptr, 8, 9, "unknown directive '.wrd' (did you mean '.word'?)"},
      {nullptr, 9, 16, "undefined symbol 'nowhere'"},
      {nullptr, 10, 1, "duplicate label 'start' (first defined at " UMBRA_ASM_TEST_DATA "/broken.s:4:1)"},
      {nullptr, 11, 18, "division by zero"},
      {nullptr, 12, 16, ".align 3 is not a power of 2 (up to 2^30)"},
      {nullptr, 13, 17, "expected a register, got '5'"},
      {nullptr, 14, 21, "register 'r40' is beyond this target's 32 registers (r0..r31)"},
      {nullptr, 15, 21, "branch target out of range: offset 129 words, beq reaches -128..127 words"},
  };
  ASSERT_EQ(r.errors.size(), std::size(expect));
  std::ifstream f(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  for (size_t i = 0; i < std::size(expect); ++i) {
    const auto& d = r.errors[i];
    EXPECT_EQ(d.file, path);
    EXPECT_EQ(d.line, expect[i].line) << d.message;
    EXPECT_EQ(d.col, expect[i].col) << d.message;
    EXPECT_EQ(d.message, expect[i].message);
    const std::string want = path + ":" + std::to_string(expect[i].line) + ":" +
                             std::to_string(expect[i].col) + ": error: " + expect[i].message + "\n" +
                             lines[size_t(expect[i].line - 1)] + "\n" +
                             std::string(size_t(expect[i].col - 1), ' ') + "^\n";
    EXPECT_EQ(d.render(), want);
  }
}

}  // namespace

namespace {

// Inputs built to exhaust the stack (deep expressions, long chains of constants) are
// refused with an error instead of crashing the assembler.
TEST(AsmErrors, PathologicalNestingIsAnErrorNotACrash) {
  std::string sum = "X = ", parens = "X = ", chain = "li r1, A0\n";
  for (int i = 0; i < 5000; ++i) sum += "1+";
  sum += "1\n";
  parens += std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  for (int i = 0; i < 3000; ++i) chain += "A" + std::to_string(i) + " = A" + std::to_string(i + 1) + " + 1\n";
  chain += "A3000 = 0\n";
  for (const std::string& src : {sum, parens}) {
    const auto r = assemble_string(src, "deep.s");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].message, "expression is too complex (more than 1000 levels)");
  }
  const auto r = assemble_string(chain, "chain.s");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.errors[0].message, "constant definitions nested too deeply (a chain of more than 1000)");
  // A chain within the bound resolves.
  const auto ok = assemble_string("li r1, B0\nB0 = B1 + 1\nB1 = B2 * 2\nB2 = 20\n", "short.s");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.program.symbol("B0"), 41u);
}

}  // namespace
