// check_model (randcheck.h): a random program on any model of the registry, its final
// memory against the reference simulator's; a comparing model (the cosimulation) must
// also have compared events and agreed on both sides, each side's memory checked.
#include "randcheck.h"
#include "umbra/models.h"

namespace umbra::randprog {

SeedResult check_model(const models::Model& model, const Config& cfg, const Options& opts,
                       const std::string& config_path) {
  SeedResult r;
  r.seed = opts.seed;
  r.model = model.name;
  const std::string gen = "umbra-randprog --seed " + std::to_string(opts.seed) + " --length " +
                          std::to_string(opts.length) +
                          (config_path.empty() ? "" : " --config " + config_path);
  r.repro = gen + " --run " + model.name;
  Generated g;
  try {
    g = generate(cfg, opts);
  } catch (const GenError& e) {
    r.detail = std::string("generator: ") + e.what();
    return r;
  }
  r.iss_instructions = g.iss_instructions;
  models::Job job;
  job.program = &g.program;
  job.source = "seed" + std::to_string(opts.seed) + ".s";
  job.threads = cfg.threads;
  job.max_instructions = g.iss_instructions;
  job.max_cycles = cycle_budget(cfg, g.iss_instructions);
  job.repro = gen + " -o prog.s && umbra-sim --model " + model.name + " prog.s";
  models::Result res;
  try {
    res = model.run(cfg, job);
  } catch (const umbra::RunError& e) {
    r.detail = std::string("the run could not be made: ") + e.what();
    return r;
  }
  r.cycles = res.compared ? res.other.cycles : res.run.cycles;
  if (res.compared && res.agreed && res.events_compared == 0) {
    r.detail = "the cosimulation compared no events";
    return r;
  }
  if (!res.agreed) {
    r.detail = res.summary;
    return r;
  }
  std::vector<std::pair<const char*, const umbra::RunResult*>> sides = {{model.name.c_str(), &res.run}};
  if (res.compared) sides = {{"systemc", &res.other}, {"rtl", &res.run}};
  for (const auto& [name, side] : sides) {
    const std::string who = res.compared ? std::string(name) + " " : "";
    if (side->status != umbra::RunResult::Status::Exited) {
      r.detail = who + umbra::status_name(side->status) + ": " + side->message;
      return r;
    }
    const auto diffs = memory_differences(g.iss_memory, side->memory, layout_for(cfg), cfg.threads);
    if (!diffs.empty()) {
      r.detail = who + "final memory differs from the reference simulator's:";
      for (const auto& d : diffs) r.detail += "\n    " + d;
      return r;
    }
  }
  r.passed = true;
  return r;
}

}  // namespace umbra::randprog
