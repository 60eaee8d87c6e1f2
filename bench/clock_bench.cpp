// clock_bench: the cycle-counter experiment of the strobe microbenchmarks ("What does
// clocks() return?", reference/gpu-microbenchmarks-strobe-2009.txt) on Umbra.  Every
// thread reads `rdsr clock` twice back to back and stores the difference; the run is
// repeated with 1..T threads launched.  The contract (docs/microarchitecture.md,
// "Special registers") says `clock` is the value in the instruction's F cycle and a
// thread fetches once per round of T slots whether or not the other contexts run, so
// the difference is exactly T for every thread and every number of active threads —
// unlike the G80 in the reference, where the figure falls as warps fill the machine.
//
// The table is printed for the SystemC model and the Verilated RTL (built for
// configs/default.yaml, T = 8), for the SystemC model with T = 16 (the prediction
// follows T, not the active count), and the reference simulator's `clock` (round * T
// + slot, no timing) for comparison.  A second experiment puts a load and an
// instruction that uses its value between the reads, as the reference does to time
// memory, behind the fixed-latency memory (memory.model fixed) whose timing the
// contract gives exactly: the load's cost in rounds k (a miss, a merge into another
// thread's fill, or a hit, see load_prediction) predicts (k+3)*T.  The exit status is non-zero when a
// measured delta differs from the prediction, so ctest runs it as a check of the contract too.
// `--csv FILE` also writes every thread's delta beside its prediction (bench/report.sh
// draws the figure from it).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "bench_common.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace {

// What both programs do after their two clock reads (r2, r3): the delta goes to
// out[tid], the first read to out[256 + tid].
const std::string kStoreDelta = R"(
        sub     r4, r3, r2
        rdsr    r1, tid
        shli    r5, r1, 2
        la      r6, out
        add     r6, r6, r5
        stw     r4, 0(r6)
        li      r7, 1024
        add     r6, r6, r7
        stw     r2, 0(r6)
        exit
        .data
out:    .space  512 * 4
)";

// Two back-to-back clock reads: nothing runs between them, so the delta is the
// distance between the thread's consecutive fetches.
const std::string kProgram = R"(
        .text
_start: rdsr    r2, clock
        rdsr    r3, clock)" + kStoreDelta;

// The same with a dependent load between the reads: rdsr, ldw, xor (uses the loaded
// value, so the second read cannot come before the data), rdsr.  `cell` is declared
// first so that it stays the first data word, before kStoreDelta's `out`.
const std::string kLoadProgram = R"(
        .data
cell:   .word   0x5a5a5a5a
        .text
_start: la      r6, cell
        rdsr    r2, clock
        ldw     r7, 0(r6)
        xor     r7, r7, r2
        rdsr    r3, clock)" + kStoreDelta;

using umbra::bench::word;

// "8" when every thread measured 8; "8 8 9 ..." otherwise (up to 16 values shown).
std::string deltas_text(const std::vector<uint32_t>& d) {
  const std::set<uint32_t> distinct(d.begin(), d.end());
  if (distinct.size() == 1) return "all " + std::to_string(*distinct.begin());
  std::string s;
  for (size_t i = 0; i < d.size() && i < 16; ++i) s += (i ? " " : "") + std::to_string(d[i]);
  if (d.size() > 16) s += " ...";
  return s;
}

struct Row {
  unsigned active;
  std::vector<uint32_t> deltas;
  std::vector<uint32_t> starts;  // each thread's first clock read
};

// predict(d): the delta of a thread whose first read came d cycles after the
// earliest thread's.
// Every thread's delta also goes to `csv` as experiment `exp`.
bool print_table(const char* model, const umbra::Config& cfg, const std::vector<Row>& rows,
                 const std::function<uint32_t(uint32_t)>& predict, umbra::bench::Csv& csv, const char* exp,
                 const char* model_key) {
  std::printf("\n%s, configuration '%s' (T = %u, memory latency %u)\n", model, cfg.name.c_str(), cfg.threads,
              cfg.mem_latency);
  std::printf("%14s  %-28s  %-28s  %s\n", "active threads", "measured delta per thread", "predicted", "");
  bool ok = true;
  for (const Row& r : rows) {
    const uint32_t first = *std::min_element(r.starts.begin(), r.starts.end());
    std::vector<uint32_t> want;
    for (uint32_t s : r.starts) want.push_back(predict(s - first));
    for (size_t t = 0; t < r.deltas.size(); ++t)
      csv.row(exp, model_key, cfg.threads, r.active, t, r.starts[t] - first, r.deltas[t], want[t]);
    const bool match = want == r.deltas;
    ok = ok && match;
    std::printf("%14u  %-28s  %-28s  %s\n", r.active, deltas_text(r.deltas).c_str(),
                deltas_text(want).c_str(), match ? "ok" : "DIFFERS");
  }
  return ok;
}

