// umbra-examples: runs every example (or the named ones) on a model and checks each
// run against its reference, printing one line per run with its instruction count.
// It is the same harness the examples_test GoogleTest uses, as a command so that a
// model under development can be pointed at all the examples at once:
//     umbra-examples [--model iss|systemc|rtl|cosim] [--config configs/x.yaml] [--dir examples] [name...]
// Exit status 0 when every run passed, 1 when one failed, 2 on bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <set>

#include "harness.h"
#include "reference.h"
#include "umbra/examples_model.h"
#include "umbra/output_file.h"

#ifndef UMBRA_EXAMPLES_DIR
#define UMBRA_EXAMPLES_DIR "examples"
#endif

int main(int argc, char** argv) {
  using namespace umbra::examples;
  CLI::App app{"Run the Umbra example programs on a model and check their results"};
  std::string model_name = "iss", config_path, dir = UMBRA_EXAMPLES_DIR;
  std::vector<std::string> names;
  app.add_option("--model", model_name, "model to run on (models/: iss, systemc, rtl, cosim)")
      ->check(CLI::IsMember(umbra::models::names()))
      ->capture_default_str();
  app.add_option("--config", config_path, "machine configuration (configs/*.yaml)");
  app.add_option("--dir", dir, "directory holding the examples and their manifests");
  app.add_option("names", names, "examples to run (default: all)");
  umbra::check_stdout_at_exit("umbra-examples");  // its output is standard output
  CLI11_PARSE(app, argc, argv);

  Model model;
  umbra::Config cfg;
  try {
    if (!config_path.empty()) cfg = umbra::load_config(config_path);
    model = harness_model(umbra::models::find(model_name), cfg);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }

  const std::set<std::string> wanted(names.begin(), names.end());
  unsigned passed = 0, failed = 0, skipped = 0;
  std::set<std::string> seen;
  for (const auto& path : find_manifests(dir)) {
    try {
      const Manifest m = load_manifest(path);
      if (!wanted.empty() && !wanted.count(m.name)) continue;
      seen.insert(m.name);
      const Reference* ref = find_reference(m.name);
      if (!ref) throw std::runtime_error(path + ": no reference named '" + m.name + "'");
      if (const std::string absent = absent_group(m, cfg); !absent.empty()) {
        std::printf("%-18s skipped: %s\n", m.name.c_str(), absent.c_str());
        ++skipped;
        continue;
      }
      const umbra::Program p = assemble(m);
      for (const auto& run : m.runs) {
        const Verdict v = run_and_check(m, run, p, model, *ref);
        std::printf("%-18s %-22s %10llu instructions  %s\n", m.name.c_str(), run.name.c_str(),
                    static_cast<unsigned long long>(v.instructions), v.passed ? "ok" : "FAILED");
        if (!v.passed) std::fputs(v.summary().c_str(), stdout);
        ++(v.passed ? passed : failed);
      }
    } catch (const std::exception& e) {
      std::printf("%s: %s\n", path.c_str(), e.what());
      ++failed;
    }
  }
  for (const auto& n : wanted)
    if (!seen.count(n)) {
      std::printf("%s: no such example in %s\n", n.c_str(), dir.c_str());
      ++failed;
    }
  std::printf("%u passed, %u failed", passed, failed);
  if (skipped) std::printf(", %u examples skipped (an extension group the configuration lacks)", skipped);
  std::printf("\n");
  return failed ? 1 : 0;
}
