// RTL and cosimulation adapters for the example harness (cosim_examples.h).  The cycle
// budget is the SystemC adapter's, so all cycle models get the same room.
#include "cosim_examples.h"

#include "examples_model.h"  // systemc/: systemc_cycle_budget

namespace umbra::examples {

namespace {

void read_back(const std::vector<uint8_t>& mem, const ModelJob& job, ModelOutcome& out) {
  for (const Span& s : job.reads) {
    std::vector<uint32_t> words;
    for (uint32_t i = 0; i < s.words; ++i) {
      const uint64_t a = uint64_t(s.address) + 4 * i;
      if (a + 4 > mem.size()) {
        out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                     " lies outside data memory";
        break;
      }
      words.push_back(uint32_t(mem[a]) | uint32_t(mem[a + 1]) << 8 | uint32_t(mem[a + 2]) << 16 |
                      uint32_t(mem[a + 3]) << 24);
    }
    out.reads.push_back(std::move(words));
  }
}

}  // namespace

Model rtl_model(const Config& cfg, cosim::RunResult* last) {
  return [cfg, last](const ModelJob& job) {
    ModelOutcome out;
    try {
      cosim::Options opts;
      opts.writes = job.writes;
      const cosim::RunResult r = cosim::run_rtl(
          *job.program, cfg, job.threads, systemc_cycle_budget(cfg, job.max_instructions), nullptr, opts);
      if (last) *last = r;
      out.instructions = r.stats.total_issued();
      out.all_exited = r.status == cosim::RunResult::Status::Exited;
      if (!out.all_exited) out.fault = r.message;
      read_back(r.memory, job, out);
    } catch (const std::exception& e) {
      out.fault = e.what();
    }
    return out;
  };
}

Model cosim_model(const Config& cfg, const cosim::Options& base, cosim::CosimResult* last) {
  return [cfg, base, last](const ModelJob& job) {
    ModelOutcome out;
    try {
      cosim::Options opts = base;
      opts.writes = job.writes;
      const cosim::CosimResult r = cosim::run_cosim(*job.program, cfg, job.threads,
                                                    systemc_cycle_budget(cfg, job.max_instructions), opts);
      if (last) *last = r;
      out.instructions = r.rtl.stats.total_issued();
      out.all_exited = r.rtl.status == cosim::RunResult::Status::Exited &&
                       r.systemc.status == cosim::RunResult::Status::Exited;
      if (!out.all_exited) out.fault = "rtl: " + r.rtl.message + "; systemc: " + r.systemc.message;
      if (!r.passed()) out.fault += (out.fault.empty() ? "" : "\n") + r.summary();
      read_back(r.rtl.memory, job, out);
    } catch (const std::exception& e) {
      out.fault = e.what();
    }
    return out;
  };
}

}  // namespace umbra::examples
