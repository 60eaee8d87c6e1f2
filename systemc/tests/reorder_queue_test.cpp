// Unit tests of the reorder queue's behaviour (systemc/reorder_queue.h): the order it
// sends in (FCFS, row hits first, same-line order), the max_passes bound under an
// adversarial stream, full/ready, and its statistics.  They clock ReorderQueueModel,
// the whole behaviour of the SystemC block, directly.
#include "reorder_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "umbra/isa.h"

namespace umbra::scm {
namespace {

QueueParams params(bool reorder, unsigned depth = 16, unsigned open_rows = 4, unsigned max_passes = 16) {
  Config cfg;
  cfg.queue_mode = reorder ? "reorder" : "fcfs";
  cfg.queue_depth = depth;
  cfg.queue_open_rows = open_rows;
  cfg.queue_max_passes = max_passes;
  return QueueParams::from(cfg);
}

// Address of line `col` in row `row` of bank `bank` under the queue's address map.
uint32_t addr_of(const QueueParams& p, uint32_t bank, uint32_t row, uint32_t col_line = 0) {
  return row * p.row_bytes * p.banks + bank * p.row_bytes + col_line * p.line_bytes;
}

QueueRequest fill(uint32_t addr, uint32_t tag) {
  return QueueRequest{isa::kPortOpFill, addr, 0, 0, tag};
}

// Pushes requests one per cycle with the DRAM side not ready.
void push_all(ReorderQueueModel& q, const std::vector<QueueRequest>& rs) {
  for (auto& r : rs) {
    ASSERT_TRUE(q.req_ready());
    EXPECT_FALSE(q.clock(true, r, false));
  }
}

// Drains the queue with the DRAM side always ready; returns the send order.
std::vector<QueueRequest> drain(ReorderQueueModel& q) {
  std::vector<QueueRequest> out;
  while (q.dram_valid()) {
    const QueueRequest r = q.dram_req();
    EXPECT_TRUE(q.clock(false, {}, true));
    out.push_back(r);
  }
  return out;
}

TEST(ReorderQueue, FcfsSendsOldestFirst) {
  const QueueParams p = params(false);
  ReorderQueueModel q(p);
  // Open row 0 of bank 0 first, then a conflicting row and hits to the open row: FCFS
  // must ignore rows.
  push_all(q, {fill(addr_of(p, 0, 0), 1)});
  drain(q);
  std::vector<QueueRequest> rs = {fill(addr_of(p, 0, 5), 2), fill(addr_of(p, 0, 0, 1), 3),
                                  fill(addr_of(p, 1, 2), 4), fill(addr_of(p, 0, 0, 2), 5)};
  push_all(q, rs);
  EXPECT_EQ(drain(q), rs);
  EXPECT_EQ(q.stats().passed_over, 0u);
}

TEST(ReorderQueue, RowHitsGoFirst) {
  const QueueParams p = params(true);
  ReorderQueueModel q(p);
  push_all(q, {fill(addr_of(p, 0, 0), 1)});
  drain(q);  // bank 0 row 0 is now in the open-row table
  const QueueRequest conflict = fill(addr_of(p, 0, 7), 2);
  const QueueRequest hit1 = fill(addr_of(p, 0, 0, 3), 3);
  const QueueRequest other = fill(addr_of(p, 2, 1), 4);
  const QueueRequest hit2 = fill(addr_of(p, 0, 0, 4), 5);
  push_all(q, {conflict, hit1, other, hit2});
  EXPECT_EQ(q.selected(), 1u);
  const std::vector<QueueRequest> order = drain(q);
  // Both hits first (oldest first), then the oldest of the rest; once the conflict has
  // gone, its row is open and `other` is the only one left.
  EXPECT_EQ(order, (std::vector<QueueRequest>{hit1, hit2, conflict, other}));
  // hit1 passed the conflict (1), hit2 passed the conflict and other (2).
  EXPECT_EQ(q.stats().passed_over, 3u);
}

// queue.registered_pick: the entry offered is the search of the cycle before, so a
// request accepted in a cycle is not searched until the next, and a send is followed by
// a cycle that offers nothing while requests are still held (what the RTL's registers
// do: rtl/reorder_queue.v, "selection").
TEST(ReorderQueue, RegisteredPickOffersTheSearchOfTheCycleBefore) {
  for (const bool registered : {false, true}) {
    SCOPED_TRACE(registered ? "registered pick" : "pick of the same cycle");
    QueueParams p = params(true);
    p.registered_pick = registered;
    ReorderQueueModel q(p);
    push_all(q, {fill(addr_of(p, 0, 0), 1)});
    ASSERT_TRUE(q.dram_valid());
    EXPECT_TRUE(q.clock(false, {}, true));  // bank 0 row 0 is now open
    EXPECT_FALSE(q.holding());
    const QueueRequest conflict = fill(addr_of(p, 0, 7), 2);
    const QueueRequest hit = fill(addr_of(p, 0, 0, 3), 3);
    push_all(q, {conflict, hit});
    // The hit arrived in the last cycle: only the pick of the same cycle has seen it.
    EXPECT_EQ(q.selected(), registered ? 0u : 1u);
    EXPECT_FALSE(q.clock(false, {}, false));
    EXPECT_EQ(q.selected(), 1u);
    ASSERT_TRUE(q.dram_valid());
    EXPECT_EQ(q.dram_req(), hit);
    EXPECT_TRUE(q.clock(false, {}, true));
    // After the send: the registered pick offers nothing for a cycle, still holding.
    EXPECT_TRUE(q.holding());
    EXPECT_EQ(q.dram_valid(), !registered);
    if (registered) {
      EXPECT_FALSE(q.clock(false, {}, true));
      ASSERT_TRUE(q.dram_valid());
    }
    EXPECT_EQ(q.dram_req(), conflict);
    EXPECT_TRUE(q.clock(false, {}, true));
    EXPECT_FALSE(q.holding());
  }
}

// queue.registered_accept: a request the core side hands over waits a cycle in the
// input register before it joins the entries (and may be offered), counted as held
// meanwhile; with the entries full the register still takes one, and keeps it until the
// cycle after a send makes room (readiness, as without the register, is the state's
// alone: rtl/reorder_queue.v, "the request the entries take").
TEST(ReorderQueue, RegisteredAcceptHoldsEachRequestACycleBeforeTheEntries) {
  for (const bool registered : {false, true}) {
    SCOPED_TRACE(registered ? "registered accept" : "accept into the entries");
    QueueParams p = params(true, 2);
    p.registered_accept = registered;
    ReorderQueueModel q(p);
    const QueueRequest a = fill(addr_of(p, 0, 0), 1), b = fill(addr_of(p, 1, 0), 2),
                       c = fill(addr_of(p, 2, 0), 3);
    EXPECT_FALSE(q.clock(true, a, false));
    EXPECT_TRUE(q.holding());
    EXPECT_EQ(q.occupancy(), registered ? 0u : 1u);
    EXPECT_EQ(q.dram_valid(), !registered);
    EXPECT_FALSE(q.clock(true, b, false));
    EXPECT_EQ(q.occupancy(), registered ? 1u : 2u);
    // Full entries: the register is still empty, so it takes c; without it c waits outside.
    EXPECT_EQ(q.req_ready(), registered);
    EXPECT_FALSE(q.clock(true, c, false));
    EXPECT_EQ(q.occupancy(), 2u);
    EXPECT_FALSE(q.req_ready());
    ASSERT_TRUE(q.dram_valid());
    EXPECT_EQ(q.dram_req(), a);
    // The send makes room, and the register's c joins behind b in the next edge.
    EXPECT_TRUE(q.clock(false, {}, true));
    EXPECT_EQ(q.occupancy(), 1u);
    EXPECT_EQ(q.req_ready(), true);
    EXPECT_FALSE(q.clock(false, {}, false));
    EXPECT_EQ(q.occupancy(), registered ? 2u : 1u);
    if (registered) EXPECT_EQ(q.entry(1), c);
    EXPECT_EQ(q.stats().accepted, registered ? 3u : 2u);
  }
}

TEST(ReorderQueue, OpenRowTableKeepsOneRowPerBankAndEvictsLeastRecent) {
  const QueueParams p = params(true, 16, 2);
  ReorderQueueModel q(p);
  push_all(q, {fill(addr_of(p, 0, 1), 0), fill(addr_of(p, 1, 1), 0), fill(addr_of(p, 0, 2), 0)});
  drain(q);
  // Bank 0's row 2 replaced its row 1; bank 1 stays.
  EXPECT_EQ(q.open_rows(), (std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}, {1, 1}}));
  push_all(q, {fill(addr_of(p, 3, 4), 0)});
  drain(q);
  EXPECT_EQ(q.open_rows(), (std::vector<std::pair<uint32_t, uint32_t>>{{3, 4}, {0, 2}}));
}

