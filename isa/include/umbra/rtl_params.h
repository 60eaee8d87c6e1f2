// The one table from a machine configuration (configs/*.yaml, umbra/config.h) to the
// Verilog parameters of the RTL's top modules.  Verilator, yosys and Icarus fix those
// parameters when they read the design, so every flow that builds RTL for a
// configuration (the Verilated benches and the cosimulation through CMake, the FPGA
// flow through fpga/build.sh) asks `umbra-config` for them, and umbra-config asks this
// table: a parameter's name, the keys it comes from and how is written in
// isa/config_keys.yaml only (its `rtl` list, generated into the table's rows).
//
// The table lists parameters, not modules, because most parameters go to several tops
// under one name; a row says which tops take it.  Where two tops name one fact
// differently (umbra_system's QUEUE_DEPTH is reorder_queue's DEPTH) there is one row
// per name.  The row order is the order every consumer sees.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "umbra/config.h"

namespace umbra {

// The modules that are built with a configuration's parameters.
enum class RtlTop : unsigned {
  Core = 1u << 0,             // rtl/umbra_core.v: one core (core_bench)
  System = 1u << 1,           // rtl/umbra_system.v: core + reorder queue (the cosimulation)
  SynthTop = 1u << 2,         // fpga/synth_top.v: core + on-chip memory (fpga/build.sh)
  BoardTop = 1u << 3,         // fpga/icebreaker_top.v, fpga/hx8k_breakout_top.v: the board tops
  Fpu = 1u << 4,              // rtl/fpu.v: the FP32 unit (fpu_bench)
  ReorderQueue = 1u << 5,     // rtl/reorder_queue.v: the memory reorder queue (memsys)
  Ulx3sTop = 1u << 6,         // fpga/ulx3s_top.v: umbra_system + SDRAM controller + UART, its PLL
  SdramController = 1u << 7,  // rtl/sdram_controller.v: the SDRAM controller (the cosimulation's memory)
};

// The ECP5 EHXPLLL's dividers for `mhz` out of the ULX3S's 25 MHz oscillator (CLKOP
// with internal feedback: fout = 25 * clkfb_div / clki_div, VCO = fout * clkop_div
// within 400..800 MHz, the phase detector's input 25 / clki_div >= 3.125 MHz), the
// VCO nearest 600 MHz among the exact ones; nullopt when no setting is exact.
struct Ecp5Pll {
  unsigned clki_div, clkfb_div, clkop_div;
};
std::optional<Ecp5Pll> ecp5_pll(unsigned osc_mhz, unsigned mhz);
constexpr unsigned kUlx3sOscMhz = 25;

// The SDRAM controller's timing and geometry in clocks and bits (rtl/sdram_controller.v's
// parameters, same names) for a configuration's sdram.* datasheet times at `mhz`,
// rounded as fpga/ulx3s_system.v rounds them at its CLK_HZ: up, the refresh interval
// down, CAS latency 2 where the clock is at least cl2_min_ps long; the columns and
// banks from dram.row_bytes and dram.banks (the reorder queue's view of the chip).
struct SdramClocks {
  unsigned CL, T_RCD, T_RP, T_RAS, T_RC, T_RRD, T_WR, T_RFC, T_MRD, T_REFI, INIT_WAIT, COL_BITS, BANK_BITS;
};
SdramClocks sdram_clocks(const Config& c, unsigned mhz);
// The clock a configuration's SDRAM runs at in the models: the board's
// (fpga.board_clock_mhz), as the board top rounds the times, else 100 MHz, the clock
// the controller's own defaults are for.
inline unsigned sdram_clock_mhz(const Config& c) {
  return c.fpga_board_clock_mhz ? c.fpga_board_clock_mhz : 100;
}

struct RtlModule {
  RtlTop top;
  const char* name;  // the Verilog module, as `--top` and verilate() name it
  const char* file;  // where it is, from the repository root
};
// Every top the table knows, in RtlTop order.
const std::vector<RtlModule>& rtl_modules();
// The top named `module` (a Verilog module name); nullopt if the table has none.
std::optional<RtlTop> rtl_top(const std::string& module);

struct RtlParam {
  const char* name;  // the Verilog parameter
  unsigned tops;     // the RtlTop bits of the modules that take it under this name
  const char* keys;  // the configuration keys it comes from
  const char* rule;  // how its value follows from them, when it is not the key's value
  uint64_t (*value)(const Config&);
  // When set, the parameter matters only where this holds (the queue's, with
  // queue.enabled): the cosimulation compares it with the verilated RTL's only then.
  bool (*needs)(const Config&);
  // A list name ("" none): rtl/umbra_defaults.vh declares and passes the rows of a list
  // together (UMBRA_<LIST>_PARAMS, UMBRA_<LIST>_PASS), as it does the core's.
  const char* list;
  bool applies_to(RtlTop t) const { return tops & static_cast<unsigned>(t); }
};
// The table, in the order its parameters are printed.
const std::vector<RtlParam>& rtl_param_table();

// The parameters of `top` for configuration `c`, NAME and value, in table order.
std::vector<std::pair<std::string, uint64_t>> rtl_params(const Config& c, RtlTop top);

}  // namespace umbra
