// sdram_controller_test: rtl/sdram_controller.v (Verilated, plain C++) driving the
// chip model (sdram_chip.h) through its pins, with random requests on its DRAM port
// checked against a reference memory: every response's data, tag and order, a
// fill's beats on consecutive cycles, and the chip's contents at the end.  The chip
// judges the pins: a clean run has no violation at all, refresh included.  The
// controller's parameters are fixed when Verilating (SDC_* definitions, one
// executable per parameter set, testbench/sdram/CMakeLists.txt); the chip model is
// built from the MT48LC16M16A2-6A's datasheet times at the same clock, so a
// controller parameter that is too short for the part is a violation.  The build
// with a deliberately broken parameter expects the chip to name it (SDC_EXPECT).
//
// Beside the RTL runs its C++ cycle model (systemc/memory/sdram_controller.h, the
// SystemC side's `sdram` memory) on the same requests: every cycle its ready, its
// response beats and its pins must be the RTL's, so every test here is also the
// model's cycle-exactness test.
//
// The edge, as on the board: the controller's registered pins are what the chip
// samples at the rising edge; the chip's DQ after that edge is what the controller
// registers at the next one.
#include "sdram_controller.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vsdram_controller.h"
#include "sdram_chip.h"
#include "umbra/isa.h"
#include "umbra/semantics.h"
#include "verilated.h"

namespace umbra::scm {
namespace {

constexpr unsigned kLineWords = SDC_LINE_BYTES / 4;
constexpr bool kLinePort = SDC_LINE_PORT != 0;
constexpr uint32_t kRowBytes = 2u << SDC_COL_BITS;
constexpr uint32_t kBanks = 1u << SDC_BANK_BITS;
constexpr uint32_t kBytes = kRowBytes * kBanks << SDC_ROW_BITS;

struct Beat {
  uint32_t data, tag;
  bool line_beat;  // one beat carrying the line (line port fill)
  std::vector<uint32_t> line;
  bool fill_cont;  // a later beat of a word-port fill: must follow at once
};

class Bench {
 public:
  Bench()
      : ctx_(std::make_unique<VerilatedContext>()),
        dut_(std::make_unique<Vsdram_controller>(ctx_.get())),
        chip_(chip_timing()),
        model_(model_params(), kBytes) {
    dut_->clk = 0;
    dut_->rst = 1;
    dut_->dram_req_valid = 0;
    for (int i = 0; i < 4; ++i) step();
    dut_->rst = 0;
  }
  ~Bench() { dut_->final(); }

  static scm::SdramControllerParams model_params() {
    scm::SdramControllerParams p;
    p.CL = SDC_CL;
    p.T_RCD = SDC_T_RCD;
    p.T_RP = SDC_T_RP;
    p.T_RAS = SDC_T_RAS;
    p.T_RC = SDC_T_RC;
    p.T_RRD = SDC_T_RRD;
    p.T_WR = SDC_T_WR;
    p.T_RFC = SDC_T_RFC;
    p.T_MRD = SDC_T_MRD;
    p.T_REFI = SDC_T_REFI;
    p.INIT_WAIT = SDC_INIT_WAIT;
    p.INIT_REFRESHES = SDC_INIT_REFRESHES;
    p.COL_BITS = SDC_COL_BITS;
    p.BANK_BITS = SDC_BANK_BITS;
    p.ROW_BITS = SDC_ROW_BITS;
    p.LINE_BYTES = SDC_LINE_BYTES;
    p.LINE_PORT = SDC_LINE_PORT;
    return p;
  }
  static SdramTiming chip_timing() {
    SdramTiming t = SdramTiming::from(SdramPart::mt48lc16m16a2_6a(), SDC_CLOCK_MHZ);
    t.rows = 1u << SDC_ROW_BITS;
    t.columns = 1u << SDC_COL_BITS;
    t.banks = 1u << SDC_BANK_BITS;
    // A chip with fewer rows (a test point) keeps the part's time per row: 64 ms for
    // 8192 rows is 7.8 us each, so 64 rows have a window of 500 us.
    t.tREF = t.tREF * t.rows / SdramPart::mt48lc16m16a2_6a().rows;
    return t;
  }

