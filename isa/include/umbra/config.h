// A named machine configuration (configs/*.yaml): how many threads, registers and
// cores, how big the stores are, and the memory system's parameters.  One file drives
// the assembler's register limit, the simulators and the RTL parameters, so a program
// can be checked against exactly what goes on the chip.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace umbra {

struct Config {
  std::string name = "default";
  unsigned threads = 8;          // thread contexts per core (T)
  unsigned registers = 256;      // registers implemented per thread
  unsigned cores = 1;
  uint32_t imem_words = 4096;    // instruction store per core, in words
  uint32_t mem_bytes = 1u << 20; // data memory
  // Cycles from a request's acceptance to its response at the fixed-latency memory
  // that stands behind the generic port until the memory system exists.
  unsigned mem_latency = 12;

  // FPGA target (section `fpga:`, read by fpga/build.sh through umbra-config); an empty
  // device means the configuration names no FPGA.  Only families with an open
  // place-and-route flow are accepted: iCE40 "up5k" and "hx8k".
  std::string fpga_device;        // "up5k" or "hx8k"
  std::string fpga_package;       // nextpnr-ice40 --package, e.g. "sg48", "ct256"
  unsigned fpga_clock_mhz = 0;    // target clock for place-and-route
  bool fpga_dsp = false;          // map the FP32/integer multipliers onto DSP blocks
};

// Pipeline stages of the barrel core (docs/microarchitecture.md); a configuration
// needs at least this many threads so that a thread never meets its previous
// instruction in flight.
constexpr unsigned kPipelineDepth = 8;

// Bad configuration files: the message names the file, the line and what is wrong.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Loads a configuration; keys that are missing keep their defaults, unknown keys and
// out-of-range values are errors.
Config load_config(const std::string& path);

}  // namespace umbra
