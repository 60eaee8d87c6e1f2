// The named FPGA configurations as their users rely on them: both load through the one
// strict loader, carry the FPGA target fpga/build.sh builds for (UP5K with DSPs, HX8K
// without), umbra-config hands the flow exactly the YAML's numbers, umbra-sim and
// umbra-as accept them (a program is checked against what goes on the chip), and a
// wrong `fpga:` section is refused with the file, line and reason.  The key ->
// parameter table (umbra/rtl_params.h) names only parameters its modules declare, and
// umbra-config prints it alike in every form its consumers read (CMake, Verilator,
// yosys through fpga/build.sh, JSON).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "umbra/config.h"
#include "umbra/rtl_params.h"
#include "umbra_testing/command.h"
#include "umbra_testing/config_cases.h"

namespace {

using umbra::testkit::Outcome;
using umbra::testkit::slurp;

std::string scratch(const std::string& name) {
  return ::testing::TempDir() + "fpga_config_test_" + name;
}

std::string write(const std::string& name, const std::string& text) {
  const std::string p = scratch(name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// ctest runs the cases as parallel processes: each its own output files.
Outcome run(const std::string& cmd) {
  const std::string pid = std::to_string(getpid());
  return umbra::testkit::run_command(cmd, scratch("stdout." + pid), scratch("stderr." + pid));
}

const std::string kUp5k = std::string(UMBRA_SOURCE_DIR) + "/configs/ice40-up5k.yaml";
const std::string kHx8k = std::string(UMBRA_SOURCE_DIR) + "/configs/ice40-hx8k.yaml";
const std::string kHx8kBreakout = std::string(UMBRA_SOURCE_DIR) + "/configs/ice40-hx8k-breakout.yaml";

TEST(FpgaConfig, Up5kIsTheSixteenThreadDeepCoreWithDspsOnTheIcebreakerPackage) {
  const umbra::Config c = umbra::load_config(kUp5k);
  EXPECT_EQ(c.name, "ice40-up5k");
  EXPECT_EQ(c.threads, 16u);
  EXPECT_EQ(c.execute_stages, 12u);
  EXPECT_GE(c.threads, c.pipeline_depth());
  EXPECT_EQ(c.registers, 32u);
  EXPECT_EQ(c.fpga_device, "up5k");
  EXPECT_EQ(c.fpga_package, "sg48");
  EXPECT_EQ(c.fpga_clock_mhz, 40u);
  EXPECT_TRUE(c.fpga_dsp);
  EXPECT_EQ(c.fpga_board, "icebreaker");
  EXPECT_EQ(c.fpga_board_clock_mhz, 30u);
  // Issue 14's and issue 34's clock targets, which fpga/report.py holds the placed
  // designs to.
  EXPECT_EQ(c.fpga_target_mhz, 30u);
  EXPECT_EQ(c.fpga_board_target_mhz, 30u);
  // The examples' data starts at 0x10000: the UP5K's SPRAM memory must reach past it.
  EXPECT_GT(c.mem_bytes, 0x10000u);
  // umbra-sim with this file must time what the chip has: on-chip RAM, no DRAM model.
  EXPECT_EQ(c.mem_model, "fixed");
}

// The HX8K's synthesis top: 16 threads and the deepest pipeline they allow, no board.
TEST(FpgaConfig, Hx8kIsTheSixteenThreadDeepCoreWithoutDsps) {
  const umbra::Config c = umbra::load_config(kHx8k);
  EXPECT_EQ(c.name, "ice40-hx8k");
  EXPECT_EQ(c.threads, 16u);
  EXPECT_EQ(c.execute_stages, 12u);
  EXPECT_EQ(c.threads, c.pipeline_depth());
  EXPECT_EQ(c.registers, 32u);
  EXPECT_EQ(c.fpga_device, "hx8k");
  EXPECT_EQ(c.fpga_clock_mhz, 50u);
  EXPECT_FALSE(c.fpga_dsp);
  EXPECT_EQ(c.mem_model, "fixed");
  EXPECT_TRUE(c.fpga_board.empty());
  EXPECT_EQ(c.fpga_target_mhz, 50u);
}

// The HX8K breakout board's: the 16-thread deep core (issue 34) without atomics and
// the conversions (docs/fpga.md, "Extension groups on the iCE40s"), a board top and no
// synthesis top (no clock).
TEST(FpgaConfig, Hx8kBreakoutIsTheSixteenThreadDeepCoreOnTheBoard) {
  const umbra::Config c = umbra::load_config(kHx8kBreakout);
  EXPECT_EQ(c.name, "ice40-hx8k-breakout");
  EXPECT_EQ(c.threads, 16u);
  EXPECT_EQ(c.execute_stages, 12u);
  EXPECT_EQ(c.threads, c.pipeline_depth());
  EXPECT_EQ(c.imem_words, 256u);
  EXPECT_EQ(umbra::group_names(c.groups), "base, mulh, fp32");
  EXPECT_EQ(c.registers, 32u);
  EXPECT_EQ(c.fpga_device, "hx8k");
  EXPECT_EQ(c.fpga_package, "ct256");
  EXPECT_FALSE(c.fpga_dsp);
  EXPECT_EQ(c.mem_model, "fixed");
  EXPECT_EQ(c.fpga_board, "hx8k_breakout");
  EXPECT_EQ(c.fpga_clock_mhz, 0u);
  EXPECT_EQ(c.fpga_target_mhz, 0u);
  EXPECT_EQ(c.fpga_board_clock_mhz, 50u);
  EXPECT_EQ(c.fpga_board_target_mhz, 50u);
}

TEST(FpgaConfig, DefaultConfigurationNamesNoFpga) {
  const umbra::Config c = umbra::load_config(std::string(UMBRA_SOURCE_DIR) + "/configs/default.yaml");
  EXPECT_TRUE(c.fpga_device.empty());
  EXPECT_FALSE(c.fpga_dsp);
}

TEST(FpgaConfig, BadFpgaSectionsAreRefusedWithLineAndReason) {
  umbra::testkit::expect_refused(
      scratch(""),
      {
          {"fpga:\n  device: ecp5\n",
           ":2: error: 'fpga.device' = 'ecp5' is not one of: up5k, hx8k, lfe5u-85f"},
          {"fpga:\n  device: hx8k\n  dsp: true\n",
           ":3: error: 'fpga.dsp' needs a device with DSP blocks (up5k, lfe5u-85f)"},
          {"fpga:\n  device: up5k\n  dsp: sometimes\n", ":3: error: 'fpga.dsp' must be true or false"},
          {"fpga:\n  package: sg48\n", ":2: error: the 'fpga' section needs 'fpga.device'"},
          {"fpga:\n  device: up5k\n  clock_mhz: 0\n",
           ":3: error: 'fpga.clock_mhz' = 0 is out of range 1..1000"},
          {"fpga:\n  device: up5k\n  freq: 40\n", ":3: error: unknown configuration key 'fpga.freq'"},
          {"fpga:\n  device: up5k\n  board_target_mhz: 24\n",
           ":3: error: 'fpga.board_target_mhz' needs 'fpga.board'"},
          {"fpga:\n  device: up5k\n  target_mhz: 30\n",
           ":3: error: 'fpga.target_mhz' needs 'fpga.clock_mhz'"},
          {"fpga:\n  device: [up5k]\n", ":2: error: 'fpga.device' must be a non-empty string"},
          {"fpga:\n  device: up5k\n  board: tinyfpga\n",
           ":3: error: 'fpga.board' = 'tinyfpga' is not one of: icebreaker, hx8k_breakout, ulx3s"},
          {"fpga:\n  device: up5k\n  package: ct256\n  board: hx8k_breakout\n",
           ":4: error: 'fpga.board' = 'hx8k_breakout' needs 'fpga.device' hx8k and 'fpga.package' ct256"},
          {"fpga:\n  device: up5k\n  package: sg48\n  board: icebreaker\n",
           ":4: error: 'fpga.board' needs 'fpga.board_clock_mhz', the board top's core clock"},
          {"fpga:\n  device: hx8k\n  package: ct256\n  board: icebreaker\n",
           ":4: error: 'fpga.board' = 'icebreaker' needs 'fpga.device' up5k and 'fpga.package' sg48"},
          {"fpga:\n  device: lfe5u-85f\n  package: CABGA256\n  board: ulx3s\n  board_clock_mhz: 50\n",
           ":4: error: 'fpga.board' = 'ulx3s' needs 'fpga.device' lfe5u-85f and 'fpga.package' CABGA381"},
          {"fpga:\n  device: lfe5u-85f\n  package: CABGA381\n  board: ulx3s\n  board_clock_mhz: 7\n",
           ":5: error: 'fpga.board_clock_mhz' = 7 cannot be made exactly from the ULX3S's 25 MHz by the ECP5 "
           "PLL"},
      });
}

// The ULX3S: an ECP5 with DSPs, the board's SDRAM as the queue sees it (4 banks of
// 1024-byte rows), and its clock from the PLL.
TEST(FpgaConfig, Ulx3sIsTheManyCoreSystemOnTheEcp5WithItsSdramsBanksAndRows) {
  const umbra::Config c = umbra::load_config(std::string(UMBRA_SOURCE_DIR) + "/configs/ecp5-ulx3s.yaml");
  EXPECT_EQ(c.fpga_device, "lfe5u-85f");
  EXPECT_EQ(c.fpga_package, "CABGA381");
  EXPECT_EQ(c.fpga_board, "ulx3s");
  EXPECT_TRUE(c.fpga_dsp);
  EXPECT_GT(c.cores, 1u);
  EXPECT_EQ(c.dram_banks, 4u);
  EXPECT_EQ(c.dram_row_bytes, 1024u);
  EXPECT_EQ(c.queue_open_rows, c.dram_banks) << "one open row a bank";
  EXPECT_EQ(c.mem_bytes, 32u << 20);
  auto value = [&](const std::string& name) -> int64_t {
    for (const auto& [n, v] : umbra::rtl_params(c, umbra::RtlTop::Ulx3sTop))
      if (n == name) return int64_t(v);
    return -1;
  };
  EXPECT_EQ(value("CLK_HZ"), int64_t(c.fpga_board_clock_mhz) * 1000000);
  EXPECT_EQ(value("MUL_ROWS"), 0);
  EXPECT_EQ(value("BANKS"), 4);
  EXPECT_EQ(value("ROW_BYTES"), 1024);
  EXPECT_EQ(value("MEM_WORDS"), -1) << "the SDRAM's size is the chip's";
  // The SDRAM's datasheet times are keys (sdram.*, the MT48LC16M16A2-6A's by default),
  // which reach the top in clocks of the board's clock: 18 ns and 7.8125 us at 20 MHz.
  EXPECT_EQ(value("T_RCD"), 1);
  EXPECT_EQ(value("T_REFI"), 156);
  EXPECT_EQ(value("SDRAM_TRCD_NS"), -1) << "the times reach the RTL in clocks only";
  const umbra::Config slower = umbra::parse_config(
      "cores: 2\nsdram:\n  tRCD_ns: 25\n  cl2_min_ps: 25000\n"
      "fpga:\n  device: lfe5u-85f\n  package: CABGA381\n  board: ulx3s\n  board_clock_mhz: 50\n",
      "slower-sdram.yaml");
  const auto params = umbra::rtl_params(slower, umbra::RtlTop::Ulx3sTop);
  EXPECT_NE(std::find(params.begin(), params.end(), std::make_pair(std::string("T_RCD"), uint64_t(2))),
            params.end())
      << "25 ns in 20 ns clocks";
  EXPECT_NE(std::find(params.begin(), params.end(), std::make_pair(std::string("CL"), uint64_t(3))), params.end())
      << "a 20 ns clock is shorter than 25 ns, CL 2's minimum";
  EXPECT_THROW(umbra::parse_config("sdram:\n  tRCD_ns: 0\n", "zero.yaml"), umbra::ConfigError);
}

// umbra::ecp5_pll finds what `ecppll -i 25 -o MHZ` prints (checked by hand with
// yowasp-ecppll 0.11.1 for 50 MHz: 1, 2, 12, VCO 600) and only exact settings.
TEST(RtlParams, Ecp5PllDividersAreExactWithTheVcoInRange) {
  const auto p50 = umbra::ecp5_pll(25, 50);
  ASSERT_TRUE(p50);
  EXPECT_EQ(p50->clki_div, 1u);
  EXPECT_EQ(p50->clkfb_div, 2u);
  EXPECT_EQ(p50->clkop_div, 12u);
  for (unsigned mhz : {25u, 40u, 50u, 60u, 65u, 75u, 100u, 125u}) {
    const auto p = umbra::ecp5_pll(25, mhz);
    ASSERT_TRUE(p) << mhz;
    EXPECT_EQ(25 * p->clkfb_div, mhz * p->clki_div) << mhz;
    EXPECT_GE(mhz * p->clkop_div, 400u) << mhz;
    EXPECT_LE(mhz * p->clkop_div, 800u) << mhz;
  }
  EXPECT_FALSE(umbra::ecp5_pll(25, 7))
      << "7 = 25 x 7 / 25: a phase detector input of 1 MHz, below the PLL's 3.125";
}

TEST(UmbraConfig, VerilogParametersAreTheYamlNumbers) {
  const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " --verilog-params '" + kUp5k + "'");
  ASSERT_EQ(o.rc, 0) << o.err;
  const umbra::Config c = umbra::load_config(kUp5k);
  EXPECT_EQ(
      o.out,
      "THREADS=" + std::to_string(c.threads) + "\nEXEC_STAGES=" + std::to_string(c.execute_stages) +
          "\nREGS=" + std::to_string(c.registers) + "\nGROUPS=" + std::to_string(c.groups) +
          "\nIMEM_WORDS=" + std::to_string(c.imem_words) + "\nMEM_WORDS=" + std::to_string(c.mem_bytes / 4) +
          "\nMEM_LATENCY=" + std::to_string(c.mem_latency) +
          "\nCACHE_BYTES=" + std::to_string(c.cache_bytes) + "\nCACHE_WAYS=" + std::to_string(c.cache_ways) +
          "\nCACHE_LINE_BYTES=" + std::to_string(c.cache_line_bytes) +
          "\nREQ_QUEUE=" + std::to_string(c.cache_request_queue) +
          "\nLINE_PORT=0\nMUL_ROWS=0\nFF_RAMS=0\nRAM_OUT_REG=0\n");
}

// The HX8K has no DSP blocks: its multiplier is built as rows of logic (rtl/fp_mul.v).
TEST(UmbraConfig, NoDspMeansMultiplierRows) {
  const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " --verilog-params '" + kHx8k + "'");
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("\nMUL_ROWS=1\n"), std::string::npos) << o.out;
}

