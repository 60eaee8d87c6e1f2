// Running a program on the cycle-accurate SystemC model of one core, from C++: builds
// the core, the fixed-latency memory and the host driver, loads the data memory
// directly and the instruction store through the host port, launches, runs until the
// core is idle (or faults, or the cycle budget is spent) and returns the cycles, the
// statistics and the final memory.  `umbra-sim --model systemc`, the example harness
// and the tests use it.
//
// SystemC can elaborate a design only once per process, so by default every call runs
// the simulation in a child process (fork) and streams the events and the result back;
// a caller that runs one simulation per process (a command-line tool, a debugger
// session) can ask for Isolation::InProcess instead, once.  The blocks themselves
// (umbra_core.h, fixed_memory.h, host_driver.h) are ordinary SC_MODULEs for
// testbenches that build their own design, such as the cosimulation.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "systemc/events.h"
#include "umbra/config.h"
#include "umbra/program.h"
#include "umbra/semantics.h"

namespace umbra::scm {

// A run that cannot be made: a configuration the core rejects, a program or input
// that does not fit, a bad thread count, a second in-process run, a child that died.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  unsigned core_id = 0;  // `rdsr cid`
  unsigned ncores = 0;   // `rdsr ncore`; 0: the configuration's `cores`
  // Words written into data memory after the program's data, before launch.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;
  bool capture_registers = false;  // fill RunResult::registers
  enum class Isolation : uint8_t { Subprocess, InProcess } isolation = Isolation::Subprocess;
};

struct RunResult {
  enum class Status : uint8_t { Exited, Fault, CycleLimit };
  Status status = Status::Exited;
  std::string message;  // what stopped a run that did not exit; empty when Exited
  Fault fault = Fault::None;
  uint32_t fault_thread = 0, fault_pc = 0, fault_addr = 0;  // pc: core faults; addr: memory faults

  uint64_t launch_cycle = 0;  // launch_valid was high in this cycle
  uint64_t end_cycle = 0;     // the cycle the run stopped in (Exited: the first with busy low)
  uint64_t cycles = 0;        // cycles with busy high (= stats.cycles)
  CoreStats stats;
  std::vector<uint8_t> memory;                   // final data memory
  std::vector<std::vector<uint32_t>> registers;  // [thread][register] of the launched threads
  // Time spent in the simulation (from reset to the stop), wall clock and CPU; the
  // rates count every simulated cycle, the loading of the instruction store included.
  double wall_seconds = 0, cpu_seconds = 0;
  double cycles_per_second() const { return wall_seconds > 0 ? double(end_cycle + 1) / wall_seconds : 0.0; }
  double cycles_per_cpu_second() const { return cpu_seconds > 0 ? double(end_cycle + 1) / cpu_seconds : 0.0; }
};
const char* status_name(RunResult::Status s);

// Runs threads 0..nthreads-1 of `program` from its entry point.  max_cycles bounds the
// busy cycles after launch.  `sink` (optional) receives every cycle's events from cycle
// 0 (the first after reset) to end_cycle, in order.  Throws RunError for runs that
// cannot be made; faults and the cycle limit are results, not exceptions.
RunResult run_systemc(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      EventSink* sink = nullptr, const RunOptions& opts = {});

}  // namespace umbra::scm
