// fp_add: binary32 add with Umbra's rules (isa/isa.yaml fp_semantics): DAZ on the
// inputs, round to nearest even, FTZ on the output with tininess after rounding,
// overflow to infinity, canonical NaN 0x7fc00000, IEEE signed zeros (x + (-x) = +0,
// (-0) + (-0) = -0).  Bit-exact with umbra::fp32::add.  Subtraction is the caller's
// business (flip the sign of the second operand).
//
// Two pipeline stages, latency 2 (result registered after the second clock edge):
//   stage 1  unpack/DAZ, classify, swap so |L| >= |S|, align S by the exponent
//            difference into a 27-bit field (24-bit significand + guard, round and a
//            sticky bit that collects everything shifted out), add or subtract.
//   stage 2  leading-zero count of the 28-bit sum, normalize, round, FTZ/overflow.
// Three extra bits are enough for correct rounding: when the operation cancels more
// than one leading bit the exponents differ by at most one and the alignment lost no
// bits, so the sum is exact; otherwise the sum needs at most one bit of left shift and
// the sticky bit keeps the computed sum on the same side of every rounding boundary
// as the exact one.
`default_nettype none

module fp_add #(
    // The latency the instantiating unit counts on: this module has two stages, and
    // elaboration fails for any other value (see rtl/fpu.v).
    parameter integer LATENCY = 2
) (
    input  wire        clk,
    input  wire [31:0] x,
    input  wire [31:0] y,
    output reg  [31:0] result
);

  // ---- stage 1: unpack, DAZ, classify, swap, align, add ----------------------------
  wire x_zero = (x[30:23] == 8'd0);
  wire y_zero = (y[30:23] == 8'd0);
  wire x_inf  = (x[30:23] == 8'hff) && (x[22:0] == 23'd0);
  wire y_inf  = (y[30:23] == 8'hff) && (y[22:0] == 23'd0);
  wire x_nan  = (x[30:23] == 8'hff) && (x[22:0] != 23'd0);
  wire y_nan  = (y[30:23] == 8'hff) && (y[22:0] != 23'd0);

  // Magnitudes after DAZ (a denormal's fraction is dropped); compared as integers,
  // which orders finite binary32 magnitudes correctly.
  wire [30:0] x_mag = x_zero ? 31'd0 : x[30:0];
  wire [30:0] y_mag = y_zero ? 31'd0 : y[30:0];
  wire        swap  = (y_mag > x_mag);

  wire        l_sign = swap ? y[31] : x[31];
  wire [30:0] l_mag  = swap ? y_mag : x_mag;
  wire [30:0] s_mag  = swap ? x_mag : y_mag;
  wire        eff_sub = x[31] ^ y[31];

  wire [7:0]  l_exp = l_mag[30:23];
  wire [23:0] l_sig = {(l_exp != 8'd0), l_mag[22:0]};
  wire [23:0] s_sig = {(s_mag[30:23] != 8'd0), s_mag[22:0]};
  wire [7:0]  diff  = l_exp - s_mag[30:23];       // >= 0 because |L| >= |S|

  // Alignment: shift {s_sig, 3'b000} right by diff (saturated at 27, where everything
  // is gone) and keep the shifted-out bits below it to form the sticky bit.
  wire [4:0]  shamt = (diff > 8'd27) ? 5'd27 : diff[4:0];
  wire [53:0] s_wide = {s_sig, 3'b000, 27'd0} >> shamt;
  wire [26:0] s_al  = {s_wide[53:28], s_wide[27] | (s_wide[26:0] != 27'd0)};
  wire [27:0] l_ext = {1'b0, l_sig, 3'b000};
  wire [27:0] sum   = eff_sub ? (l_ext - {1'b0, s_al}) : (l_ext + {1'b0, s_al});

  reg        s1_nan, s1_inf, s1_inf_sign;
  reg        s1_sign, s1_zero_sign;
  reg [7:0]  s1_exp;
  reg [27:0] s1_sum;

  always @(posedge clk) begin
    s1_nan       <= x_nan || y_nan || (x_inf && y_inf && eff_sub);
    s1_inf       <= x_inf || y_inf;
    s1_inf_sign  <= x_inf ? x[31] : y[31];
    s1_sign      <= l_sign;
    // An exact zero sum is +0 unless both operands are zeros of the same sign.
    s1_zero_sign <= eff_sub ? 1'b0 : x[31];
    s1_exp       <= l_exp;
    s1_sum       <= sum;
  end

  // ---- stage 2: normalize, round, FTZ/overflow --------------------------------------
  // Leading-zero count of a 28-bit value (28 when it is zero).
  function [4:0] lzc28;
    input [27:0] v;
    integer i;
    begin
      lzc28 = 5'd28;
      for (i = 0; i <= 27; i = i + 1)
        if (v[i]) lzc28 = 5'd27 - i[4:0];          // the highest set bit wins
    end
  endfunction

  wire [4:0]  lz   = lzc28(s1_sum);
  wire [27:0] norm = s1_sum << lz;                 // leading one at bit 27
  wire        nonzero = norm[27];                  // clear only for an exact zero sum
  wire [22:0] frac   = norm[26:4];
  wire        guard  = norm[3];
  wire        sticky = (norm[2:0] != 3'd0);
  wire        rnd_up = guard && (sticky || frac[0]);   // ties to even
  // Rounding the fraction alone: a carry out (fraction all ones) means the significand
  // became 2.0, i.e. 1.0 with exponent + 1, and frac_r[22:0] is then 0 as it must be.
  wire [23:0] frac_r = {1'b0, frac} + {23'd0, rnd_up};
  // The sum's bit 27 has weight 2^(exp+1) (the hidden bit of L sits at bit 26).
  wire signed [9:0] exp_r = $signed({2'b00, s1_exp}) + 10'sd1 - $signed({5'd0, lz})
                            + $signed({9'd0, frac_r[23]});

  always @(posedge clk) begin
    if (s1_nan)
      result <= 32'h7fc00000;
    else if (s1_inf)
      result <= {s1_inf_sign, 8'hff, 23'd0};
    else if (!nonzero)
      result <= {s1_zero_sign, 31'd0};
    else if (exp_r < 10'sd1)                       // FTZ after rounding
      result <= {s1_sign, 31'd0};
    else if (exp_r > 10'sd254)                     // overflow
      result <= {s1_sign, 8'hff, 23'd0};
    else
      result <= {s1_sign, exp_r[7:0], frac_r[22:0]};
  end

  generate
    if (LATENCY != 2) begin : g_check_latency
      fp_add_has_two_stages_but_LATENCY_differs u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
