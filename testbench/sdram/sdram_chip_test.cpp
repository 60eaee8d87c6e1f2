// sdram_chip_test: the SDRAM chip model (sdram_chip.h) on hand-written pin
// sequences: each rule fires on a sequence that breaks it, by name and at the edge
// of the offending command, and the legal sequences next to them (the same commands
// one cycle later) pass and round-trip data.  A small clock (100 MHz, the
// MT48LC16M16A2-6A's datasheet times) so the cycle counts are the ones the
// controller's parameters use; the power-up wait is shortened where a test does not
// concern it.
#include "sdram_chip.h"

#include <gtest/gtest.h>

#include <string>

namespace umbra::scm {
namespace {

using Cmd = SdramChip::Cmd;

SdramTiming timing_100mhz() {
  return SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 100.0);
}

// Drives the pins one edge at a time and remembers what the chip put on DQ.
struct Drive {
  SdramChip chip;
  SdramTiming timing;
  explicit Drive(const SdramTiming& t) : chip(t), timing(t) {}

  SdramPins pins(Cmd c, unsigned ba = 0, uint32_t a = 0) {
    SdramPins p;
    p.cs_n = c == Cmd::Inhibit;
    static const unsigned code[] = {7, 3, 5, 4, 2, 1, 0, 6, 7};  // {ras_n, cas_n, we_n}
    const unsigned k = code[int(c)];
    p.ras_n = k & 4;
    p.cas_n = k & 2;
    p.we_n = k & 1;
    p.ba = ba;
    p.a = a;
    return p;
  }
  // One edge; returns DQ the chip drives for the next one (-1: none).
  int edge(const SdramPins& p) {
    chip.clock(p);
    return chip.dq_drive() ? chip.dq_out() : -1;
  }
  int cmd(Cmd c, unsigned ba = 0, uint32_t a = 0) { return edge(pins(c, ba, a)); }
  void nop(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cmd(Cmd::Nop);
  }
  // A write beat (with or without a WRITE command at this edge).
  void wbeat(Cmd c, unsigned ba, uint32_t a, uint16_t dq, unsigned dqm = 0) {
    SdramPins p = pins(c, ba, a);
    p.dq = dq;
    p.dq_oe = true;
    p.dqm = dqm;
    edge(p);
  }
  // The init sequence as the datasheet gives it, mode: BL2 sequential, CL (2 or 3).
  void init(unsigned cl = 2, unsigned bl_code = 1) {
    nop(unsigned(chip.now() < pu() ? pu() - chip.now() : 0));
    cmd(Cmd::Precharge, 0, 1u << 10);
    nop(t().tRP - 1);
    for (unsigned i = 0; i < t().init_refreshes; ++i) {
      cmd(Cmd::Refresh);
      nop(t().tRFC - 1);
    }
    cmd(Cmd::LoadMode, 0, cl << 4 | bl_code);
    nop(t().tMRD - 1);
  }
  uint64_t pu() const { return timing.power_up; }
  const SdramTiming& t() const { return timing; }
};

Drive make(SdramTiming t = timing_100mhz(), uint64_t power_up = 20) {
  t.power_up = power_up;
  return Drive(t);
}

// The rules of the violations so far, with their cycles, for a failure message.
std::string all(const SdramChip& c) {
  std::string s;
  for (const auto& v : c.violations()) s += v.text() + "\n";
  return s;
}

// Exactly one violation, of `rule`, at `cycle`.
void expect_one(const SdramChip& c, const std::string& rule, uint64_t cycle) {
  ASSERT_EQ(c.violations().size(), 1u) << all(c);
  EXPECT_EQ(c.violations()[0].rule, rule) << all(c);
  EXPECT_EQ(c.violations()[0].cycle, cycle) << all(c);
}

TEST(SdramTiming, FromNanosecondsRoundsUp) {
  const SdramTiming t = timing_100mhz();
  EXPECT_EQ(t.tRCD, 2u);  // 18 ns at 10 ns
  EXPECT_EQ(t.tRP, 2u);
  EXPECT_EQ(t.tRAS, 5u);  // 42 ns
  EXPECT_EQ(t.tRC, 6u);   // 60 ns exactly: no extra clock for rounding noise
  EXPECT_EQ(t.tRRD, 2u);
  EXPECT_EQ(t.tWR, 2u);
  EXPECT_EQ(t.tRFC, 6u);
  EXPECT_EQ(t.tREF, 6400000u);  // 64 ms
  EXPECT_EQ(t.power_up, 10000u);
  const SdramTiming f = SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 166.0);
  EXPECT_EQ(f.tRCD, 3u);  // 18 ns at 6.02 ns
  EXPECT_EQ(f.tRAS, 7u);
  EXPECT_EQ(f.tRC, 10u);
  EXPECT_THROW(SdramTiming::from(SdramPart{}, 0), std::invalid_argument);
}

