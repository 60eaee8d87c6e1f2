// The SDRAM controller's cycle model (sdram_controller.h): rtl/sdram_controller.v's
// always block, statement for statement in its order, with `r` the registers at the
// start of the cycle and `n` what the edge writes (the nonblocking assignments).
#include "sdram_controller.h"

#include <stdexcept>

#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/rtl_params.h"
#include "umbra/semantics.h"

namespace umbra::scm {

namespace {
constexpr unsigned CMD_INHIBIT = 0b0000, CMD_NOP = 0b1000, CMD_ACTIVE = 0b1100, CMD_READ = 0b1010,
                   CMD_WRITE = 0b1011, CMD_PRECHARGE = 0b1101, CMD_REFRESH = 0b1110, CMD_LOAD_MODE = 0b1111;
bool pow2(uint64_t v) {
  return v && !(v & (v - 1));
}
}  // namespace

void SdramControllerParams::check() const {
  if (CL != 2 && CL != 3) throw std::invalid_argument("sdram: CAS latency must be 2 or 3");
  for (unsigned t : {T_RCD, T_RP, T_RAS, T_RC, T_RRD, T_RFC, T_MRD})
    if (t < 1 || t > 255) throw std::invalid_argument("sdram: timings must be 1 to 255 clocks");
  if (T_WR < 1 || T_WR > 254) throw std::invalid_argument("sdram: T_WR must be 1 to 254 clocks");
  if (!pow2(LINE_BYTES) || LINE_BYTES < 4 || LINE_BYTES > (1u << COL_BITS))
    throw std::invalid_argument("sdram: LINE_BYTES must be a power of two from 4 to a row");
  if (COL_BITS + 1 + BANK_BITS + ROW_BITS > 32 || COL_BITS > 10 || BANK_BITS > 4 || INIT_REFRESHES < 1 ||
      T_REFI < 32)
    throw std::invalid_argument("sdram: geometry or refresh out of range");
}

SdramControllerParams SdramControllerParams::from(const Config& c, unsigned mhz) {
  const SdramClocks k = sdram_clocks(c, mhz);
  SdramControllerParams p;
  p.CL = k.CL;
  p.T_RCD = k.T_RCD;
  p.T_RP = k.T_RP;
  p.T_RAS = k.T_RAS;
  p.T_RC = k.T_RC;
  p.T_RRD = k.T_RRD;
  p.T_WR = k.T_WR;
  p.T_RFC = k.T_RFC;
  p.T_MRD = k.T_MRD;
  p.T_REFI = k.T_REFI;
  p.INIT_WAIT = k.INIT_WAIT;
  p.COL_BITS = k.COL_BITS;
  p.BANK_BITS = k.BANK_BITS;
  p.LINE_BYTES = c.cache_line_bytes;
  p.LINE_PORT = c.cache_line_port;
  return p;
}

SdramController::SdramController(const SdramControllerParams& p, uint32_t bytes)
    : p_(p), lw_(p.LINE_BYTES / 4), rd_delay_(p.CL + 3), banks_(1u << p.BANK_BITS), mem_(bytes, 0) {
  p_.check();
  if (bytes % 4)
    throw std::invalid_argument("sdram: size " + std::to_string(bytes) + " is not a multiple of 4");
  if (bytes > p_.chip_bytes()) throw std::invalid_argument("sdram: more bytes than the chip has");
  clock(true, {});
  now_ = 0;
}

bool SdramController::dram_req_ready() const {
  const bool finishing = r_.state == S_COL2 && r_.cur_mask == 0 && !(r_.cur_rmw && !r_.rmw_wrote);
  return r_.ref_due == 0 && (r_.state == S_IDLE || finishing);
}

unsigned SdramController::next_w() const {
  for (unsigned w = 0; w < lw_; ++w)
    if (r_.cur_mask >> w & 1) return w;
  return 0;
}

uint32_t SdramController::byte_addr(unsigned bank, unsigned row, unsigned col) const {
  return ((row << p_.BANK_BITS | bank) << (p_.COL_BITS + 1)) | col << 1;
}

uint32_t SdramController::word(uint32_t a) const {
  if (uint64_t(a) + 4 > mem_.size()) return 0;
  return uint32_t(mem_[a]) | uint32_t(mem_[a + 1]) << 8 | uint32_t(mem_[a + 2]) << 16 |
         uint32_t(mem_[a + 3]) << 24;
}

void SdramController::set_word(uint32_t a, uint32_t v) {
  if (uint64_t(a) + 4 > mem_.size()) return;
  for (int i = 0; i < 4; ++i) mem_[a + i] = uint8_t(v >> (8 * i));
}

void SdramController::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (uint64_t(addr) + bytes.size() > mem_.size())
    throw std::out_of_range("sdram: " + std::to_string(bytes.size()) + " bytes at " + hex8(addr) +
                            " do not fit in " + std::to_string(mem_.size()) + " bytes of memory");
  std::copy(bytes.begin(), bytes.end(), mem_.begin() + addr);
}

