// Every example, every run its manifest lists, on the reference simulator: the program
// must assemble, every thread must exit without a fault within the instruction budget,
// and every checked word must equal the independent C++ reference (reference.cpp).
// Also: every example program has a manifest and a reference, and the demo command
// line the README uses (umbra-sim --dump-mem) writes the reference image.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "umbra/examples_model.h"
#include "harness.h"
#include "reference.h"

namespace fs = std::filesystem;
using namespace umbra::examples;

namespace {

struct Case {
  std::string manifest;  // path
  std::string name;      // example name
  size_t run = 0;        // index into Manifest::runs; npos: the manifest did not load
  std::string label;     // test name suffix
};

// GoogleTest prints parameters; without this it dumps Case's raw bytes, padding and all.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.label;
}

std::string sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& path : find_manifests(UMBRA_EXAMPLES_DIR)) {
    const std::string stem = fs::path(path).stem().string();
    try {
      const Manifest m = load_manifest(path);
      for (size_t i = 0; i < m.runs.size(); ++i)
        cases.push_back({path, m.name, i, sanitize(m.name + "_" + m.runs[i].name)});
    } catch (const std::exception&) {
      cases.push_back({path, stem, std::string::npos, sanitize(stem + "_manifest")});
    }
  }
  return cases;
}

class ExampleOnIss : public ::testing::TestWithParam<Case> {};

TEST_P(ExampleOnIss, MatchesReference) {
  const Case& c = GetParam();
  const Manifest m = load_manifest(c.manifest);  // throws (and fails) if broken
  ASSERT_NE(c.run, std::string::npos);
  const Reference* ref = find_reference(m.name);
  ASSERT_NE(ref, nullptr) << "no reference for " << m.name;
  const umbra::Program p = assemble(m);
  const Verdict v = run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("iss")), *ref);
  EXPECT_TRUE(v.passed) << v.summary();
  RecordProperty("instructions", std::to_string(v.instructions));
  std::printf("%s (%s): %llu instructions on the ISS\n", m.name.c_str(), m.runs[c.run].name.c_str(),
              static_cast<unsigned long long>(v.instructions));
}

// The same run on eight cores: a thread launch starts the run's threads on every core,
// launch indices over all of them, so an example must be right for eight times the
// threads, and the harness must check it as that many (umbra-cosim --example and
// umbra-load --example on a many-core machine rely on both).
TEST_P(ExampleOnIss, MatchesReferenceOnEightCores) {
  const Case& c = GetParam();
  const Manifest m = load_manifest(c.manifest);
  ASSERT_NE(c.run, std::string::npos);
  const Reference* ref = find_reference(m.name);
  ASSERT_NE(ref, nullptr) << "no reference for " << m.name;
  const umbra::Program p = assemble(m);
  umbra::Config cfg;
  cfg.cores = 8;
  const Verdict v = run_and_check(m, m.runs[c.run], p, harness_model(umbra::models::find("iss"), cfg), *ref);
  EXPECT_TRUE(v.passed) << v.summary();
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleOnIss, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.label; });

TEST(ExamplesInventory, EveryProgramHasAManifestAndEveryManifestAReference) {
  std::set<std::string> programs, manifests;
  for (const auto& e : fs::directory_iterator(UMBRA_EXAMPLES_DIR))
    if (e.path().extension() == ".s") programs.insert(e.path().stem().string());
  for (const auto& path : find_manifests(UMBRA_EXAMPLES_DIR)) {
    const Manifest m = load_manifest(path);
    EXPECT_EQ(m.name, fs::path(path).stem().string()) << path << ": name differs from the file name";
    EXPECT_TRUE(fs::exists(m.source)) << path << ": source " << m.source << " missing";
    EXPECT_NE(find_reference(m.name), nullptr) << path << ": no reference";
    manifests.insert(m.name);
  }
  for (const auto& p : programs) EXPECT_TRUE(manifests.count(p)) << p << ".s has no manifest";
  for (const auto& r : reference_names())
    EXPECT_TRUE(manifests.count(r)) << r << ": reference without manifest";
  EXPECT_GE(programs.size(), 10u);
}

// The README demo: `umbra-sim --model iss --threads 8 examples/mandelbrot.s
// --dump-mem $(cat examples/mandelbrot.demo-args)` must write exactly the reference
// framebuffer to the file the arguments name (umbra-sim's dump text: an address, a
// colon, then up to eight hex words per line).
TEST(Demo, UmbraSimDumpsTheMandelbrotImage) {
  std::ifstream args_file(std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot.demo-args");
  ASSERT_TRUE(args_file) << "examples/mandelbrot.demo-args missing";
  std::string spec;
  args_file >> spec;  // START:LENGTH:FILE
  const auto c1 = spec.find(':'), c2 = spec.find(':', c1 + 1);
  ASSERT_NE(c2, std::string::npos) << spec;
  const std::string start = spec.substr(0, c1);
  const uint32_t length = uint32_t(std::stoul(spec.substr(c1 + 1, c2 - c1 - 1), nullptr, 0));

  const Manifest m = load_manifest(std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot.yaml");
  const umbra::Program p = assemble(m);
  const uint32_t fb = p.symbol("fb").value_or(0);
  ASSERT_TRUE(start == "fb" || std::stoul(start, nullptr, 0) == fb) << spec;
  const uint32_t W = Image(p, 1).at("params", 0), H = Image(p, 1).at("params", 1);
  ASSERT_EQ(length, W * H * 4) << "the dump must cover the whole image";

  const fs::path dir = fs::temp_directory_path() / ("umbra_demo_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path dump = dir / "mandelbrot.txt";
  const std::string cmd = std::string("\"") + UMBRA_SIM + "\" --model iss --threads 8 \"" +
                          UMBRA_EXAMPLES_DIR + "/mandelbrot.s\" --dump-mem " + start + ":" +
                          std::to_string(length) + ":\"" + dump.string() + "\" > \"" +
                          (dir / "out.txt").string() + "\" 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  Image expected(p, 8);
  (*find_reference("mandelbrot"))(expected);
  std::ifstream in(dump);
  std::string line;
  uint32_t words = 0, differing = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string addr_text, w;
    ls >> addr_text;
    ASSERT_EQ(addr_text.back(), ':') << line;
    uint32_t addr = uint32_t(std::stoul(addr_text, nullptr, 16));
    ASSERT_EQ(addr, fb + 4 * words) << line;
    for (; ls >> w; addr += 4, ++words)
      differing += uint32_t(std::stoul(w, nullptr, 16)) != expected.load(addr);
  }
  EXPECT_EQ(words, W * H);
  EXPECT_EQ(differing, 0u);
  fs::remove_all(dir);
}

}  // namespace
