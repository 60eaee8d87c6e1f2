// rtl_system: the Verilated RTL of umbra_system, verilated as a plain C++ model, and the
// RTL's monitor: at every rising edge it turns the model's trace and port outputs into
// the contract's events of the cycle that edge ends (CycleSample, core_monitor.h).  The
// stepping is plain C++ (RtlStepper), which the RTL-only bench drives without the
// SystemC kernel (cosim_run.cpp, run_rtl); rtl_system puts it behind a SystemC module
// with the SystemC model's ports (harness::bind_system wires either) for the
// cosimulation, which has the SystemC model in the same clock.
//
// Why not Verilator's own SystemC wrapper: that one is a method sensitive to the clock's
// both edges and to every input, which copies every port through an sc_signal at each
// evaluation, and the 30 trace ports went through signals again to reach the monitor.
// Here one method steps the model, reading and writing only the ports other modules use,
// and the monitor reads the trace outputs straight from the model:
//   - at a rising edge it samples the cycle that ends, then raises the model's clock and
//     evaluates it (the registers take the inputs of the cycle that ended), and drives
//     the outputs that evaluation settled;
//   - at any input change it applies the inputs, evaluates the combinational logic and
//     drives the outputs.
// Inputs change only in the delta cycles after a rising edge or after an output of this
// model changes (a memory's ready may follow the request combinationally), so the method
// has run on every change before the next rising edge: at that edge the model holds the
// ending cycle as it was, which is what a method on the edge would read from signals.
//
// The falling edge: the RTL has no logic on it, and the model's evaluation there would
// only recompute, from unchanged inputs, its input-driven logic (Verilator evaluates that
// region at every eval()).  So, without a waveform, the method does not run at the
// falling edge at all: after the rising edge's evaluation the model's clock is lowered at
// once, and Verilator's record of the clock's last value with it (a generated member,
// found by name; with a Verilator that names it otherwise the model is evaluated once
// more instead, at the same cost as before).  The model's own clock is then low through
// the cycle's settles, which changes nothing since no logic reads the clock as data.
// With a waveform (waveform = true) the model's clock follows the bench's and is
// evaluated at both edges, so that the dump shows it.
//
// The rising edge's evaluation, without a waveform, runs only the model's clocked
// region: the input-driven region, which Verilator 5.006's eval() runs first at every
// call, was already settled on these very inputs (rtl_system.cpp, eval_rising_edge).
#pragma once
#include <systemc.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "core_monitor.h"

class Vumbra_system;

namespace umbra::cosim {

class RtlStepper {
 public:
  using Callback = std::function<void(const CycleSample&)>;
  // on_cycle gets every cycle from the first one after reset, as core_monitor gives the
  // SystemC side's.  waveform: the model will be traced (its clock must follow the
  // bench's, see above).
  RtlStepper(const char* name, Callback on_cycle, bool waveform);
  ~RtlStepper();

  // The model, whose inputs the bench sets before settle() (and whose waveform it
  // traces: model().trace(...)).
  Vumbra_system& model() { return *model_; }
  const Vumbra_system& model() const { return *model_; }
  // The rising edge: samples the cycle it ends (on_cycle), then the registers take the
  // inputs the model holds.  Without a waveform the outputs are settled after it and
  // the model's clock is low again; with one, the clock stays high until fall().
  void rise();
  // The inputs changed: evaluates the logic they drive.
  void settle();
  // With a waveform: the falling edge.
  void fall();
  // The last cycle given to on_cycle (its fault cause, its protocol error).
  const CycleSample& last_sample() const { return s_; }

 private:
  void sample();

  std::unique_ptr<Vumbra_system> model_;
  Callback on_cycle_;
  bool waveform_;
  bool started_ = false;
  bool settled_ = false;  // the model has been evaluated on its inputs once (its initial settle)
  uint64_t next_ = 0;
  CycleSample s_;  // the last cycle sampled
};

SC_MODULE(rtl_system) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> bypass_queue;
  sc_in<bool> host_imem_we;
  sc_in<uint32_t> host_imem_addr, host_imem_data;
  sc_in<bool> launch_valid;
  sc_in<uint32_t> launch_count, launch_entry, ncore;
  sc_out<bool> busy, fault;
  sc_out<uint32_t> fault_thread, fault_pc;
  sc_out<bool> mem_req_valid;
  sc_in<bool> mem_req_ready;
  sc_out<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  sc_in<bool> mem_resp_valid;
  sc_in<uint32_t> mem_resp_data, mem_resp_tag;

  using Callback = RtlStepper::Callback;
  SC_HAS_PROCESS(rtl_system);
  rtl_system(sc_module_name name, Callback on_cycle, bool waveform = false);

  const CycleSample& last_sample() const {
    return rtl_.last_sample();
  }
  Vumbra_system& model() {
    return rtl_.model();
  }

 private:
  void step();
  void settle();
  void drive_outputs();

  RtlStepper rtl_;
  bool waveform_;
  // The outputs as last written (scm::drive): most settles change none of them.
  struct Driven {
    bool busy = false, fault = false, mem_req_valid = false;
    uint32_t fault_thread = 0, fault_pc = 0;
    uint32_t mem_req_op = 0, mem_req_addr = 0, mem_req_data = 0, mem_req_cmp = 0, mem_req_tag = 0;
  } driven_;
};

}  // namespace umbra::cosim
