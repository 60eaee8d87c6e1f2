// A memory that breaks the port's protocol is reported, by whichever block sees it: the
// data cache (a beat for another thread in the middle of a fill) or the load/store unit
// (a response tag that names no thread).  umbra_core::protocol_error() gives the first
// block's message, the harness stops the run on it, and umbra-sim prints it.  Each case
// runs the kernel-free bench (harness/system_side.h) in a child process, since
// SystemC elaborates once per process, and changes one response beat's tag on the
// system's input after the memory has driven it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench.h"
#include "sc_test_util.h"
#include "system_side.h"

namespace umbra::scm {
namespace {

// Two threads each load from their own cache line: two fills of several beats.
const char* kProgram = R"(
        .text
        rdsr    r1, tid
        shli    r2, r1, 6
        la      r3, buf
        add     r3, r3, r2
        ldw     r4, 0(r3)
        exit
        .data
buf:    .space  256
)";

// Runs kProgram on two threads and gives response beat `beat` (counted from 1) the tag
// `bad(tag)`; prints the core's protocol error and exits 3 if there is one, 0 if not.
[[noreturn]] void run_with_bad_beat(unsigned beat, uint32_t (*bad)(uint32_t)) {
  const Program p = test::assemble(kProgram);
  Config cfg;  // the default: a data cache of 32-byte lines, the DRAM behind the queue
  harness::claim_process();
  harness::SystemcSide* side = nullptr;
  harness::HostScript::Job job = harness::make_job(p, 2, 100000);
  job.stop = [&side] { return side && !harness::protocol_error(side->sys).empty(); };
  side = new harness::SystemcSide("system", cfg, 0, {}, 1);  // never destroyed, as every bench
  harness::HostScript host(std::move(job));
  harness::load_memory(side->memory, p, {});
  unsigned seen = 0;
  harness::run_alone(*side, host, [&] {
    umbra_system::Inputs& in = side->sys.inputs();
    if (in.mem_resp_valid && ++seen == beat) {
      in.mem_resp_tag = bad(in.mem_resp_tag);
      side->sys.settle();
    }
  });
  const std::string& error = harness::protocol_error(side->sys);
  std::fprintf(stderr, "%s\n", error.c_str());
  std::exit(error.empty() ? 0 : 3);
}

TEST(PortProtocolDeathTest, AnotherThreadsBeatInTheMiddleOfAFillIsTheCachesError) {
  EXPECT_EXIT(run_with_bad_beat(2, [](uint32_t tag) { return tag ^ 1u; }), ::testing::ExitedWithCode(3),
              "memory port protocol error in cycle [0-9]+: a beat for thread [01] in the middle of the fill "
              "of thread [01]");
}

TEST(PortProtocolDeathTest, ATagNamingNoThreadIsReported) {
  EXPECT_EXIT(run_with_bad_beat(1, [](uint32_t) { return 200u; }), ::testing::ExitedWithCode(3),
              "memory port protocol error in cycle [0-9]+: .*200");
}

TEST(PortProtocolDeathTest, TheSameRunWithoutTheBadBeatHasNone) {
  EXPECT_EXIT(run_with_bad_beat(1000, [](uint32_t tag) { return tag; }), ::testing::ExitedWithCode(0), "");
}

// The memory port's tag is {core id, thread} (docs/memory-system.md): a memory shared by
// several cores routes each response back by it.  Both paths to the port: through the
// reorder queue (the DRAM) and around it (the fixed memory).
[[noreturn]] void run_as_core(unsigned core_id, bool queue) {
  const Program p = test::assemble(kProgram);
  Config cfg;
  if (!queue) {
    cfg.mem_model = "fixed";
    cfg.queue_enabled = false;
  }
  harness::claim_process();
  auto* side = new harness::SystemcSide("system", cfg, core_id, {}, 8);
  harness::HostScript host(harness::make_job(p, 2, 100000));
  harness::load_memory(side->memory, p, {});
  unsigned requests = 0, wrong = 0;
  harness::run_alone(*side, host, [&] {
    const umbra_system::Outputs o = side->sys.outputs();
    if (!o.mem_req_valid) return;
    ++requests;
    if (o.mem_req_tag >> 8 != core_id || (o.mem_req_tag & 0xffu) >= 2) ++wrong;
  });
  std::fprintf(stderr, "%u requests, %u with a tag other than {%u, thread}\n", requests, wrong, core_id);
  std::exit(requests > 0 && wrong == 0 && host.reason() == harness::StopReason::Done ? 0 : 3);
}

TEST(PortProtocolDeathTest, TheTagCarriesTheCoreIdThroughTheQueue) {
  EXPECT_EXIT(run_as_core(5, true), ::testing::ExitedWithCode(0), "[1-9][0-9]* requests, 0 with");
}

TEST(PortProtocolDeathTest, TheTagCarriesTheCoreIdAroundTheQueue) {
  EXPECT_EXIT(run_as_core(5, false), ::testing::ExitedWithCode(0), "[1-9][0-9]* requests, 0 with");
}

}  // namespace
}  // namespace umbra::scm
