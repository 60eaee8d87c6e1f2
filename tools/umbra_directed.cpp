// umbra-directed DIR [--threads N]: writes the directed test programs (directed.h) as
// DIR/<name>.s, so one instruction's program can be read, assembled or cosimulated by
// hand:
//   umbra-directed /tmp/d && umbra-cosim /tmp/d/fadd.s
// --threads sizes the per-thread areas (default 64, more than any configuration has);
// a small data memory (the HX8K's 4 KiB) needs the configuration's thread count.
// Mnemonics with a dot (red.add) keep it: red.add.s.  Exit status 1 if DIR cannot be
// written.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "directed.h"
#include "umbra/output_file.h"

int main(int argc, char** argv) {
  CLI::App app{"umbra-directed: writes one test program per instruction as DIR/<instruction>.s"};
  std::string dir;
  unsigned threads = 64;
  // No CLI11 check on DIR: writing says what is wrong with it, with the reason.
  app.add_option("DIR", dir, "directory to write to (must exist)")->required();
  app.add_option("--threads", threads,
                 "work items (threads of every core) the programs' data areas are sized for (default 64)")
      ->check(CLI::Range(1u, 64u));
  umbra::check_stdout_at_exit("umbra-directed");  // its output is standard output
  CLI11_PARSE(app, argc, argv);
  unsigned n = 0;
  for (const auto& p : umbra::directed::programs(threads)) {
    const std::string path = dir + "/" + p.name + ".s";
    try {
      umbra::write_output(path, "DIR", p.source);
    } catch (const umbra::OutputError& e) {
      std::fprintf(stderr, "umbra-directed: error: %s\n", e.what());
      return 1;
    }
    ++n;
  }
  std::printf("%u programs written to %s\n", n, dir.c_str());
  return 0;
}
