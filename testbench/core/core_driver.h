// core_driver: rtl/umbra_core.v, Verilated as a plain C++ model (no SystemC kernel, so
// that RTL bring-up needs nothing but Verilator), on the fixed-latency data memory's
// behaviour (systemc/memory/fixed_store.h, the same one `memory.model: fixed` is in
// the SystemC runs).  It loads a program through the core's host port, launches it,
// and records what the core shows each cycle: the issue slot, register writes, the
// memory port's requests and responses, the fault outputs and busy.  The checks of
// those records are core_checks.h's.
//
// The core's parameters are fixed when Verilating: the CMake file builds the bench
// once per parameter set and passes them as CORE_* definitions (CORE_THREADS,
// CORE_REGS, CORE_IMEM_WORDS, CORE_EXEC_STAGES).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "Vumbra_core.h"
#include "fixed_store.h"
#include "umbra/program.h"
#include "umbra/uarch_gen.h"
#include "verilated.h"

namespace corebench {

constexpr unsigned kThreads = CORE_THREADS;
constexpr unsigned kRegs = CORE_REGS;
constexpr unsigned kImemWords = CORE_IMEM_WORDS;
constexpr uint32_t kMemBytes = 1u << 20;
constexpr unsigned kExecStages = CORE_EXEC_STAGES;                      // X1 -> W
constexpr unsigned kDepth = umbra::uarch::pipeline_depth(kExecStages);  // F D R X1 .. X<L> W
static_assert(kThreads >= kDepth, "umbra_core refuses fewer threads than stages");
// The cache line, as Verilated (rtl/umbra_core.v's CACHE_LINE_BYTES default).
constexpr uint32_t kLineBytes = 32;

// ---- what the core shows, cycle by cycle ----
struct Issue {
  uint64_t cycle;
  unsigned thread;
  bool valid;
  uint32_t pc;
  unsigned reason;
};
struct RegWrite {
  uint64_t cycle;
  unsigned thread;
  uint32_t pc;
  unsigned reg;
  uint32_t value;
};
struct MemReq {
  uint64_t cycle;
  unsigned op, tag;
  uint32_t addr, data, cmp;
};
struct MemResp {
  uint64_t cycle;
  unsigned tag;
  uint32_t data;
};

struct CoreTrace {
  std::vector<Issue> issues;
  std::vector<RegWrite> writes;
  std::vector<MemReq> reqs;
  std::vector<MemResp> resps;
  bool fault = false;
  unsigned fault_thread = 0, fault_cause = 0;
  uint32_t fault_pc = 0;
  uint64_t fault_cycle = 0;
  // The first later cycle whose fault outputs are not that fault's (0: the fault was held,
  // as the board's status reply relies on).
  uint64_t fault_dropped = 0;
  std::string mem_fault;  // the memory refused a request
  bool protocol_error = false;
  bool finished = false;      // busy fell
  uint64_t busy_fell = 0;     // first cycle with busy low after the launch
  uint64_t launch_cycle = 0;  // the cycle launch_valid was high
  uint64_t busy_cycles = 0;   // recorded cycles with busy high
};

class CoreDriver {
 public:
  explicit CoreDriver(unsigned latency);

  umbra::scm::FixedStore& memory() { return mem_; }
  uint64_t cycle() const { return cycle_; }

  void load(const umbra::Program& p);
  void write_imem(uint32_t index, uint32_t word);

  // Launches n threads at `entry` and runs until busy falls (plus a few cycles to see
  // that nothing else happens), a fault, or the cycle limit.  The launch is timed so
  // that thread 0 has the first slot after it, as the ISS's rounds start with thread 0
  // (it matters to the order of atomics between threads).
  CoreTrace run(unsigned n, uint32_t entry, uint64_t max_cycles, bool stop_on_fault = true);

  // Holds rst high for `cycles` clock edges wherever the core is (the board's RESET
  // command, fpga/host_link.v, resets a running core for 4), then counts cycles from 0
  // again.  The memory drops the responses it still owed, as the board's is reset with
  // the core; its contents, the instruction store and the register file stay.
  void reset(unsigned cycles);
  // Records `cycles` cycles with no launch (launch_cycle is the first of them).
  CoreTrace observe(uint64_t cycles);

 private:
  // One clock cycle: present this cycle's inputs, settle, record this cycle's events,
  // let the memory accept a request, then the rising edge.
  void step(CoreTrace* r);

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vumbra_core> top_;
  unsigned latency_;
  umbra::scm::FixedStore mem_;
  umbra::scm::FixedStore::Beat beat_;  // the memory's response in the current cycle
  uint64_t cycle_ = 0;
};

}  // namespace corebench
