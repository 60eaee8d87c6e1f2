// Cycle-level behaviour of the SystemC core that docs/microarchitecture.md promises
// and users measure: the clock experiment, what a load costs at a given memory
// latency, when a request and its response appear on the port, the shape of the event
// stream, the statistics, faults, and the refusal of T < 8.  Expected numbers come
// from the contract's formulas, evaluated for each configuration tested.
#include <gtest/gtest.h>

#include <algorithm>

#include "sc_test_util.h"
#include "umbra_core.h"

namespace umbra::scm::test {
namespace {

// First event of a kind for a thread at a pc (issue or regwrite), or nullptr.
const Event* find(const std::vector<Event>& ev, EventKind k, unsigned thread, uint32_t pc) {
  for (const Event& e : ev)
    if (e.kind == k && e.thread == thread && e.pc == pc) return &e;
  return nullptr;
}

// ---- (a) the clock experiment --------------------------------------------------------

TEST(Clock, BackToBackReadsDifferByTForAnyNumberOfThreads) {
  const char* src = R"(
        rdsr r1, clock
        rdsr r2, clock
        sub  r3, r2, r1
        rdsr r4, clockh
        exit
)";
  for (unsigned T : {8u, 12u}) {
    const Config cfg = config(T);
    const Program p = assemble(src, cfg);
    for (unsigned n = 1; n <= T; ++n) {
      SCOPED_TRACE("T=" + std::to_string(T) + ", " + std::to_string(n) + " threads");
      harness::RunOptions o;
      o.capture_registers = true;
      const ScRun r = run_sc(p, cfg, n, 10'000, o);
      ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
      for (unsigned t = 0; t < n; ++t) {
        EXPECT_EQ(r.result.registers[t][3], T) << "thread " << t;
        // `clock` is the value in the instruction's fetch cycle.
        const Event* first = find(r.events, EventKind::Issue, t, 0);
        ASSERT_NE(first, nullptr);
        EXPECT_EQ(r.result.registers[t][1], uint32_t(first->cycle)) << "thread " << t;
        EXPECT_EQ(r.result.registers[t][4], 0u);
      }
    }
  }
}

// ---- (b) load latency and sleeping ---------------------------------------------------

// Memory bubbles a load costs its thread, from docs/memory-system.md with the fixed
// memory behind the port (latency L, line of W words).  The first thread's load, fetched in
// cycle n, misses: C2 (n+5) pushes the fill, the FIFO's head puts it on the port at
// q = n+6, the beats come at q+L .. q+L+W-1, the completion m = n+5+L+W writes the
// return buffer, valid from m+1; W looks at n+3+E, n+3+E+T, ... (E execute stages,
// n+7 by default); each look that fails costs one round of T slots.  A thread fetched
// d cycles later finds the fill in flight in its C2 (n+d+5 <= m) and merges, answered
// at the same completion — unless its C2 comes after m, when the line is valid and it
// hits (no cost).
unsigned expected_memory_bubbles(unsigned T, unsigned L, unsigned W, unsigned d, unsigned E) {
  if (d + 1 > L + W) return 0;       // C2 after the completion: a hit
  if (L + W + 3 <= E + d) return 0;  // in the buffer by the thread's own W
  return (L + W + 3 - E - d + T - 1) / T;
}

TEST(LoadLatency, SleepsWholeRoundsAsTheContractSays) {
  const char* src = R"(
        la   r2, value
        ldw  r1, 0(r2)
        addi r3, r1, 1
        stw  r3, 4(r2)
        exit
        .data
value:  .word 41, 0
)";
  // (T, execute stages): the default depth on three thread counts, and deeper
  // pipelines, up to depth = T.
  const std::pair<unsigned, unsigned> cores[] = {{8, 4}, {12, 4}, {16, 4}, {12, 8}, {16, 12}};
  for (const auto& [T, E] : cores)
    for (unsigned L : {1u, 2u, 3u, 10u, 11u, 12u, 20u, 33u}) {
      Config cfg = config(T, L);
      cfg.execute_stages = E;
      const unsigned W = cfg.cache_line_bytes / 4;
      const Program p = assemble(src, cfg);
      const uint32_t value = *p.symbol("value");
      ASSERT_EQ(value % cfg.cache_line_bytes, 0u) << "value opens its line";
      const uint32_t ldw_pc = 8, addi_pc = 12;  // after the two words of `la`
      for (unsigned n : {1u, T}) {
        SCOPED_TRACE("T=" + std::to_string(T) + " execute_stages=" + std::to_string(E) +
                     " latency=" + std::to_string(L) + " threads=" + std::to_string(n));
        const ScRun r = run_sc(p, cfg, n);
        ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
        EXPECT_EQ(word_at(r.result.memory, value + 4), 42u);
        // The threads' loads issue in consecutive cycles, from the first slot after
        // the launch on.
        const Event* ld0 = nullptr;
        unsigned first = 0;
        for (unsigned t = 0; t < n; ++t) {
          const Event* ld = find(r.events, EventKind::Issue, t, ldw_pc);
          ASSERT_NE(ld, nullptr);
          if (!ld0 || ld->cycle < ld0->cycle) ld0 = ld, first = t;
        }
        for (unsigned t = 0; t < n; ++t) {
          const Event* ld = find(r.events, EventKind::Issue, t, ldw_pc);
          const unsigned d = unsigned(ld->cycle - ld0->cycle);
          EXPECT_EQ(d, (t + n - first) % n) << "thread " << t;
          const unsigned k = expected_memory_bubbles(T, L, W, d, E);
          EXPECT_EQ(r.result.stats.bubbles[t][unsigned(BubbleReason::Memory)], k) << "thread " << t;
          const Event* next = find(r.events, EventKind::Issue, t, addi_pc);
          const Event* wr = find(r.events, EventKind::RegWrite, t, ldw_pc);
          ASSERT_TRUE(next && wr);
          EXPECT_EQ(next->cycle - ld->cycle, uint64_t(T) * (k + 1)) << "thread " << t;
          EXPECT_EQ(wr->cycle, ld->cycle + uarch::fetch_to_w(cfg.execute_stages) + uint64_t(k) * T)
              << "the load's (late) write is in a W of its thread";
          EXPECT_EQ(wr->value, 41u);
          EXPECT_EQ(wr->reg, 1u);
        }
        // One fill for the line, the first thread's, on the port at n+6; its first beat (the
        // word `value`) `latency` cycles later; the other threads' loads send nothing.
        std::vector<const Event*> fills;
        for (const Event& e : r.events)
          if (e.kind == EventKind::Mem && e.op == isa::kPortOpFill) fills.push_back(&e);
        ASSERT_EQ(fills.size(), 1u);
        EXPECT_EQ(fills[0]->thread, first);
        EXPECT_EQ(fills[0]->addr, value);
        EXPECT_EQ(fills[0]->cycle, ld0->cycle + 6);
        const auto resp = std::find_if(r.events.begin(), r.events.end(), [&](const Event& e) {
          return e.kind == EventKind::MemResp && e.thread == first;
        });
        ASSERT_NE(resp, r.events.end());
        EXPECT_EQ(resp->cycle, fills[0]->cycle + L);
        EXPECT_EQ(resp->value, 41u);
      }
    }
}

// ---- the length of a run ----------------------------------------------------------------

// docs/microarchitecture.md, "busy and the length of a run": with the launch in cycle L,
// each thread's `exit` issues in its first slot after L, is in X1 three cycles later,
// reaches fetch one cycle after that, and busy is low from the cycle after; the run's
// length is the number of cycles with busy high.
TEST(RunLength, BusyFallsTwoCyclesAfterTheLastExitLeavesX1) {
  const Program p = assemble("exit\n");
  for (unsigned T : {8u, 12u})
    for (unsigned n : {1u, 3u, T}) {
      SCOPED_TRACE("T=" + std::to_string(T) + " threads=" + std::to_string(n));
      const ScRun r = run_sc(p, config(T), n);
      ASSERT_EQ(r.result.status, RunResult::Status::Exited);
      const uint64_t L = r.result.launch_cycle;
      EXPECT_EQ(L, p.text.size()) << "the host writes one word per cycle, then launches";
      uint64_t last_issue = 0;
      for (unsigned t = 0; t < n; ++t) {
        uint64_t c = L + 1;
        while (c % T != t) ++c;
        last_issue = std::max(last_issue, c);
        const Event* e = find(r.events, EventKind::Issue, t, 0);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(e->cycle, c);
      }
      EXPECT_EQ(r.result.end_cycle, last_issue + 5);
      EXPECT_EQ(r.result.cycles, r.result.end_cycle - L - 1);
    }
}

// ---- the event stream and the statistics ---------------------------------------------

TEST(Events, OneSlotPerCycleInContractOrderAndStatsAddUp) {
  const char* src = R"(
        rdsr r1, tid
        la   r2, buf
        shli r3, r1, 2
        add  r2, r2, r3
        movi r4, 5
loop:   stw  r4, 0(r2)
        ldw  r5, 0(r2)
        addi r4, r4, -1
        bnz  r4, loop
        exit
        .data
buf:    .space 64 * 4
)";
  const Config cfg = config(10, 14);
  const Program p = assemble(src, cfg);
  const ScRun r = run_sc(p, cfg, 7);
  ASSERT_EQ(r.result.status, RunResult::Status::Exited) << r.result.message;
  uint64_t cycle = 0;
  int last_rank = -1;
  auto rank = [](EventKind k) {
    return k == EventKind::Bubble ? 0 : int(k) - (k > EventKind::Bubble ? 1 : 0);
  };
  for (size_t i = 0; i < r.events.size(); ++i) {
    const Event& e = r.events[i];
    if (e.kind == EventKind::Issue || e.kind == EventKind::Bubble) {
      ASSERT_EQ(e.cycle, cycle) << "every cycle has exactly one issue or bubble";
      EXPECT_EQ(e.thread, e.cycle % cfg.threads) << "the slot belongs to thread clock mod T";
      ++cycle;
      last_rank = 0;
    } else {
      ASSERT_EQ(e.cycle + 1, cycle) << "event " << format_event(e) << " outside its cycle";
      EXPECT_GT(rank(e.kind), last_rank) << format_event(e) << " out of order";
      last_rank = rank(e.kind);
    }
  }
  EXPECT_EQ(cycle, r.result.end_cycle + 1) << "the stream runs from cycle 0 to the end cycle";

