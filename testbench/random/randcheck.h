// Running one random program (randprog.h) on a model of the registry (umbra/models.h:
// the SystemC model, the RTL, the cosimulation) and checking it against the reference
// simulator (check_model, umbra_randcheck).
//
// A check passes when the model runs every thread to `exit` without a fault within its
// cycle budget and leaves data memory byte for byte as the reference simulator does;
// the cosimulation adds its own cycle-by-cycle comparison of the two models.  The result
// always names the seed, so a failure in a long regression is one command to replay.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "randprog.h"
#include "umbra/config.h"

namespace umbra::models {
struct Model;  // umbra/models.h
}

namespace umbra::randprog {

struct SeedResult {
  uint64_t seed = 0;
  bool passed = false;
  std::string model;   // the registry's name: "systemc", "cosim", ...
  std::string detail;  // why it failed (empty when passed)
  uint64_t cycles = 0;
  uint64_t iss_instructions = 0;
  std::string repro;         // the command that replays this seed on this model
  std::string line() const;  // "seed 12 cosim: PASS (1234 cycles)" or "... FAIL: detail"
};

// Describes the first few differing words of two memory images, naming the region of
// the layout each lies in ("dump, thread 3, word 5", "shared word 4", ...).
std::vector<std::string> memory_differences(const std::vector<uint8_t>& expected,
                                            const std::vector<uint8_t>& got, const Layout& layout,
                                            unsigned threads, unsigned max_reported = 8);

// The cycle budget for a program the reference simulator ran in `iss_instructions`.
uint64_t cycle_budget(const Config& cfg, uint64_t iss_instructions);

// `config_path` is only quoted in the reproduction command (empty: the default).
SeedResult check_model(const models::Model& model, const Config& cfg, const Options& opts,
                       const std::string& config_path = "");

}  // namespace umbra::randprog
