// access_patterns: the memory-access-pattern experiment of the strobe CUDA atomics
// study (reference/gpu-microbenchmarks-strobe-2009.txt, "How long does an atomic
// operation stall a thread?") on Umbra.  There, five operations — load, store,
// load_store (read-modify-write), red (atomic without a result) and atomic (with one)
// — ran in a tight loop under three patterns: every thread of an SM on one address,
// every thread on its own location 128 bytes apart (no coalescing), and neighbouring
// threads on neighbouring words (coalesced), at several occupancies.  Here every
// active thread runs, after one untimed warm-up access,
//
//     loop: ACCESS x 4      ldw r10, 0(r6) | stw r11, 0(r6) | ldw; addi; stw |
//                           atom.add r10, r6, r8 | red.add r6, r8
//           addi r9, r9, -1
//           bnz  r9, loop
//
// 16 times between two `rdsr clock`, with r6 per pattern: one address for all, its own
// cache line (thread t at t * line), or its own word of shared lines (thread t at 4t),
// for 1, 2, 4 ... T active threads, on the SystemC model with the data cache in
// front of the DRAM model and of the fixed memory.  For each point it prints the
// cycles per access of a thread and of the core, the bandwidth, and what explains
// them, taken from the model's event stream over the timed loop: the data cache's
// outcomes (hits, misses, merges), replays (a memory instruction that found the
// request FIFO too full and issued again), the slots a thread slept, the requests on
// the DRAM port and their row hits (the DRAM's open-page rule applied to the
// requests in the order it accepted them).
//
// Unlike the GT200 — no cache, coalescing, atomics in the memory controller — Umbra
// has a write-through, write-invalidate data cache per core and performs atomics at
// the memory, so loads of a warm line cost nothing, every store and atomic goes to
// DRAM, a store invalidates the line for every thread that shares it, and the
// read-modify-write loses updates where the atomic does not.  The exit status is
// non-zero when a run fails or its final memory is wrong (an atomic count, a
// thread's own read-modify-write count, a loaded value), never on timing.
//
// `--offsets 0 4 8 ...` runs the strobe study's "Do adjacent memory operations cause
// atomic collisions?" instead: atom.add (and stw) in all T threads, thread t at
// base + t * offset (offset 0: one address), to find where the memory side serializes.
// Beside every measured point the bench puts the contract's figure for a thread's
// cycles per access (predict()): the larger of its latency bound (the loop's issue
// slots plus the slots a returning load or atomic sleeps, docs/memory-system.md) and
// the DRAM's throughput bound (the data-bus cycles and row openings that the DRAM
// model's documented timing, systemc/memory/dram.h, gives the active threads'
// requests in their round-robin order).  `--csv FILE` writes both for bench/report.sh.
//
// `--fillers N` puts N dependent `fmadd r20, r21, r22` after every access, the strobe
// study's second table (50 multiply-adds between memory operations, where coalesced
// atomics cost about what loads and stores cost: "free atomics").  The fillers are a
// chain through r20, so on a machine that overlapped them with the access they would
// still have to run one after the other; on Umbra they simply add N issue slots to
// the loop's floor, and a returning atomic still sleeps its thread before them.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench_common.h"
#include "dram_timing.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/systemc_run.h"

