// ISS adapter for the example harness (iss_model.h).  A launch the simulator cannot
// make (a program or a thread count that does not fit the configuration) is reported
// as a fault of the run, not thrown, so one bad case does not abort a whole sweep.
#include "iss_model.h"

#include "umbra/iss.h"

namespace umbra::examples {

Model iss_model(const Config& cfg) {
  return [cfg](const ModelJob& job) {
    ModelOutcome out;
    try {
      iss::Simulator sim(cfg);
      sim.load(*job.program, job.source);
      auto& mem = sim.memory();
      for (const auto& [addr, words] : job.writes)
        for (size_t i = 0; i < words.size(); ++i) mem.store32(addr + uint32_t(4 * i), words[i]);
      const iss::RunResult r = sim.run(job.threads, job.max_instructions);
      out.instructions = r.retired;
      out.all_exited = r.all_exited();
      if (r.fault) out.fault = r.fault->message();
      for (const Span& s : job.reads) {
        std::vector<uint32_t> words;
        for (uint32_t i = 0; i < s.words; ++i) {
          const uint32_t a = s.address + 4 * i;
          if (!mem.in_range(a)) {
            out.fault += (out.fault.empty() ? "" : "; ") + std::string("checked region ") + s.label +
                         " lies outside data memory";
            break;
          }
          words.push_back(mem.peek32(a));
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
