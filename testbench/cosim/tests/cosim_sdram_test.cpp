// cosim_sdram_test: the cosimulation with the RTL SDRAM controller behind the system's
// port (configs/ecp5-ulx3s.yaml, `memory.model: sdram`; harness/cosim/rtl_sdram.h).
// What a user relies on when they cosimulate the ULX3S's configuration: the RTL side's
// memory is the Verilated controller driving the chip's model, built with the table's
// parameters for the configuration; a configuration whose SDRAM differs is refused,
// naming the key; the controller's refusals are named as the model names them; a
// program runs on four cores through it, SystemC and RTL agreeing cycle by cycle.
// (The random programs on it are random_cosim_ulx3s, the examples cosim_ulx3s_*.)
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "rtl_sdram.h"
#include "rtl_system.h"
#include "umbra/cosim_run.h"
#include "umbra/isa.h"
#include "umbra/rtl_params.h"
#include "umbra_testing/programs.h"

namespace umbra::cosim {
namespace {

using testkit::assemble;

TEST(SdramCosim, TheRtlMemoryIsTheControllerVerilatedWithTheTablesParameters) {
  const VerilatedParams& v = verilated_params();
  const Config cfg = verilated_config();
  ASSERT_EQ(cfg.mem_model, "sdram") << v.config_file;
  EXPECT_EQ(v.memory_top, "sdram_controller");
  EXPECT_EQ(v.memory_params, rtl_params(cfg, RtlTop::SdramController));
  // At the board's 20 MHz the part's 18 ns are one clock, its 100 us of power-up 2000.
  const SdramClocks k = sdram_clocks(cfg, sdram_clock_mhz(cfg));
  EXPECT_EQ(k.T_RCD, 1u);
  EXPECT_EQ(k.INIT_WAIT, 2000u);
  EXPECT_TRUE(rtl_memory_factory()) << "the RTL side would run the C++ model";
}

TEST(SdramCosim, AnSdramOtherThanTheVerilatedOneIsRefusedNamingTheKey) {
  const Program p = assemble("exit\n");
  Config cfg = verilated_config();
  cfg.sdram_tRCD_ns = 60;  // three clocks at 20 MHz, where the RTL has one
  try {
    run_rtl(p, cfg, 1, 1000);
    FAIL() << "run_rtl accepted sdram.tRCD_ns 60";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("gives T_RCD = 2 but the RTL SDRAM controller was verilated with 1"),
              std::string::npos)
        << e.what();
  }
  cfg = verilated_config();
  cfg.mem_model = "dram";
  try {
    run_cosim(p, cfg, 1, 1000);
    FAIL() << "run_cosim accepted memory.model dram";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("memory.model is dram but this RTL has sdram_controller"),
              std::string::npos)
        << e.what();
  }
}

// The Verilated controller and the chip behind the port, stepped as RtlSide steps them.
class RtlSdram : public ::testing::Test {
 protected:
  RtlSdram() : cfg_(verilated_config()), mem_(rtl_memory_factory()("memory", cfg_)) {}
  // One cycle with `r` offered; whether it was taken.
  bool step(const scm::memory_model::Request& r = {}) {
    const bool taken = r.valid && mem_->ready(r.op);
    mem_->edge(false, r);
    return taken;
  }
  void send(const scm::memory_model::Request& r) {
    for (int i = 0; i < 100000 && !step(r); ++i) {
    }
  }
  // The first response's data, within `limit` cycles.
  uint32_t answer(unsigned limit = 200) {
    for (unsigned i = 0; i < limit; ++i) {
      if (mem_->response().valid) return mem_->response().data;
      step();
    }
    ADD_FAILURE() << "no response in " << limit << " cycles";
    return 0;
  }
  static scm::memory_model::Request word(uint8_t op, uint32_t addr, uint32_t data = 0) {
    scm::memory_model::Request r;
    r.valid = true;
    r.op = op;
    r.addr = addr;
    r.data = data;
    r.tag = 0x0105;
    return r;
  }
  Config cfg_;
  std::unique_ptr<scm::memory_model> mem_;
};

