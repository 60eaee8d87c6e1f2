// The reference simulator as a machine: loading, launch, strict round-robin issue,
// special registers, every fault kind with its thread and pc, the instruction limit,
// and what a run reports.  Expected values are worked out from the issue order
// (one instruction per running thread per round, threads in tid order).
#include "umbra/iss.h"

#include <gtest/gtest.h>

#include "program_builder.h"
#include "umbra/format.h"

namespace umbra {
namespace {

using test::Builder;
using test::enc;

Config cfg_with(unsigned threads = 8, unsigned registers = 256, uint32_t imem_words = 4096,
                uint32_t mem_bytes = 1u << 20) {
  Config c;
  c.name = "test";
  c.threads = threads;
  c.registers = registers;
  c.imem_words = imem_words;
  c.mem_bytes = mem_bytes;
  return c;
}

iss::IssResult run(const Config& c, const Program& p, unsigned n, uint64_t limit = 1'000'000,
                   iss::Simulator* keep = nullptr) {
  iss::Simulator local(c);
  iss::Simulator& sim = keep ? *keep : local;
  sim.load(p);
  return sim.run(n, limit);
}

TEST(IssRoundRobin, AtomicsFromEightThreadsInterleaveInTidOrder) {
  Builder b;
  b.op("movi", {1, 0x100}).op("movi", {2, 1}).op("atom.add", {3, 1, 2}).op("exit", {});
  iss::Simulator sim(cfg_with());
  const auto res = run(cfg_with(), b.p, 8, 1'000'000, &sim);
  ASSERT_FALSE(res.fault) << res.fault->message();
  // Every thread reaches the atom.add in the same round, in tid order, so thread t
  // sees the t increments of the threads before it.
  for (unsigned t = 0; t < 8; ++t) {
    EXPECT_EQ(res.threads[t].state.r[3], t) << "thread " << t;
    EXPECT_EQ(res.threads[t].status, iss::ThreadStatus::Exited);
    EXPECT_EQ(res.threads[t].retired, 4u);
    EXPECT_EQ(res.threads[t].state.pc, 12u);  // the exit's own address
  }
  EXPECT_EQ(sim.memory().peek32(0x100), 8u);
  EXPECT_EQ(res.retired, 32u);
  EXPECT_EQ(res.rounds, 4u);
}

TEST(IssRoundRobin, SixtyFourThreadsAccumulateTheExactTotal) {
  // Each thread adds lx + 1 to one word 100 times, and once more with red.add and
  // atom.max to two others.
  Builder b;
  b.op("rdsr", {4, isa::find_sreg("lx")->number})
      .op("addi", {4, 4, 1})
      .op("movi", {1, 0x100})
      .op("movi", {5, 100});
  const int loop = b.at();
  b.op("atom.add", {3, 1, 4}).op("addi", {5, 5, -1}).op("bnz", {5, loop - b.at()});
  b.op("addi", {6, 1, 4})
      .op("red.add", {6, 4})
      .op("addi", {7, 1, 8})
      .op("atom.max", {8, 7, 4})
      .op("exit", {});
  iss::Simulator sim(cfg_with(64));
  const auto res = run(cfg_with(64), b.p, 64, 1'000'000, &sim);
  ASSERT_FALSE(res.fault) << res.fault->message();
  const uint32_t sum = 64 * 65 / 2;  // 2080
  EXPECT_EQ(sim.memory().peek32(0x100), 100 * sum);
  EXPECT_EQ(sim.memory().peek32(0x104), sum);
  EXPECT_EQ(sim.memory().peek32(0x108), 64u);
  // In the last iteration thread t's add comes after 99 full rounds of adds and
  // after threads 0..t-1 of this round: it returns 99 * 2080 + t(t+1)/2.
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(res.threads[t].state.r[3], 99 * sum + t * (t + 1) / 2) << "thread " << t;
  // atom.max: thread t sees the largest lx + 1 of threads before it, 0 for thread 0.
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(res.threads[t].state.r[8], t) << "thread " << t;
}

TEST(IssSpecialRegisters, LaunchValuesAndClock) {
  Builder b;
  for (const char* name : {"tid", "nthr", "domw", "lx", "clock", "cid", "ly", "domh", "ncore", "clockh"})
    b.op("rdsr", {int32_t(b.at() + 1), isa::find_sreg(name)->number});
  b.op("exit", {});
  const auto res = run(cfg_with(8), b.p, 3);
  ASSERT_FALSE(res.fault) << res.fault->message();
  for (unsigned t = 0; t < 3; ++t) {
    const auto& r = res.threads[t].state.r;
    EXPECT_EQ(r[1], t);          // tid
    EXPECT_EQ(r[2], 8u);         // nthr is T, not the threads launched
    EXPECT_EQ(r[3], 3u);         // domw is the threads launched
    EXPECT_EQ(r[4], t);          // lx
    EXPECT_EQ(r[5], 4 * 8 + t);  // clock: fifth instruction, round 4, slot t
    EXPECT_EQ(r[6], 0u);         // cid
    EXPECT_EQ(r[7], 0u);         // ly
    EXPECT_EQ(r[8], 1u);         // domh
    EXPECT_EQ(r[9], 1u);         // ncore
    EXPECT_EQ(r[10], 0u);        // clockh
  }
}

// A domain launch of more work items than contexts: every context takes the next item,
// row by row, when it starts and again each time it exits, keeping its registers.
TEST(IssDomain, EveryItemRunsOnceWithItsCoordinates) {
  // out[ly * domw + lx] = (domh << 24) | (ly << 12) | lx; r9 counts the items this
  // context has run (registers carry over from item to item).
  Builder b;
  const auto sr = [](const char* n) { return int32_t(isa::find_sreg(n)->number); };
  b.op("rdsr", {1, sr("lx")})
      .op("rdsr", {2, sr("ly")})
      .op("rdsr", {3, sr("domw")})
      .op("rdsr", {4, sr("domh")});
  b.op("mul", {5, 2, 3}).op("add", {5, 5, 1}).op("shli", {5, 5, 2});  // byte offset of the item
  b.op("shli", {6, 4, 24}).op("shli", {7, 2, 12}).op("or", {6, 6, 7}).op("or", {6, 6, 1});
  b.op("movi", {8, 0x100}).op("add", {5, 5, 8}).op("stw", {6, 0}, 5).op("addi", {9, 9, 1}).op("exit", {});
  Config c = cfg_with(8);
  c.cores = 2;
  iss::Simulator sim(c);
  sim.load(b.p);
  std::vector<unsigned> runs_of_item(7 * 5);
  const auto res = sim.run_domain(7, 5, 1'000'000, [&](unsigned item, const Retired& r) {
    if (r.exited) ++runs_of_item.at(item);
  });
  ASSERT_TRUE(res.all_exited()) << (res.fault ? res.fault->message() : "livelock");
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 7; ++x) {
      EXPECT_EQ(sim.memory().peek32(0x100 + 4 * (y * 7 + x)), 5u << 24 | y << 12 | x) << x << "," << y;
      EXPECT_EQ(runs_of_item[y * 7 + x], 1u) << "item " << x << "," << y;
    }
  // 35 items on 16 contexts: one per context per round of items, so each context ran
  // two or three, and its r9 counted them.
  ASSERT_EQ(res.threads.size(), 16u);
  unsigned total = 0;
  for (const auto& t : res.threads) {
    EXPECT_GE(t.state.r[9], 2u);
    EXPECT_LE(t.state.r[9], 3u);
    total += t.state.r[9];
  }
  EXPECT_EQ(total, 35u);
}

TEST(IssDomain, FewerItemsThanContextsLeaveTheRestIdle) {
  Builder b;
  b.op("rdsr", {1, int32_t(isa::find_sreg("lx")->number)}).op("shli", {2, 1, 2}).op("addi", {3, 1, 1});
  b.op("movi", {4, 0x100}).op("add", {2, 2, 4}).op("stw", {3, 0}, 2).op("exit", {});
  iss::Simulator sim(cfg_with(8));
  sim.load(b.p);
  const auto res = sim.run_domain(3, 1, 1000);
  ASSERT_TRUE(res.all_exited());
  EXPECT_EQ(res.retired, 21u);
  for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(sim.memory().peek32(0x100 + 4 * x), x < 3 ? x + 1 : 0u);
  EXPECT_THROW(sim.run_domain(65536, 65536, 1000), iss::LoadError);
}

TEST(IssLoad, DataIsLittleEndianAtDataBase) {
  Builder b;
  b.p.data_base = 0x2000;
  b.p.data = {0x01, 0x02, 0x03, 0x04, 0xaa};
  b.op("movi", {1, 0x2000}).op("ldw", {2, 0}, 1).op("ldw", {3, 4}, 1).op("exit", {});
  const auto res = run(cfg_with(), b.p, 1);
  ASSERT_FALSE(res.fault) << res.fault->message();
  EXPECT_EQ(res.threads[0].state.r[2], 0x04030201u);
  EXPECT_EQ(res.threads[0].state.r[3], 0xaau);
}

TEST(IssLoad, TextAtABaseAndEntryPoint) {
  Builder b;
  b.p.text_base = 0x40;
  b.p.entry = 0x44;
  b.op("movi", {1, 1}).op("movi", {2, 2}).op("exit", {});
  const auto res = run(cfg_with(), b.p, 1);
  ASSERT_FALSE(res.fault) << res.fault->message();
  EXPECT_EQ(res.threads[0].state.r[1], 0u);  // skipped: entry is the second word
  EXPECT_EQ(res.threads[0].state.r[2], 2u);
  EXPECT_EQ(res.threads[0].retired, 2u);
}

TEST(IssLoad, WhatDoesNotFitIsAnErrorNamingIt) {
  Builder b;
  for (int i = 0; i < 5; ++i) b.op("nop", {});
  iss::Simulator small(cfg_with(8, 256, 4));
  try {
    small.load(b.p, "big.elf");
    FAIL() << "text of 5 words loaded into a 4-word store";
  } catch (const iss::LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("big.elf"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("instruction store of 4 words"), std::string::npos) << e.what();
  }
  Builder d;
  d.op("exit", {});
  d.p.data_base = 4096 - 4;
  d.p.data.assign(5, 1);
  iss::Simulator sim(cfg_with(8, 256, 64, 4096));
  EXPECT_THROW(sim.load(d.p, "x"), iss::LoadError);
  d.p.data.assign(4, 1);
  EXPECT_NO_THROW(sim.load(d.p, "x"));  // exactly the last word fits
  d.p.entry = 64 * 4;
  EXPECT_THROW(sim.load(d.p, "x"), iss::LoadError);
  d.p.entry = 2;
  EXPECT_THROW(sim.load(d.p, "x"), iss::LoadError);
}

TEST(IssLoad, ThreadCountMustFitTheContexts) {
  Builder b;
  b.op("exit", {});
  iss::Simulator sim(cfg_with(8));
  sim.load(b.p);
  EXPECT_THROW(sim.run(9, 100), iss::LoadError);
  EXPECT_THROW(sim.run(0, 100), iss::LoadError);
  EXPECT_FALSE(sim.run(8, 100).fault);
}

// ---- faults: thread 2 of 8 runs the faulting instruction; the others skip it.

struct FaultCase {
  std::string label;
  std::vector<uint32_t> prologue;  // sets up registers, all threads
  uint32_t faulting;
  Fault fault;
  std::string detail;
  Config cfg = cfg_with();
};

void PrintTo(const FaultCase& c, std::ostream* os) {
  *os << c.label;
}

class IssFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(IssFaults, StopTheRunNamingThreadPcAndInstruction) {
  const FaultCase& fc = GetParam();
  Builder b;
  for (uint32_t w : fc.prologue) b.word(w);
  const int P = b.at();
  b.op("rdsr", {1, isa::find_sreg("tid")->number}).op("movi", {2, 2}).op("bne", {1, 2, 2});
  b.word(fc.faulting).op("exit", {});
  const uint32_t fault_pc = uint32_t(P + 3) * 4;

