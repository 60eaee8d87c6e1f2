// The SDRAM chip model (sdram_chip.h): the command truth table, the bank state
// machine and the timing rules, checked at the edge each command arrives.  Every
// check reports and then lets the command take effect, so one mistake gives one
// violation rather than a cascade of follow-on ones.
#include "sdram_chip.h"

#include <cmath>
#include <sstream>

namespace umbra::scm {

namespace {
unsigned clocks(double ns, double tck) {
  // A time that is a whole number of clocks stays that number despite rounding in
  // the division (18 ns at 6 ns is 3 clocks, not 4).
  return unsigned(std::ceil(ns / tck - 1e-9));
}
std::string str(uint64_t v) {
  return std::to_string(v);
}
}  // namespace

SdramTiming SdramTiming::from(const SdramPart& p, double clock_mhz) {
  if (!(clock_mhz > 0)) throw std::invalid_argument("sdram: the clock must be above 0 MHz");
  SdramTiming t;
  t.banks = p.banks;
  t.rows = p.rows;
  t.columns = p.columns;
  t.tCK_ns = 1000.0 / clock_mhz;
  const double tck = t.tCK_ns;
  t.tRCD = clocks(p.tRCD_ns, tck);
  t.tRP = clocks(p.tRP_ns, tck);
  t.tRAS = clocks(p.tRAS_ns, tck);
  t.tRC = clocks(p.tRC_ns, tck);
  t.tRRD = clocks(p.tRRD_ns, tck);
  t.tWR = clocks(p.tWR_ns, tck);
  t.tRFC = clocks(p.tRFC_ns, tck);
  t.tMRD = p.tMRD_clocks;
  t.tRAS_max = uint64_t(std::floor(p.tRAS_max_ns / tck + 1e-9));
  t.tREF = uint64_t(std::floor(p.tREF_ms * 1e6 / tck + 1e-9));
  t.power_up = clocks(p.power_up_us * 1000.0, tck);
  t.init_refreshes = p.init_refreshes;
  t.tCK_min_cl2_ns = p.tCK_min_cl2_ns;
  t.tCK_min_cl3_ns = p.tCK_min_cl3_ns;
  return t;
}

std::string SdramViolation::text() const {
  return "cycle " + str(cycle) + ": " + rule + ": " + detail;
}

const char* SdramChip::name(Cmd c) {
  switch (c) {
    case Cmd::Nop: return "NOP";
    case Cmd::Active: return "ACTIVE";
    case Cmd::Read: return "READ";
    case Cmd::Write: return "WRITE";
    case Cmd::Precharge: return "PRECHARGE";
    case Cmd::Refresh: return "AUTO REFRESH";
    case Cmd::LoadMode: return "LOAD MODE REGISTER";
    case Cmd::BurstTerminate: return "BURST TERMINATE";
    case Cmd::Inhibit: return "COMMAND INHIBIT";
  }
  return "?";
}

SdramChip::SdramChip(const SdramTiming& t, bool throw_on_violation)
    : t_(t),
      throw_(throw_on_violation),
      mem_(size_t(t.banks) * t.rows * t.columns, 0),
      banks_(t.banks),
      row_refreshed_(t.rows, 0) {
  if (!t.banks || !t.rows || !t.columns || (t.columns & (t.columns - 1)))
    throw std::invalid_argument("sdram: banks, rows and columns must be above 0, columns a power of two");
}

void SdramChip::violate(const std::string& rule, const std::string& detail) {
  violations_.push_back({now_, rule, detail});
  if (throw_) throw SdramError(violations_.back());
}

void SdramChip::check_since(const char* rule, bool ever, uint64_t at, uint64_t need,
                            const std::string& what) {
  if (ever && now_ - at < need)
    violate(rule, what + " " + str(now_ - at) + " cycles after cycle " + str(at) + ", needs " + str(need));
}

unsigned SdramChip::burst_col(unsigned start, unsigned i) const {
  const unsigned block = start & ~(bl_ - 1);
  return block | ((interleave_ ? (start ^ i) : (start + i)) & (bl_ - 1));
}

void SdramChip::cut_reads(uint64_t from_edge, int bank) {
  std::deque<Out> keep;
  for (const Out& o : out_)
    if (o.edge < from_edge || (bank >= 0 && o.bank != unsigned(bank))) keep.push_back(o);
  out_.swap(keep);
}

void SdramChip::check_retention() {
  if (init_ != Init::Done || tref_reported_) return;
  // The counter refreshes rows in order, so the next one is the one refreshed
  // longest ago.
  const uint64_t last = row_refreshed_[ref_row_];
  if (now_ - last > t_.tREF) {
    tref_reported_ = true;  // the rows after it are as late: one report
    violate("tREF", "row " + str(ref_row_) + " last refreshed at cycle " + str(last) + ", more than " +
                        str(t_.tREF) + " cycles ago (" + str(t_.rows) +
                        " AUTO REFRESH commands are due in every " + "tREF window); " + str(refreshes_) +
                        " refreshes so far");
  }
}

void SdramChip::clock(const SdramPins& p) {
  check_retention();
  for (unsigned b = 0; b < t_.banks; ++b) {
    Bank& k = banks_[b];
    if (k.open && !k.tras_max_reported && now_ - k.act > t_.tRAS_max) {
      k.tras_max_reported = true;
      violate("tRAS max", "bank " + str(b) + " row " + str(k.row) + " open since cycle " + str(k.act) +
                              ", longer than " + str(t_.tRAS_max) + " cycles");
    }
  }

  Cmd c = Cmd::Inhibit;
  if (!p.cs_n) {
    static const Cmd table[8] = {Cmd::LoadMode, Cmd::Refresh, Cmd::Precharge,      Cmd::Active,
                                 Cmd::Write,    Cmd::Read,    Cmd::BurstTerminate, Cmd::Nop};
    c = table[(p.ras_n ? 4 : 0) | (p.cas_n ? 2 : 0) | (p.we_n ? 1 : 0)];
  }
  if (!p.cke && init_ != Init::PowerUp)
    violate("CKE", "CKE low (power-down, self refresh, clock suspend) is not modelled");

  // The controller drives DQ for this edge: the chip must not (contention), and must
  // not have driven the edge before either (its output needs a cycle to go high-Z:
  // the datasheet's cycle between the last read data and a WRITE).
  // One report per stretch of read data: contention at one edge is turnaround at the next.
  if (p.dq_oe && ever_drove_ && last_drive_edge_ + 1 >= now_ && dq_reported_ != last_drive_edge_ + 1) {
    dq_reported_ = last_drive_edge_ + 1;
    violate(last_drive_edge_ == now_ ? "DQ contention" : "DQ turnaround",
            std::string("the controller drives DQ ") +
                (last_drive_edge_ == now_
                     ? "while the chip drives read data"
                     : "right after the chip's read data at cycle " + str(last_drive_edge_)) +
                "; a cycle without drivers must separate them");
  }

  ++counts_[int(c)];
  if (trace_ && c != Cmd::Nop && c != Cmd::Inhibit)
    std::fprintf(trace_, "%llu: %s bank %u a=0x%x\n", (unsigned long long)now_, name(c), p.ba, p.a);
  if (c != Cmd::Nop && c != Cmd::Inhibit) command(c, p);
  write_beat(p);

  // DQ for the next edge: read data due then, unless DQM two edges before it (the
  // previous one) masked it.
  while (!out_.empty() && out_.front().edge <= now_) out_.pop_front();
  dq_drive_ = false;
  dq_out_ = 0;
  if (!out_.empty() && out_.front().edge == now_ + 1 && dqm_prev_ != 3) {
    dq_drive_ = true;
    dq_out_ = out_.front().value & ((dqm_prev_ & 1 ? 0 : 0x00ff) | (dqm_prev_ & 2 ? 0 : 0xff00));
    last_drive_edge_ = now_ + 1;
    ever_drove_ = true;
  }
  dqm_prev_ = p.dqm & 3;
  ++now_;
}

void SdramChip::write_beat(const SdramPins& p) {
  if (!wr_.active) return;
  const uint64_t i = now_ - wr_.start;
  if (i >= wr_.len) {
    wr_.active = false;
    return;
  }
  const unsigned dqm = p.dqm & 3;
  if (dqm != 3 && !p.dq_oe)
    violate("write data", "WRITE burst beat " + str(i) + " to bank " + str(wr_.bank) +
                              " is neither driven on DQ nor masked by DQM");
  const unsigned col = burst_col(wr_.col, unsigned(i));
  uint16_t& m = mem_[index(wr_.bank, wr_.row, col)];
  if (!(dqm & 1)) m = uint16_t((m & 0xff00) | (p.dq & 0x00ff));
  if (!(dqm & 2)) m = uint16_t((m & 0x00ff) | (p.dq & 0xff00));
  Bank& k = banks_[wr_.bank];
  k.last_write = now_;
  k.ever_write = true;
  if (i + 1 == wr_.len) wr_.active = false;
}

void SdramChip::command(Cmd c, const SdramPins& p) {
  const std::string cmd = name(c);
  if (init_ == Init::PowerUp) {
    if (now_ < t_.power_up)
      violate("init", cmd + " during the power-up wait (" + str(t_.power_up) +
                          " cycles of NOP or COMMAND INHIBIT before the first command)");
    if (c == Cmd::Precharge && (p.a >> 10 & 1)) {
      init_ = Init::Refreshing;
    } else {
      violate("init", cmd + " as the first command: the init sequence starts with PRECHARGE ALL");
      init_ = Init::Refreshing;
    }
  }
  if (c != Cmd::Precharge || !(p.a >> 10 & 1)) {
    // Every command but the init's own waits out LOAD MODE REGISTER and AUTO REFRESH.
    check_since("tMRD", ever_mode_, last_mode_, t_.tMRD, cmd + " at");
    check_since("tRFC", ever_refresh_, last_refresh_, t_.tRFC, cmd + " at");
  }
  if (init_ == Init::Refreshing && (c == Cmd::Active || c == Cmd::Read || c == Cmd::Write))
    violate("init", cmd + " before the init sequence is complete (" + str(init_refs_) + " of " +
                        str(t_.init_refreshes) + " AUTO REFRESH, mode register " +
                        (mode_set_ ? "set" : "not set") + ")");

  const unsigned ba = p.ba % t_.banks;
  Bank& k = banks_[ba];
  const std::string bank = "bank " + str(ba);
  switch (c) {
    case Cmd::Active: {
      const unsigned row = p.a;
      if (row >= t_.rows) violate("row range", "ACTIVE of row " + str(row) + " (" + str(t_.rows) + " rows)");
      if (k.open)
        violate("ACTIVE to open bank", "ACTIVE to " + bank + " while row " + str(k.row) + " is open");
      check_since("tRC", k.ever_act, k.act, t_.tRC, "ACTIVE to " + bank);
      check_since("tRP", k.ever_pre, k.pre, t_.tRP, "ACTIVE to " + bank);
      check_since("tRRD", ever_act_any_ && last_act_bank_ != ba, last_act_any_, t_.tRRD,
                  "ACTIVE to " + bank + " after ACTIVE to bank " + str(last_act_bank_) + ":");
      k.open = true;
      k.row = row % t_.rows;
      k.act = now_;
      k.ever_act = true;
      k.tras_max_reported = false;
      last_act_any_ = now_;
      last_act_bank_ = ba;
      ever_act_any_ = true;
      break;
    }
    case Cmd::Read:
    case Cmd::Write: {
      if (!k.open) violate(cmd + " to idle bank", cmd + " to " + bank + ", which has no open row");
      check_since("tRCD", k.ever_act, k.act, t_.tRCD, cmd + " to " + bank);
      if (p.a >> 10 & 1) violate("auto-precharge", cmd + " with auto-precharge (A10) is not modelled");
      if (!mode_set_) break;  // reported above as init; no burst length to go by
      const unsigned col = p.a & (t_.columns - 1);
      if (c == Cmd::Read) {
        cut_reads(now_ + cl_, -1);
        wr_.active = false;
        for (unsigned i = 0; i < bl_; ++i)
          out_.push_back({now_ + cl_ + i, mem_[index(ba, k.row, burst_col(col, i))], ba});
      } else {
        cut_reads(now_ + 1, -1);
        wr_ = {true, ba, k.row, col, single_write_ ? 1u : bl_, now_};
      }
      break;
    }
    case Cmd::Precharge: {
      const bool all = p.a >> 10 & 1;
      for (unsigned b = 0; b < t_.banks; ++b) {
        if (!all && b != ba) continue;
        Bank& x = banks_[b];
        if (!x.open) continue;  // precharging an idle bank is a NOP
        const std::string w = std::string(all ? "PRECHARGE ALL" : "PRECHARGE") + " of bank " + str(b);
        check_since("tRAS", true, x.act, t_.tRAS, w);
        check_since("tWR", x.ever_write && x.last_write >= x.act, x.last_write, t_.tWR,
                    w + " after write data");
        cut_reads(now_ + cl_, int(b));
        if (wr_.active && wr_.bank == b) wr_.active = false;
        x.open = false;
        x.pre = now_;
        x.ever_pre = true;
      }
      break;
    }
    case Cmd::Refresh:
    case Cmd::LoadMode: {
      for (unsigned b = 0; b < t_.banks; ++b) {
        if (banks_[b].open)
          violate(cmd + " with open bank",
                  cmd + " while bank " + str(b) + " has row " + str(banks_[b].row) + " open");
        check_since("tRP", banks_[b].ever_pre, banks_[b].pre, t_.tRP,
                    cmd + " after PRECHARGE of bank " + str(b) + ":");
        check_since("tRC", banks_[b].ever_act, banks_[b].act, t_.tRC,
                    cmd + " after ACTIVE of bank " + str(b) + ":");
      }
      if (c == Cmd::Refresh) {
        ++refreshes_;
        row_refreshed_[ref_row_] = now_;
        ref_row_ = (ref_row_ + 1) % t_.rows;
        last_refresh_ = now_;
        ever_refresh_ = true;
        if (init_ == Init::Refreshing) ++init_refs_;
        break;
      }
      last_mode_ = now_;
      ever_mode_ = true;
      const unsigned bl = p.a & 7, cl = p.a >> 4 & 7;
      if (bl == 7)
        violate("mode register", "full-page bursts are not modelled");
      else if (bl > 3)
        violate("mode register", "burst length code " + str(bl) + " is reserved");
      if (cl != 2 && cl != 3) violate("mode register", "CAS latency " + str(cl) + " is not 2 or 3");
      if (p.a >> 7 & 3) violate("mode register", "operating mode bits A8:A7 are not 0 (reserved)");
      const double need = cl == 2 ? t_.tCK_min_cl2_ns : t_.tCK_min_cl3_ns;
      if ((cl == 2 || cl == 3) && t_.tCK_ns < need - 1e-9) {
        std::ostringstream d;
        d << "CAS latency " << cl << " needs a clock period of at least " << need << " ns; the clock's is "
          << t_.tCK_ns << " ns";
        violate("CAS latency", d.str());
      }
      bl_ = bl <= 3 ? 1u << bl : 1;
      cl_ = (cl == 2 || cl == 3) ? cl : 3;
      interleave_ = p.a >> 3 & 1;
      single_write_ = p.a >> 9 & 1;
      mode_set_ = true;
      break;
    }
    case Cmd::BurstTerminate:
      cut_reads(now_ + cl_, -1);
      wr_.active = false;
      break;
    default: break;
  }
  if (init_ == Init::Refreshing && mode_set_ && init_refs_ >= t_.init_refreshes) {
    init_ = Init::Done;
    // Retention is owed from here: rows not refreshed since count from now.
    for (auto& r : row_refreshed_) r = now_;
  }
}

}  // namespace umbra::scm
