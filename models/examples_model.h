// The SystemC model as a model of the examples' harness (examples/harness.h), so the
// example manifests and their C++ references check the cycle-accurate model exactly
// as they check the reference simulator.  Each job is one run_systemc() in a child
// process.
#pragma once
#include "harness.h"
#include "umbra/config.h"
#include "umbra/systemc_run.h"

namespace umbra::examples {

// `last` (optional) receives the result of every run, for callers that also want the
// cycle counts and statistics (the harness itself knows only instructions).
Model systemc_model(const Config& cfg = Config{}, scm::RunResult* last = nullptr);

// The cycle budget given to a job with this instruction budget: every instruction
// issued in its own round of T slots, each load sleeping the longest the memory
// latency can make it, so a run that keeps within its instructions never hits it.
uint64_t systemc_cycle_budget(const Config& cfg, uint64_t max_instructions);

}  // namespace umbra::examples
