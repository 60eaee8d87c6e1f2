// cosim_commands_test: the command processor (docs/commands.md) under cosimulation, on
// the configuration this test is built for (the default one core, or
// configs/test-cores2.yaml): a buffer that sets the argument block, copies the program
// into the instruction stores, runs a domain, writes a fence and the counters leaves
// the results a host relies on, cycle for cycle the same in the SystemC model and the
// RTL; `invalidate` is what makes memory written behind a cache visible; and a bad
// buffer stops the processor with the fault and the command's address on both sides.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "events.h"
#include "umbra/asm.h"
#include "umbra/commands_gen.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra_testing/programs.h"

namespace umbra::cosim {
namespace {

using testkit::assemble;
using testkit::symbol;
using testkit::word;

using commands::Opcode;

// A buffer of commands, each checked against the generated table.
struct Buffer {
  std::vector<uint32_t> words;
  Buffer& add(Opcode op, std::vector<uint32_t> args = {}) {
    const commands::CommandDef* def = commands::find(uint32_t(op));
    EXPECT_TRUE(def && def->nargs == args.size());
    words.push_back(uint32_t(op));
    words.insert(words.end(), args.begin(), args.end());
    return *this;
  }
};

// Where the tests put things in memory, past every program's data.
constexpr uint32_t kText = 0x40000, kBuffer = 0x41000, kFence = 0x42000, kCounters = 0x42100;

// Every work item writes (ly << 16) | lx at arg[ly * domw + lx].
const char* kGrid = R"(
        .text
        rdsr    r1, lx
        rdsr    r2, ly
        rdsr    r3, domw
        rdsr    r5, arg
        mul     r4, r2, r3
        add     r4, r4, r1
        shli    r4, r4, 2
        add     r5, r5, r4
        shli    r6, r2, 16
        or      r6, r6, r1
        stw     r6, 0(r5)
        exit
        .data
out:    .space  4096
)";

CosimResult run_buffer(const Program& p, const Buffer& b, Options o = {}) {
  o.doorbell = {true, kBuffer};
  o.writes.push_back({kText, p.text});
  o.writes.push_back({kBuffer, b.words});
  const Config cfg = verilated_config();
  return run_cosim(p, cfg, cfg.threads, 400000, o);
}

TEST(Commands, ABufferRunsAKernelAndReportsIt) {
  const Program p = assemble(kGrid);
  const uint32_t out = symbol(p, "out");
  const uint32_t w = 13, h = 7;
  Buffer b;
  b.add(Opcode::CountersReset)
      .add(Opcode::Args, {out})
      .add(Opcode::Program, {kText, uint32_t(p.text.size()), 0})
      .add(Opcode::Domain, {w, h})
      .add(Opcode::Run, {p.entry})
      .add(Opcode::Fence, {kFence, 0xC0FFEE})
      .add(Opcode::Counters, {kCounters})
      .add(Opcode::End);
  const CosimResult r = run_buffer(p, b);
  ASSERT_TRUE(r.passed()) << r.summary();
  ASSERT_EQ(r.rtl.status, RunResult::Status::Exited) << r.rtl.message;
  const std::vector<uint8_t>& m = r.rtl.memory;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(word(m, out + 4 * (y * w + x)), y << 16 | x) << x << "," << y;
  EXPECT_EQ(word(m, out + 4 * w * h), 0u) << "an item past the domain ran";
  EXPECT_EQ(word(m, kFence), 0xC0FFEEu);
  // The counters: cycles since the reset, busy cycles among them, and every issued
  // instruction counted on its core.
  const Config cfg = verilated_config();
  const uint32_t cycles = word(m, kCounters), busy = word(m, kCounters + 4);
  EXPECT_GT(busy, 0u);
  EXPECT_LE(busy, cycles);
  EXPECT_LT(cycles, r.rtl.end_cycle);
  uint64_t issued = 0;
  for (unsigned c = 0; c < cfg.cores; ++c)
    issued += word(m, kCounters + 4 * (commands::kCounterFixedWords + c));
  EXPECT_EQ(issued, r.rtl.stats.total_issued());
  EXPECT_EQ(issued, uint64_t(w) * h * p.text.size());
}

// Every work item copies the word at `x` to arg[lx].  x has a line of its own, so the
// items' stores do not invalidate it.
const char* kCopy = R"(
        .text
        rdsr    r1, arg
        rdsr    r4, lx
        shli    r4, r4, 2
        add     r1, r1, r4
        la      r2, x
        ldw     r3, 0(r2)
        stw     r3, 0(r1)
        exit
        .data
x:      .word   5
        .space  60
first:  .space  256
second: .space  256
)";

// Two runs over every thread of every core (so every core caches x in the first); the
// fence between them writes x behind those caches.  Returns what the second run read,
// item by item.
std::vector<uint32_t> second_read(bool invalidate) {
  const Program p = assemble(kCopy);
  const Config cfg = verilated_config();
  const uint32_t n = cfg.cores * cfg.threads;
  Buffer b;
  b.add(Opcode::Program, {kText, uint32_t(p.text.size()), 0})
      .add(Opcode::Domain, {n, 1})
      .add(Opcode::Args, {symbol(p, "first")})
      .add(Opcode::Run, {p.entry})
      .add(Opcode::Fence, {symbol(p, "x"), 7});
  if (invalidate) b.add(Opcode::Invalidate);
  b.add(Opcode::Args, {symbol(p, "second")}).add(Opcode::Run, {p.entry}).add(Opcode::Wait).add(Opcode::End);
  // The reference simulator has no caches: it reads 7 either way, so it checks only
  // the run that invalidates.
  Options o;
  o.check_iss = invalidate;
  const CosimResult r = run_buffer(p, b, o);
  EXPECT_TRUE(r.passed()) << r.summary();
  std::vector<uint32_t> got;
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(word(r.rtl.memory, symbol(p, "first") + 4 * i), 5u) << i;
    got.push_back(word(r.rtl.memory, symbol(p, "second") + 4 * i));
  }
  return got;
}