TEST_F(RtlSdram, InitializesTheChipThenWritesAndReadsThroughIt) {
  auto& chip = dynamic_cast<rtl_sdram&>(*mem_).chip();
  const uint8_t ldw = isa::info(isa::Op::LDW).opcode, stw = isa::info(isa::Op::STW).opcode;
  // Nothing is taken until the chip is initialized: the power-up wait, then its sequence.
  EXPECT_FALSE(mem_->ready(ldw));
  send(word(stw, 0x01234560, 0xcafef00d));
  EXPECT_TRUE(chip.initialized());
  EXPECT_GE(chip.now(), 2000u);
  send(word(ldw, 0x01234560));
  EXPECT_EQ(answer(), 0xcafef00du);
  EXPECT_EQ(mem_->response().tag, 0x0105u);
  // The backdoor and the port see one memory: the word is in the chip's columns.
  const std::vector<uint8_t>& b = mem_->bytes();
  EXPECT_EQ(b[0x01234560], 0x0d);
  EXPECT_EQ(b[0x01234563], 0xca);
  mem_->poke32(0x40, 0x11223344);
  send(word(ldw, 0x40));
  EXPECT_EQ(answer(), 0x11223344u);
  EXPECT_GT(chip.count(scm::SdramChip::Cmd::Active), 0u);
  EXPECT_TRUE(chip.violations().empty());
  EXPECT_FALSE(mem_->first_fault().raised);
}

TEST_F(RtlSdram, ARefusedRequestIsNamedAsTheControllersModelNamesIt) {
  const uint8_t ldw = isa::info(isa::Op::LDW).opcode;
  send(word(ldw, 0x102));  // not on a word
  step();
  const scm::MemFault& f = mem_->first_fault();
  ASSERT_TRUE(f.raised);
  EXPECT_EQ(f.kind, Fault::Misaligned);
  EXPECT_EQ(f.addr, 0x102u);
  const scm::SdramControllerParams p = scm::SdramControllerParams::from(cfg_, sdram_clock_mhz(cfg_));
  scm::SdramController::Request q;
  q.valid = true;
  q.op = ldw;
  q.addr = 0x102;
  EXPECT_EQ(f.detail, scm::SdramController::refusal(p, uint32_t(cfg_.mem_bytes), q).detail);
  EXPECT_NE(f.detail, "");
}

TEST(SdramCosim, FourCoresRunThroughTheControllerCycleExact) {
  // Every thread of every core writes its own words a row apart and reads them back
  // summed, so that rows of every bank open and close under the queue's reordering.
  const Program p = assemble(R"(
        rdsr    r4, lx              # the global thread number
        shli    r5, r4, 10          # a row (1 KiB) a thread
        la      r6, buf
        add     r6, r6, r5
        movi    r7, 0
        movi    r8, 8
loop:   stw     r8, 0(r6)
        ldw     r9, 0(r6)
        add     r7, r7, r9
        addi    r6, r6, 4
        addi    r8, r8, -1
        bnz     r8, loop
        la      r6, out
        shli    r5, r4, 2
        add     r6, r6, r5
        stw     r7, 0(r6)
        exit
        .data
out:    .space  256
buf:    .space  65536
)");
  const Config cfg = verilated_config();
  const CosimResult r = run_cosim(p, cfg, cfg.threads, 200000);
  EXPECT_TRUE(r.passed()) << r.summary();
  EXPECT_EQ(r.rtl.status, RunResult::Status::Exited) << r.rtl.message;
  EXPECT_EQ(r.systemc.memory, r.rtl.memory);
  const uint32_t out = *p.data_symbol("out");
  ASSERT_GE(r.rtl.memory.size(), out + 4 * cfg.cores * cfg.threads);
  for (unsigned t = 0; t < cfg.cores * cfg.threads; ++t)
    EXPECT_EQ(r.rtl.memory[out + 4 * t], 36u) << "thread " << t;  // 8 + 7 + ... + 1, below 256
}

// The RTL side's waveform has the controller beside the system: its pins and state
// under `sdram_controller`, its clock following the system's.
TEST(SdramCosim, TheRtlWaveformShowsTheController) {
  const Config cfg = verilated_config();
  const std::string base = ::testing::TempDir() + "cosim_sdram_wave";
  Options o;
  o.vcd = base;
  o.waves.from = 2000;  // the chip's initialization ends about here
  o.waves.to = 2200;
  const CosimResult r = run_cosim(assemble("ldw r2, 0(r0)\nexit\n"), cfg, 1, 100000, o);
  ASSERT_TRUE(r.passed()) << r.summary();
  std::ifstream in(base + ".rtl.vcd");
  std::stringstream text;
  text << in.rdbuf();
  const std::string vcd = text.str();
  EXPECT_NE(vcd.find("$scope module sdram_controller"), std::string::npos);
  EXPECT_NE(vcd.find(" sdram_ras_n "), std::string::npos);
  EXPECT_NE(vcd.find(" dram_req_valid "), std::string::npos);
  EXPECT_NE(vcd.find("$scope module umbra_system"), std::string::npos);
  std::remove((base + ".rtl.vcd").c_str());
  std::remove((base + ".systemc.vcd").c_str());
}

}  // namespace
}  // namespace umbra::cosim
