// sdram_chip: a cycle model of a 16-bit SDR SDRAM chip at its pins, the part the
// ULX3S carries (issue 36): Micron MT48LC16M16A2TG-6A (the board's bill of
// materials, emard/ulx3s 1-click-bom.tsv, U2; ISSI IS42S16160G-7 the second
// source), 4 banks x 8192 rows x 512 columns x 16 bits = 32 MB.  It stands where the
// chip stands on the board: rtl/sdram_controller.v's pins drive it once per clock,
// and it answers on DQ.  Besides storing data it is the suite's judge of the
// controller: every timing rule and every command in a wrong state is a violation
// naming the cycle (the rising edge, counted from 0) and the rule.
//
// Why a plain C++ class with one clock() per rising edge: the controller is a
// Verilated plain C++ model stepped from the bench's own loop, like every other
// RTL bench here (cmake/UmbraVerilate.cmake), and the chip only ever sees values at
// the edge.  Timing is therefore in whole clocks: SdramPart holds the datasheet's
// nanoseconds, SdramTiming::from() rounds them up to cycles of a given clock, as
// the datasheet says to ("divide by the clock period and round up").
//
// Pin convention (names shared with rtl/sdram_controller.v's sdram_* ports): the
// controller's registered outputs are sampled at edge n by clock(pins); the chip's
// DQ output after clock() is what the controller samples at edge n + 1.  A READ at
// edge n therefore puts column c on dq_out() after clock(n + CL - 1), i.e. at edge
// n + CL; a WRITE at edge n takes its first column from the pins of edge n.  DQM
// masks write data at its own edge and read data two edges later.
//
// Modelled: power-up wait, the init sequence (PRECHARGE ALL, AUTO REFRESH x N,
// LOAD MODE REGISTER, the last two in either order), ACTIVE/READ/WRITE/PRECHARGE
// (one bank or all), AUTO REFRESH with its internal row counter, BURST TERMINATE,
// burst lengths 1/2/4/8 sequential or interleaved, CAS latency 2/3, burst-read
// single-write (A9), bursts cut short by a later READ/WRITE/PRECHARGE/BURST
// TERMINATE as the datasheet allows.  Not modelled, and refused as a violation if
// used: full-page bursts, auto-precharge (A10 on READ/WRITE), CKE low (power-down,
// self refresh, clock suspend).
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra::scm {

// A part as its datasheet gives it: geometry and nanoseconds.
struct SdramPart {
  std::string name = "MT48LC16M16A2-6A";
  unsigned banks = 4, rows = 8192, columns = 512;  // 16-bit columns
  double tRCD_ns = 18, tRP_ns = 18, tRAS_ns = 42, tRAS_max_ns = 120000, tRC_ns = 60;
  double tRRD_ns = 12, tWR_ns = 12, tRFC_ns = 60;
  unsigned tMRD_clocks = 2;     // given in clocks by the datasheet
  double tREF_ms = 64;          // every row refreshed within this
  double power_up_us = 100;     // NOP/INHIBIT before the first command
  unsigned init_refreshes = 2;  // AUTO REFRESH commands the init needs
  // The clock period a CAS latency allows: the 256Mb datasheet's tCK(2) and tCK(3) for
  // -6A (7.5 ns at CL 2 is the -7E grade's).
  double tCK_min_cl2_ns = 10, tCK_min_cl3_ns = 6;

  static SdramPart mt48lc16m16a2_6a() { return {}; }
};

// The part's rules in clocks of one clock period.
struct SdramTiming {
  unsigned banks = 4, rows = 8192, columns = 512;
  double tCK_ns = 10;
  unsigned tRCD = 2, tRP = 2, tRAS = 5, tRC = 6, tRRD = 2, tWR = 2, tRFC = 6, tMRD = 2;
  uint64_t tRAS_max = 12000, tREF = 6400000, power_up = 10000;
  unsigned init_refreshes = 2;
  double tCK_min_cl2_ns = 10, tCK_min_cl3_ns = 6;
  // Rounds every time up to whole clocks of `clock_mhz` (tRAS_max down: it is a
  // maximum).  Throws std::invalid_argument for a clock <= 0.
  static SdramTiming from(const SdramPart& p, double clock_mhz);
};

// The pins at one rising edge, as the controller drives them.
struct SdramPins {
  bool cke = true, cs_n = true, ras_n = true, cas_n = true, we_n = true;
  unsigned ba = 0;
  uint32_t a = 0;
  unsigned dqm = 0;    // bit 0: DQ[7:0], bit 1: DQ[15:8]
  uint16_t dq = 0;     // the controller's DQ output ...
  bool dq_oe = false;  // ... when it drives
};

// The pins of rtl/sdram_controller.v's sdram_* ports as a Verilated model of it holds
// them (its registered outputs, what the chip samples at the next rising edge).
template <class Controller>
SdramPins controller_pins(const Controller& d) {
  SdramPins p;
  p.cke = d.sdram_cke;
  p.cs_n = d.sdram_cs_n;
  p.ras_n = d.sdram_ras_n;
  p.cas_n = d.sdram_cas_n;
  p.we_n = d.sdram_we_n;
  p.ba = d.sdram_ba;
  p.a = d.sdram_a;
  p.dqm = d.sdram_dqm;
  p.dq = d.sdram_dq_o;
  p.dq_oe = d.sdram_dq_oe;
  return p;
}

struct SdramViolation {
  uint64_t cycle;
  std::string rule;          // the short name: "tRCD", "READ to idle bank", "init", ...
  std::string detail;        // the commands and cycles involved
  std::string text() const;  // "cycle N: rule: detail"
};

class SdramError : public std::runtime_error {
 public:
  explicit SdramError(const SdramViolation& v) : std::runtime_error(v.text()), violation(v) {}
  SdramViolation violation;
};

class SdramChip {
 public:
  // throw_on_violation: throw SdramError at the first violation (a bench stops at
  // once); otherwise they are collected in violations().
  explicit SdramChip(const SdramTiming& t, bool throw_on_violation = false);

  // The rising edge: the pins sampled now.  Then dq_out()/dq_drive() are the chip's
  // DQ until the next edge.
  void clock(const SdramPins& p);
  uint16_t dq_out() const { return dq_out_; }
  bool dq_drive() const { return dq_drive_; }

  uint64_t now() const { return now_; }  // edges clocked so far
  const std::vector<SdramViolation>& violations() const { return violations_; }
  bool initialized() const { return init_ == Init::Done; }
  unsigned cas_latency() const { return cl_; }
  unsigned burst_length() const { return bl_; }
  uint64_t refreshes() const { return refreshes_; }

  // Backdoor: a column's 16 bits.
  uint16_t peek(unsigned bank, unsigned row, unsigned col) const { return mem_[index(bank, row, col)]; }
  void poke(unsigned bank, unsigned row, unsigned col, uint16_t v) { mem_[index(bank, row, col)] = v; }

  // Commands by their pin code {ras_n, cas_n, we_n} with cs_n low.
  enum class Cmd { Nop, Active, Read, Write, Precharge, Refresh, LoadMode, BurstTerminate, Inhibit };
  static const char* name(Cmd c);
  // Commands taken so far, by kind (a bench's evidence that its traffic covered them).
  uint64_t count(Cmd c) const { return counts_[int(c)]; }
  // Every command but NOP/INHIBIT printed to `f` as it is taken ("cycle: COMMAND bank
  // a=..."), for a bench's failure to be read; nullptr: none.
  void trace(std::FILE* f) { trace_ = f; }

 private:
  // PowerUp: until the first command (PRECHARGE ALL); Refreshing: until the init
  // refreshes and the mode register are done.
  enum class Init { PowerUp, Refreshing, Done };
  struct Bank {
    bool open = false;
    unsigned row = 0;
    uint64_t act = 0, pre = 0, last_write = 0;  // edges of the last ACTIVE, PRECHARGE, write data
    bool ever_act = false, ever_pre = false, ever_write = false;
    bool tras_max_reported = false;
  };
  struct WriteBurst {  // a WRITE burst taking data from the pins
    bool active = false;
    unsigned bank = 0, row = 0, col = 0, len = 0;
    uint64_t start = 0;  // the WRITE's edge: its first column
  };
  size_t index(unsigned bank, unsigned row, unsigned col) const {
    return (size_t(bank) * t_.rows + row) * t_.columns + col;
  }
  void violate(const std::string& rule, const std::string& detail);
  void command(Cmd c, const SdramPins& p);
  // A violation of `rule` if the event at `at` (if it ever happened) is fewer than
  // `need` edges ago.
  void check_since(const char* rule, bool ever, uint64_t at, uint64_t need, const std::string& what);
  unsigned burst_col(unsigned start, unsigned i) const;
  void cut_reads(uint64_t from_edge, int bank);  // bank -1: any
  void write_beat(const SdramPins& p);
  void check_retention();

  SdramTiming t_;
  bool throw_;
  std::vector<uint16_t> mem_;
  std::vector<Bank> banks_;
  uint64_t now_ = 0;
  Init init_ = Init::PowerUp;
  unsigned init_refs_ = 0;
  bool mode_set_ = false;
  unsigned cl_ = 0, bl_ = 0;
  bool interleave_ = false, single_write_ = false;
  uint64_t last_act_any_ = 0, last_refresh_ = 0, last_mode_ = 0;
  unsigned last_act_bank_ = 0;
  bool ever_act_any_ = false, ever_refresh_ = false, ever_mode_ = false;
  WriteBurst wr_;
  // Read data scheduled CL edges after their READ: the edge the controller samples
  // each column at.
  struct Out {
    uint64_t edge;
    uint16_t value;
    unsigned bank;
  };
  std::deque<Out> out_;
  unsigned dqm_prev_ = 0;         // DQM of the previous edge: it masks the next output
  uint64_t last_drive_edge_ = 0;  // the last edge the chip drove DQ for
  bool ever_drove_ = false;
  uint64_t dq_reported_ = 0;  // last_drive_edge_ + 1 of the last DQ report
  uint16_t dq_out_ = 0;
  bool dq_drive_ = false;
  // Refresh: the edge each row of the internal counter was last refreshed (from
  // init's end for rows not refreshed since), the counter itself.
  std::vector<uint64_t> row_refreshed_;
  uint64_t refreshes_ = 0;
  unsigned ref_row_ = 0;
  bool tref_reported_ = false;
  uint64_t counts_[9] = {};
  std::FILE* trace_ = nullptr;
  std::vector<SdramViolation> violations_;
};

}  // namespace umbra::scm
