// A model of the registry (umbra/models.h) as the host API's Backend (umbra/device.h):
// each run is one model run, which starts from fresh memory, so the backend keeps the
// device memory itself (the program's data image, the host's writes, what each run
// left) and hands a run every word that differs from the data image.  It links the
// registry and so the Verilated models: it is in umbra_host, not umbra_host_api.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "umbra/device.h"
#include "umbra/models.h"

namespace umbra::host {

// A model of the registry (iss, systemc, rtl, cosim), or any run function of its
// signature (umbra-cosim's, with its own options).
class ModelBackend final : public Backend {
 public:
  using RunFunction = std::function<models::Result(const Config&, const models::Job&)>;
  ModelBackend(const models::Model& model, const Config& cfg)
      : name_(model.name), run_(model.run), cfg_(cfg) {}
  ModelBackend(std::string name, RunFunction run, const Config& cfg)
      : name_(std::move(name)), run_(std::move(run)), cfg_(cfg) {}
  std::string name() const override { return name_; }
  uint32_t mem_bytes() const override { return cfg_.mem_bytes; }
  // The result's run.memory is the whole final memory, as the model returned it.
  models::Result run(const Submission& s, const RunOptions& o) override;
  std::vector<uint32_t> read(uint32_t addr, uint32_t n) override;

 private:
  std::string name_;
  RunFunction run_;
  Config cfg_;
  std::vector<uint8_t> base_;    // what a model run starts with: the data image, zeros elsewhere
  std::vector<uint8_t> memory_;  // device memory after the last run (empty before the first)
};

}  // namespace umbra::host