  std::vector<std::pair<unsigned, Retired>> seen;
  iss::Simulator sim(fc.cfg);
  sim.load(b.p);
  const auto res = sim.run(8, 1'000'000, [&](unsigned t, const Retired& r) { seen.emplace_back(t, r); });

  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->fault, fc.fault) << res.fault->message();
  EXPECT_EQ(res.fault->thread, 2u);
  EXPECT_EQ(res.fault->pc, fault_pc);
  EXPECT_EQ(res.fault->word, fc.faulting);
  // Valid words as umbra-dis shows them; invalid ones as a bare .word, the reason
  // being in the detail.
  char bare[32];
  std::snprintf(bare, sizeof bare, ".word 0x%08x", fc.faulting);
  EXPECT_EQ(res.fault->disassembly, isa::decode(fc.faulting)
                                        ? isa::disassemble(fc.faulting, fault_pc, sim.labels())
                                        : std::string(bare));
  EXPECT_NE(res.fault->detail.find(fc.detail), std::string::npos) << res.fault->detail;
  const std::string msg = res.fault->message();
  EXPECT_NE(msg.find("thread 2"), std::string::npos) << msg;
  EXPECT_NE(msg.find(umbra::hex8(fault_pc)), std::string::npos) << msg;
  EXPECT_NE(msg.find(res.fault->disassembly), std::string::npos) << msg;
  EXPECT_NE(msg.find(fault_name(fc.fault)), std::string::npos) << msg;

