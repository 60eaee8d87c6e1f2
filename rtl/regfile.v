// regfile: every thread's general registers, in block RAM addressed by {thread,
// register}.  An instruction reads up to three registers (fields a, b, c) in one
// cycle and writes at most one, and a block RAM has one read and one write port, so
// there are three identical copies, one per read field, all written together.
//
// Reads are synchronous: decode's registered register numbers are sampled at the end
// of R and the data is in the RAMs' output registers in X1.  r0 reads zero because the
// RAMs start all zero (an FPGA's block RAM takes its initial contents with the
// bitstream) and nothing ever writes r0 (writeback drops such writes, and so does the
// write enable here), so no mask sits between the RAMs and execute.  The write port is
// writeback's registered output, valid in the cycle after W, and the RAM takes the
// write at the end of it.  No read ever meets a write to the same thread: in cycle c
// the write is for the thread fetched in c-(L+4) and the read for the one fetched in
// c-2, L+2 slots apart, and the depth L+4 <= THREADS puts them on different threads.
// So the RAMs carry no_rw_check: without it Yosys defines a read of the word being
// written with a bypass, a 32-bit multiplexer, an address compare and a copy of the
// written word per copy (about 110 LUT4s and 76 flip-flops on the UP5K), for a case
// that never happens.
//
// Each RAM process has the shape Yosys maps to SB_RAM40_4K on iCE40: one write port,
// one registered read port, no reset and no enable on the read register.  With REGS
// not a power of two the rows above REGS in each thread's block are never used.
//
// RAM_OUT_REG (the LFE5U-85F) moves the read a cycle earlier.  An ECP5 DP16KD gives
// its data 5.8 ns after the clock without its output register, and that began two of
// the one-core ULX3S board's three worst paths, into execute (docs/fpga.md, "Round
// eight").  So the RAMs sample decode's raw fields and fetch's thread at the end of D,
// and R takes the data into flip-flops, with a field that is no register read dropped
// to zero there (r_keep) and a branch's field a given to port c from port a's RAM
// (r_c_is_a): execute gets the same values in X1 from a register.  The read is still
// of the right value: in cycle c the write is for the thread fetched in c-(L+4) and
// the read for the one fetched in c-1, L+3 slots apart, again different threads, and
// a thread's write comes at the end of c0+L+4 for its instruction fetched in c0, its
// next read at the end of c0+T+1 or later, after it since T >= L+4.  A raw field
// above REGS reads some other register of the thread, and either R drops it or
// decode has made the instruction illegal.
`default_nettype none

module regfile #(
    parameter integer TW = 3,
    parameter integer RW = 8,
    parameter integer RAM_OUT_REG = 0  // 1: read in D, into flip-flops in R (above)
) (
    input  wire          clk,

    // From fetch and decode, valid in D (RAM_OUT_REG only).
    input  wire [TW-1:0] d_thread,
    input  wire [7:0]    d_fa,
    input  wire [7:0]    d_fb,
    input  wire [7:0]    d_fc,

    // From decode, valid in R.
    input  wire [TW-1:0] r_thread,
    input  wire [7:0]    r_ra,
    input  wire [7:0]    r_rb,
    input  wire [7:0]    r_rc,
    input  wire [2:0]    r_keep,    // RAM_OUT_REG only, as r_c_is_a
    input  wire          r_c_is_a,

    // Valid in X1.
    output wire [31:0]   rf_a,
    output wire [31:0]   rf_b,
    output wire [31:0]   rf_c,

    // From writeback, valid in the cycle after W.
    input  wire          rf_we,
    input  wire [TW-1:0] rf_wthread,
    input  wire [7:0]    rf_wreg,
    input  wire [31:0]   rf_wdata
);

  localparam integer DEPTH = 1 << (TW + RW);

  // Register numbers at or above REGS never get here (decode makes them illegal), so
  // only the low RW bits address the RAM.
  generate
    if (RW < 8) begin : g_high_bits
      wire unused_high = |{r_ra[7:RW], r_rb[7:RW], r_rc[7:RW], d_fa[7:RW], d_fb[7:RW],
                           d_fc[7:RW]};
    end
  endgenerate
  localparam EARLY = RAM_OUT_REG != 0;
  wire [TW+RW-1:0] raddr_a = EARLY ? {d_thread, d_fa[RW-1:0]} : {r_thread, r_ra[RW-1:0]};
  wire [TW+RW-1:0] raddr_b = EARLY ? {d_thread, d_fb[RW-1:0]} : {r_thread, r_rb[RW-1:0]};
  wire [TW+RW-1:0] raddr_c = EARLY ? {d_thread, d_fc[RW-1:0]} : {r_thread, r_rc[RW-1:0]};
  wire [TW+RW-1:0] waddr   = {rf_wthread, rf_wreg[RW-1:0]};
  // writeback never writes r0; the check costs nothing and keeps r0's row clean.
  wire             we      = rf_we && (rf_wreg != 8'd0);

  (* no_rw_check *) reg [31:0] ram_a [0:DEPTH-1];
  (* no_rw_check *) reg [31:0] ram_b [0:DEPTH-1];
  (* no_rw_check *) reg [31:0] ram_c [0:DEPTH-1];
  reg [31:0] q_a, q_b, q_c;

  // One loop per RAM: Yosys orders every write of one process against all the earlier
  // ones, so a single loop over the three RAMs took it 50 s to read at the default
  // size (2,048 words each), three loops 10 s.
  integer ia, ib, ic;
  initial for (ia = 0; ia < DEPTH; ia = ia + 1) ram_a[ia] = 32'd0;
  initial for (ib = 0; ib < DEPTH; ib = ib + 1) ram_b[ib] = 32'd0;
  initial for (ic = 0; ic < DEPTH; ic = ic + 1) ram_c[ic] = 32'd0;

  always @(posedge clk) begin
    if (we)
      ram_a[waddr] <= rf_wdata;
    q_a <= ram_a[raddr_a];
  end

  always @(posedge clk) begin
    if (we)
      ram_b[waddr] <= rf_wdata;
    q_b <= ram_b[raddr_b];
  end

  always @(posedge clk) begin
    if (we)
      ram_c[waddr] <= rf_wdata;
    q_c <= ram_c[raddr_c];
  end

  generate
    if (EARLY) begin : g_out_reg
      reg [31:0] o_a, o_b, o_c;
      always @(posedge clk) begin
        o_a <= r_keep[0] ? q_a : 32'd0;
        o_b <= r_keep[1] ? q_b : 32'd0;
        o_c <= r_c_is_a ? q_a : r_keep[2] ? q_c : 32'd0;
      end
      assign rf_a = o_a;
      assign rf_b = o_b;
      assign rf_c = o_c;
    end else begin : g_ram_out
      wire unused_early = ^{r_keep, r_c_is_a};
      assign rf_a = q_a;
      assign rf_b = q_b;
      assign rf_c = q_c;
    end
  endgenerate

endmodule

`default_nettype wire
