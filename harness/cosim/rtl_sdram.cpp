// The RTL SDRAM controller and the chip behind the cosimulation's RTL port (rtl_sdram.h).
#include "rtl_sdram.h"

#include <stdexcept>
#include <string>

#include "Vsdram_controller.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#include "run_result.h"
#include "umbra/rtl_params.h"
#include "verilated_line.h"

namespace umbra::cosim {

namespace {

// The chip the configuration describes: its sdram.* datasheet times (the part's
// retention, tRAS maximum and init refreshes stay the MT48LC16M16A2-6A's, which the
// configuration does not name), the controller's geometry, at the SDRAM's clock.
scm::SdramTiming chip_timing(const Config& c, const scm::SdramControllerParams& p) {
  scm::SdramPart part = scm::SdramPart::mt48lc16m16a2_6a();
  part.tRCD_ns = c.sdram_tRCD_ns;
  part.tRP_ns = c.sdram_tRP_ns;
  part.tRAS_ns = c.sdram_tRAS_ns;
  part.tRC_ns = c.sdram_tRC_ns;
  part.tRRD_ns = c.sdram_tRRD_ns;
  part.tWR_ns = c.sdram_tWR_ns;
  part.tRFC_ns = c.sdram_tRFC_ns;
  part.tMRD_clocks = c.sdram_tMRD_clocks;
  part.power_up_us = c.sdram_powerup_ns / 1000.0;
  part.tCK_min_cl2_ns = c.sdram_cl2_min_ps / 1000.0;
  part.banks = 1u << p.BANK_BITS;
  part.columns = 1u << p.COL_BITS;
  part.rows = 1u << p.ROW_BITS;
  return scm::SdramTiming::from(part, sdram_clock_mhz(c));
}

}  // namespace

rtl_sdram::rtl_sdram(sc_module_name name, const Config& cfg)
    : memory_model(name),
      p_(scm::SdramControllerParams::from(cfg, sdram_clock_mhz(cfg))),
      bytes_(uint32_t(cfg.mem_bytes)),
      dut_(std::make_unique<Vsdram_controller>("sdram_controller")),
      chip_(chip_timing(cfg, p_), /*throw_on_violation=*/true) {
  p_.check();
  if (cfg.mem_bytes != p_.chip_bytes())
    throw std::invalid_argument("memory.bytes is " + std::to_string(cfg.mem_bytes) +
                                " but the RTL SDRAM controller addresses its whole chip, " +
                                std::to_string(p_.chip_bytes()) + " bytes (dram.banks x dram.row_bytes x " +
                                std::to_string(1u << p_.ROW_BITS) + " rows): set memory.bytes to that");
  // Out of reset before the first cycle, as the SystemC side's model is built.
  Vsdram_controller& d = *dut_;
  d.rst = 1;
  d.clk = 0;
  d.eval();
  d.clk = 1;
  d.eval();
  d.clk = 0;
  d.eval();
}

rtl_sdram::~rtl_sdram() {
  dut_->final();
}

std::unique_ptr<scm::memory_model> rtl_sdram::make(sc_module_name name, const Config& cfg) {
  return std::make_unique<rtl_sdram>(name, cfg);
}

void rtl_sdram::locate(uint32_t addr, unsigned& bank, unsigned& row, unsigned& col) const {
  col = (addr >> 1) & ((1u << p_.COL_BITS) - 1);
  bank = (addr >> (p_.COL_BITS + 1)) & ((1u << p_.BANK_BITS) - 1);
  row = addr >> (p_.COL_BITS + 1 + p_.BANK_BITS);
}

void rtl_sdram::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (uint64_t(addr) + bytes.size() > bytes_)
    throw std::out_of_range("sdram: " + std::to_string(bytes.size()) + " bytes at " + std::to_string(addr) +
                            " run past its " + std::to_string(bytes_));
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint32_t a = addr + uint32_t(i);
    unsigned bank, row, col;
    locate(a, bank, row, col);
    const uint16_t h = chip_.peek(bank, row, col);
    chip_.poke(bank, row, col,
               a & 1 ? uint16_t((h & 0x00ff) | bytes[i] << 8) : uint16_t((h & 0xff00) | bytes[i]));
  }
}

