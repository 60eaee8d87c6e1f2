// latency_hiding: the "Block Reads" experiment of
// reference/intel-gen-isa-microbenchmarks-2015.txt on Umbra.  There, every thread did
// a read, then N independent ALU instructions, then used the read's result, 32 times,
// and the EU timestamp delta showed how many instructions hide a cache hit (about 6 at
// full occupancy on Haswell) and a miss (about 11).  Here every thread runs
//
//     loop: ADVANCE             add r6, r6, r13 (hit: r13 = 0; fresh line: a line)
//                               or dinv 0(r6) (miss after invalidation)
//           ldw   r10, 0(r6)
//           N x addi r11, r11, 1    (independent of the load)
//           add   r12, r12, r10     (uses the loaded value)
//           addi  r9, r9, -1
//           bnz   r9, loop
//
// 32 times between two `rdsr clock`, for N in a list and 1..T active threads, on the
// SystemC model with the data cache in front of the DRAM model and of the fixed
// memory.  It prints the core's IPC per point, the memory bubbles each load cost its
// thread next to what the contract predicts from the fill latencies it observed, and
// which N hides a hit and a miss.
//
// The design's prediction differs in kind from the Haswell result, which is the point
// of running it: a load puts its thread to SLEEP in X1 (docs/microarchitecture.md), so
// the N instructions after it wait for its data whether or not they use it, and a
// sleeping thread's slots are bubbles no other thread may take.  A hit is back before
// the thread's next slot and costs nothing at any N; a miss costs its thread
// k = ceil((m - c - 1) / T) slots (c: the load's C2 cycle, m: its fill's last beat),
// i.e. ceil(l / T) for a fill that leaves C2 straight onto the port and takes l
// cycles there, and no N hides it.  The exit status is non-zero only when a run fails
// or a thread's sum of loaded words is wrong, never on timing.  `--csv FILE` writes
// every point with the formula's IPC beside it (bench/report.sh draws from it).
//
// A fourth case puts `atom.add r10, r6, r14` (r14 = 0, so the word and the sum stay
// the load's) in place of the `ldw`: the strobe study's open question of how many
// instructions hide an atomic.  An atomic bypasses the cache and a returning one
// sleeps its thread until its one-beat response, l = 1 + CL cycles after acceptance
// behind the queue and a row hit (L behind the fixed memory): k = ceil(l / T) slots
// at every N, as for a miss.  `--cases` picks the cases.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_common.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/systemc_run.h"

