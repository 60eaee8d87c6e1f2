// The directed memory-system programs (memory_programs.h) under the cosimulation: the
// Verilated RTL and the SystemC model in lockstep, both checked against the reference
// simulator by run_cosim, and both final memories against the programs' `#@ expect`
// lines.  dinv_host's host write reaches both through Options::host_writes.  Built for
// the default configuration and for each line-port variant (CMakeLists.txt), where
// LinePort also plants faults in the wlines.
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
std::vector<umbra::HostWrite> host_writes(const Spec& s, const Program& p) {
  std::vector<umbra::HostWrite> out;
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
  // The expectations count one core's threads; on several cores (a line-port variant)
  // every core runs the program, and the ISS's final memory, which run_cosim compares,
  // is the reference.
  if (cfg.cores > 1) return;
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
  if (cfg.cores == 1)  // the expectations count one core's threads (above)
    for (const auto& e : check(s, p, r.memory)) ADD_FAILURE() << "rtl: " << e;
  if (!s.host_writes.empty()) return;
  iss::Simulator iss(cfg);
  iss.load(p);
  const iss::IssResult ref = iss.run(s.threads, 5'000'000);
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

// On a line port (the line-port variants): a fault planted in the SystemC side's first
// wline, in its mem event, in the port's view of it and in the DRAM event it makes, is
// caught in the cycle of that event, so the wlines are compared, not only agreed on.
TEST(LinePort, PlantedWlineFaultsAreCaughtAtTheirCycle) {
  const Config cfg = cosim::verilated_config();
  if (!cfg.cache_line_port) GTEST_SKIP() << "a word-port build: no wline to plant a fault in";
  Spec s;
  for (const Spec& x : all_specs())
    if (x.name == "combine") s = x;
  ASSERT_EQ(s.name, "combine");
  const Program p = assemble(s, cfg.registers);
  umbra::VectorEventSink sink;
  const cosim::RunResult clean = cosim::run_rtl(p, cfg, s.threads, 5'000'000, &sink);
  ASSERT_EQ(clean.status, cosim::RunResult::Status::Exited) << clean.message;
  using K = cosim::Injection::Kind;
  using E = umbra::EventKind;
  const struct {
    const char* name;
    K kind;
    E event;
    const char* stage;
    const char* field;
  } cases[] = {{"mem", K::MemAddr, E::Mem, "events", "addr (mem)"},
               {"port-mem", K::PortMemAddr, E::Mem, "memory port", "addr"},
               {"dram", K::DramAddr, E::Dram, "events", "addr (dram)"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const umbra::Event* wline = nullptr;
    for (const umbra::Event& e : sink.events)
      if (e.kind == c.event && e.op == isa::kPortOpWline) {
        wline = &e;
        break;
      }
    ASSERT_NE(wline, nullptr) << "the clean run sends no wline";
    cosim::Options opts;
    opts.inject = {c.kind, wline->cycle, 0};
    const cosim::CosimResult r = cosim::run_cosim(p, cfg, s.threads, 5'000'000, opts);
    ASSERT_TRUE(r.mismatch.found) << c.name << " was not reported";
    EXPECT_EQ(r.mismatch.cycle, wline->cycle);
    EXPECT_EQ(r.mismatch.stage, c.stage);
    EXPECT_EQ(r.mismatch.field, c.field);
    EXPECT_FALSE(r.passed());
  }
}

}  // namespace
}  // namespace umbra::memdirected
