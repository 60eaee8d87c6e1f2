// rtl_sdram: the memory `memory.model: sdram` on the cosimulation's RTL side —
// rtl/sdram_controller.v, Verilated with the configuration's parameters (the key ->
// parameter table's sdram_controller rows), driving the SDRAM chip's cycle model
// (systemc/memory/sdram_chip.h) through its pins, as the ULX3S board does.  The
// SystemC side has the controller's C++ cycle model behind its port (the memory model
// `sdram`), so a cosimulation with this memory holds the RTL controller and its model
// together cycle by cycle inside the whole system: every example, directed and random
// program's traffic, not only the controller bench's requests.
//
// The chip is the configuration's part: sdram.* are its datasheet times, the
// controller's columns and banks its geometry; it judges every command, and a
// violation ends the run with an error naming the cycle and the rule.  The RTL's one
// fault bit is checked against the refusal the controller's model names for the same
// request (SdramController::refusal), which is what the run reports.
//
// Stepped only without the SystemC kernel (RtlSide, rtl_system.h): it has no process,
// its ports are bound and never read.  A waveform of the RTL side has it too (its
// library is verilated with the system's tracing).  The edge, as on the board: the controller's
// registered pins are what the chip samples at the rising edge, and the chip's DQ
// after that edge is what the controller registers at the next one.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "memory_model.h"
#include "sdram_chip.h"
#include "sdram_controller.h"
#include "traced_memory.h"
#include "umbra/config.h"

class Vsdram_controller;

namespace umbra::cosim {

class rtl_sdram final : public scm::memory_model, public TracedMemory {
 public:
  // Throws std::invalid_argument for a configuration the controller cannot serve
  // (memory.bytes other than the chip's: the RTL refuses only addresses beyond it).
  rtl_sdram(sc_module_name name, const Config& cfg);
  ~rtl_sdram() override;

  // The factory the RTL side passes its memory_side (scm::MemoryFactory).
  static std::unique_ptr<scm::memory_model> make(sc_module_name name, const Config& cfg);

  void load(uint32_t addr, const std::vector<uint8_t>& bytes) override;
  void poke32(uint32_t addr, uint32_t value) override;
  // The chip's contents, gathered when asked (after a run; the chip holds them).
  const std::vector<uint8_t>& bytes() const override;
  const scm::MemFault& first_fault() const override { return fault_; }

  // Idle edges until the controller has stayed ready for four: its last WRITE is then
  // on the chip's pins and taken (its state is no port; ready is high only when idle
  // or finishing a request's last column).
  void drain() override;
  bool ready(uint32_t op) const override;
  void edge(bool rst, const Request& r) override;
  Response response() const override;

  const scm::SdramChip& chip() const { return chip_; }

  // In the RTL's waveform (traced_memory.h): the controller as `sdram_controller`.  The
  // edge leaves the controller's clock high; fall() lowers it, and the next edge
  // lowers it first in any case (the controller has no logic on the falling edge).
  void trace(VerilatedVcdC& vcd) override;
  void fall() override;

 private:
  // The chip's column holding byte `addr`, by the controller's address map.
  void locate(uint32_t addr, unsigned& bank, unsigned& row, unsigned& col) const;

  scm::SdramControllerParams p_;
  uint32_t bytes_;
  std::unique_ptr<Vsdram_controller> dut_;
  scm::SdramChip chip_;
  scm::MemFault fault_;
  uint64_t now_ = 0;  // edges since the model was built, as the SystemC side's model counts them
  mutable std::vector<uint8_t> image_;
};

}  // namespace umbra::cosim
