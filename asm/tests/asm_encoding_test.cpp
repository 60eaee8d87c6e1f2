// Every instruction in isa.yaml, assembled from text, must give exactly the word
// isa::encode gives for the same operand values.  The source text is generated from
// each instruction's operand kinds, so an instruction added to the YAML is covered
// without touching this file; the values include each kind's range limits.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/isa.h"

namespace {

using umbra::isa::Kind;
using umbra::isa::kInstrs;

// The instruction under test sits at kBase, after a .space, so backward branches
// have room to reach their lowest offsets (br24's are clamped to what fits).
constexpr int64_t kBaseWords = 40000;

struct Sample {
  std::string text;
  int32_t value;
  uint8_t base = 0;
};

std::vector<Sample> samples(Kind k) {
  std::vector<Sample> out;
  const umbra::isa::Range r = umbra::isa::operand_range(k);
  switch (k) {
    case Kind::Reg:
      for (int n : {0, 255, 17, 1, 128}) out.push_back({"r" + std::to_string(n), n});
      out.push_back({"zero", 0});
      break;
    case Kind::Sreg:
      for (const auto& s : umbra::isa::kSpecialRegs) out.push_back({s.name, s.number});
      // by number too
      out.push_back({std::to_string(umbra::isa::kSpecialRegs[1].number), umbra::isa::kSpecialRegs[1].number});
      break;
    case Kind::Mem: {
      const uint8_t bases[] = {0, 255, 9, 31, 100};
      const int64_t offs[] = {r.lo, r.hi, 0, -4, 4};
      for (int i = 0; i < 5; ++i)
        out.push_back(
            {(i == 2 ? std::string() : std::to_string(offs[i])) + "(r" + std::to_string(bases[i]) + ")",
             int32_t(offs[i]), bases[i]});
      // `zero` names r0 as a base too (docs/assembler.md, Operands).
      out.push_back({"8(zero)", 8, 0});
      out.push_back({"(zero)", 0, 0});
      break;
    }
    case Kind::Br8:
    case Kind::Br16:
    case Kind::Br24:
      for (int64_t off : {r.lo, r.hi, int64_t(0), int64_t(-1), int64_t(1)}) {
        if (off < -kBaseWords) off = -kBaseWords;
        out.push_back({". + " + std::to_string(4 * off), int32_t(off)});
      }
      // and written as an absolute address
      out.push_back({std::to_string(4 * (kBaseWords + 3)), 3});
      break;
    default: {
      for (int64_t v : {r.lo, r.hi, (r.lo + r.hi) / 2, int64_t(1)})
        out.push_back({std::to_string(v), int32_t(v)});
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(r.hi));
      out.push_back({hex, int32_t(r.hi)});
      out.push_back({"(2 + 1) * 1 - ~0 - 1", 3});  // every immediate kind reaches 3
      break;
    }
  }
  return out;
}

TEST(AsmEncoding, EveryInstructionMatchesIsaEncode) {
  size_t checked = 0;
  for (const auto& in : kInstrs) {
    std::vector<std::vector<Sample>> per(in.num_operands);
    size_t variants = 1;
    for (unsigned i = 0; i < in.num_operands; ++i) {
      per[i] = samples(in.operands[i].kind);
      variants = std::max(variants, per[i].size());
    }
    for (size_t v = 0; v < variants; ++v) {
      std::string line = std::string(in.name);
      int32_t values[3] = {0, 0, 0};
      uint8_t base = 0;
      for (unsigned i = 0; i < in.num_operands; ++i) {
        const Sample& s = per[i][(v + i) % per[i].size()];
        line += (i ? ", " : " ") + s.text;
        values[i] = s.value;
        if (in.operands[i].kind == Kind::Mem) base = s.base;
      }
      std::string why;
      const auto expect = umbra::isa::encode(in, values, base, &why);
      ASSERT_TRUE(expect) << line << ": " << why;
      const std::string src = "  .space " + std::to_string(4 * kBaseWords) + "\n  " + line + "\n";
      const auto r = umbra::as::assemble_string(src, "enc.s");
      ASSERT_TRUE(r.ok()) << line << "\n" << (r.errors.empty() ? "" : r.errors[0].render());
      ASSERT_EQ(r.program.text.size(), size_t(kBaseWords + 1)) << line;
      EXPECT_EQ(r.program.text.back(), *expect) << line;
      ++checked;
    }
  }
  EXPECT_GE(checked, std::size(kInstrs));
}

// The opposite direction: the disassembly the ISA library prints is accepted back by
// the assembler and gives the same word (umbra-dis relies on this).
TEST(AsmEncoding, DisassemblyReassembles) {
  for (const auto& in : kInstrs) {
    int32_t values[3] = {0, 0, 0};
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const Kind k = in.operands[i].kind;
      values[i] = k == Kind::Reg                   ? 200 + int32_t(i)
                  : k == Kind::Sreg                ? umbra::isa::kSpecialRegs[2].number
                  : k == Kind::Mem                 ? -8
                  : umbra::isa::kind_info(k).pcrel ? -2
                                                   : 1;
    }
    const auto word = umbra::isa::encode(in, values, 7);
    ASSERT_TRUE(word) << in.name;
    const uint32_t pc = 64;
    const std::string text = umbra::isa::disassemble(*word, pc);
    const auto r = umbra::as::assemble_string(".space 64\n" + text + "\n", "dis.s");
    ASSERT_TRUE(r.ok()) << text << "\n" << r.errors[0].render();
    EXPECT_EQ(r.program.text.back(), *word) << text;
  }
}

}  // namespace
