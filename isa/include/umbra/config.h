// A named machine configuration (configs/*.yaml): how many threads, registers and
// cores, how big the stores are, and the memory system's parameters.  One file drives
// the assembler's register limit, the simulators and the RTL parameters, so a program
// can be checked against exactly what goes on the chip.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "umbra/config_gen.h"  // ConfigKeys, from isa/config_keys.yaml
#include "umbra/isa.h"         // the extension groups, from isa/isa.yaml
#include "umbra/uarch_gen.h"   // limits and pipeline depth, from isa/uarch.yaml

namespace umbra {

// The keys, their types, defaults and meanings are isa/config_keys.yaml's
// (docs/configuration.md), generated into ConfigKeys; Config adds what follows from them.
struct Config : ConfigKeys {
  // Stages F..W of the barrel core (docs/microarchitecture.md); the loader refuses
  // fewer threads, so that a thread never meets its previous instruction in flight.
  unsigned pipeline_depth() const { return uarch::pipeline_depth(execute_stages); }
  bool has_group(unsigned group) const { return (groups >> group) & 1u; }
  bool has(const isa::InstrInfo& in) const { return isa::in_groups(in, groups); }
};

// The names of the groups in a mask, in isa.yaml's order, as "base, fp32".
std::string group_names(uint32_t groups);

// Bad configuration files: the message names the file, the line and what is wrong.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Loads a configuration; keys that are missing keep their defaults, unknown keys and
// out-of-range values are errors.
Config load_config(const std::string& path);

// What load_config does with the file's text once it is read: the same checks and the
// same messages, which name `path` as if the text were that file.  For text that is
// not in a file (the fuzzer, tests); a program reading a configuration uses load_config.
Config parse_config(const std::string& text, const std::string& path);

}  // namespace umbra
