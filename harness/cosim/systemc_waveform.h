// The SystemC side's waveform in a cosimulation (BASE.systemc.vcd), written by the
// bench itself: the model runs without the SystemC kernel, and sc_trace needs the
// kernel's time steps.  It has the RTL's names and widths, each core's wires in the
// scope of the RTL's instance of that core in umbra_system, so that GTKWave shows both sides alike: the
// inter-block wires of the model's umbra_core (found by name in its object tree, so
// the model needs no hooks; r_inst as the RTL's r_word) and the system's ports.  SystemC
// pcs are byte addresses where the RTL's inside signals are word indices
// (testbench/cosim/README.md).  Times are picoseconds, 1000 a cycle, as in the RTL's
// file.  A cycle's text is held back until end_cycle() (wave_file.h) keeps or drops it,
// as the window and the size limit say.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "umbra_system.h"
#include "wave_file.h"

namespace umbra::cosim {

class SystemcWaveform final : public WaveFile {
 public:
  // Opens `path`; throws RunError when it cannot be written.
  SystemcWaveform(const std::string& path, const scm::umbra_system& sys, unsigned threads,
                  const umbra::WaveBounds& bounds = {});
  // Not closed (the run ended with an error first): closed quietly.
  ~SystemcWaveform();
  // Flushes and closes; a failed write or close is a RunError naming the file and the
  // reason, and the partial file is removed.
  void close();
  SystemcWaveform(const SystemcWaveform&) = delete;
  SystemcWaveform& operator=(const SystemcWaveform&) = delete;

  // The values at time t with the clock at `clk`: all of them the first time, then
  // those that changed.  Only for a cycle dumping() allows.
  void dump(uint64_t t, bool clk);
  uint64_t kept_bytes() const override { return kept_; }
  uint64_t pending_bytes() const override { return pending_.size(); }

 private:
  struct Signal {
    std::string scope;  // the core's scope ("" for the system's ports)
    std::string name;
    unsigned width;
    std::function<uint64_t()> value;
    std::string id;
    uint64_t last = 0;
  };
  void add(const std::string& name, unsigned width, std::function<uint64_t()> value);
  void write_value(const Signal& s, uint64_t v);
  void keep() override;
  void drop() override { pending_.clear(); }

  std::string path_;
  std::FILE* out_;
  std::string scope_;  // where add() puts a signal
  std::vector<Signal> signals_;
  bool clk_ = false;
  bool started_ = false;
  std::string pending_;  // the cycle being dumped
  uint64_t kept_ = 0;    // bytes written (the header included)
};

}  // namespace umbra::cosim
