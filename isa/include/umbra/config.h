// A named machine configuration (configs/*.yaml): how many threads, registers and
// cores, how big the stores are, and the memory system's parameters.  One file drives
// the assembler's register limit, the simulators and the RTL parameters, so a program
// can be checked against exactly what goes on the chip.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "umbra/isa.h"        // the extension groups, from isa/isa.yaml
#include "umbra/uarch_gen.h"  // limits and pipeline depth, from isa/uarch.yaml

namespace umbra {

struct Config {
  std::string name = "default";
  unsigned threads = 8;          // thread contexts per core (T)
  // Execute stages L: X1 -> W, the FPU's add/multiply latency (isa/uarch.yaml gives the
  // limits).  The pipeline is pipeline_depth() stages deep, and threads must be at
  // least that: no forwarding, no interlock.  A deeper FPU is a faster FPGA clock.
  unsigned execute_stages = uarch::kDefaultExecuteStages;
  unsigned registers = 256;      // registers implemented per thread
  // The extension groups the cores implement (core.groups; isa.yaml, groups), a mask
  // of isa::group bits.  An instruction of another group is refused by the assembler
  // and is an illegal instruction in every model; a board core leaves out the big
  // units this way.  The default has them all.
  uint32_t groups = isa::kAllGroups;
  unsigned cores = 1;
  uint32_t imem_words = 4096;    // instruction store per core, in words
  uint32_t mem_bytes = 1u << 20; // data memory
  // Where the assembler places `.data` (umbra-as --config, umbra-sim): inside the
  // data memory, so a configuration with little memory can still hold a program's data.
  uint32_t data_base = 0x10000;
  // Cycles from a request's acceptance to its response at the fixed-latency memory
  // that stands behind the generic port until the memory system exists.
  unsigned mem_latency = 12;
  // What stands behind the core's generic memory port (systemc/memory/): "dram" (the
  // DRAM timing model, docs/memory-system.md) or "fixed" (fixed_memory, answers after
  // mem_latency cycles, as on-chip RAM does on an FPGA board).
  std::string mem_model = "dram";

  // Data cache, one per core (section `cache:`).  bytes = sets * ways * line_bytes,
  // all powers of two; write-through, write-invalidate, no write-allocate.  bytes = 0
  // means no cache (for on-chip memory, where a hit would save little): every load is
  // a one-word fill, and the loader sets ways = 1, line_bytes = 4, the port's fill.
  uint32_t cache_bytes = 4096;
  unsigned cache_ways = 2;
  unsigned cache_line_bytes = 32;
  // Requests the core can hold for the memory port (stores, atomics, fills, flush
  // markers); a memory instruction that finds too little room is replayed.
  unsigned cache_request_queue = 8;
  // The line port (docs/memory-system.md, "The line port"): the memory port carries a
  // whole line in one beat, a fill's answer and a line write, and stores leave the
  // core combined into line writes in the request FIFO.  Needs a cache.  Off: the
  // port is a word wide, a fill answers in line_bytes / 4 beats and a store is a word.
  bool cache_line_port = false;

  // Memory reorder queue, shared by the cores (section `queue:`).  enabled = false
  // connects the cores' ports straight to the memory (the system top's bypass_queue),
  // as for on-chip memory that answers in a fixed time.
  bool queue_enabled = true;
  std::string queue_mode = "reorder";  // "reorder" (row-aware) or "fcfs"
  unsigned queue_depth = 16;           // requests held
  unsigned queue_open_rows = 4;        // open rows whose hits are served first
  unsigned queue_max_passes = 16;      // times a request may be passed over

  // DRAM timing model (section `dram:`), DDR3-1600-like, in memory-system cycles.
  unsigned dram_banks = 8;
  uint32_t dram_row_bytes = 2048;
  unsigned dram_tRCD = 11, dram_tRP = 11, dram_CL = 11, dram_tRAS = 28;
  unsigned dram_bus_bytes = 8;  // data bus width; two transfers per cycle
  unsigned dram_burst = 8;      // transfers per burst
  unsigned dram_inflight = 8;   // accepted requests not yet answered, at most

  // FPGA target (section `fpga:`, read by fpga/build.sh through umbra-config); an empty
  // device means the configuration names no FPGA.  Only families with an open
  // place-and-route flow are accepted: iCE40 "up5k" and "hx8k", ECP5 "lfe5u-85f".
  std::string fpga_device;        // "up5k", "hx8k" or "lfe5u-85f"
  std::string fpga_package;       // nextpnr's --package, e.g. "sg48", "ct256", "CABGA381"
  unsigned fpga_clock_mhz = 0;    // target clock for place-and-route
  bool fpga_dsp = false;          // map the FP32/integer multipliers onto DSP blocks
  std::string fpga_board;         // "icebreaker", "hx8k_breakout", "ulx3s": that board's top; "" none
  unsigned fpga_board_clock_mhz = 0;  // the board top's core clock (oscillator, divider or PLL)
  // The clocks fpga/report.py holds the placed designs to (median Fmax over the seeds);
  // 0: no target.  The board top must also run at fpga_board_clock_mhz >= its target.
  unsigned fpga_target_mhz = 0;
  unsigned fpga_board_target_mhz = 0;

  // Stages F..W of the barrel core (docs/microarchitecture.md); the loader refuses
  // fewer threads, so that a thread never meets its previous instruction in flight.
  unsigned pipeline_depth() const { return uarch::pipeline_depth(execute_stages); }
  bool has_group(unsigned group) const { return (groups >> group) & 1u; }
  bool has(const isa::InstrInfo& in) const { return isa::in_groups(in, groups); }
};

// The names of the groups in a mask, in isa.yaml's order, as "base, fp32".
std::string group_names(uint32_t groups);

// Bad configuration files: the message names the file, the line and what is wrong.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Loads a configuration; keys that are missing keep their defaults, unknown keys and
// out-of-range values are errors.
Config load_config(const std::string& path);

// What load_config does with the file's text once it is read: the same checks and the
// same messages, which name `path` as if the text were that file.  For text that is
// not in a file (the fuzzer, tests); a program reading a configuration uses load_config.
Config parse_config(const std::string& text, const std::string& path);

}  // namespace umbra