// The LFE5U-85F's block RAMs are slow to give their data, so its core reads the
// register file and the addend ring a cycle early (rtl/regfile.v); the iCE40s do not.
TEST(UmbraConfig, OnlyTheEcp5ReadsItsRamsEarly) {
  for (const std::string cfg : {"ecp5-ulx3s", "ecp5-ulx3s-1core", "ice40-hx8k", "default"}) {
    const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " --verilog-params '" + UMBRA_SOURCE_DIR +
                          "/configs/" + cfg + ".yaml'");
    ASSERT_EQ(o.rc, 0) << o.err;
    const bool ecp5 = cfg.rfind("ecp5", 0) == 0;
    EXPECT_NE(o.out.find(ecp5 ? "\nRAM_OUT_REG=1\n" : "\nRAM_OUT_REG=0\n"), std::string::npos) << cfg << o.out;
  }
}

TEST(UmbraConfig, SettingsCarryTheFpgaTarget) {
  const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " '" + kHx8k + "'");
  ASSERT_EQ(o.rc, 0) << o.err;
  EXPECT_NE(o.out.find("name=ice40-hx8k\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("fpga.device=hx8k\nfpga.package=ct256\nfpga.clock_mhz=50\nfpga.dsp=false\n"),
            std::string::npos)
      << o.out;
}