namespace {

namespace harness = umbra::harness;
using umbra::Config;
using umbra::bench::word;

constexpr unsigned kIterations = 32;  // as in the reference
// Instructions per iteration besides the N fillers: advance, ldw, add, addi, bnz.
constexpr unsigned kFixedPerIteration = 5;

enum class Case { Hit, Fresh, Dinv, Atomic };
struct CaseInfo {
  Case c;
  const char* name;
  const char* key;  // --cases and the CSV's `case`
  const char* what;
};
const CaseInfo kCases[] = {
    {Case::Hit, "hit", "hit", "the same warm line every iteration (add r6, r6, r13 with r13 = 0)"},
    {Case::Fresh, "miss, fresh line", "miss-fresh",
     "the next line every iteration (add r6, r6, r13 with r13 = line size)"},
    {Case::Dinv, "miss after dinv", "miss-dinv",
     "the same line, invalidated just before the load (dinv 0(r6))"},
    {Case::Atomic, "atom.add", "atomic",
     "atom.add r10, r6, r14 in place of the load, the same word every iteration (r14 = 0)"},
};

// The instruction in the load's place, and its opcode in the event stream.
const char* access_text(Case c) {
  return c == Case::Atomic ? "atom.add r10, r6, r14" : "ldw r10, 0(r6)";
}
uint8_t access_opcode(Case c) {
  return umbra::isa::info(c == Case::Atomic ? umbra::isa::Op::ATOM_ADD : umbra::isa::Op::LDW).opcode;
}

// Each thread's lines: thread t starts at region_base + t * (row + line), so that
// threads use different DRAM banks (while there are as many banks as threads) and
// their first lines different cache sets; 32 fresh lines stay inside the row.  The
// region starts at 512 KiB, or three quarters into a smaller memory (the UP5K's
// 128 KiB), above the program's data at data_base.
uint32_t region_base(const Config& cfg) {
  return cfg.mem_bytes >= 0x100000 ? 0x80000 : (cfg.mem_bytes / 4 * 3) & ~(cfg.dram_row_bytes - 1);
}

uint32_t thread_stride(const Config& cfg) {
  return cfg.dram_row_bytes + cfg.cache_line_bytes;
}

std::string program_text(Case c, unsigned fillers, const Config& cfg) {
  std::string s;
  auto line = [&s](const std::string& l) { s += "        " + l + "\n"; };
  s += "        .text\n_start:\n";
  line("rdsr r1, tid");
  line("li r6, " + std::to_string(region_base(cfg)));
  line("li r5, " + std::to_string(thread_stride(cfg)));
  line("mul r5, r1, r5");
  line("add r6, r6, r5");
  line("li r13, " + std::to_string(c == Case::Fresh ? cfg.cache_line_bytes : 0));
  line("li r9, " + std::to_string(kIterations));
  line("movi r11, 0");
  line("movi r12, 0");
  if (c == Case::Atomic) line("movi r14, 0");  // the atomic adds 0: its word stays the load's
  // Warm-up: makes the hit case's line valid and opens the miss cases' DRAM row, so
  // that the timed loop measures the steady state.
  line("ldw r10, 0(r6)");
  line("rdsr r2, clock");
  s += "loop:\n";
  line(c == Case::Dinv ? "dinv 0(r6)" : "add r6, r6, r13");
  line(access_text(c));
  for (unsigned i = 0; i < fillers; ++i) line("addi r11, r11, 1");
  line("add r12, r12, r10");
  line("addi r9, r9, -1");
  line("bnz r9, loop");
  return s + umbra::bench::timed_loop_end("r12", cfg.threads);
}

// What the loop's loads find: every word of a thread's lines holds its own address.
uint32_t expected_sum(Case c, const Config& cfg, unsigned t) {
  const uint32_t base = region_base(cfg) + t * thread_stride(cfg);
  uint32_t sum = 0;
  for (unsigned i = 1; i <= kIterations; ++i)
    sum += c == Case::Fresh ? base + i * cfg.cache_line_bytes : base;
  return sum;
}

harness::RunOptions region_words(const Config& cfg) {
  harness::RunOptions o;
  const uint32_t bytes = (cfg.threads - 1) * thread_stride(cfg) + (kIterations + 1) * cfg.cache_line_bytes;
  std::vector<uint32_t> w(bytes / 4);
  for (size_t i = 0; i < w.size(); ++i) w[i] = region_base(cfg) + uint32_t(4 * i);
  o.writes.emplace_back(region_base(cfg), std::move(w));
  return o;
}

struct Point {
  double ipc = 0;        // the core's: sum over the active threads of I / cycles per iteration
  double bubbles = 0;    // memory bubbles per load, mean over the active threads (measured)
  double predicted = 0;  // per load, mean over the loop's loads of the contract's k
  uint64_t hits = 0, misses = 0, merges = 0, fills = 0;
  double fill_latency = 0;  // mean cycles from a fill's acceptance on the port to its last beat
  bool cache_events = false;
};

// Follows each thread's loads through the cache and the port: a miss in C2 (cycle c),
// the fill accepted on the port (a), its line_bytes/4 beats, the last one in m.  The
// contract: the return buffer holds the word from m+1; W looks at n+7, n+7+T, ... for
// a load fetched in n = c-5, so the load costs k = max(0, ceil((m - c - 1) / T))
// bubbles.  A hit (data in the buffer from c+1) costs 0.  An atomic passes C2 (its
// cache event) and is answered with one beat, the same rule with a one-beat "fill".
struct LoadTracker {
  struct Thread {
    bool in_loop = false, waiting = false, accepted = false;
    uint64_t c2 = 0, accept = 0;
    unsigned beats = 0;
  };
  const Config& cfg;
  Case c;
  std::vector<Thread> th;
  std::vector<uint64_t> start, end;  // the loop window of each thread (its clock reads)
  uint64_t loads = 0;
  double k_sum = 0, lat_sum = 0;
  Point& p;

