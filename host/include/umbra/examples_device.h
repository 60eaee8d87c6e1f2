// An example's run on the host API's device, whatever is behind it: the examples'
// harness (examples/harness.h) on a model (umbra/examples_model.h) and umbra-load on a
// board (fpga/host/board_device.h) make a manifest's `commands:` run and judge every
// run's result here, so the model and the board are held to the same steps and the
// same checks.  Model-free (umbra_host_api).
#pragma once
#include "harness.h"
#include "umbra/device.h"

namespace umbra::examples {

// A run as the harness sees it: every thread exited (and, for a comparing model,
// both sides did and agreed with the ISS), else the fault; the instruction count.
// The checked regions are the caller's to read.
ModelOutcome judge(const models::Result& r);

// A `commands:` run (job.commands, a sequence) as a program drives the machine: the
// program loaded into device memory, the inputs written, the manifest's list made a
// command buffer (umbra/command_file.h), submitted and waited for; then judged, and
// the checked regions read through Device::read (a region outside device memory is a
// fault naming it).  `last` (optional) receives the run's result.  A mistake in the
// list or a program that does not fit throws (host::CommandFileError,
// host::DeviceError), as does whatever the backend throws.
ModelOutcome run_commands(host::Device& dev, const ModelJob& job, models::Result* last = nullptr);

}  // namespace umbra::examples
