// The ideal memory (ideal_memory.cpp): the factory builds it from `memory.model: ideal`,
// a program leaves the reference simulator's memory behind, and every access is
// answered the cycle after it is accepted — the same timing as the fixed-latency
// memory at latency 1, whatever memory.latency says, and faster than any real latency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "memory_model.h"
#include "umbra/asm.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace umbra::scm {
namespace {

// Each thread sums a strided array with loads (misses and hits), stores the sum and
// adds it to a shared total atomically.
const char* kProgram = R"(
        rdsr    r1, tid
        shli    r2, r1, 7
        la      r3, buf
        add     r3, r3, r2
        li      r4, 8
        li      r5, 0
loop:   ldw     r6, 0(r3)
        add     r5, r5, r6
        addi    r3, r3, 4
        addi    r4, r4, -1
        bnz     r4, loop
        stw     r5, 0(r3)
        la      r7, total
        red.add r7, r5
        exit
        .data
        .align  32
total:  .word   0
buf:    .space  8 * 128
)";

Program assemble(const Config& cfg) {
  as::Options o;
  o.registers = cfg.registers;
  const as::Result r = as::assemble_string(kProgram, "ideal_test.s", o);
  std::string diags;
  for (const auto& d : r.errors) diags += d.render();
  EXPECT_TRUE(r.ok()) << diags;
  return r.program;
}

Config config(const std::string& model, unsigned latency) {
  Config c;
  c.mem_model = model;
  c.mem_latency = latency;
  c.queue_enabled = false;
  return c;
}

// Input words for buf: thread t's word i is t * 100 + i.
std::vector<std::pair<uint32_t, std::vector<uint32_t>>> inputs(const Program& p) {
  std::vector<uint32_t> words;
  for (uint32_t t = 0; t < 8; ++t)
    for (uint32_t i = 0; i < 32; ++i) words.push_back(t * 100 + i);
  return {{*p.symbol("buf"), words}};
}

umbra::RunResult run(const Config& cfg) {
  const Program p = assemble(cfg);
  harness::RunOptions o;
  o.writes = inputs(p);
  return harness::run_systemc(p, cfg, cfg.threads, 1'000'000, nullptr, o);
}

TEST(IdealMemory, TheFactoryBuildsItFromTheConfiguration) {
  const auto models = memory_models();
  EXPECT_TRUE(
      std::any_of(models.begin(), models.end(), [](const MemoryModelInfo& m) { return m.name == "ideal"; }));
  Config unknown = config("no-such-memory", 12);
  try {
    make_memory("m", unknown);
    FAIL() << "an unknown memory.model was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ideal"), std::string::npos) << e.what();
  }
}

TEST(IdealMemory, LeavesTheReferenceSimulatorsMemory) {
  const Config cfg = config("ideal", 12);
  const Program p = assemble(cfg);
  iss::Simulator iss(cfg);
  iss.load(p);
  for (const auto& [addr, words] : inputs(p))
    for (size_t i = 0; i < words.size(); ++i) iss.memory().store32(addr + uint32_t(4 * i), words[i]);
  ASSERT_TRUE(iss.run(cfg.threads, 1'000'000).all_exited());
  const umbra::RunResult r = run(cfg);
  ASSERT_EQ(r.status, umbra::RunResult::Status::Exited) << r.message;
  EXPECT_EQ(r.memory, iss.memory().bytes());
}

TEST(IdealMemory, AnswersTheNextCycleWhateverTheLatencySays) {
  const umbra::RunResult ideal = run(config("ideal", 40));
  const umbra::RunResult fixed1 = run(config("fixed", 1));
  const umbra::RunResult fixed12 = run(config("fixed", 12));
  for (const umbra::RunResult* r : {&ideal, &fixed1, &fixed12})
    ASSERT_EQ(r->status, umbra::RunResult::Status::Exited) << r->message;
  // Cycle for cycle the fixed memory at latency 1: same run length, same load latencies.
  EXPECT_EQ(ideal.cycles, fixed1.cycles);
  EXPECT_EQ(ideal.mem.load_sum, fixed1.mem.load_sum);
  EXPECT_EQ(ideal.mem.load_max, fixed1.mem.load_max);
  EXPECT_EQ(ideal.memory, fixed1.memory);
  EXPECT_LT(ideal.cycles, fixed12.cycles);
  EXPECT_LT(ideal.mem.load_max, fixed12.mem.load_max);
}

}  // namespace
}  // namespace umbra::scm
