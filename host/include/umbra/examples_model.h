// Any model of the registry (umbra/models.h) as a model of the examples' harness
// (examples/harness.h), so the example manifests and their C++ references check every
// model alike: the job's program, threads, inputs and budget go to the model's run
// function, and the checked regions are read back from its final memory — here, once,
// for every model.  A run the manifest gives as `commands` goes through the host API
// (umbra/device.h) as a program drives the machine: the program loaded into device
// memory, the list made a command buffer (umbra/command_file.h), the doorbell rung --
// examples::run_commands (umbra/examples_device.h), which umbra-load shares on a board.
// A run the model cannot make, a model that does not run every thread to `exit`, a
// command the command processor refuses, and a comparing model whose sides (or the
// ISS) disagree are the run's fault, with the model's message, so one bad case does
// not abort a sweep.
#pragma once
#include <functional>

#include "harness.h"
#include "umbra/config.h"
#include "umbra/models.h"

namespace umbra::examples {

using RunFunction = std::function<models::Result(const Config&, const models::Job&)>;

// `last` (optional) receives each run's result (cycles, statistics, speed).
Model harness_model(const Config& cfg, RunFunction run, models::Result* last = nullptr);
inline Model harness_model(const models::Model& m, const Config& cfg = Config{},
                           models::Result* last = nullptr) {
  return harness_model(cfg, m.run, last);
}

}  // namespace umbra::examples