// Random streams with many requests to few lines, loads and stores mixed: for every
// line, the order of sending equals the order of arrival (so a load never overtakes an
// older store to its address).
TEST(ReorderQueue, NeverReordersOneLine) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const QueueParams p = params(true, 8, 2, 4);
    ReorderQueueModel q(p);
    std::mt19937 rng(seed);
    std::map<uint32_t, std::vector<uint32_t>> arrived, sent;
    uint32_t serial = 0;
    for (int cycle = 0; cycle < 3000; ++cycle) {
      const uint32_t bank = rng() % 2, row = rng() % 3, line = rng() % 2;
      const uint32_t a = addr_of(p, bank, row, line) + 4 * (rng() % 8);
      const bool store = rng() % 2;
      QueueRequest r{store ? uint32_t(isa::find_name("stw")->opcode) : uint32_t(isa::kPortOpFill),
                     store ? a : a & ~(p.line_bytes - 1), serial, 0, serial & 0xffff};
      const bool valid = rng() % 3 != 0;
      const bool ready = rng() % 2;
      if (q.dram_valid() && ready) sent[p.line(q.dram_req().addr)].push_back(q.dram_req().data);
      if (valid && q.req_ready()) {
        arrived[p.line(r.addr)].push_back(serial);
        ++serial;
      }
      q.clock(valid, r, ready);
    }
    drain(q);
    for (auto& [line, ids] : sent) {
      const auto& in = arrived[line];
      ASSERT_LE(ids.size(), in.size());
      EXPECT_TRUE(std::equal(ids.begin(), ids.end(), in.begin())) << "seed " << seed << " line " << line;
    }
    EXPECT_GT(q.stats().passed_over, 0u) << "the stream should make the queue reorder";
  }
}

