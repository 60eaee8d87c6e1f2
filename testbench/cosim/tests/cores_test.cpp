// cosim_cores_test: the cosimulation of a system of several cores (the configuration
// this test is built for: configs/test-cores2.yaml, test-cores4.yaml or ecp5-ulx3s.yaml,
// whose four cores have request registers and a registered dispatch) and what a
// program relies on there: every core runs, reads its own `cid` and its share of the
// launch domain, atomics from every core on one word lose nothing, one core's stores
// reach another through dflush, an atomic flag and dinv (docs/memory-system.md, "Many
// cores"), on the ISS, the SystemC model and the RTL alike; a domain launch far larger
// than the machine is dispatched over every thread of every core, each thread refilled
// as it exits; and the checker still names the core of a difference planted in a core
// other than 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "events.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/iss.h"
#include "umbra_testing/grid_kernel.h"
#include "umbra_testing/programs.h"

namespace umbra::cosim {
namespace {

using testkit::assemble;
using testkit::symbol;
using testkit::word;

// The SystemC model, the RTL and the ISS agree, cycle by cycle and in the end.
CosimResult agreed(const Program& p, const Config& cfg, unsigned threads) {
  const CosimResult r = run_cosim(p, cfg, threads, 200000);
  EXPECT_TRUE(r.passed()) << r.summary();
  EXPECT_EQ(r.systemc.status, RunResult::Status::Exited) << r.systemc.message;
  return r;
}

// Each work item writes who it is: cid, tid, lx, domw, ncore, at out[lx].
const char* kWhoAmI = R"(
        .text
        rdsr    r1, lx
        rdsr    r2, cid
        rdsr    r3, tid
        rdsr    r4, domw
        rdsr    r5, ncore
        la      r6, out
        shli    r7, r1, 4
        add     r6, r6, r7
        stw     r2, 0(r6)
        stw     r3, 4(r6)
        stw     r4, 8(r6)
        stw     r5, 12(r6)
        exit
        .data
out:    .space  4096
)";

TEST(Cores, EveryCoreRunsItsShareOfTheDomain) {
  const Config cfg = verilated_config();
  ASSERT_GT(cfg.cores, 1u) << "built for a one-core configuration";
  const Program p = assemble(kWhoAmI);
  const unsigned n = 5;  // fewer than the threads: the domain is cores x launched
  const CosimResult r = agreed(p, cfg, n);
  const uint32_t out = symbol(p, "out");
  for (unsigned c = 0; c < cfg.cores; ++c)
    for (unsigned t = 0; t < n; ++t) {
      const uint32_t a = out + 16 * (c * n + t);
      SCOPED_TRACE("core " + std::to_string(c) + ", thread " + std::to_string(t));
      EXPECT_EQ(word(r.rtl.memory, a), c);
      EXPECT_EQ(word(r.rtl.memory, a + 4), t);
      EXPECT_EQ(word(r.rtl.memory, a + 8), cfg.cores * n);
      EXPECT_EQ(word(r.rtl.memory, a + 12), cfg.cores);
    }
  // Every core issued: the statistics are per core.
  ASSERT_EQ(r.rtl.stats.cores(), cfg.cores);
  for (unsigned c = 0; c < cfg.cores; ++c) EXPECT_GT(r.rtl.stats.core_ipc(c), 0.0) << "core " << c;
  EXPECT_EQ(r.systemc.stats.core_cycles, r.rtl.stats.core_cycles);
}

// Every thread of every core adds to one word 20 times, returning and not.
TEST(Cores, AtomicsFromEveryCoreOnOneWordLoseNothing) {
  const Config cfg = verilated_config();
  const Program p = assemble(R"(
        .text
        la      r1, sum
        movi    r2, 1
        movi    r3, 10
loop:   atom.add r4, r1, r2
        red.add r1, r2
        addi    r3, r3, -1
        bnz     r3, loop
        exit
        .data
sum:    .word   0
)");
  const CosimResult r = agreed(p, cfg, cfg.threads);
  EXPECT_EQ(word(r.rtl.memory, symbol(p, "sum")), 20u * cfg.cores * cfg.threads);
  EXPECT_EQ(r.systemc.memory, r.rtl.memory);
}

// Core 0's thread 0 writes a block, flushes, raises a flag with an atomic; every other
// core's thread 0 has cached the block's first line before, waits on the flag, then
// reads the block with and without invalidating its line first.
const char* kHandoff = R"(
        .text
        rdsr    r1, cid
        rdsr    r2, tid
        bnz     r2, done                # thread 0 of each core only
        la      r3, block
        la      r4, flag
        bnz     r1, reader
        movi    r5, 64                  # let the readers cache the old block first
spin:   addi    r5, r5, -1
        bnz     r5, spin
        movi    r6, 0x1234
        stw     r6, 0(r3)
        stw     r6, 32(r3)
        dflush                          # both stores are accepted by the queue
        movi    r7, 1
        red.xchg r4, r7                 # publish
        j       done
reader: ldw     r8, 0(r3)               # caches the line with the old value
        ldw     r9, 32(r3)
wait:   atom.add r10, r4, r0            # atomics are done at the memory
        bz      r10, wait
        ldw     r11, 0(r3)              # no dinv: may be the cached, old value
        dinv    32(r3)
        ldw     r12, 32(r3)             # after dinv: the new value
        la      r13, seen
        shli    r14, r1, 3
        add     r13, r13, r14
        stw     r11, 0(r13)
        stw     r12, 4(r13)
done:   exit
        .data
        .align  32
block:  .word   7, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0
flag:   .word   0
seen:   .space  512
)";