TEST(SdramChip, LegalSequencePassesAndRoundTripsData) {
  Drive d = make();
  d.init(2);
  ASSERT_TRUE(d.chip.initialized());
  EXPECT_EQ(d.chip.cas_latency(), 2u);
  EXPECT_EQ(d.chip.burst_length(), 2u);
  // Bank 1 row 77, columns 8 and 9: WRITE 0x1234 then 0xabcd; READ back.
  d.cmd(Cmd::Active, 1, 77);
  d.nop(d.t().tRCD - 1);
  d.wbeat(Cmd::Write, 1, 8, 0x1234);
  d.wbeat(Cmd::Nop, 1, 0, 0xabcd);
  EXPECT_EQ(d.chip.peek(1, 77, 8), 0x1234);
  EXPECT_EQ(d.chip.peek(1, 77, 9), 0xabcd);
  // A second bank, tRRD after the first ACTIVE long past.
  d.cmd(Cmd::Active, 2, 5);
  d.nop(d.t().tRCD - 1);
  int at_cl = -2, next = -2;
  EXPECT_EQ(d.cmd(Cmd::Read, 1, 8), -1);  // nothing on DQ before CL
  at_cl = d.cmd(Cmd::Nop);                // DQ for edge READ + 2
  next = d.cmd(Cmd::Nop);
  EXPECT_EQ(at_cl, 0x1234);
  EXPECT_EQ(next, 0xabcd);
  EXPECT_EQ(d.cmd(Cmd::Nop), -1);  // the burst of 2 is over
  // Byte masks: only the high byte of column 8 changes.
  d.nop(1);  // a cycle between the read data and the WRITE's
  d.wbeat(Cmd::Write, 1, 8, 0x5600, 1);
  d.wbeat(Cmd::Nop, 1, 0, 0, 3);
  EXPECT_EQ(d.chip.peek(1, 77, 8), 0x5634);
  EXPECT_EQ(d.chip.peek(1, 77, 9), 0xabcd);
  d.nop(d.t().tWR);
  d.cmd(Cmd::Precharge, 0, 1u << 10);
  d.nop(d.t().tRP - 1);
  d.cmd(Cmd::Refresh);
  d.nop(d.t().tRFC);
  EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  EXPECT_EQ(d.chip.refreshes(), 3u);
}

TEST(SdramChip, BurstOfEightWrapsAndCasLatencyThree) {
  Drive d = make(SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 166.0));
  d.init(3, 3);  // CL3, BL8
  for (unsigned c = 0; c < 8; ++c) d.chip.poke(0, 3, 16 + c, uint16_t(0x100 + c));
  d.cmd(Cmd::Active, 0, 3);
  d.nop(d.t().tRCD - 1);
  int first = d.cmd(Cmd::Read, 0, 16 + 5);  // starts at column 5 of the block, wraps
  EXPECT_EQ(first, -1);
  EXPECT_EQ(d.cmd(Cmd::Nop), -1);
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(d.cmd(Cmd::Nop), int(0x100 + ((5 + i) & 7))) << i;
  EXPECT_EQ(d.cmd(Cmd::Nop), -1);
  EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
}

