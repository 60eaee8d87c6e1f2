// fp_add: binary32 add with Umbra's rules (isa/isa.yaml fp_semantics): DAZ on the
// inputs, round to nearest even, FTZ on the output with tininess after rounding,
// overflow to infinity, canonical NaN 0x7fc00000, IEEE signed zeros (x + (-x) = +0,
// (-0) + (-0) = -0).  Bit-exact with umbra::fp32::add.  Subtraction is the caller's
// business (flip the sign of the second operand).
//
// The datapath, in order, with the places it may be cut (fp_stage; fpu.v decides which
// are registers from its LATENCY, and nextpnr does not retime, so each cut is where the
// logic is):
//   unpack/DAZ, classify, compare |x| with |y|, swap so |L| >= |S|;
//   beside the compare, both exponent differences, saturated at 27,
//   one of which the swap picks as the alignment's shift             -> CUT_SWAP
//   align S by the exponent difference into a 27-bit field (24-bit
//   significand + guard, round and a sticky bit of everything
//   shifted out)                                                      -> CUT_ALIGN
//   add or subtract                                                   -> always a register
//   leading-zero count of the 28-bit sum                              -> CUT_LZC
//   normalize (shift left by the count)                               -> CUT_NORM
//   round, and the result's class (rtl/fp_round.vh)                  -> CUT_RND
//   the class's word: NaN, infinity, zero or the number               -> the result register
// LATENCY = 2 + the number of cuts; with none it is today's two stages (swap, align and
// add in the first, the rest in the second).
// Three extra bits are enough for correct rounding: when the operation cancels more
// than one leading bit the exponents differ by at most one and the alignment lost no
// bits, so the sum is exact; otherwise the sum needs at most one bit of left shift and
// the sticky bit keeps the computed sum on the same side of every rounding boundary
// as the exact one.
`default_nettype none

module fp_add #(
    parameter integer CUT_SWAP  = 0,
    parameter integer CUT_ALIGN = 0,
    parameter integer CUT_LZC   = 0,
    parameter integer CUT_NORM  = 0,
    parameter integer CUT_RND   = 0,
    // The latency the instantiating unit counts on: elaboration fails unless it is
    // 2 + the number of cuts (see rtl/fpu.v).
    parameter integer LATENCY   = 2
) (
    input  wire        clk,
    input  wire [31:0] x,
    input  wire [31:0] y,
    output reg  [31:0] result
);

  // ---- classify, compare, swap --------------------------------------------------------
  wire x_zero = (x[30:23] == 8'd0);
  wire y_zero = (y[30:23] == 8'd0);
  wire x_inf  = (x[30:23] == 8'hff) && (x[22:0] == 23'd0);
  wire y_inf  = (y[30:23] == 8'hff) && (y[22:0] == 23'd0);
  wire x_nan  = (x[30:23] == 8'hff) && (x[22:0] != 23'd0);
  wire y_nan  = (y[30:23] == 8'hff) && (y[22:0] != 23'd0);

  // Magnitudes after DAZ (a denormal's fraction is dropped).  The swap compares the
  // words before DAZ, as integers, which orders binary32 magnitudes: DAZ changes the
  // order only between two words of exponent 0, whose magnitudes are then both 0, so
  // L and S are both 0, the shift is 0 and the sum is an exact zero whose sign does not
  // depend on the swap.  So the compare's carry chain starts at the input, not behind
  // the two levels of the exponent's zero test (on the UP5K at 12 stages that test and
  // the chain behind it were the longest path).
  wire [30:0] x_mag = x_zero ? 31'd0 : x[30:0];
  wire [30:0] y_mag = y_zero ? 31'd0 : y[30:0];
  wire        swap  = (y[30:0] > x[30:0]);

  wire [30:0] l_mag  = swap ? y_mag : x_mag;
  wire [30:0] s_mag  = swap ? x_mag : y_mag;

  // The alignment's shift, prepared beside the compare so that the align stage starts
  // with the shifter (the exponent subtract and the saturation in front of it made
  // that stage the UP5K's longest in the FPU: docs/fpga.md).  Each difference is used
  // only when its minuend is L's exponent, so it is never negative; a zero's exponent
  // is 0 with or without DAZ.  27 shifts everything out.
  wire [7:0]  d_xy   = x[30:23] - y[30:23];
  wire [7:0]  d_yx   = y[30:23] - x[30:23];
  wire [4:0]  sh_xy  = (d_xy > 8'd27) ? 5'd27 : d_xy[4:0];
  wire [4:0]  sh_yx  = (d_yx > 8'd27) ? 5'd27 : d_yx[4:0];
  wire [4:0]  shamt0 = swap ? sh_yx : sh_xy;

  // What the result's special cases need, carried to the end: NaN, infinity and its
  // sign, the sign of L, the sign of an exact zero sum (+0 unless both operands are
  // zeros of the same sign), and L's exponent.
  wire [12:0] flags0 = {x_nan || y_nan || (x_inf && y_inf && (x[31] ^ y[31])),
                        x_inf || y_inf,
                        x_inf ? x[31] : y[31],
                        swap ? y[31] : x[31],
                        (x[31] ^ y[31]) ? 1'b0 : x[31],
                        l_mag[30:23]};

  wire [12:0] flags1;
  wire [30:0] l1_mag;
  wire [23:0] s_sig;
  wire [4:0]  shamt;
  wire        sub1;
  fp_stage #(.W(13 + 31 + 24 + 5 + 1), .CUT(CUT_SWAP)) u_swap (
      .clk(clk), .d({flags0, l_mag, (s_mag[30:23] != 8'd0), s_mag[22:0], shamt0, x[31] ^ y[31]}),
      .q({flags1, l1_mag, s_sig, shamt, sub1}));

  // ---- align ------------------------------------------------------------------------
  wire [7:0]  l_exp = l1_mag[30:23];
  wire [23:0] l_sig = {(l_exp != 8'd0), l1_mag[22:0]};

  // Shift {s_sig, 3'b000} right and keep the shifted-out bits below it to form the
  // sticky bit.
  wire [53:0] s_wide = {s_sig, 3'b000, 27'd0} >> shamt;
  wire [26:0] s_al  = {s_wide[53:28], s_wide[27] | (s_wide[26:0] != 27'd0)};

  wire [12:0] flags2;
  wire [23:0] l2_sig;
  wire [26:0] s2_al;
  wire        sub2;
  fp_stage #(.W(13 + 24 + 27 + 1), .CUT(CUT_ALIGN)) u_align (
      .clk(clk), .d({flags1, l_sig, s_al, sub1}), .q({flags2, l2_sig, s2_al, sub2}));

  // ---- add ------------------------------------------------------------------------------
  wire [27:0] l_ext = {1'b0, l2_sig, 3'b000};
  wire [27:0] sum   = sub2 ? (l_ext - {1'b0, s2_al}) : (l_ext + {1'b0, s2_al});

  reg [12:0] flags3;
  reg [27:0] sum3;
  always @(posedge clk) begin
    flags3 <= flags2;
    sum3   <= sum;
  end

  // ---- leading-zero count ---------------------------------------------------------------
`include "fp_lzc32.vh"   // lzc32: leading-zero count, as a tree

  // The sum's leading-zero count, 28 when it is zero: below it four ones stop the count.
  wire [5:0] lz_sum = lzc32({sum3, 4'b1111});
  wire       unused_lz = lz_sum[5];          // never set: the count is at most 28

  wire [12:0] flags4;
  wire [27:0] sum4;
  wire [4:0]  lz4;
  fp_stage #(.W(13 + 28 + 5), .CUT(CUT_LZC)) u_lzc (
      .clk(clk), .d({flags3, sum3, lz_sum[4:0]}), .q({flags4, sum4, lz4}));

  // ---- normalize ------------------------------------------------------------------------
  // The sum's bit 27 has weight 2^(exp+1) (the hidden bit of L sits at bit 26), so the
  // normalized exponent is exp + 1 - lz, before the rounding carry.
  wire [27:0]       norm  = sum4 << lz4;           // leading one at bit 27
  wire signed [9:0] exp_n = $signed({2'b00, flags4[7:0]}) + 10'sd1 - $signed({5'd0, lz4});

  wire [12:0]       flags5;
  wire [27:0]       norm5;
  wire signed [9:0] exp5;
  fp_stage #(.W(13 + 28 + 10), .CUT(CUT_NORM)) u_norm (
      .clk(clk), .d({flags4, norm, exp_n}), .q({flags5, norm5, exp5}));

  // ---- round, FTZ, overflow, specials (rtl/fp_round.vh) --------------------------------
`include "fp_round.vh"

  // flags5: {nan, inf, inf's sign, L's sign, an exact zero sum's sign, L's exponent}.
  // The exact zero sum (norm5[27] clear) is known before rounding, like NaN and
  // infinity, so every special case reaches the last stage as a flag.
  wire        f_inf    = flags5[11];
  wire [34:0] rounded  = fp_round_prep(flags5[9], flags5[12], f_inf, !norm5[27],
                                       f_inf ? flags5[10] : flags5[8], exp5,
                                       norm5[26:4], norm5[3], norm5[2:0] != 3'd0);
  wire        unused_exp = |flags5[7:0];               // consumed before the last cut

  wire [34:0] rounded6;
  fp_stage #(.W(35), .CUT(CUT_RND)) u_rnd (.clk(clk), .d(rounded), .q(rounded6));

  always @(posedge clk) result <= fp_round_pack(rounded6);

  generate
    if (LATENCY != 2 + CUT_SWAP + CUT_ALIGN + CUT_LZC + CUT_NORM + CUT_RND) begin : g_check_latency
      fp_add_LATENCY_differs_from_2_plus_its_cuts u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