TEST(Cores, AStoreReachesAnotherCoreThroughDflushAFlagAndDinv) {
  const Config cfg = verilated_config();
  const Program p = assemble(kHandoff);
  const CosimResult r = run_cosim(p, cfg, 1, 200000);
  // The reads without dinv legitimately differ from the ISS (which has no cache): the
  // check notes them as another thread's order, and reports nothing else.
  EXPECT_FALSE(r.mismatch.found) << r.mismatch.report;
  EXPECT_TRUE(r.iss_problems.empty()) << r.summary();
  const uint32_t seen = symbol(p, "seen");
  for (unsigned c = 1; c < cfg.cores; ++c) {
    SCOPED_TRACE("core " + std::to_string(c));
    EXPECT_EQ(word(r.rtl.memory, seen + 8 * c + 4), 0x1234u) << "the line read after dinv";
    // No snooping: the line cached before the store keeps its old value.
    EXPECT_EQ(word(r.rtl.memory, seen + 8 * c), 7u) << "the cached line without dinv";
  }
  // The reference simulator has no cache: it reads the new value both times.
  iss::Simulator sim(cfg);
  sim.load(p);
  ASSERT_TRUE(sim.run(1, 1000000).all_exited());
  for (unsigned c = 1; c < cfg.cores; ++c) {
    EXPECT_EQ(sim.memory().peek32(seen + 8 * c), 0x1234u);
    EXPECT_EQ(sim.memory().peek32(seen + 8 * c + 4), 0x1234u);
  }
}

// A difference planted in core 1's events (or at its ports) is found in its cycle and
// named with its core.
TEST(Cores, ADifferenceInCoreOneIsNamedWithItsCore) {
  const Config cfg = verilated_config();
  const Program p = assemble(kWhoAmI);
  using K = Injection::Kind;
  for (const auto& [kind, name] :
       {std::pair{K::RegWriteValue, "regwrite"}, std::pair{K::IssuePc, "issue"}, std::pair{K::MemAddr, "mem"},
        std::pair{K::PortMemAddr, "port-mem"}, std::pair{K::Busy, "busy"}}) {
    SCOPED_TRACE(name);
    Options opts;
    opts.inject = parse_injection("30:" + std::string(name) + ":1");
    ASSERT_EQ(opts.inject.core, 1u);
    const CosimResult r = run_cosim(p, cfg, cfg.threads, 100000, opts);
    ASSERT_TRUE(r.mismatch.found) << name << " in core 1 was not reported";
    EXPECT_EQ(r.mismatch.core, 1u);
    EXPECT_GE(r.mismatch.cycle, 30u);
    EXPECT_NE(r.mismatch.report.find(", core 1, thread "), std::string::npos) << r.mismatch.report;
  }
}

using testkit::grid_value;
using testkit::kGridKernel;

// Counts the start events (the dispatcher's) per core and per thread.
struct StartCounter final : umbra::EventSink {
  explicit StartCounter(const Config& cfg) : per_thread(cfg.cores, std::vector<unsigned>(cfg.threads)) {}
  void on_event(const umbra::Event& e) override {
    if (e.kind == umbra::EventKind::Start) ++per_thread[e.core][e.thread];
  }
  std::vector<std::vector<unsigned>> per_thread;
};

