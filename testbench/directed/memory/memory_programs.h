// The directed memory-system programs (testbench/directed/memory/*.s) and their
// expected results.  Each program states in `#@` comment lines what it needs and what it
// must leave in memory, next to the explanation of why:
//
//   #@ threads: 8                        threads to launch (the configuration must have them)
//   #@ expect SYMBOL[+OFFSET]: V V ...   the words from that address on (decimal or 0x hex)
//   #@ host-write: CYCLE SYMBOL[+OFFSET] VALUE
//                                        the testbench writes VALUE into that memory word
//                                        CYCLE cycles after launch (needs the hook, see
//                                        README.md); a program with one cannot run on the ISS
//
// The expectations are worked out from each program's design (its header comment says
// how), not taken from a model's output, so every model -- ISS, SystemC, cosimulation --
// is held to them.  A malformed line is an error naming the file and line.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/program.h"

namespace umbra::memdirected {

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Expect {
  std::string symbol;
  uint32_t offset = 0;
  std::vector<uint32_t> words;
  unsigned line = 0;
};

struct HostWrite {
  uint64_t cycle = 0;  // after launch
  std::string symbol;
  uint32_t offset = 0;
  uint32_t value = 0;
};

struct Spec {
  std::string name;  // file name without .s
  std::string path;
  unsigned threads = 0;
  std::vector<Expect> expects;
  std::vector<HostWrite> host_writes;
};

// Parses the `#@` lines of one program.
Spec load_spec(const std::string& path);
// Every *.s in the directory (UMBRA_MEMORY_DIRECTED_DIR by default), sorted by name.
std::vector<Spec> all_specs();

// Assembles the program with the configuration's register limit; throws SpecError with
// the rendered diagnostics.
Program assemble(const Spec& s, unsigned registers);

// Compares a final data memory (byte image from address 0) with the expectations;
// returns one line per wrong word ("all_miss.s:13: out+0x14: expected 0x1016, got 0x0").
std::vector<std::string> check(const Spec& s, const Program& p, const std::vector<uint8_t>& memory);

// The address of a host write, resolved in the program.
uint32_t address_of(const Spec& s, const Program& p, const std::string& symbol, uint32_t offset);

}  // namespace umbra::memdirected
