// host_driver: the host side of a run.  It holds reset for one clock edge, writes the
// program's text into the instruction store through the host port one word per cycle
// (cycle k writes word k), pulses launch_valid in the cycle after the last word (cycle
// L = number of words), or domain_valid for a domain launch, or doorbell_valid for a
// command buffer, then watches the core and stops the run at the first cycle after L
// in which `busy` is low, a fault output is high, the cycle budget is spent or an
// extra stop condition holds.  It drives only the core's input ports, so a
// cosimulation can fan its outputs out to the SystemC core and the Verilated RTL alike.
//
// The sequence is plain C++ (HostScript, stepped once per rising edge), which the
// runners' kernel-free benches step; host_driver is the same script as a clocked
// module that writes its outputs to ports and pauses the simulation (sc_pause) when it
// stops, for a bench under the SystemC kernel (bench.h).
#pragma once
#include <systemc.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "run_result.h"

namespace umbra::harness {

enum class StopReason : uint8_t { Running, Done, CoreFault, MemoryFault, CycleLimit, External };
const char* stop_reason_name(StopReason r);

class HostScript {
 public:
  struct Job {
    std::vector<uint32_t> text;
    uint32_t first_word = 0;  // instruction-store index of text[0]
    uint32_t entry = 0;
    uint32_t threads = 1;
    Domain domain;               // a domain launch instead of `threads` (run_result.h)
    Doorbell doorbell;           // a command buffer instead of either (run_result.h)
    uint64_t max_cycles = 0;     // busy cycles allowed after launch
    std::function<bool()> stop;  // optional, checked every cycle after launch
  };
  // The host's outputs (the core's host inputs): reset is high until the first edge.
  struct Outputs {
    bool rst = true, imem_we = false, launch_valid = false, domain_valid = false, doorbell_valid = false;
    uint32_t imem_addr = 0, imem_data = 0, launch_count = 0, launch_entry = 0, domain_w = 0, domain_h = 0,
             doorbell_addr = 0;
  };

  explicit HostScript(Job job) : job_(std::move(job)) {}

  // A rising edge, given the core's busy and fault and the memory's fault as they were in
  // the cycle it ends; sets the outputs of the next cycle.  Returns true at the edge
  // that stops the run (once).
  bool edge(bool busy, bool fault, bool mem_fault);
  const Outputs& outputs() const { return out_; }

  StopReason reason() const { return reason_; }
  uint64_t launch_cycle() const { return job_.text.size(); }
  // The cycle in which the stop condition was seen (for Done: the first cycle with
  // busy low); the core's clock had this value in that cycle.
  uint64_t end_cycle() const { return end_; }
  // Cycles with busy high: launch_cycle() + 1 .. end_cycle() - 1.
  uint64_t busy_cycles() const { return end_ - launch_cycle() - 1; }

 private:
  void present(uint64_t cycle);

  Job job_;
  Outputs out_;
  bool started_ = false;
  uint64_t next_ = 0;  // the cycle whose end the next clock edge is
  StopReason reason_ = StopReason::Running;
  uint64_t end_ = 0;
};

SC_MODULE(host_driver) {
  sc_in<bool> clk;
  sc_out<bool> rst;
  sc_out<bool> host_imem_we;
  sc_out<uint32_t> host_imem_addr;
  sc_out<uint32_t> host_imem_data;
  sc_out<bool> launch_valid;
  sc_out<uint32_t> launch_count;
  sc_out<uint32_t> launch_entry;
  sc_out<bool> domain_valid;
  sc_out<uint32_t> domain_w;
  sc_out<uint32_t> domain_h;
  sc_out<bool> doorbell_valid;
  sc_out<uint32_t> doorbell_addr;
  sc_in<bool> busy;
  sc_in<bool> fault;      // the core's
  sc_in<bool> mem_fault;  // the memory's (tie to a false signal if there is none)

  using Job = HostScript::Job;

  SC_HAS_PROCESS(host_driver);
  host_driver(sc_module_name name, Job job);

  const HostScript& script() const {
    return script_;
  }

 private:
  void tick();

  HostScript script_;
  HostScript::Outputs driven_;  // what the ports were last given (their initial values first)
};

}  // namespace umbra::harness
