// harness_model (umbra/examples_model.h): a model's run function as the examples'
// harness model; a `commands:` run goes through the host API's device on it
// (umbra/examples_device.h, the steps umbra-load takes on a board), any other run
// straight to the model, both judged alike.
#include "umbra/examples_model.h"

#include "umbra/examples_device.h"
#include "umbra/model_backend.h"

namespace umbra::examples {

Model harness_model(const Config& cfg, RunFunction run, models::Result* last) {
  Model model;
  model.cores = cfg.cores;
  model.run = [cfg, run = std::move(run), last](const ModelJob& job) {
    ModelOutcome out;
    try {
      if (job.commands.IsSequence()) {
        host::RunOptions o;
        o.max_instructions = job.max_instructions;
        host::Device dev(std::make_unique<host::ModelBackend>("model", run, cfg), cfg, o);
        return run_commands(dev, job, last);
      }
      models::Job j;
      j.program = job.program;
      j.source = job.source;
      j.domain = {job.domain_w, job.domain_h};
      j.threads = j.domain.launch() ? cfg.threads : job.threads;
      j.max_instructions = job.max_instructions;
      j.writes = job.writes;
      const models::Result r = run(cfg, j);
      if (last) *last = r;
      out = judge(r);
      for (const Span& s : job.reads) {
        std::vector<uint32_t> words;
        if (!models::read_words(r.run.memory, s.address, s.words, words))
          out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                       " lies outside data memory";
        out.reads.push_back(std::move(words));
      }
    } catch (const std::exception& e) {
      out = ModelOutcome{};
      out.fault = e.what();
    }
    return out;
  };
  return model;
}

}  // namespace umbra::examples
