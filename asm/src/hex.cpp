// placeholder hex reader/writer (being written)
#include "umbra/program.h"
namespace umbra::obj {
std::string write_hex_text(const Program&) { throw ObjectError("hex writer not implemented yet"); }
std::string write_hex_data(const Program&) { throw ObjectError("hex writer not implemented yet"); }
Program read_hex_text(const std::string&, const std::string& name) {
  throw ObjectError(name + ": hex reader not implemented yet");
}
}  // namespace umbra::obj
