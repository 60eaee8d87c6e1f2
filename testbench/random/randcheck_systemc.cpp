// check_systemc (randcheck.h): a random program on the SystemC model, final memory
// against the reference simulator's.
#include "randcheck.h"
#include "umbra/systemc_run.h"

namespace umbra::randprog {

SeedResult check_systemc(const Config& cfg, const Options& opts, const std::string& config_path) {
  SeedResult r;
  r.seed = opts.seed;
  r.model = "systemc";
  r.repro = "umbra-randprog --seed " + std::to_string(opts.seed) + " --length " +
            std::to_string(opts.length) + (config_path.empty() ? "" : " --config " + config_path) +
            " --run systemc";
  Generated g;
  try {
    g = generate(cfg, opts);
  } catch (const GenError& e) {
    r.detail = std::string("generator: ") + e.what();
    return r;
  }
  r.iss_instructions = g.iss_instructions;
  scm::RunResult res;
  try {
    res = scm::run_systemc(g.program, cfg, cfg.threads, cycle_budget(cfg, g.iss_instructions));
  } catch (const scm::RunError& e) {
    r.detail = std::string("the run could not be made: ") + e.what();
    return r;
  }
  r.cycles = res.cycles;
  if (res.status != scm::RunResult::Status::Exited) {
    r.detail = std::string(scm::status_name(res.status)) + ": " + res.message;
    return r;
  }
  const auto diffs = memory_differences(g.iss_memory, res.memory, layout_for(cfg), cfg.threads);
  if (!diffs.empty()) {
    r.detail = "final memory differs from the reference simulator's:";
    for (const auto& d : diffs) r.detail += "\n    " + d;
    return r;
  }
  r.passed = true;
  return r;
}

}  // namespace umbra::randprog
