// placeholder ELF reader/writer (being written)
#include "umbra/program.h"
namespace umbra::obj {
std::vector<uint8_t> write_elf(const Program&) { throw ObjectError("ELF writer not implemented yet"); }
Program read_elf(const std::vector<uint8_t>&, const std::string& name) {
  throw ObjectError(name + ": ELF reader not implemented yet");
}
}  // namespace umbra::obj