  // One cycle: the request (if `req`) is offered; returns whether it was taken.
  struct Req {
    uint8_t op = 0;
    uint32_t addr = 0, data = 0, cmp = 0, tag = 0, mask = 0;
    std::vector<uint32_t> line;
  };
  bool step(const Req* req = nullptr) {
    dut_->clk = 0;
    dut_->sdram_dq_i = chip_.dq_drive() ? chip_.dq_out() : uint16_t(floating_());
    dut_->dram_req_valid = req != nullptr;
    if (req) {
      dut_->dram_req_op = req->op;
      dut_->dram_req_addr = req->addr;
      dut_->dram_req_data = req->data;
      dut_->dram_req_cmp = req->cmp;
      dut_->dram_req_tag = req->tag;
      dut_->dram_req_mask = req->mask;
      for (unsigned i = 0; i < kLineWords; ++i) line_in(i) = i < req->line.size() ? req->line[i] : 0;
    }
    dut_->eval();
    const bool taken = req && dut_->dram_req_ready;
    const SdramPins p = controller_pins(*dut_);
    compare_before(p);
    dut_->clk = 1;
    dut_->eval();
    chip_.clock(p);
    PortLine line;
    if (req)
      for (unsigned i = 0; i < kLineWords && i < req->line.size(); ++i) line.w[i] = req->line[i];
    model_.clock(dut_->rst, {req != nullptr, req ? req->op : 0u, req ? req->addr : 0u, req ? req->data : 0u,
                             req ? req->cmp : 0u, req ? req->tag : 0u, req ? req->mask : 0u, &line});
    ++cycle_;
    if (taken) reference(*req);
    check_response();
    compare_after();
    return taken;
  }

  // Offers `r` until it is taken.
  void send(const Req& r) {
    while (!step(&r)) {
    }
  }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  // Runs until every expected response has come.
  void drain() {
    for (unsigned i = 0; i < 2000 && !expect_.empty(); ++i) step();
    EXPECT_TRUE(expect_.empty()) << expect_.size() << " responses never came";
  }
  void wait_init() {
    while (!dut_->init_done) step();
  }

  uint32_t ref(uint32_t a) const {
    auto it = mem_.find(a);
    return it == mem_.end() ? 0 : it->second;
  }
  // The word at byte address a as the chip holds it (the controller's address map).
  uint32_t chip_word(uint32_t a) const {
    const unsigned col = (a >> 1) & ((1u << SDC_COL_BITS) - 1);
    const unsigned bank = (a >> (SDC_COL_BITS + 1)) & (kBanks - 1);
    const unsigned row = a >> (SDC_COL_BITS + 1 + SDC_BANK_BITS);
    return chip_.peek(bank, row, col) | uint32_t(chip_.peek(bank, row, col + 1)) << 16;
  }
  const std::unordered_map<uint32_t, uint32_t>& ref_words() const { return mem_; }

  SdramChip& chip() { return chip_; }
  const scm::SdramController& model() const { return model_; }
  std::string model_errors;  // the first cycles where the model and the RTL differ
  Vsdram_controller& dut() { return *dut_; }
  uint64_t cycle() const { return cycle_; }
  uint64_t responses() const { return responses_; }
  std::string errors;  // response mismatches, first few

 private:
  // The line ports as their 32-bit words (a Verilated port wider than 64 bits is a
  // VlWide, an array of them; one of 32 bits is a plain uint32_t).
  uint32_t& line_in(unsigned i) { return reinterpret_cast<uint32_t*>(&dut_->dram_req_line)[i]; }
  uint32_t line_out(unsigned i) const { return reinterpret_cast<const uint32_t*>(&dut_->dram_resp_line)[i]; }