void SdramController::poke32(uint32_t addr, uint32_t value) {
  if (uint64_t(addr) + 4 > mem_.size())
    throw std::out_of_range("sdram: word at " + hex8(addr) + " is outside memory");
  set_word(addr, value);
}

uint32_t SdramController::peek32(uint32_t addr) const {
  if (uint64_t(addr) + 4 > mem_.size())
    throw std::out_of_range("sdram: word at " + hex8(addr) + " is outside memory");
  return word(addr);
}

void SdramController::drain() {
  for (unsigned i = 0; i < 100000 && r_.state != S_IDLE; ++i) clock(false, {});
}

SdramController::Decoded SdramController::decode(const SdramControllerParams& p, uint32_t bytes,
                                                 const Request& q) {
  Decoded d;
  d.op_fill = q.op == isa::kPortOpFill;
  d.op_wline = p.LINE_PORT && q.op == isa::kPortOpWline;
  d.in = !d.op_fill && !d.op_wline && q.op < 256 ? isa::find_opcode(uint8_t(q.op)) : nullptr;
  d.op_ldw = d.in && d.in->cls == isa::Class::Load;
  d.op_stw = d.in && d.in->cls == isa::Class::Store;
  d.op_atomic = d.in && d.in->cls == isa::Class::Atomic;
  d.op_atom = d.op_atomic && d.in->writes_a;
  d.line = d.op_fill || d.op_wline;
  d.known = d.op_ldw || d.op_stw || d.line || d.op_atomic;
  d.aligned = (q.addr & 3) == 0 && (!d.line || q.addr % p.LINE_BYTES == 0);
  d.in_range = uint64_t(q.addr) < p.chip_bytes() && uint64_t(q.addr) + (d.line ? p.LINE_BYTES : 4) <= bytes;
  return d;
}

MemFault SdramController::refusal(const SdramControllerParams& p, uint32_t bytes, const Request& q) {
  const Decoded d = decode(p, bytes, q);
  MemFault f;
  if (!d.bad()) return f;
  f.raised = true;
  f.tag = q.tag;
  f.addr = q.addr;
  f.op = q.op;
  // A word access is refused in the words every model uses (semantics.h); a line's
  // own request (a fill, a wline) names its line.
  f.kind = !d.known ? Fault::IllegalInstruction : !d.aligned ? Fault::Misaligned : Fault::OutOfRange;
  const char* what = d.op_fill ? "fill" : "wline";
  f.detail = !d.known     ? "request op " + hex8(q.op) + " is no memory op of this port"
             : d.in       ? access_fault_reason(f.kind, d.in->name, q.addr, bytes)
             : !d.aligned ? std::string(what) + " address " + hex8(q.addr) +
                                " is not a multiple of the line size " + std::to_string(p.LINE_BYTES)
                          : std::string(what) + " of the " + std::to_string(p.LINE_BYTES) + "-byte line at " +
                                hex8(q.addr) + " is beyond data memory (" + std::to_string(bytes) + " bytes)";
  return f;
}

