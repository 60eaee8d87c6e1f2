// sdram_controller: the memory behind the system's DRAM port on a board with 16-bit
// SDR SDRAM (the ULX3S's MT48LC16M16A2, issue 36).  Its front is the port the reorder
// queue drives (rtl/reorder_queue.v's dram_req_* / dram_resp_*, plus the line port's
// mask and line when LINE_PORT); its back is the chip's pins, sdram_*, named as
// systemc/memory/sdram_chip.h's SdramPins, the cycle model that judges it in the
// suite.  Every timing is a parameter in clocks (the configuration will feed them).
//
// Why it is shaped so:
// - Open page.  The reorder queue in front picks requests by the chip's own (bank,
//   row) (address map as the queue's: column bytes = addr mod 2^(COL_BITS+1), bank
//   next, row above), so rows stay open until a request needs another row of their
//   bank or the refresh closes them all.
// - Burst length 2, one 32-bit word per READ/WRITE.  Every request is then a list of
//   words (a fill all of its line's, a wline those its mask names, ldw/stw/atomics
//   one) issued every second cycle: the data bus streams (2 bytes a cycle, its peak),
//   a wline's unmasked words cost nothing, and no burst ever needs cutting short.
// - One request at a time on the command bus, in the order the queue sends them:
//   the queue already orders requests to a line, and an atomic's read and write can
//   then never be separated.  A request is accepted in the second slot of the
//   previous one's last column command, so row hits still stream back to back.
// - Atomics (red.*, atom.*) execute here, as the DRAM and fixed models do at the
//   memory side and as fpga/spram_memory.v does on the iCE40 boards: READ the word,
//   compute the new value (the same ALU as spram_memory's), WRITE it back, answer
//   atom.* with the old value.
// - Responses in acceptance order, never interleaved: an ldw's or atomic's beat the
//   cycle after its word is in; a fill's beats on consecutive cycles, started so that
//   the last one leaves the cycle after its word arrives (the words arrive every
//   second cycle, the beats every cycle); on a line port one beat with the line then.
//   The next request's first word arrives two cycles after the previous one's last,
//   so beats of two responses cannot meet.
// - Every pin is a register (the FPGA's I/O flip-flops), DQ is registered on the way
//   in too.  A command decided in cycle c is on the pins from edge c+1 and the chip
//   takes it at edge c+2; read data for that edge + CL is in dq_q in cycle c+2+CL,
//   its second half in c+3+CL (RD_DELAY).  Distances between commands are the same
//   counted in decision cycles, so the timing counters below count those.
// - Refresh: a free-running T_REFI timer counts refreshes due; each is done between
//   requests (PRECHARGE ALL once tRAS/tWR allow, AUTO REFRESH once tRP/tRC allow), so
//   the average interval is exactly T_REFI whatever the delays, and one refresh is
//   late by at most the request in progress (tens of cycles).  T_REFI * rows must
//   therefore leave that much of the refresh window: 781 * 8192 leaves 2048 cycles of
//   64 ms at 100 MHz.
//
// The data bus turns around with a free cycle: a WRITE's data follow the last read
// data no sooner than two edges later (the datasheet's cycle between the last read
// data and a WRITE), WRITE >= READ + CL + 3 in decision cycles.
//
// A request with an op that is no memory op (wline without LINE_PORT), a misaligned
// address (word ops: not on a word; fill, wline: not on a line) or one beyond the chip
// is consumed with no access and no response and raises the sticky `fault`, as the
// other memories refuse it.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module sdram_controller #(
    // The chip's times in clocks of this controller's clock, isa/config_keys.yaml's list
    // sdram_clocks: CL (2 or 3); T_RCD, T_RP, T_RAS, T_RC, T_RRD, T_RFC; T_WR from the
    // last write data; T_MRD; T_REFI, the refresh interval rounded down; INIT_WAIT, the
    // power-up's NOPs.  The defaults are the default machine's sdram.* times (the
    // MT48LC16M16A2-6A's) at 100 MHz, rounded by umbra::sdram_clocks, as every flow
    // rounds them; systemc/memory/sdram_chip.h SdramTiming::from rounds the same way.
    `UMBRA_SDRAM_CLOCKS_PARAMS,
    parameter integer INIT_REFRESHES = 2,
    // Geometry: 512 columns of 16 bits, 4 banks, 8192 rows (32 MB): the chip's, not the
    // default machine's dram.* (which describe a larger DRAM).
    parameter integer COL_BITS       = 9,
    parameter integer BANK_BITS      = 2,
    parameter integer ROW_BITS       = 13,
    parameter integer LINE_BYTES     = `UMBRA_DEFAULT_LINE_BYTES,     // cache.line_bytes: a fill's words
    parameter integer LINE_PORT      = `UMBRA_DEFAULT_LINE_PORT,      // cache.line_port: fills in one beat, wline
    parameter integer AW = (ROW_BITS > 11) ? ROW_BITS : 11,   // sdram_a width
    parameter integer LW = LINE_BYTES / 4                    // words in a line
) (
    input  wire              clk,
    input  wire              rst,                // synchronous, active high

    // The DRAM port (the reorder queue's dram_req_* / dram_resp_*).
    input  wire              dram_req_valid,
    output wire              dram_req_ready,
    input  wire [7:0]        dram_req_op,
    input  wire [31:0]       dram_req_addr,
    input  wire [31:0]       dram_req_data,
    input  wire [31:0]       dram_req_cmp,
    input  wire [15:0]       dram_req_tag,
    input  wire [LW-1:0]     dram_req_mask,      // LINE_PORT: a wline's words
    input  wire [32*LW-1:0]  dram_req_line,      // LINE_PORT: a wline's data
    output reg               dram_resp_valid,
    output reg  [31:0]       dram_resp_data,
    output reg  [15:0]       dram_resp_tag,
    output wire [32*LW-1:0]  dram_resp_line,     // LINE_PORT: a fill's line (else 0)

    output wire              init_done,          // the chip is initialized
    output reg               fault,              // sticky until rst
    output reg  [31:0]       fault_addr,

    // The chip's pins.
    output reg               sdram_cke,
    output wire              sdram_cs_n,
    output wire              sdram_ras_n,
    output wire              sdram_cas_n,
    output wire              sdram_we_n,
    output reg  [BANK_BITS-1:0] sdram_ba,
    output reg  [AW-1:0]     sdram_a,
    output reg  [1:0]        sdram_dqm,
    output reg  [15:0]       sdram_dq_o,
    output reg               sdram_dq_oe,
    input  wire [15:0]       sdram_dq_i
);

  localparam integer BANKS    = 1 << BANK_BITS;
  localparam integer LB       = $clog2(LINE_BYTES);          // byte-in-line bits
  localparam integer WB       = (LW > 1) ? $clog2(LW) : 1;   // word-in-line index
  localparam integer TOP      = COL_BITS + 1 + BANK_BITS + ROW_BITS;  // address bits
  localparam integer RD_DELAY = CL + 3;                       // READ decided -> word in
  localparam integer TW       = 8;                            // timing counter width
  localparam integer IW       = (INIT_WAIT > T_REFI ? $clog2(INIT_WAIT + 1) : $clog2(T_REFI + 1));

  generate
    if (CL != 2 && CL != 3) begin : g_check_cl
      sdram_controller_CL_must_be_2_or_3 u_error ();
    end
    if (T_RCD < 1 || T_RP < 1 || T_RAS < 1 || T_RC < 1 || T_RRD < 1 || T_WR < 1 || T_RFC < 1 ||
        T_MRD < 1 || T_RCD > 255 || T_RP > 255 || T_RAS > 255 || T_RC > 255 || T_RRD > 255 ||
        T_WR > 254 || T_RFC > 255 || T_MRD > 255) begin : g_check_t
      sdram_controller_timings_must_be_1_to_255_clocks u_error ();
    end
    if (LW < 1 || (1 << LB) != LINE_BYTES || LB > COL_BITS) begin : g_check_line
      sdram_controller_LINE_BYTES_must_be_a_power_of_two_4_to_a_row u_error ();
    end
    if (TOP > 32 || COL_BITS > 10 || INIT_REFRESHES < 1 || T_REFI < 32) begin : g_check_geometry
      sdram_controller_geometry_or_refresh_out_of_range u_error ();
    end
  endgenerate

  // ---- commands: {cs, ras, cas, we}, the pins inverted --------------------------------------
  // Active high inside, so that the register's power-up and reset value, 0, is
  // COMMAND INHIBIT on the pins, never a LOAD MODE REGISTER.
  localparam [3:0] CMD_INHIBIT = 4'b0000, CMD_NOP = 4'b1000, CMD_ACTIVE = 4'b1100,
                   CMD_READ = 4'b1010, CMD_WRITE = 4'b1011, CMD_PRECHARGE = 4'b1101,
                   CMD_REFRESH = 4'b1110, CMD_LOAD_MODE = 4'b1111;
  // Burst length 2 (A2:A0 = 001), sequential, CAS latency CL, burst writes.
  localparam [2:0]    MODE_CL = CL[2:0];
  localparam [AW-1:0] MODE = {{(AW - 7){1'b0}}, MODE_CL, 4'b0001};

  reg [3:0] cmd_q;
  assign {sdram_cs_n, sdram_ras_n, sdram_cas_n, sdram_we_n} = ~cmd_q;

  // ---- state --------------------------------------------------------------------------
  localparam [2:0] S_INIT = 3'd0,   // power-up wait and the init sequence
                   S_IDLE = 3'd1,   // no request
                   S_REQ  = 3'd2,   // a request: open its row, issue its next column command
                   S_COL2 = 3'd3,   // the second data slot of a column command
                   S_RMW  = 3'd4,   // an atomic waits for its old word
                   S_REF  = 3'd5;   // a refresh: close every bank, AUTO REFRESH
  reg [2:0] state;

  // The request being served.
  reg              cur_bad, cur_wr, cur_rmw, cur_resp, cur_lineop, cur_first, rmw_wrote;
  reg [7:0]        cur_op;
  reg [31:0]       cur_data, cur_cmp;
  reg [15:0]       cur_tag;
  reg [BANK_BITS-1:0] cur_bank;
  reg [ROW_BITS-1:0]  cur_row;
  reg [COL_BITS-1:0]  cur_col;     // the line's first column
  reg [LW-1:0]     cur_mask;       // words still to issue
  reg [WB-1:0]     cur_widx;       // an atomic's word
  reg [32*LW-1:0]  cur_line;       // LINE_PORT: a wline's words

  // Per bank: open row, and down-counters (0: allowed) for PRECHARGE (tRAS, tWR) and
  // ACTIVE or REFRESH (tRC, tRP, tRFC).  Global: tRRD, tRCD, the READ-to-WRITE turn.
  reg [BANKS-1:0]          bank_open;
  reg [ROW_BITS*BANKS-1:0] bank_row;
  reg [TW*BANKS-1:0]       pre_wait;
  reg [TW*BANKS-1:0]       act_wait;
  reg [TW-1:0]             rrd_wait, rcd_wait, wr_wait;
  reg [IW-1:0]             wait_cnt;     // init's waits
  reg [3:0]                init_step;
  reg [7:0]                init_refs;
  reg [IW-1:0]             ref_timer;
  reg [3:0]                ref_due;      // refreshes owed
  reg                      done_init;
  assign init_done = done_init;

  // ---- what a request is ----------------------------------------------------------------
  wire op_ldw   = dram_req_op == `UMBRA_OP_LDW;
  wire op_stw   = dram_req_op == `UMBRA_OP_STW;
  wire op_fill  = dram_req_op == `UMBRA_PORT_OP_FILL;
  wire op_wline = (LINE_PORT != 0) && (dram_req_op == `UMBRA_PORT_OP_WLINE);
  wire op_red   = (dram_req_op == `UMBRA_OP_RED_ADD)  || (dram_req_op == `UMBRA_OP_RED_MIN) ||
                  (dram_req_op == `UMBRA_OP_RED_MAX)  || (dram_req_op == `UMBRA_OP_RED_XCHG) ||
                  (dram_req_op == `UMBRA_OP_RED_CAS);
  wire op_atom  = (dram_req_op == `UMBRA_OP_ATOM_ADD) || (dram_req_op == `UMBRA_OP_ATOM_MIN) ||
                  (dram_req_op == `UMBRA_OP_ATOM_MAX) || (dram_req_op == `UMBRA_OP_ATOM_XCHG) ||
                  (dram_req_op == `UMBRA_OP_ATOM_CAS);
  wire req_line = op_fill || op_wline;
  wire req_known = op_ldw || op_stw || req_line || op_red || op_atom;
  wire req_aligned = (dram_req_addr[1:0] == 2'b00) &&
                     (!req_line || dram_req_addr[LB-1:0] == {LB{1'b0}});
  wire req_in_range;
  generate
    if (TOP < 32) begin : g_range
      assign req_in_range = dram_req_addr[31:TOP] == {(32 - TOP){1'b0}};
    end else begin : g_range_all
      assign req_in_range = 1'b1;
    end
  endgenerate
  wire [WB-1:0] req_widx;
  generate
    if (LW > 1) begin : g_widx
      assign req_widx = dram_req_addr[LB-1:2];
    end else begin : g_widx1
      assign req_widx = 1'b0;
    end
  endgenerate

  // ---- the current request's next word ---------------------------------------------------
  // The lowest word still to issue (words go in order, so a fill's arrive in order).
  reg [WB-1:0] next_w;
  integer w;
  always @* begin
    next_w = {WB{1'b0}};
    for (w = LW - 1; w >= 0; w = w - 1)
      if (cur_mask[w]) next_w = w[WB-1:0];
  end
  localparam [LW-1:0] ONE_WORD = 1;
  wire [LW-1:0]  mask_after = cur_mask & ~(ONE_WORD << next_w);
  wire [COL_BITS-1:0] next_col = cur_col | ({{(COL_BITS - WB){1'b0}}, next_w} << 1);
  wire [COL_BITS-1:0] rmw_col  = cur_col | ({{(COL_BITS - WB){1'b0}}, cur_widx} << 1);

  // Writes to the current bank's entries go through this one-hot decode and a loop of
  // constant indices: a part-select at a variable index would make Yosys build barrel
  // shifters over the whole vectors (thousands of LUTs on the ECP5).
  localparam [BANKS-1:0] ONE_BANK = 1;
  wire [BANKS-1:0] cur_bank_hot = ONE_BANK << cur_bank;
  wire [TW-1:0] pre_w_cur = pre_wait[TW*cur_bank +: TW];
  wire [TW-1:0] act_w_cur = act_wait[TW*cur_bank +: TW];
  wire          cur_open  = bank_open[cur_bank];
  // The row on A, zero-extended (A is at least 11 bits: A10 is the all-banks bit).
  wire [AW-1:0] row_a;
  generate
    if (AW > ROW_BITS) begin : g_row_a
      assign row_a = {{(AW - ROW_BITS){1'b0}}, cur_row};
    end else begin : g_row_a_full
      assign row_a = cur_row;
    end
  endgenerate
  wire          cur_hit   = cur_open && bank_row[ROW_BITS*cur_bank +: ROW_BITS] == cur_row;
  wire          col_ok    = rcd_wait == {TW{1'b0}} && (!cur_wr || wr_wait == {TW{1'b0}});

  reg all_pre_ok, all_act_ok;
  integer b;
  always @* begin
    all_pre_ok = 1'b1;
    all_act_ok = 1'b1;
    for (b = 0; b < BANKS; b = b + 1) begin
      if (bank_open[b] && pre_wait[TW*b +: TW] != {TW{1'b0}}) all_pre_ok = 1'b0;
      if (act_wait[TW*b +: TW] != {TW{1'b0}}) all_act_ok = 1'b0;
    end
  end

  // The last column command's second slot frees the request register.
  wire finishing = (state == S_COL2) && (cur_mask == {LW{1'b0}}) && !(cur_rmw && !rmw_wrote);
  assign dram_req_ready = (ref_due == 4'd0) && ((state == S_IDLE) || finishing);
  wire accept = dram_req_valid && dram_req_ready;

  // ---- the read return path ---------------------------------------------------------------
  // One entry per READ, RD_DELAY stages: at the last one its word is {dq_q, dq_lo}.
  localparam [1:0] K_RMW = 2'd0, K_WORD = 2'd1, K_FILL = 2'd2;
  reg [RD_DELAY-1:0]      p_valid;
  reg [2*RD_DELAY-1:0]    p_kind;
  reg [RD_DELAY-1:0]      p_first, p_last, p_rmw;
  reg [WB*RD_DELAY-1:0]   p_widx;
  reg [16*RD_DELAY-1:0]   p_tag;
  reg [15:0]              dq_q, dq_lo;
  wire [31:0] rd_word  = {dq_q, dq_lo};
  wire        rd_in    = p_valid[RD_DELAY-1];
  wire [1:0]  rd_kind  = p_kind[2*(RD_DELAY-1) +: 2];
  wire        rd_first = p_first[RD_DELAY-1];
  wire        rd_last  = p_last[RD_DELAY-1];
  wire        rd_rmw   = p_rmw[RD_DELAY-1];
  wire [WB-1:0] rd_widx = p_widx[WB*(RD_DELAY-1) +: WB];
  wire [15:0] rd_tag   = p_tag[16*(RD_DELAY-1) +: 16];

  // The atomic's new value, from its old word (registered: it is written a cycle later).
  reg [31:0] rmw_new;
  reg [31:0] rmw_new_q;
  reg        rmw_ready;
`include "memory_atomic.vh"
  always @* rmw_new = memory_atomic_new(cur_op, rd_word, cur_data, cur_cmp);

  // A fill's words as they arrive; the word port's beats are emitted from here.
  reg [32*LW-1:0] fbuf;
  reg [32*LW-1:0] line_now;      // fbuf with the arriving word in place
  wire [LW-1:0]   rd_widx_hot = ONE_WORD << rd_widx;
  integer lw_i;
  always @* begin
    line_now = fbuf;
    for (lw_i = 0; lw_i < LW; lw_i = lw_i + 1)
      if (rd_widx_hot[lw_i]) line_now[32*lw_i +: 32] = rd_word;
  end
  reg [32*LW-1:0] resp_line_q;   // LINE_PORT: dram_resp_line
  reg          em_active;
  reg [WB:0]   em_delay;
  reg [WB-1:0] em_idx;
  reg [15:0]   em_tag;

  // The data a column WRITE puts out (low half at the command, high half after).
  wire [31:0] wr_word = (LINE_PORT != 0 && cur_lineop) ? cur_line[32*next_w +: 32] : cur_data;
  reg  [15:0] wr_hi;
  reg         wr_second;      // the COL2 slot carries a WRITE's high half

  // ---- the sequencer --------------------------------------------------------------------
  // A down-counter's next value when an event needs `need` cycles: need - 1, unless
  // it already waits longer (then it counts on).
  localparam [TW-1:0] N_RP = T_RP[TW-1:0], N_WR = T_WR[TW-1:0] + 1'b1, N_READ = 2;
  function [TW-1:0] at_least(input [TW-1:0] cur, input [TW-1:0] need);
    begin
      at_least = (cur > need) ? cur - 1'b1 : need - 1'b1;
    end
  endfunction

  integer k;
  always @(posedge clk) begin
    // Defaults: a NOP, DQ released, counters run down.
    cmd_q       <= CMD_NOP;
    sdram_dq_oe <= 1'b0;
    sdram_dqm   <= 2'b00;
    for (k = 0; k < BANKS; k = k + 1) begin
      if (pre_wait[TW*k +: TW] != {TW{1'b0}}) pre_wait[TW*k +: TW] <= pre_wait[TW*k +: TW] - 1'b1;
      if (act_wait[TW*k +: TW] != {TW{1'b0}}) act_wait[TW*k +: TW] <= act_wait[TW*k +: TW] - 1'b1;
    end
    if (rrd_wait != {TW{1'b0}}) rrd_wait <= rrd_wait - 1'b1;
    if (rcd_wait != {TW{1'b0}}) rcd_wait <= rcd_wait - 1'b1;
    if (wr_wait  != {TW{1'b0}}) wr_wait  <= wr_wait - 1'b1;
    if (wait_cnt != {IW{1'b0}}) wait_cnt <= wait_cnt - 1'b1;

    // Refreshes fall due every T_REFI cycles from the end of the init.
    if (done_init) begin
      if (ref_timer == {IW{1'b0}}) begin
        ref_timer <= T_REFI[IW-1:0] - 1'b1;
        if (ref_due != 4'hf) ref_due <= ref_due + 4'd1;
      end else begin
        ref_timer <= ref_timer - 1'b1;
      end
    end

    // The read return pipeline and DQ's input registers.
    dq_q  <= sdram_dq_i;
    dq_lo <= dq_q;
    p_valid <= {p_valid[RD_DELAY-2:0], 1'b0};
    p_kind  <= {p_kind[2*(RD_DELAY-1)-1:0], K_RMW};
    p_first <= {p_first[RD_DELAY-2:0], 1'b0};
    p_last  <= {p_last[RD_DELAY-2:0], 1'b0};
    p_rmw   <= {p_rmw[RD_DELAY-2:0], 1'b0};
    p_widx  <= {p_widx[WB*(RD_DELAY-1)-1:0], {WB{1'b0}}};
    p_tag   <= {p_tag[16*(RD_DELAY-1)-1:0], 16'd0};

    case (state)
      S_INIT: begin
        // 0: power-up wait; 1: PRECHARGE ALL; 2: AUTO REFRESH x INIT_REFRESHES;
        // 3: LOAD MODE REGISTER; 4: wait tMRD.
        if (wait_cnt == {IW{1'b0}}) begin
          case (init_step)
            4'd0: init_step <= 4'd1;
            4'd1: begin
              cmd_q          <= CMD_PRECHARGE;
              sdram_a        <= {AW{1'b0}};
              sdram_a[10]    <= 1'b1;
              wait_cnt       <= T_RP[IW-1:0] - 1'b1;
              init_step      <= 4'd2;
            end
            4'd2: begin
              cmd_q     <= CMD_REFRESH;
              wait_cnt  <= T_RFC[IW-1:0] - 1'b1;
              init_refs <= init_refs + 8'd1;
              if (init_refs + 8'd1 == INIT_REFRESHES[7:0]) init_step <= 4'd3;
            end
            4'd3: begin
              cmd_q     <= CMD_LOAD_MODE;
              sdram_ba  <= {BANK_BITS{1'b0}};
              sdram_a   <= MODE;
              wait_cnt  <= T_MRD[IW-1:0] - 1'b1;
              init_step <= 4'd4;
            end
            default: begin
              state     <= S_IDLE;
              done_init <= 1'b1;
              ref_timer <= T_REFI[IW-1:0] - 1'b1;
            end
          endcase
        end
      end

      S_IDLE: begin
        if (ref_due != 4'd0) state <= S_REF;
      end

      S_REF: begin
        if (bank_open != {BANKS{1'b0}}) begin
          if (all_pre_ok) begin
            cmd_q       <= CMD_PRECHARGE;
            sdram_a     <= {AW{1'b0}};
            sdram_a[10] <= 1'b1;
            for (k = 0; k < BANKS; k = k + 1)
              if (bank_open[k]) act_wait[TW*k +: TW] <= at_least(act_wait[TW*k +: TW], N_RP);
            bank_open <= {BANKS{1'b0}};
          end
        end else if (all_act_ok) begin
          cmd_q <= CMD_REFRESH;
          for (k = 0; k < BANKS; k = k + 1) act_wait[TW*k +: TW] <= T_RFC[TW-1:0] - 1'b1;
          // One paid; if the timer adds one in this cycle, the count stays.
          ref_due <= (ref_timer == {IW{1'b0}}) ? ref_due : ref_due - 4'd1;
          state   <= S_IDLE;
        end
      end

      S_REQ: begin
        if (cur_bad) begin
          state <= S_IDLE;
        end else if (cur_hit) begin
          if (cur_mask == {LW{1'b0}}) begin
            state <= S_IDLE;                         // a wline naming no word
          end else if (col_ok) begin
            cmd_q     <= cur_wr ? CMD_WRITE : CMD_READ;
            sdram_ba  <= cur_bank;
            sdram_a   <= {{(AW - COL_BITS){1'b0}}, next_col};
            cur_mask  <= mask_after;
            cur_first <= 1'b0;
            if (cur_wr) begin
              sdram_dq_o  <= wr_word[15:0];
              sdram_dq_oe <= 1'b1;
              wr_hi       <= wr_word[31:16];
              wr_second   <= 1'b1;
              for (k = 0; k < BANKS; k = k + 1)
                if (cur_bank_hot[k]) pre_wait[TW*k +: TW] <= at_least(pre_w_cur, N_WR);
            end else begin
              wr_second <= 1'b0;
              wr_wait   <= CL[TW-1:0] + 8'd2;
              for (k = 0; k < BANKS; k = k + 1)
                if (cur_bank_hot[k]) pre_wait[TW*k +: TW] <= at_least(pre_w_cur, N_READ);
              p_valid[0] <= 1'b1;
              p_kind[1:0] <= cur_lineop ? K_FILL : (cur_resp ? K_WORD : K_RMW);
              p_first[0] <= cur_first;
              p_last[0]  <= mask_after == {LW{1'b0}};
              p_rmw[0]   <= cur_rmw;
              p_widx[WB-1:0] <= next_w;
              p_tag[15:0] <= cur_tag;
            end
            state <= S_COL2;
          end
        end else if (cur_open) begin
          if (pre_w_cur == {TW{1'b0}}) begin
            cmd_q    <= CMD_PRECHARGE;
            sdram_ba <= cur_bank;
            sdram_a  <= {AW{1'b0}};
            for (k = 0; k < BANKS; k = k + 1)
              if (cur_bank_hot[k]) begin
                bank_open[k] <= 1'b0;
                act_wait[TW*k +: TW] <= at_least(act_w_cur, N_RP);
              end
          end
        end else if (act_w_cur == {TW{1'b0}} && rrd_wait == {TW{1'b0}}) begin
          cmd_q    <= CMD_ACTIVE;
          sdram_ba <= cur_bank;
          sdram_a  <= row_a;
          for (k = 0; k < BANKS; k = k + 1)
            if (cur_bank_hot[k]) begin
              bank_open[k] <= 1'b1;
              bank_row[ROW_BITS*k +: ROW_BITS] <= cur_row;
              act_wait[TW*k +: TW] <= T_RC[TW-1:0] - 1'b1;
              pre_wait[TW*k +: TW] <= T_RAS[TW-1:0] - 1'b1;
            end
          rrd_wait <= T_RRD[TW-1:0] - 1'b1;
          rcd_wait <= T_RCD[TW-1:0] - 1'b1;
        end
      end

      S_COL2: begin
        if (wr_second) begin
          sdram_dq_o  <= wr_hi;
          sdram_dq_oe <= 1'b1;
        end
        if (cur_mask != {LW{1'b0}}) state <= S_REQ;
        else if (cur_rmw && !rmw_wrote) state <= S_RMW;
        else state <= S_IDLE;
      end

      S_RMW: begin
        if (rmw_ready && wr_wait == {TW{1'b0}}) begin
          cmd_q       <= CMD_WRITE;
          sdram_ba    <= cur_bank;
          sdram_a     <= {{(AW - COL_BITS){1'b0}}, rmw_col};
          sdram_dq_o  <= rmw_new_q[15:0];
          sdram_dq_oe <= 1'b1;
          wr_hi       <= rmw_new_q[31:16];
          wr_second   <= 1'b1;
          rmw_wrote   <= 1'b1;
          for (k = 0; k < BANKS; k = k + 1)
            if (cur_bank_hot[k]) pre_wait[TW*k +: TW] <= at_least(pre_w_cur, N_WR);
          state       <= S_COL2;
        end
      end

      default: state <= S_IDLE;
    endcase

    // A request accepted: decoded into the request registers.
    if (accept) begin
      state     <= S_REQ;
      cur_bad   <= !(req_known && req_aligned && req_in_range);
      cur_wr    <= op_stw || op_wline;
      cur_rmw   <= op_red || op_atom;
      cur_resp  <= op_ldw || op_atom || op_fill;
      cur_lineop <= req_line;
      cur_first <= 1'b1;
      rmw_wrote <= 1'b0;
      cur_op    <= dram_req_op;
      cur_data  <= dram_req_data;
      cur_cmp   <= dram_req_cmp;
      cur_tag   <= dram_req_tag;
      cur_bank  <= dram_req_addr[COL_BITS + 1 +: BANK_BITS];
      cur_row   <= dram_req_addr[COL_BITS + 1 + BANK_BITS +: ROW_BITS];
      cur_col   <= {dram_req_addr[COL_BITS:LB], {(LB - 1){1'b0}}};
      cur_widx  <= req_widx;
      cur_mask  <= op_wline ? dram_req_mask
                 : op_fill  ? {LW{1'b1}}
                 : (ONE_WORD << req_widx);
      if (LINE_PORT != 0) cur_line <= dram_req_line;
      if (!(req_known && req_aligned && req_in_range) && !fault) begin
        fault      <= 1'b1;
        fault_addr <= dram_req_addr;
      end
    end

    // Words coming in: responses, fills, atomics' old values.
    dram_resp_valid <= 1'b0;
    if (rd_rmw && rd_in) begin
      rmw_new_q <= rmw_new;
      rmw_ready <= 1'b1;
    end
    if (state == S_RMW && rmw_ready && wr_wait == {TW{1'b0}}) rmw_ready <= 1'b0;
    if (rd_in && rd_kind == K_WORD) begin
      dram_resp_valid <= 1'b1;
      dram_resp_data  <= rd_word;
      dram_resp_tag   <= rd_tag;
    end
    if (rd_in && rd_kind == K_FILL) begin
      for (k = 0; k < LW; k = k + 1)
        if (rd_widx_hot[k]) fbuf[32*k +: 32] <= rd_word;
      if (LINE_PORT != 0) begin
        if (rd_last) begin
          dram_resp_valid <= 1'b1;
          dram_resp_data  <= line_now[31:0];
          resp_line_q     <= line_now;
          dram_resp_tag   <= rd_tag;
        end
      end else if (rd_first) begin
        em_active <= 1'b1;
        em_delay  <= LW[WB:0] - 1'b1;
        em_idx    <= {WB{1'b0}};
        em_tag    <= rd_tag;
      end
    end
    if (LINE_PORT == 0 && em_active && !(rd_in && rd_kind == K_FILL && rd_first)) begin
      if (em_delay != {(WB + 1){1'b0}}) begin
        em_delay <= em_delay - 1'b1;
      end else begin
        dram_resp_valid <= 1'b1;
        dram_resp_data  <= fbuf[32*em_idx +: 32];
        dram_resp_tag   <= em_tag;
        em_idx          <= em_idx + 1'b1;
        if (em_idx == LW[WB-1:0] - 1'b1 || LW == 1) em_active <= 1'b0;
      end
    end

    if (rst) begin
      state       <= S_INIT;
      init_step   <= 4'd0;
      init_refs   <= 8'd0;
      wait_cnt    <= INIT_WAIT[IW-1:0];
      done_init   <= 1'b0;
      ref_timer   <= {IW{1'b0}};
      ref_due     <= 4'd0;
      cmd_q       <= CMD_INHIBIT;
      sdram_cke   <= 1'b0;
      sdram_dq_oe <= 1'b0;
      sdram_dqm   <= 2'b00;
      bank_open   <= {BANKS{1'b0}};
      pre_wait    <= {TW*BANKS{1'b0}};
      act_wait    <= {TW*BANKS{1'b0}};
      rrd_wait    <= {TW{1'b0}};
      rcd_wait    <= {TW{1'b0}};
      wr_wait     <= {TW{1'b0}};
      p_valid     <= {RD_DELAY{1'b0}};
      rmw_ready   <= 1'b0;
      em_active   <= 1'b0;
      dram_resp_valid <= 1'b0;
      resp_line_q     <= {32*LW{1'b0}};
      fault       <= 1'b0;
      fault_addr  <= 32'd0;
    end else begin
      sdram_cke <= 1'b1;
    end
  end

  // Without a line port the line's registers and inputs are unused (Yosys drops them)
  // and the response's line is a constant, not 32 * LW flip-flops held at 0.
  generate
    if (LINE_PORT == 0) begin : g_no_line
      wire unused_line = ^{dram_req_mask, dram_req_line, cur_line, line_now, resp_line_q};
      assign dram_resp_line = {32*LW{1'b0}};
    end else begin : g_line
      assign dram_resp_line = resp_line_q;
    end
  endgenerate

endmodule

`default_nettype wire
