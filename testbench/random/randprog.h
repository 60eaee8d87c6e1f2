// Constrained-random test programs for the memory system (umbra-randprog).
//
// A program is assembly text for every thread of a configuration: integer and FP
// arithmetic, forward compare-branches, bounded loops, loads, stores, atomics and cache
// maintenance (dinv, dinvall, dflush), with addresses chosen to hit (reuse a line), miss
// (stride across lines), conflict in DRAM rows (same bank, another row) and alias
// (several threads on one word).  Its final memory must not depend on thread timing,
// because the reference simulator interleaves threads differently from the cycle
// models: each thread loads and stores only its own chunks and a read-only table, and
// the shared words are touched only by order-free atomics (add, min, max; a returning
// one's value is overwritten before use).  Every register value a thread ends with is
// stored to memory, so a wrong result anywhere shows in the final memory.
//
// Generation is a pure function of (configuration, seed, length): the same seed always
// gives the same text.  generate() also runs the program on the reference simulator and,
// if it does not terminate cleanly within a bound, tries the next variant of the seed
// (recorded in the header comment), so every program it returns is known to run.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/config.h"
#include "umbra/program.h"

namespace umbra::randprog {

// The configuration cannot hold a program (memory too small, too few registers, ...), or
// no variant of the seed passed the self-check.
struct GenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  uint64_t seed = 1;
  unsigned length = 200;      // body statements per program (each one to a few instructions)
  unsigned max_attempts = 8;  // variants of the seed tried by generate()
};

// Where a program's data lives (absolute byte addresses), as the generator laid it out
// for a configuration; the checks and the directed tests use it to name memory.
struct Layout {
  uint32_t ro = 0, ro_words = 0;          // read-only table, loaded by every thread
  uint32_t shared = 0, shared_words = 0;  // order-free atomics from every thread
  uint32_t dump = 0, dump_words = 0;      // per thread: its final registers, dump_words each
  uint32_t priv = 0;                      // private cells: see cell_address()
  uint32_t chunk_bytes = 0;               // one thread's part of a cell
  unsigned rows = 0, banks = 0;           // cells are rows x banks
  uint32_t row_stride = 0;                // dram_row_bytes * dram_banks
  uint32_t row_bytes = 0;
  // A cell is its threads' chunks in one DRAM row when they fit (per_row: every
  // thread, row_groups 1); when they do not (64 threads of 64 bytes in the ULX3S
  // SDRAM's 1 KiB rows), per_row threads a row in row_groups consecutive rows of the
  // cell's bank.
  unsigned per_row = 0, row_groups = 1;
  uint32_t end = 0;  // first byte past everything the program touches
  // Thread t's chunk of cell (row r, bank b): in DRAM bank b + (priv / row_bytes) % banks.
  uint32_t cell_address(unsigned r, unsigned b, unsigned t) const {
    return priv + (r * row_groups + t / per_row) * row_stride + b * row_bytes + t % per_row * chunk_bytes;
  }
  // Where a private address falls: the cell, the thread whose chunk holds it and the
  // byte in the chunk (valid false: in no chunk, such as a row's end past its chunks).
  struct Where {
    bool valid = false;
    unsigned row = 0, bank = 0, thread = 0;
    uint32_t byte = 0;
  };
  Where locate(uint32_t a) const {
    Where w;
    if (a < priv || a >= end) return w;
    const uint32_t off = a - priv, dram_row = off / row_stride, in_row = off % row_bytes;
    w.row = dram_row / row_groups;
    w.bank = off % row_stride / row_bytes;
    w.thread = dram_row % row_groups * per_row + in_row / chunk_bytes;
    w.byte = in_row % chunk_bytes;
    w.valid = w.row < rows && w.bank < banks && in_row / chunk_bytes < per_row;
    return w;
  }
};
// Throws GenError naming the configuration value that does not fit.
Layout layout_for(const Config& cfg);

// One variant of a seed, without the self-check.
std::string generate_source(const Config& cfg, const Options& opts, unsigned attempt);

struct Generated {
  std::string source;
  Program program;                  // assembled with the configuration's register limit
  unsigned attempt = 0;             // the variant of the seed that passed
  uint64_t iss_instructions = 0;    // retired on the reference simulator, all threads
  uint64_t max_instructions = 0;    // the bound it was checked against
  std::vector<uint8_t> iss_memory;  // final data memory on the reference simulator
};
// Generates and self-checks (assembles, runs on the ISS with all T threads, requires
// every thread to exit without a fault within the bound).  Throws GenError if no
// variant passes (which is a generator bug: the message carries the last failure).
Generated generate(const Config& cfg, const Options& opts);

// The instruction bound a program of `length` statements needs on T threads.
uint64_t instruction_bound(const Config& cfg, unsigned length);

}  // namespace umbra::randprog
