// The configuration -> RTL parameter table (umbra/rtl_params.h).  To give the RTL a new
// parameter from the configuration: add the key to the loader (config.h/config.cpp),
// add one row here (name, tops, key, rule, value), and every flow that builds that top
// passes it; see docs/fpga.md, "Parameters from the configuration".
#include "umbra/rtl_params.h"

namespace umbra {

namespace {

constexpr unsigned bit(RtlTop t) {
  return static_cast<unsigned>(t);
}
constexpr unsigned kCore = bit(RtlTop::Core), kSystem = bit(RtlTop::System), kSynth = bit(RtlTop::SynthTop),
                   kBoard = bit(RtlTop::BoardTop), kFpu = bit(RtlTop::Fpu),
                   kQueue = bit(RtlTop::ReorderQueue), kUlx3s = bit(RtlTop::Ulx3sTop);
// The tops that hold a whole core.
constexpr unsigned kCores = kCore | kSystem | kSynth | kBoard | kUlx3s;
// The tops that hold the whole system (cores, queue, DRAM port).
constexpr unsigned kSystems = kSystem | kUlx3s;

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
      {"CORES", kSystems, "cores", "", [](const Config& c) -> uint64_t { return c.cores; }},
      {"THREADS", kCores, "core.threads", "", [](const Config& c) -> uint64_t { return c.threads; }},
      {"EXEC_STAGES", kCores, "core.execute_stages", "",
       [](const Config& c) -> uint64_t { return c.execute_stages; }},
      {"REGS", kCores, "core.registers", "", [](const Config& c) -> uint64_t { return c.registers; }},
      {"GROUPS", kCore | kSystem | kSynth | kBoard, "core.groups",
       "the mask of the listed groups' bits (isa.yaml's order; UMBRA_GROUP_*)",
       [](const Config& c) -> uint64_t { return c.groups; }},
      {"IMEM_WORDS", kCores, "core.imem_words", "", [](const Config& c) -> uint64_t { return c.imem_words; }},
      {"MEM_WORDS", kSynth | kBoard, "memory.bytes", "bytes / 4: the on-chip memory is word-addressed",
       [](const Config& c) -> uint64_t { return c.mem_bytes / 4; }},
      {"MEM_LATENCY", kSynth, "memory.latency", "",
       [](const Config& c) -> uint64_t { return c.mem_latency; }},
      {"CACHE_BYTES", kCores, "cache.bytes", "", [](const Config& c) -> uint64_t { return c.cache_bytes; }},
      {"CACHE_WAYS", kCores, "cache.ways", "1 when cache.bytes is 0 (the loader's rule)",
       [](const Config& c) -> uint64_t { return c.cache_ways; }},
      {"CACHE_LINE_BYTES", kCore | kSystems | kSynth, "cache.line_bytes",
       "4 when cache.bytes is 0 (the loader's rule)",
       [](const Config& c) -> uint64_t { return c.cache_line_bytes; }},
      {"REQ_QUEUE", kCores, "cache.request_queue", "",
       [](const Config& c) -> uint64_t { return c.cache_request_queue; }},
      // Not the iCE40 board tops' or synth_top's: the loader refuses the key without a
      // cache, and their memories answer a word a beat; nor the ULX3S top's yet (its
      // system ties the line port off).
      {"LINE_PORT", kCore | kSystem | kQueue, "cache.line_port", "1 for true, 0 for false",
       [](const Config& c) -> uint64_t { return c.cache_line_port ? 1 : 0; }},
      {"MUL_ROWS", kCore | kSystems | kSynth | kBoard | kFpu, "fpga.device, fpga.dsp",
       "1 (multiplier as shift-and-add rows, rtl/fp_mul.v) for an FPGA without DSP blocks: fpga.device set "
       "and fpga.dsp false; else 0 (`*`)",
       [](const Config& c) -> uint64_t { return !c.fpga_device.empty() && !c.fpga_dsp ? 1 : 0; }},
      {"FF_RAMS", kCore | kSystems | kSynth | kBoard | kFpu, "fpga.device, core.threads",
       "1 (fetch's pcs and the FPU's addend delay in flip-flops, not RAMs) for the HX8K at 16 threads or "
       "more, where block RAMs run out before logic cells: fpga.device hx8k and core.threads >= 16; else 0",
       [](const Config& c) -> uint64_t { return c.fpga_device == "hx8k" && c.threads >= 16 ? 1 : 0; }},
      {"MODE_REORDER", kSystems | kQueue, "queue.mode", "1 for reorder, 0 for fcfs",
       [](const Config& c) -> uint64_t { return c.queue_mode == "reorder" ? 1 : 0; }},
      {"QUEUE_DEPTH", kSystems, "queue.depth", "", [](const Config& c) -> uint64_t { return c.queue_depth; }},
      {"DEPTH", kQueue, "queue.depth", "", [](const Config& c) -> uint64_t { return c.queue_depth; }},
      {"OPEN_ROWS", kSystems | kQueue, "queue.open_rows", "",
       [](const Config& c) -> uint64_t { return c.queue_open_rows; }},
      {"MAX_PASSES", kSystems | kQueue, "queue.max_passes", "",
       [](const Config& c) -> uint64_t { return c.queue_max_passes; }},
      {"BANKS", kSystems | kQueue, "dram.banks", "",
       [](const Config& c) -> uint64_t { return c.dram_banks; }},
      {"ROW_BYTES", kSystems | kQueue, "dram.row_bytes", "",
       [](const Config& c) -> uint64_t { return c.dram_row_bytes; }},
      {"LINE_BYTES", kBoard | kQueue, "cache.line_bytes", "4 when cache.bytes is 0 (the loader's rule)",
       [](const Config& c) -> uint64_t { return c.cache_line_bytes; }},
      {"CLK_HZ", kUlx3s, "fpga.board_clock_mhz", "MHz x 10^6 (25 MHz, the oscillator, without one)",
       [](const Config& c) -> uint64_t { return uint64_t(ulx3s_mhz(c)) * 1000000; }},
      {"PLL_CLKI_DIV", kUlx3s, "fpga.board_clock_mhz", "the EHXPLLL's input divider (umbra::ecp5_pll)",
       [](const Config& c) -> uint64_t { return ulx3s_pll(c).clki_div; }},
      {"PLL_CLKFB_DIV", kUlx3s, "fpga.board_clock_mhz", "the EHXPLLL's feedback divider (umbra::ecp5_pll)",
       [](const Config& c) -> uint64_t { return ulx3s_pll(c).clkfb_div; }},
      {"PLL_CLKOP_DIV", kUlx3s, "fpga.board_clock_mhz", "the EHXPLLL's CLKOP divider (umbra::ecp5_pll)",
       [](const Config& c) -> uint64_t { return ulx3s_pll(c).clkop_div; }},
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
