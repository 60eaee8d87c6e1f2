// placeholder binary reader/writer (being written)
#include "umbra/program.h"
namespace umbra::obj {
std::vector<uint8_t> write_bin_text(const Program&) { throw ObjectError("bin writer not implemented yet"); }
Program read_bin_text(const std::vector<uint8_t>&, const std::string& name) {
  throw ObjectError(name + ": bin reader not implemented yet");
}
}  // namespace umbra::obj
