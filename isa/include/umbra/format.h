// umbra/format.h: the hex spellings every tool and model prints numbers in.
//
// Messages are compared by tests (and read by people side by side across tools), so
// a word is spelled the same way everywhere: one definition per spelling, here in
// the lowest layer so the generator, the ISA, the models, the harness and the tools
// can all include it.  Header-only and dependent on nothing but the standard library:
// umbra-isagen includes it without linking umbra_isa.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace umbra {

// "0x0000abcd": a 32-bit word or address, all eight digits.
inline std::string hex8(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// "0000abcd": the same without the prefix, as the memory and register listings print.
inline std::string hex8_bare(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

// "0xabcd": as few digits as the value needs (opcodes in messages, assembler offsets).
inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// "0x0a": a byte, at least two digits (opcode and port-op codes in the generated tables).
inline std::string hex2(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%02x", v);
  return b;
}

// A rate for a person: "1.23 M", "45.6 k" or "789 " (the unit follows).
inline std::string rate_text(double r) {
  char b[32];
  if (r >= 1e6)
    std::snprintf(b, sizeof b, "%.2f M", r / 1e6);
  else if (r >= 1e3)
    std::snprintf(b, sizeof b, "%.1f k", r / 1e3);
  else
    std::snprintf(b, sizeof b, "%.0f ", r);
  return b;
}

}  // namespace umbra