// The board tops build the core with the configuration's groups (issue 34), and the
// settings name them for fpga/report.py.
TEST(UmbraConfig, BoardTopsTakeTheGroupsAndTheSettingsNameThem) {
  const std::string p = write("board-fp32.yaml",
                              "name: board-fp32\ncore:\n  groups: [base, fp32]\n"
                              "fpga:\n  device: up5k\n  package: sg48\n  board: icebreaker\n"
                              "  board_clock_mhz: 6\n");
  const uint32_t base_fp32 = umbra::load_config(p).groups;
  ASSERT_NE(base_fp32, umbra::isa::kAllGroups);
  for (const char* top : {"icebreaker_top", "hx8k_breakout_top"}) {
    const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " --top " + top + " '" + p + "'");
    ASSERT_EQ(o.rc, 0) << o.err;
    EXPECT_NE(o.out.find("\nGROUPS=" + std::to_string(base_fp32) + "\n"), std::string::npos) << top << o.out;
  }
  const Outcome s = run(std::string(UMBRA_CONFIG_PATH) + " '" + p + "'");
  ASSERT_EQ(s.rc, 0) << s.err;
  EXPECT_NE(s.out.find("\ncore.groups=base, fp32\n"), std::string::npos) << s.out;
}

TEST(UmbraConfig, BadFileFailsWithTheLoadersMessage) {
  const std::string p = write("typo.yaml", "core:\n  threds: 8\n");
  const Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " '" + p + "'");
  EXPECT_EQ(o.rc, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find(p + ":2: error: unknown configuration key 'core.threds'"), std::string::npos) << o.err;
  EXPECT_EQ(run(std::string(UMBRA_CONFIG_PATH) + " /nonexistent.yaml").rc, 1);
}