TEST(SdramChip, ReadInterruptedByReadAndPrecharge) {
  Drive d = make();
  d.init(2, 3);  // BL8
  for (unsigned c = 0; c < 16; ++c) d.chip.poke(3, 9, c, uint16_t(c));
  d.cmd(Cmd::Active, 3, 9);
  d.nop(d.t().tRCD - 1);
  d.cmd(Cmd::Read, 3, 0);
  EXPECT_EQ(d.cmd(Cmd::Nop), 0);         // column 0 at READ + 2
  EXPECT_EQ(d.cmd(Cmd::Read, 3, 8), 1);  // column 1; then the new READ's data
  EXPECT_EQ(d.cmd(Cmd::Nop), 8);
  d.nop(d.t().tRAS);
  EXPECT_EQ(d.cmd(Cmd::Precharge, 3), 14);  // data still due before the cut (CL-1 edges)
  EXPECT_EQ(d.cmd(Cmd::Nop), -1);           // cut: column 15 never comes
  EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
}

// ---- each rule fires --------------------------------------------------------------

TEST(SdramChipRules, CommandDuringPowerUp) {
  Drive d = make(timing_100mhz(), 100);
  d.nop(50);
  d.cmd(Cmd::Precharge, 0, 1u << 10);
  expect_one(d.chip, "init", 50);
}

TEST(SdramChipRules, FirstCommandNotPrechargeAll) {
  Drive d = make();
  d.nop(d.pu());
  d.cmd(Cmd::Refresh);
  expect_one(d.chip, "init", d.pu());
}

TEST(SdramChipRules, ActiveBeforeModeRegister) {
  Drive d = make();
  d.nop(d.pu());
  d.cmd(Cmd::Precharge, 0, 1u << 10);
  d.nop(d.t().tRP - 1);
  for (int i = 0; i < 2; ++i) {
    d.cmd(Cmd::Refresh);
    d.nop(d.t().tRFC - 1);
  }
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, 0, 1);
  expect_one(d.chip, "init", at);
}

TEST(SdramChipRules, TooFewInitRefreshes) {
  Drive d = make();
  d.nop(d.pu());
  d.cmd(Cmd::Precharge, 0, 1u << 10);
  d.nop(d.t().tRP - 1);
  d.cmd(Cmd::Refresh);
  d.nop(d.t().tRFC - 1);
  d.cmd(Cmd::LoadMode, 0, 0x21);
  d.nop(d.t().tMRD - 1);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, 0, 1);
  expect_one(d.chip, "init", at);
}

// Opens bank `ba` row `row` and returns the ACTIVE's cycle.
uint64_t open_row(Drive& d, unsigned ba, unsigned row) {
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, ba, row);
  return at;
}

