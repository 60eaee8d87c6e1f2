// Unit tests of the DRAM timing model (dram.h): row hit, miss and conflict
// timing against the formulas documented there, the response beats (fills on
// consecutive cycles, never interleaved), the in-flight limit, atomics, counters and
// refused requests.  The expected cycles are computed from the formulas and the
// configured parameters, so a change of defaults does not invalidate them.
#include "dram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "umbra/isa.h"

namespace umbra::scm {
namespace {

struct Beat {
  uint64_t cycle;
  uint32_t data, tag;
};

uint32_t op(const char* name) {
  return isa::find_name(name)->opcode;
}

class Harness {
 public:
  explicit Harness(const DramParams& p, uint32_t bytes = 1u << 20) : m(p, bytes) {}
  void step(bool valid = false, uint32_t o = 0, uint32_t addr = 0, uint32_t data = 0, uint32_t cmp = 0,
            uint32_t tag = 0) {
    if (m.resp_valid()) beats.push_back({m.now(), m.resp_data(), m.resp_tag()});
    m.clock(valid, o, addr, data, cmp, tag);
  }
  // Waits for ready, then sends; returns the acceptance cycle.
  uint64_t send(uint32_t o, uint32_t addr, uint32_t tag = 0, uint32_t data = 0, uint32_t cmp = 0) {
    for (int guard = 0; !m.req_ready(); ++guard) {
      if (guard > 10000) ADD_FAILURE() << "dram never ready";
      step();
    }
    const uint64_t c = m.now();
    step(true, o, addr, data, cmp, tag);
    return c;
  }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  DramModel m;
  std::vector<Beat> beats;
};

DramParams defaults() {
  return DramParams::from(Config{});
}

uint32_t addr_of(const DramParams& p, uint32_t bank, uint32_t row, uint32_t line = 0) {
  return row * p.row_bytes * p.banks + bank * p.row_bytes + line * p.line_bytes;
}

// The line port (dram.h): a fill is one beat carrying the whole line, in its burst's
// last cycle; a wline writes exactly the words of its mask, holds the bus one burst, is
// not answered and counts 4 bytes a word written.
TEST(Dram, ALinePortAnswersAFillWithOneBeatAndWritesAWlinesMaskedWords) {
  Config cfg;
  cfg.cache_line_port = true;
  cfg.dram_burst = 4;
  const DramParams p = DramParams::from(cfg);
  const uint64_t burst = (p.burst + 1) / 2;
  Harness h(p);
  const uint32_t base = addr_of(p, 0, 0);
  for (uint32_t i = 0; i < p.line_bytes / 4; ++i) h.m.poke32(base + 4 * i, 100 + i);
  PortLine line;
  for (unsigned i = 0; i < PortLine::kMaxWords; ++i) line.w[i] = 200 + i;
  const uint32_t mask = 0x5au;  // words 1, 3, 4, 6
  ASSERT_TRUE(h.m.req_ready());
  h.m.clock(true, isa::kPortOpWline, base, 0, 0, 7, mask, &line);
  EXPECT_EQ(h.m.stats().bytes, 16u);
  EXPECT_EQ(h.m.stats().bus_busy_cycles, burst);
  for (uint32_t i = 0; i < p.line_bytes / 4; ++i)
    EXPECT_EQ(h.m.peek32(base + 4 * i), (mask >> i & 1u) ? 200 + i : 100 + i) << "word " << i;
  const uint64_t c = h.send(isa::kPortOpFill, base, 3);
  const uint64_t ds = h.m.last_data_start();
  std::vector<PortLine> lines;
  std::vector<uint64_t> at;
  for (unsigned n = 0; n < 100; ++n) {
    if (h.m.resp_valid()) {
      lines.push_back(h.m.resp_line());
      at.push_back(h.m.now());
      EXPECT_EQ(h.m.resp_tag(), 3u);
    }
    h.step();
  }
  ASSERT_EQ(lines.size(), 1u) << "one beat for the whole line";
  EXPECT_GT(ds, c);
  EXPECT_EQ(at[0], ds + burst - 1);
  for (uint32_t i = 0; i < p.line_bytes / 4; ++i)
    EXPECT_EQ(lines[0].w[i], (mask >> i & 1u) ? 200 + i : 100 + i) << "word " << i;
}

TEST(Dram, HitMissConflictTimingFollowsTheFormulas) {
  const DramParams p = defaults();
  const uint64_t burst = (p.burst + 1) / 2, beats = p.line_bytes / 4;
  Harness h(p);
  const uint32_t fill = isa::kPortOpFill;

  // Miss: bank 0 closed.
  const uint64_t c1 = h.send(fill, addr_of(p, 0, 0), 1);
  EXPECT_EQ(c1, 0u);
  const uint64_t ds1 = c1 + p.tRCD + p.CL;
  EXPECT_EQ(h.m.last_data_start(), ds1);
  // Hit: the command slot is free again after tRCD.
  const uint64_t c2 = h.send(fill, addr_of(p, 0, 0, 1), 2);
  EXPECT_EQ(c2, c1 + p.tRCD);
  const uint64_t ds2 = std::max(c2 + p.CL, ds1 + burst);
  EXPECT_EQ(h.m.last_data_start(), ds2);
  // Conflict: bank 0 has row 0 open; precharge waits for tRAS after the activation.
  const uint64_t c3 = h.send(fill, addr_of(p, 0, 1), 3);
  EXPECT_EQ(c3, c2 + 1);
  const uint64_t a3 = std::max<uint64_t>(c3, c1 + p.tRAS) + p.tRP;
  const uint64_t ds3 = std::max(a3 + p.tRCD + p.CL, ds2 + burst);
  EXPECT_EQ(h.m.last_data_start(), ds3);
  // Miss on another bank: no bank-level parallelism, it waits for the command slot.
  const uint64_t c4 = h.send(fill, addr_of(p, 1, 0), 4);
  EXPECT_EQ(c4, a3 + p.tRCD);
  const uint64_t ds4 = std::max(c4 + p.tRCD + p.CL, ds3 + burst);
  EXPECT_EQ(h.m.last_data_start(), ds4);
  h.idle(200);

  // Responses: each fill's beats on consecutive cycles, in order, starting at its
  // data_start or right after the previous response.
  ASSERT_EQ(h.beats.size(), 4 * beats);
  uint64_t expect = 0;
  const uint64_t ds[4] = {ds1, ds2, ds3, ds4};
  for (unsigned r = 0; r < 4; ++r) {
    expect = std::max(expect, ds[r]);
    for (unsigned b = 0; b < beats; ++b) {
      const Beat& got = h.beats[r * beats + b];
      EXPECT_EQ(got.cycle, expect) << "response " << r << " beat " << b;
      EXPECT_EQ(got.tag, r + 1);
      ++expect;
    }
  }
  const DramStats& s = h.m.stats();
  EXPECT_EQ(s.row_hits, 1u);
  EXPECT_EQ(s.row_misses, 2u);
  EXPECT_EQ(s.row_conflicts, 1u);
  EXPECT_EQ(s.bus_busy_cycles, 4 * burst);
  EXPECT_EQ(s.requests, 4u);
  EXPECT_EQ(s.bytes, 4u * p.line_bytes);
}

TEST(Dram, BackToBackHitsAreBusLimited) {
  const DramParams p = defaults();
  const uint64_t burst = (p.burst + 1) / 2;
  Harness h(p);
  h.send(op("stw"), addr_of(p, 2, 3));
  uint64_t prev_ds = h.m.last_data_start();
  for (uint32_t i = 1; i < 6; ++i) {
    const uint64_t c = h.send(op("stw"), addr_of(p, 2, 3, i));
    EXPECT_EQ(h.m.last_data_start(), std::max(c + p.CL, prev_ds + burst));
    prev_ds = h.m.last_data_start();
  }
  h.idle(100);
  EXPECT_TRUE(h.beats.empty()) << "stores are not answered";
  EXPECT_EQ(h.m.stats().row_hits, 5u);
}

TEST(Dram, FillBeatsAreTheLineWords) {
  const DramParams p = defaults();
  Harness h(p);
  const uint32_t base = addr_of(p, 3, 2, 5);
  for (uint32_t i = 0; i < p.line_bytes; i += 4) h.m.poke32(base + i, 0xa0000000u + i);
  h.send(isa::kPortOpFill, base, 0x0107);
  h.idle(100);
  ASSERT_EQ(h.beats.size(), p.line_bytes / 4);
  for (unsigned i = 0; i < h.beats.size(); ++i) {
    EXPECT_EQ(h.beats[i].data, 0xa0000000u + 4 * i);
    EXPECT_EQ(h.beats[i].tag, 0x0107u);
    if (i) {
      EXPECT_EQ(h.beats[i].cycle, h.beats[i - 1].cycle + 1);
    }
  }
}

TEST(Dram, AtomicsReadModifyWriteAndTakeTwoBursts) {
  const DramParams p = defaults();
  const uint64_t burst = (p.burst + 1) / 2;
  Harness h(p);
  const uint32_t a = addr_of(p, 0, 0, 1) + 8;
  h.m.poke32(a, 100);
  h.send(op("atom.add"), a, 5, /*data=*/7);
  const uint64_t ds = h.m.last_data_start();
  h.send(op("red.add"), a, 6, /*data=*/3);
  // The reduction's data waits for both bursts of the atomic.
  EXPECT_EQ(h.m.last_data_start(), ds + 2 * burst);
  h.idle(100);
  EXPECT_EQ(h.m.peek32(a), 110u);
  ASSERT_EQ(h.beats.size(), 1u) << "red.* is not answered";
  EXPECT_EQ(h.beats[0].data, 100u);
  EXPECT_EQ(h.beats[0].tag, 5u);
  EXPECT_EQ(h.beats[0].cycle, ds);
  EXPECT_EQ(h.m.stats().bus_busy_cycles, 4 * burst);
  EXPECT_EQ(h.m.stats().bytes, 16u);
}

TEST(Dram, InflightLimitHoldsReadyLow) {
  DramParams p = defaults();
  p.inflight = 1;
  Harness h(p);
  h.send(isa::kPortOpFill, addr_of(p, 0, 0), 1);
  const uint64_t ds = h.m.last_data_start();
  // The next request is accepted once the fill's last beat has gone.
  const uint64_t c = h.send(isa::kPortOpFill, addr_of(p, 0, 0, 1), 2);
  EXPECT_EQ(c, ds + p.line_bytes / 4);
}

TEST(Dram, BadRequestsRaiseAStickyFaultAndDoNothing) {
  const DramParams p = defaults();
  {
    Harness h(p, 4096);
    h.send(isa::kPortOpFill, 4, 1);
    h.idle(60);
    EXPECT_TRUE(h.m.first_fault().raised);
    EXPECT_EQ(h.m.first_fault().kind, Fault::Misaligned);
    EXPECT_TRUE(h.beats.empty());
    EXPECT_EQ(h.m.stats().requests, 0u);
    // A later bad request does not replace the first fault.
    h.send(op("stw"), 8192, 2);
    EXPECT_EQ(h.m.first_fault().kind, Fault::Misaligned);
  }
  {
    Harness h(p, 4096);
    h.send(op("ldw"), 4096, 1);
    EXPECT_EQ(h.m.first_fault().kind, Fault::OutOfRange);
  }
  {
    Harness h(p, 4096);
    h.send(op("add"), 0, 1);
    EXPECT_EQ(h.m.first_fault().kind, Fault::IllegalInstruction);
    EXPECT_NE(h.m.first_fault().detail.find("no memory instruction"), std::string::npos);
  }
}

}  // namespace
}  // namespace umbra::scm
