// The SDRAM memory model (sdram.h): SdramController behind the port, clocked by the
// kernel's rising edge or by a kernel-free bench through edge().
#include "sdram.h"

#include <algorithm>

#include "umbra/rtl_params.h"

namespace umbra::scm {

sdram::sdram(sc_module_name name, const SdramControllerParams& p, uint32_t bytes)
    : memory_model(name), model_(p, bytes) {
  mem_req_ready.initialize(false);
  mem_resp_valid.initialize(false);
  fault.initialize(false);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void sdram::edge(bool rst, const Request& r) {
  model_.clock(rst, {r.valid, r.op, r.addr, r.data, r.cmp, r.tag, r.mask, &r.line});
}

void sdram::tick() {
  const PortLine line = mem_req_line.read();
  edge(rst.read(), {mem_req_valid.read(), mem_req_op.read(), mem_req_addr.read(), mem_req_data.read(),
                    mem_req_cmp.read(), mem_req_tag.read(), mem_req_mask.read(), line});
  mem_req_ready.write(model_.dram_req_ready());
  mem_resp_valid.write(model_.dram_resp_valid());
  mem_resp_data.write(model_.dram_resp_data());
  mem_resp_tag.write(model_.dram_resp_tag());
  mem_resp_line.write(model_.dram_resp_line());
  fault.write(model_.first_fault().raised);
}

UMBRA_REGISTER_MEMORY_MODEL(
    sdram,
    "the ULX3S's SDR SDRAM behind rtl/sdram_controller.v's cycle model (sdram.*, dram.banks, dram.row_bytes)",
    [](sc_module_name n, const Config& c) -> std::unique_ptr<memory_model> {
      const SdramControllerParams p = SdramControllerParams::from(c, sdram_clock_mhz(c));
      return std::make_unique<sdram>(n, p, std::min<uint64_t>(c.mem_bytes, p.chip_bytes()));
    });

}  // namespace umbra::scm