  // Threads 0 and 1 exit in the round thread 2 faults in; 3..7 are stopped after
  // their branch, and nothing of the faulting instruction happened.
  const unsigned P_ = unsigned(P);
  EXPECT_EQ(res.threads[0].status, iss::ThreadStatus::Exited);
  EXPECT_EQ(res.threads[1].status, iss::ThreadStatus::Exited);
  EXPECT_EQ(res.threads[0].retired, P_ + 4);
  EXPECT_EQ(res.threads[2].status, iss::ThreadStatus::Faulted);
  EXPECT_EQ(res.threads[2].retired, P_ + 3);
  EXPECT_EQ(res.threads[2].state.pc, fault_pc);
  for (unsigned t = 3; t < 8; ++t) {
    EXPECT_EQ(res.threads[t].status, iss::ThreadStatus::Running) << t;
    EXPECT_EQ(res.threads[t].retired, P_ + 3) << t;
    EXPECT_EQ(res.threads[t].state.pc, fault_pc + 4) << t;
  }
  // The observer saw every retired instruction and then the fault.
  ASSERT_EQ(seen.size(), res.retired + 1);
  EXPECT_EQ(seen.back().first, 2u);
  EXPECT_EQ(seen.back().second.fault, fc.fault);
  EXPECT_EQ(seen.back().second.pc, fault_pc);
}

