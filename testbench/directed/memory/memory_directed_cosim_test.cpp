// The directed memory-system programs (memory_programs.h) under the cosimulation: the
// Verilated RTL and the SystemC model in lockstep, both checked against the reference
// simulator by run_cosim, and both final memories against the programs' `#@ expect`
// lines.  dinv_host's host write reaches both through Options::host_writes.
#include <gtest/gtest.h>

#include <cstring>

#include "memory_programs.h"
#include "umbra/cosim_run.h"
#include "umbra/iss.h"

namespace umbra::memdirected {

void PrintTo(const Spec& s, std::ostream* os) {
  *os << s.name;
}

namespace {

class Cosim : public ::testing::TestWithParam<Spec> {};

// The spec's host writes at the addresses the program gives their symbols.
std::vector<scm::HostWrite> host_writes(const Spec& s, const Program& p) {
  std::vector<scm::HostWrite> out;
  for (const HostWrite& w : s.host_writes)
    out.push_back({w.cycle, address_of(s, p, w.symbol, w.offset), w.value});
  return out;
}

TEST_P(Cosim, RtlAndSystemcMeetTheExpectations) {
  const Spec& s = GetParam();
  const Config cfg = load_config(cosim::verilated_params().config_file);
  const Program p = assemble(s, cfg.registers);
  cosim::Options opts;
  opts.repro = "umbra-cosim " + s.path + " --threads " + std::to_string(s.threads);
  opts.program_name = s.name + ".s";
  if (!s.host_writes.empty()) {
#if defined(UMBRA_HOST_WRITES)
    opts.host_writes = host_writes(s, p);
    opts.check_iss = false;  // the ISS cannot see a write made mid-run
#else
    GTEST_SKIP() << "NEEDS THE HOST-WRITE HOOK: " << s.name
                 << " writes memory mid-run; enabled when cosim_run.h defines UMBRA_HOST_WRITES "
                    "(testbench/directed/memory/README.md)";
#endif
  }
  const cosim::CosimResult r = cosim::run_cosim(p, cfg, s.threads, 5'000'000, opts);
  EXPECT_TRUE(r.passed()) << s.name << "\n" << r.summary();
  ASSERT_EQ(r.systemc.status, cosim::RunResult::Status::Exited) << r.systemc.message;
  ASSERT_EQ(r.rtl.status, cosim::RunResult::Status::Exited) << r.rtl.message;
  for (const auto& e : check(s, p, r.systemc.memory)) ADD_FAILURE() << "systemc: " << e;
  for (const auto& e : check(s, p, r.rtl.memory)) ADD_FAILURE() << "rtl: " << e;
}

// The RTL alone (umbra-sim --model rtl): nothing compares it cycle by cycle, so its
// run must not end while its system is busy (the queue's DRAM traffic included), and
// its final memory must meet the expectations and equal the ISS's (which cannot run a
// program whose memory the host writes mid-run: those meet their expectations only).
TEST_P(Cosim, RtlAloneMeetsTheExpectationsAndTheIss) {
  const Spec& s = GetParam();
  const Config cfg = load_config(cosim::verilated_params().config_file);
  const Program p = assemble(s, cfg.registers);
  cosim::Options opts;
  opts.host_writes = host_writes(s, p);
  const cosim::RunResult r = cosim::run_rtl(p, cfg, s.threads, 5'000'000, nullptr, opts);
  ASSERT_EQ(r.status, cosim::RunResult::Status::Exited) << r.message;
  for (const auto& e : check(s, p, r.memory)) ADD_FAILURE() << "rtl: " << e;
  if (!s.host_writes.empty()) return;
  iss::Simulator iss(cfg);
  iss.load(p);
  const iss::RunResult ref = iss.run(s.threads, 5'000'000);
  ASSERT_TRUE(ref.all_exited());
  const std::vector<uint8_t>& want = iss.memory().bytes();
  ASSERT_EQ(r.memory.size(), want.size());
  size_t differ = 0;
  for (size_t a = 0; a < want.size(); a += 4)
    if (std::memcmp(&r.memory[a], &want[a], 4) != 0 && differ++ < 4)
      ADD_FAILURE() << s.name << ": word at " << a << " differs from the ISS's";
  EXPECT_EQ(differ, 0u) << s.name << ": words of the RTL's final memory differ from the ISS's";
}

INSTANTIATE_TEST_SUITE_P(Memory, Cosim, ::testing::ValuesIn(all_specs()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace umbra::memdirected
