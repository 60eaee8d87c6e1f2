// sdram: the memory model `memory.model: sdram` (memory_model.h), the ULX3S's SDRAM
// behind rtl/sdram_controller.v as the SystemC side sees it: SdramController
// (sdram_controller.h), the controller's cycle model with the data, behind the
// port.  Cycle for cycle what the RTL controller and the chip do together
// (testbench/sdram/sdram_model_test), so that the cosimulation can have the RTL
// controller on one side and this on the other.  Its timings are the configuration's
// sdram.* datasheet times (the MT48LC16M16A2-6A's by default), rounded to clocks at the
// board's clock as fpga/ulx3s_system.v rounds them (SdramControllerParams::from); its
// banks and columns are dram.banks and dram.row_bytes, its line the cache's.
#pragma once
#include <systemc.h>

#include "memory_model.h"
#include "sdram_controller.h"

namespace umbra::scm {

class sdram final : public memory_model {
 public:
  SC_HAS_PROCESS(sdram);
  sdram(sc_module_name name, const SdramControllerParams& p, uint32_t bytes);

  void load(uint32_t addr, const std::vector<uint8_t>& bytes) override { model_.load(addr, bytes); }
  void poke32(uint32_t addr, uint32_t value) override { model_.poke32(addr, value); }
  const std::vector<uint8_t>& bytes() const override { return model_.bytes(); }
  const MemFault& first_fault() const override { return model_.first_fault(); }
  const SdramController& model() const { return model_; }
  void drain() override { model_.drain(); }

  bool ready(uint32_t) const override { return model_.dram_req_ready(); }
  void edge(bool rst, const Request& r) override;
  Response response() const override {
    return {model_.dram_resp_valid(), model_.dram_resp_data(), model_.dram_resp_tag(),
            model_.dram_resp_line()};
  }

 private:
  void tick();
  SdramController model_;
};

}  // namespace umbra::scm