  void reference(const Req& r) {
    // What the controller refuses does nothing (and raises its fault).
    const bool line_op = r.op == isa::kPortOpFill || r.op == isa::kPortOpWline;
    if (r.addr % (line_op ? SDC_LINE_BYTES : 4) || r.addr >= kBytes) return;
    if (r.op == isa::kPortOpFill) {
      if (kLinePort) {
        Beat b{ref(r.addr), r.tag, true, {}, false};
        for (unsigned i = 0; i < kLineWords; ++i) b.line.push_back(ref(r.addr + 4 * i));
        expect_.push_back(b);
      } else {
        for (unsigned i = 0; i < kLineWords; ++i)
          expect_.push_back({ref(r.addr + 4 * i), r.tag, false, {}, i > 0});
      }
      return;
    }
    if (r.op == isa::kPortOpWline) {
      for (unsigned i = 0; i < kLineWords; ++i)
        if (r.mask >> i & 1) mem_[r.addr + 4 * i] = r.line[i];
      return;
    }
    const isa::InstrInfo* in = isa::find_opcode(r.op);
    if (in->cls == isa::Class::Load) {
      expect_.push_back({ref(r.addr), r.tag, false, {}, false});
    } else if (in->cls == isa::Class::Store) {
      mem_[r.addr] = r.data;
    } else {
      RegValues v;
      v.a = r.cmp;
      v.b = r.addr;
      v.c = r.data;
      const uint32_t old = ref(r.addr);
      mem_[r.addr] = atomic_update(in->op, old, v);
      if (in->writes_a) expect_.push_back({old, r.tag, false, {}, false});
    }
  }

