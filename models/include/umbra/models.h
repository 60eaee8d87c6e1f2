// The model registry: every model of the core a tool can run — the reference
// simulator (iss), the SystemC model (systemc), the Verilated RTL (rtl) and both in
// lockstep (cosim) — by name, with a description, what it supports and one run
// function with one signature.  umbra-sim, the examples harness, the random checker
// and the benchmarks choose a model here instead of comparing names; a new model is one
// entry in models.cpp.
//
// Every run returns the contract's RunResult (run_result.h): the ISS's is its final
// memory, status and registers (it has no cycles: stats stay empty).  A model that
// compares (cosim) also says whether its two sides agreed, and why not.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model_run.h"
#include "run_result.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/program.h"

namespace umbra::models {

// Job and Result, what a run is asked and gives back: model_run.h.

// "W" or "WxH" (a 1D or 2D domain, each side 1..2^32-1, at most 2^32 - 1 work items),
// as the tools' --domain takes it; throws std::invalid_argument naming the text.
umbra::Domain parse_domain(const std::string& text);

struct Supports {
  bool cycles = false;             // a timing model: cycles, statistics, events, timeline
  bool waveforms = false;          // --vcd/--fst
  bool compares = false;           // two models checked against each other (and the ISS)
  bool registers = false;          // Job::capture_registers fills RunResult::registers
  bool host_writes = false;        // Job::host_writes
  bool instruction_trace = false;  // one line per retired instruction (umbra-sim --trace on the ISS)
};

struct Model {
  std::string name;
  std::string description;
  Supports supports;
  // Throws umbra::RunError for a run that cannot be made; faults and limits are results.
  std::function<Result(const Config&, const Job&)> run;
};

// A cosimulation's result in the registry's terms (for callers that run run_cosim with
// options of their own, such as umbra-cosim's injections).
Result from_cosim(const cosim::CosimResult& c);

// Every model, in the order a --help text lists them (iss, systemc, rtl, cosim).
const std::vector<Model>& all();
std::vector<std::string> names();
// Throws std::invalid_argument naming the known models.
const Model& find(const std::string& name);

// The cycle budget a cycle model gets for an instruction budget: every instruction
// issued in its own round of T slots, each load sleeping the longest the memory
// latency can make it, so a run that keeps within its instructions never hits it.
uint64_t cycle_budget(const Config& cfg, uint64_t max_instructions);

// Words of a model's final memory, little-endian; false (and no words) when the span
// leaves the memory.
bool read_words(const std::vector<uint8_t>& memory, uint32_t address, uint32_t words,
                std::vector<uint32_t>& out);

}  // namespace umbra::models
