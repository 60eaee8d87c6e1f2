// ModelBackend (umbra/model_backend.h) and Device::open: the device memory a model's
// runs share, kept here because every model run starts from fresh memory.  A run is
// made from the memory's words that differ from what the model starts with anyway
// (the program's data image, zeros elsewhere), so a run of a small buffer on a large
// memory carries only the words the host wrote or an earlier run left.
#include "umbra/model_backend.h"

#include <algorithm>

namespace umbra::host {

namespace {

uint32_t peek(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

void poke(std::vector<uint8_t>& m, uint32_t a, uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) m[a + i] = uint8_t(v >> (8 * i));
}

}  // namespace

models::Result ModelBackend::run(const Submission& s, const RunOptions& o) {
  if (memory_.empty()) {
    // The first run: the program's data image (Device::load has checked it fits).
    base_.assign(cfg_.mem_bytes, 0);
    if (s.program && !s.program->data.empty())
      std::copy(s.program->data.begin(), s.program->data.end(), base_.begin() + s.program->data_base);
    memory_ = base_;
  }
  for (const auto& [addr, words] : s.writes)
    for (size_t i = 0; i < words.size(); ++i) poke(memory_, addr + uint32_t(4 * i), words[i]);
  models::Job job;
  job.program = s.program;
  job.source = s.source;
  job.threads = cfg_.threads;
  job.doorbell = s.doorbell;
  // The memory's words that differ from the data image, as contiguous spans.
  for (uint32_t a = 0; a + 4 <= memory_.size(); a += 4) {
    const uint32_t v = peek(memory_, a);
    if (v == peek(base_, a)) continue;
    if (job.writes.empty() || job.writes.back().first + 4 * job.writes.back().second.size() != a)
      job.writes.push_back({a, {}});
    job.writes.back().second.push_back(v);
  }
  job.max_instructions = o.max_instructions;
  job.max_cycles = o.max_cycles;
  job.sink = o.sink;
  job.isolation = o.isolation;
  job.vcd = o.vcd;
  job.fst = o.fst;
  job.waves = o.waves;
  job.repro = o.repro;
  models::Result r = run_(cfg_, job);
  // A model that returns no memory (or another size) leaves the memory as it started.
  if (r.run.memory.size() == memory_.size()) memory_ = r.run.memory;
  return r;
}

std::vector<uint32_t> ModelBackend::read(uint32_t addr, uint32_t n) {
  std::vector<uint32_t> out(n, 0);
  for (uint32_t i = 0; i < n; ++i)
    if (uint64_t(addr) + 4 * i + 4 <= memory_.size()) out[i] = peek(memory_, addr + 4 * i);
  return out;
}

Device Device::open(const std::string& model, const Config& cfg, RunOptions options) {
  return Device(std::make_unique<ModelBackend>(models::find(model), cfg), cfg, std::move(options));
}

}  // namespace umbra::host
