// Raw binary of the instruction store: the text words, little-endian, nothing else.
// It is what a host loader copies into the instruction store, so it has no header;
// the data image and the symbols need ELF or hex.
#include <string>

#include "umbra/program.h"

namespace umbra::obj {

std::vector<uint8_t> write_bin_text(const Program& p) {
  std::vector<uint8_t> b(p.text.size() * 4);
  for (size_t i = 0; i < p.text.size(); ++i)
    for (int k = 0; k < 4; ++k) b[4 * i + k] = uint8_t(p.text[i] >> (8 * k));
  return b;
}

Program read_bin_text(const std::vector<uint8_t>& bytes, const std::string& name) {
  if (bytes.size() % 4 != 0)
    throw ObjectError(name + ": error: raw binary is " + std::to_string(bytes.size()) +
                      " bytes, not a whole number of 32-bit instructions");
  Program p;
  p.text.resize(bytes.size() / 4);
  for (size_t i = 0; i < p.text.size(); ++i)
    p.text[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
                uint32_t(bytes[4 * i + 3]) << 24;
  return p;
}

}  // namespace umbra::obj
