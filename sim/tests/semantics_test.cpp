// The meaning of every instruction, checked one execute() at a time against values
// worked out by hand from isa/isa.yaml.  The cases are a table so that
// EveryInstructionHasACase can hold the table against isa::kInstrs: adding an
// instruction to the YAML without a case here fails the build's unit tests.  Words
// are made with isa::encode from operand values, never from opcode numbers.
#include "umbra/semantics.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "program_builder.h"
#include "umbra/isa.h"
#include "umbra/iss.h"

namespace umbra {
namespace {

constexpr uint32_t kPc = 0x40000;  // far enough from 0 that backward branches do not wrap
constexpr uint32_t kMemBytes = 1024;

using Regs = std::map<unsigned, uint32_t>;
using Words = std::map<uint32_t, uint32_t>;

struct Case {
  std::string label;
  std::string mnemonic;
  std::vector<int32_t> ops;  // operand values as isa::encode takes them
  uint8_t base = 0;          // memory operand's base register
  Regs in;                   // registers before (others 0)
  Regs out;                  // registers that change, with their new values
  Words mem_in, mem_out;     // data words before, and those that change
  uint32_t next_pc = kPc + 4;
  bool exits = false;
};

uint8_t sreg(const char* name) {
  return isa::find_sreg(name)->number;
}

const SpecialRegs& test_sregs() {
  static const SpecialRegs sr = [] {
    SpecialRegs s;
    s.tid = 3;
    s.cid = 5;
    s.nthr = 8;
    s.ncore = 2;
    s.clock = 0x1'2345'6789ull;
    s.lx = 11;
    s.ly = 12;
    s.domw = 13;
    s.domh = 14;
    return s;
  }();
  return sr;
}

// Float constants, worked out from the binary32 layout.
constexpr uint32_t F0 = 0x00000000, FN0 = 0x80000000, F05 = 0x3f000000, F1 = 0x3f800000, F15 = 0x3fc00000,
                   F2 = 0x40000000, F3 = 0x40400000, F7 = 0x40e00000, FM1 = 0xbf800000, FM2 = 0xc0000000,
                   FM3 = 0xc0400000, FM25 = 0xc0200000, QNAN = 0x7fc00000, DENORM = 0x00000001;

std::vector<Case> cases() {
  const uint32_t M = 0xffffffffu;
  return {
      // ---- special
      {"nop changes nothing", "nop", {}, 0, {{1, 7}}, {}},
      {"exit stops the thread", "exit", {}, 0, {{1, 7}}, {}, {}, {}, kPc, true},
      {"rdsr tid", "rdsr", {1, sreg("tid")}, 0, {}, {{1, 3}}},
      {"rdsr cid", "rdsr", {1, sreg("cid")}, 0, {}, {{1, 5}}},
      {"rdsr nthr", "rdsr", {1, sreg("nthr")}, 0, {}, {{1, 8}}},
      {"rdsr ncore", "rdsr", {1, sreg("ncore")}, 0, {}, {{1, 2}}},
      {"rdsr clock is the low word", "rdsr", {1, sreg("clock")}, 0, {}, {{1, 0x23456789}}},
      {"rdsr clockh is the high word", "rdsr", {1, sreg("clockh")}, 0, {}, {{1, 1}}},
      {"rdsr lx", "rdsr", {1, sreg("lx")}, 0, {}, {{1, 11}}},
      {"rdsr ly", "rdsr", {1, sreg("ly")}, 0, {}, {{1, 12}}},
      {"rdsr domw", "rdsr", {1, sreg("domw")}, 0, {}, {{1, 13}}},
      {"rdsr domh", "rdsr", {1, sreg("domh")}, 0, {}, {{1, 14}}},
      {"movi sign-extends", "movi", {1, -2}, 0, {}, {{1, 0xfffffffe}}},
      {"movi positive", "movi", {1, 32767}, 0, {}, {{1, 0x7fff}}},
      {"movhi keeps the low half", "movhi", {1, 0xabcd}, 0, {{1, 0x12345678}}, {{1, 0xabcd5678}}},
      {"dinv has no architectural effect", "dinv", {8}, 2, {{2, 0x10}}, {}, {{0x18, 5}}, {}},
      {"dinv of an unaligned, out-of-range line does not fault", "dinv", {4}, 2, {{2, 0x7fffffff}}, {}},
      {"dinvall has no architectural effect", "dinvall", {}, 0, {{1, 1}}, {}, {{0, 9}}, {}},
      {"dflush has no architectural effect", "dflush", {}, 0, {{1, 1}}, {}, {{0, 9}}, {}},

      // ---- integer register-register
      {"add wraps", "add", {3, 1, 2}, 0, {{1, M}, {2, 2}}, {{3, 1}}},
      {"add to r0 is discarded", "add", {0, 1, 2}, 0, {{1, 5}, {2, 6}}, {}},
      {"add reads r0 as zero", "add", {3, 0, 2}, 0, {{2, 6}}, {{3, 6}}},
      {"add with rd = ra", "add", {1, 1, 1}, 0, {{1, 21}}, {{1, 42}}},
      {"sub wraps", "sub", {3, 1, 2}, 0, {{1, 1}, {2, 2}}, {{3, M}}},
      {"and", "and", {3, 1, 2}, 0, {{1, 0xff00ff00}, {2, 0x0ff00ff0}}, {{3, 0x0f000f00}}},
      {"or", "or", {3, 1, 2}, 0, {{1, 0xff00ff00}, {2, 0x0ff00ff0}}, {{3, 0xfff0fff0}}},
      {"xor", "xor", {3, 1, 2}, 0, {{1, 0xff00ff00}, {2, 0x0ff00ff0}}, {{3, 0xf0f0f0f0}}},
      {"shl", "shl", {3, 1, 2}, 0, {{1, 0x80000001}, {2, 4}}, {{3, 0x00000010}}},
      {"shl masks the amount to 5 bits", "shl", {3, 1, 2}, 0, {{1, 3}, {2, 33}}, {{3, 6}}},
      {"shl by 32 is by 0", "shl", {3, 1, 2}, 0, {{1, 3}, {2, 32}}, {{3, 3}}},
      {"shr zero-fills", "shr", {3, 1, 2}, 0, {{1, 0x80000000}, {2, 31}}, {{3, 1}}},
      {"shr masks the amount", "shr", {3, 1, 2}, 0, {{1, 0x80000000}, {2, 0xffffffe4}}, {{3, 0x08000000}}},
      {"sra sign-fills", "sra", {3, 1, 2}, 0, {{1, 0x80000000}, {2, 4}}, {{3, 0xf8000000}}},
      {"sra of a positive", "sra", {3, 1, 2}, 0, {{1, 0x40000000}, {2, 36}}, {{3, 0x04000000}}},
      {"mul keeps the low word", "mul", {3, 1, 2}, 0, {{1, 0x10001}, {2, 0x10001}}, {{3, 0x00020001}}},
      {"mul of negatives", "mul", {3, 1, 2}, 0, {{1, uint32_t(-3)}, {2, 7}}, {{3, uint32_t(-21)}}},
      {"mulh of two negatives", "mulh", {3, 1, 2}, 0, {{1, 0x80000000}, {2, 0x80000000}}, {{3, 0x40000000}}},
      {"mulh negative times positive", "mulh", {3, 1, 2}, 0, {{1, uint32_t(-2)}, {2, 3}}, {{3, M}}},
      {"mulh -1 * -1", "mulh", {3, 1, 2}, 0, {{1, M}, {2, M}}, {{3, 0}}},
      {"mulhu is unsigned", "mulhu", {3, 1, 2}, 0, {{1, M}, {2, M}}, {{3, 0xfffffffe}}},
      {"mulhu small", "mulhu", {3, 1, 2}, 0, {{1, 0x10000}, {2, 0x30000}}, {{3, 3}}},
      {"min is signed", "min", {3, 1, 2}, 0, {{1, M}, {2, 1}}, {{3, M}}},
      {"max is signed", "max", {3, 1, 2}, 0, {{1, M}, {2, 1}}, {{3, 1}}},
      {"minu is unsigned", "minu", {3, 1, 2}, 0, {{1, M}, {2, 1}}, {{3, 1}}},
      {"maxu is unsigned", "maxu", {3, 1, 2}, 0, {{1, M}, {2, 1}}, {{3, M}}},

      // ---- compares
      {"seq equal", "seq", {3, 1, 2}, 0, {{1, 9}, {2, 9}}, {{3, 1}}},
      {"seq different", "seq", {3, 1, 2}, 0, {{1, 9}, {2, 8}, {3, 5}}, {{3, 0}}},
      {"sne", "sne", {3, 1, 2}, 0, {{1, 9}, {2, 8}}, {{3, 1}}},
      {"sne equal", "sne", {3, 1, 2}, 0, {{1, 9}, {2, 9}, {3, 5}}, {{3, 0}}},
      {"slt signed", "slt", {3, 1, 2}, 0, {{1, M}, {2, 1}}, {{3, 1}}},
      {"slt equal is false", "slt", {3, 1, 2}, 0, {{1, 4}, {2, 4}, {3, 5}}, {{3, 0}}},
      {"sltu unsigned", "sltu", {3, 1, 2}, 0, {{1, M}, {2, 1}, {3, 5}}, {{3, 0}}},
      {"sltu true", "sltu", {3, 1, 2}, 0, {{1, 1}, {2, M}}, {{3, 1}}},
      {"sle equal", "sle", {3, 1, 2}, 0, {{1, M}, {2, M}}, {{3, 1}}},
      {"sle signed", "sle", {3, 1, 2}, 0, {{1, 1}, {2, M}, {3, 5}}, {{3, 0}}},
      {"sleu unsigned", "sleu", {3, 1, 2}, 0, {{1, 1}, {2, M}}, {{3, 1}}},
      {"sleu false", "sleu", {3, 1, 2}, 0, {{1, M}, {2, 1}, {3, 5}}, {{3, 0}}},

      // ---- register-immediate
      {"addi negative", "addi", {2, 1, -1}, 0, {{1, 0}}, {{2, M}}},
      {"addi max", "addi", {2, 1, 127}, 0, {{1, 1}}, {{2, 128}}},
      {"andi sign-extends", "andi", {2, 1, -16}, 0, {{1, 0x12345678}}, {{2, 0x12345670}}},
      {"ori sign-extends", "ori", {2, 1, -128}, 0, {{1, 0x5}}, {{2, 0xffffff85}}},
      {"xori -1 is not", "xori", {2, 1, -1}, 0, {{1, 0x0f0f0f0f}}, {{2, 0xf0f0f0f0}}},
      {"shli 31", "shli", {2, 1, 31}, 0, {{1, 3}}, {{2, 0x80000000}}},
      {"shri 31", "shri", {2, 1, 31}, 0, {{1, 0x80000000}}, {{2, 1}}},
      {"srai 31 of a negative", "srai", {2, 1, 31}, 0, {{1, 0x80000000}}, {{2, M}}},
      {"srai 0", "srai", {2, 1, 0}, 0, {{1, 0x80000000}}, {{2, 0x80000000}}},
      {"slti signed with sign-extended immediate", "slti", {2, 1, -1}, 0, {{1, uint32_t(-2)}}, {{2, 1}}},
      {"slti false", "slti", {2, 1, -1}, 0, {{1, 0}, {2, 7}}, {{2, 0}}},
      {"seqi compares with sext", "seqi", {2, 1, -1}, 0, {{1, M}}, {{2, 1}}},
      {"seqi false", "seqi", {2, 1, 1}, 0, {{1, 2}, {2, 7}}, {{2, 0}}},
      {"muli negative", "muli", {2, 1, -3}, 0, {{1, 7}}, {{2, uint32_t(-21)}}},

      // ---- float (values worked out by hand; fp32_test covers rounding in depth)
      {"fadd", "fadd", {3, 1, 2}, 0, {{1, F1}, {2, F2}}, {{3, F3}}},
      {"fadd x + -x is +0", "fadd", {3, 1, 2}, 0, {{1, F1}, {2, FM1}, {3, 5}}, {{3, F0}}},
      {"fsub", "fsub", {3, 1, 2}, 0, {{1, F1}, {2, F3}}, {{3, FM2}}},
      {"fmul", "fmul", {3, 1, 2}, 0, {{1, F15}, {2, FM2}}, {{3, FM3}}},
      {"fmul 0 * inf is the canonical NaN", "fmul", {3, 1, 2}, 0, {{1, F0}, {2, 0x7f800000}}, {{3, QNAN}}},
      {"fmadd accumulates into rd", "fmadd", {3, 1, 2}, 0, {{1, F2}, {2, F3}, {3, F1}}, {{3, F7}}},
      {"fmin", "fmin", {3, 1, 2}, 0, {{1, F2}, {2, FM1}}, {{3, FM1}}},
      {"fmin with one NaN returns the other", "fmin", {3, 1, 2}, 0, {{1, 0x7fc00123}, {2, F2}}, {{3, F2}}},
      {"fmax", "fmax", {3, 1, 2}, 0, {{1, F2}, {2, FM1}}, {{3, F2}}},
      {"fmax -0 < +0", "fmax", {3, 1, 2}, 0, {{1, FN0}, {2, F0}, {3, 5}}, {{3, F0}}},
      {"fabs keeps a denormal", "fabs", {3, 1}, 0, {{1, 0x80000000 | DENORM}}, {{3, DENORM}}},
      {"fneg keeps a NaN payload", "fneg", {3, 1}, 0, {{1, 0x7fc00001}}, {{3, 0xffc00001}}},
      {"fseq -0 == +0", "fseq", {3, 1, 2}, 0, {{1, FN0}, {2, F0}}, {{3, 1}}},
      {"fseq NaN is false", "fseq", {3, 1, 2}, 0, {{1, QNAN}, {2, QNAN}, {3, 5}}, {{3, 0}}},
      {"fslt", "fslt", {3, 1, 2}, 0, {{1, FM1}, {2, F05}}, {{3, 1}}},
      {"fslt denormal is zero", "fslt", {3, 1, 2}, 0, {{1, F0}, {2, DENORM}, {3, 5}}, {{3, 0}}},
      {"fsle equal", "fsle", {3, 1, 2}, 0, {{1, F1}, {2, F1}}, {{3, 1}}},
      {"fsle NaN is false", "fsle", {3, 1, 2}, 0, {{1, F1}, {2, QNAN}, {3, 5}}, {{3, 0}}},
      {"itof negative", "itof", {3, 1}, 0, {{1, uint32_t(-3)}}, {{3, FM3}}},
      {"itof rounds to nearest even", "itof", {3, 1}, 0, {{1, 0x01000001}}, {{3, 0x4b800000}}},
      {"ftoi truncates", "ftoi", {3, 1}, 0, {{1, FM25}}, {{3, uint32_t(-2)}}},
      {"ftoi saturates", "ftoi", {3, 1}, 0, {{1, 0x4f000000}}, {{3, 0x7fffffff}}},
      {"ftoi NaN is 0", "ftoi", {3, 1}, 0, {{1, QNAN}, {3, 5}}, {{3, 0}}},
      {"pack shifts rd and rounds ties to even",
       "pack",
       {3, 1, 2},
       0,
       {{1, F1}, {2, F05}, {3, 0xab}},
       {{3, 0x00abff80}}},
      {"pack clamps", "pack", {3, 1, 2}, 0, {{1, FM1}, {2, F2}, {3, 0x11220000}}, {{3, 0x000000ff}}},
      {"unpack lane 1", "unpack", {3, 1, 1}, 0, {{1, 0x0000ff00}}, {{3, F1}}},
      {"unpack lane 3", "unpack", {3, 1, 3}, 0, {{1, 0x00ffffff}, {3, 5}}, {{3, F0}}},

      // ---- loads and stores
      {"ldw", "ldw", {1, 8}, 2, {{2, 0x10}}, {{1, 0xcafef00d}}, {{0x18, 0xcafef00d}}, {}},
      {"ldw negative offset", "ldw", {1, -4}, 2, {{2, 0x10}}, {{1, 0x5}}, {{0x0c, 0x5}}, {}},
      {"ldw max offset", "ldw", {1, 508}, 2, {{2, 0x10}}, {{1, 0x11}}, {{0x20c, 0x11}}, {}},
      {"ldw min offset", "ldw", {1, -512}, 2, {{2, 0x204}}, {{1, 0x22}}, {{0x4, 0x22}}, {}},
      {"ldw to r0 is discarded", "ldw", {0, 0}, 2, {{2, 0x10}}, {}, {{0x10, 0x77}}, {}},
      {"stw", "stw", {1, 4}, 2, {{1, 0xdeadbeef}, {2, 0x20}}, {}, {}, {{0x24, 0xdeadbeef}}},
      {"stw of r0 stores zero", "stw", {0, 0}, 2, {{2, 0x20}}, {}, {{0x20, 9}}, {{0x20, 0}}},

      // ---- atomics: ra = r1 holds the address, rb = r2 the operand
      {"red.add", "red.add", {1, 2}, 0, {{1, 0x40}, {2, 5}}, {}, {{0x40, 10}}, {{0x40, 15}}},
      {"red.min signed", "red.min", {1, 2}, 0, {{1, 0x40}, {2, M}}, {}, {{0x40, 10}}, {{0x40, M}}},
      {"red.max signed", "red.max", {1, 2}, 0, {{1, 0x40}, {2, M}}, {}, {{0x40, 10}}, {}},
      {"red.xchg", "red.xchg", {1, 2}, 0, {{1, 0x40}, {2, 3}}, {}, {{0x40, 10}}, {{0x40, 3}}},
      {"red.cas equal", "red.cas", {3, 1, 2}, 0, {{1, 0x40}, {2, 3}, {3, 10}}, {}, {{0x40, 10}}, {{0x40, 3}}},
      {"red.cas different", "red.cas", {3, 1, 2}, 0, {{1, 0x40}, {2, 3}, {3, 11}}, {}, {{0x40, 10}}, {}},
      {"atom.add returns the old word",
       "atom.add",
       {3, 1, 2},
       0,
       {{1, 0x40}, {2, 5}},
       {{3, 10}},
       {{0x40, 10}},
       {{0x40, 15}}},
      {"atom.add to r0 still updates memory",
       "atom.add",
       {0, 1, 2},
       0,
       {{1, 0x40}, {2, 5}},
       {},
       {{0x40, 10}},
       {{0x40, 15}}},
      {"atom.min",
       "atom.min",
       {3, 1, 2},
       0,
       {{1, 0x40}, {2, uint32_t(-5)}},
       {{3, 10}},
       {{0x40, 10}},
       {{0x40, uint32_t(-5)}}},
      {"atom.max", "atom.max", {3, 1, 2}, 0, {{1, 0x40}, {2, uint32_t(-5)}}, {{3, 10}}, {{0x40, 10}}, {}},
      {"atom.max larger",
       "atom.max",
       {3, 1, 2},
       0,
       {{1, 0x40}, {2, 50}},
       {{3, 10}},
       {{0x40, 10}},
       {{0x40, 50}}},
      {"atom.xchg", "atom.xchg", {3, 1, 2}, 0, {{1, 0x40}, {2, 7}}, {{3, 10}}, {{0x40, 10}}, {{0x40, 7}}},
      {"atom.cas swaps when rd matches",
       "atom.cas",
       {3, 1, 2},
       0,
       {{1, 0x40}, {2, 7}, {3, 10}},
       {},
       {{0x40, 10}},
       {{0x40, 7}}},
      {"atom.cas fails and returns the old word",
       "atom.cas",
       {3, 1, 2},
       0,
       {{1, 0x40}, {2, 7}, {3, 9}},
       {{3, 10}},
       {{0x40, 10}},
       {}},

      // ---- branches: word offsets from this instruction
      {"j forward", "j", {3}, 0, {}, {}, {}, {}, kPc + 12},
      {"j backward", "j", {-2}, 0, {}, {}, {}, {}, kPc - 8},
      {"j to itself", "j", {0}, 0, {}, {}, {}, {}, kPc},
      {"jal links pc + 4", "jal", {31, 5}, 0, {}, {{31, kPc + 4}}, {}, {}, kPc + 20},
      {"jal most negative offset", "jal", {31, -32768}, 0, {}, {{31, kPc + 4}}, {}, {}, kPc - 0x20000},
      {"jal to r0 does not link", "jal", {0, 1}, 0, {}, {}, {}, {}, kPc + 4},
      {"jalr", "jalr", {31, 1}, 0, {{1, 0x100}}, {{31, kPc + 4}}, {}, {}, 0x100},
      {"jalr with rd = ra jumps to the old value",
       "jalr",
       {1, 1},
       0,
       {{1, 0x200}},
       {{1, kPc + 4}},
       {},
       {},
       0x200},
      {"bz taken", "bz", {1, 4}, 0, {}, {}, {}, {}, kPc + 16},
      {"bz not taken", "bz", {1, 4}, 0, {{1, 1}}, {}, {}, {}, kPc + 4},
      {"bz max offset", "bz", {0, 32767}, 0, {}, {}, {}, {}, kPc + 32767 * 4},
      {"bnz taken", "bnz", {1, -1}, 0, {{1, 0x80000000}}, {}, {}, {}, kPc - 4},
      {"bnz not taken", "bnz", {1, -1}, 0, {}, {}, {}, {}, kPc + 4},
      {"beq taken", "beq", {1, 2, 2}, 0, {{1, 5}, {2, 5}}, {}, {}, {}, kPc + 8},
      {"beq not taken", "beq", {1, 2, 2}, 0, {{1, 5}, {2, 6}}, {}, {}, {}, kPc + 4},
      {"beq max br8 offset", "beq", {0, 0, 127}, 0, {}, {}, {}, {}, kPc + 508},
      {"beq min br8 offset", "beq", {0, 0, -128}, 0, {}, {}, {}, {}, kPc - 512},
      {"bne taken", "bne", {1, 2, -3}, 0, {{1, 5}, {2, 6}}, {}, {}, {}, kPc - 12},
      {"bne not taken", "bne", {1, 2, -3}, 0, {{1, 5}, {2, 5}}, {}, {}, {}, kPc + 4},
      {"blt signed taken", "blt", {1, 2, 2}, 0, {{1, M}, {2, 1}}, {}, {}, {}, kPc + 8},
      {"blt equal not taken", "blt", {1, 2, 2}, 0, {{1, 1}, {2, 1}}, {}, {}, {}, kPc + 4},
      {"bge equal taken", "bge", {1, 2, 2}, 0, {{1, 1}, {2, 1}}, {}, {}, {}, kPc + 8},
      {"bge signed not taken", "bge", {1, 2, 2}, 0, {{1, M}, {2, 1}}, {}, {}, {}, kPc + 4},
      {"bltu unsigned not taken", "bltu", {1, 2, 2}, 0, {{1, M}, {2, 1}}, {}, {}, {}, kPc + 4},
      {"bltu taken", "bltu", {1, 2, 2}, 0, {{1, 1}, {2, M}}, {}, {}, {}, kPc + 8},
      {"bgeu unsigned taken", "bgeu", {1, 2, 2}, 0, {{1, M}, {2, 1}}, {}, {}, {}, kPc + 8},
      {"bgeu not taken", "bgeu", {1, 2, 2}, 0, {{1, 1}, {2, M}}, {}, {}, {}, kPc + 4},
  };
}

using test::enc;
uint32_t encode(const std::string& m, const std::vector<int32_t>& ops, uint8_t base = 0) {
  return enc(m, ops, base);
}

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.label;
}

class Semantics : public ::testing::TestWithParam<Case> {};

TEST_P(Semantics, ExecuteGivesTheHandComputedResult) {
  const Case& c = GetParam();
  ThreadState t;
  t.pc = kPc;
  for (auto [r, v] : c.in) t.r[r] = v;
  iss::FlatMemory mem(kMemBytes);
  for (auto [a, v] : c.mem_in) mem.store32(a, v);
  ThreadState expect = t;
  for (auto [r, v] : c.out) expect.r[r] = v;
  iss::FlatMemory expect_mem = mem;
  for (auto [a, v] : c.mem_out) expect_mem.store32(a, v);

  const uint32_t word = encode(c.mnemonic, c.ops, c.base);
  const Retired r = execute(word, t, mem, test_sregs());
  ASSERT_EQ(r.fault, Fault::None) << r.fault_detail;
  EXPECT_EQ(r.exited, c.exits);
  EXPECT_EQ(r.next_pc, c.next_pc);
  EXPECT_EQ(t.pc, c.exits ? kPc : c.next_pc);
  EXPECT_EQ(t.r[0], 0u);
  for (unsigned i = 0; i < 256; ++i) EXPECT_EQ(t.r[i], expect.r[i]) << "r" << i;
  EXPECT_EQ(mem.bytes(), expect_mem.bytes()) << "data memory differs";
  // The record of what happened matches what happened.
  const isa::InstrInfo& in = *isa::find_name(c.mnemonic);
  const bool dest_named = in.writes_a && c.ops.size() > 0 && c.ops[0] != 0;
  EXPECT_EQ(r.writes_reg, dest_named);
  if (r.writes_reg) {
    EXPECT_EQ(r.value, t.r[r.reg]);
  }
}

INSTANTIATE_TEST_SUITE_P(AllInstructions, Semantics, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string n = std::to_string(info.index) + "_" + info.param.label;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

TEST(SemanticsCoverage, EveryInstructionHasACase) {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(c.mnemonic);
  for (const isa::InstrInfo& in : isa::kInstrs)
    EXPECT_TRUE(covered.count(in.name)) << "no case for " << in.name;
}

// ---- pieces the SystemC model calls one by one must agree with execute()

TEST(SemanticsPieces, MemoryRecordCarriesAddressAndData) {
  ThreadState t;
  t.pc = kPc;
  t.r[1] = 0x40;
  t.r[2] = 5;
  iss::FlatMemory mem(kMemBytes);
  mem.store32(0x40, 10);
  Retired r = execute(encode("atom.add", {3, 1, 2}), t, mem, test_sregs());
  EXPECT_EQ(r.mem, Retired::Mem::Atomic);
  EXPECT_EQ(r.addr, 0x40u);
  EXPECT_EQ(r.value, 10u);  // old word
  EXPECT_EQ(r.data, 15u);   // new word
  r = execute(encode("stw", {2, -8}, 1), t, mem, test_sregs());
  EXPECT_EQ(r.mem, Retired::Mem::Store);
  EXPECT_EQ(r.addr, 0x38u);
  EXPECT_EQ(r.data, 5u);
  r = execute(encode("ldw", {0, 0}, 1), t, mem, test_sregs());
  EXPECT_EQ(r.mem, Retired::Mem::Load);
  EXPECT_FALSE(r.writes_reg);
  EXPECT_EQ(r.value, 15u);  // the data read is reported even though r0 discards it
}

TEST(SemanticsPieces, EffectiveAddressAndStoreData) {
  const auto d = isa::decode(encode("stw", {7, -512}, 9));
  ASSERT_TRUE(d);
  RegValues v;
  v.a = 0x1234;
  v.b = 0x1000;
  EXPECT_EQ(effective_address(*d, v), 0x1000u - 512);
  EXPECT_EQ(store_data(*d, v), 0x1234u);
  EXPECT_TRUE(is_memory_op(*d));
  const auto at = isa::decode(encode("red.xchg", {1, 2}));
  v.c = 99;
  EXPECT_EQ(effective_address(*at, v), 0x1000u);  // atomics: ra, no offset
  EXPECT_EQ(store_data(*at, v), 99u);
  EXPECT_FALSE(is_memory_op(*isa::decode(encode("dinv", {0}, 1))));
}

TEST(SemanticsPieces, ReadOperandsReadsOnlyRegisterFields) {
  ThreadState t;
  t.r[1] = 11;
  t.r[2] = 22;
  t.r[3] = 33;
  // addi's field c is an immediate, not r3.
  RegValues v = read_operands(*isa::decode(encode("addi", {1, 2, 3})), t);
  EXPECT_EQ(v.a, 0u);
  EXPECT_EQ(v.b, 22u);
  EXPECT_EQ(v.c, 0u);
  // atom.cas reads its destination as the comparand.
  v = read_operands(*isa::decode(encode("atom.cas", {1, 2, 3})), t);
  EXPECT_EQ(v.a, 11u);
  EXPECT_EQ(v.b, 22u);
  EXPECT_EQ(v.c, 33u);
  t.r[0] = 0xdead;  // even if something scribbled on it, r0 reads zero
  v = read_operands(*isa::decode(encode("add", {1, 0, 0})), t);
  EXPECT_EQ(v.b, 0u);
  EXPECT_EQ(v.c, 0u);
}

// ---- faults: nothing changes, and the reason is given

struct FaultCase {
  std::string label;
  uint32_t word;
  Regs in;
  Fault fault;
  std::string detail_contains;
  uint64_t imem_bytes = uint64_t(1) << 32;
};

TEST(SemanticsFaults, EachFaultIsReportedAndChangesNothing) {
  const std::vector<FaultCase> fcs = {
      {"unknown opcode", test::unused_opcode_word(), {}, Fault::IllegalInstruction, "is not an instruction"},
      {"reserved bits set", encode("nop", {}) | 1u, {}, Fault::IllegalInstruction, "zero"},
      {"misaligned load", encode("ldw", {1, 0}, 2), {{2, 0x42}}, Fault::Misaligned, "0x00000042"},
      {"misaligned store", encode("stw", {1, 4}, 2), {{2, 0x41}}, Fault::Misaligned, "0x00000045"},
      {"misaligned atomic", encode("atom.add", {3, 2, 1}), {{2, 0x2}}, Fault::Misaligned, "0x00000002"},
      {"load beyond memory", encode("ldw", {1, 0}, 2), {{2, kMemBytes}}, Fault::OutOfRange, "0x00000400"},
      {"last word is in range, the next is not",
       encode("stw", {1, 4}, 2),
       {{2, kMemBytes - 4}},
       Fault::OutOfRange,
       "0x00000400"},
      {"address wraps below zero", encode("ldw", {1, -4}, 0), {}, Fault::OutOfRange, "0xfffffffc"},
      {"red beyond memory", encode("red.add", {2, 1}), {{2, 0x80000000}}, Fault::OutOfRange, "0x80000000"},
      {"jalr to a non-multiple of 4", encode("jalr", {31, 1}), {{1, 0x102}}, Fault::BadJump, "multiple of 4"},
      {"branch beyond the instruction store",
       encode("beq", {0, 0, 4}),
       {},
       Fault::BadJump,
       "outside",
       kPc + 16},
      {"jump below address 0", encode("j", {-0x10001}), {}, Fault::BadJump, "outside", 0x100000},
      {"falling off the end of the store", encode("nop", {}), {}, Fault::BadJump, "next pc", kPc + 4},
  };
  for (const FaultCase& fc : fcs) {
    SCOPED_TRACE(fc.label);
    ThreadState t;
    t.pc = kPc;
    for (auto [r, v] : fc.in) t.r[r] = v;
    t.r[1] = t.r[1] ? t.r[1] : 77;
    const ThreadState before = t;
    iss::FlatMemory mem(kMemBytes);
    mem.store32(0, 0x5a5a5a5a);
    const auto mem_before = mem.bytes();
    const Retired r = execute(fc.word, t, mem, test_sregs(), fc.imem_bytes);
    EXPECT_EQ(r.fault, fc.fault) << fault_name(r.fault) << ": " << r.fault_detail;
    EXPECT_NE(r.fault_detail.find(fc.detail_contains), std::string::npos) << r.fault_detail;
    EXPECT_EQ(r.pc, kPc);
    EXPECT_FALSE(r.writes_reg);
    EXPECT_EQ(t.pc, kPc);
    EXPECT_EQ(t.r, before.r);
    EXPECT_EQ(mem.bytes(), mem_before);
  }
}

TEST(SemanticsFaults, JumpInsideTheStoreIsFine) {
  ThreadState t;
  t.pc = kPc;
  iss::FlatMemory mem(kMemBytes);
  // The last word of the store is a legal target; one further is not.
  Retired r = execute(encode("beq", {0, 0, 3}), t, mem, test_sregs(), kPc + 16);
  EXPECT_EQ(r.fault, Fault::None);
  EXPECT_EQ(t.pc, kPc + 12);
}

TEST(SemanticsFaults, FaultNamesAreDistinct) {
  std::set<std::string> names;
  for (Fault f : {Fault::None, Fault::IllegalInstruction, Fault::Misaligned, Fault::OutOfRange,
                  Fault::BadJump, Fault::InstructionLimit})
    names.insert(fault_name(f));
  EXPECT_EQ(names.size(), 6u);
}

}  // namespace
}  // namespace umbra
