// rtl_system: the Verilated RTL of umbra_system, verilated as a plain C++ model, and the
// RTL's monitor: at every rising edge it turns the model's trace and port outputs into
// the contract's events of the cycle that edge ends (CycleSample, core_monitor.h).
// RtlStepper steps the model; RtlSide adds the memory behind its port, one side of the
// kernel-free benches of run_rtl and run_cosim (cosim_run.cpp).
//
// Why not Verilator's own SystemC wrapper (and why no SystemC kernel at all): that one
// is a method sensitive to the clock's both edges and to every input, which copies
// every port through an sc_signal at each evaluation.  Here the bench steps the model,
// setting only the inputs that changed, and the monitor reads the trace outputs
// straight from the model:
//   - at a rising edge it samples the cycle that ends, then raises the model's clock and
//     evaluates it (the registers take the inputs of the cycle that ended);
//   - when inputs changed after the edge, it evaluates the logic they drive.
// At the next rising edge the model therefore holds the ending cycle as it was, which
// is what a method on the edge would read from signals.
//
// The falling edge: the RTL has no logic on it, and the model's evaluation there would
// only recompute, from unchanged inputs, its input-driven logic (Verilator evaluates that
// region at every eval()).  So, without a waveform, there is no falling edge at all:
// after the rising edge's evaluation the model's clock is lowered at once, and
// Verilator's record of the clock's last value with it (a generated member, found by
// name; with a Verilator that names it otherwise the model is evaluated once more
// instead).  The model's own clock is then low through the cycle's settles, which
// changes nothing since no logic reads the clock as data.  With a waveform (waveform =
// true) the model's clock follows the bench's and is evaluated at both edges, so that
// the dump shows it.
//
// The rising edge's evaluation, without a waveform, runs only the model's clocked
// region: the input-driven region, which Verilator 5.006's eval() runs first at every
// call, was already settled on these very inputs (rtl_system.cpp, eval_rising_edge).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core_monitor.h"
#include "system_side.h"

class Vumbra_system;
class VerilatedVcdC;

namespace umbra::cosim {

class RtlStepper {
 public:
  using Callback = std::function<void(const CycleSample&)>;
  // on_cycle gets every cycle from the first one after reset, one sample a core in core
  // order, as the core_monitors give the SystemC side's.  waveform: the model will be
  // traced (its clock must follow the bench's, see above).
  RtlStepper(const char* name, unsigned cores, Callback on_cycle, bool waveform);
  ~RtlStepper();

  // The model, whose inputs the bench sets before settle().
  Vumbra_system& model() { return *model_; }
  const Vumbra_system& model() const { return *model_; }
  // The command processor's fault outputs, named as its ports (cmd_fault 0: none).
  // These and trace() are all the runner (cosim_run.cpp) needs of the model itself, so
  // that it is compiled once for every configuration and only this file's .cpp sees
  // Vumbra_system.h.
  uint32_t cmd_fault() const;
  uint32_t cmd_fault_addr() const;
  // Hands the model's signals to vcd (levels deep); false when the model was verilated
  // without tracing (NO_WAVES, harness/cosim/CMakeLists.txt).
  bool trace(VerilatedVcdC& vcd, int levels);
  // The rising edge: samples the cycle it ends (on_cycle), then the registers take the
  // inputs the model holds.  Without a waveform the outputs are settled after it and
  // the model's clock is low again; with one, the clock stays high until fall().
  void rise();
  // The inputs changed: evaluates the logic they drive.
  void settle();
  // With a waveform: the falling edge.
  void fall();
  // The last cycle given to on_cycle for core c (its fault cause, its protocol error),
  // and whether some core's sample shows a protocol error.
  const CycleSample& last_sample(unsigned c) const { return samples_[c]; }
  // A thread's register as the RTL's register writes left it (0 if never written):
  // what the bench explains a fault with (the RTL's fault outputs name only its cause).
  uint32_t register_value(unsigned core, unsigned thread, unsigned reg) const {
    const auto it = registers_.find(core << 8 | thread);
    return it == registers_.end() || reg > 255 ? 0 : it->second[reg];
  }
  // A thread's last access in C2, {opcode, address}, from the RTL's cache events: as
  // dcache::last_access, what a fault of its line's fill is named by.
  std::optional<std::pair<uint32_t, uint32_t>> last_access(unsigned core, unsigned thread) const {
    const auto it = accesses_.find(core << 8 | thread);
    if (it == accesses_.end()) return std::nullopt;
    return it->second;
  }
  // The first cycle core c's fault output was high (0: never).
  uint64_t fault_cycle(unsigned c) const { return c < fault_cycle_.size() ? fault_cycle_[c] : 0; }
  bool protocol_error() const {
    for (const CycleSample& s : samples_)
      if (s.protocol_error) return true;
    return false;
  }

 private:
  void sample();

  std::unique_ptr<Vumbra_system> model_;
  Callback on_cycle_;
  bool waveform_;
  bool started_ = false;
  bool settled_ = false;  // the model has been evaluated on its inputs once (its initial settle)
  uint64_t next_ = 0;
  std::vector<CycleSample> samples_;                                   // the last cycle sampled, per core
  std::unordered_map<uint32_t, std::array<uint32_t, 256>> registers_;  // by core << 8 | thread
  std::vector<uint64_t> fault_cycle_;
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> accesses_;  // by core << 8 | thread
};

// The Verilated system and the memory behind its port: one side of a kernel-free bench
// (harness/system_side.h gives the steps and their order; SystemcSide is the SystemC
// model's).  The memory's ready may follow the request's op within a cycle, so a
// settle evaluates the model until the two agree, and only when an input changed.
// The factory of the RTL memory this library was built with (rtl_sdram::make for a
// `memory.model: sdram` configuration), or empty: the configuration's C++ model, as on
// the SystemC side.  Generated with verilated_params() (verilated_params.cpp.in).
scm::MemoryFactory rtl_memory_factory();

class RtlSide {
 public:
  // Throws std::invalid_argument for the memory's parameters or a host write.
  RtlSide(const Config& cfg, RtlStepper::Callback on_cycle, std::vector<umbra::HostWrite> writes,
          bool waveform, uint32_t ncore);

  harness::EdgeInputs before_edge() const;
  void edge(const harness::EdgeInputs& e);
  void after_edge(const harness::HostScript::Outputs& host);

  harness::memory_side memory;
  RtlStepper rtl;

 private:
  bool apply_inputs(const harness::HostScript::Outputs& h);  // whether any input changed
  void settle(bool changed);
};

}  // namespace umbra::cosim