// An adversarial stream: one request to a closed row of an open bank, then an endless
// supply of hits to the open row.  The old request is passed over exactly max_passes
// times, then sent.
TEST(ReorderQueue, MaxPassesBoundsStarvation) {
  for (unsigned max_passes : {1u, 3u, 16u}) {
    const QueueParams p = params(true, 8, 4, max_passes);
    ReorderQueueModel q(p);
    push_all(q, {fill(addr_of(p, 0, 0), 0)});
    drain(q);
    const QueueRequest victim = fill(addr_of(p, 0, 9), 99);
    // The victim, then a hit queued behind it before the DRAM side starts taking.
    push_all(q, {victim, fill(addr_of(p, 0, 0, 63), 1)});
    unsigned hits_sent = 0, col = 0;
    bool victim_sent = false;
    for (int cycle = 0; cycle < 200 && !victim_sent; ++cycle) {
      const QueueRequest hit = fill(addr_of(p, 0, 0, (col++) % 64), 1);
      if (q.dram_valid()) {
        if (q.dram_req() == victim) {
          victim_sent = true;
          EXPECT_EQ(q.passes(q.selected()), max_passes);
        } else {
          ++hits_sent;
        }
      }
      q.clock(true, hit, true);
      for (unsigned i = 0; i < q.occupancy(); ++i) ASSERT_LE(q.passes(i), max_passes);
    }
    EXPECT_TRUE(victim_sent);
    EXPECT_EQ(hits_sent, max_passes);
  }
}