// 256 x 256 work items, 65536, on a machine of cores x T threads: every model writes
// every item, every thread of every core runs many of them.
TEST(Cores, ADomainFarLargerThanTheMachineRunsOnEveryThreadOfEveryCore) {
  const Config cfg = verilated_config();
  const Program p = assemble(kGridKernel);
  Options opts;
  opts.domain = {256, 256};
  StartCounter starts(cfg);
  opts.observer = &starts;
  const CosimResult r = run_cosim(p, cfg, cfg.threads, 2000000, opts);
  EXPECT_TRUE(r.passed()) << r.summary();
  ASSERT_EQ(r.rtl.status, RunResult::Status::Exited) << r.rtl.message;
  const uint32_t out = symbol(p, "out"), dims = symbol(p, "dims");
  EXPECT_EQ(word(r.rtl.memory, dims), 256u);
  EXPECT_EQ(word(r.rtl.memory, dims + 4), 256u);
  unsigned wrong = 0;
  for (uint32_t y = 0; y < 256; ++y)
    for (uint32_t x = 0; x < 256; ++x)
      wrong += word(r.rtl.memory, out + 4 * (y * 256 + x)) != grid_value(x, y);
  EXPECT_EQ(wrong, 0u) << "work items with a wrong or missing result";
  unsigned total = 0;
  for (unsigned c = 0; c < cfg.cores; ++c)
    for (unsigned t = 0; t < cfg.threads; ++t) {
      EXPECT_GT(starts.per_thread[c][t], 100u) << "core " << c << ", thread " << t << " was hardly refilled";
      total += starts.per_thread[c][t];
    }
  EXPECT_EQ(total, 256u * 256u) << "one start per work item";
}

// A domain smaller than the machine starts that many threads, the first cores first
// (one item a cycle, round-robin over the cores), and the rest never run.
TEST(Cores, ASmallDomainStartsOneThreadAnItem) {
  const Config cfg = verilated_config();
  const Program p = assemble(kGridKernel);
  Options opts;
  opts.domain = {3, 1};
  StartCounter starts(cfg);
  opts.observer = &starts;
  const CosimResult r = run_cosim(p, cfg, cfg.threads, 100000, opts);
  EXPECT_TRUE(r.passed()) << r.summary();
  const uint32_t out = symbol(p, "out");
  for (uint32_t x = 0; x < 3; ++x) EXPECT_EQ(word(r.rtl.memory, out + 4 * x), grid_value(x, 0));
  EXPECT_EQ(word(r.rtl.memory, out + 12), 0u) << "an item outside the domain ran";
  unsigned total = 0;
  for (unsigned c = 0; c < cfg.cores; ++c)
    for (unsigned t = 0; t < cfg.threads; ++t) total += starts.per_thread[c][t];
  EXPECT_EQ(total, 3u);
  EXPECT_EQ(starts.per_thread[1][0], 1u) << "item 1 goes to core 1, the next core with a free thread";
}

// The start events are compared too: a different work item in core 1's start is found
// in its cycle, named with its core and the field.
TEST(Cores, ADifferentStartInCoreOneIsNamed) {
  const Config cfg = verilated_config();
  Options opts;
  opts.domain = {64, 2};
  opts.inject = parse_injection("40:start:1");
  const CosimResult r = run_cosim(assemble(kGridKernel), cfg, cfg.threads, 100000, opts);
  ASSERT_TRUE(r.mismatch.found) << "a different start in core 1 was not reported";
  EXPECT_EQ(r.mismatch.core, 1u);
  EXPECT_EQ(r.mismatch.field, "lx (start)");
  EXPECT_NE(r.mismatch.report.find(", core 1, thread "), std::string::npos) << r.mismatch.report;
}

TEST(Cores, AnInjectionIntoACoreThatDoesNotExistIsRefused) {
  const Config cfg = verilated_config();
  Options opts;
  opts.inject = parse_injection("30:regwrite:" + std::to_string(cfg.cores));
  EXPECT_THROW(run_cosim(assemble(kWhoAmI), cfg, 1, 1000, opts), RunError);
}

// A fault in a core other than 0 stops the run and is reported with its core, the
// same on both sides.
TEST(Cores, AFaultIsReportedWithItsCore) {
  const Config cfg = verilated_config();
  const Program p = assemble(R"(
        .text
        rdsr    r1, cid
        movi    r2, 1
        bne     r1, r2, done
        movi    r3, 6
        jalr    r0, r3                  # not a multiple of 4
done:   exit
)");
  const CosimResult r = run_cosim(p, cfg, 2, 10000);
  EXPECT_FALSE(r.mismatch.found) << r.mismatch.report;
  for (const RunResult* s : {&r.systemc, &r.rtl}) {
    EXPECT_EQ(s->status, RunResult::Status::Fault);
    EXPECT_EQ(s->fault, Fault::BadJump);
    EXPECT_EQ(s->fault_core, 1u);
    EXPECT_EQ(s->message.rfind("core 1, thread 0, pc ", 0), 0u) << s->message;
  }
}

}  // namespace
}  // namespace umbra::cosim
