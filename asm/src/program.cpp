// Program helpers shared by every reader and writer: symbol lookup by name and the
// reverse lookup the disassembler and trace printers use to name branch targets.
#include "umbra/program.h"

namespace umbra {

std::optional<uint32_t> Program::symbol(const std::string& name) const {
  for (const Symbol& s : symbols)
    if (s.name == name) return s.value;
  return std::nullopt;
}

std::optional<std::string> Program::text_label(uint32_t address) const {
  for (const Symbol& s : symbols)
    if (s.section == Symbol::Section::Text && s.value == address) return s.name;
  return std::nullopt;
}

}  // namespace umbra
