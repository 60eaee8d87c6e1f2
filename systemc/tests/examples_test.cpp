// Every example, every run its manifest lists, on the SystemC model and on the reference
// simulator: the same manifests, references and checks for both (examples/harness.h).  The
// instruction counts are printed next to the ISS's but not compared: a spin lock
// (cas_lock) spins as often as the timing makes it, and that is the model's to decide.
// Each run's cycles, IPC and simulation speed are printed and recorded as test
// properties; mandelbrot's cycles per second is the number the README quotes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "harness.h"
#include "reference.h"
#include "umbra/examples_model.h"

namespace fs = std::filesystem;
using namespace umbra::examples;

namespace {

struct Case {
  std::string manifest, label;
  size_t run = 0;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& path : find_manifests(UMBRA_EXAMPLES_DIR)) {
    std::string stem = fs::path(path).stem().string();
    try {
      const Manifest m = load_manifest(path);
      for (size_t i = 0; i < m.runs.size(); ++i) {
        std::string label = m.name + "_" + m.runs[i].name;
        for (char& c : label)
          if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        cases.push_back({path, label, i});
      }
    } catch (const std::exception&) {
      cases.push_back({path, stem + "_manifest", std::string::npos});
    }
  }
  return cases;
}

class ExampleOnSystemC : public ::testing::TestWithParam<Case> {};

TEST_P(ExampleOnSystemC, MatchesReferenceAndIss) {
  const Case& c = GetParam();
  const Manifest m = load_manifest(c.manifest);
  ASSERT_NE(c.run, std::string::npos);
  const Reference* ref = find_reference(m.name);
  ASSERT_NE(ref, nullptr) << "no reference for " << m.name;
  const umbra::Program p = assemble(m);
  const umbra::Config cfg;

  umbra::models::Result result;
  const Verdict v =
      run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("systemc"), cfg, &result), *ref);
  EXPECT_TRUE(v.passed) << v.summary();
  // The same run on the reference simulator must pass the same checks: a SystemC pass
  // on a run whose reference result the ISS does not reach would hide a wrong example.
  const Verdict iss =
      run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("iss"), cfg), *ref);
  EXPECT_TRUE(iss.passed) << "ISS: " << iss.summary();
  const umbra::RunResult& last = result.run;

  std::printf(
      "%-16s %-12s %9llu cycles  %9llu instructions (ISS %llu)  IPC %.3f  %.0f cycles/s (%.0f per CPU-s)\n",
      m.name.c_str(), m.runs[c.run].name.c_str(), static_cast<unsigned long long>(last.cycles),
      static_cast<unsigned long long>(last.stats.total_issued()),
      static_cast<unsigned long long>(iss.instructions), last.stats.ipc(), last.cycles_per_second(),
      last.cycles_per_cpu_second());
  RecordProperty("cycles", std::to_string(last.cycles));
  RecordProperty("cycles_per_second", std::to_string(uint64_t(last.cycles_per_second())));
}

// The same runs on a line port (configs/line-port.yaml: fills in one beat, stores
// combined into line writes, burst 4), against the same references; the cycles are
// printed beside the word port's above.
TEST_P(ExampleOnSystemC, OnALinePortMatchesReference) {
  const Case& c = GetParam();
  const Manifest m = load_manifest(c.manifest);
  ASSERT_NE(c.run, std::string::npos);
  const Reference* ref = find_reference(m.name);
  ASSERT_NE(ref, nullptr) << "no reference for " << m.name;
  const umbra::Program p = assemble(m);
  umbra::Config cfg;
  cfg.cache_line_port = true;
  cfg.dram_burst = 4;
  umbra::models::Result result;
  const Verdict v =
      run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("systemc"), cfg, &result), *ref);
  EXPECT_TRUE(v.passed) << v.summary();
  std::printf("%-16s %-12s %9llu cycles on a line port  IPC %.3f\n", m.name.c_str(),
              m.runs[c.run].name.c_str(), static_cast<unsigned long long>(result.run.cycles),
              result.run.stats.ipc());
}

// The same runs on four cores sharing one memory system (a thread launch starts the
// run's threads on every core): the cores' caches must hand each other the barriers',
// locks' and partial sums' words through dflush and dinv, and the cosimulation alone
// would not see a wrong result the RTL shares, where the ISS's thread order differs.
TEST_P(ExampleOnSystemC, OnFourCoresMatchesReference) {
  const Case& c = GetParam();
  const Manifest m = load_manifest(c.manifest);
  ASSERT_NE(c.run, std::string::npos);
  const Reference* ref = find_reference(m.name);
  ASSERT_NE(ref, nullptr) << "no reference for " << m.name;
  const umbra::Program p = assemble(m);
  umbra::Config cfg;
  cfg.cores = 4;
  umbra::models::Result result;
  const Verdict v =
      run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("systemc"), cfg, &result), *ref);
  EXPECT_TRUE(v.passed) << v.summary();
  std::printf("%-16s %-12s %9llu cycles on four cores  IPC %.3f\n", m.name.c_str(), m.runs[c.run].name.c_str(),
              static_cast<unsigned long long>(result.run.cycles), result.run.stats.ipc());
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleOnSystemC, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) { return info.param.label; });

}  // namespace
