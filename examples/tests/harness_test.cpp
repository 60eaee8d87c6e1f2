// The harness itself: it must catch what a broken model does (a wrong word, a fault, a
// thread that never exits, a blown instruction budget) and reject manifests with typos,
// or a green examples_test would prove nothing.  The "models" here are fakes that
// answer from the reference and then break one thing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "harness.h"
#include "reference.h"
#include "umbra/asm.h"

namespace fs = std::filesystem;
using namespace umbra::examples;

namespace {

const char* kProgram = R"(
        .text
_start: exit
        .data
n:      .word 3
xs:     .word 10, 20, 30
out:    .word 0, 0
)";

// out[0] = sum of xs[0..n-1], out[1] = threads
void toy_reference(Image& m) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < m.at("n", 0); ++i) s += m.at("xs", i);
  m.set("out", 0, s);
  m.set("out", 1, m.threads());
}

Manifest toy_manifest() {
  Manifest m;
  m.name = "toy";
  m.path = "toy.yaml";
  m.max_instructions = 100;
  m.runs.push_back({"threads=2", 2, {}});
  m.checks.push_back({"out", 0, 2});
  return m;
}

umbra::Program toy_program() {
  auto r = umbra::as::assemble_string(kProgram, "toy.s");
  EXPECT_TRUE(r.ok());
  return r.program;
}

// A model of `cores` cores that answers with the reference's words (a thread launch
// runs job.threads on each core), then lets `spoil` change things.
Model fake(std::function<void(const ModelJob&, ModelOutcome&)> spoil, unsigned cores = 1) {
  return {[spoil, cores](const ModelJob& job) {
    Image img(*job.program, job.threads * cores);
    for (const auto& [a, ws] : job.writes)
      for (size_t i = 0; i < ws.size(); ++i) img.store(a + uint32_t(4 * i), ws[i]);
    toy_reference(img);
    ModelOutcome o;
    o.all_exited = true;
    o.instructions = 10;
    for (const auto& s : job.reads) {
      std::vector<uint32_t> w;
      for (uint32_t i = 0; i < s.words; ++i) w.push_back(img.load(s.address + 4 * i));
      o.reads.push_back(w);
    }
    spoil(job, o);
    return o;
  },
          cores};
}

TEST(Harness, AcceptsACorrectModel) {
  const auto p = toy_program();
  const auto m = toy_manifest();
  const Verdict v = run_and_check(m, m.runs[0], p, fake([](auto&, auto&) {}), toy_reference);
  EXPECT_TRUE(v.passed) << v.summary();
}

TEST(Harness, PassesInputsToModelAndReference) {
  const auto p = toy_program();
  auto m = toy_manifest();
  m.runs[0].inputs.push_back({{"n", 0, 1}, {2}});
  bool saw = false;
  const Verdict v = run_and_check(
      m, m.runs[0], p,
      fake([&](const ModelJob& j, ModelOutcome& o) {
        saw = j.writes.size() == 1 && j.writes[0].first == *p.symbol("n") && j.writes[0].second[0] == 2;
        EXPECT_EQ(o.reads[0][0], 30u);  // 10 + 20
      }),
      toy_reference);
  EXPECT_TRUE(saw);
  EXPECT_TRUE(v.passed) << v.summary();
}

TEST(Harness, ReportsAWrongWordWithItsAddress) {
  const auto p = toy_program();
  const auto m = toy_manifest();
  const Verdict v = run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.reads[0][1] ^= 4; }),
                                  toy_reference);
  ASSERT_FALSE(v.passed);
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_NE(v.problems[0].find("out word 1"), std::string::npos) << v.problems[0];
  EXPECT_NE(v.problems[0].find("expected 0x00000002, got 0x00000006"), std::string::npos) << v.problems[0];
}

TEST(Harness, ReportsFaultsHangsAndBudget) {
  const auto p = toy_program();
  const auto m = toy_manifest();
  EXPECT_FALSE(run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.fault = "boom"; }), toy_reference)
                   .passed);
  EXPECT_FALSE(
      run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.all_exited = false; }), toy_reference)
          .passed);
  EXPECT_FALSE(
      run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.instructions = 101; }), toy_reference)
          .passed);
  EXPECT_FALSE(
      run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.reads[0].pop_back(); }), toy_reference)
          .passed);
}

// A thread launch on a machine of several cores starts the run's threads on every core:
// the reference is asked for all of them and the budget grows with them, while the model
// is still asked for the run's threads (a core's).
TEST(Harness, ChecksAThreadLaunchOnSeveralCoresAsAllTheirThreads) {
  const auto p = toy_program();
  const auto m = toy_manifest();  // threads=2, 100 instructions
  unsigned asked = 0;
  const Verdict v = run_and_check(m, m.runs[0], p, fake([&](const ModelJob& j, ModelOutcome& o) {
                                    asked = j.threads;
                                    EXPECT_EQ(o.reads[0][1], 6u);  // 3 cores x 2 threads
                                    o.instructions = 300;
                                  }, 3),
                                  toy_reference);
  EXPECT_TRUE(v.passed) << v.summary();
  EXPECT_EQ(asked, 2u);
  // The same words from a machine said to have one core are wrong, and over budget.
  Model one = fake([](auto&, ModelOutcome& o) { o.instructions = 300; }, 3);
  one.cores = 1;
  const Verdict w = run_and_check(m, m.runs[0], p, one, toy_reference);
  ASSERT_FALSE(w.passed);
  EXPECT_NE(w.summary().find("expected 0x00000002, got 0x00000006"), std::string::npos) << w.summary();
  EXPECT_NE(w.summary().find("more than the 100 allowed"), std::string::npos) << w.summary();
  EXPECT_FALSE(run_and_check(m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.instructions = 301; }, 3),
                             toy_reference)
                   .passed);
}

