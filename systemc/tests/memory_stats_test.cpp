// The memory system's statistics in a run's result (RunResult::mem,
// docs/memory-system.md, "Events and statistics"): the relations a user reading
// `umbra-sim`'s summary or --stats-json relies on, checked against what the run's
// own events show and against what the program does.
#include <gtest/gtest.h>

#include <set>

#include "sc_test_util.h"

namespace umbra::scm::test {
namespace {

// Every thread loads LINES words, each in its own line of its own 256-byte region (all
// misses; the 64 lines fall in distinct sets of the default 4 KiB cache), then loads the
// first of them again (a hit), and stores one word.
const char* kProgram = R"(
LINES = 8
        rdsr    r1, tid
        shli    r2, r1, 8
        la      r3, buf
        add     r3, r3, r2
        li      r4, LINES
        mov     r5, r3
loop:   ldw     r6, 0(r5)
        addi    r5, r5, 32
        addi    r4, r4, -1
        bnz     r4, loop
        ldw     r7, 0(r3)
        stw     r7, 4(r3)
        exit
        .data
        .align  64
buf:    .space  8 * 256
)";

TEST(MemoryStats, CountsMatchTheProgramAndTheEvents) {
  for (const char* model : {"dram", "fixed"}) {
    SCOPED_TRACE(model);
    Config cfg;
    cfg.mem_model = model;
    cfg.queue_enabled = std::string(model) == "dram";  // as configs/default.yaml and fixed-memory.yaml
    const Program p = assemble(kProgram, cfg);
    const ScRun r = run_sc(p, cfg, cfg.threads);
    ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
    const MemoryStats& m = r.result.mem;
    // 8 threads x 8 distinct lines, each missed once; the reload hits.
    EXPECT_EQ(m.cache_misses, 64u);
    EXPECT_EQ(m.cache_hits, 8u);
    EXPECT_EQ(m.cache_merges, 0u);
    // The counters are the cache events' outcomes.
    uint64_t hits = 0, misses = 0, mem_requests = 0, dram_requests = 0;
    for (const Event& e : r.events) {
      if (e.kind == EventKind::Cache) {
        hits += CacheOutcome(e.value) == CacheOutcome::Hit;
        misses += CacheOutcome(e.value) == CacheOutcome::Miss;
      }
      mem_requests += e.kind == EventKind::Mem;
      dram_requests += e.kind == EventKind::Dram;
    }
    EXPECT_EQ(hits, m.cache_hits);
    EXPECT_EQ(misses, m.cache_misses);
    // Every load woke its thread once: one latency sample per load.
    EXPECT_EQ(m.load_count, 72u);
    EXPECT_GE(m.load_max, uint64_t(m.load_mean()));
    uint64_t in_buckets = 0;
    for (uint64_t b : m.load_buckets) in_buckets += b;
    EXPECT_EQ(in_buckets, m.load_count);
    EXPECT_EQ(mem_requests, 64u + 8u) << "a fill per miss and a store per thread";
    if (std::string(model) == "dram") {
      ASSERT_TRUE(m.queue && m.dram);
      EXPECT_EQ(m.queue_sent, mem_requests) << "every request passes the queue";
      EXPECT_EQ(m.queue_sent, dram_requests);
      EXPECT_EQ(m.dram_requests, dram_requests);
      EXPECT_EQ(m.row_hits + m.row_misses + m.row_conflicts, dram_requests);
      EXPECT_LE(m.queue_occupancy_max, cfg.queue_depth);
      EXPECT_GT(m.bus_busy_cycles, 0u);
      EXPECT_LE(m.bus_busy_cycles, m.dram_cycles);
      // The 2 KiB of lines lie in at most two rows: all but a few accesses are row hits.
      EXPECT_GE(m.row_hits, dram_requests - 4);
    } else {
      EXPECT_FALSE(m.queue);
      EXPECT_FALSE(m.dram);
      EXPECT_EQ(dram_requests, 0u);
    }
  }
}

// The load latency is X1 to the wake (docs/memory-system.md): what the events show,
// one load per thread, at the default depth and at a deeper one, where W is further
// from X1 and a load that its memory answers early waits for W to be woken.
TEST(MemoryStats, LoadLatencyIsFromX1ToTheWakeAtEveryDepth) {
  const char* src = R"(
        rdsr    r1, tid
        shli    r1, r1, 2
        la      r2, x
        add     r2, r2, r1
load:   ldw     r3, 0(r2)
        addi    r3, r3, 1
        stw     r3, 0(r2)
        exit
        .data
x:      .space  64
)";
  for (unsigned stages : {4u, 8u}) {
    for (const char* model : {"dram", "fixed"}) {
      SCOPED_TRACE(std::string(model) + ", " + std::to_string(stages) + " execute stages");
      Config cfg;
      cfg.mem_model = model;
      cfg.queue_enabled = std::string(model) == "dram";
      cfg.execute_stages = stages;
      cfg.threads = 16;  // enough for the deeper pipeline (depth L + 4)
      const Program p = assemble(src, cfg);
      const uint32_t load = *p.symbol("load");
      const unsigned n = 5;
      const ScRun r = run_sc(p, cfg, n);
      ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
      // Each thread issues its one load once (F) and is woken once after it.
      std::vector<uint64_t> x1(n, 0), wake(n, 0);
      for (const Event& e : r.events) {
        if (e.kind == EventKind::Issue && e.pc == load) x1[e.thread] = e.cycle + uarch::kFetchToX1;
        if (e.kind == EventKind::Wake && x1[e.thread] && !wake[e.thread]) wake[e.thread] = e.cycle;
      }
      uint64_t sum = 0, max = 0;
      for (unsigned t = 0; t < n; ++t) {
        ASSERT_GT(wake[t], x1[t]) << "thread " << t;
        sum += wake[t] - x1[t];
        max = std::max(max, wake[t] - x1[t]);
      }
      const MemoryStats& m = r.result.mem;
      EXPECT_EQ(m.load_count, n);
      EXPECT_EQ(m.load_sum, sum);
      EXPECT_EQ(m.load_max, max);
    }
  }
}

