// What a run of any model is asked (models::Job) and what it gives back
// (models::Result), apart from the registry that lists the models (umbra/models.h).
// They are plain C++ on the contracts, so the host API's device (host/, umbra/device.h)
// and a board's backend (fpga/host/) speak them without linking a model: umbra-load
// drives a board through the same Result a model run returns.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "run_result.h"

namespace umbra {
struct Program;
}

namespace umbra::models {

struct Job {
  const Program* program = nullptr;
  std::string source = "program";  // the program's file, for messages and reproduction lines
  unsigned threads = 1;
  // A domain launch (run_result.h) instead of `threads` a core; threads must then be
  // the configuration's.
  umbra::Domain domain;
  // A command buffer instead of either (run_result.h, docs/commands.md): the host rings
  // the command processor's doorbell with its address; the program's data and `writes`
  // (which must hold the buffer and the text its `program` copies) are in memory from the
  // start, and the text reaches the instruction store only through `program`.  The ISS
  // runs the buffer functionally (iss::Simulator::run_commands).
  umbra::Doorbell doorbell;
  // The budget: the ISS counts retired instructions, the cycle models busy cycles;
  // max_cycles = 0 derives the cycle budget from max_instructions (cycle_budget()).
  uint64_t max_instructions = 100'000'000, max_cycles = 0;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;  // before launch
  std::vector<umbra::HostWrite> host_writes;                       // during the run (cycle models)
  umbra::EventSink* sink = nullptr;  // every cycle's events (cycle models); cosim: the SystemC side's
  bool capture_registers = false;    // fill RunResult::registers (iss, systemc)
  umbra::Isolation isolation = umbra::Isolation::Subprocess;
  std::string vcd, fst;     // waveform base names (rtl, cosim)
  umbra::WaveBounds waves;  // their window and size limit
  std::string repro;        // the command that reproduces the run, quoted in mismatch reports (cosim)
};

struct Result {
  // status CycleLimit for the ISS: its instruction limit.
  umbra::RunResult run;       // cosim: the RTL's (the design); both sides' statistics are compared
  uint64_t instructions = 0;  // retired (iss) or issued (cycle models)
  uint64_t iss_rounds = 0;    // iss: issue rounds of T slots
  // Models that compare: the SystemC side, whether both sides and the ISS agreed and,
  // if not, the report.
  bool compared = false;  // `other` holds the SystemC side
  umbra::RunResult other;
  bool agreed = true;
  std::string mismatch_report;  // the first difference between the two sides
  std::string summary;          // everything that failed, for a person; empty when agreed
  std::vector<std::string> iss_problems, iss_notes;
  uint64_t events_compared = 0;
};

}  // namespace umbra::models
