// The directed memory-system programs (memory_programs.h) on the reference simulator
// and the SystemC model: each must run every thread to `exit` and leave the words its
// `#@ expect` lines name; on SystemC the whole final memory must also equal the ISS's.
// A test per program, so a failure names it.
//
// dinv_host needs the testbench to write memory in the middle of a run ("host writes
// word W at cycle K"), which run_systemc does not offer yet: its test is SKIPPED, with a
// message saying so, until systemc_run.h defines UMBRA_HOST_WRITES and
// RunOptions::host_writes (README.md specifies the hook).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "memory_programs.h"
#include "umbra/asm.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace umbra::memdirected {

void PrintTo(const Spec& s, std::ostream* os) {
  *os << s.name;
}

namespace {

constexpr uint64_t kMaxInstructions = 5'000'000;
constexpr uint64_t kMaxCycles = 5'000'000;

struct IssRun {
  std::vector<uint8_t> memory;
  std::string problem;
};

IssRun run_iss(const Spec& s, const Program& p, const Config& cfg) {
  IssRun out;
  iss::Simulator sim(cfg);
  sim.load(p, s.path);
  const iss::IssResult r = sim.run(s.threads, kMaxInstructions);
  if (r.fault) out.problem = r.fault->message();
  for (const auto& t : r.threads)
    if (out.problem.empty() && t.status != iss::ThreadStatus::Exited) out.problem = "a thread did not exit";
  out.memory = sim.memory().bytes();
  return out;
}

std::string first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return "sizes differ";
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return "first difference at byte 0x" + (std::ostringstream() << std::hex << i).str();
  return "";
}

TEST(MemoryDirected, EveryProgramHasAChecks) {
  const auto specs = all_specs();
  std::set<std::string> names;
  for (const Spec& s : specs) names.insert(s.name);
  for (const char* n : {"all_miss", "store_load", "alias", "merge", "atomics", "dinv_host", "combine"})
    EXPECT_TRUE(names.count(n)) << n << ".s is missing";
}

TEST(MemoryDirected, AMalformedSpecLineNamesItsFileAndLine) {
  const std::string path = testing::TempDir() + "bad_spec.s";
  std::ofstream(path) << "# x\n#@ threads: 2\n#@ expect out: 12 0x1g\n        exit\n";
  try {
    load_spec(path);
    FAIL() << "expected a SpecError";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("bad_spec.s:3: '0x1g' is not a 32-bit number"), std::string::npos)
        << e.what();
  }
  std::ofstream(path) << "#@ threads: 2\n        exit\n";
  EXPECT_THROW(load_spec(path), SpecError);  // nothing to check is an error, not a pass
}

class Programs : public ::testing::TestWithParam<Spec> {};
// The ISS runs the programs without a host write mid-run, which it cannot model.
class IssPrograms : public ::testing::TestWithParam<Spec> {};

TEST_P(IssPrograms, IssMeetsTheExpectations) {
  const Spec& s = GetParam();
  const Config cfg;
  const Program p = assemble(s, cfg.registers);
  const IssRun r = run_iss(s, p, cfg);
  ASSERT_EQ(r.problem, "") << s.name;
  for (const auto& e : check(s, p, r.memory)) ADD_FAILURE() << e;
}

void systemc_meets_the_expectations(const Spec& s, const Config& cfg) {
  const Program p = assemble(s, cfg.registers);
  harness::RunOptions opts;
  if (!s.host_writes.empty()) {
#if defined(UMBRA_HOST_WRITES)
    for (const HostWrite& w : s.host_writes)
      opts.host_writes.push_back({w.cycle, address_of(s, p, w.symbol, w.offset), w.value});
#else
    GTEST_SKIP() << "NEEDS THE HOST-WRITE HOOK: " << s.name
                 << " writes memory mid-run; enabled when systemc_run.h defines UMBRA_HOST_WRITES "
                    "(testbench/directed/memory/README.md)";
#endif
  }
  const umbra::RunResult r = harness::run_systemc(p, cfg, s.threads, kMaxCycles, nullptr, opts);
  ASSERT_EQ(r.status, umbra::RunResult::Status::Exited) << s.name << ": " << r.message;
  for (const auto& e : check(s, p, r.memory)) ADD_FAILURE() << e;
  if (s.host_writes.empty()) EXPECT_EQ(first_difference(run_iss(s, p, cfg).memory, r.memory), "") << s.name;
}

