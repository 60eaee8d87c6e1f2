// umbra-randprog: writes a constrained-random test program for a configuration
// (randprog.h), and optionally runs seeds on a cycle model against the reference
// simulator (randcheck.h).
//
//   umbra-randprog --seed 7 -o prog.s                      # the program, self-checked on the ISS
//   umbra-randprog --seed 7 --config configs/x.yaml --length 400 -o prog.s
//   umbra-randprog --seed 100 --count 50 --run systemc     # seeds 100..149 on SystemC
//   umbra-randprog --seed 100 --count 50 --run cosim       # the same under cosimulation
//
// Exit status: 0 when everything asked for passed; 1 when a seed failed or the program
// could not be generated or written; 2 for a bad configuration; CLI11's codes for
// usage errors.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "randcheck.h"
#include "randprog.h"
#include "umbra/cli_numbers.h"
#include "umbra/models.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"

int main(int argc, char** argv) {
  CLI::App app{"umbra-randprog: constrained-random test programs for the Umbra memory system"};
  uint64_t seed = 1;
  unsigned length = 0, count = 1;
  std::string config_path, output, run = "iss";
  umbra::add_number(app, "--seed", seed, "the seed (the first of --count seeds)", 0, UINT64_MAX)->required();
  app.add_option("--config", config_path,
                 "machine configuration (configs/*.yaml); default: the built-in one");
  umbra::add_number(app, "--length", length,
                    "statements in the program body (default 200, or what a small instruction store holds: "
                    "core.imem_words / 4)",
                    1, 100000);
  app.add_option("-o,--output", output, "write the program here (default: stdout when --run is iss)");
  app.add_option("--run", run,
                 "iss: generate and self-check only; a cycle model (systemc, rtl, cosim): also run on it")
      ->check(CLI::IsMember(umbra::models::names()));
  umbra::add_number(app, "--count", count, "with --run MODEL: run this many consecutive seeds", 1, 1000000);
  umbra::check_stdout_at_exit("umbra-randprog");
  CLI11_PARSE(app, argc, argv);

  // -o may not be the configuration (umbra/output_files.h): refused before anything is
  // read or written.
  try {
    umbra::OutputFiles paths;
    paths.add_input(config_path, "the configuration");
    if (!output.empty() && output != "-") paths.add(output, "", "-o");
    paths.check();
  } catch (const umbra::OutputError& e) {
    std::cerr << "umbra-randprog: error: " << e.what() << "\n";
    return 1;
  }

  umbra::Config cfg;
  if (!config_path.empty()) {
    try {
      cfg = umbra::load_config(config_path);
    } catch (const umbra::ConfigError& e) {
      std::cerr << "umbra-randprog: " << e.what() << "\n";
      return 2;
    }
  }
  // About 2.7 words a statement: a quarter of the store leaves room for the prologue,
  // the epilogue and a long draw.
  if (!length) length = std::min(200u, cfg.imem_words / 4);
  umbra::randprog::Options opts;
  opts.length = length;

  const umbra::models::Model& model = umbra::models::find(run);
  // The generator runs every program on the reference simulator itself.
  if (!model.supports.cycles) {
    if (count != 1) {
      std::cerr << "umbra-randprog: --count needs --run with a cycle model (systemc, rtl, cosim)\n";
      return 1;
    }
    opts.seed = seed;
    umbra::randprog::Generated g;
    try {
      g = umbra::randprog::generate(cfg, opts);
    } catch (const umbra::randprog::GenError& e) {
      std::cerr << "umbra-randprog: " << e.what() << "\n";
      return 1;
    }
    try {
      if (output.empty() || output == "-") {
        std::cout << g.source;
        umbra::check_stdout();
      } else {
        umbra::write_output(output, "-o", g.source);
      }
    } catch (const umbra::OutputError& e) {
      std::cerr << "umbra-randprog: error: " << e.what() << "\n";
      return 1;
    }
    std::cerr << "seed " << seed << ": variant " << g.attempt << ", " << g.program.text.size()
              << " text words, " << g.iss_instructions << " instructions on the reference simulator\n";
    return 0;
  }

  if (!output.empty()) {
    if (count != 1) {
      std::cerr << "umbra-randprog: -o writes one program; drop it or --count\n";
      return 1;
    }
    opts.seed = seed;
    try {
      umbra::write_output(output, "-o", umbra::randprog::generate(cfg, opts).source);
    } catch (const std::exception& e) {
      std::cerr << "umbra-randprog: " << e.what() << "\n";
      return 1;
    }
  }
  unsigned failed = 0;
  for (unsigned i = 0; i < count; ++i) {
    opts.seed = seed + i;
    const umbra::randprog::SeedResult r = umbra::randprog::check_model(model, cfg, opts, config_path);
    std::cout << r.line() << std::endl;
    if (!r.passed) ++failed;
  }
  std::cout << run << ": " << count - failed << " of " << count << " seeds passed (seeds " << seed << ".."
            << seed + count - 1 << ", length " << length << ")" << std::endl;
  return failed ? 1 : 0;  // standard output is checked at exit (check_stdout_at_exit)
}
