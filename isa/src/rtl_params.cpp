// The configuration -> RTL parameter table (umbra/rtl_params.h).  Its rows are
// isa/config_keys.yaml's `rtl` list (generated into rtl_params_gen.inc): to give the RTL
// a new parameter from the configuration, add it there, and every flow that builds its
// tops passes it; see docs/configuration.md, "Adding a key".
#include "umbra/rtl_params.h"

namespace umbra {

namespace {

constexpr unsigned bit(RtlTop t) {
  return static_cast<unsigned>(t);
}
constexpr unsigned kCore = bit(RtlTop::Core), kSystem = bit(RtlTop::System), kSynth = bit(RtlTop::SynthTop),
                   kBoard = bit(RtlTop::BoardTop), kFpu = bit(RtlTop::Fpu),
                   kQueue = bit(RtlTop::ReorderQueue), kUlx3s = bit(RtlTop::Ulx3sTop),
                   kSdram = bit(RtlTop::SdramController);

// The ULX3S top's core clock: fpga.board_clock_mhz, or the oscillator's own 25 MHz
// for a configuration without one (the PLL then multiplies by 1).
unsigned ulx3s_mhz(const Config& c) {
  return c.fpga_board_clock_mhz ? c.fpga_board_clock_mhz : kUlx3sOscMhz;
}
Ecp5Pll ulx3s_pll(const Config& c) {
  const std::optional<Ecp5Pll> p = ecp5_pll(kUlx3sOscMhz, ulx3s_mhz(c));
  return p ? *p : Ecp5Pll{0, 0, 0};  // the loader refuses a board clock with no setting
}
// The controller's clocks at the models' SDRAM clock.
SdramClocks sdram(const Config& c) {
  return sdram_clocks(c, sdram_clock_mhz(c));
}

}  // namespace

const std::vector<RtlModule>& rtl_modules() {
  static const std::vector<RtlModule> modules = {
      {RtlTop::Core, "umbra_core", "rtl/umbra_core.v"},
      {RtlTop::System, "umbra_system", "rtl/umbra_system.v"},
      {RtlTop::SynthTop, "synth_top", "fpga/synth_top.v"},
      {RtlTop::BoardTop, "icebreaker_top", "fpga/icebreaker_top.v"},
      {RtlTop::BoardTop, "hx8k_breakout_top", "fpga/hx8k_breakout_top.v"},
      {RtlTop::Fpu, "fpu", "rtl/fpu.v"},
      {RtlTop::ReorderQueue, "reorder_queue", "rtl/reorder_queue.v"},
      {RtlTop::Ulx3sTop, "ulx3s_top", "fpga/ulx3s_top.v"},
      {RtlTop::SdramController, "sdram_controller", "rtl/sdram_controller.v"},
  };
  return modules;
}

std::optional<RtlTop> rtl_top(const std::string& module) {
  for (const RtlModule& m : rtl_modules())
    if (module == m.name) return m.top;
  return std::nullopt;
}

const std::vector<RtlParam>& rtl_param_table() {
  // Rules that are the loader's (no cache means one way of one-word lines) are done by
  // the loader; the rules here are the ones that turn a setting into the RTL's form.
  static const std::vector<RtlParam> table = {
#include "rtl_params_gen.inc"
  };
  return table;
}

SdramClocks sdram_clocks(const Config& c, unsigned mhz) {
  const uint64_t f100k = uint64_t(mhz) * 10;  // ulx3s_system.v's F100K: the clock in 100 kHz
  auto up = [&](uint64_t ns) { return unsigned((ns * f100k + 9999) / 10000); };
  auto log2 = [](uint32_t v) {
    unsigned b = 0;
    while ((uint64_t(1) << (b + 1)) <= v) ++b;
    return b;
  };
  SdramClocks k{};
  k.CL = uint64_t(mhz) * c.sdram_cl2_min_ps <= 1000000 ? 2 : 3;
  k.T_RCD = up(c.sdram_tRCD_ns);
  k.T_RP = up(c.sdram_tRP_ns);
  k.T_RAS = up(c.sdram_tRAS_ns);
  k.T_RC = up(c.sdram_tRC_ns);
  k.T_RRD = up(c.sdram_tRRD_ns);
  k.T_WR = up(c.sdram_tWR_ns);
  k.T_RFC = up(c.sdram_tRFC_ns);
  k.T_MRD = c.sdram_tMRD_clocks;
  k.T_REFI = unsigned(uint64_t(c.sdram_tREFI_ns) * f100k / 10000);
  k.INIT_WAIT = up(c.sdram_powerup_ns);
  k.COL_BITS = log2(c.dram_row_bytes) - 1;  // 16-bit columns
  k.BANK_BITS = log2(c.dram_banks);
  return k;
}

std::optional<Ecp5Pll> ecp5_pll(unsigned osc_mhz, unsigned mhz) {
  std::optional<Ecp5Pll> best;
  unsigned best_dist = ~0u;
  for (unsigned ci = 1; ci <= 128 && osc_mhz * 1000 / ci >= 3125; ++ci)
    for (unsigned fb = 1; fb <= 80; ++fb) {
      if (osc_mhz * fb != mhz * ci) continue;  // not exact
      for (unsigned op = 1; op <= 128; ++op) {
        const unsigned vco = mhz * op;
        if (vco < 400 || vco > 800) continue;
        const unsigned dist = vco > 600 ? vco - 600 : 600 - vco;
        if (dist < best_dist) {
          best_dist = dist;
          best = Ecp5Pll{ci, fb, op};
        }
      }
    }
  return best;
}

std::vector<std::pair<std::string, uint64_t>> rtl_params(const Config& c, RtlTop top) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const RtlParam& p : rtl_param_table())
    if (p.applies_to(top)) out.emplace_back(p.name, p.value(c));
  return out;
}

}  // namespace umbra