  void check_response() {
    const bool fill_due = !expect_.empty() && expect_.front().fill_cont;
    if (!dut_->dram_resp_valid) {
      if (fill_due) fail("a fill's beat did not follow the previous one");
      return;
    }
    ++responses_;
    if (expect_.empty()) {
      fail("a response nobody asked for (tag " + std::to_string(dut_->dram_resp_tag) + ")");
      return;
    }
    const Beat e = expect_.front();
    expect_.pop_front();
    if (dut_->dram_resp_data != e.data || dut_->dram_resp_tag != e.tag)
      fail("response data " + hex(dut_->dram_resp_data) + " tag " + std::to_string(dut_->dram_resp_tag) +
           ", expected " + hex(e.data) + " tag " + std::to_string(e.tag));
    if (e.line_beat)
      for (unsigned i = 0; i < kLineWords; ++i)
        if (line_out(i) != e.line[i])
          fail("line word " + std::to_string(i) + " " + hex(line_out(i)) + ", expected " + hex(e.line[i]));
  }
  // The RTL's ready and pins in this cycle against the model's.
  void compare_before(const SdramPins& p) {
    const unsigned cmd =
        unsigned(p.cs_n) << 3 | unsigned(p.ras_n) << 2 | unsigned(p.cas_n) << 1 | unsigned(p.we_n);
    const bool command = cmd != 0b0111 && !p.cs_n;
    if (dut_->dram_req_ready != model_.dram_req_ready()) differ("dram_req_ready", dut_->dram_req_ready);
    if (cmd != model_.sdram_cmd_n()) differ("command pins", cmd);
    if (command && (p.ba != model_.sdram_ba() || p.a != model_.sdram_a())) differ("sdram_ba/sdram_a", p.a);
    if (p.dq_oe != model_.sdram_dq_oe() || (p.dq_oe && p.dq != model_.sdram_dq_o()))
      differ("sdram_dq_o", p.dq);
    if (p.cke != model_.sdram_cke() || p.dqm != model_.sdram_dqm()) differ("sdram_cke/sdram_dqm", p.dqm);
  }
  // The response the RTL registered at this edge against the model's.
  void compare_after() {
    if (dut_->dram_resp_valid != model_.dram_resp_valid()) {
      differ("dram_resp_valid", dut_->dram_resp_valid);
    } else if (dut_->dram_resp_valid) {
      if (dut_->dram_resp_data != model_.dram_resp_data() || dut_->dram_resp_tag != model_.dram_resp_tag())
        differ("dram_resp_data/tag", dut_->dram_resp_data);
      if (kLinePort)
        for (unsigned i = 0; i < kLineWords; ++i)
          if (line_out(i) != model_.dram_resp_line().w[i]) differ("dram_resp_line", line_out(i));
    }
    if (dut_->fault != model_.fault()) differ("fault", dut_->fault);
  }
  void differ(const char* what, uint32_t rtl) {
    if (model_errors.size() < 2000)
      model_errors += "cycle " + std::to_string(cycle_) + ": " + what + " differs (RTL " + hex(rtl) + ")\n";
  }
  void fail(const std::string& what) {
    if (errors.size() < 2000) errors += "cycle " + std::to_string(cycle_) + ": " + what + "\n";
  }
  static std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", v);
    return b;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vsdram_controller> dut_;
  SdramChip chip_;
  scm::SdramController model_;
  std::mt19937 floating_{7};  // what an undriven DQ reads as: noise
  std::unordered_map<uint32_t, uint32_t> mem_;
  std::deque<Beat> expect_;
  uint64_t cycle_ = 0, responses_ = 0;
};

std::string violations(const SdramChip& c) {
  std::string s;
  for (size_t i = 0; i < c.violations().size() && i < 20; ++i) s += c.violations()[i].text() + "\n";
  return s;
}

// Random traffic: addresses from a few rows per bank (hits, misses and conflicts
// all happen), sometimes anywhere in the chip; every op the port carries.
struct Traffic {
  std::mt19937 rng;
  std::vector<uint32_t> rows;  // row base addresses (bank and row bits) in play
  explicit Traffic(uint32_t seed) : rng(seed) {
    for (uint32_t b = 0; b < kBanks; ++b)
      for (int k = 0; k < 3; ++k) rows.push_back(((rng() % (1u << SDC_ROW_BITS)) * kBanks + b) * kRowBytes);
  }
  uint32_t line_addr() {
    if (rng() % 16 == 0) return (rng() % kBytes) & ~(SDC_LINE_BYTES - 1u);
    // Few lines per row, so that words are written and read back often.
    return rows[rng() % rows.size()] + (rng() % 4) * SDC_LINE_BYTES;
  }
  Bench::Req next(uint32_t tag) {
    static const char* atomics[] = {"red.add",  "red.min",  "red.max",  "red.xchg",  "red.cas",
                                    "atom.add", "atom.min", "atom.max", "atom.xchg", "atom.cas"};
    Bench::Req r;
    r.tag = tag & 0xffff;
    const uint32_t line = line_addr();
    const uint32_t word = line + 4 * (rng() % kLineWords);
    const unsigned pick = rng() % 100;
    r.data = rng();
    r.cmp = rng() % 2 ? rng() : 0;  // cas: sometimes equal to a fresh word (0)
    if (pick < 25) {
      r.op = isa::kPortOpFill;
      r.addr = line;
    } else if (pick < 45) {
      r.op = isa::find_name("ldw")->opcode;
      r.addr = word;
    } else if (pick < 70) {
      r.op = isa::find_name("stw")->opcode;
      r.addr = word;
    } else if (pick < 85 || !kLinePort) {
      r.op = isa::find_name(atomics[rng() % 10])->opcode;
      r.addr = word;
      if (r.op == isa::find_name("red.min")->opcode || r.op == isa::find_name("atom.max")->opcode)
        r.data = rng() % 2 ? r.data : uint32_t(-int32_t(rng() % 100));
    } else {
      r.op = isa::kPortOpWline;
      r.addr = line;
      r.mask = rng() & ((1u << kLineWords) - 1);
      for (unsigned i = 0; i < kLineWords; ++i) r.line.push_back(rng());
    }
    return r;
  }
};

// The tightest paths on purpose: a row opened and at once another row of its bank
// (tRAS), a write and at once another row (tWR), a read and at once a write (the
// bus turnaround), an atomic (its READ, then WRITE), a refresh falling due amid it.
void run_patterns(Bench& b) {
  b.wait_init();
  const uint8_t ldw = isa::find_name("ldw")->opcode, stw = isa::find_name("stw")->opcode;
  const uint8_t add = isa::find_name("atom.add")->opcode;
  auto at = [](uint32_t row, uint32_t bank, uint32_t col_byte) {
    return (row * kBanks + bank) * kRowBytes + col_byte;
  };
  uint32_t tag = 0;
  for (unsigned round = 0; round < 2 * SDC_T_REFI / 40; ++round) {
    const uint32_t bank = round % kBanks;
    b.send({ldw, at(1, bank, 0), 0, 0, tag++, 0, {}});
    b.send({ldw, at(2, bank, 4), 0, 0, tag++, 0, {}});
    b.send({stw, at(3, bank, 8), round, 0, tag++, 0, {}});
    b.send({ldw, at(4, bank, 8), 0, 0, tag++, 0, {}});
    b.send({ldw, at(4, bank, 12), 0, 0, tag++, 0, {}});
    b.send({stw, at(4, bank, 12), round, 0, tag++, 0, {}});
    b.send({add, at(3, bank, 8), 1, 0, tag++, 0, {}});
    b.send({ldw, at(3, bank, 8), 0, 0, tag++, 0, {}});
  }
  b.drain();
}

void run_random(Bench& b, uint32_t seed, unsigned requests) {
  b.wait_init();
  Traffic t(seed);
  for (unsigned i = 0; i < requests; ++i) {
    b.send(t.next(i));
    if (t.rng() % 8 == 0) b.idle(t.rng() % 40);  // gaps: refreshes meet idle and busy times
  }
  b.drain();
  b.idle(50);
}

#ifndef SDC_EXPECT

TEST(SdramController, InitThenIdleIsClean) {
  Bench b;
  b.wait_init();
  EXPECT_TRUE(b.chip().initialized());
  EXPECT_EQ(b.chip().cas_latency(), unsigned(SDC_CL));
  EXPECT_EQ(b.chip().burst_length(), 2u);
  const uint64_t refs = b.chip().refreshes();
  b.idle(20 * SDC_T_REFI + 30);                 // the first is due T_REFI after the init
  EXPECT_EQ(b.chip().refreshes() - refs, 20u);  // one every T_REFI, idle or not
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
}

TEST(SdramController, RandomTrafficMatchesTheReference) {
  // SDRAM_SEEDS=N runs seeds 1..N (a soak by hand); the suite runs three.
  const char* env = std::getenv("SDRAM_SEEDS");
  const uint32_t seeds = env ? uint32_t(std::strtoul(env, nullptr, 10)) : 3;
  for (uint32_t seed = 1; seed <= seeds; ++seed) {
    Bench b;
    const uint64_t refs0 = b.chip().refreshes();
    run_random(b, seed, 3000);
    EXPECT_TRUE(b.chip().violations().empty()) << "seed " << seed << "\n" << violations(b.chip());
    EXPECT_TRUE(b.errors.empty()) << "seed " << seed << "\n" << b.errors;
    EXPECT_TRUE(b.model_errors.empty()) << "seed " << seed << "\n" << b.model_errors;
    EXPECT_FALSE(b.dut().fault);
    // Refresh happened amid the traffic, at its rate.
    const uint64_t refs = b.chip().refreshes() - refs0 - SDC_INIT_REFRESHES;
    EXPECT_GE(refs + 1, (b.cycle() - SDC_INIT_WAIT) / SDC_T_REFI) << "seed " << seed;
    EXPECT_GT(b.responses(), 1000u);
    // The traffic met open rows, closed banks and other rows open (PRECHARGE of one
    // bank), reads and writes.
    using Cmd = SdramChip::Cmd;
    const SdramChip& c = b.chip();
    EXPECT_GT(c.count(Cmd::Precharge), 300u) << "seed " << seed;
    EXPECT_GT(c.count(Cmd::Active), 300u) << "seed " << seed;
    EXPECT_GT(c.count(Cmd::Read), 5000u) << "seed " << seed;
    EXPECT_GT(c.count(Cmd::Write), 800u) << "seed " << seed;
    std::printf(
        "seed %u: %llu cycles, %llu ACTIVE, %llu PRECHARGE, %llu READ, %llu WRITE, %llu AUTO REFRESH\n", seed,
        (unsigned long long)b.cycle(), (unsigned long long)c.count(Cmd::Active),
        (unsigned long long)c.count(Cmd::Precharge), (unsigned long long)c.count(Cmd::Read),
        (unsigned long long)c.count(Cmd::Write), (unsigned long long)c.count(Cmd::Refresh));
    for (const auto& [a, v] : b.ref_words()) {
      ASSERT_EQ(b.chip_word(a), v) << "seed " << seed << " word " << a;
      ASSERT_EQ(b.model().peek32(a), v) << "seed " << seed << " word " << a;
    }
  }
}

TEST(SdramController, TightestPathsAreClean) {
  Bench b;
  if (std::getenv("SDRAM_TRACE")) b.chip().trace(stdout);
  run_patterns(b);
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
  EXPECT_GT(b.chip().count(SdramChip::Cmd::Refresh), SDC_INIT_REFRESHES + 1u);
}

TEST(SdramController, EveryRowIsRefreshedWithinTheWindow) {
  // Three whole refresh windows under random traffic: every row of the chip must be
  // refreshed in each (the chip's tREF rule).  At 8192 rows that is 19 million
  // cycles, so the build with 64 rows (sdram_controller_test_small) runs it.
  const uint64_t window = Bench::chip_timing().tREF;
  if (window > 200000)
    GTEST_SKIP() << "the window is " << window << " cycles here; the 64-row build runs this";
  Bench b;
  b.wait_init();
  Traffic t(9);
  uint32_t tag = 0;
  while (b.cycle() < SDC_INIT_WAIT + 3 * window) {
    b.send(t.next(tag++));
    if (t.rng() % 4 == 0) b.idle(t.rng() % 200);
  }
  b.drain();
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
  EXPECT_GE(b.chip().refreshes(), 3u << SDC_ROW_BITS);
}

TEST(SdramController, RowHitsStreamAtThePeak) {
  // Fills of consecutive lines of one row: after the first, every cycle moves data
  // (BL2, a READ every second cycle), and the responses keep up.
  Bench b;
  b.wait_init();
  const uint64_t start = b.cycle();
  const unsigned n = kRowBytes / SDC_LINE_BYTES;
  for (unsigned i = 0; i < n; ++i) {
    Bench::Req r;
    r.op = isa::kPortOpFill;
    r.addr = 5 * kRowBytes * kBanks + i * SDC_LINE_BYTES;
    r.tag = i;
    b.send(r);
  }
  const uint64_t sent = b.cycle() - start;
  b.drain();
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
  // Each fill's words take 2 cycles each; allow the row's opening and one refresh.
  EXPECT_LE(sent, n * kLineWords * 2 + 40u) << "cycles to send " << n << " fills";
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
}

TEST(SdramController, SequentialFillsUseMostOfThePeak) {
  // Fills of 32 KB in address order, every row of every bank in turn, as a streaming
  // read through the queue would send them: the bus's peak is 2 bytes a cycle; the
  // loss is each row's PRECHARGE and ACTIVE and the refreshes.
  Bench b;
  b.wait_init();
  const uint32_t bytes = 32 * 1024;
  const uint64_t start = b.cycle();
  for (uint32_t a = 0; a < bytes; a += SDC_LINE_BYTES) {
    Bench::Req r;
    r.op = isa::kPortOpFill;
    r.addr = a;
    r.tag = a / SDC_LINE_BYTES;
    b.send(r);
  }
  b.drain();
  const double share = double(bytes) / 2.0 / double(b.cycle() - start);
  std::printf("sequential fills: %u bytes in %llu cycles, %.1f%% of the peak\n", bytes,
              (unsigned long long)(b.cycle() - start), 100.0 * share);
  EXPECT_EQ(b.responses(), bytes / SDC_LINE_BYTES * (kLinePort ? 1 : kLineWords));
  EXPECT_GE(share, 0.9);
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
}

TEST(SdramController, RefusesBadRequests) {
  Bench b;
  b.wait_init();
  Bench::Req r;
  r.op = isa::find_name("ldw")->opcode;
  r.addr = 2;  // misaligned
  b.send(r);
  b.idle(20);
  EXPECT_TRUE(b.dut().fault);
  EXPECT_EQ(b.dut().fault_addr, 2u);
  EXPECT_EQ(b.responses(), 0u);
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  // Still serves requests after a refusal.
  r.addr = kBytes - 4;  // the last word
  b.send(r);
  b.drain();
  EXPECT_EQ(b.responses(), 1u);
  EXPECT_TRUE(b.errors.empty()) << b.errors;
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;
  EXPECT_TRUE(b.chip().violations().empty()) << violations(b.chip());
}

#else

TEST(SdramController, BrokenTimingIsCaughtByTheChip) {
  Bench b;
  run_patterns(b);
  run_random(b, 1, 300);
  // A refresh rate too low shows only at the end of a refresh window.
  const uint64_t window = Bench::chip_timing().tREF;
  while (b.chip().violations().empty() && window <= 200000 && b.cycle() < SDC_INIT_WAIT + 3 * window)
    b.idle(1000);
  ASSERT_FALSE(b.chip().violations().empty()) << "no violation with a broken " << SDC_EXPECT;
  EXPECT_EQ(b.chip().violations()[0].rule, SDC_EXPECT) << violations(b.chip());
  EXPECT_TRUE(b.model_errors.empty()) << b.model_errors;  // the model has the same flaw
}

#endif

}  // namespace
}  // namespace umbra::scm