void SdramController::clock(bool rst, const Request& q) {
  const Regs& r = r_;
  Regs n = r_;
  const unsigned D = rd_delay_;
  const uint32_t all_words = lw_ >= 32 ? ~0u : (1u << lw_) - 1;
  const bool ready = dram_req_ready();

  // Defaults: a NOP, DQ released, counters run down.
  n.cmd_q = CMD_NOP;
  n.sdram_dq_oe = false;
  n.sdram_dqm = 0;
  for (unsigned k = 0; k < banks_; ++k) {
    if (r.pre_wait[k]) n.pre_wait[k] = r.pre_wait[k] - 1;
    if (r.act_wait[k]) n.act_wait[k] = r.act_wait[k] - 1;
  }
  if (r.rrd_wait) n.rrd_wait = r.rrd_wait - 1;
  if (r.rcd_wait) n.rcd_wait = r.rcd_wait - 1;
  if (r.wr_wait) n.wr_wait = r.wr_wait - 1;
  if (r.wait_cnt) n.wait_cnt = r.wait_cnt - 1;

  if (r.done_init) {
    if (r.ref_timer == 0) {
      n.ref_timer = p_.T_REFI - 1;
      if (r.ref_due != 15) n.ref_due = r.ref_due + 1;
    } else {
      n.ref_timer = r.ref_timer - 1;
    }
  }

  for (unsigned k = D - 1; k > 0; --k) n.p[k] = r.p[k - 1];
  n.p[0] = Stage{};

  bool all_pre_ok = true, all_act_ok = true;
  for (unsigned b = 0; b < banks_; ++b) {
    if ((r.bank_open >> b & 1) && r.pre_wait[b]) all_pre_ok = false;
    if (r.act_wait[b]) all_act_ok = false;
  }
  const unsigned cb = r.cur_bank;
  const bool cur_open = r.bank_open >> cb & 1;
  const bool cur_hit = cur_open && r.bank_row[cb] == r.cur_row;
  const bool col_ok = r.rcd_wait == 0 && (!r.cur_wr || r.wr_wait == 0);
  const unsigned w = next_w();
  const uint32_t mask_after = r.cur_mask & ~(1u << w);

  switch (r.state) {
    case S_INIT:
      if (r.wait_cnt == 0) {
        switch (r.init_step) {
          case 0: n.init_step = 1; break;
          case 1:
            n.cmd_q = CMD_PRECHARGE;
            n.sdram_a = 1u << 10;
            n.wait_cnt = p_.T_RP - 1;
            n.init_step = 2;
            break;
          case 2:
            n.cmd_q = CMD_REFRESH;
            n.wait_cnt = p_.T_RFC - 1;
            n.init_refs = (r.init_refs + 1) & 0xff;
            if (((r.init_refs + 1) & 0xff) == (p_.INIT_REFRESHES & 0xff)) n.init_step = 3;
            break;
          case 3:
            n.cmd_q = CMD_LOAD_MODE;
            n.sdram_ba = 0;
            n.sdram_a = p_.CL << 4 | 1;  // burst length 2, sequential, burst writes
            n.wait_cnt = p_.T_MRD - 1;
            n.init_step = 4;
            break;
          default:
            n.state = S_IDLE;
            n.done_init = true;
            n.ref_timer = p_.T_REFI - 1;
        }
      }
      break;
    case S_IDLE:
      if (r.ref_due) n.state = S_REF;
      break;
    case S_REF:
      if (r.bank_open) {
        if (all_pre_ok) {
          n.cmd_q = CMD_PRECHARGE;
          n.sdram_a = 1u << 10;
          for (unsigned k = 0; k < banks_; ++k)
            if (r.bank_open >> k & 1) n.act_wait[k] = at_least(r.act_wait[k], p_.T_RP);
          n.bank_open = 0;
        }
      } else if (all_act_ok) {
        n.cmd_q = CMD_REFRESH;
        for (unsigned k = 0; k < banks_; ++k) n.act_wait[k] = p_.T_RFC - 1;
        n.ref_due = r.ref_timer == 0 ? r.ref_due : r.ref_due - 1;
        n.state = S_IDLE;
      }
      break;
    case S_REQ:
      if (r.cur_bad) {
        n.state = S_IDLE;
      } else if (cur_hit) {
        if (r.cur_mask == 0) {
          n.state = S_IDLE;
        } else if (col_ok) {
          const unsigned col = r.cur_col | w << 1;
          const uint32_t a = byte_addr(cb, r.cur_row, col);
          n.cmd_q = r.cur_wr ? CMD_WRITE : CMD_READ;
          n.sdram_ba = cb;
          n.sdram_a = col;
          n.cur_mask = mask_after;
          n.cur_first = false;
          if (r.cur_wr) {
            const uint32_t v = p_.LINE_PORT && r.cur_lineop ? r.cur_line.w[w] : r.cur_data;
            n.sdram_dq_o = uint16_t(v);
            n.sdram_dq_oe = true;
            n.wr_hi = uint16_t(v >> 16);
            n.wr_second = true;
            n.pre_wait[cb] = at_least(r.pre_wait[cb], p_.T_WR + 1);
            set_word(a, v);
          } else {
            n.wr_second = false;
            n.wr_wait = p_.CL + 2;
            n.pre_wait[cb] = at_least(r.pre_wait[cb], 2);
            Stage& s = n.p[0];
            s.valid = true;
            s.kind = r.cur_lineop ? K_FILL : (r.cur_resp ? K_WORD : K_RMW);
            s.first = r.cur_first;
            s.last = mask_after == 0;
            s.rmw = r.cur_rmw;
            s.widx = w;
            s.tag = r.cur_tag;
            s.word = word(a);
          }
          n.state = S_COL2;
        }
      } else if (cur_open) {
        if (r.pre_wait[cb] == 0) {
          n.cmd_q = CMD_PRECHARGE;
          n.sdram_ba = cb;
          n.sdram_a = 0;
          n.bank_open &= ~(1u << cb);
          n.act_wait[cb] = at_least(r.act_wait[cb], p_.T_RP);
        }
      } else if (r.act_wait[cb] == 0 && r.rrd_wait == 0) {
        n.cmd_q = CMD_ACTIVE;
        n.sdram_ba = cb;
        n.sdram_a = r.cur_row;
        n.bank_open |= 1u << cb;
        n.bank_row[cb] = r.cur_row;
        n.act_wait[cb] = p_.T_RC - 1;
        n.pre_wait[cb] = p_.T_RAS - 1;
        n.rrd_wait = p_.T_RRD - 1;
        n.rcd_wait = p_.T_RCD - 1;
      }
      break;
    case S_COL2:
      if (r.wr_second) {
        n.sdram_dq_o = r.wr_hi;
        n.sdram_dq_oe = true;
      }
      n.state = r.cur_mask ? S_REQ : (r.cur_rmw && !r.rmw_wrote) ? S_RMW : S_IDLE;
      break;
    case S_RMW:
      if (r.rmw_ready && r.wr_wait == 0) {
        const unsigned col = r.cur_col | r.cur_widx << 1;
        n.cmd_q = CMD_WRITE;
        n.sdram_ba = cb;
        n.sdram_a = col;
        n.sdram_dq_o = uint16_t(r.rmw_new_q);
        n.sdram_dq_oe = true;
        n.wr_hi = uint16_t(r.rmw_new_q >> 16);
        n.wr_second = true;
        n.rmw_wrote = true;
        n.pre_wait[cb] = at_least(r.pre_wait[cb], p_.T_WR + 1);
        n.state = S_COL2;
        set_word(byte_addr(cb, r.cur_row, col), r.rmw_new_q);
      }
      break;
    default: n.state = S_IDLE;
  }

  if (q.valid && ready) {
    const Decoded d = decode(p_, uint32_t(mem_.size()), q);
    const unsigned widx = (q.addr % p_.LINE_BYTES) / 4;
    n.state = S_REQ;
    n.cur_bad = d.bad();
    n.cur_wr = d.op_stw || d.op_wline;
    n.cur_rmw = d.op_atomic;
    n.cur_resp = d.op_ldw || d.op_atom || d.op_fill;
    n.cur_lineop = d.line;
    n.cur_first = true;
    n.rmw_wrote = false;
    n.cur_op = q.op;
    n.cur_data = q.data;
    n.cur_cmp = q.cmp;
    n.cur_tag = q.tag & 0xffff;
    n.cur_bank = (q.addr >> (p_.COL_BITS + 1)) & (banks_ - 1);
    n.cur_row = (q.addr >> (p_.COL_BITS + 1 + p_.BANK_BITS)) & ((1u << p_.ROW_BITS) - 1);
    n.cur_col = ((q.addr >> 1) & ((1u << p_.COL_BITS) - 1)) & ~((p_.LINE_BYTES >> 1) - 1);
    n.cur_widx = widx;
    n.cur_mask = d.op_wline ? (q.mask & all_words) : d.op_fill ? all_words : 1u << widx;
    if (p_.LINE_PORT && q.line) n.cur_line = *q.line;
    if (n.cur_bad) {
      n.fault = true;
      if (!r.fault) n.fault_addr = q.addr;
      if (!fault_.raised) {
        fault_ = refusal(p_, uint32_t(mem_.size()), q);
        fault_.cycle = now_;
      }
    }
  }

  // Words coming in: responses, fills, atomics' old values.
  n.dram_resp_valid = false;
  const Stage& in = r.p[D - 1];
  if (in.valid && in.rmw) {
    RegValues v;
    v.a = r.cur_cmp;
    v.b = 0;
    v.c = r.cur_data;
    const isa::InstrInfo* op = isa::find_opcode(uint8_t(r.cur_op));
    n.rmw_new_q = op ? atomic_update(op->op, in.word, v) : in.word;
    n.rmw_ready = true;
  }
  if (r.state == S_RMW && r.rmw_ready && r.wr_wait == 0) n.rmw_ready = false;
  if (in.valid && in.kind == K_WORD) {
    n.dram_resp_valid = true;
    n.dram_resp_data = in.word;
    n.dram_resp_tag = in.tag;
  }
  if (in.valid && in.kind == K_FILL) {
    n.fbuf.w[in.widx] = in.word;
    if (p_.LINE_PORT) {
      if (in.last) {
        PortLine line = r.fbuf;
        line.w[in.widx] = in.word;
        n.dram_resp_valid = true;
        n.dram_resp_data = line.w[0];
        n.dram_resp_line = line;
        n.dram_resp_tag = in.tag;
      }
    } else if (in.first) {
      n.em_active = true;
      n.em_delay = lw_ - 1;
      n.em_idx = 0;
      n.em_tag = in.tag;
    }
  }
  if (!p_.LINE_PORT && r.em_active && !(in.valid && in.kind == K_FILL && in.first)) {
    if (r.em_delay) {
      n.em_delay = r.em_delay - 1;
    } else {
      n.dram_resp_valid = true;
      n.dram_resp_data = r.fbuf.w[r.em_idx];
      n.dram_resp_tag = r.em_tag;
      n.em_idx = (r.em_idx + 1) % lw_;
      if (r.em_idx == lw_ - 1) n.em_active = false;
    }
  }

  if (rst) {
    n.state = S_INIT;
    n.init_step = 0;
    n.init_refs = 0;
    n.wait_cnt = p_.INIT_WAIT;
    n.done_init = false;
    n.ref_timer = 0;
    n.ref_due = 0;
    n.cmd_q = CMD_INHIBIT;
    n.sdram_cke = false;
    n.sdram_dq_oe = false;
    n.sdram_dqm = 0;
    n.bank_open = 0;
    n.pre_wait.fill(0);
    n.act_wait.fill(0);
    n.rrd_wait = n.rcd_wait = n.wr_wait = 0;
    for (auto& s : n.p) s.valid = false;
    n.rmw_ready = false;
    n.em_active = false;
    n.dram_resp_valid = false;
    n.dram_resp_line = PortLine{};
    n.fault = false;
    n.fault_addr = 0;
    fault_ = MemFault{};
  } else {
    n.sdram_cke = true;
  }
  r_ = n;
  ++now_;
}

}  // namespace umbra::scm
