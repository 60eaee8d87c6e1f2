// harness_model (examples_model.h).
#include "examples_model.h"

namespace umbra::examples {

Model harness_model(const Config& cfg, RunFunction run, models::Result* last) {
  return [cfg, run = std::move(run), last](const ModelJob& job) {
    ModelOutcome out;
    try {
      models::Job j;
      j.program = job.program;
      j.source = job.source;
      j.domain = {job.domain_w, job.domain_h};
      j.threads = j.domain.launch() ? cfg.threads : job.threads;
      j.max_instructions = job.max_instructions;
      j.writes = job.writes;
      const models::Result r = run(cfg, j);
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
