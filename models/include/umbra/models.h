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

#include "run_result.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/program.h"

namespace umbra::models {

struct Job {
  const Program* program = nullptr;
  std::string source = "program";  // the program's file, for messages and reproduction lines
  unsigned threads = 1;
  // A domain launch (run_result.h) instead of `threads` a core; threads must then be
  // the configuration's.
  scm::Domain domain;
  // A command buffer instead of either (run_result.h, docs/commands.md): the host rings
  // the command processor's doorbell with its address; the program's data and `writes`
  // (which must hold the buffer and the text its `program` copies) are in memory from the
  // start, and the text reaches the instruction store only through `program`.  The ISS
  // runs the buffer functionally (iss::Simulator::run_commands).
  scm::Doorbell doorbell;
  // The budget: the ISS counts retired instructions, the cycle models busy cycles;
  // max_cycles = 0 derives the cycle budget from max_instructions (cycle_budget()).
  uint64_t max_instructions = 100'000'000, max_cycles = 0;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;  // before launch
  std::vector<scm::HostWrite> host_writes;                         // during the run (cycle models)
  scm::EventSink* sink = nullptr;  // every cycle's events (cycle models); cosim: the SystemC side's
  bool capture_registers = false;  // fill RunResult::registers (iss, systemc)
  scm::Isolation isolation = scm::Isolation::Subprocess;
  std::string vcd, fst;  // waveform base names (rtl, cosim)
  std::string repro;     // the command that reproduces the run, quoted in mismatch reports (cosim)
};

// "W" or "WxH" (a 1D or 2D domain, each side 1..2^32-1, at most 2^32 - 1 work items),
// as the tools' --domain takes it; throws std::invalid_argument naming the text.
scm::Domain parse_domain(const std::string& text);

struct Result {
  // status CycleLimit for the ISS: its instruction limit.
  scm::RunResult run;         // cosim: the RTL's (the design); both sides' statistics are compared
  uint64_t instructions = 0;  // retired (iss) or issued (cycle models)
  uint64_t iss_rounds = 0;    // iss: issue rounds of T slots
  // Models that compare: the SystemC side, whether both sides and the ISS agreed and,
  // if not, the report.
  bool compared = false;  // `other` holds the SystemC side
  scm::RunResult other;
  bool agreed = true;
  std::string mismatch_report;  // the first difference between the two sides
  std::string summary;          // everything that failed, for a person; empty when agreed
  std::vector<std::string> iss_problems, iss_notes;
  uint64_t events_compared = 0;
};

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
  // Throws scm::RunError for a run that cannot be made; faults and limits are results.
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