std::string case_name(const ::testing::TestParamInfo<FaultCase>& i) {
  std::string n = i.param.label;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(
    EveryKind, IssFaults,
    ::testing::Values(
        FaultCase{"illegal_opcode",
                  {},
                  test::unused_opcode_word(),
                  Fault::IllegalInstruction,
                  "not an instruction"},
        FaultCase{"reserved_bits", {}, enc("exit", {}) | 0x100u, Fault::IllegalInstruction, "zero"},
        FaultCase{"register_beyond_config",
                  {},
                  enc("add", {40, 0, 0}),
                  Fault::IllegalInstruction,
                  "r40 does not exist",
                  cfg_with(8, 32)},
        FaultCase{"base_register_beyond_config",
                  {},
                  enc("ldw", {1, 0}, 32),
                  Fault::IllegalInstruction,
                  "r32 does not exist",
                  cfg_with(8, 32)},
        FaultCase{"misaligned_load",
                  {enc("movi", {3, 0x42})},
                  enc("ldw", {4, 0}, 3),
                  Fault::Misaligned,
                  "0x00000042"},
        FaultCase{"misaligned_atomic",
                  {enc("movi", {3, 0x41})},
                  enc("red.add", {3, 0}),
                  Fault::Misaligned,
                  "0x00000041"},
        FaultCase{"load_beyond_memory",
                  {enc("movi", {3, 4096})},
                  enc("ldw", {4, 0}, 3),
                  Fault::OutOfRange,
                  "0x00001000",
                  cfg_with(8, 256, 4096, 4096)},
        FaultCase{"store_beyond_memory",
                  {enc("movi", {3, 4092})},
                  enc("stw", {4, 4}, 3),
                  Fault::OutOfRange,
                  "0x00001000",
                  cfg_with(8, 256, 4096, 4096)},
        FaultCase{
            "jalr_misaligned", {enc("movi", {3, 6})}, enc("jalr", {31, 3}), Fault::BadJump, "multiple of 4"},
        FaultCase{"jump_out_of_store",
                  {},
                  enc("j", {100}),
                  Fault::BadJump,
                  "outside the instruction store",
                  cfg_with(8, 256, 64)},
        FaultCase{"jalr_out_of_store",
                  {enc("movi", {3, 256})},
                  enc("jalr", {31, 3}),
                  Fault::BadJump,
                  "outside the instruction store",
                  cfg_with(8, 256, 64)},
        FaultCase{
            "branch_below_zero", {}, enc("bz", {0, -10}), Fault::BadJump, "outside the instruction store"}),
    case_name);

TEST(IssFaults, RunningIntoZeroedStoreIsIllegal) {
  Builder b;
  b.op("nop", {});  // and then the store's unused, zeroed words
  const auto res = run(cfg_with(), b.p, 1);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->fault, Fault::IllegalInstruction);
  EXPECT_EQ(res.fault->pc, 4u);
}

