// Every instruction of the ISA under the cosimulation: the generated program of each
// (directed.h) runs on the Verilated RTL and the SystemC model in lockstep, and both
// are checked against the reference simulator (per-thread retire streams and register
// writes, final memory, which holds every case's result).  A test per instruction, so
// a failure names the instruction; the coverage test makes sure a new instruction in
// isa/isa.yaml gets its program.  An instruction of an extension group the verilated
// configuration lacks (core.groups) is skipped by name, with the assembler's message:
// its program does not assemble for that configuration.
#include <gtest/gtest.h>

#include <set>

#include "directed.h"
#include "umbra/asm.h"
#include "umbra/cosim_run.h"

namespace umbra::directed {

// Test names and messages show the instruction, not the bytes of the struct.
void PrintTo(const Program& p, std::ostream* os) {
  *os << p.name;
}

namespace {

using cosim::verilated_config;

as::Result assemble_for(const Program& p, const Config& cfg) {
  as::Options o;
  o.apply(cfg);  // the variant's registers, .data origin, stores and groups
  return as::assemble_string(p.source, p.name + ".s", o);
}

umbra::Program assemble(const Program& p, const Config& cfg) {
  const as::Result r = assemble_for(p, cfg);
  std::string diags;
  for (const auto& d : r.errors) diags += d.render();
  EXPECT_TRUE(r.ok()) << p.name << ":\n" << diags;
  return r.program;
}

TEST(Directed, EveryInstructionHasAProgramThatExecutesIt) {
  const Config cfg = verilated_config();
  std::set<std::string> covered;
  for (const Program& p : programs(cfg.cores * cfg.threads, cfg.imem_words)) {
    if (!cfg.has(*p.instr)) {
      // Refused for its own instruction's group, the one the configuration lacks.
      const as::Diagnostic* d = as::absent_group_error(assemble_for(p, cfg));
      ASSERT_NE(d, nullptr) << p.name << " assembled for a configuration without its group";
      EXPECT_EQ(d->absent_group, int(p.instr->group)) << p.name << ": " << d->message;
      covered.insert(p.name);
      continue;
    }
    const umbra::Program prog = assemble(p, cfg);
    unsigned uses = 0;
    for (uint32_t w : prog.text)
      if (isa::opcode_of(w) == p.instr->opcode) ++uses;
    // `exit` ends every program; every other instruction appears once per case.
    EXPECT_GE(uses, p.cases) << p.name;
    covered.insert(p.name);
  }
  covered.insert("exit");
  for (const isa::InstrInfo& in : isa::kInstrs)
    EXPECT_TRUE(covered.count(in.name)) << in.name << " has no program";
}

// The register check at the configuration's edge: the first register number it lacks
// is an illegal instruction on every model, at that word's pc; with all 256 there is
// none, and r255 must run.  (The campaign's survivor cca0e7401f36 widened the check's
// generate to 255 registers; configs/test-odd.yaml has 255.)
TEST(Directed, TheFirstRegisterTheConfigurationLacksIsIllegalOnEveryModel) {
  const Config cfg = verilated_config();
  const bool all = cfg.registers >= 256;
  const int32_t reg = all ? 255 : int32_t(cfg.registers);
  const int32_t values[3] = {reg, 0, 0};
  const auto word = isa::encode(*isa::find_name("add"), values);
  ASSERT_TRUE(word.has_value());
  as::Options o;
  o.apply(cfg);
  const as::Result a =
      as::assemble_string(".text\n nop\n .word " + std::to_string(*word) + "\n exit\n", "edge_register.s", o);
  ASSERT_TRUE(a.ok());
  const cosim::CosimResult r = cosim::run_cosim(a.program, cfg, 2, 10000, {});
  EXPECT_TRUE(r.passed()) << "r" << reg << "\n" << r.summary();
  if (all) {
    EXPECT_EQ(r.rtl.status, cosim::RunResult::Status::Exited) << r.rtl.message;
    EXPECT_EQ(r.systemc.status, cosim::RunResult::Status::Exited) << r.systemc.message;
  } else {
    EXPECT_EQ(r.rtl.fault, Fault::IllegalInstruction) << r.rtl.message;
    EXPECT_EQ(r.systemc.fault, Fault::IllegalInstruction) << r.systemc.message;
    EXPECT_EQ(r.rtl.fault_pc, 4u);
    EXPECT_EQ(r.systemc.fault_pc, 4u);
  }
}

class Cosim : public ::testing::TestWithParam<Program> {};

TEST_P(Cosim, RtlSystemcAndIssAgree) {
  const Config cfg = verilated_config();
  if (const as::Diagnostic* d = as::absent_group_error(assemble_for(GetParam(), cfg)))
    GTEST_SKIP() << GetParam().name << " skipped: " << d->message;
  const umbra::Program prog = assemble(GetParam(), cfg);
  for (unsigned threads : {cfg.threads, 3u}) {
    cosim::Options opts;
    opts.repro = "umbra-directed /tmp/d --threads " + std::to_string(cfg.cores * cfg.threads) +
                 " && umbra-cosim --config " + cosim::verilated_params().config_file + " /tmp/d/" +
                 GetParam().name + ".s --threads " + std::to_string(threads);
    const cosim::CosimResult r = cosim::run_cosim(prog, cfg, threads, 2'000'000, opts);
    EXPECT_TRUE(r.passed()) << GetParam().name << " threads=" << threads << "\n" << r.summary();
    EXPECT_EQ(r.rtl.status, cosim::RunResult::Status::Exited) << r.rtl.message;
    EXPECT_EQ(r.systemc.status, cosim::RunResult::Status::Exited) << r.systemc.message;
    EXPECT_GT(r.events_compared, 0u);
  }
}

// Sized for the verilated configuration's work items (every core's threads): the
// HX8K's data memory is 4 KiB.
INSTANTIATE_TEST_SUITE_P(Isa, Cosim,
                         ::testing::ValuesIn(programs(verilated_config().cores* verilated_config().threads,
                                                      verilated_config().imem_words)),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

}  // namespace
}  // namespace umbra::directed
