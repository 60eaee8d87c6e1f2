// The SystemC model against the reference simulator: whatever the timing (thread
// counts, T, memory latencies), every thread must issue the same pcs, write the same
// registers in the same order, and leave the same memory as in the ISS.  all_ops.s
// executes every instruction of the ISA; the coverage test below holds it to that,
// from the model's own issue events, so a new instruction in isa.yaml that no test
// program runs fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sc_test_util.h"

namespace umbra::scm::test {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kAllOps = "systemc/tests/programs/all_ops.s";

struct Timing {
  unsigned threads, latency;
};

class AllOps : public ::testing::TestWithParam<Timing> {};

TEST_P(AllOps, MatchesIssForEveryThreadCount) {
  const Config cfg = config(GetParam().threads, GetParam().latency);
  const Program p = assemble(read_text(kAllOps), cfg);
  for (unsigned n : {1u, 3u, cfg.threads}) expect_matches_iss(p, cfg, n, "all_ops.s");
}

INSTANTIATE_TEST_SUITE_P(Timings, AllOps,
                         ::testing::Values(Timing{8, 1}, Timing{8, 2}, Timing{8, 12}, Timing{9, 3},
                                           Timing{12, 30}, Timing{16, 12}),
                         [](const auto& info) {
                           return "T" + std::to_string(info.param.threads) + "_latency" +
                                  std::to_string(info.param.latency);
                         });

TEST(AllOps, ExecutesEveryInstructionOfTheIsa) {
  const Config cfg = config(8, 12);
  const Program p = assemble(read_text(kAllOps), cfg);
  const ScRun sc = run_sc(p, cfg, 8);
  ASSERT_EQ(sc.result.status, RunResult::Status::Exited) << sc.result.message;
  std::set<isa::Op> seen;
  for (const Event& e : sc.events)
    if (e.kind == EventKind::Issue) {
      const auto d = isa::decode(p.text.at((e.pc - p.text_base) / 4));
      ASSERT_TRUE(d.has_value());
      seen.insert(d->op());
    }
  for (const isa::InstrInfo& in : isa::kInstrs) EXPECT_TRUE(seen.count(in.op)) << in.name << " never issued";
}

// Threads that contend: every thread adds into one counter with a returning atomic
// in a loop while others sleep on loads, so wake-ups, return buffers and the port's
// ordering are all exercised at once.  The final sum does not depend on the order,
// and neither does any thread's stream except the atom.add results, which this
// program only accumulates into memory through a commutative red.add.
TEST(Contention, SharedCounterMatchesIss) {
  const char* src = R"(
        .text
        rdsr    r1, tid
        la      r2, counter
        la      r3, values
        shli    r4, r1, 2
        add     r3, r3, r4
        movi    r5, 20
loop:   ldw     r6, 0(r3)
        addi    r6, r6, 1
        stw     r6, 0(r3)
        atom.add r7, r2, r6
        la      r8, total
        red.add r8, r6
        addi    r5, r5, -1
        bnz     r5, loop
        exit
        .data
counter: .word 0
total:   .word 0
values:  .space 64 * 4
)";
  for (const Timing t : {Timing{8, 1}, Timing{8, 12}, Timing{11, 40}}) {
    const Config cfg = config(t.threads, t.latency);
    const Program p = assemble(src, cfg);
    const IssRun ref = run_iss(p, cfg, cfg.threads);
    const ScRun sc = run_sc(p, cfg, cfg.threads);
    ASSERT_EQ(sc.result.status, RunResult::Status::Exited) << sc.result.message;
    EXPECT_EQ(sc.result.memory, ref.memory);
    for (unsigned th = 0; th < cfg.threads; ++th) EXPECT_EQ(sc.streams.pcs[th], ref.streams.pcs[th]);
  }
}

}  // namespace
}  // namespace umbra::scm::test
