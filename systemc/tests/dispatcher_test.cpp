// The domain launch on the SystemC side: the dispatcher block alone (systemc/dispatcher.h:
// item order, the round-robin over cores with a free thread, busy, a zero domain) and
// the whole system (run_systemc with a domain: every item once, the same memory as the
// reference simulator, on one core, on three and on four with the registered start).
#include "dispatcher.h"

#include <gtest/gtest.h>

#include <vector>

#include "umbra/asm.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"
#include "umbra_testing/grid_kernel.h"

namespace umbra::scm {
namespace {

TEST(Dispatcher, HandsOutItemsRowByRowToTheNextCoreWithAFreeThread) {
  Dispatcher d(3);
  std::vector<bool> can{true, true, true};
  d.clock(false, true, 2, 2, can);  // a 2 x 2 domain
  ASSERT_TRUE(d.busy());
  struct Got {
    unsigned core;
    uint32_t lx, ly;
  };
  std::vector<Got> got;
  can = {true, false, true};  // core 1 full: skipped
  for (int cycle = 0; cycle < 10 && d.busy(); ++cycle) {
    const Dispatcher::Grant g = d.grant(can);
    ASSERT_TRUE(g.valid);
    got.push_back({g.core, g.lx, g.ly});
    d.clock(false, false, 0, 0, can);
  }
  ASSERT_EQ(got.size(), 4u);
  // Cores 0, 2, 0, 2 (1 has no free thread); items (0,0) (1,0) (0,1) (1,1).
  const unsigned cores[] = {0, 2, 0, 2};
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(got[i].core, cores[i]) << i;
    EXPECT_EQ(got[i].lx, i % 2) << i;
    EXPECT_EQ(got[i].ly, i / 2) << i;
  }
  EXPECT_FALSE(d.grant(can).valid);
}

TEST(Dispatcher, WaitsWithoutAFreeThreadAndKeepsTheItem) {
  Dispatcher d(2);
  std::vector<bool> none{false, false}, one{false, true};
  d.clock(false, true, 5, 1, none);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(d.grant(none).valid);
    d.clock(false, false, 0, 0, none);
  }
  const Dispatcher::Grant g = d.grant(one);
  EXPECT_TRUE(g.valid);
  EXPECT_EQ(g.core, 1u);
  EXPECT_EQ(g.lx, 0u);
}

TEST(Dispatcher, AnEmptyDomainIsNoWorkAndResetClearsOne) {
  Dispatcher d(1);
  const std::vector<bool> can{true};
  d.clock(false, true, 0, 9, can);
  EXPECT_FALSE(d.busy());
  d.clock(false, true, 4, 4, can);
  EXPECT_TRUE(d.busy());
  d.clock(true, false, 0, 0, can);
  EXPECT_FALSE(d.busy());
}

// dispatch.registered_start: the cores see a grant a cycle later, from registers, and
// the core a start is on its way to is passed over meanwhile; busy lasts until the last
// start has left the registers.
TEST(DispatcherRegisteredStart, OneCoreTakesAnItemEverySecondCycle) {
  Dispatcher d(2, true);
  const std::vector<bool> can{true, false};  // core 1 has no free thread
  d.clock(false, true, 3, 1, can);
  std::vector<int> seen;  // per cycle: the item's lx the cores see, or -1
  for (int cycle = 0; cycle < 8; ++cycle) {
    const Dispatcher::Grant s = d.start(can);
    if (s.valid) EXPECT_EQ(s.core, 0u);
    seen.push_back(s.valid ? int(s.lx) : -1);
    if (!d.busy()) break;
    d.clock(false, false, 0, 0, can);
  }
  EXPECT_EQ(seen, (std::vector<int>{-1, 0, -1, 1, -1, 2, -1}));
}

TEST(DispatcherRegisteredStart, TwoCoresStillTakeAnItemEveryCycle) {
  Dispatcher d(2, true);
  const std::vector<bool> can{true, true};
  d.clock(false, true, 4, 1, can);
  std::vector<int> core;  // per cycle: the core the cores see start, or -1
  while (d.busy() && core.size() < 10) {
    const Dispatcher::Grant s = d.start(can);
    core.push_back(s.valid ? int(s.core) : -1);
    d.clock(false, false, 0, 0, can);
  }
  EXPECT_EQ(core, (std::vector<int>{-1, 0, 1, 0, 1}));
}

Program assemble(const char* src) {
  const as::Result r = as::assemble_string(src, "test.s", as::Options{});
  EXPECT_TRUE(r.ok());
  return r.program;
}

using testkit::kGridKernel;

TEST(DomainLaunch, TheSystemRunsEveryItemAsTheReferenceSimulatorDoes) {
  for (unsigned cores : {1u, 3u, 4u}) {
    SCOPED_TRACE(std::to_string(cores) + " cores");
    Config cfg;
    cfg.cores = cores;
    cfg.dispatch_registered_start = cores == 4;  // the ULX3S's registered start
    const Program p = assemble(kGridKernel);
    harness::RunOptions o;
    o.domain = {45, 19};  // 855 items on 8 or 24 threads
    const RunResult r = harness::run_systemc(p, cfg, cfg.threads, 1'000'000, nullptr, o);
    ASSERT_EQ(r.status, RunResult::Status::Exited) << r.message;
    iss::Simulator sim(cfg);
    sim.load(p);
    ASSERT_TRUE(sim.run_domain(45, 19, 1'000'000).all_exited());
    EXPECT_EQ(r.memory, sim.memory().bytes());
    const uint32_t out = p.data_base + 8;  // after dims
    EXPECT_EQ(sim.memory().peek32(out + 4 * (18 * 45 + 44)), testkit::grid_value(44, 18));
    // Every thread slot of every core issued: the threads were refilled.
    ASSERT_EQ(r.stats.issued.size(), size_t(cores) * cfg.threads);
    for (size_t t = 0; t < r.stats.issued.size(); ++t) EXPECT_GT(r.stats.issued[t], 14u * 2) << "slot " << t;
  }
}

TEST(DomainLaunch, ABadDomainIsRefusedBeforeTheRun) {
  Config cfg;
  harness::RunOptions o;
  o.domain = {0, 7};
  EXPECT_THROW(harness::run_systemc(assemble(kGridKernel), cfg, cfg.threads, 1000, nullptr, o), RunError);
  o.domain = {1u << 20, 1u << 20};
  EXPECT_THROW(harness::run_systemc(assemble(kGridKernel), cfg, cfg.threads, 1000, nullptr, o), RunError);
}

}  // namespace
}  // namespace umbra::scm