TEST(Commands, InvalidateMakesMemoryWrittenBehindTheCacheVisible) {
  if (verilated_config().cache_bytes == 0) GTEST_SKIP() << "no data cache in this configuration";
  const uint32_t n = verilated_config().cores * verilated_config().threads;
  EXPECT_EQ(second_read(false), std::vector<uint32_t>(n, 5u)) << "without invalidate, the cached line";
  EXPECT_EQ(second_read(true), std::vector<uint32_t>(n, 7u));
}

// `wait` holds the commands after it until the system is idle: the counters_reset
// after it executes only after the run's last issue.
TEST(Commands, WaitHoldsTheNextCommandUntilTheRunIsDone) {
  const Program p = assemble(kGrid);
  Buffer b;
  b.add(Opcode::Args, {symbol(p, "out")})
      .add(Opcode::Domain, {13, 7})
      .add(Opcode::Run, {p.entry})
      .add(Opcode::Wait)
      .add(Opcode::CountersReset)
      .add(Opcode::End);
  umbra::VectorEventSink events;
  Options o;
  o.observer = &events;
  const CosimResult r = run_buffer(p, b, o);
  ASSERT_TRUE(r.passed()) << r.summary();
  uint64_t last_issue = 0, reset_at = 0;
  for (const umbra::Event& e : events.events) {
    if (e.kind == umbra::EventKind::Issue) last_issue = e.cycle;
    if (e.kind == umbra::EventKind::Command && e.op == uint8_t(Opcode::CountersReset)) reset_at = e.cycle;
  }
  EXPECT_GT(last_issue, 0u);
  EXPECT_GT(reset_at, last_issue);
}

// The checker compares the command events: one planted in the SystemC side's stream is
// reported at its cycle.
TEST(Commands, ThePlantedCommandDifferenceIsCaught) {
  const Program p = assemble(kGrid);
  Buffer b;
  b.add(Opcode::Args, {symbol(p, "out")})
      .add(Opcode::Domain, {3, 2})
      .add(Opcode::Run, {p.entry})
      .add(Opcode::End);
  Options o;
  o.inject = {Injection::Kind::CommandAddr, 0};
  const CosimResult r = run_buffer(p, b, o);
  ASSERT_TRUE(r.mismatch.found) << "a changed command event was not reported";
  EXPECT_EQ(r.mismatch.stage, "events");
  EXPECT_EQ(r.mismatch.field, "at (command)");
  EXPECT_NE(r.mismatch.report.find("command args"), std::string::npos) << r.mismatch.report;
}

// A bad buffer: both sides stop with the same message, naming the command's address.
void expect_fault(const Buffer& b, uint32_t doorbell, const std::string& what, uint32_t at) {
  const Program p = assemble(kGrid);
  Options o;
  o.doorbell = {true, doorbell};
  o.writes.push_back({kBuffer, b.words});
  const Config cfg = verilated_config();
  const CosimResult r = run_cosim(p, cfg, cfg.threads, 100000, o);
  EXPECT_TRUE(r.passed()) << r.summary();
  EXPECT_EQ(r.rtl.status, RunResult::Status::Fault);
  EXPECT_EQ(r.rtl.message, r.systemc.message);
  EXPECT_NE(r.rtl.message.find(what), std::string::npos) << r.rtl.message;
  char addr[16];
  std::snprintf(addr, sizeof addr, "0x%08x", at);
  EXPECT_NE(r.rtl.message.find(addr), std::string::npos) << r.rtl.message;
}

TEST(Commands, ABadBufferStopsWithItsFaultAndAddress) {
  Buffer unknown;
  unknown.add(Opcode::Wait);
  unknown.words.push_back(0x77);
  expect_fault(unknown, kBuffer, commands::fault_text(commands::Fault::BadOpcode), kBuffer + 4);
  Buffer zero;
  zero.add(Opcode::Domain, {0, 3}).add(Opcode::Run, {0});
  expect_fault(zero, kBuffer, commands::fault_text(commands::Fault::BadDomain), kBuffer + 12);
  Buffer big;
  big.add(Opcode::Program, {kText, 0xffffffffu, 0});
  expect_fault(big, kBuffer, commands::fault_text(commands::Fault::BadProgram), kBuffer);
  Buffer far;
  far.add(Opcode::Domain, {1, 1}).add(Opcode::Run, {verilated_config().imem_words * 4});
  expect_fault(far, kBuffer, commands::fault_text(commands::Fault::BadEntry), kBuffer + 12);
  Buffer odd;
  odd.add(Opcode::Domain, {1, 1}).add(Opcode::Run, {2});
  expect_fault(odd, kBuffer, commands::fault_text(commands::Fault::Misaligned), kBuffer + 12);
  expect_fault(Buffer{}, kBuffer + 2, commands::fault_text(commands::Fault::Misaligned), kBuffer + 2);
}

}  // namespace
}  // namespace umbra::cosim