// A parameter the module does not declare would be dropped or refused by the tools
// (Verilator warns, yosys chparam fails): every row names a real `parameter` of each
// top it is given to, declared in the module or, for a list's (the core's, the SDRAM's),
// through rtl/umbra_defaults.vh's macro of that list, which must declare it.
TEST(RtlParams, EveryRowIsAParameterOfItsModules) {
  const std::string defaults = slurp(std::string(UMBRA_SOURCE_DIR) + "/rtl/umbra_defaults.vh");
  // The parameters a list macro of rtl/umbra_defaults.vh declares (UMBRA_CORE_PARAMS, ...).
  auto list_text = [&](const std::string& macro) {
    const size_t at = defaults.find("`define " + macro);
    return at == std::string::npos ? std::string()
                                   : defaults.substr(at, defaults.find("`define", at + 1) - at);
  };
  for (const umbra::RtlModule& m : umbra::rtl_modules()) {
    const std::string text = slurp(std::string(UMBRA_SOURCE_DIR) + "/" + m.file);
    ASSERT_FALSE(text.empty()) << m.file;
    const size_t at = text.find("module " + std::string(m.name));
    ASSERT_NE(at, std::string::npos) << m.file;
    const std::string header = text.substr(at, text.find(") (", at) - at);
    const bool holds_core = m.top == umbra::RtlTop::Core || m.top == umbra::RtlTop::System ||
                            m.top == umbra::RtlTop::SynthTop || m.top == umbra::RtlTop::BoardTop ||
                            m.top == umbra::RtlTop::Ulx3sTop;
    for (const umbra::RtlParam& p : umbra::rtl_param_table()) {
      if (!p.applies_to(m.top)) continue;
      const std::regex decl("parameter\\s+integer\\s+" + std::string(p.name) + "\\s*=");
      // The list this row belongs to, if any: the core's reaches every top that holds a
      // core, a named list the tops that take its rows; either through its macro only.
      std::string macro;
      if (holds_core && p.applies_to(umbra::RtlTop::Core)) macro = "UMBRA_CORE_PARAMS";
      if (*p.list) {
        macro = "UMBRA_" + std::string(p.list) + "_PARAMS";
        for (char& ch : macro) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      }
      if (macro.empty()) {
        EXPECT_TRUE(std::regex_search(header, decl)) << m.file << " declares no parameter " << p.name;
      } else {
        EXPECT_NE(header.find("`" + macro), std::string::npos)
            << m.file << ": " << p.name << " comes from " << macro;
        EXPECT_TRUE(std::regex_search(list_text(macro), decl)) << macro << " does not declare " << p.name;
      }
    }
  }
}

