// The SystemC model as a SystemC module.  Every run of the project steps the model
// without the kernel (harness/system_side.h); a user who puts umbra_system into a
// SystemC platform gets its ports, its clocked method and its routing method instead.
// This test elaborates that: umbra_system bound to signals beside the harness's
// memory_side and host_driver, one sc_clock, sc_start; and holds it to run_systemc
// event by event, in statistics, final memory and end cycle.  One kernel run per
// forked child, since SystemC elaborates once per process.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench.h"
#include "sc_test_util.h"
#include "subprocess.h"
#include "umbra/format.h"
#include "umbra_system.h"

namespace umbra::scm {
namespace {

constexpr uint64_t kMaxCycles = 100000;

RunResult run_under_kernel(const Program& p, const Config& cfg, unsigned nthreads,
                           const std::vector<HostWrite>& writes, EventSink* sink) {
  harness::claim_process();
  // Never destroyed, as every bench: its modules are registered with the kernel.
  struct Bench {
    sc_clock clk{"clk", 1, SC_NS};
    harness::HostWires h;
    harness::SystemWires w;
    umbra_system sys;
    harness::memory_side memory;
    harness::host_driver host;
    Bench(const Config& cfg, harness::HostScript::Job job, const std::vector<HostWrite>& writes)
        : w("", cfg), sys("system", cfg), memory("memory", cfg, writes), host("host", std::move(job)) {
      harness::bind_system(sys, clk, h, w, memory);
      harness::bind_host(host, clk, h, w.busy, w.fault, w.mem_fault);
      h.ncore.write(cfg.cores);
    }
  };
  auto* b = new Bench(cfg, harness::make_job(p, nthreads, kMaxCycles), writes);
  b->sys.set_event_sink(sink);
  harness::load_memory(b->memory, p, {});
  sc_start();
  b->sys.flush_events();
  RunResult r;
  r.stats = harness::system_stats(b->sys);
  r.cycles = r.stats.cycles;
  r.mem = memory_stats(b->sys, cfg.queue_enabled);
  b->memory.model().add_stats(r.mem);
  harness::fill_status(
      r, b->host.script(), b->memory, [&](RunResult& x) { harness::core_fault(x, b->sys); },
      harness::protocol_error(b->sys), kMaxCycles);
  return r;
}

std::vector<std::string> lines(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events) out.push_back(std::to_string(e.cycle) + " " + format_event(e));
  return out;
}

std::vector<uint64_t> memory_fields(const MemoryStats& m) {
  std::vector<uint64_t> out;
  for_each_memory_field(m, [&](auto v) { out.push_back(uint64_t(v)); });
  return out;
}

// Loads, stores and atomics from every thread on a few shared lines (misses, merges,
// replays, queue reordering), a host write in mid-run, on the DRAM behind the queue, on
// the fixed memory with the queue bypassed (whose ready follows the request's op) and
// behind a queue small enough to fill.
TEST(SystemcUnderTheKernel, RunsAsTheKernelFreeBenchDoes) {
  const Program p = test::assemble(R"(
        .text
        rdsr    r1, tid
        andi    r3, r1, 3
        shli    r3, r3, 6
        la      r2, table
        add     r2, r2, r3
        la      r6, counter
        movi    r5, 3
again:  ldw     r4, 0(r2)
        add     r4, r4, r1
        stw     r4, 4(r2)
        atom.add r7, r6, r5
        addi    r5, r5, -1
        bnz     r5, again
        exit
        .data
counter: .word  0
table:  .space  512
)");
  // "full-queue": a queue of 2 that the program fills, so its ready falls and rises
  // (the signal the routing method reads under the kernel); "response-register": the
  // responses through memory.response_register, whose changes the routing method
  // follows through a signal of its own.
  for (const std::string memory : {"dram", "fixed", "full-queue", "response-register"}) {
    SCOPED_TRACE(memory);
    Config cfg;
    if (memory == "fixed") {
      cfg.queue_enabled = false;
      cfg.mem_model = "fixed";
      cfg.mem_latency = 5;
    }
    if (memory == "full-queue") cfg.queue_depth = 2;
    if (memory == "response-register") cfg.mem_response_register = true;
    const std::vector<HostWrite> writes = {{30, p.data_base + 4 + 64, 77}};
    VectorEventSink plain_events, kernel_events;
    harness::RunOptions o;
    o.host_writes = writes;
    const RunResult plain = harness::run_systemc(p, cfg, cfg.threads, kMaxCycles, &plain_events, o);
    const RunResult kernel = harness::run_result_in_child(
        [&](EventSink* s) { return run_under_kernel(p, cfg, cfg.threads, writes, s); }, &kernel_events);
    ASSERT_EQ(plain.status, RunResult::Status::Exited) << plain.message;
    ASSERT_EQ(kernel.status, RunResult::Status::Exited) << kernel.message;
    EXPECT_GT(plain.mem.cache_misses, 0u);
    EXPECT_GT(plain_events.events.size(), 300u);
    EXPECT_EQ(lines(kernel_events.events), lines(plain_events.events));
    EXPECT_EQ(kernel.end_cycle, plain.end_cycle);
    EXPECT_EQ(kernel.launch_cycle, plain.launch_cycle);
    EXPECT_EQ(kernel.stats.issued, plain.stats.issued);
    EXPECT_EQ(kernel.stats.bubbles, plain.stats.bubbles);
    EXPECT_EQ(memory_fields(kernel.mem), memory_fields(plain.mem));
    EXPECT_EQ(kernel.mem.load_buckets, plain.mem.load_buckets);
    EXPECT_EQ(kernel.memory, plain.memory);
    EXPECT_NE(test::word_at(plain.memory, p.data_base + 4 + 64), 0u);
    if (memory == "full-queue") {
      EXPECT_EQ(plain.mem.queue_occupancy_max, 2u);
    }
  }
}

}  // namespace
}  // namespace umbra::scm
