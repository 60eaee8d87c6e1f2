// Helpers for the SystemC model's tests: assemble a snippet, run it on the model
// (run_systemc forks a child per run, so one test binary makes many runs) and on the
// reference simulator, and cut either run into per-thread streams of what retired.
// The streams are what the model promises to agree on with the ISS whatever the
// timing: the pcs each thread issued, in order, and the registers it wrote, in order.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace umbra::scm::test {

inline Program assemble(const std::string& src, const Config& cfg = Config{}) {
  as::Options o;
  o.registers = cfg.registers;
  const as::Result r = as::assemble_string(src, "test.s", o);
  std::string diags;
  for (const auto& d : r.errors) diags += d.render();
  EXPECT_TRUE(r.ok()) << diags;
  return r.program;
}

inline Config config(unsigned threads = 8, unsigned latency = 12) {
  Config c;
  c.threads = threads;
  c.mem_latency = latency;
  c.mem_model = "fixed";  // the timing tests state the fixed memory's contract
  c.queue_enabled = false;
  return c;
}

struct RegWrite {
  uint32_t pc;
  unsigned reg;
  uint32_t value;
  bool operator==(const RegWrite& o) const { return pc == o.pc && reg == o.reg && value == o.value; }
};
inline std::ostream& operator<<(std::ostream& os, const RegWrite& w) {
  return os << "{pc " << w.pc << ", r" << w.reg << " = 0x" << std::hex << w.value << std::dec << "}";
}

// Per thread: the pcs issued (retired, for a run without faults) and the writes.
struct Streams {
  std::vector<std::vector<uint32_t>> pcs;
  std::vector<std::vector<RegWrite>> writes;
};

struct ScRun {
  RunResult result;
  std::vector<Event> events;
  Streams streams;
};

inline ScRun run_sc(const Program& p, const Config& cfg, unsigned n, uint64_t max_cycles = 1'000'000,
                    harness::RunOptions opts = {}) {
  VectorEventSink sink;
  ScRun r;
  r.result = harness::run_systemc(p, cfg, n, max_cycles, &sink, opts);
  r.events = std::move(sink.events);
  r.streams.pcs.resize(cfg.threads);
  r.streams.writes.resize(cfg.threads);
  for (const Event& e : r.events) {
    if (e.kind == EventKind::Issue) r.streams.pcs[e.thread].push_back(e.pc);
    if (e.kind == EventKind::RegWrite) r.streams.writes[e.thread].push_back({e.pc, e.reg, e.value});
  }
  return r;
}

struct IssRun {
  iss::IssResult result;
  std::vector<uint8_t> memory;
  Streams streams;
};

inline IssRun run_iss(const Program& p, const Config& cfg, unsigned n,
                      uint64_t max_instructions = 1'000'000) {
  iss::Simulator sim(cfg);
  sim.load(p);
  IssRun r;
  r.streams.pcs.resize(cfg.threads);
  r.streams.writes.resize(cfg.threads);
  r.result = sim.run(n, max_instructions, [&](unsigned t, const Retired& ret) {
    if (ret.fault != Fault::None) return;
    r.streams.pcs[t].push_back(ret.pc);
    if (ret.writes_reg) r.streams.writes[t].push_back({ret.pc, ret.reg, ret.value});
  });
  r.memory = sim.memory().bytes();
  return r;
}

inline uint32_t word_at(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

// Holds the model to the ISS: both exit, same per-thread streams, same final memory.
inline void expect_matches_iss(const Program& p, const Config& cfg, unsigned n, const std::string& what) {
  SCOPED_TRACE(what + ", " + std::to_string(n) + " threads, T=" + std::to_string(cfg.threads) + ", latency " +
               std::to_string(cfg.mem_latency));
  const IssRun ref = run_iss(p, cfg, n);
  ASSERT_TRUE(ref.result.all_exited()) << (ref.result.fault ? ref.result.fault->message() : "");
  const ScRun sc = run_sc(p, cfg, n);
  ASSERT_EQ(sc.result.status, RunResult::Status::Exited) << sc.result.message;
  for (unsigned t = 0; t < cfg.threads; ++t) {
    EXPECT_EQ(sc.streams.pcs[t], ref.streams.pcs[t]) << "pcs of thread " << t;
    EXPECT_EQ(sc.streams.writes[t], ref.streams.writes[t]) << "register writes of thread " << t;
  }
  ASSERT_EQ(sc.result.memory.size(), ref.memory.size());
  unsigned shown = 0;
  for (uint32_t a = 0; a + 4 <= ref.memory.size() && shown < 8; a += 4)
    if (word_at(sc.result.memory, a) != word_at(ref.memory, a)) {
      ADD_FAILURE() << "memory word at 0x" << std::hex << a << ": model 0x" << word_at(sc.result.memory, a)
                    << ", ISS 0x" << word_at(ref.memory, a);
      ++shown;
    }
}

}  // namespace umbra::scm::test