// The rules that are more than a key's value.
TEST(RtlParams, DerivedValuesFollowTheirRules) {
  using umbra::RtlTop;
  auto value = [](const umbra::Config& c, RtlTop t, const std::string& name) -> int64_t {
    for (const auto& [n, v] : umbra::rtl_params(c, t))
      if (n == name) return int64_t(v);
    return -1;
  };
  umbra::Config c;
  EXPECT_EQ(value(c, RtlTop::Core, "MUL_ROWS"), 0) << "no FPGA: the multiplier is `*`";
  c.fpga_device = "up5k";
  c.fpga_dsp = true;
  EXPECT_EQ(value(c, RtlTop::Core, "MUL_ROWS"), 0) << "DSP blocks take `*`";
  c.fpga_device = "hx8k";
  c.fpga_dsp = false;
  EXPECT_EQ(value(c, RtlTop::Fpu, "MUL_ROWS"), 1) << "no DSP blocks: rows";
  EXPECT_EQ(value(c, RtlTop::System, "MUL_ROWS"), 1) << "the cosimulated system multiplies as the chip does";
  EXPECT_EQ(value(c, RtlTop::ReorderQueue, "MUL_ROWS"), -1) << "the queue has no multiplier";
  // The depth reaches every top that holds a core, and nothing else.
  c.execute_stages = 8;
  for (RtlTop t : {RtlTop::Core, RtlTop::System, RtlTop::SynthTop, RtlTop::BoardTop})
    EXPECT_EQ(value(c, t, "EXEC_STAGES"), 8) << static_cast<unsigned>(t);
  EXPECT_EQ(value(c, RtlTop::ReorderQueue, "EXEC_STAGES"), -1);
  c.mem_bytes = 4096;
  EXPECT_EQ(value(c, RtlTop::SynthTop, "MEM_WORDS"), 1024);
  c.queue_mode = "fcfs";
  c.queue_depth = 5;
  EXPECT_EQ(value(c, RtlTop::System, "MODE_REORDER"), 0);
  EXPECT_EQ(value(c, RtlTop::System, "QUEUE_DEPTH"), 5);
  EXPECT_EQ(value(c, RtlTop::ReorderQueue, "DEPTH"), 5);
  // The loader's no-cache rule reaches both names of the line size.
  const umbra::Config up5k = umbra::load_config(kUp5k);
  EXPECT_EQ(value(up5k, RtlTop::Core, "CACHE_LINE_BYTES"), 4);
  EXPECT_EQ(value(up5k, RtlTop::BoardTop, "CACHE_LINE_BYTES"), 4);
  EXPECT_EQ(value(up5k, RtlTop::ReorderQueue, "LINE_BYTES"), 4);
  EXPECT_EQ(value(up5k, RtlTop::BoardTop, "CACHE_WAYS"), 1);
}

