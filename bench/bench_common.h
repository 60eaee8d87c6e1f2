// bench_common.h: what the benches share: the timed loop's end that stores each
// thread's clock reads and result, the assembler call, the reading of result words, an
// event collector, the lines that say which memory system a table was measured on, and
// the CSV file each bench writes with --csv for bench/report.sh (the figures are drawn
// from these files, never from the printed tables).
//
// Header-only: each bench is one executable, and the pieces are a few lines each; a
// library would add a target for nothing.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "events.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"

namespace umbra::bench {

// The end of a generated timed loop: the label loop_end, the second clock read into
// r3, and out[tid] = {r2 (first clock read), r3, `result_reg`, -} (16 bytes a thread),
// then exit and the .data section holding `out` for `threads` threads.
inline std::string timed_loop_end(const char* result_reg, unsigned threads) {
  std::string s = "loop_end:\n";
  for (const std::string& l : std::vector<std::string>{"rdsr r3, clock", "la r7, out", "shli r5, r1, 4",
                                                       "add r7, r7, r5", "stw r2, 0(r7)", "stw r3, 4(r7)",
                                                       std::string("stw ") + result_reg + ", 8(r7)", "exit"})
    s += "        " + l + "\n";
  return s + "        .data\nout:    .space " + std::to_string(16 * threads) + "\n";
}

// A generated program, assembled for `cfg` (.include found in include_dir); a program
// that does not assemble is the bench's own bug, reported with the assembler's messages.
inline Program assemble(const std::string& text, const Config& cfg, const char* name,
                        const std::string& include_dir = "") {
  as::Options o;
  o.registers = cfg.registers;
  o.data_base = cfg.data_base;
  if (!include_dir.empty()) o.include_dirs.push_back(include_dir);
  const as::Result r = as::assemble_string(text, name, o);
  if (!r.ok()) {
    std::string msg = "the generated program does not assemble:\n";
    for (const auto& d : r.errors) msg += d.render();
    throw std::runtime_error(msg);
  }
  return r.program;
}

// The little-endian word at `a` of a run's final memory.
inline uint32_t word(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

// Keeps the events `keep` accepts (a bench reads them after the run).
struct CollectSink final : umbra::EventSink {
  explicit CollectSink(bool (*keep)(const umbra::Event&)) : keep_(keep) {}
  std::vector<umbra::Event> events;
  void on_event(const umbra::Event& e) override {
    if (keep_(e)) events.push_back(e);
  }

 private:
  bool (*keep_)(const umbra::Event&);
};

// Two lines: the configuration's core and cache, and its memory behind the port.
inline void describe(const Config& cfg) {
  std::printf(
      "configuration '%s': T = %u threads, data cache %u B, %u-way, %u-byte lines, request FIFO %u%s\n",
      cfg.name.c_str(), cfg.threads, cfg.cache_bytes, cfg.cache_ways, cfg.cache_line_bytes,
      cfg.cache_request_queue, cfg.cache_line_port ? ", line port" : "");
  if (cfg.mem_model == "fixed")
    std::printf("memory: fixed, answering %u cycles after acceptance\n", cfg.mem_latency);
  else
    std::printf(
        "memory: dram: reorder queue %s, depth %u, %u open rows; DRAM %u banks, %u-byte rows, tRCD %u tRP %u "
        "CL %u tRAS %u, %u-byte bus (peak %u B/cycle), burst %u\n",
        cfg.queue_mode.c_str(), cfg.queue_depth, cfg.queue_open_rows, cfg.dram_banks, cfg.dram_row_bytes,
        cfg.dram_tRCD, cfg.dram_tRP, cfg.dram_CL, cfg.dram_tRAS, cfg.dram_bus_bytes, 2 * cfg.dram_bus_bytes,
        cfg.dram_burst);
}

// The rule for output paths of every tool (umbra/output_files.h) for a bench's
// outputs: none may be an input ({what, path}: the configuration, a program) or
// another output ({option, path}); an empty path is an option not given.  Throws
// OutputError naming both, before anything is run or written.
inline void check_output_paths(const std::vector<std::pair<std::string, std::string>>& inputs,
                               const std::vector<std::pair<std::string, std::string>>& outputs) {
  OutputFiles rule;
  for (const auto& [what, path] : inputs) rule.add_input(path, what);
  for (const auto& [option, path] : outputs)
    if (!path.empty() && path != "-") rule.add(path, "", option);
  rule.check();
}

// A CSV file: a header row, then one row per point.  Fields are numbers or plain
// words (no commas or quotes, so nothing needs quoting).  Every write is checked
// (umbra/output_file.h): the header is flushed at once, so a file that cannot be
// written (a directory, /dev/full, a full disk) is an error naming it before the
// bench runs, and a later failed write an error that removes the partial file.
class Csv {
 public:
  Csv() = default;  // writes nothing: the bench was run without --csv
  Csv(const std::string& path, std::initializer_list<const char*> columns)
      : path_(path), out_(path, "--csv") {
    columns_ = columns.size();
    std::string sep;
    for (const char* c : columns) out_.stream() << sep << c, sep = ",";
    out_.stream() << "\n";
    check(out_.stream().flush());
  }
  bool enabled() const { return !path_.empty(); }
  // One row; every field is streamed (numbers in full precision).
  template <class... F>
  void row(const F&... fields) {
    if (!enabled()) return;
    static_assert(sizeof...(F) > 0);
    if (sizeof...(F) != columns_) throw std::logic_error(path_ + ": a row with the wrong number of fields");
    std::ostringstream s;
    s.precision(10);
    std::string sep;
    ((s << sep << fields, sep = ","), ...);
    out_.stream() << s.str() << "\n";
    check(out_.stream());
  }
  void close() {
    if (enabled()) out_.close();
  }

 private:
  // A failed write: close() says why and removes the partial file.
  void check(const std::ostream& s) {
    if (!s) out_.close();
  }
  std::string path_;
  OutputFile out_;
  size_t columns_ = 0;
};

}  // namespace umbra::bench
