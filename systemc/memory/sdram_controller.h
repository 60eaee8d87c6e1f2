// SdramController: rtl/sdram_controller.v as a C++ cycle model, for the SystemC side
// (the memory model `sdram`, sdram.h) where the RTL side has the controller and the
// chip.  Cycle for cycle the same DRAM port (ready, response beats) and the same
// pins; testbench/sdram/sdram_model_test holds the two together on one request trace.
//
// Why a transliteration rather than formulas (as dram.h has): the controller's
// timing is a state machine with counters, and the one way to be sure of agreeing
// with it every cycle is to have the same registers (same names) and the same
// next-state rules, read as the RTL's always block reads them (every right-hand side
// the value at the start of the cycle).  It needs no chip: the data are its own, a
// READ takes its word from them when it is issued (the RTL's word comes back CL + 3
// cycles later, and no write to it can come between: one request at a time), a WRITE
// puts its word there when it is issued.  Plain C++, no SystemC (as fixed_store.h),
// so benches without the kernel use it directly.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mem_fault.h"
#include "umbra/config.h"
#include "umbra/port_line.h"

namespace umbra::isa {
struct InstrInfo;
}

namespace umbra::scm {

// rtl/sdram_controller.v's parameters, same names and defaults (MT48LC16M16A2-6A at
// 100 MHz).
struct SdramControllerParams {
  unsigned CL = 2, T_RCD = 2, T_RP = 2, T_RAS = 5, T_RC = 6, T_RRD = 2, T_WR = 2, T_RFC = 6, T_MRD = 2;
  unsigned T_REFI = 781, INIT_WAIT = 10000, INIT_REFRESHES = 2;
  unsigned COL_BITS = 9, BANK_BITS = 2, ROW_BITS = 13;
  unsigned LINE_BYTES = 32;
  bool LINE_PORT = false;
  uint32_t chip_bytes() const { return 2u << (COL_BITS + BANK_BITS + ROW_BITS); }
  // A configuration's: its sdram.* times in clocks of `mhz` (umbra::sdram_clocks, the
  // rounding fpga/ulx3s_system.v does and the cosimulation's verilated controller is
  // built with), the line from the cache.
  static SdramControllerParams from(const Config& c, unsigned mhz);
  void check() const;  // the RTL's elaboration checks; throws std::invalid_argument
};

class SdramController {
 public:
  // bytes: the data held (at most the chip's; a multiple of 4).
  SdramController(const SdramControllerParams& p, uint32_t bytes);

  struct Request {
    bool valid = false;
    uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0, mask = 0;
    const PortLine* line = nullptr;
  };
  // Outputs of the current cycle (functions of the registers).
  bool dram_req_ready() const;
  bool dram_resp_valid() const { return r_.dram_resp_valid; }
  uint32_t dram_resp_data() const { return r_.dram_resp_data; }
  uint32_t dram_resp_tag() const { return r_.dram_resp_tag; }
  const PortLine& dram_resp_line() const { return r_.dram_resp_line; }
  bool init_done() const { return r_.done_init; }
  bool fault() const { return r_.fault; }
  // The pins: the command as {cs_n, ras_n, cas_n, we_n} (0b0111 NOP, 0b1111 INHIBIT).
  unsigned sdram_cmd_n() const { return ~r_.cmd_q & 0xfu; }
  bool sdram_cke() const { return r_.sdram_cke; }
  unsigned sdram_ba() const { return r_.sdram_ba; }
  uint32_t sdram_a() const { return r_.sdram_a; }
  unsigned sdram_dqm() const { return r_.sdram_dqm; }
  uint16_t sdram_dq_o() const { return r_.sdram_dq_o; }
  bool sdram_dq_oe() const { return r_.sdram_dq_oe; }