TEST_P(Programs, SystemcMeetsTheExpectationsAndMatchesTheIss) {
  systemc_meets_the_expectations(GetParam(), Config{});
}

// The same programs on a line port (configs/line-port.yaml): fills in one beat, stores
// combined into line writes, which must keep every promise a word store made.
TEST_P(Programs, SystemcWithALinePortMeetsTheExpectationsAndMatchesTheIss) {
  Config cfg;
  cfg.cache_line_port = true;
  cfg.dram_burst = 4;
  systemc_meets_the_expectations(GetParam(), cfg);
}

// ... and behind the fixed-latency memory, the queue bypassed (no reordering to hide
// an ordering mistake behind).
TEST_P(Programs, SystemcWithALinePortOnFixedMemoryMeetsTheExpectationsAndMatchesTheIss) {
  Config cfg;
  cfg.cache_line_port = true;
  cfg.mem_model = "fixed";
  cfg.queue_enabled = false;
  systemc_meets_the_expectations(GetParam(), cfg);
}

// The line-port programs' work items other than 0: one word stored to each of 64 lines
// 2 KiB apart from `far` (a wline each), which keeps the DRAM, the queue and the
// request FIFOs full; and `far` itself, the data's last section.
constexpr const char* kOthers = R"(
other:  li      r3, 2048
        mul     r3, r3, r1
        la      r6, far
        add     r3, r3, r6
        movi    r4, 64
oloop:  stw     r5, 0(r3)
        addi    r3, r3, 32
        addi    r4, r4, -1
        bnz     r4, oloop
        exit
)";
constexpr const char* kFar = R"(
        .align  4096
far:    .space  65536
)";

// On a line port a dflush returns only once its thread's combined stores were accepted
// by the port: every word thread 0 stored before it is in a wline on the port (a mem
// event) before the thread wakes from the dflush.  The 31 other work items of four cores
// meanwhile store one word to each of many lines (a wline each), so that the DRAM, the
// queue and the request FIFOs stay full and thread 0's line waits in its combining
// buffer, not in the port.
TEST(LinePort, ADflushWaitsForTheThreadsCombinedStores) {  // core 0's thread 0
  const std::string src = R"(
        .text
        rdsr    r1, lx
        movi    r5, 1
        bnz     r1, other
        movi    r4, 40
delay:  addi    r4, r4, -1
        bnz     r4, delay
        la      r3, buf
        stw     r5, 0(r3)
        stw     r5, 4(r3)
        stw     r5, 8(r3)
        stw     r5, 12(r3)
        stw     r5, 16(r3)
        stw     r5, 20(r3)
        stw     r5, 24(r3)
        stw     r5, 28(r3)
        dflush
        exit
)" + std::string(kOthers) +
                          R"(
        .data
        .align  32
