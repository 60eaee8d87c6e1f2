// umbra-as as a library: assembly source to a Program, or a list of diagnostics.
// The assembler reports every error it finds (up to a cap), each as
// file:line:col: error: message, the source line and a caret.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "umbra/config.h"
#include "umbra/program.h"

namespace umbra::as {

struct Diagnostic {
  std::string file;
  int line = 0, col = 0;  // 1-based
  std::string message;
  std::string source_line;
  // A note rather than an error: the "N more errors were suppressed" line after
  // Options::max_errors.  Notes have line 0 and render without a caret.
  bool note = false;
  // The error is an instruction of an extension group the target lacks
  // (Options::groups): the group's index in isa::kGroups; -1 for any other diagnostic.
  // A harness that runs programs on several configurations skips such a program.
  int absent_group = -1;
  // "file:line:col: error: message\n<source line>\n<caret>\n"; without a line
  // (line 0: the file itself could not be read) just "file: error: message\n".
  std::string render() const;
};

struct Options {
  unsigned registers = 256;  // registers the target implements; r<N> beyond is an error
  unsigned max_errors = 20;  // 0: no limit
  uint32_t data_base = Program::kDefaultDataBase;
  std::vector<std::string> include_dirs;
  bool listing = false;
  // The target's stores, when known (0: only the assembler's own bounds): a program
  // that would not fit is refused here, at the line that overflows, rather than by
  // the simulator or the board loader later.
  uint32_t imem_words = 0;  // instruction store, in words
  uint64_t mem_bytes = 0;   // data memory; .data must end inside it
  // The target's extension groups (core.groups): an instruction of another group is
  // an error naming the instruction, its group and `config`, the configuration (as
  // "'name'", or "'name' (file)" when umbra-as knows the file).
  uint32_t groups = isa::kAllGroups;
  std::string config;
  // Every limit a configuration file sets for programs: registers, the .data origin,
  // the two store sizes and the extension groups.
  void apply(const Config& c);
};

struct Result {
  bool ok() const { return errors.empty(); }
  Program program;
  std::vector<Diagnostic> errors;
  // Every file read: the source and its .include files (a tool must not overwrite them).
  std::vector<std::string> sources;
};

Result assemble_file(const std::string& path, const Options& opts = {});
// The first error of `r` that is an instruction of an absent extension group, or
// nullptr: the program needs a group the target does not have.
const Diagnostic* absent_group_error(const Result& r);
// `name` is used in diagnostics; .include paths resolve relative to include_dirs and
// the current directory.
Result assemble_string(const std::string& source, const std::string& name, const Options& opts = {});

// `s` with every byte that is not printable text (control characters, invalid UTF-8)
// written as \xNN, so that garbage in a source cannot drive the terminal.  With
// `caret`, also the blanks (tabs kept) that reach the first `limit` bytes' end as
// printed, for a caret line under the escaped text.
std::string escape_text(const std::string& s, size_t limit = 0, std::string* caret = nullptr);

// The listing of a program assembled with Options::listing: one row per source line
// with its section, address, the words it produced and the source text.
std::string render_listing(const Program& p);

}  // namespace umbra::as
