// The reference simulator (sim/, umbra::iss) as a harness Model, so the examples'
// checks run on it.  The SystemC model, the RTL and the cosimulation each provide the
// same kind of callback and reuse the manifests and references unchanged.
#pragma once
#include "harness.h"
#include "umbra/config.h"

namespace umbra::examples {

// Each call builds a fresh simulator with this configuration, loads the program,
// applies the job's input words, runs job.threads threads and reads the regions back.
Model iss_model(const Config& cfg = Config{});

}  // namespace umbra::examples
