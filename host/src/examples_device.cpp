// judge and run_commands (umbra/examples_device.h): a manifest's command run on any
// device, and the verdict on any run's result.
#include "umbra/examples_device.h"

#include "umbra/command_file.h"

namespace umbra::examples {

ModelOutcome judge(const models::Result& r) {
  ModelOutcome out;
  out.instructions = r.instructions;
  const auto exited = umbra::RunResult::Status::Exited;
  const bool two_sides = r.compared;
  out.all_exited = r.run.status == exited && (!two_sides || r.other.status == exited);
  if (!out.all_exited)
    out.fault = two_sides ? "rtl: " + r.run.message + "; systemc: " + r.other.message : r.run.message;
  if (!r.agreed) out.fault += (out.fault.empty() ? "" : "\n") + r.summary;
  return out;
}

ModelOutcome run_commands(host::Device& dev, const ModelJob& job, models::Result* last) {
  const host::ProgramImage img = dev.load(*job.program, job.source);
  for (const auto& [addr, words] : job.writes) dev.write(addr, words);
  dev.submit(host::parse_commands(job.commands, job.manifest, *job.program, img));
  const models::Result& r = dev.wait();
  if (last) *last = r;
  ModelOutcome out = judge(r);
  for (const Span& s : job.reads) {
    std::vector<uint32_t> words;
    try {
      words = dev.read(s.address, s.words);
    } catch (const host::DeviceError&) {
      out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                   " lies outside device memory";
    }
    out.reads.push_back(std::move(words));
  }
  return out;
}

}  // namespace umbra::examples