  const CoreStats& s = r.result.stats;
  EXPECT_EQ(s.cycles, r.result.end_cycle - r.result.launch_cycle - 1);
  for (unsigned t = 0; t < cfg.threads; ++t) {
    uint64_t slots = s.issued[t];
    for (auto b : s.bubbles[t]) slots += b;
    // Every thread's slot comes round once per T cycles.
    EXPECT_NEAR(double(slots), double(s.cycles) / cfg.threads, 1.0) << "thread " << t;
    if (t >= 7) {
      EXPECT_EQ(s.issued[t], 0u);
    }
  }
  const IssRun ref = run_iss(p, cfg, 7);
  EXPECT_EQ(s.total_issued(), ref.result.retired);
  uint64_t idle_slots = 0, issued_in_window = 0;
  for (const Event& e : r.events) {
    if (e.cycle <= r.result.launch_cycle || e.cycle >= r.result.end_cycle) continue;
    if (e.kind == EventKind::Issue) ++issued_in_window;
    if (e.kind == EventKind::Bubble && e.reason == BubbleReason::Idle) ++idle_slots;
  }
  EXPECT_EQ(issued_in_window, s.total_issued());
  EXPECT_EQ(idle_slots, s.total_bubbles(BubbleReason::Idle));
  EXPECT_DOUBLE_EQ(s.ipc(), double(s.total_issued()) / double(s.cycles));
}