// Every form umbra-config prints carries the same NAME=VALUE list, the table's.
TEST(UmbraConfig, EveryFormIsTheTablesList) {
  for (const std::string& file :
       {kUp5k, kHx8k, kHx8kBreakout, std::string(UMBRA_SOURCE_DIR) + "/configs/default.yaml"}) {
    const umbra::Config c = umbra::load_config(file);
    for (const umbra::RtlModule& m : umbra::rtl_modules()) {
      std::string lines, cmake, verilator, yosys, json;
      for (const auto& [n, v] : umbra::rtl_params(c, m.top)) {
        const std::string val = std::to_string(v);
        lines += n + "=" + val + "\n";
        cmake += (cmake.empty() ? "" : ";") + n + "=" + val;
        verilator += (verilator.empty() ? "" : " ") + std::string("-G") + n + "=" + val;
        yosys += (yosys.empty() ? "" : " ") + std::string("-set ") + n + " " + val;
        json += "\"" + n + "\": " + val;
      }
      const std::string cmd = std::string(UMBRA_CONFIG_PATH) + " --top " + m.name + " '" + file + "'";
      EXPECT_EQ(run(cmd).out, lines) << cmd;
      EXPECT_EQ(run(cmd + " --format lines").out, lines) << cmd;
      EXPECT_EQ(run(cmd + " --format cmake").out, cmake + "\n") << cmd;
      EXPECT_EQ(run(cmd + " --format verilator").out, verilator + "\n") << cmd;
      EXPECT_EQ(run(cmd + " --format yosys").out, yosys + "\n") << cmd;
      const Outcome j = run(cmd + " --format json");
      EXPECT_EQ(j.rc, 0) << j.err;
      EXPECT_NE(j.out.find("\"top\": \"" + std::string(m.name) + "\""), std::string::npos) << j.out;
      // The JSON's params object, without its layout.
      std::string flat;
      const size_t at = j.out.find("\"params\"");
      for (char ch : j.out.substr(at == std::string::npos ? j.out.size() : at))
        if (ch != ' ' && ch != '\n' && ch != ',') flat += ch;
      std::string want;
      for (char ch : json)
        if (ch != ' ') want += ch;
      EXPECT_NE(flat.find(want), std::string::npos) << j.out;
    }
  }
}