template <class RunFn>
std::vector<Row> sweep(const umbra::Program& p, const umbra::Config& cfg, RunFn run) {
  const uint32_t out = *p.symbol("out");
  std::vector<Row> rows;
  for (unsigned n = 1; n <= cfg.threads; ++n) {
    const std::vector<uint8_t> mem = run(n);
    Row r{n, {}, {}};
    for (unsigned t = 0; t < n; ++t) {
      r.deltas.push_back(word(mem, out + 4 * t));
      r.starts.push_back(word(mem, out + 1024 + 4 * t));
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

umbra::Program assemble(const char* text, const char* name) {
  const umbra::as::Result r = umbra::as::assemble_string(text, name, {});
  if (!r.ok()) {
    std::string msg = std::string(name) + " does not assemble:\n";
    for (const auto& d : r.errors) msg += d.render();
    throw std::runtime_error(msg);
  }
  return r.program;
}

std::vector<uint8_t> on_systemc(const umbra::Program& p, const umbra::Config& cfg, unsigned n) {
  const auto r = umbra::harness::run_systemc(p, cfg, n, 100000);
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error("systemc run with " + std::to_string(n) + " threads: " + r.message);
  return r.memory;
}

std::vector<uint8_t> on_rtl(const umbra::Program& p, const umbra::Config& cfg, unsigned n) {
  const auto r = umbra::cosim::run_rtl(p, cfg, n, 100000);
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error("rtl run with " + std::to_string(n) + " threads: " + r.message);
  return r.memory;
}

std::vector<uint8_t> on_iss(const umbra::Program& p, const umbra::Config& cfg, unsigned n) {
  umbra::iss::Simulator sim(cfg);
  sim.load(p, "clock_bench.s");
  const auto r = sim.run(n, 10000);
  if (r.fault) throw std::runtime_error("iss: " + r.fault->message());
  return sim.memory().bytes();
}

// (k+3)*T for the load experiment: the load's thread sleeps k whole rounds
// (docs/memory-system.md, with the fixed memory: latency L, lines of W words).  Every
// thread loads the same word: the earliest thread misses, its fill completes in cycle
// m = n+5+L+W (n its load's fetch) and its W finds the data after
// k = ceil((L+W-1)/T) rounds; a thread fetching its load d cycles later merges into
// that fill, k = ceil((L+W-1-d)/T), unless its C2 (n+d+5) comes after m and hits, k = 0.
std::function<uint32_t(uint32_t)> load_prediction(const umbra::Config& cfg) {
  const unsigned L = cfg.mem_latency, T = cfg.threads, W = cfg.cache_line_bytes / 4;
  return [=](uint32_t d) {
    const unsigned k = d + 1 > L + W ? 0 : (L + W - 1 - d + T - 1) / T;
    return (k + 3) * T;
  };
}

std::function<uint32_t(uint32_t)> constant(uint32_t v) {
  return [v](uint32_t) { return v; };
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "clock_bench: back-to-back `rdsr clock` reads, and with a load between them, against the contract"};
  std::string csv_path;
  app.add_option("--csv", csv_path,
                 "also write every thread's delta and its prediction to this CSV file (columns: experiment, "
                 "model, T, active, thread, start_offset, measured, predicted)");
  umbra::check_stdout_at_exit("clock_bench");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  try {
    umbra::bench::check_output_paths({}, {{"--csv", csv_path}});
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(csv_path, {"experiment", "model", "T", "active", "thread", "start_offset",
                                         "measured", "predicted"});
    const umbra::Program p = assemble(kProgram.c_str(), "clock_bench.s");
    const umbra::Program pl = assemble(kLoadProgram.c_str(), "clock_bench_load.s");
    umbra::Config def;  // configs/default.yaml, with the fixed-latency memory
    def.mem_model = "fixed";
    def.queue_enabled = false;
    umbra::Config t16 = def;
    t16.name = "default with T = 16";
    t16.threads = 16;
    auto with = [](auto fn, const umbra::Program& prog, const umbra::Config& cfg) {
      return [fn, &prog, cfg](unsigned n) { return fn(prog, cfg, n); };
    };
    bool ok = true;

    std::printf("clock_bench 1: two back-to-back `rdsr rX, clock` per thread; delta = second - first\n");
    std::printf(
        "prediction (docs/microarchitecture.md): a thread fetches once every T cycles, so delta = T\n");
    std::printf("for every thread and every number of active threads\n");
    ok = print_table("SystemC model", def, sweep(p, def, with(on_systemc, p, def)), constant(def.threads),
                     csv, "back-to-back", "systemc") &&
         ok;
    ok = print_table("RTL (Verilated)", def, sweep(p, def, with(on_rtl, p, def)), constant(def.threads), csv,
                     "back-to-back", "rtl") &&
         ok;
    ok = print_table("SystemC model", t16, sweep(p, t16, with(on_systemc, p, t16)), constant(t16.threads),
                     csv, "back-to-back", "systemc") &&
         ok;
    // The ISS has no timing; its clock is round * T + slot, which gives the same delta.
    ok =
        print_table("reference simulator (no timing: clock = round * T + slot)", def,
                    sweep(p, def, with(on_iss, p, def)), constant(def.threads), csv, "back-to-back", "iss") &&
        ok;

    std::printf("\nclock_bench 2: rdsr clock; ldw; xor with the loaded value; rdsr clock\n");
    std::printf(
        "prediction (docs/memory-system.md): every thread loads one word; the first misses and sleeps\n"
        "k = ceil((L+W-1)/T) rounds (W words per line), one d cycles later merges into its fill,\n"
        "k = ceil((L+W-1-d)/T), or hits once the line is valid (k = 0); delta = (k+3)*T\n");
    ok = print_table("SystemC model", def, sweep(pl, def, with(on_systemc, pl, def)), load_prediction(def),
                     csv, "with-load", "systemc") &&
         ok;
    ok = print_table("RTL (Verilated)", def, sweep(pl, def, with(on_rtl, pl, def)), load_prediction(def), csv,
                     "with-load", "rtl") &&
         ok;
    ok = print_table("SystemC model", t16, sweep(pl, t16, with(on_systemc, pl, t16)), load_prediction(t16),
                     csv, "with-load", "systemc") &&
         ok;
    csv.close();

    std::printf("\n%s\n", ok ? "every measured delta equals the prediction"
                             : "MEASURED DELTAS DIFFER FROM THE PREDICTION");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clock_bench: error: %s\n", e.what());
    return 1;
  }
}