// Each fill's distance from its request (the mem event, its acceptance at the core's
// port) to its first beat, for one thread (its fills in order; the program's other
// requests are stores, which are not answered).
std::vector<uint64_t> fill_distances(const ScRun& r, unsigned beats) {
  std::vector<uint64_t> asked, first_beat, out;
  unsigned beat = 0;
  for (const Event& e : r.events) {
    if (e.kind == EventKind::Mem && e.op == isa::kPortOpFill) asked.push_back(e.cycle);
    if (e.kind == EventKind::MemResp && beat++ % beats == 0) first_beat.push_back(e.cycle);
  }
  EXPECT_EQ(beat, beats * asked.size());
  for (size_t i = 0; i < std::min(asked.size(), first_beat.size()); ++i)
    out.push_back(first_beat[i] - asked[i]);
  return out;
}

// memory.response_register gives each core's response a register, so every response
// beat reaches its core a cycle later; memory.request_register gives each core's
// request a two-entry register before the arbiter, so every request reaches the memory
// a cycle after its core's port accepted it (the mem event).  Nothing else changes.  On
// the fixed memory, where nothing else moves a response, each fill's first beat comes
// back one cycle further from its request with either key than without, and the
// program's result is the same.  (Its load latency need not grow: a thread woken early
// waits for its slot in W, docs/memory-system.md.)
TEST(PortRegisters, EachAddsOneCycleBetweenAFillAndItsFirstBeat) {
  for (bool Config::*key : {&Config::mem_response_register, &Config::mem_request_register}) {
    Config cfg;
    cfg.mem_model = "fixed";
    cfg.queue_enabled = false;
    SCOPED_TRACE(key == &Config::mem_response_register ? "response_register" : "request_register");
    const Program p = assemble(kProgram, cfg);
    const ScRun off = run_sc(p, cfg, 1);
    cfg.*key = true;
    const ScRun on = run_sc(p, cfg, 1);
    ASSERT_EQ(off.result.status, RunResult::Status::Exited) << off.result.message;
    ASSERT_EQ(on.result.status, RunResult::Status::Exited) << on.result.message;
    EXPECT_EQ(on.result.memory, off.result.memory);
    EXPECT_EQ(on.result.mem.cache_misses, 8u);
    EXPECT_EQ(on.result.mem.cache_hits, off.result.mem.cache_hits);
    const unsigned beats = cfg.cache_line_bytes / 4;
    const std::vector<uint64_t> d_off = fill_distances(off, beats), d_on = fill_distances(on, beats);
    ASSERT_EQ(d_off.size(), 8u);
    ASSERT_EQ(d_on.size(), d_off.size());
    for (size_t i = 0; i < d_off.size(); ++i) EXPECT_EQ(d_on[i], d_off[i] + 1) << "request " << i;
  }
}

// The host-write hook: a word written at a chosen cycle after the launch is what a
// load accepted later reads, and not what one accepted earlier read.
TEST(HostWrites, LandAtTheirCycle) {
  const char* src = R"(
        la      r2, x
        ldw     r3, 0(r2)       # before the write: the old value
        li      r4, 200
spin:   addi    r4, r4, -1
        bnz     r4, spin
        dinv    0(r2)
        ldw     r5, 0(r2)       # after it: the new one
        stw     r3, 4(r2)
        stw     r5, 8(r2)
        exit
        .data
        .align  32
x:      .word   7, 0, 0
)";
  for (const char* model : {"dram", "fixed"}) {
    SCOPED_TRACE(model);
    Config cfg;
    cfg.mem_model = model;
    cfg.queue_enabled = std::string(model) == "dram";  // as configs/default.yaml and fixed-memory.yaml
    const Program p = assemble(src, cfg);
    const uint32_t x = *p.symbol("x");
    harness::RunOptions o;
    o.host_writes.push_back({600, x, 99});
    const ScRun r = run_sc(p, cfg, 1, 1'000'000, o);
    ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
    EXPECT_EQ(word_at(r.result.memory, x + 4), 7u);
    EXPECT_EQ(word_at(r.result.memory, x + 8), 99u);
    EXPECT_EQ(word_at(r.result.memory, x), 99u);
  }
}

}  // namespace
}  // namespace umbra::scm::test
