// harness_model (umbra/examples_model.h).
#include "umbra/examples_model.h"

#include "umbra/command_file.h"
#include "umbra/device.h"

namespace umbra::examples {

namespace {

// A command run: the host API's device on the run function, the program loaded, the
// inputs written, the manifest's list as the buffer.
models::Result run_commands(const Config& cfg, const RunFunction& run, const ModelJob& job) {
  host::RunOptions o;
  o.max_instructions = job.max_instructions;
  host::Device dev(std::make_unique<host::ModelBackend>("model", run, cfg), cfg, o);
  const host::ProgramImage img = dev.load(*job.program, job.source);
  for (const auto& [addr, words] : job.writes) dev.write(addr, words);
  dev.submit(host::parse_commands(job.commands, job.manifest, *job.program, img));
  return dev.wait();
}

}  // namespace

Model harness_model(const Config& cfg, RunFunction run, models::Result* last) {
  return [cfg, run = std::move(run), last](const ModelJob& job) {
    ModelOutcome out;
    try {
      models::Result r;
      if (job.commands.IsSequence()) {
        r = run_commands(cfg, run, job);
      } else {
        models::Job j;
        j.program = job.program;
        j.source = job.source;
        j.domain = {job.domain_w, job.domain_h};
        j.threads = j.domain.launch() ? cfg.threads : job.threads;
        j.max_instructions = job.max_instructions;
        j.writes = job.writes;
        r = run(cfg, j);
      }
      if (last) *last = r;
      out.instructions = r.instructions;
      const auto exited = scm::RunResult::Status::Exited;
      const bool two_sides = r.compared;
      out.all_exited = r.run.status == exited && (!two_sides || r.other.status == exited);
      if (!out.all_exited)
        out.fault = two_sides ? "rtl: " + r.run.message + "; systemc: " + r.other.message : r.run.message;
      if (!r.agreed) out.fault += (out.fault.empty() ? "" : "\n") + r.summary;
      for (const Span& s : job.reads) {
        std::vector<uint32_t> words;
        if (!models::read_words(r.run.memory, s.address, s.words, words))
          out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                       " lies outside data memory";
        out.reads.push_back(std::move(words));
      }
    } catch (const std::exception& e) {
      out.fault = e.what();
    }
    return out;
  };
}

}  // namespace umbra::examples
