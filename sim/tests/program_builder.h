// Programs for the simulator tests, built word by word with isa::encode so that the
// ISS tests depend on the ISA tables only, not on the assembler (which has tests of
// its own).  Branch offsets are given in words, as the encoding stores them.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "umbra/isa.h"
#include "umbra/program.h"

namespace umbra::test {

inline uint32_t enc(const std::string& mnemonic, const std::vector<int32_t>& ops, uint8_t base = 0) {
  const isa::InstrInfo* in = isa::find_name(mnemonic);
  EXPECT_NE(in, nullptr) << mnemonic;
  if (!in) return 0;
  std::string why;
  const auto w = isa::encode(*in, ops.data(), base, &why);
  EXPECT_TRUE(w.has_value()) << mnemonic << ": " << why;
  return w.value_or(0);
}

// A word no instruction encodes: the first opcode the ISA leaves unused.
inline uint32_t unused_opcode_word() {
  for (unsigned op = 0; op < 256; ++op)
    if (!isa::find_opcode(uint8_t(op))) return uint32_t(op) << isa::kOpcodeLsb;
  ADD_FAILURE() << "every opcode is used";
  return 0;
}

struct Builder {
  Program p;
  Builder() { p.symbols.push_back({"start", 0, Symbol::Section::Text}); }
  Builder& op(const std::string& mnemonic, const std::vector<int32_t>& ops, uint8_t base = 0) {
    p.text.push_back(enc(mnemonic, ops, base));
    return *this;
  }
  Builder& word(uint32_t w) {
    p.text.push_back(w);
    return *this;
  }
  // Index of the next word, for branch offsets.
  int at() const { return int(p.text.size()); }
};

}  // namespace umbra::test