TEST(IssFaults, RunningOffTheEndOfTheStore) {
  Builder b;
  for (int i = 0; i < 4; ++i) b.op("nop", {});
  const auto res = run(cfg_with(8, 256, 4), b.p, 1);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->fault, Fault::BadJump);
  EXPECT_EQ(res.fault->pc, 12u);
  EXPECT_EQ(res.threads[0].retired, 3u);
}

// ---- the instruction limit

TEST(IssLimit, StopsAtTheLimitNamingTheNextThread) {
  Builder b;
  b.op("j", {0});  // forever
  const auto res = run(cfg_with(), b.p, 8, 1003);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->fault, Fault::InstructionLimit);
  EXPECT_EQ(res.retired, 1003u);
  // 125 full rounds, then threads 0..2: the next to issue is thread 3.
  EXPECT_EQ(res.fault->thread, 3u);
  EXPECT_EQ(res.fault->pc, 0u);
  EXPECT_EQ(res.fault->disassembly, "j start");  // branch targets by label
  for (unsigned t = 0; t < 8; ++t) {
    EXPECT_EQ(res.threads[t].retired, t < 3 ? 126u : 125u) << t;
    EXPECT_EQ(res.threads[t].status, iss::ThreadStatus::Running) << t;
  }
  EXPECT_NE(res.fault->message().find("1003"), std::string::npos) << res.fault->message();
}

TEST(IssLimit, ExactlyEnoughInstructionsIsNotAFault) {
  Builder b;
  b.op("nop", {}).op("exit", {});
  EXPECT_FALSE(run(cfg_with(), b.p, 8, 16).fault);
  const auto res = run(cfg_with(), b.p, 8, 15);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->fault, Fault::InstructionLimit);
  EXPECT_EQ(res.fault->thread, 7u);
  EXPECT_EQ(res.fault->pc, 4u);
}

// ---- observer and repeated runs

TEST(IssObserver, SeesRoundRobinOrderSkippingExitedThreads) {
  Builder b;
  // Thread 0 exits at once; the others run one more instruction.
  b.op("rdsr", {1, isa::find_sreg("tid")->number}).op("bz", {1, 2}).op("nop", {}).op("exit", {});
  iss::Simulator sim(cfg_with());
  sim.load(b.p);
  std::vector<unsigned> order;
  std::vector<uint32_t> pcs;
  const auto res = sim.run(3, 100, [&](unsigned t, const Retired& r) {
    order.push_back(t);
    pcs.push_back(r.pc);
  });
  ASSERT_FALSE(res.fault);
  EXPECT_EQ(order, (std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 2}));
  EXPECT_EQ(pcs, (std::vector<uint32_t>{0, 0, 0, 4, 4, 4, 12, 8, 8, 12, 12}));
  EXPECT_EQ(res.rounds, 4u);
}

TEST(IssRuns, RegistersStartFreshMemoryPersists) {
  Builder b;
  b.op("movi", {1, 0x100}).op("movi", {2, 1}).op("atom.add", {3, 1, 2}).op("exit", {});
  iss::Simulator sim(cfg_with());
  sim.load(b.p);
  ASSERT_FALSE(sim.run(8, 100).fault);
  const auto second = sim.run(8, 100);
  ASSERT_FALSE(second.fault);
  EXPECT_EQ(sim.memory().peek32(0x100), 16u);
  EXPECT_EQ(second.threads[5].state.r[3], 13u);
  EXPECT_EQ(second.threads[5].retired, 4u);
}

// ---- trace lines

TEST(IssTrace, LineShowsThreadPcWordInstructionAndEffects) {
  ThreadState t;
  t.pc = 0x1c;
  t.r[1] = 0x100;
  t.r[2] = 5;
  iss::FlatMemory mem(4096);
  mem.store32(0x100, 3);
  const uint32_t w = enc("atom.add", {3, 1, 2});
  const Retired r = execute(w, t, mem, SpecialRegs{});
  char expect[160];
  std::snprintf(expect, sizeof expect, "%4u %08x %08x %-30s r3=00000003 at[00000100]=00000003->00000008", 6u,
                0x1cu, w, "atom.add r3, r1, r2");
  EXPECT_EQ(iss::trace_line(6, r), expect);
}

}  // namespace
}  // namespace umbra
