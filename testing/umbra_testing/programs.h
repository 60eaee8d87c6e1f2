// umbra_testing/programs.h: what the cosimulation's tests do with a program they
// write inline: assemble it (a diagnostic fails the test, with the assembler's text),
// find a symbol's address, read a word of a run's final memory.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "umbra/asm.h"

namespace umbra::testkit {

inline Program assemble(const std::string& src) {
  as::Options o;
  const as::Result r = as::assemble_string(src, "test.s", o);
  std::string diags;
  for (const auto& d : r.errors) diags += d.render();
  EXPECT_TRUE(r.ok()) << diags;
  return r.program;
}

inline uint32_t symbol(const Program& p, const std::string& name) {
  for (const Symbol& s : p.symbols)
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no symbol " << name;
  return 0;
}

// The little-endian word at addr of a run's final memory.
inline uint32_t word(const std::vector<uint8_t>& m, uint32_t addr) {
  return uint32_t(m[addr]) | uint32_t(m[addr + 1]) << 8 | uint32_t(m[addr + 2]) << 16 |
         uint32_t(m[addr + 3]) << 24;
}

}  // namespace umbra::testkit