TEST(SdramChipRules, tRCD) {
  for (unsigned gap : {1u, 2u}) {  // tRCD = 2: one cycle early fails, on time passes
    Drive d = make();
    d.init();
    open_row(d, 0, 1);
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Read, 0, 0);
    d.nop(4);
    if (gap < d.t().tRCD)
      expect_one(d.chip, "tRCD", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tRAS) {
  for (unsigned gap : {4u, 5u}) {  // tRAS = 5
    Drive d = make();
    d.init();
    open_row(d, 1, 1);
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Precharge, 1);
    if (gap < d.t().tRAS)
      expect_one(d.chip, "tRAS", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tRP) {
  for (unsigned gap : {1u, 2u}) {  // tRP = 2 (tRC long past)
    Drive d = make();
    d.init();
    open_row(d, 1, 1);
    d.nop(d.t().tRC);
    d.cmd(Cmd::Precharge, 1);
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Active, 1, 2);
    if (gap < d.t().tRP)
      expect_one(d.chip, "tRP", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tRC) {
  for (unsigned gap : {5u, 6u}) {  // tRC = 6: tRAS + tRP = 7 would not show it, so tRAS 3 here
    SdramTiming t = timing_100mhz();
    t.tRAS = 3;
    Drive d = make(t);
    d.init();
    open_row(d, 2, 1);
    d.nop(t.tRAS - 1);
    d.cmd(Cmd::Precharge, 2);
    d.nop(gap - t.tRAS - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Active, 2, 2);
    if (gap < t.tRC)
      expect_one(d.chip, "tRC", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tRRD) {
  for (unsigned gap : {1u, 2u}) {  // tRRD = 2
    Drive d = make();
    d.init();
    open_row(d, 0, 1);
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Active, 3, 1);
    if (gap < d.t().tRRD)
      expect_one(d.chip, "tRRD", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tWR) {
  for (unsigned gap : {1u, 2u}) {  // tWR = 2 from the last data edge
    Drive d = make();
    d.init();
    open_row(d, 0, 1);
    d.nop(d.t().tRAS);
    d.wbeat(Cmd::Write, 0, 0, 1);
    d.wbeat(Cmd::Nop, 0, 0, 2);  // the last data, at edge w + 1
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Precharge, 0);
    if (gap < d.t().tWR)
      expect_one(d.chip, "tWR", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tRFC) {
  for (unsigned gap : {5u, 6u}) {  // tRFC = 6
    Drive d = make();
    d.init();
    d.cmd(Cmd::Refresh);
    d.nop(gap - 1);
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::Active, 0, 1);
    if (gap < d.t().tRFC)
      expect_one(d.chip, "tRFC", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, tMRD) {
  Drive d = make();
  d.init();
  d.cmd(Cmd::LoadMode, 0, 0x21);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, 0, 1);  // one cycle after, tMRD = 2
  expect_one(d.chip, "tMRD", at);
}

TEST(SdramChipRules, ReadToIdleBank) {
  Drive d = make();
  d.init();
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Read, 2, 0);
  expect_one(d.chip, "READ to idle bank", at);
}

TEST(SdramChipRules, WriteToIdleBank) {
  Drive d = make();
  d.init();
  const uint64_t at = d.chip.now();
  d.wbeat(Cmd::Write, 1, 0, 7);
  expect_one(d.chip, "WRITE to idle bank", at);
}

TEST(SdramChipRules, ActiveToOpenBank) {
  Drive d = make();
  d.init();
  open_row(d, 1, 4);
  d.nop(d.t().tRC);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, 1, 5);
  expect_one(d.chip, "ACTIVE to open bank", at);
}

TEST(SdramChipRules, RefreshWithOpenBank) {
  Drive d = make();
  d.init();
  open_row(d, 3, 4);
  d.nop(d.t().tRC);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Refresh);
  expect_one(d.chip, "AUTO REFRESH with open bank", at);
}

TEST(SdramChipRules, CasLatencyTooShortForTheClock) {
  // CL2 needs 10 ns; at 166 MHz (6 ns) only CL3 is allowed.
  Drive d = make(SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 166.0));
  d.init(3);
  EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  Drive e = make(SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 166.0));
  e.init(2);
  ASSERT_EQ(e.chip.violations().size(), 1u) << all(e.chip);
  EXPECT_EQ(e.chip.violations()[0].rule, "CAS latency");
  // The -6A grade's CL 2 limit is 10 ns: 100 MHz may use it, 133 MHz (7.5 ns, the
  // -7E grade's CL 2 clock) may not.
  Drive at100 = make(SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 100.0));
  at100.init(2);
  EXPECT_TRUE(at100.chip.violations().empty()) << all(at100.chip);
  Drive at133 = make(SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), 133.0));
  at133.init(2);
  ASSERT_EQ(at133.chip.violations().size(), 1u) << all(at133.chip);
  EXPECT_EQ(at133.chip.violations()[0].rule, "CAS latency");
}

TEST(SdramChipRules, ReadDataThenWriteNeedsATurnaroundCycle) {
  for (unsigned gap : {2u, 3u, 4u}) {  // BL2 CL2: last read data at READ + 3
    Drive d = make();
    d.init();
    open_row(d, 0, 1);
    d.nop(d.t().tRCD - 1);
    d.cmd(Cmd::Read, 0, 0);
    d.nop(gap);
    const uint64_t at = d.chip.now();
    d.wbeat(Cmd::Write, 0, 4, 9);
    d.wbeat(Cmd::Nop, 0, 0, 9);
    if (gap == 2)
      expect_one(d.chip, "DQ contention", at);
    else if (gap == 3)
      expect_one(d.chip, "DQ turnaround", at);
    else
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
  }
}

