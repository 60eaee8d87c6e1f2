// The RTL and the cosimulation as models of the examples' harness (examples/harness.h),
// so the example manifests and their C++ references check them exactly as they check
// the ISS and the SystemC model.  Each job is one run in a child process.  A cosim job
// whose models disagree with each other or with the ISS is reported as a fault whose
// message is the mismatch report, so the harness fails it with the reason.
#pragma once
#include "harness.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"

namespace umbra::examples {

// `last` (optional) receives each run's result, for cycle counts and speed.
Model rtl_model(const Config& cfg = Config{}, cosim::RunResult* last = nullptr);
Model cosim_model(const Config& cfg = Config{}, const cosim::Options& base = {},
                  cosim::CosimResult* last = nullptr);

}  // namespace umbra::examples