  LoadTracker(const Config& cf, Case cs, std::vector<uint64_t> s, std::vector<uint64_t> e, Point& pt)
      : cfg(cf), c(cs), th(s.size()), start(std::move(s)), end(std::move(e)), p(pt) {}

  void on(const umbra::Event& e) {
    const bool atomic = c == Case::Atomic;
    const unsigned beats_per_fill = atomic ? 1 : cfg.cache_line_bytes / 4;
    const uint8_t op = access_opcode(c);
    const uint8_t port_op = atomic ? op : umbra::isa::kPortOpFill;
    if (e.kind == umbra::EventKind::Cache && e.op == op && e.thread < th.size()) {
      if (e.cycle <= start[e.thread] || e.cycle >= end[e.thread]) return;  // warm-up, not timed
      p.cache_events = true;
      ++loads;
      Thread& t = th[e.thread];
      // An atomic is sent whatever the cache held: a "miss" for this count.
      switch (atomic ? umbra::CacheOutcome::Miss : umbra::CacheOutcome(e.value)) {
        case umbra::CacheOutcome::Hit: ++p.hits; break;
        case umbra::CacheOutcome::Miss:
          ++p.misses;
          t.waiting = true;
          t.accepted = false;
          t.beats = 0;
          t.c2 = e.cycle;
          break;
        case umbra::CacheOutcome::Merge: ++p.merges; break;
        default: break;
      }
    } else if (e.kind == umbra::EventKind::Mem && e.op == port_op && e.thread < th.size()) {
      Thread& t = th[e.thread];
      if (t.waiting && !t.accepted) {
        t.accepted = true;
        t.accept = e.cycle;
      }
    } else if (e.kind == umbra::EventKind::MemResp && e.thread < th.size()) {
      Thread& t = th[e.thread];
      if (t.waiting && t.accepted && ++t.beats == beats_per_fill) {
        const int64_t late = int64_t(e.cycle) - int64_t(t.c2) - 1;
        const int64_t T = cfg.threads;
        k_sum += late <= 0 ? 0 : double((late + T - 1) / T);
        lat_sum += double(e.cycle - t.accept);
        ++p.fills;
        t.waiting = false;
      }
    }
  }
  void finish() {
    p.predicted = loads ? k_sum / double(loads) : 0;
    p.fill_latency = p.fills ? lat_sum / double(p.fills) : 0;
  }
};

// The events measure() reads.
bool wanted(const umbra::Event& e) {
  return e.kind == umbra::EventKind::Mem || e.kind == umbra::EventKind::MemResp ||
         e.kind == umbra::EventKind::Cache;
}

Point measure(Case c, unsigned fillers, unsigned active, const Config& cfg) {
  const umbra::Program p = umbra::bench::assemble(program_text(c, fillers, cfg), cfg, "latency_hiding.s");
  umbra::bench::CollectSink sink(wanted);
  const umbra::RunResult r = harness::run_systemc(p, cfg, active, 2000000, &sink, region_words(cfg));
  const std::string where = std::string("N = ") + std::to_string(fillers) + ", " + std::to_string(active) +
                            " threads, memory " + cfg.mem_model;
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error(where + ": the run did not exit: " + r.message);
  const uint32_t out = *p.symbol("out");
  const unsigned T = cfg.threads, I = fillers + kFixedPerIteration;
  Point pt;
  std::vector<uint64_t> start(active), end(active);
  for (unsigned t = 0; t < active; ++t) {
    const uint32_t s = word(r.memory, out + 16 * t), e = word(r.memory, out + 16 * t + 4);
    const uint32_t sum = word(r.memory, out + 16 * t + 8);
    if (sum != expected_sum(c, cfg, t))
      throw std::runtime_error(where + ": thread " + std::to_string(t) + " summed its loaded words to " +
                               std::to_string(sum) + ", expected " + std::to_string(expected_sum(c, cfg, t)) +
                               ": a load returned wrong data");
    const uint32_t d = e - s;  // 32-bit clock, wraps harmlessly
    start[t] = s;
    end[t] = s + uint64_t(d);
    // Between the two clock reads the thread issues the first read's slot, then M*I
    // instructions and B bubbles, one slot (T cycles) each.
    const double slots = double(d) / T - 1;
    const double cycles_per_iteration = double(d - T) / kIterations;
    pt.ipc += I / cycles_per_iteration;
    pt.bubbles += (slots - double(kIterations) * I) / kIterations;
  }
  pt.bubbles /= active;
  // The events carry the low 64 bits of the clock; the program's clock reads are its
  // low 32 bits, which is the same number in runs this short.
  LoadTracker tracker(cfg, c, start, end, pt);
  for (const umbra::Event& e : sink.events) tracker.on(e);
  tracker.finish();
  return pt;
}

std::string fmt(const char* f, double v) {
  char b[32];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

bool all_equal(const std::vector<std::vector<Point>>& g, double v) {
  for (const auto& row : g)
    for (const Point& p : row)
      if (std::fabs(p.bubbles - v) > 1e-9 || std::fabs(p.predicted - v) > 1e-9) return false;
  return true;
}

// The contract's cost of one of the loop's loads, in slots, without contention: 0 for
// a hit; for a miss k = ceil(l / T) with l the cycles from the fill's acceptance on the
// port to its last beat: L + W - 1 behind the fixed memory, and 1 + CL + W - 1 behind
// the reorder queue (its one cycle) and a DRAM row hit (the warm-up opened the row).
// An atomic is answered with one beat (W = 1) whether or not there is a cache.
unsigned formula_k(Case c, const Config& cfg) {
  if (c == Case::Hit && cfg.cache_bytes > 0) return 0;
  const unsigned W = cfg.cache_bytes > 0 && c != Case::Atomic ? cfg.cache_line_bytes / 4 : 1;
  const unsigned l =
      cfg.mem_model == "fixed" ? cfg.mem_latency + W - 1 : (cfg.queue_enabled ? 1 : 0) + cfg.dram_CL + W - 1;
  return (l + cfg.threads - 1) / cfg.threads;
}

void run_model(const Config& cfg, const std::vector<unsigned>& fillers, const std::vector<std::string>& cases,
               std::vector<std::string>& summary, umbra::bench::Csv& csv) {
  const unsigned T = cfg.threads;
  std::printf("\n======== memory model '%s' ========\n", cfg.mem_model.c_str());
  umbra::bench::describe(cfg);
  for (const CaseInfo& ci : kCases) {
    if (std::find(cases.begin(), cases.end(), ci.key) == cases.end()) continue;
    std::vector<std::vector<Point>> grid;
    for (unsigned n : fillers) {
      std::vector<Point> row;
      for (unsigned a = 1; a <= T; ++a) {
        row.push_back(measure(ci.c, n, a, cfg));
        const Point& p = row.back();
        const unsigned I = n + kFixedPerIteration, k = formula_k(ci.c, cfg);
        csv.row(cfg.mem_model, ci.key, n, I, a, T, p.ipc, double(a) * I / (double(I + k) * T), p.bubbles,
                p.cache_events ? p.predicted : -1.0, k, p.fill_latency);
      }
      grid.push_back(std::move(row));
    }
    std::printf("\n--- %s (memory '%s'): %s\n", ci.name, cfg.mem_model.c_str(), ci.what);
    std::printf(
        "IPC of the core over the loop (instructions issued per cycle, at most 1; one thread at most 1/T)\n");
    std::printf("%4s %4s |", "N", "I");
    for (unsigned a = 1; a <= T; ++a) std::printf(" %6u", a);
    std::printf("   <- active threads\n");
    for (size_t i = 0; i < fillers.size(); ++i) {
      std::printf("%4u %4u |", fillers[i], fillers[i] + kFixedPerIteration);
      for (const Point& p : grid[i]) std::printf(" %6.3f", p.ipc);
      std::printf("\n");
    }
    const bool events = grid[0][0].cache_events;
    if (all_equal(grid, 0)) {
      std::printf("memory bubbles per load: 0 at every point; the contract predicts 0 at every point\n");
    } else {
      std::printf("memory bubbles per load, measured (contract's k from the observed fill latencies%s)\n",
                  events ? "" : "; n/a: the model emits no cache events");
      std::printf("%4s      |", "N");
      for (unsigned a = 1; a <= T; ++a) std::printf(" %11u", a);
      std::printf("\n");
      for (size_t i = 0; i < fillers.size(); ++i) {
        std::printf("%4u      |", fillers[i]);
        for (const Point& p : grid[i])
          std::printf(" %11s",
                      (fmt("%.2f", p.bubbles) + (events ? fmt("(%.2f)", p.predicted) : std::string("(n/a)")))
                          .c_str());
        std::printf("\n");
      }
    }
    // Cache outcome and fill latency, from the N = 0 row (the loop's loads only).
    std::printf("loop loads at N = 0: ");
    for (unsigned a : {1u, T}) {
      const Point& p = grid[0][a - 1];
      if (!p.cache_events) {
        std::printf("%u thread(s): no cache events  ", a);
        continue;
      }
      std::printf(
          "%u thread(s): %llu hits, %llu misses, %llu merges, fill latency on the port %.1f cycles;  ", a,
          (unsigned long long)p.hits, (unsigned long long)p.misses, (unsigned long long)p.merges,
          p.fill_latency);
    }
    std::printf("\n");

    // Which N hides the load: the first N whose loads cost no bubbles at every thread count.
    std::string hides = "none up to N = " + std::to_string(fillers.back());
    for (size_t i = 0; i < fillers.size(); ++i) {
      bool zero = true;
      for (const Point& p : grid[i]) zero = zero && p.bubbles < 1e-9;
      if (zero) {
        hides = "N = " + std::to_string(fillers[i]);
        break;
      }
    }
    const double k1 = grid[0][0].bubbles, kT = grid[0][T - 1].bubbles;
    std::string design;
    if (ci.c == Case::Hit && cfg.cache_bytes > 0) {
      design = "N = 0 (a hit is in the return buffer before the thread's next slot)";
    } else if (ci.c == Case::Atomic) {
      design =
          "none (a returning atomic sleeps its thread whatever follows, until its one-beat response: k = " +
          std::to_string(formula_k(ci.c, cfg)) + " slots)";
    } else {
      design = std::string("none (") + (cfg.cache_bytes ? "" : "no cache: every load is a one-word fill; ") +
               "the load sleeps its thread whatever follows; it costs k = ceil((m - c - 1)/T) slots";
      if (events) design += ", here " + fmt("%.2f", grid[0][0].predicted) + " with 1 thread";
      design += ")";
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  "%-8s %-18s measured: hidden by %-18s (bubbles per load %.2f with 1 thread, %.2f with %u)\n"
                  "%-8s %-18s design:   hidden by %s",
                  cfg.mem_model.c_str(), ci.name, hides.c_str(), k1, kT, T, "", "", design.c_str());
    summary.push_back(line);
    if (ci.c != Case::Hit && k1 > 0) {
      // The thread keeps a fraction I/(I+k) of its slots; 90 % needs I >= 9k.
      const double need = std::max(0.0, 9 * k1 - kFixedPerIteration);
      std::snprintf(line, sizeof line,
                    "%-8s %-18s to keep 90%% of its slots busy a thread needs I >= 9k instructions per load: "
                    "N >= %.0f",
                    "", "", std::ceil(need));
      summary.push_back(line);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"latency_hiding: IPC of load, N independent instructions, use, on the SystemC model"};
  std::string config_path;
  std::vector<std::string> models{"fixed", "dram"};
  std::vector<unsigned> fillers{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
  std::vector<std::string> cases{"hit", "miss-fresh", "miss-dinv", "atomic"};
  app.add_option("--config", config_path, "machine configuration (YAML); default: the built-in default");
  app.add_option("--models", models, "memory models to run (fixed, dram)")
      ->check(CLI::IsMember({"fixed", "dram"}));
  app.add_option("--fillers", fillers, "values of N (independent instructions between load and use)")
      ->check(CLI::Range(0u, 2000u));
  app.add_option("--cases", cases, "cases to run (hit, miss-fresh, miss-dinv, atomic; default all)")
      ->check(CLI::IsMember({"hit", "miss-fresh", "miss-dinv", "atomic"}));
  std::string csv_path;
  app.add_option(
      "--csv", csv_path,
      "also write every point to this CSV file (model, case, N, I, active, T, measured and formula IPC, "
      "measured bubbles per load, the contract's k from the observed fills and from the formula, fill "
      "latency)");
  umbra::check_stdout_at_exit("latency_hiding");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  try {
    Config base;
    if (!config_path.empty()) base = umbra::load_config(config_path);
    std::sort(fillers.begin(), fillers.end());
    fillers.erase(std::unique(fillers.begin(), fillers.end()), fillers.end());

    std::printf(
        "latency_hiding: after \"Block Reads\" in reference/intel-gen-isa-microbenchmarks-2015.txt\n");
    std::printf(
        "each thread, %u times: ADVANCE; ldw r10 (or atom.add r10); N x (addi r11, r11, 1);\n"
        "  add r12, r12, r10; loop (I = N + %u instructions)\n",
        kIterations, kFixedPerIteration);
    std::printf(
        "design (docs/microarchitecture.md, docs/memory-system.md): a load sleeps its thread in X1 and W "
        "wakes it;\n"
        "a thread owns one slot in T and a sleeping thread's slots are bubbles.  Load fetched in n, C2 in c "
        "= n+5:\n"
        "  hit:  word in the return buffer from c+1 = n+6, W at n+7 finds it: 0 bubbles, whatever N\n"
        "  miss: fill's last beat in m, buffer from m+1, W looks at n+7+kT: k = max(0, ceil((m - c - 1)/T)) "
        "bubbles;\n"
        "        a fill pushed at the end of c, accepted at c+1 and answered l cycles later (last beat) "
        "gives\n"
        "        k = ceil(l/T).  With the fixed memory (latency L, W = line/4 beats) l = L + W - 1.\n"
        "  cycles per iteration = (I + k) T; IPC of the core = sum over active threads of I / ((I + k) T);\n"
        "  no N hides a miss: independent instructions wait for the data like dependent ones.\n"
        "  atom.add: no cache lookup; its one-beat response l = 1 + CL (queue, row hit) or L (fixed) cycles\n"
        "        after acceptance: k = ceil(l/T) bubbles, whatever N.\n");
    umbra::bench::check_output_paths({{"the configuration", config_path}}, {{"--csv", csv_path}});
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(csv_path, {"model", "case", "N", "I", "active", "T", "ipc", "ipc_formula",
                                         "bubbles_per_load", "k_from_fills", "k_formula", "fill_latency"});
    std::vector<std::string> summary;
    for (const std::string& m : models) {
      Config cfg = base;
      cfg.mem_model = m;
      cfg.queue_enabled =
          m == "dram";  // the queue before DRAM only, as in configs/default.yaml and fixed-memory.yaml
      run_model(cfg, fillers, cases, summary, csv);
    }
    csv.close();
    std::printf("\n======== summary: independent instructions that hide a load ========\n");
    for (const std::string& s : summary) std::printf("%s\n", s.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "latency_hiding: error: %s\n", e.what());
    return 1;
  }
}
