// umbra-sim's report of a run (docs/simulator.md): every model's run reduced to one
// Outcome, and what is written from it — the --regs listing, the end-of-run summary
// on stderr and the --stats-json document.  Apart from the command line (umbra_sim.cpp)
// so that the formatting, which is most of the text, reads on its own.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "run_result.h"
#include "umbra/config.h"

namespace umbra::simreport {

constexpr int kExitOk = 0;        // every launched thread executed `exit`
constexpr int kExitBadInput = 1;  // command line, configuration or program file unusable
constexpr int kExitFault = 2;     // a thread faulted
constexpr int kExitLimit = 3;     // the instruction or cycle limit stopped the run
constexpr int kExitMismatch = 4;  // cosim: the SystemC model and the RTL (or the ISS) disagree
constexpr int kExitLivelock = 5;  // every running thread spun on one pc, changing nothing

std::string plural(uint64_t n, const char* word);

// One thread's end of the run, in the terms every model can give.
struct ThreadEnd {
  std::string state;   // exited, faulted, running
  uint32_t pc = 0;     // iss: exit/fault/next pc; cycle models: exit/fault/last issued pc
  uint64_t count = 0;  // iss: retired; cycle models: issued
  std::vector<uint32_t> regs;
};

// Everything reported after a run, whichever model made it.
struct Outcome {
  std::string model;
  int rc = kExitOk;
  std::string stop_line;  // "fault: ..." / "stopped: ..." for stderr; empty when all exited
  std::string status;     // for JSON: exited, fault, instruction limit, cycle limit, livelock, mismatch
  // About the outputs (a trace cut at its limit), for stderr; no change to rc.  A cycle
  // model's own (its waveforms) are cyc.warnings.
  std::vector<std::string> warnings;
  std::vector<uint8_t> memory;
  std::vector<ThreadEnd> threads;  // the launched ones (a domain launch: every context)
  umbra::Domain domain;            // a domain launch's work items (run_result.h)
  // --commands: the command file, and the buffer's words and address (no thread table:
  // its runs may be many)
  std::string commands;
  uint32_t command_words = 0, command_addr = 0;
  bool has_cycles = false;
  umbra::RunResult cyc;  // cycle models: cycles, statistics, timing
  uint64_t iss_retired = 0, iss_rounds = 0;
  // cosim only
  bool cosim = false;
  uint64_t events_compared = 0;
  std::string mismatch_report;
  std::vector<std::string> iss_problems, iss_notes;
};

void write_regs(std::ostream& os, const Outcome& o, unsigned registers);
void write_summary(std::ostream& os, const Outcome& o, const umbra::Config& cfg);
nlohmann::json stats_json(const Outcome& o, const umbra::Config& cfg, const std::string& input);

}  // namespace umbra::simreport
