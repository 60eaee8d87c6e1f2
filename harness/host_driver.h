// host_driver: the host side of a run, as a clocked testbench module.  It holds reset
// for one clock edge, writes the program's text into the instruction store through
// the host port one word per cycle (cycle k writes word k), pulses launch_valid in the
// cycle after the last word (cycle L = number of words), then watches the core and
// pauses the simulation (sc_pause) at the first cycle after L in which `busy` is low,
// a fault output is high, the cycle budget is spent or an extra stop condition holds.
// It drives only the core's input ports, so a cosimulation can fan its outputs out to
// the SystemC core and the Verilated RTL alike.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace umbra::scm {

enum class StopReason : uint8_t { Running, Done, CoreFault, MemoryFault, CycleLimit, External };
const char* stop_reason_name(StopReason r);

SC_MODULE(host_driver) {
  sc_in<bool> clk;
  sc_out<bool> rst;
  sc_out<bool> host_imem_we;
  sc_out<uint32_t> host_imem_addr;
  sc_out<uint32_t> host_imem_data;
  sc_out<bool> launch_valid;
  sc_out<uint32_t> launch_count;
  sc_out<uint32_t> launch_entry;
  sc_in<bool> busy;
  sc_in<bool> fault;      // the core's
  sc_in<bool> mem_fault;  // the memory's (tie to a false signal if there is none)

  struct Job {
    std::vector<uint32_t> text;
    uint32_t first_word = 0;  // instruction-store index of text[0]
    uint32_t entry = 0;
    uint32_t threads = 1;
    uint64_t max_cycles = 0;     // busy cycles allowed after launch
    std::function<bool()> stop;  // optional, checked every cycle after launch
  };

  SC_HAS_PROCESS(host_driver);
  host_driver(sc_module_name name, Job job);

  StopReason reason() const {
    return reason_;
  }
  uint64_t launch_cycle() const {
    return job_.text.size();
  }
  // The cycle in which the stop condition was seen (for Done: the first cycle with
  // busy low); the core's clock had this value in that cycle.
  uint64_t end_cycle() const {
    return end_;
  }
  // Cycles with busy high: launch_cycle() + 1 .. end_cycle() - 1.
  uint64_t busy_cycles() const {
    return end_ - launch_cycle() - 1;
  }

 private:
  void tick();
  void present(uint64_t cycle);
  void stop(StopReason r, uint64_t cycle);

  Job job_;
  bool started_ = false;
  uint64_t next_ = 0;  // the cycle whose end the next clock edge is
  StopReason reason_ = StopReason::Running;
  uint64_t end_ = 0;
};

}  // namespace umbra::scm
