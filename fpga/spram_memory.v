// spram_memory: a board top's data memory behind the core's generic memory port
// (docs/memory-system.md, "The generic memory port") and a second, simpler port for
// the host link.  SPRAM = 1 (the iCEBreaker): the UP5K's SPRAM (SB_SPRAM256KA, 16K x
// 16 each; two side by side make a 32-bit bank, so MEM_WORDS = 16384 uses two and
// 32768 all four).  SPRAM = 0 (the HX8K breakout, which has no SPRAM): one inferred
// single-port RAM of MEM_WORDS words (a power of two up to 16384), which Yosys maps to
// block RAM (SB_RAM40_4K, 256 words of 32 bits per two BRAMs).  Either way the
// controller below is the same and so is every cycle of its timing.
//
// The RAM has one port, so every access takes the single slot of its cycle and the
// controller serializes them.  A request is registered in the cycle it is accepted and
// reaches the RAM in the next ("the access register" below).  With a request accepted
// in cycle m:
//   ldw        read in m+1; one response beat in m+2 (latency 2, as the UP5K
//              configuration's memory.latency says), straight off the RAM's output;
//   stw        written in m+1; no response;
//   fill       words 0..LINE_BYTES/4-1 of the line read in m+1, m+2, ...; the beats
//              follow in m+2, m+3, ... on consecutive cycles (mem_req_ready is low
//              while the later words are read);
//   red.*, atom.*
//              read in m+1, the new value computed from the RAM's output and written
//              in m+2 (ready is low in m+1), atom.* answered with the old value in
//              m+2.  The memory side is where the atomics execute, so no request can
//              slip between the read and the write of one read-modify-write.
// Every response leaves exactly one cycle after its read, and reads are one per cycle,
// so beats of two responses can never interleave or collide.  A request with a
// misaligned address, an address beyond MEM_WORDS, a fill address not aligned to the
// line, or an op that is no memory operation is consumed with no access and no
// response and raises the sticky `fault` (with the address in fault_addr), as the
// testbench's fixed memory refuses bad requests.
//
// The host port (word index, its read data two cycles after the grant) wins
// over a new core request, so the host link is never starved; `mem_req_ready` is a
// function of registers only (an RMW write or fill in progress, a host request
// waiting), so there is no combinational path from the core's request to its ready.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module spram_memory #(
    parameter integer SPRAM      = 1,      // 1: SB_SPRAM256KA; 0: inferred block RAM
    parameter integer MEM_WORDS  = 32768,  // SPRAM: 16384 or 32768 (two or four SPRAMs)
    parameter integer LINE_BYTES = `UMBRA_DEFAULT_LINE_BYTES,     // cache line: a fill is LINE_BYTES/4 beats
    // 0: a core without the atomic group (core.groups), whose decode makes red.* and
    // atom.* illegal, so none arrives: no read-modify-write unit, and the request's
    // compare value has no reader (the core's request FIFO drops that column).
    parameter integer ATOMICS    = 1
) (
    input  wire        clk,
    input  wire        rst,

    // The core's generic memory port.
    input  wire        mem_req_valid,
    output wire        mem_req_ready,
    input  wire [7:0]  mem_req_op,
    input  wire [31:0] mem_req_addr,
    input  wire [31:0] mem_req_data,
    input  wire [31:0] mem_req_cmp,
    input  wire [7:0]  mem_req_tag,
    output reg         mem_resp_valid,
    output wire [31:0] mem_resp_data,
    output wire [7:0]  mem_resp_tag,

    // The host link: a request is held in host_valid until the cycle host_grant is
    // high; a read's word is on host_rdata in the cycle host_rvalid is high.
    input  wire        host_valid,
    output wire        host_grant,
    input  wire        host_we,
    input  wire [14:0] host_addr,          // word index (below MEM_WORDS)
    input  wire [31:0] host_wdata,
    output reg         host_rvalid,
    output wire [31:0] host_rdata,

    output reg         fault,              // sticky until rst
    // The refused request's address (meaningful once `fault` is set), read by the host
    // link a bit at a time: bit 0 is on fault_addr_lsb, and fault_addr_rotate turns the
    // register right by one, 32 times per STATUS reply, and only once `fault` is set,
    // when the address no longer changes.  Its flip-flops take the request's address or
    // their neighbour's through one LUT each, in logic cells they occupy anyway.
    output wire        fault_addr_lsb,
    input  wire        fault_addr_rotate
);

  localparam integer BEATS = LINE_BYTES / 4;

  generate
    if (SPRAM != 0 && MEM_WORDS != 16384 && MEM_WORDS != 32768) begin : g_check_words
      spram_memory_MEM_WORDS_must_be_16384_or_32768 u_error ();
    end
    if (SPRAM == 0 && (MEM_WORDS < 256 || MEM_WORDS > 16384 ||
                       (MEM_WORDS & (MEM_WORDS - 1)) != 0)) begin : g_check_bram
      spram_memory_MEM_WORDS_must_be_a_power_of_two_256_to_16384 u_error ();
    end
    if (BEATS < 1 || BEATS > 64 || (LINE_BYTES & (LINE_BYTES - 1)) != 0) begin : g_check_line
      spram_memory_LINE_BYTES_must_be_a_power_of_two_4_to_256 u_error ();
    end
  endgenerate

  // ---- what a core request is -------------------------------------------------------
  wire op_ldw  = (mem_req_op == `UMBRA_OP_LDW);
  wire op_stw  = (mem_req_op == `UMBRA_OP_STW);
  wire op_fill = (mem_req_op == `UMBRA_PORT_OP_FILL);
  wire op_red  = (ATOMICS != 0) &&
                 ((mem_req_op == `UMBRA_OP_RED_ADD)  || (mem_req_op == `UMBRA_OP_RED_MIN) ||
                  (mem_req_op == `UMBRA_OP_RED_MAX)  || (mem_req_op == `UMBRA_OP_RED_XCHG) ||
                  (mem_req_op == `UMBRA_OP_RED_CAS));
  wire op_atom = (ATOMICS != 0) &&
                 ((mem_req_op == `UMBRA_OP_ATOM_ADD) || (mem_req_op == `UMBRA_OP_ATOM_MIN) ||
                  (mem_req_op == `UMBRA_OP_ATOM_MAX) || (mem_req_op == `UMBRA_OP_ATOM_XCHG) ||
                  (mem_req_op == `UMBRA_OP_ATOM_CAS));
  localparam [31:0] MEM_BYTES = MEM_WORDS * 4;
  localparam [31:0] LINE_MASK = LINE_BYTES - 1;
  // MEM_BYTES is a power of two: "below it" is its high bits all zero, plain logic where
  // `<` would be a 32-bit carry chain behind the request FIFO's RAM.
  localparam integer MEM_BITS = $clog2(MEM_BYTES);
  wire in_range  = (mem_req_addr[31:MEM_BITS] == {(32 - MEM_BITS){1'b0}}) &&
                   (mem_req_addr[1:0] == 2'b00);
  wire aligned   = op_fill ? ((mem_req_addr & LINE_MASK) == 32'd0) : 1'b1;
  wire known     = op_ldw || op_stw || op_fill || op_red || op_atom;

  // ---- the access register -------------------------------------------------------------
  // Every access but an RMW's write and a fill's later words is taken into registers in
  // one cycle and reaches the RAM in the next: a core request in the cycle it is
  // accepted, a host request in the cycle it is granted.  Deciding in the accepting
  // cycle whether the core's request may touch the RAM (its op, range and alignment,
  // straight off the core's request FIFO RAM) had put that decode in front of the
  // SPRAM's chip select, the iCEBreaker top's critical path (40.5 ns at seed 1).  The
  // host/core choice is made in front of the registers, where each bit's multiplexer
  // and flip-flop share a logic cell, and the read word goes back unregistered, straight
  // off the RAM's output register, so a core read is still answered two cycles after
  // acceptance and the port's ready cycles are as before.
  reg        r_valid;           // an access this cycle: a good core request, or the host's
  reg        r_host, r_we, r_fill, r_rmw, r_answer;
  reg [7:0]  r_op, r_tag;
  reg [14:0] r_word;
  reg [31:0] r_data, r_cmp;

  // Busy with a request already started: the write half of a read-modify-write, or the
  // later words of a fill.
  reg        rmw_pend;          // the RMW write is this cycle
  reg [6:0]  fill_left;         // fill words still to read, this cycle's included
  reg [14:0] fill_word;         // this cycle's fill word index
  reg [7:0]  fill_tag;
  // With one-word lines (no cache: both FPGA configurations) a fill is a single read,
  // so `filling` is constant 0 and Yosys drops the fill counter, its word address
  // incrementer and that source of the RAM's address.
  wire       filling = (BEATS > 1) && (fill_left != 7'd0);
  wire       r_multi = r_valid && (r_rmw || (BEATS > 1 && r_fill));

  // The next cycle's slot is free unless this cycle's access is an RMW's read (its write
  // comes next) or a fill has more words to read.  The host takes a free slot first, so
  // it is never starved; both are functions of registers only (the link's request is its
  // state).
  wire   next_free     = !r_multi && !(filling && fill_left != 7'd1);
  assign host_grant    = host_valid && next_free;
  assign mem_req_ready = !host_valid && next_free;
  wire   accept        = mem_req_valid && mem_req_ready;
  wire   good          = accept && known && in_range && aligned;

  reg  [31:0] fault_addr;
  assign fault_addr_lsb = fault_addr[0];

  wire [31:0] ram_q;            // the word read in the previous cycle
  reg  [31:0] rmw_new;
`include "memory_atomic.vh"
  always @(*) rmw_new = memory_atomic_new(r_op, ram_q, r_data, r_cmp);

  // ---- this cycle's RAM access ----------------------------------------------------------
  // At most one of rmw_pend, filling and r_valid is set (the slot was not free for two).
  wire        acc_en    = !rst && (rmw_pend || filling || r_valid);
  wire        acc_we    = rmw_pend || (r_valid && r_we);
  wire [14:0] acc_word  = filling ? fill_word : r_word;   // an RMW writes where it read
  wire [31:0] acc_wdata = rmw_pend ? rmw_new : r_data;

  // ---- the RAM --------------------------------------------------------------------------
  localparam integer BANKS = (SPRAM != 0) ? MEM_WORDS / 16384 : 1;
  wire [32*BANKS-1:0] bank_q;
  genvar b;
  generate
    if (SPRAM != 0) begin : g_spram
      for (b = 0; b < BANKS; b = b + 1) begin : g_bank
        wire sel = acc_en && ((BANKS == 1) || (acc_word[14] == b[0]));
        SB_SPRAM256KA u_lo (
            .ADDRESS(acc_word[13:0]), .DATAIN(acc_wdata[15:0]), .MASKWREN(4'b1111),
            .WREN(acc_we), .CHIPSELECT(sel), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
            .POWEROFF(1'b1), .DATAOUT(bank_q[32*b +: 16]));
        SB_SPRAM256KA u_hi (
            .ADDRESS(acc_word[13:0]), .DATAIN(acc_wdata[31:16]), .MASKWREN(4'b1111),
            .WREN(acc_we), .CHIPSELECT(sel), .CLOCK(clk), .STANDBY(1'b0), .SLEEP(1'b0),
            .POWEROFF(1'b1), .DATAOUT(bank_q[32*b + 16 +: 16]));
      end
    end else begin : g_bram
      // Read or write, never both in one cycle (a write's read data is never used),
      // so Yosys needs no read-during-write logic beside the block RAMs.
      localparam integer AW = $clog2(MEM_WORDS);
      reg [31:0] ram [0:MEM_WORDS-1];
      reg [31:0] q;
      always @(posedge clk)
        if (acc_en) begin
          if (acc_we) ram[acc_word[AW-1:0]] <= acc_wdata;
          else q <= ram[acc_word[AW-1:0]];
        end
      assign bank_q = q;
      wire unused_high = ^acc_word[14:AW - 1];   // in range, the bits above AW are 0
    end
  endgenerate

  // What the read of the previous cycle was for.
  reg       rd_bank;
  reg [7:0] rd_tag;
  generate
    if (BANKS == 1) begin : g_q1
      wire unused_bank = rd_bank;
      assign ram_q = bank_q[31:0];
    end else begin : g_q2
      assign ram_q = rd_bank ? bank_q[63:32] : bank_q[31:0];
    end
  endgenerate
  assign mem_resp_data = ram_q;
  assign mem_resp_tag  = rd_tag;
  assign host_rdata    = ram_q;

  always @(posedge clk) begin
    // Registers that carry data only; their valid bits below are reset.  The access's
    // are loaded whenever the next slot is free, so their enable is a register function.
    rd_bank <= acc_word[14];
    rd_tag  <= filling ? fill_tag : r_tag;
    if (next_free) begin
      r_host   <= host_valid;
      r_we     <= host_valid ? host_we : op_stw;
      r_word   <= host_valid ? host_addr : mem_req_addr[16:2];
      r_data   <= host_valid ? host_wdata : mem_req_data;
      r_op     <= mem_req_op;
      r_fill   <= op_fill && !host_valid;
      r_rmw    <= (op_red || op_atom) && !host_valid;
      r_answer <= op_atom;
      r_cmp    <= mem_req_cmp;
      r_tag    <= mem_req_tag;
    end
    if (filling) fill_word <= fill_word + 15'd1;
    else begin
      fill_word <= r_word + 15'd1;
      fill_tag  <= r_tag;
    end

    if (rst) begin
      r_valid        <= 1'b0;
      rmw_pend       <= 1'b0;
      fill_left      <= 7'd0;
      mem_resp_valid <= 1'b0;
      host_rvalid    <= 1'b0;
      fault          <= 1'b0;
    end else begin
      r_valid        <= host_grant || good;
      rmw_pend       <= r_valid && r_rmw;
      // A read this cycle (an RMW's answers only for atom.*): its word next cycle.
      mem_resp_valid <= filling || (r_valid && !r_host && !r_we && (!r_rmw || r_answer));
      host_rvalid    <= r_valid && r_host && !r_we;
      if (filling) fill_left <= fill_left - 7'd1;
      else if (r_valid && r_fill) fill_left <= BEATS[6:0] - 7'd1;
      if (accept && !(known && in_range && aligned)) fault <= 1'b1;
    end
    // Until the fault, the register takes every cycle's request address, so it holds
    // the refused request's from the edge that sets `fault`: its enable is a register,
    // not the request's decode (which had been the iCEBreaker top's critical path).
    if (!fault) fault_addr <= mem_req_addr;
    else if (fault_addr_rotate) fault_addr <= {fault_addr[0], fault_addr[31:1]};
  end

endmodule

`default_nettype wire
