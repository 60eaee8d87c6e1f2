// check_cosim (randcheck.h): a random program under the cosimulation (the Verilated
// RTL and the SystemC model in lockstep, both checked against the reference simulator
// by run_cosim), plus the final memory against the generator's own ISS run.
#include "randcheck.h"
#include "umbra/cosim_run.h"

namespace umbra::randprog {

SeedResult check_cosim(const Config& cfg, const Options& opts, const std::string& config_path) {
  SeedResult r;
  r.seed = opts.seed;
  r.model = "cosim";
  r.repro = "umbra-randprog --seed " + std::to_string(opts.seed) + " --length " +
            std::to_string(opts.length) + (config_path.empty() ? "" : " --config " + config_path) +
            " --run cosim";
  Generated g;
  try {
    g = generate(cfg, opts);
  } catch (const GenError& e) {
    r.detail = std::string("generator: ") + e.what();
    return r;
  }
  r.iss_instructions = g.iss_instructions;
  cosim::Options co;
  co.repro = "umbra-randprog --seed " + std::to_string(opts.seed) + " --length " +
             std::to_string(opts.length) + (config_path.empty() ? "" : " --config " + config_path) +
             " -o prog.s && umbra-cosim prog.s";
  co.program_name = "seed" + std::to_string(opts.seed) + ".s";
  cosim::CosimResult res;
  try {
    res = cosim::run_cosim(g.program, cfg, cfg.threads, cycle_budget(cfg, g.iss_instructions), co);
  } catch (const cosim::RunError& e) {
    r.detail = std::string("the run could not be made: ") + e.what();
    return r;
  }
  r.cycles = res.systemc.cycles;
  if (res.passed() && res.events_compared == 0) {
    r.detail = "the cosimulation compared no events";
    return r;
  }
  if (!res.passed()) {
    r.detail = res.summary();
    return r;
  }
  for (const auto* side : {&res.systemc, &res.rtl}) {
    const char* name = side == &res.systemc ? "systemc" : "rtl";
    if (side->status != cosim::RunResult::Status::Exited) {
      r.detail = std::string(name) + " " + scm::status_name(side->status) + ": " + side->message;
      return r;
    }
    const auto diffs = memory_differences(g.iss_memory, side->memory, layout_for(cfg), cfg.threads);
    if (!diffs.empty()) {
      r.detail = std::string(name) + " final memory differs from the reference simulator's:";
      for (const auto& d : diffs) r.detail += "\n    " + d;
      return r;
    }
  }
  r.passed = true;
  return r;
}

}  // namespace umbra::randprog