// Random traffic over many rows: the bound holds for every request in every cycle.
TEST(ReorderQueue, MaxPassesHoldsUnderRandomTraffic) {
  const QueueParams p = params(true, 16, 4, 5);
  ReorderQueueModel q(p);
  std::mt19937 rng(7);
  uint64_t max_seen = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    // Mostly hits to two hot rows, sometimes anything.
    const uint32_t row = rng() % 4 ? rng() % 2 : rng() % 50;
    const QueueRequest r = fill(addr_of(p, rng() % 2, row, rng() % 64), 0);
    q.clock(rng() % 4 != 0, r, rng() % 3 != 0);
    for (unsigned i = 0; i < q.occupancy(); ++i) {
      ASSERT_LE(q.passes(i), 5u);
      max_seen = std::max<uint64_t>(max_seen, q.passes(i));
    }
  }
  EXPECT_EQ(max_seen, 5u) << "the traffic should push some request to the bound";
}

TEST(ReorderQueue, ReadyFallsWhenFullAndNothingIsLost) {
  const QueueParams p = params(true, 4);
  ReorderQueueModel q(p);
  EXPECT_TRUE(q.req_ready());
  EXPECT_FALSE(q.dram_valid());
  std::vector<QueueRequest> rs;
  for (uint32_t i = 0; i < 4; ++i) rs.push_back(fill(addr_of(p, 1, 0, i), i));
  push_all(q, rs);
  EXPECT_FALSE(q.req_ready());
  EXPECT_EQ(q.occupancy(), 4u);
  // Offered while full: not taken.
  q.clock(true, fill(addr_of(p, 2, 0), 9), false);
  EXPECT_EQ(q.occupancy(), 4u);
  // A send frees a slot for the next cycle, not the same one (ready is the occupancy
  // at the start of the cycle).
  EXPECT_FALSE(q.req_ready());
  EXPECT_TRUE(q.clock(true, fill(addr_of(p, 2, 0), 9), true));
  EXPECT_EQ(q.occupancy(), 3u);
  EXPECT_TRUE(q.req_ready());
  // Accept and send in one cycle.
  q.clock(true, fill(addr_of(p, 3, 0), 10), true);
  EXPECT_EQ(q.occupancy(), 3u);
  const auto out = drain(q);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out.back().tag, 10u);
  EXPECT_EQ(q.stats().accepted, 5u);
  EXPECT_EQ(q.stats().sent, 5u);
  EXPECT_EQ(q.stats().occupancy_max, 4u);
}

TEST(ReorderQueue, StatisticsCountWaitAndOccupancy) {
  const QueueParams p = params(false, 8);
  ReorderQueueModel q(p);
  EXPECT_EQ(q.stats().mean_occupancy(), 0.0);  // no cycle yet
  q.clock(true, fill(0, 1), false);            // cycle 0: accepted
  q.clock(true, fill(32, 2), false);           // cycle 1: accepted
  q.clock(false, {}, false);                   // cycle 2
  q.clock(false, {}, true);                    // cycle 3: first sent, waited 3
  q.clock(false, {}, true);                    // cycle 4: second sent, waited 3
  q.clock(false, {}, true);                    // cycle 5: empty
  EXPECT_EQ(q.stats().cycles, 6u);
  EXPECT_EQ(q.stats().occupancy_sum, 0u + 1 + 2 + 2 + 1 + 0);
  EXPECT_DOUBLE_EQ(q.stats().mean_occupancy(), 6.0 / 6.0);
  EXPECT_EQ(q.stats().occupancy_max, 2u);
  EXPECT_EQ(q.stats().longest_wait, 3u);
  EXPECT_EQ(q.stats().sent, 2u);
}

TEST(ReorderQueue, RefusesBadConfiguration) {
  Config cfg;
  cfg.queue_mode = "random";
  EXPECT_THROW(QueueParams::from(cfg), QueueConfigError);
  cfg = Config{};
  cfg.dram_banks = 6;
  EXPECT_THROW(QueueParams::from(cfg), QueueConfigError);
}

}  // namespace
}  // namespace umbra::scm