namespace {

namespace harness = umbra::harness;
using umbra::Config;
using umbra::bench::word;

constexpr unsigned kIterations = 16;
constexpr unsigned kUnroll = 4;
constexpr unsigned kAccesses = kIterations * kUnroll;  // timed, per thread
constexpr uint32_t kBase = 0x80000;                    // the accessed words, away from the program's data

// A pattern is the distance between neighbouring threads' words: thread t accesses
// kBase + t * stride.
struct PatternInfo {
  const char* name;
  const char* what;
  uint32_t (*stride)(const Config&);
};
const PatternInfo kPatterns[] = {
    {"one address", "every thread the same word", [](const Config&) { return 0u; }},
    {"own line", "thread t at base + t * line_bytes: a line each, neighbouring lines",
     [](const Config& c) { return c.cache_line_bytes; }},
    {"neighbour words", "thread t at base + 4t: neighbouring threads share lines",
     [](const Config&) { return 4u; }},
};

enum class Kind { Load, Store, LoadStore, Atomic, Red };
struct KindInfo {
  Kind k;
  const char* name;
  std::vector<const char*> body;  // one access
};
const KindInfo kKinds[] = {
    {Kind::Load, "load", {"ldw r10, 0(r6)"}},
    {Kind::Store, "store", {"stw r11, 0(r6)"}},
    {Kind::LoadStore, "load-then-store", {"ldw r10, 0(r6)", "addi r10, r10, 1", "stw r10, 0(r6)"}},
    {Kind::Atomic, "atom.add", {"atom.add r10, r6, r8"}},
    {Kind::Red, "red.add", {"red.add r6, r8"}},
};

uint32_t address_of(uint32_t stride, unsigned t) {
  return kBase + t * stride;
}

// What the words hold before the run: loads read their own address, the others count
// from 0.
uint32_t initial_word(Kind k, uint32_t addr) {
  return k == Kind::Load ? addr : 0;
}

std::string program_text(uint32_t stride, const KindInfo& k, unsigned fillers, const Config& cfg) {
  std::string s;
  auto line = [&s](const std::string& l) { s += "        " + l + "\n"; };
  auto access = [&] {
    for (const char* i : k.body) line(i);
    for (unsigned f = 0; f < fillers; ++f) line("fmadd r20, r21, r22");
  };
  s += "        .text\n_start:\n";
  line("rdsr r1, tid");
  line("li r6, " + std::to_string(kBase));
  if (stride) {
    line("li r5, " + std::to_string(stride));
    line("mul r5, r1, r5");
    line("add r6, r6, r5");
  }
  line("movi r8, 1");
  line("addi r11, r1, 1");  // a store writes its thread's number + 1
  line("movi r10, 0");
  line("li r9, " + std::to_string(kIterations));
  if (fillers) {  // 1.5 * 1.0 + r20: a chain of finite values, whatever N
    line("li r21, 0x3fc00000");
    line("li r22, 0x3f800000");
    line("movi r20, 0");
  }
  access();  // warm-up: the line in the cache, the DRAM row open
  line("rdsr r2, clock");
  s += "loop:\n";
  for (unsigned u = 0; u < kUnroll; ++u) access();
  line("addi r9, r9, -1");
  line("bnz r9, loop");
  return s + umbra::bench::timed_loop_end("r10", cfg.threads);
}

// Cycles per round of `reqs` (address, data-bus cycles) issued in this order, round
// after round, by the DRAM timing of dram.h.  The first round (rows opening) is left
// out.
double dram_round_cycles(const std::vector<std::pair<uint32_t, unsigned>>& reqs, const Config& cfg) {
  umbra::scm::DramTiming d(umbra::scm::DramParams::from(cfg));
  uint64_t after_first = 0;
  constexpr unsigned kRounds = 33;
  for (unsigned r = 0; r < kRounds; ++r) {
    if (r == 1) after_first = d.bus_free();
    for (const auto& [addr, bus] : reqs) d.add(addr, bus);
  }
  return double(d.bus_free() - after_first) / (kRounds - 1);
}

// The events measure() reads: all but register writes.
bool wanted(const umbra::Event& e) {
  return e.kind != umbra::EventKind::RegWrite;
}

struct Point {
  double thread_cycles = 0;  // per access, mean over the active threads
  double core_cycles = 0;    // the timed span / all accesses
  double useful_bw = 0;      // 4 bytes per access / cycle of the span
  double port_bw = 0;        // bytes on the core's port per cycle (request data + response beats)
  uint64_t hits = 0, misses = 0, merges = 0;
  bool cache_events = false;
  double replays = 0;  // per access
  double sleep = 0;    // memory-bubble slots per access
  uint64_t dram_requests = 0, row_hits = 0, row_misses = 0, row_conflicts = 0;
  bool dram_events = false;
  // The DRAM's cycles for the timed span's requests in the order it accepted them, as
  // if each had been there when the DRAM could take it (DramTiming), over all accesses:
  // the DRAM bound of the order the FIFO and the queue actually made.
  double dram_observed_core = 0;
  std::string check;  // what the final memory says
};

Point measure(uint32_t stride, const KindInfo& k, unsigned fillers, unsigned active, const Config& cfg) {
  if (kBase + uint64_t(stride) * (cfg.threads - 1) + 4 > cfg.mem_bytes)
    throw std::runtime_error("a stride of " + std::to_string(stride) +
                             " bytes puts the last thread's word beyond memory.bytes");
  const umbra::Program prog =
      umbra::bench::assemble(program_text(stride, k, fillers, cfg), cfg, "access_patterns.s");
  harness::RunOptions opts;
  for (unsigned t = 0; t < (stride ? active : 1); ++t)
    opts.writes.emplace_back(address_of(stride, t),
                             std::vector<uint32_t>{initial_word(k.k, address_of(stride, t))});
  umbra::bench::CollectSink sink(wanted);
  const umbra::RunResult r = harness::run_systemc(prog, cfg, active, 5000000, &sink, opts);
  const std::string where =
      std::string(k.name) + ", " + std::to_string(active) + " threads, memory " + cfg.mem_model;
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error(where + ": the run did not exit: " + r.message);

  const unsigned T = cfg.threads;
  const uint32_t out = *prog.symbol("out");
  const uint32_t loop = *prog.symbol("loop"), loop_end = *prog.symbol("loop_end");
  const uint64_t body = (loop_end - loop) / 4;
  std::vector<uint64_t> s(active), e(active);
  Point pt;
  for (unsigned t = 0; t < active; ++t) {
    s[t] = word(r.memory, out + 16 * t);
    e[t] = s[t] + uint32_t(word(r.memory, out + 16 * t + 4) - uint32_t(s[t]));
    pt.thread_cycles += double(e[t] - s[t] - T) / kAccesses;
  }
  pt.thread_cycles /= active;
  const uint64_t s0 = *std::min_element(s.begin(), s.end()), e0 = *std::max_element(e.begin(), e.end());
  const double span = double(e0 - s0);
  const double all = double(kAccesses) * active;
  pt.core_cycles = span / all;
  pt.useful_bw = 4.0 * all / span;

  // The DRAM's open-page rule over the requests in the order it accepted them, and its
  // timing over the same order as if they had come back to back.
  std::vector<int64_t> open_row(cfg.dram_banks, -1);
  const umbra::scm::DramParams dp = umbra::scm::DramParams::from(cfg);
  umbra::scm::DramTiming replay(dp);
  uint64_t replay_start = 0, replay_end = 0, replay_requests = 0;
  uint64_t issued_in_loop = 0, port_bytes = 0;
  for (const umbra::Event& ev : sink.events) {
    const bool in_span = ev.cycle > s0 && ev.cycle < e0;
    const bool own = ev.thread < active && ev.cycle > s[ev.thread] && ev.cycle < e[ev.thread];
    switch (ev.kind) {
      case umbra::EventKind::Issue:
        if (own && ev.pc >= loop && ev.pc < loop_end) ++issued_in_loop;
        break;
      case umbra::EventKind::Bubble:
        if (own && ev.reason == umbra::BubbleReason::Memory) pt.sleep += 1;
        break;
      case umbra::EventKind::Mem:
        // A fill's data comes back as beats; a store, red or atomic carries a word.
        if (in_span && ev.op != umbra::isa::kPortOpFill) port_bytes += 4;
        break;
      case umbra::EventKind::MemResp:
        if (in_span) port_bytes += 4;
        break;
      case umbra::EventKind::Dram:
        // Every request updates the bank state; only the timed span's are counted.
        {
          pt.dram_events = true;
          const uint32_t bank = (ev.addr / cfg.dram_row_bytes) % cfg.dram_banks;
          const int64_t row = ev.addr / (uint64_t(cfg.dram_row_bytes) * cfg.dram_banks);
          const unsigned bus = umbra::bench::port_bus_cycles(ev.op, dp);
          const uint64_t end = replay.add(ev.addr, bus);
          if (in_span) {
            if (!replay_requests++) replay_start = end - bus;
            replay_end = end;
            ++pt.dram_requests;
            if (open_row[bank] == row)
              ++pt.row_hits;
            else if (open_row[bank] < 0)
              ++pt.row_misses;
            else
              ++pt.row_conflicts;
          }
          open_row[bank] = row;
        }
        break;
      case umbra::EventKind::Cache:
        if (own) {
          pt.cache_events = true;
          if (ev.value == uint32_t(umbra::CacheOutcome::Hit)) ++pt.hits;
          if (ev.value == uint32_t(umbra::CacheOutcome::Miss)) ++pt.misses;
          if (ev.value == uint32_t(umbra::CacheOutcome::Merge)) ++pt.merges;
        }
        break;
      default: break;
    }
  }
  pt.port_bw = double(port_bytes) / span;
  pt.dram_observed_core = double(replay_end - replay_start) / all;
  pt.replays = (double(issued_in_loop) - double(body) * kIterations * active) / all;
  pt.sleep /= all;

  // The final memory.  Accesses per thread, the warm-up included.
  const uint32_t per_thread = kAccesses + 1;
  std::string bad;
  switch (k.k) {
    case Kind::Load:
      for (unsigned t = 0; t < active; ++t)
        if (word(r.memory, out + 16 * t + 8) != address_of(stride, t))
          bad = "thread " + std::to_string(t) + " loaded " +
                std::to_string(word(r.memory, out + 16 * t + 8)) + ", memory holds " +
                std::to_string(address_of(stride, t));
      pt.check = "loaded values ok";
      break;
    case Kind::Store:
      for (unsigned t = 0; t < active; ++t) {
        const uint32_t v = word(r.memory, address_of(stride, t));
        if (stride == 0 ? (v < 1 || v > active) : v != t + 1)
          bad = "the word of thread " + std::to_string(t) + " holds " + std::to_string(v);
      }
      pt.check = "stored values ok";
      break;
    case Kind::LoadStore:
    case Kind::Atomic:
    case Kind::Red: {
      const bool atomic = k.k != Kind::LoadStore;
      if (stride == 0) {
        const uint32_t v = word(r.memory, kBase), want = per_thread * active;
        if (atomic && v != want)
          bad =
              "the word holds " + std::to_string(v) + " after " + std::to_string(want) + " atomic increments";
        else if (v > want || v < per_thread)
          bad = "the word holds " + std::to_string(v) + " after " + std::to_string(want) + " increments";
        pt.check = atomic ? "count ok" : std::to_string(want - v) + " of " + std::to_string(want) + " lost";
      } else {
        for (unsigned t = 0; t < active; ++t) {
          const uint32_t v = word(r.memory, address_of(stride, t));
          if (v != per_thread)
            bad = "the word of thread " + std::to_string(t) + " holds " + std::to_string(v) + " after " +
                  std::to_string(per_thread) + " increments";
        }
        pt.check = "counts ok";
      }
      break;
    }
  }
  if (!bad.empty()) throw std::runtime_error(where + ", stride " + std::to_string(stride) + ": " + bad);
  return pt;
}

std::string pct(uint64_t a, uint64_t total) {
  if (!total) return "-";
  char b[16];
  std::snprintf(b, sizeof b, "%.0f%%", 100.0 * double(a) / double(total));
  return b;
}

// The contract's figure for a thread's cycles per access (see the file's header), and
// its parts.
struct Prediction {
  double floor = 0;    // the loop's issue slots alone
  double latency = 0;  // floor + the slots a returning access sleeps
  double dram = 0;     // the DRAM's cycles per round of one access by every active thread; 0: not modelled
  double cycles() const { return std::max(latency, dram); }
};

Prediction predict(const KindInfo& k, uint32_t stride, unsigned fillers, unsigned active, const Config& cfg) {
  const unsigned T = cfg.threads, W = cfg.cache_line_bytes / 4;
  const bool dram = cfg.mem_model == "dram";
  // Cycles from a request's acceptance on the port to its last response beat
  // (docs/memory-system.md): the fixed memory answers L cycles after acceptance; the
  // reorder queue adds its cycle and a DRAM row hit CL.
  const unsigned first_beat = dram ? (cfg.queue_enabled ? 1 : 0) + cfg.dram_CL : cfg.mem_latency;
  auto sleep_slots = [&](unsigned beats) { return double((first_beat + beats - 1 + T - 1) / T); };
  Prediction p;
  p.floor = double((k.body.size() + fillers) * kUnroll + 2) * T / kUnroll;
  double sleep = 0;
  // Requests one access sends to the DRAM, with their data-bus cycles.
  const auto bus_of = [&](umbra::isa::Op op) {
    return umbra::bench::port_bus_cycles(umbra::isa::info(op).opcode, umbra::scm::DramParams::from(cfg));
  };
  std::vector<unsigned> bus;
  switch (k.k) {
    case Kind::Load: break;  // a warm line: a hit
    case Kind::Store: bus = {bus_of(umbra::isa::Op::STW)}; break;
    case Kind::Red: bus = {bus_of(umbra::isa::Op::RED_ADD)}; break;
    case Kind::Atomic:
      bus = {bus_of(umbra::isa::Op::ATOM_ADD)};
      sleep = sleep_slots(1);
      break;
    case Kind::LoadStore:
      // The store invalidated the line, so the next load misses and sleeps for its fill.
      bus = {umbra::bench::port_bus_cycles(umbra::isa::kPortOpFill, umbra::scm::DramParams::from(cfg)),
             bus_of(umbra::isa::Op::STW)};
      sleep = sleep_slots(W);
      break;
  }
  p.latency = p.floor + sleep * T;
  if (dram && !bus.empty()) {
    std::vector<std::pair<uint32_t, unsigned>> reqs;
    for (unsigned t = 0; t < active; ++t)
      for (unsigned b : bus) reqs.emplace_back(address_of(stride, t), b);
    p.dram = dram_round_cycles(reqs, cfg);
  }
  return p;
}

void write_csv(umbra::bench::Csv& csv, const Config& cfg, const std::string& pattern, uint32_t stride,
               const KindInfo& k, unsigned fillers, unsigned active, const Point& p, const Prediction& pr) {
  csv.row(cfg.mem_model, cfg.mem_model == "dram" ? cfg.queue_mode : "none", pattern, stride, k.name, active,
          cfg.threads, p.thread_cycles, p.core_cycles, pr.cycles(), pr.cycles() / active, pr.floor,
          pr.latency, pr.dram, p.replays, p.sleep,
          p.dram_requests ? double(p.row_hits) / double(p.dram_requests) : 0.0, fillers,
          p.dram_observed_core);
}

void run_model(const Config& cfg, const std::vector<unsigned>& counts, unsigned fillers,
               umbra::bench::Csv& csv) {
  std::printf("\n======== memory model '%s' ========\n", cfg.mem_model.c_str());
  umbra::bench::describe(cfg);
  std::printf(
      "columns: thr = active threads; cyc/acc = cycles per access of one thread (its loop time / %u "
      "accesses)\n"
      "  and of the core (the span from the first thread's start to the last one's end / all accesses);\n"
      "  floor = the loop's instructions alone (fillers included), every access free:\n"
      "    (instructions per iteration) * T / %u;\n"
      "  B/cyc useful = 4 bytes per access, port = bytes on the core's port (request words + response "
      "beats);\n"
      "  cache = the loop's outcomes in C2 (hits/misses/merges; '-' for stores and atomics, which pass);\n"
      "  replay, sleep = issue slots per access spent on replays and asleep; DRAM = requests on the DRAM "
      "port\n"
      "  and the share that were row hits (open-page rule); check = the final memory\n",
      kAccesses, kUnroll);
  std::printf("%-16s %-16s %4s %8s %8s %6s %7s %7s %6s %6s %6s %7s %7s %7s %7s  %s\n", "pattern", "op", "thr",
              "cyc/acc", "cyc/acc", "floor", "B/cyc", "B/cyc", "hit", "miss", "merge", "replay", "sleep",
              "DRAM", "rowhit", "check");
  std::printf("%-16s %-16s %4s %8s %8s %6s %7s %7s %6s %6s %6s %7s %7s %7s %7s\n", "", "", "", "thread",
              "core", "", "useful", "port", "", "", "", "/acc", "/acc", "reqs", "");
  for (const PatternInfo& pi : kPatterns) {
    for (const KindInfo& k : kKinds) {
      for (unsigned a : counts) {
        const uint32_t stride = pi.stride(cfg);
        const Point p = measure(stride, k, fillers, a, cfg);
        const Prediction pr = predict(k, stride, fillers, a, cfg);
        const double floor = pr.floor;
        write_csv(csv, cfg, pi.name, stride, k, fillers, a, p, pr);
        const uint64_t looked = p.hits + p.misses + p.merges;
        std::printf("%-16s %-16s %4u %8.2f %8.2f %6.1f %7.3f %7.3f %6s %6s %6s %7.2f %7.2f %7s %7s  %s\n",
                    pi.name, k.name, a, p.thread_cycles, p.core_cycles, floor, p.useful_bw, p.port_bw,
                    !p.cache_events ? "n/a"
                    : looked        ? pct(p.hits, looked).c_str()
                                    : "-",
                    p.cache_events && looked ? std::to_string(p.misses).c_str() : "-",
                    p.cache_events && looked ? std::to_string(p.merges).c_str() : "-", p.replays, p.sleep,
                    p.dram_events ? std::to_string(p.dram_requests).c_str() : "-",
                    p.dram_events ? pct(p.row_hits, p.dram_requests).c_str() : "-", p.check.c_str());
      }
    }
  }
}

// The atomic-collision sweep: atom.add (and stw, for comparison) in every thread,
// thread t at base + t * offset, all T threads active.
void run_offsets(const Config& cfg, const std::vector<unsigned>& offsets, unsigned fillers,
                 umbra::bench::Csv& csv) {
  const unsigned T = cfg.threads;
  std::printf("\n======== atomic collisions vs address offset, memory model '%s', %u threads ========\n",
              cfg.mem_model.c_str(), T);
  umbra::bench::describe(cfg);
  std::printf("thread t accesses base + t * offset; cycles per access of a thread, measured and predicted\n");
  std::printf("%8s | %-28s | %-28s | %s\n", "offset", "atom.add  meas  pred  rowhit",
              "store     meas  pred  rowhit", "DRAM banks/rows touched");
  for (unsigned off : offsets) {
    std::string line;
    for (const Kind kind : {Kind::Atomic, Kind::Store}) {
      const KindInfo& k =
          *std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindInfo& i) { return i.k == kind; });
      const Point p = measure(off, k, fillers, T, cfg);
      const Prediction pr = predict(k, off, fillers, T, cfg);
      write_csv(csv, cfg, "offset", off, k, fillers, T, p, pr);
      char b[64];
      std::snprintf(b, sizeof b, "         %6.1f %5.1f %5s  | ", p.thread_cycles, pr.cycles(),
                    pct(p.row_hits, p.dram_requests).c_str());
      line += b;
    }
    std::vector<std::pair<unsigned, uint64_t>> rows;
    for (unsigned t = 0; t < T; ++t) {
      const uint32_t a = address_of(off, t);
      const std::pair<unsigned, uint64_t> br{(a / cfg.dram_row_bytes) % cfg.dram_banks,
                                             a / (uint64_t(cfg.dram_row_bytes) * cfg.dram_banks)};
      if (std::find(rows.begin(), rows.end(), br) == rows.end()) rows.push_back(br);
    }
    std::set<unsigned> banks;
    for (const auto& br : rows) banks.insert(br.first);
    std::printf("%8u | %s%zu banks, %zu rows\n", off, line.c_str(), banks.size(), rows.size());
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"access_patterns: loads, stores, read-modify-write and atomics under three address patterns"};
  std::string config_path;
  std::vector<std::string> models{"fixed", "dram"};
  std::vector<unsigned> counts;
  app.add_option("--config", config_path, "machine configuration (YAML); default: the built-in default");
  app.add_option("--models", models, "memory models to run (fixed, dram)")
      ->check(CLI::IsMember({"fixed", "dram"}));
  app.add_option("--threads", counts, "active thread counts (default 1, 2, 4, ... T)")
      ->check(CLI::Range(1u, 256u));
  std::vector<unsigned> offsets;
  app.add_option(
         "--offsets", offsets,
         "run the atomic-collision sweep instead: atom.add and stw in all T threads, thread t at base + t * "
         "OFFSET bytes, for each OFFSET (a multiple of 4; 0 = one address)")
      ->check(CLI::Range(0u, 65536u));
  unsigned fillers = 0;
  app.add_option("--fillers", fillers,
                 "N dependent fmadd (r20 = r21 * r22 + r20) after every access, as the strobe study's 50 "
                 "multiply-adds between memory operations (default 0)")
      ->check(CLI::Range(0u, 200u));
  std::string queue_mode;
  app.add_option("--queue-mode", queue_mode,
                 "the reorder queue's mode in front of the DRAM (default: the configuration's queue.mode)")
      ->check(CLI::IsMember({"fcfs", "reorder"}));
  std::string csv_path;
  app.add_option("--csv", csv_path,
                 "also write every point with the contract's prediction to this CSV file (model, queue mode, "
                 "pattern, stride, "
                 "op, active, T, measured thread and core cycles per access, predicted for a thread and the "
                 "core, its floor, latency and DRAM "
                 "bounds, replays, sleep per access, DRAM row-hit rate, fillers, the DRAM's cycles per "
                 "access for the requests in the order it took them)");
  umbra::check_stdout_at_exit("access_patterns");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  for (unsigned o : offsets)
    if (o % 4) {
      std::fprintf(stderr, "access_patterns: error: --offsets %u: not a multiple of 4 (a word access)\n", o);
      return 1;
    }
  try {
    Config base;
    if (!config_path.empty()) base = umbra::load_config(config_path);
    if (counts.empty()) {
      for (unsigned a = 1; a < base.threads; a *= 2) counts.push_back(a);
      counts.push_back(base.threads);
    }
    for (unsigned a : counts)
      if (a > base.threads)
        throw std::runtime_error("--threads " + std::to_string(a) + ": the configuration has " +
                                 std::to_string(base.threads) + " threads");
    std::printf("access_patterns: after \"How long does an atomic operation stall a thread?\" in\n");
    std::printf(
        "reference/gpu-microbenchmarks-strobe-2009.txt: %u timed accesses per thread (%u iterations of "
        "%u),\n",
        kAccesses, kIterations, kUnroll);
    std::printf("after one untimed warm-up access.  Patterns:\n");
    for (const PatternInfo& p : kPatterns) std::printf("  %-16s %s\n", p.name, p.what);
    umbra::bench::check_output_paths({{"the configuration", config_path}}, {{"--csv", csv_path}});
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(
          csv_path, {"model", "queue_mode", "pattern", "stride", "op", "active", "T", "thread_cycles",
                     "core_cycles", "predicted", "predicted_core", "floor", "latency_bound", "dram_bound",
                     "replays", "sleep", "row_hit_rate", "fillers", "dram_observed_core"});
    for (const std::string& m : models) {
      Config cfg = base;
      cfg.mem_model = m;
      cfg.queue_enabled =
          m == "dram";  // the queue before DRAM only, as in configs/default.yaml and fixed-memory.yaml
      if (!queue_mode.empty()) cfg.queue_mode = queue_mode;
      if (offsets.empty())
        run_model(cfg, counts, fillers, csv);
      else
        run_offsets(cfg, offsets, fillers, csv);
    }
    csv.close();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "access_patterns: error: %s\n", e.what());
    return 1;
  }
}
