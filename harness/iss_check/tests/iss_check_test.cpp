// The comparison with the ISS on hand-made model records: what it forgives as another
// thread's order and what it must still call a problem.  The program has each thread
// `atom.add` one shared word and store the old value to a word of its own, so the
// stored words depend on the order in which threads reach the shared word.
#include "iss_check.h"

#include <gtest/gtest.h>

#include "umbra/asm.h"
#include "umbra/format.h"

namespace umbra::check {
namespace {

const char* kSource = R"(
_start: rdsr    r20, tid
        shli    r22, r20, 2
        la      r21, out
        add     r21, r21, r22
        la      r24, shared
        li      r1, 1
        atom.add r10, r24, r1
        stw     r10, 0(r21)
        exit
        .data
out:    .space 16
shared: .word 5
)";

struct ModelRun {
  Program program;
  Reference ref;
  ThreadRecords records;  // the model's: the ISS's, changed by each test
  umbra::RunResult result;
};

ModelRun run(unsigned threads) {
  ModelRun r;
  const Config cfg;
  as::Options o;
  o.apply(cfg);
  const as::Result a = as::assemble_string(kSource, "order.s", o);
  EXPECT_TRUE(a.ok());
  r.program = a.program;
  r.ref = run_reference(r.program, cfg, threads, 10'000, {}, -1);
  EXPECT_TRUE(r.ref.result.all_exited());
  for (const auto& t : r.ref.records) {
    r.records.emplace_back();
    for (const Record& x : t) {
      Record m;  // what a model records: pc and register write, no memory access
      m.pc = x.pc;
      m.writes = x.writes;
      m.reg = x.reg;
      m.value = x.value;
      r.records.back().push_back(m);
    }
  }
  r.result.memory = r.ref.memory;
  return r;
}

size_t atomic_index(const Reference& ref, unsigned t) {
  for (size_t i = 0; i < ref.records[t].size(); ++i)
    if (ref.records[t][i].mem == Retired::Mem::Atomic) return i;
  ADD_FAILURE() << "thread " << t << " retired no atomic";
  return 0;
}

uint32_t out_word(const ModelRun& r, unsigned t) {
  return r.program.data_base + 4 * t;
}

void set_word(std::vector<uint8_t>& mem, uint32_t addr, uint32_t v) {
  for (int k = 0; k < 4; ++k) mem[addr + k] = uint8_t(v >> (8 * k));
}

IssVerdict compare(const ModelRun& r) {
  IssVerdict v;
  compare_with_reference("model", r.program, r.ref, r.records, r.result, v);
  return v;
}

TEST(IssCheck, TheSameRunAgrees) {
  const ModelRun r = run(2);
  const IssVerdict v = compare(r);
  EXPECT_TRUE(v.problems.empty()) << v.problems.front();
  EXPECT_TRUE(v.notes.empty());
}

TEST(IssCheck, AnotherOrderOfTheAtomicsIsANoteAndSoIsWhatTheThreadsStoredFromIt) {
  ModelRun r = run(2);
  // The two threads reached the shared word the other way round: each read the value
  // the other read in the ISS's run, and stored it to its own word.
  const size_t i0 = atomic_index(r.ref, 0), i1 = atomic_index(r.ref, 1);
  std::swap(r.records[0][i0].value, r.records[1][i1].value);
  set_word(r.result.memory, out_word(r, 0), r.records[0][i0].value);
  set_word(r.result.memory, out_word(r, 1), r.records[1][i1].value);
  const IssVerdict v = compare(r);
  EXPECT_TRUE(v.problems.empty()) << v.problems.front();
  EXPECT_EQ(v.notes.size(), 3u);  // two reads, one for the final memory
}

TEST(IssCheck, AWordOfOneThreadThatDiffersWithNoOtherOrderIsAProblem) {
  ModelRun r = run(2);
  set_word(r.result.memory, out_word(r, 1), 0xdead);
  const IssVerdict v = compare(r);
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_NE(v.problems[0].find("final memory differs"), std::string::npos) << v.problems[0];
}

TEST(IssCheck, OnlyTheThreadThatReadAnotherOrderMayStoreSomethingElse) {
  ModelRun r = run(2);
  // Thread 0 read another value; thread 1 did not, yet its word differs too.
  const size_t i0 = atomic_index(r.ref, 0);
  r.records[0][i0].value += 1;
  set_word(r.result.memory, out_word(r, 0), r.records[0][i0].value);
  set_word(r.result.memory, out_word(r, 1), 0xdead);
  const IssVerdict v = compare(r);
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_NE(v.problems[0].find(hex8(out_word(r, 1))), std::string::npos) << v.problems[0];
}

TEST(IssCheck, WithOneThreadAReadThatDiffersIsAProblem) {
  ModelRun r = run(1);
  const size_t i0 = atomic_index(r.ref, 0);
  r.records[0][i0].value += 1;
  set_word(r.result.memory, out_word(r, 0), r.records[0][i0].value);
  const IssVerdict v = compare(r);
  ASSERT_GE(v.problems.size(), 1u);
  EXPECT_NE(v.problems[0].find("the model's write"), std::string::npos) << v.problems[0];
}

// A command buffer (a doorbell run): the ISS loads only the data and runs the buffer;
// the final memory is compared without the counters' block and the records are not
// compared (a note says so); any other word that differs is still a problem, and so is
// a command fault the model does not share.
struct DoorbellRun {
  Program program;
  Reference ref;
  umbra::RunResult result;
};

DoorbellRun doorbell_run(const std::vector<uint32_t>& tail) {
  DoorbellRun r;
  const Config cfg;
  as::Options o;
  o.apply(cfg);
  const as::Result a = as::assemble_string(kSource, "order.s", o);
  EXPECT_TRUE(a.ok());
  r.program = a.program;
  // The text at 0x100, the buffer at 0x400: program, domain 4 x 1, run, counters at 0x800, then tail.
  std::vector<uint32_t> buf = {uint32_t(commands::Opcode::Program),
                               0x100,
                               uint32_t(r.program.text.size()),
                               0,
                               uint32_t(commands::Opcode::Domain),
                               4,
                               1,
                               uint32_t(commands::Opcode::Run),
                               0,
                               uint32_t(commands::Opcode::Counters),
                               0x800};
  buf.insert(buf.end(), tail.begin(), tail.end());
  umbra::Doorbell bell;
  bell.ring = true;
  bell.addr = 0x400;
  r.ref = run_reference(r.program, cfg, cfg.threads, 10'000, {{0x100, r.program.text}, {0x400, buf}}, -1, {},
                        bell);
  r.result.memory = r.ref.memory;
  return r;
}

TEST(IssCheckDoorbell, CountersBlockIsLeftOutOtherWordsAreNot) {
  DoorbellRun r = doorbell_run({uint32_t(commands::Opcode::End)});
  ASSERT_TRUE(r.ref.commands);
  ASSERT_FALSE(r.ref.command_fault);
  ASSERT_TRUE(r.ref.result.all_exited());
  EXPECT_TRUE(r.ref.records.empty());
  ASSERT_EQ(r.ref.counter_blocks.size(), 1u);
  EXPECT_EQ(r.ref.counter_blocks[0].addr, 0x800u);
  // The shared word: 5 + four atom.adds.
  const uint32_t shared = *r.program.symbol("shared");
  EXPECT_EQ(r.ref.memory[shared], 9u);
  // A model's cycle counts differ from the ISS's slots: not a problem.
  for (unsigned i = 0; i < 4 * commands::counter_words(1); ++i) r.result.memory[0x800 + i] ^= 0x5a;
  IssVerdict v;
  compare_with_reference("m", r.program, r.ref, {}, r.result, v);
  EXPECT_TRUE(v.problems.empty()) << v.problems.front();
  ASSERT_FALSE(v.notes.empty());
  EXPECT_NE(v.notes.front().find("per-work-item records not compared"), std::string::npos) << v.notes.front();
  // One word past the block is.
  r.result.memory[0x800 + 4 * commands::counter_words(1)] = 1;
  IssVerdict w;
  compare_with_reference("m", r.program, r.ref, {}, r.result, w);
  ASSERT_EQ(w.problems.size(), 1u);
  EXPECT_NE(w.problems[0].find("final memory differs from the ISS's in 1 word"), std::string::npos)
      << w.problems[0];
}

TEST(IssCheckDoorbell, ACommandFaultMustBeTheModelsToo) {
  DoorbellRun r = doorbell_run({0x55});  // an unknown opcode after the counters, at 0x42c
  ASSERT_TRUE(r.ref.command_fault);
  EXPECT_EQ(r.ref.command_fault->addr, 0x42cu);
  r.result.status = umbra::RunResult::Status::Fault;
  r.result.fault_addr = 0x42c;
  r.result.message = "command processor: " + std::string(commands::fault_text(commands::Fault::BadOpcode)) +
                     " (command at 0x0000042c)";
  IssVerdict same;
  compare_with_reference("m", r.program, r.ref, {}, r.result, same);
  EXPECT_TRUE(same.problems.empty()) << same.problems.front();
  r.result.fault_addr = 0x428;
  IssVerdict other;
  compare_with_reference("m", r.program, r.ref, {}, r.result, other);
  ASSERT_EQ(other.problems.size(), 1u);
  EXPECT_NE(other.problems[0].find("the ISS by command processor"), std::string::npos) << other.problems[0];
  // A model that ran to the end where the ISS stopped.
  r.result.status = umbra::RunResult::Status::Exited;
  IssVerdict ran;
  compare_with_reference("m", r.program, r.ref, {}, r.result, ran);
  ASSERT_EQ(ran.problems.size(), 1u);
  EXPECT_NE(ran.problems[0].find("the model ran to the end, the ISS stopped: command processor"),
            std::string::npos)
      << ran.problems[0];
}

}  // namespace
}  // namespace umbra::check
