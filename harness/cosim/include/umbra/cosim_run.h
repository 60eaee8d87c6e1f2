// Running a program on the Verilated RTL of one core, alone (run_rtl) or side by side
// with the SystemC model (run_cosim), from C++.  The result is the contracts'
// RunResult (run_result.h), as run_systemc's, so the model registry (models/) treats
// every model alike; the checks, wiring and child-process transport are the run
// harness's (harness/).
//
// run_cosim builds ONE SystemC simulation: one clock, one host driver whose outputs
// fan out to both cores, and the configuration's memory model behind each (one
// instance per side, harness/memory_side.h).  The SystemC core reports events through
// its event sink; a monitor rebuilds the RTL's from its trace_* ports and its memory
// port.  A comparator checks every cycle's events as
// they are produced and stops the run at the first difference, with a report that
// says where, shows the instruction and the events before it, and gives the command
// that reproduces it.  Afterwards both final memories are compared with each other,
// and both models' per-thread streams and memories with the reference simulator.
//
// Verilator fixes the RTL's parameters when it verilates: the library is built for
// one configuration's core (verilated_params()); runs on a configuration whose core
// differs are refused with a RunError naming both values.
//
// SystemC elaborates once per process: with Isolation::Subprocess (the default) every
// call forks a child that runs the simulation and sends the result back, so one
// process can make many runs; InProcess runs here, once per process.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "umbra/config.h"
#include "umbra/program.h"
#include "umbra/systemc_run.h"

namespace umbra::cosim {

using umbra::Event;
using umbra::EventSink;
using umbra::RunError;
using umbra::RunResult;

// The parameters the RTL (umbra_system) was verilated with, NAME and value in the
// table's order, and the configuration file they were read from at configure time;
// for a configuration whose memory is RTL too (`memory.model: sdram`: the SDRAM
// controller behind the port), that module and its parameters.
struct VerilatedParams {
  std::vector<std::pair<std::string, uint64_t>> params;
  std::string config_file;
  std::string memory_top;  // "sdram_controller", or empty: the memory model is C++ on both sides
  std::vector<std::pair<std::string, uint64_t>> memory_params;
};
const VerilatedParams& verilated_params();
// The configuration file those parameters were read from, loaded.
Config verilated_config();
// Throws RunError if cfg gives umbra_system other parameters than the verilated ones
// (every row of the key -> parameter table for umbra_system; the queue's only with the
// queue enabled), naming each key, what cfg says and what the RTL was built with; the
// same for the RTL memory's, and if cfg's memory is not the one verilated.
void check_config(const Config& cfg);

// A test-only perturbation of the SystemC side's event stream, to show that the
// checker catches a difference where it happens (the model itself runs unchanged).
// One kind for every compared event and port: the SystemC core's events (a register
// write's value xor 1, an issue's pc + 4, a memory request's address + 4, a response's
// data xor 1, a cache outcome xor 1, a wake-up's thread xor 1, a DRAM transfer's
// address + 4, a start's lx + 1, a command's address + 4) and what the monitor sees at its ports (the memory
// port's request address + 4, the core's busy and the system's busy inverted, a fault's cause changed).
struct Injection {
  enum class Kind : uint8_t {
    None,
    RegWriteValue,
    IssuePc,
    MemAddr,
    MemRespData,
    CacheOutcome,
    WakeThread,
    DramAddr,
    StartItem,
    CommandAddr,
    PortMemAddr,
    Busy,
    SystemBusy,
    FaultCause
  } kind = Kind::None;
  uint64_t cycle = 0;  // the first event of that kind at or after this cycle
  unsigned core = 0;   // ... of this core
};
// Parses "CYCLE:KIND[:CORE]" (KIND one of injection_kinds(), CORE 0 by default); throws
// RunError on anything else.
const char* injection_kinds();
Injection parse_injection(const std::string& spec);

struct Options {
  unsigned core_id = 0;  // `rdsr cid` of core 0 (the RTL's cores are 0..cores-1: other values are refused)
  unsigned ncores = 0;   // `rdsr ncore`; 0: the configuration's `cores`
  // Words written into data memory after the program's data, before launch.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;
  // A domain launch instead of the nthreads-a-core one (run_result.h); nthreads must
  // then be the configuration's threads.
  umbra::Domain domain;
  // A command buffer instead (run_result.h): the host rings the command processor's
  // doorbell; the ISS check then compares final memory only (check::run_reference).
  umbra::Doorbell doorbell;
  // Words the host writes into memory during the run, on both sides (systemc_run.h).
  std::vector<umbra::HostWrite> host_writes;
  // Waveforms: "<vcd>.rtl.vcd" and "<vcd>.systemc.vcd" (run_cosim), "<vcd>.rtl.vcd"
  // (run_rtl); fst: the same, converted with gtkwave's vcd2fst.  Empty: none.
  std::string vcd, fst;
  // Their window and size limit (run_result.h): a file stopped at its limit, or a
  // window past the run's end, is a warning in the result (RunResult::warnings: the
  // RTL's file in rtl's, the SystemC side's in systemc's), not an error.
  umbra::WaveBounds waves;
  bool check_iss = true;  // run_cosim: compare both models with the reference simulator
  Injection inject;       // run_cosim: SystemC side only
  // Test-only: add 1 to the value of the reference simulator's k-th register write
  // (counted over all threads in the ISS's retire order, from 0); -1: none.
  int64_t inject_iss = -1;
  unsigned history = 16;  // events shown before a mismatch
  // The command line that reproduces this run, quoted in mismatch reports.
  std::string repro;
  std::string program_name = "program";
  using Isolation = umbra::Isolation;
  Isolation isolation = Isolation::Subprocess;
  // run_cosim: also receives the SystemC side's events as they are compared, cycle by
  // cycle (umbra-sim's progress line, timeline and registers).  Not owned.
  EventSink* observer = nullptr;
};

// A difference between the two models (or a model and the ISS).  For the per-cycle
// comparison: the cycle and thread of the first differing event, the field, both
// values; `report` is the full multi-line text for a person.
struct Mismatch {
  bool found = false;
  std::string stage;  // "events", "memory port", "end of run", "final memory", "iss"
  uint64_t cycle = 0;
  unsigned core = 0;
  uint32_t thread = 0;
  std::string field;
  std::string systemc, rtl;  // the two values as text ("-" for no event)
  std::string report;
};

struct CosimResult {
  RunResult systemc, rtl;                 // each side's own view (cycles, statistics, memory, fault)
  Mismatch mismatch;                      // the first difference between SystemC and RTL
  std::vector<std::string> iss_problems;  // differences from the reference simulator
  std::vector<std::string> iss_notes;     // tolerated differences, explained
  uint64_t events_compared = 0;
  bool passed() const { return !mismatch.found && iss_problems.empty(); }
  std::string summary() const;  // what failed, for a person; empty when passed
};

// The RTL alone behind the configuration's memory.  `sink` receives its events (from
// the trace ports and the memory port), cycle by cycle from cycle 0.
RunResult run_rtl(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                  EventSink* sink = nullptr, const Options& opts = {});

// Both models in lockstep; see the top of this file.
CosimResult run_cosim(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      const Options& opts = {});

}  // namespace umbra::cosim
