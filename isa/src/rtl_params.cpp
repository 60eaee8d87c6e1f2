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
                   kQueue = bit(RtlTop::ReorderQueue), kUlx3s = bit(RtlTop::Ulx3sTop);

// The ULX3S top's core clock: fpga.board_clock_mhz, or the oscillator's own 25 MHz
// for a configuration without one (the PLL then multiplies by 1).
unsigned ulx3s_mhz(const Config& c) {
  return c.fpga_board_clock_mhz ? c.fpga_board_clock_mhz : kUlx3sOscMhz;
}
Ecp5Pll ulx3s_pll(const Config& c) {
  const std::optional<Ecp5Pll> p = ecp5_pll(kUlx3sOscMhz, ulx3s_mhz(c));
  return p ? *p : Ecp5Pll{0, 0, 0};  // the loader refuses a board clock with no setting
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
