// Running a program on the cycle-accurate SystemC model of one core, from C++: builds
// the system top, the memory the configuration names and the host driver, loads the data memory
// directly and the instruction store through the host port, launches, runs until the
// core is idle (or faults, or the cycle budget is spent) and returns the cycles, the
// statistics and the final memory.  `umbra-sim --model systemc`, the example harness
// and the tests use it.
//
// SystemC can elaborate a design only once per process, so by default every call runs
// the simulation in a child process (fork) and streams the events and the result back;
// a caller that runs one simulation per process (a command-line tool, a debugger
// session) can ask for Isolation::InProcess instead, once.  The blocks themselves
// (umbra_system.h, memory/memory_model.h, host_driver.h) are ordinary SC_MODULEs; this
// runner steps them without the SystemC kernel (their plain stepping), the
// cosimulation wires them by the harness's bench.h.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "run_result.h"
#include "umbra/config.h"
#include "umbra/program.h"
#include "umbra/semantics.h"

namespace umbra::harness {

struct RunOptions {
  unsigned core_id = 0;  // `rdsr cid`
  unsigned ncores = 0;   // `rdsr ncore`; 0: the configuration's `cores`
  // Words written into data memory after the program's data, before launch.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;
  std::vector<HostWrite> host_writes;
  bool capture_registers = false;  // fill RunResult::registers
  // A domain launch instead of the nthreads-a-core one (run_result.h); nthreads must
  // then be the configuration's threads.
  Domain domain;
  Doorbell doorbell;  // a command buffer instead (run_result.h)
  using Isolation = umbra::Isolation;
  Isolation isolation = Isolation::Subprocess;
};

// Runs threads 0..nthreads-1 of `program` from its entry point.  max_cycles bounds the
// busy cycles after launch.  `sink` (optional) receives every cycle's events from cycle
// 0 (the first after reset) to end_cycle, in order.  Throws RunError for runs that
// cannot be made; faults and the cycle limit are results, not exceptions.
RunResult run_systemc(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      EventSink* sink = nullptr, const RunOptions& opts = {});

}  // namespace umbra::harness
