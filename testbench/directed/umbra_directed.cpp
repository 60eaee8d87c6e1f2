// umbra-directed DIR: writes the directed test programs (directed.h) as DIR/<name>.s,
// so one instruction's program can be read, assembled or cosimulated by hand:
//   umbra-directed /tmp/d && umbra-cosim /tmp/d/fadd.s
// Mnemonics with a dot (red.add) keep it: red.add.s.  Exit status 1 if DIR cannot be
// written.
#include <cstdio>
#include <fstream>
#include <string>

#include "directed.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]).empty() || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: umbra-directed DIR   (writes DIR/<instruction>.s; DIR must exist)\n");
    return 1;
  }
  const std::string dir = argv[1];
  unsigned n = 0;
  for (const auto& p : umbra::directed::programs()) {
    const std::string path = dir + "/" + p.name + ".s";
    std::ofstream out(path);
    out << p.source;
    if (!out.flush()) {
      std::fprintf(stderr, "umbra-directed: cannot write %s\n", path.c_str());
      return 1;
    }
    ++n;
  }
  std::printf("%u programs written to %s\n", n, dir.c_str());
  return 0;
}