TEST(UmbraConfig, UnknownTopOrFormatIsAUsageError) {
  Outcome o = run(std::string(UMBRA_CONFIG_PATH) + " --top umbra_cor '" + kUp5k + "'");
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("--top 'umbra_cor': no such module"), std::string::npos) << o.err;
  o = run(std::string(UMBRA_CONFIG_PATH) + " --top fpu --format tcl '" + kUp5k + "'");
  EXPECT_NE(o.rc, 0);
  EXPECT_NE(o.err.find("tcl"), std::string::npos) << o.err;
  o = run(std::string(UMBRA_CONFIG_PATH) + " --format cmake '" + kUp5k + "'");
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("--format needs --top"), std::string::npos) << o.err;
}

// fpga/build.sh hands yosys the table's parameters for every top it builds (the board
// tops too, by default); only the boards' clock settings (from fpga.board_clock_mhz:
// the PLL settings icepll gives for it from the 12 MHz oscillator, and the frequency
// they achieve) are its own; a configuration without fpga.clock_mhz (the HX8K
// breakout's) has no synthesis top.
TEST(BuildScript, ParametersAreUmbraConfigs) {
  const Outcome o =
      run("UMBRA_CONFIG_TOOL='" + std::string(UMBRA_CONFIG_PATH) + "' " + UMBRA_SOURCE_DIR +
          "/fpga/build.sh --params-only '" + kUp5k + "' '" + kHx8k + "' '" + kHx8kBreakout + "'");
  ASSERT_EQ(o.rc, 0) << o.err;
  auto yosys = [](const std::string& top, const std::string& file) {
    std::string out =
        run(std::string(UMBRA_CONFIG_PATH) + " --top " + top + " --format yosys '" + file + "'").out;
    if (!out.empty()) out.pop_back();
    return out;
  };
  // icepll -i 12 -o 30: 12 MHz x 80 / 32 = 30 MHz exactly.
  const std::string pll30 =
      " -set PLL 1 -set PLL_DIVR 0 -set PLL_DIVF 79 -set PLL_DIVQ 5 -set PLL_FILTER 1"
      " -set CLK_HZ 30000000";
  // icepll -i 12 -o 50: the nearest it reaches is 12 MHz x 67 / 16 = 50.25 MHz.
  const std::string pll50 =
      " -set PLL 1 -set PLL_DIVR 0 -set PLL_DIVF 66 -set PLL_DIVQ 4 -set PLL_FILTER 1"
      " -set CLK_HZ 50250000";
  EXPECT_EQ(o.out, "ice40-up5k synth_top: " + yosys("synth_top", kUp5k) + "\n" +
                       "ice40-up5k icebreaker_top: " + yosys("icebreaker_top", kUp5k) + pll30 + "\n" +
                       "ice40-hx8k synth_top: " + yosys("synth_top", kHx8k) + "\n" +
                       "ice40-hx8k-breakout hx8k_breakout_top: " + yosys("hx8k_breakout_top", kHx8kBreakout) +
                       pll50 + "\n");
}