// ---- faults and limits -----------------------------------------------------------------

struct FaultCase {
  const char* name;
  const char* src;
  Fault fault;
  unsigned thread;
  int pc;  // -1: a memory fault, which carries no pc
  uint32_t imem_words = 4096;
};

TEST(Faults, StopTheRunWithThreadAndPcLikeTheIss) {
  const FaultCase cases[] = {
      {"illegal word", "rdsr r1, tid\n bnz r1, bad\n exit\nbad: .word 0\n", Fault::IllegalInstruction, 1, 12},
      {"jalr to a misaligned address", "rdsr r1, tid\n bz r1, ok\n movi r2, 6\n jalr r0, r2\nok: exit\n",
       Fault::BadJump, 1, 12},
      {"falls off the end of the instruction store", "nop\n nop\n nop\n nop\n", Fault::BadJump, 0, 12, 4},
      {"misaligned load",
       "rdsr r1, tid\n addi r1, r1, -2\n bnz r1, ok\n movi r2, 2\n ldw r3, 0(r2)\nok: exit\n",
       Fault::Misaligned, 2, -1},
      {"store beyond memory", "li r2, 0x100000\n stw r2, 0(r2)\n exit\n", Fault::OutOfRange, 0, -1},
      {"atomic beyond memory", "li r2, 0x7ffffffc\n atom.add r3, r2, r2\n exit\n", Fault::OutOfRange, 0, -1},
  };
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.name);
    Config cfg = config(8, 5);
    cfg.imem_words = c.imem_words;
    const Program p = assemble(c.src, cfg);
    const IssRun ref = run_iss(p, cfg, 4);
    ASSERT_TRUE(ref.result.fault.has_value());
    const ScRun r = run_sc(p, cfg, 4, 100'000);
    ASSERT_EQ(r.result.status, RunResult::Status::Fault);
    EXPECT_EQ(r.result.fault, c.fault) << r.result.message;
    EXPECT_EQ(r.result.fault, ref.result.fault->fault);
    EXPECT_EQ(r.result.fault_thread, c.thread);
    EXPECT_EQ(r.result.fault_thread, ref.result.fault->thread);
    if (c.pc >= 0) {
      EXPECT_EQ(r.result.fault_pc, uint32_t(c.pc));
      EXPECT_EQ(r.result.fault_pc, ref.result.fault->pc);
    }
    EXPECT_NE(r.result.message.find("thread " + std::to_string(c.thread)), std::string::npos)
        << r.result.message;
  }
}