void rtl_sdram::poke32(uint32_t addr, uint32_t value) {
  load(addr, {uint8_t(value), uint8_t(value >> 8), uint8_t(value >> 16), uint8_t(value >> 24)});
}

const std::vector<uint8_t>& rtl_sdram::bytes() const {
  image_.resize(bytes_);
  for (uint32_t a = 0; a < bytes_; a += 2) {
    unsigned bank, row, col;
    locate(a, bank, row, col);
    const uint16_t h = chip_.peek(bank, row, col);
    image_[a] = uint8_t(h);
    image_[a + 1] = uint8_t(h >> 8);
  }
  return image_;
}

void rtl_sdram::drain() {
  for (unsigned i = 0, settled = 0; i < 100000 && settled < 4; ++i) {
    settled = dut_->dram_req_ready ? settled + 1 : 0;
    edge(false, {});
  }
}

bool rtl_sdram::ready(uint32_t) const {
  return dut_->dram_req_ready;
}

void rtl_sdram::trace(VerilatedVcdC& vcd) {
#if VM_TRACE
  dut_->trace(&vcd, 99);
#else
  (void)vcd;  // the system's waveform refuses first: both are verilated alike
#endif
}

void rtl_sdram::fall() {
  dut_->clk = 0;
  dut_->eval();
}

void rtl_sdram::edge(bool rst, const Request& r) {
  Vsdram_controller& d = *dut_;
  d.clk = 0;
  d.rst = rst;
  d.dram_req_valid = r.valid;
  d.dram_req_op = uint8_t(r.op);
  d.dram_req_addr = r.addr;
  d.dram_req_data = r.data;
  d.dram_req_cmp = r.cmp;
  d.dram_req_tag = uint16_t(r.tag);
  d.dram_req_mask = r.mask;
  set_line(d.dram_req_line, r.line);
  // An undriven DQ reads as a fixed pattern: a controller that registered it as data
  // would answer with it where the model (which keeps its own data) does not.
  d.sdram_dq_i = chip_.dq_drive() ? chip_.dq_out() : uint16_t(0xdead);
  d.eval();
  const bool taken = !rst && r.valid && d.dram_req_ready;
  const scm::SdramPins pins = scm::controller_pins(d);
  const bool had_fault = d.fault;
  d.clk = 1;
  d.eval();
  try {
    chip_.clock(pins);
  } catch (const scm::SdramError& e) {
    throw RunError("the SDRAM chip behind the RTL controller: " + std::string(e.what()));
  }
  scm::MemFault refused;
  if (taken)
    refused = scm::SdramController::refusal(p_, bytes_,
                                            {true, r.op, r.addr, r.data, r.cmp, r.tag, r.mask, &r.line});
  if (refused.raised && !fault_.raised) {
    fault_ = refused;
    fault_.cycle = now_;
  }
  // The RTL's fault bit rises at the edge that takes a refused request and stays
  // until reset; the model names the request.
  const bool expect = !rst && (had_fault || refused.raised);
  if (bool(d.fault) != expect)
    throw RunError("the RTL SDRAM controller's fault output is " + std::to_string(int(d.fault)) +
                   " after edge " + std::to_string(now_) + " where it should be " +
                   std::to_string(int(expect)) + ": " +
                   (refused.raised ? "its model refuses the request (" + refused.detail + ")"
                    : had_fault    ? "it refused a request earlier, and no reset came since"
                                   : "its model has refused no request since reset"));
  ++now_;
}

scm::memory_model::Response rtl_sdram::response() const {
  const Vsdram_controller& d = *dut_;
  return {bool(d.dram_resp_valid), d.dram_resp_data, d.dram_resp_tag, port_line(d.dram_resp_line)};
}

}  // namespace umbra::cosim