TEST(SdramChipRules, WriteBeatNotDriven) {
  Drive d = make();
  d.init();
  open_row(d, 0, 1);
  d.nop(d.t().tRCD - 1);
  d.wbeat(Cmd::Write, 0, 0, 1);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Nop);  // the second beat of BL2: neither driven nor masked
  expect_one(d.chip, "write data", at);
}

TEST(SdramChipRules, RefreshWindow) {
  // A small part so 64 ms is short: 16 rows, tREF 1600 cycles, refresh every 100.
  SdramTiming t = timing_100mhz();
  t.rows = 16;
  t.tREF = 1600;
  for (unsigned every : {100u, 101u}) {
    Drive d = make(t);
    d.init();
    const uint64_t done = d.chip.now();
    while (d.chip.now() < done + 4000 && d.chip.violations().empty()) {
      d.cmd(Cmd::Refresh);
      d.nop(every - 1);
    }
    if (every == 100) {
      EXPECT_TRUE(d.chip.violations().empty()) << all(d.chip);
    } else {
      // The row the init's counter reached first misses its 1600-cycle deadline.
      ASSERT_EQ(d.chip.violations().size(), 1u) << all(d.chip);
      EXPECT_EQ(d.chip.violations()[0].rule, "tREF");
      EXPECT_EQ(d.chip.violations()[0].cycle, done + 1601);
    }
  }
}

TEST(SdramChipRules, RowOpenTooLong) {
  SdramTiming t = timing_100mhz();
  t.tRAS_max = 50;
  Drive d = make(t);
  d.init();
  const uint64_t at = open_row(d, 0, 1);
  d.nop(60);
  expect_one(d.chip, "tRAS max", at + 51);
}

TEST(SdramChipRules, ModeRegisterCodes) {
  // Reserved burst length, full page (not modelled), CAS latency 1, operating mode bits.
  for (uint32_t mode : {0x24u, 0x27u, 0x11u, 0xa1u}) {
    Drive d = make();
    d.nop(d.pu());
    d.cmd(Cmd::Precharge, 0, 1u << 10);
    d.nop(d.t().tRP - 1);
    for (int i = 0; i < 2; ++i) {
      d.cmd(Cmd::Refresh);
      d.nop(d.t().tRFC - 1);
    }
    const uint64_t at = d.chip.now();
    d.cmd(Cmd::LoadMode, 0, mode);
    expect_one(d.chip, "mode register", at);
  }
}

TEST(SdramChipRules, LoadModeWithOpenBank) {
  Drive d = make();
  d.init();
  open_row(d, 2, 9);
  d.nop(d.t().tRC);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::LoadMode, 0, 0x21);
  expect_one(d.chip, "LOAD MODE REGISTER with open bank", at);
}

TEST(SdramChipRules, RowOutOfRange) {
  SdramTiming t = timing_100mhz();
  t.rows = 64;
  Drive d = make(t);
  d.init();
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Active, 0, 64);
  expect_one(d.chip, "row range", at);
}

TEST(SdramChipRules, AutoPrechargeIsNotModelled) {
  Drive d = make();
  d.init();
  open_row(d, 0, 1);
  d.nop(d.t().tRCD - 1);
  const uint64_t at = d.chip.now();
  d.cmd(Cmd::Read, 0, 1u << 10);
  expect_one(d.chip, "auto-precharge", at);
}

TEST(SdramChipRules, CkeLowAfterPowerUpIsNotModelled) {
  Drive d = make();
  d.init();
  SdramPins p = d.pins(Cmd::Nop);
  p.cke = false;
  const uint64_t at = d.chip.now();
  d.edge(p);
  expect_one(d.chip, "CKE", at);
}

TEST(SdramChipRules, ThrowsWhenAsked) {
  SdramTiming t = timing_100mhz();
  t.power_up = 5;
  SdramChip c(t, true);
  SdramPins p;
  p.cs_n = false;
  p.ras_n = true;  // READ
  p.cas_n = false;
  p.we_n = true;
  try {
    c.clock(p);
    FAIL() << "no throw";
  } catch (const SdramError& e) {
    EXPECT_EQ(e.violation.rule, "init");
    EXPECT_EQ(e.violation.cycle, 0u);
    EXPECT_NE(std::string(e.what()).find("cycle 0: init:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace umbra::scm
