// SystemC adapter for the example harness (examples_model.h).  Like the ISS adapter,
// a run the model cannot make is reported as the run's fault rather than thrown, so
// one bad case does not abort a sweep.
#include "examples_model.h"

namespace umbra::examples {

uint64_t systemc_cycle_budget(const Config& cfg, uint64_t max_instructions) {
  const uint64_t t = cfg.threads;
  const uint64_t rounds_per_instruction = 1 + (cfg.mem_latency + t - 1) / t;
  return (max_instructions + 1) * t * rounds_per_instruction + 64;
}

Model systemc_model(const Config& cfg, scm::RunResult* last) {
  return [cfg, last](const ModelJob& job) {
    ModelOutcome out;
    try {
      scm::RunOptions opts;
      opts.writes = job.writes;
      const scm::RunResult r = scm::run_systemc(
          *job.program, cfg, job.threads, systemc_cycle_budget(cfg, job.max_instructions), nullptr, opts);
      if (last) *last = r;
      out.instructions = r.stats.total_issued();
      out.all_exited = r.status == scm::RunResult::Status::Exited;
      if (!out.all_exited) out.fault = r.message;
      for (const Span& s : job.reads) {
        std::vector<uint32_t> words;
        for (uint32_t i = 0; i < s.words; ++i) {
          const uint64_t a = uint64_t(s.address) + 4 * i;
          if (a + 4 > r.memory.size()) {
            out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                         " lies outside data memory";
            break;
          }
          words.push_back(uint32_t(r.memory[a]) | uint32_t(r.memory[a + 1]) << 8 |
                          uint32_t(r.memory[a + 2]) << 16 | uint32_t(r.memory[a + 3]) << 24);
        }
        out.reads.push_back(std::move(words));
      }
    } catch (const std::exception& e) {
      out.fault = e.what();
    }
    return out;
  };
}

}  // namespace umbra::examples
