// The results of a run that every model returns, whichever runs it (the SystemC
// model, the Verilated RTL, the cosimulation; the tools reduce the reference simulator
// to them too): the status, the statistics of the core and of the memory system, the
// final memory and registers; and the error a run that cannot be made throws.  Plain
// C++ (no SystemC), so the tools on top and the models below share them without
// depending on each other: this is the contract layer (docs/architecture.md).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "events.h"
#include "umbra/semantics.h"

namespace umbra {

// A run that cannot be made: a configuration the core rejects, a program or input
// that does not fit, a bad thread count, a second in-process run, a child that died.
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A domain launch: w x h work items that the system's dispatcher hands to free threads
// of every core, row by row, refilling threads as they exit (docs/microarchitecture.md,
// "Domain launch").  w = h = 0: no domain, a thread launch of n threads a core.
struct Domain {
  uint32_t w = 0, h = 0;
  bool launch() const { return w != 0 || h != 0; }
  uint64_t items() const { return uint64_t(w) * h; }
};

// A command buffer instead of a launch (docs/commands.md): the host loads the program's
// text as for any run, then in the launch cycle rings the command processor's doorbell
// with the buffer's address instead of launching; the run ends when the processor has
// read `end` and the system is idle.  The buffer, and any text its `program` command
// copies, are in memory from the start.
struct Doorbell {
  bool ring = false;
  uint32_t addr = 0;
};

// A word the host writes into the backing memory in the middle of a run
// (testbench/directed/memory/README.md): at the end of cycle launch_cycle + cycle,
// straight into the memory model's storage, past every cache and queue.
#define UMBRA_HOST_WRITES 1
struct HostWrite {
  uint64_t cycle;  // cycles after the launch cycle
  uint32_t addr;   // byte address, word-aligned, in data memory
  uint32_t value;
};

// The memory system's figures of a run (docs/memory-system.md, "Events and
// statistics"); the per-thread cycles asleep are CoreStats' memory bubbles.
struct MemoryStats {
  uint64_t cache_hits = 0, cache_misses = 0, cache_merges = 0, replays = 0;
  bool replays_measured = true;  // the RTL alone shows no replays (its trace has none)
  // Loads and returning atomics, X1 to wake, in cycles; bucket i counts [i*w, (i+1)*w).
  uint64_t load_count = 0, load_sum = 0, load_max = 0, load_bucket_width = 1;
  std::vector<uint64_t> load_buckets;
  // The reorder queue (queue.enabled only).
  bool queue = false;
  uint64_t queue_cycles = 0, queue_occupancy_sum = 0, queue_occupancy_max = 0, queue_sent = 0,
           queue_passed_over = 0, queue_longest_wait = 0;
  // The DRAM model (memory.model dram only).
  bool dram = false;
  uint64_t dram_cycles = 0, row_hits = 0, row_misses = 0, row_conflicts = 0, bus_busy_cycles = 0,
           dram_requests = 0, dram_bytes = 0;
  double load_mean() const { return load_count ? double(load_sum) / double(load_count) : 0.0; }
};

// Every plain field of MemoryStats, for the runners' child-process transports (the
// one vector, load_buckets, goes separately).
template <class M, class F>
void for_each_memory_field(M& m, F f) {
  f(m.cache_hits), f(m.cache_misses), f(m.cache_merges), f(m.replays), f(m.replays_measured);
  f(m.load_count), f(m.load_sum);
  f(m.load_max), f(m.load_bucket_width), f(m.queue), f(m.queue_cycles), f(m.queue_occupancy_sum);
  f(m.queue_occupancy_max), f(m.queue_sent), f(m.queue_passed_over), f(m.queue_longest_wait), f(m.dram);
  f(m.dram_cycles), f(m.row_hits), f(m.row_misses), f(m.row_conflicts), f(m.bus_busy_cycles);
  f(m.dram_requests), f(m.dram_bytes);
}

// Where a runner makes its simulation: SystemC elaborates one design per process, so by
// default each run is a forked child (harness/subprocess.h); a process that makes one
// run only (a command-line tool) may make it in place, once.
enum class Isolation : uint8_t { Subprocess, InProcess };

// Bounds on a run's waveform files (rtl, cosim; docs/simulator.md, "Waveforms"): the
// cycles dumped, from..to inclusive (both sides of a cosimulation dump the same ones),
// and the bytes a file may reach.  A file that would pass its limit stops at the last
// whole cycle that fits, a valid VCD; the run goes on and its result is unchanged, and
// RunResult::warnings says which file stopped where.  1 GiB by default: about 0.9 M
// cycles of the RTL's VCD (1.2 KB a cycle for a small loop), far more than a person
// reads in a viewer, and a twelfth of what umbra-sim's default budget of 10 M cycles
// wrote without one (issue 37).  limit 0: no limit.
struct WaveBounds {
  static constexpr uint64_t kDefaultLimit = uint64_t(1) << 30;
  uint64_t from = 0, to = UINT64_MAX;
  uint64_t limit = kDefaultLimit;
};

// "1 GiB", "512 KiB", "1000 bytes": a size limit as a person reads it.
inline std::string size_text(uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
  std::string unit;
  uint64_t v = bytes;
  for (const char* u : units) {
    if (v < 1024 || v % 1024) break;
    v /= 1024;
    unit = u;
  }
  return unit.empty() ? std::to_string(bytes) + " bytes" : std::to_string(v) + " " + unit;
}

struct RunResult {
  enum class Status : uint8_t { Exited, Fault, CycleLimit };
  Status status = Status::Exited;
  std::string message;  // what stopped a run that did not exit; empty when Exited
  Fault fault = Fault::None;
  uint32_t fault_core = 0, fault_thread = 0, fault_pc = 0,
           fault_addr = 0;  // pc: core faults; addr: memory faults

  uint64_t launch_cycle = 0;  // launch_valid was high in this cycle
  uint64_t end_cycle = 0;     // the cycle the run stopped in (Exited: the first with busy low)
  uint64_t cycles = 0;        // cycles with busy high (= stats.cycles)
  CoreStats stats;
  MemoryStats mem;
  std::vector<uint8_t> memory;  // final data memory
  // [work item][register] of the launched threads: core c's thread t is item
  // c * launched + t (its `lx`).  After a domain launch, [context][register], core c's
  // thread t at c * T + t: the registers its last work item left.
  std::vector<std::vector<uint32_t>> registers;
  // Time spent in the simulation (from reset to the stop), wall clock and CPU; the
  // rates count every simulated cycle, the loading of the instruction store included.
  double wall_seconds = 0, cpu_seconds = 0;
  // What a person should know about the run's outputs though the run itself went
  // well: a waveform cut at its size limit, a waveform window the run never reached.
  // One sentence each, without the tool's name.
  std::vector<std::string> warnings;
  double cycles_per_second() const { return wall_seconds > 0 ? double(end_cycle + 1) / wall_seconds : 0.0; }
  double cycles_per_cpu_second() const { return cpu_seconds > 0 ? double(end_cycle + 1) / cpu_seconds : 0.0; }
};
const char* status_name(RunResult::Status s);

}  // namespace umbra