// The breakout's configuration has no synthesis top: with --no-board it leaves nothing
// to build, which is an error before any tool runs, not an empty report.
TEST(BuildScript, ABoardOnlyConfigurationWithoutItsBoardIsNothingToBuild) {
  const Outcome o =
      run("UMBRA_CONFIG_TOOL='" + std::string(UMBRA_CONFIG_PATH) + "' UMBRA_FPGA_OUT='" + scratch("nothing") +
          "' " + UMBRA_SOURCE_DIR + "/fpga/build.sh --synth-only --no-board '" + kHx8kBreakout + "'");
  EXPECT_EQ(o.rc, 2);
  EXPECT_NE(o.err.find("nothing to build"), std::string::npos) << o.err;
}

TEST(FpgaConfigTools, SimulatorRunsAnExampleOnTheUp5kConfiguration) {
  const Outcome o =
      run(std::string(UMBRA_SIM_PATH) + " --config '" + kUp5k + "' " + UMBRA_SOURCE_DIR + "/examples/fib.s");
  EXPECT_EQ(o.rc, 0) << o.err;
}

TEST(FpgaConfigTools, SimulatorHoldsAProgramToTheHx8kMemorySize) {
  // The HX8K's few KiB of data memory lie below the assembler's .data origin (0x10000),
  // so its programs address memory directly; the last word is there, one word past the
  // end is refused.
  const uint64_t bytes = umbra::load_config(kHx8k).mem_bytes;
  ASSERT_LT(bytes, 0x10000u);
  const std::string last = std::to_string(bytes - 4);
  const std::string in = write(
      "hx8k_in.s", "_start: movi r1, 42\n        li r2, " + last + "\n        stw r1, 0(r2)\n        exit\n");
  const Outcome ok = run(std::string(UMBRA_SIM_PATH) + " --config '" + kHx8k + "' --threads 1 --dump-mem " +
                         last + ":4 '" + in + "'");
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_NE(ok.out.find("0000002a"), std::string::npos) << ok.out;
  const std::string out = write("hx8k_out.s", "_start: movi r1, 42\n        li r2, " + std::to_string(bytes) +
                                                  "\n        stw r1, 0(r2)\n        exit\n");
  EXPECT_NE(run(std::string(UMBRA_SIM_PATH) + " --config '" + kHx8k + "' --threads 1 '" + out + "'").rc, 0);
}

TEST(FpgaConfigTools, AssemblerRejectsRegistersTheFpgaCoreLacks) {
  const std::string src = write("r40.s", "_start: movi r40, 1\n        exit\n");
  const Outcome bad = run(std::string(UMBRA_AS_PATH) + " --config '" + kUp5k + "' '" + src + "' -o '" +
                          scratch("r40.elf") + "'");
  EXPECT_EQ(bad.rc, 1);
  EXPECT_NE(bad.err.find("r40"), std::string::npos) << bad.err;
  const std::string ok = write("r31.s", "_start: movi r31, 1\n        exit\n");
  EXPECT_EQ(run(std::string(UMBRA_AS_PATH) + " --config '" + kHx8k + "' '" + ok + "' -o '" +
                scratch("r31.elf") + "'")
                .rc,
            0);
}

}  // namespace
