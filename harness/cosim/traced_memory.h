// traced_memory: an RTL memory behind the cosimulation's RTL port (rtl_sdram.h: the
// Verilated SDRAM controller) in the RTL side's waveform.  Its model is traced into
// the same file as umbra_system, so a reader sees the controller's pins and state
// beside the port they serve, and its clock follows the system's in the dump.
#pragma once

class VerilatedVcdC;

namespace umbra::cosim {

class TracedMemory {
 public:
  virtual ~TracedMemory() = default;
  // Adds the memory's model to `vcd` (before the file is opened).
  virtual void trace(VerilatedVcdC& vcd) = 0;
  // The falling edge of a dumped cycle (its clock low for the dump's second half).
  virtual void fall() = 0;
};

}  // namespace umbra::cosim
