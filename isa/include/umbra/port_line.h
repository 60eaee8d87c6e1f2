// PortLine: one cache line as it crosses the memory port in one beat, when the port is
// a line wide (cache.line_port, docs/memory-system.md "The line port"): a fill's answer,
// and a combined line write's data (whose words the request's mask names).  It is a
// fixed array of the largest line the configuration loader takes (128 bytes), so that
// it is a plain value every model and the harness copy as they copy a word; only the
// first line_bytes / 4 words mean anything.  Shared by the SystemC core, the memory
// models and the cosimulation, hence here beside the ISA's other plain types.
#pragma once
#include <cstdint>
#include <ostream>

namespace umbra {

struct PortLine {
  static constexpr unsigned kMaxWords = 32;  // cache.line_bytes <= 128 (isa/src/config.cpp)
  uint32_t w[kMaxWords] = {};

  bool operator==(const PortLine& o) const {
    for (unsigned i = 0; i < kMaxWords; ++i)
      if (w[i] != o.w[i]) return false;
    return true;
  }
  bool operator!=(const PortLine& o) const { return !(*this == o); }
  // A 32-bit summary of the first `words` words under `mask` (bit i: word i), which the
  // port's events carry instead of the line (docs/memory-system.md, "Events"): a
  // word's value and its place both change it.
  uint32_t fold(unsigned words, uint32_t mask = ~0u) const {
    uint32_t h = 0x811c9dc5u;
    for (unsigned i = 0; i < words && i < kMaxWords; ++i)
      if (mask >> i & 1u) h = (h ^ w[i]) * 0x01000193u + i;
    return h;
  }
};

inline std::ostream& operator<<(std::ostream& os, const PortLine& l) {
  return os << "line " << std::hex << l.w[0] << "..." << std::dec;
}

}  // namespace umbra