TEST(Harness, LimitsTheListOfMismatches) {
  const auto p = toy_program();
  const auto m = toy_manifest();
  const Verdict v = run_and_check(
      m, m.runs[0], p, fake([](auto&, ModelOutcome& o) { o.reads[0] = {7, 7}; }), toy_reference, 1);
  ASSERT_EQ(v.problems.size(), 2u);
  EXPECT_NE(v.problems[1].find("1 more words differ"), std::string::npos) << v.problems[1];
}

class ManifestFiles : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("umbra_manifest_" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string write(const std::string& text) {
    const auto path = dir / "m.yaml";
    std::ofstream(path) << text;
    return path.string();
  }
};

TEST_F(ManifestFiles, ReadsEveryField) {
  const Manifest m = load_manifest(write(R"(
name: toy
source: toy.s
description: a toy
max_instructions: 0x100
runs:
  - threads: 3
  - name: short
    threads: 1
    inputs:
      - {symbol: n, values: [2, -1, 0xffffffff]}
      - {address: 0x10010, values: [5]}
checks:
  - {symbol: out, words: 2}
  - {symbol: out, offset: 4, words: 1}
  - {address: 0x10000, words: 1}
)"));
  EXPECT_EQ(m.name, "toy");
  EXPECT_EQ(m.source, (dir / "toy.s").string());
  EXPECT_EQ(m.max_instructions, 256u);
  ASSERT_EQ(m.runs.size(), 2u);
  EXPECT_EQ(m.runs[0].name, "threads=3");
  EXPECT_EQ(m.runs[1].name, "short");
  ASSERT_EQ(m.runs[1].inputs.size(), 2u);
  EXPECT_EQ(m.runs[1].inputs[0].values, (std::vector<uint32_t>{2, 0xffffffffu, 0xffffffffu}));
  EXPECT_EQ(m.runs[1].inputs[1].at.offset, 0x10010u);
  ASSERT_EQ(m.checks.size(), 3u);
  EXPECT_EQ(m.checks[1].offset, 4u);
}

// An example that uses an instruction of a group the configuration lacks (through an
// .include, too) is named with the assembler's line, instruction, group and
// configuration; one that needs only what it has gets an empty answer.
TEST_F(ManifestFiles, AnExampleNeedingAnAbsentGroupSaysWhich) {
  std::ofstream(dir / "toy.s") << ".text\n_start: add r1, r2, r3\n .include \"cvt.inc\"\n exit\n";
  std::ofstream(dir / "cvt.inc") << "  fmul r1, r1, r1\n  itof r1, r1\n";
  Manifest m;
  m.name = "toy";
  m.source = (dir / "toy.s").string();
  umbra::Config cfg;
  cfg.name = "nocvt";
  EXPECT_EQ(absent_group(m, cfg), "") << "the default configuration has every group";
  const umbra::isa::GroupInfo* cvt = umbra::isa::find_group("fp32cvt");
  ASSERT_NE(cvt, nullptr);
  cfg.groups &= ~(1u << unsigned(cvt - umbra::isa::kGroups));
  EXPECT_EQ(absent_group(m, cfg), (dir / "cvt.inc").string() +
                                       ":2: 'itof' is in extension group 'fp32cvt', which configuration "
                                       "'nocvt' does not have (core.groups: base, mulh, fp32, atomic)");
}

TEST_F(ManifestFiles, RejectsMistakes) {
  const std::string head = "name: toy\nsource: toy.s\nmax_instructions: 10\n";
  const std::string runs = "runs: [{threads: 1}]\n";
  const std::string checks = "checks: [{symbol: out, words: 1}]\n";
  EXPECT_THROW(load_manifest(write(head + runs + checks + "chekcs: []\n")), ManifestError);
  EXPECT_THROW(load_manifest(write(head + checks)), ManifestError);                              // no runs
  EXPECT_THROW(load_manifest(write(head + runs + "checks: [{symbol: out}]\n")), ManifestError);  // no words
  EXPECT_THROW(load_manifest(write(head + "runs: [{threads: 0}]\n" + checks)), ManifestError);
  EXPECT_THROW(load_manifest(write(head + runs + "checks: [{address: 0x10002, words: 1}]\n")), ManifestError);
  EXPECT_THROW(load_manifest(write(head + "runs: [{threads: 1, inputs: [{symbol: n}]}]\n" + checks)),
               ManifestError);
  EXPECT_THROW(load_manifest(write(head + runs + "checks: [{symbol: out, words: ten}]\n")), ManifestError);
  EXPECT_THROW(load_manifest((dir / "absent.yaml").string()), ManifestError);
}

TEST(Harness, UnknownSymbolIsAManifestError) {
  const auto p = toy_program();
  EXPECT_THROW(resolve({"nowhere", 0, 1}, p, "toy.yaml"), ManifestError);
  EXPECT_EQ(resolve({"xs", 8, 1}, p, "toy.yaml").address, *p.symbol("xs") + 8);
  EXPECT_EQ(resolve({"", 0x20000, 1}, p, "toy.yaml").address, 0x20000u);
}

TEST(Harness, ImageStartsAsTheProgramData) {
  const auto p = toy_program();
  Image img(p, 4);
  EXPECT_EQ(img.at("n", 0), 3u);
  EXPECT_EQ(img.at("xs", 2), 30u);
  EXPECT_EQ(img.load(0x80000), 0u);
  EXPECT_EQ(img.threads(), 4u);
}

}  // namespace
