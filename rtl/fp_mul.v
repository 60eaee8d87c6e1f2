// fp_mul: binary32 multiply with Umbra's rules (isa/isa.yaml fp_semantics): DAZ on the
// inputs, round to nearest even, FTZ on the output with tininess after rounding,
// overflow to infinity, canonical NaN 0x7fc00000.  Bit-exact with umbra::fp32::mul.
//
// The datapath, in order, with the places it may be cut (fp_stage; fpu.v decides
// which are registers from its LATENCY and MISC_LATENCY; nextpnr does not retime):
//   unpack/DAZ, classify (zero/inf/NaN), sign and exponent sum       -> always a register
//   the significand product, in two halves:
//     `*` (MUL_ROWS = 0): four 16x16 partial products                -> CUT_MID
//                         and their sum
//     rows (MUL_ROWS = 1): the first half of each chain's rows,
//                         the rest (and with CUT_MID, 8 chains, the
//                         first level of adds)                        -> CUT_MID
//                         and the adds of the chains' sums
//   = int_product, 1 + CUT_MID cycles after the inputs               -> CUT_PROD
//     (or, with INT_LATE, 2 + CUT_MID: taken after CUT_PROD, all 64 bits registered)
//   1-bit normalize, guard and sticky                                 -> CUT_NORM
//   round, and the result's class (rtl/fp_round.vh)                  -> CUT_RND
//   the class's word: NaN, infinity, zero or the number               -> the result register
// LATENCY = 2 + the number of cuts; with none it is today's two stages.
// The product of two normal significands lies in [2^46, 2^48), so normalization is a
// single-bit shift and needs no leading-zero counter.
//
// The multiplier is 32x32 and also serves the integer multiplies (int_mul: a and b as
// unsigned 32-bit numbers, the 64-bit product on int_product).  Execute has one
// instruction in X1 per cycle, so the core never needs two products at once, and one
// multiplier instead of two saved four DSP blocks on the UP5K and 1409 logic cells on
// the HX8K, which builds products from logic (docs/fpga.md).  The integer product is
// taken before CUT_PROD, so its latency (the FPU's MISC_LATENCY) is 1 + CUT_MID
// whatever the float path's depth; with INT_LATE it is taken after CUT_PROD, one cycle
// later, when fpu.v gives the short functions a cycle more (MISC_LATENCY 4).
//
// MUL_ROWS = 0 writes the product as `*`.  Without CUT_MID it is one 32x32 `*` of the
// registered significands (synth_ice40 -dsp splits it over four SB_MAC16 and sums the
// pieces in logic); with CUT_MID it is written as the four 16x16 products, each
// registered right after its `*`, so each maps onto one SB_MAC16 with its input and
// output registers inside the block and only the sum of the pieces is logic.
//
// MUL_ROWS = 1 builds the product from logic, for fabric without multiplier blocks, as
// shift-and-add rows (row j adds a << j when b's bit j is set): on iCE40 a row's bit is
// one logic cell, its adder beside the carry chain.  The 32 rows are laid out as chains
// side by side: 8 chains of 4 rows (b's bits 4c..4c+3) with CUT_MID, 4 of 8 without
// it, the first half of each chain's rows before s1 and the rest after it; then a tree
// of two-input adds sums the chains, each shifted by its weight (the pairs of 4-row
// chains, then the four bytes' products two by two, then the halves).  So the
// longest path is half a chain (2 or 4 rows) a stage, where the 32 rows in one series
// this replaced put 11 in a stage behind the operand select (the HX8K's synthesis top:
// 18 MHz at 8 threads then, 27 now, 66 at 16 threads and 12 stages, nextpnr seed 1;
// docs/fpga.md, "The multiplier's rows side by side").  The radix-4 form (16 rows of
// 0, a, 2a or 3a and a four-level tree, every row ready at once) was faster still (71
// MHz) and took about 200 more cells: two LUT4s a bit for the 4-way select, where a
// row's bit shares its cell with its adder.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module fp_mul #(
    parameter integer MUL_ROWS = `UMBRA_DEFAULT_MUL_ROWS,  // 1: shift-and-add rows instead of `*` (see above)
    parameter integer CUT_MID  = 0,
    parameter integer CUT_PROD = 0,
    parameter integer CUT_NORM = 0,
    parameter integer CUT_RND  = 0,
    parameter integer INT_LATE = 0,  // int_product after CUT_PROD (needs CUT_PROD)
    // The latency the instantiating unit counts on: elaboration fails unless it is
    // 2 + the number of cuts (rtl/fpu.v).
    parameter integer LATENCY  = 2
) (
    input  wire        clk,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire        int_mul,
    output reg  [31:0] result,
    output wire [63:0] int_product
);

  // ---- unpack, DAZ, classify -----------------------------------------------------------
  wire [7:0] ea = a[30:23];
  wire [7:0] eb = b[30:23];
  wire a_zero = (ea == 8'd0);                     // zero or denormal (DAZ)
  wire b_zero = (eb == 8'd0);
  wire a_inf  = (ea == 8'hff) && (a[22:0] == 23'd0);
  wire b_inf  = (eb == 8'hff) && (b[22:0] == 23'd0);
  wire a_nan  = (ea == 8'hff) && (a[22:0] != 23'd0);
  wire b_nan  = (eb == 8'hff) && (b[22:0] != 23'd0);

  // The special cases and the exponent, carried to the end:
  // {sign, nan, inf, zero, ea + eb - 127 (biased, in [-125, 381])}.
  reg        s1_sign;
  reg [31:0] s1_ma, s1_mb;        // significands with the hidden bit, or int_mul's a, b
  wire [31:0] ma = int_mul ? a : {8'd0, 1'b1, a[22:0]};
  wire [31:0] mb = int_mul ? b : {8'd0, 1'b1, b[22:0]};
  reg signed [9:0] s1_exp;
  reg        s1_nan, s1_inf, s1_zero;

  always @(posedge clk) begin
    s1_sign <= a[31] ^ b[31];
    s1_ma   <= ma;
    s1_mb   <= mb;
    s1_exp  <= $signed({2'b00, ea}) + $signed({2'b00, eb}) - 10'sd127;
    s1_nan  <= a_nan || b_nan || (a_inf && b_zero) || (a_zero && b_inf);
    s1_inf  <= a_inf || b_inf;
    s1_zero <= a_zero || b_zero;
  end
  wire [13:0] flags1 = {s1_sign, s1_nan, s1_inf, s1_zero, s1_exp};
  wire [13:0] flags2;

  // g_rows (MUL_ROWS = 1): rows first to last of a chain, which sums up to eight bits
  // of b (row j adds x << j when bits[j] is set) into acc; acc stays below 2^40.
  function automatic [39:0] chain_rows(input [39:0] acc, input [31:0] x, input [7:0] bits,
                                       input integer first, input integer last);
    integer j;
    begin
      chain_rows = acc;
      for (j = first; j <= last; j = j + 1)
        if (bits[j]) chain_rows[j +: 33] = {1'b0, chain_rows[j +: 32]} + {1'b0, x};
    end
  endfunction

  // ---- the product ---------------------------------------------------------------------
  wire [63:0] psum;                               // ma * mb, the integer product
  generate
    if (MUL_ROWS != 0) begin : g_rows
      // CH chains of R rows side by side, the first R/2 rows of each before s1 and
      // the rest after it, their sums then added by a tree (see the header).
      localparam integer CH = (CUT_MID != 0) ? 8 : 4;
      localparam integer R  = 32 / CH;
      localparam [31:0] ROWS_BEFORE_S1 = (CH == 8) ? 32'h33333333 : 32'h0f0f0f0f;
      wire [40*CH-1:0] acc_a, acc_b;
      reg  [40*CH-1:0] s1_acc;
      wire [159:0]     quads;              // b's four bytes times a, each < 2^40
      genvar           c;
      for (c = 0; c < CH; c = c + 1) begin : g_chain
        wire [7:0] b0 = {{(8 - R){1'b0}}, mb[R*c +: R]};
        wire [7:0] b1 = {{(8 - R){1'b0}}, s1_mb[R*c +: R]};
        assign acc_a[40*c +: 40] = chain_rows(40'd0, ma, b0, 0, R / 2 - 1);
        assign acc_b[40*c +: 40] = chain_rows(s1_acc[40*c +: 40], s1_ma, b1, R / 2, R - 1);
      end
      for (c = 0; c < 4; c = c + 1) begin : g_byte
        if (CH == 8) begin : g_pair
          assign quads[40*c +: 40] = acc_b[80*c +: 40] + {acc_b[80*c+40 +: 36], 4'd0};
          wire unused_top = ^acc_b[80*c+76 +: 4];  // four rows: a chain is below 2^36
        end else begin : g_one
          assign quads[40*c +: 40] = acc_b[40*c +: 40];
        end
      end
      always @(posedge clk) s1_acc <= acc_a;
      wire [159:0] quads_q;
      fp_stage #(.W(14 + 160), .CUT(CUT_MID)) u_mid (
          .clk(clk), .d({flags1, quads}), .q({flags2, quads_q}));
      wire [47:0] low  = {8'd0, quads_q[0 +: 40]} + {quads_q[40 +: 40], 8'd0};
      wire [47:0] high = {8'd0, quads_q[80 +: 40]} + {quads_q[120 +: 40], 8'd0};
      assign psum = {16'd0, low} + {high, 16'd0};
      wire unused_mb = ^(s1_mb & ROWS_BEFORE_S1);  // consumed before s1
    end else if (CUT_MID != 0) begin : g_dsp
      // Four 16x16 products, each a `*` with a register right after it (an SB_MAC16's
      // output register), summed in logic.
      wire [31:0] p_ll = s1_ma[15:0] * s1_mb[15:0];
      wire [31:0] p_lh = s1_ma[15:0] * s1_mb[31:16];
      wire [31:0] p_hl = s1_ma[31:16] * s1_mb[15:0];
      wire [31:0] p_hh = s1_ma[31:16] * s1_mb[31:16];
      // One register per product: synth_ice40's DSP packing takes a register whole.
      wire [31:0] ll, lh, hl, hh;
      fp_stage #(.W(32), .CUT(1)) u_ll (.clk(clk), .d(p_ll), .q(ll));
      fp_stage #(.W(32), .CUT(1)) u_lh (.clk(clk), .d(p_lh), .q(lh));
      fp_stage #(.W(32), .CUT(1)) u_hl (.clk(clk), .d(p_hl), .q(hl));
      fp_stage #(.W(32), .CUT(1)) u_hh (.clk(clk), .d(p_hh), .q(hh));
      fp_stage #(.W(14), .CUT(1)) u_mid (.clk(clk), .d(flags1), .q(flags2));
      // One 64-bit sum of shifted pieces: with `lh + hl` as an add of its own, yosys
      // 0.23 packs that add into one product's SB_MAC16, taking the other product's
      // register as the block's C/D input, and loses that product's multiplier.
      assign psum = {hh, ll} + {16'd0, lh, 16'd0} + {16'd0, hl, 16'd0};
    end else begin : g_star
      assign psum = s1_ma * s1_mb;
      assign flags2 = flags1;
    end
  endgenerate

  // The register after the product holds the float path's 48 bits, or all 64 when the
  // integer product is taken after it.
  localparam integer PW = (INT_LATE != 0) ? 64 : 48;
  wire [13:0]   flags3;
  wire [PW-1:0] prod_q;
  fp_stage #(.W(14 + PW), .CUT(CUT_PROD)) u_prod (
      .clk(clk), .d({flags2, psum[PW-1:0]}), .q({flags3, prod_q}));
  wire [47:0] prod = prod_q[47:0];                // significands: in [2^46, 2^48)
  generate
    if (INT_LATE != 0) begin : g_int_late
      assign int_product = prod_q;
    end else begin : g_int_early
      assign int_product = psum;
    end
  endgenerate

  // ---- normalize to the 23 fraction bits below the leading one, guard and sticky -------
  wire        top    = prod[47];
  wire [22:0] frac   = top ? prod[46:24] : prod[45:23];
  wire        guard  = top ? prod[23]    : prod[22];
  wire        sticky = top ? (prod[22:0] != 23'd0) : (prod[21:0] != 22'd0);
  wire signed [9:0] exp_n = $signed(flags3[9:0]) + $signed({9'd0, top});

  wire [3:0]        flags4;
  wire signed [9:0] exp4;
  wire [22:0]       frac4;
  wire              guard4, sticky4;
  fp_stage #(.W(4 + 10 + 23 + 2), .CUT(CUT_NORM)) u_norm (
      .clk(clk), .d({flags3[13:10], exp_n, frac, guard, sticky}),
      .q({flags4, exp4, frac4, guard4, sticky4}));

  // ---- round, FTZ, overflow, specials (rtl/fp_round.vh) --------------------------------
`include "fp_round.vh"

  // flags4: {sign, nan, inf, zero}, all decided from the inputs in the first stage.
  wire [34:0] rounded = fp_round_prep(flags4[3], flags4[2], flags4[1], flags4[0], flags4[3], exp4,
                                      frac4, guard4, sticky4);

  wire [34:0] rounded5;
  fp_stage #(.W(35), .CUT(CUT_RND)) u_rnd (.clk(clk), .d(rounded), .q(rounded5));

  always @(posedge clk) result <= fp_round_pack(rounded5);

  generate
    if (LATENCY != 2 + CUT_MID + CUT_PROD + CUT_NORM + CUT_RND) begin : g_check_latency
      fp_mul_LATENCY_differs_from_2_plus_its_cuts u_error ();  // no such module
    end else if (INT_LATE != 0 && CUT_PROD == 0) begin : g_check_int_late
      fp_mul_INT_LATE_needs_CUT_PROD u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