  // The rising edge: rst, or the request transfers if valid and dram_req_ready().
  void clock(bool rst, const Request& q);
  // Steps with no request until every request taken has been done (the controller
  // idle): the data of a store are in memory from its WRITE command on.
  void drain();
  // How the controller answers a request it takes when it holds `bytes`: not at all
  // (raised false), or refused, with the fault every model names (semantics.h; the
  // cycle is left 0).  The RTL's side of the cosimulation, which has only the RTL
  // controller's one fault bit, names its refusals so too.
  static MemFault refusal(const SdramControllerParams& p, uint32_t bytes, const Request& q);

  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  void poke32(uint32_t addr, uint32_t value);
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const { return mem_; }
  const MemFault& first_fault() const { return fault_; }
  const SdramControllerParams& params() const { return p_; }
  uint64_t now() const { return now_; }

 private:
  static constexpr unsigned kBanksMax = 16, kPipeMax = 6;
  enum State : unsigned { S_INIT = 0, S_IDLE = 1, S_REQ = 2, S_COL2 = 3, S_RMW = 4, S_REF = 5 };
  enum Kind : unsigned { K_RMW = 0, K_WORD = 1, K_FILL = 2 };
  struct Stage {  // one entry of the read return pipeline
    bool valid = false, first = false, last = false, rmw = false;
    unsigned kind = K_RMW, widx = 0;
    uint32_t tag = 0;
    uint32_t word = 0;  // the RTL's is on DQ when the entry leaves; here it rides along
  };
  // The RTL's registers, same names.
  struct Regs {
    unsigned state = S_INIT;
    bool cur_bad = false, cur_wr = false, cur_rmw = false, cur_resp = false, cur_lineop = false;
    bool cur_first = false, rmw_wrote = false;
    uint32_t cur_op = 0, cur_data = 0, cur_cmp = 0, cur_tag = 0;
    unsigned cur_bank = 0, cur_row = 0, cur_col = 0, cur_widx = 0;
    uint32_t cur_mask = 0;
    PortLine cur_line;
    uint32_t bank_open = 0;
    std::array<unsigned, kBanksMax> bank_row{}, pre_wait{}, act_wait{};
    unsigned rrd_wait = 0, rcd_wait = 0, wr_wait = 0;
    uint32_t wait_cnt = 0, ref_timer = 0;
    unsigned init_step = 0, init_refs = 0, ref_due = 0;
    bool done_init = false;
    std::array<Stage, kPipeMax> p{};
    uint32_t rmw_new_q = 0;
    bool rmw_ready = false;
    PortLine fbuf;
    bool em_active = false;
    unsigned em_delay = 0, em_idx = 0;
    uint32_t em_tag = 0;
    uint16_t wr_hi = 0;
    bool wr_second = false;
    // Outputs.
    unsigned cmd_q = 0;  // {cs, ras, cas, we}, active high: 0 is COMMAND INHIBIT
    bool sdram_cke = false, sdram_dq_oe = false;
    unsigned sdram_ba = 0, sdram_dqm = 0;
    uint32_t sdram_a = 0;
    uint16_t sdram_dq_o = 0;
    bool dram_resp_valid = false;
    uint32_t dram_resp_data = 0, dram_resp_tag = 0;
    PortLine dram_resp_line;
    bool fault = false;
    uint32_t fault_addr = 0;
  };

  // What the controller decodes of a request: its kind, and whether it refuses it.
  struct Decoded {
    bool op_fill = false, op_wline = false, op_ldw = false, op_stw = false, op_atomic = false,
         op_atom = false;
    bool line = false, known = false, aligned = false, in_range = false;
    const isa::InstrInfo* in = nullptr;
    bool bad() const { return !(known && aligned && in_range); }
  };
  static Decoded decode(const SdramControllerParams& p, uint32_t bytes, const Request& q);
  uint32_t word(uint32_t a) const;
  void set_word(uint32_t a, uint32_t v);
  uint32_t byte_addr(unsigned bank, unsigned row, unsigned col) const;
  unsigned next_w() const;
  static unsigned at_least(unsigned cur, unsigned need) { return cur > need ? cur - 1 : need - 1; }

  SdramControllerParams p_;
  unsigned lw_, rd_delay_, banks_;
  std::vector<uint8_t> mem_;
  Regs r_;
  MemFault fault_;
  uint64_t now_ = 0;
};

}  // namespace umbra::scm