buf:    .space  32
)" + std::string(kFar);
  Config cfg;
  cfg.cache_line_port = true;  // dram.burst stays 8: a slower DRAM keeps the port busy
  cfg.cores = 4;
  as::Options o;
  o.apply(cfg);
  const as::Result a = as::assemble_string(src, "dflush_line.s", o);
  ASSERT_TRUE(a.ok()) << (a.errors.empty() ? "" : a.errors[0].message);
  struct Sink final : umbra::EventSink {
    uint32_t buf = 0;
    unsigned words = 0;    // words of buf seen in wlines on the port
    bool flushed = false;  // thread 0's dflush reached C2
    int at_wake = -1;      // words seen when thread 0 woke from it
    void on_event(const umbra::Event& e) override {
      if (e.core != 0) return;
      if (e.kind == umbra::EventKind::Mem && e.op == isa::kPortOpWline && e.addr == buf) {
        for (unsigned i = 0; i < 8; ++i) words += e.data >> i & 1u;
      } else if (e.kind == umbra::EventKind::Cache && e.thread == 0 &&
                 e.op == isa::info(isa::Op::DFLUSH).opcode) {
        flushed = true;
      } else if (e.kind == umbra::EventKind::Wake && e.thread == 0 && flushed && at_wake < 0) {
        at_wake = int(words);
      }
    }
  } sink;
  for (const auto& sym : a.program.symbols)
    if (sym.name == "buf") sink.buf = sym.value;
  const umbra::RunResult r = harness::run_systemc(a.program, cfg, 8, kMaxCycles, &sink);
  ASSERT_EQ(r.status, umbra::RunResult::Status::Exited) << r.message;
  EXPECT_GT(r.mem.dram_requests, 8u);
  EXPECT_EQ(sink.at_wake, 8) << "thread 0 woke from dflush with only " << sink.at_wake
                             << " of its 8 combined stores sent";
  EXPECT_EQ(sink.words, 8u);
}

// On a line port a load sees its own thread's store to the word just before it, while
// the store still waits in a combining buffer (the port kept busy as above): the load
// closes the buffer and follows it to the memory.
TEST(LinePort, ALoadSeesTheStoreBufferedBeforeIt) {  // core 0's thread 0
  const std::string src = R"(
        .text
        rdsr    r1, lx
        movi    r5, 1
        bnz     r1, other
        movi    r4, 40
delay:  addi    r4, r4, -1
        bnz     r4, delay
        la      r3, buf
        movi    r4, 32
        movi    r8, 0
        li      r9, 1000
mine:   stw     r9, 4(r3)
        ldw     r10, 4(r3)
        sne     r11, r10, r9
        add     r8, r8, r11
        addi    r9, r9, 7
        addi    r4, r4, -1
        bnz     r4, mine
        la      r3, errors
        stw     r8, 0(r3)
        exit
)" + std::string(kOthers) +
                          R"(
        .data
errors: .word   0xdead
        .align  32
buf:    .space  32
)" + std::string(kFar);
  Config cfg;
  cfg.cache_line_port = true;
  cfg.cores = 4;
  as::Options o;
  o.apply(cfg);
  const as::Result a = as::assemble_string(src, "load_after_store.s", o);
  ASSERT_TRUE(a.ok()) << (a.errors.empty() ? "" : a.errors[0].message);
  const umbra::RunResult r = harness::run_systemc(a.program, cfg, 8, kMaxCycles);
  ASSERT_EQ(r.status, umbra::RunResult::Status::Exited) << r.message;
  uint32_t at = 0;
  for (const auto& sym : a.program.symbols)
    if (sym.name == "errors") at = sym.value;
  const uint32_t errors = uint32_t(r.memory.at(at)) | uint32_t(r.memory.at(at + 1)) << 8 |
                          uint32_t(r.memory.at(at + 2)) << 16 | uint32_t(r.memory.at(at + 3)) << 24;
  EXPECT_EQ(errors, 0u) << "loads that missed the store buffered before them";
}

INSTANTIATE_TEST_SUITE_P(Memory, Programs, ::testing::ValuesIn(all_specs()),
                         [](const auto& info) { return info.param.name; });
std::vector<Spec> iss_specs() {
  std::vector<Spec> v;
  for (const Spec& s : all_specs())
    if (s.host_writes.empty()) v.push_back(s);
  return v;
}
INSTANTIATE_TEST_SUITE_P(Memory, IssPrograms, ::testing::ValuesIn(iss_specs()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace umbra::memdirected