TEST(Faults, RegisterBeyondTheConfigurationIsIllegal) {
  Config cfg = config(8, 2);
  cfg.registers = 16;
  // The assembler refuses r20 for this configuration, so build the word directly.
  const int32_t ops[] = {20, 0, 0};
  Program p;
  p.text.push_back(*isa::encode(isa::info(isa::Op::ADD), ops));
  const ScRun r = run_sc(p, cfg, 1);
  ASSERT_EQ(r.result.status, RunResult::Status::Fault);
  EXPECT_EQ(r.result.fault, Fault::IllegalInstruction);
  EXPECT_EQ(r.result.fault_pc, 0u);
  EXPECT_NE(r.result.message.find("16 registers"), std::string::npos) << r.result.message;
}

// An instruction of a group the configuration lacks (core.groups) is an illegal
// instruction in X1, on the same thread and pc as the ISS's, with the same reason.
TEST(Faults, AnAbsentGroupsInstructionIsIllegalLikeTheIss) {
  Config cfg = config(8, 5);
  cfg.groups = 1u << isa::group::BASE | 1u << isa::group::MULH;
  const Program p = assemble(
      "rdsr r1, tid\n addi r1, r1, -2\n bnz r1, ok\n mulhu r2, r1, r1\n itof r3, r1\nok: exit\n", cfg);
  const IssRun ref = run_iss(p, cfg, 4);
  ASSERT_TRUE(ref.result.fault.has_value());
  const ScRun r = run_sc(p, cfg, 4, 100'000);
  ASSERT_EQ(r.result.status, RunResult::Status::Fault);
  EXPECT_EQ(r.result.fault, Fault::IllegalInstruction);
  EXPECT_EQ(ref.result.fault->fault, Fault::IllegalInstruction);
  EXPECT_EQ(r.result.fault_thread, 2u);
  EXPECT_EQ(ref.result.fault->thread, 2u);
  EXPECT_EQ(r.result.fault_pc, 16u);
  EXPECT_EQ(ref.result.fault->pc, 16u);
  const std::string why = "itof is in extension group fp32cvt, which this core does not have";
  EXPECT_EQ(ref.result.fault->detail, why);
  EXPECT_NE(r.result.message.find(why), std::string::npos) << r.result.message;
  // With every group the same program runs to its end.
  cfg.groups = isa::kAllGroups;
  EXPECT_EQ(run_sc(p, cfg, 4, 100'000).result.status, RunResult::Status::Exited);
}

TEST(Limits, CycleBudgetStopsAnEndlessLoop) {
  const Program p = assemble("loop: j loop\n");
  const ScRun r = run_sc(p, config(), 2, 1000);
  EXPECT_EQ(r.result.status, RunResult::Status::CycleLimit);
  EXPECT_EQ(r.result.cycles, 1000u);
  EXPECT_NE(r.result.message.find("1000"), std::string::npos);
}

// ---- (e) T < 8 ------------------------------------------------------------------------

TEST(Config, FewerThreadsThanPipelineStagesAreRejected) {
  const Program p = assemble("exit\n");
  for (unsigned T : {1u, 4u, 7u}) {
    try {
      harness::run_systemc(p, config(T), 1, 100);
      ADD_FAILURE() << "T=" << T << " was accepted";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("pipeline depth 8"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(harness::run_systemc(p, config(8), 1, 100).status, RunResult::Status::Exited);
}

// The largest legal core runs: every thread of it, to the end (the wires' storage grows
// with the thread count, and so do the return buffers and the tag space).
TEST(Config, TheLargestThreadCountRuns) {
  const Program p = assemble("rdsr r1, tid\naddi r2, r1, 1\nexit\n");
  const unsigned T = uarch::kMaxThreads;
  const RunResult r = harness::run_systemc(p, config(T), T, 100000);
  EXPECT_EQ(r.status, RunResult::Status::Exited) << r.message;
  EXPECT_EQ(r.stats.total_issued(), 3u * T);
}

// The depth is 4 + execute stages: one thread fewer than that is refused, naming both
// numbers; depth = T runs.
TEST(Config, DeeperPipelinesNeedAsManyThreads) {
  const Program p = assemble("exit\n");
  for (unsigned E : {5u, 8u, 12u}) {
    Config cfg = config(E + 4);
    cfg.execute_stages = E;
    EXPECT_EQ(harness::run_systemc(p, cfg, 1, 100).status, RunResult::Status::Exited) << E;
    cfg.threads = E + 3;
    try {
      harness::run_systemc(p, cfg, 1, 100);
      ADD_FAILURE() << "T=" << cfg.threads << " with " << E << " execute stages was accepted";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("pipeline depth " + std::to_string(E + 4)), std::string::npos)
          << e.what();
    }
  }
}

TEST(ConfigDeathTest, CoreConstructorRejectsSevenThreads) {
  // The module itself refuses too, for testbenches that build it directly.  In a
  // child process: this one must not elaborate SystemC.
  EXPECT_EXIT(
      {
        try {
          umbra_core core("core", config(7));
        } catch (const CoreConfigError& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3), "7 threads is below the pipeline depth 8");
}

// The limits are isa/uarch.yaml's, as in the configuration loader and the RTL: one
// past each is refused by the module itself.
TEST(ConfigDeathTest, CoreConstructorRefusesOnePastEachLimit) {
  struct Case {
    const char* name;
    void (*edit)(Config&);
    const char* says;
  };
  const Case cases[] = {
      {"threads", [](Config& c) { c.threads = uarch::kMaxThreads + 1; }, "do not fit the 8-bit memory tag"},
      {"registers", [](Config& c) { c.registers = uarch::kMinRegisters - 1; },
       "registers per thread is outside"},
      {"imem_words", [](Config& c) { c.imem_words = uarch::kMaxImemWords + 1; },
       "words is outside 1..4194304"},
      {"execute_stages low",
       [](Config& c) {
         c.threads = 64;
         c.execute_stages = uarch::kMinExecuteStages - 1;
       },
       "execute stages is outside 4..16"},
      {"execute_stages high",
       [](Config& c) {
         c.threads = 64;
         c.execute_stages = uarch::kMaxExecuteStages + 1;
       },
       "execute stages is outside 4..16"},
      {"depth above threads", [](Config& c) { c.execute_stages = 5; },
       "8 threads is below the pipeline depth 9 \\(5 execute stages\\)"},
      // The cache's geometry, which the loader checks first.
      {"cache size not a power of two", [](Config& c) { c.cache_bytes = 3072; }, "must be powers of two"},
      {"no ways", [](Config& c) { c.cache_ways = 0; }, "must be powers of two"},
      {"three ways", [](Config& c) { c.cache_ways = 3; }, "must be powers of two"},
      {"line size not a power of two", [](Config& c) { c.cache_line_bytes = 24; }, "must be powers of two"},
      {"no cache but two ways",
       [](Config& c) {
         c.cache_bytes = 0;
         c.cache_ways = 2;
       },
       "or 0, 1 and 4 for no cache"},
      {"four-byte lines", [](Config& c) { c.cache_line_bytes = 4; }, "bytes \\(at least 8\\)"},
      {"a set larger than the cache",
       [](Config& c) {
         c.cache_bytes = 32;
         c.cache_line_bytes = 32;
         c.cache_ways = 2;
       },
       "must fit in the cache of 32 bytes"},
      {"request queue of 3", [](Config& c) { c.cache_request_queue = 3; }, "is below 4"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    EXPECT_EXIT(
        {
          Config cfg = config(8);
          k.edit(cfg);
          try {
            umbra_core core("core", cfg);
          } catch (const CoreConfigError& e) {
            std::fprintf(stderr, "%s\n", e.what());
            std::exit(3);
          }
          std::exit(0);
        },
        ::testing::ExitedWithCode(3), k.says);
  }
}

TEST(Runs, BadLaunchesAreErrorsNotCrashes) {
  const Program p = assemble("exit\n");
  EXPECT_THROW(harness::run_systemc(p, config(8), 0, 100), RunError);
  EXPECT_THROW(harness::run_systemc(p, config(8), 9, 100), RunError);
  Program big = p;
  big.text.resize(5000, big.text[0]);
  EXPECT_THROW(harness::run_systemc(big, config(8), 1, 100), RunError);
  harness::RunOptions o;
  o.writes.push_back({0x100000, {1}});
  EXPECT_THROW(harness::run_systemc(p, config(8), 1, 100, nullptr, o), RunError);
}

}  // namespace
}  // namespace umbra::scm::test
