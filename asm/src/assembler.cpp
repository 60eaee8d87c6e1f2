// placeholder assembler (being written): reports that it cannot assemble yet.
#include "umbra/asm.h"

namespace umbra::as {
std::string Diagnostic::render() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message + "\n" +
         source_line + "\n";
}
Result assemble_string(const std::string&, const std::string& name, const Options&) {
  Result r;
  r.errors.push_back({name, 1, 1, "assembler not implemented yet", ""});
  return r;
}
Result assemble_file(const std::string& path, const Options& o) { return assemble_string("", path, o); }
}  // namespace umbra::as
