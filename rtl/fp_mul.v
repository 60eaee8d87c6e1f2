// fp_mul: binary32 multiply with Umbra's rules (isa/isa.yaml fp_semantics): DAZ on the
// inputs, round to nearest even, FTZ on the output with tininess after rounding,
// overflow to infinity, canonical NaN 0x7fc00000.  Bit-exact with umbra::fp32::mul.
//
// Two pipeline stages, latency 2 (result registered after the second clock edge):
//   stage 1  unpack/DAZ, classify (zero/inf/NaN), sign and exponent sum; register the
//            two 24-bit significands.
//   stage 2  product of the *registered* significands (a plain `*`,
//            so synth_ice40 -dsp can map it onto SB_MAC16 blocks and absorb the stage-1
//            registers as DSP input registers), 1-bit normalize, round, FTZ/overflow.
// The product of two normal significands lies in [2^46, 2^48), so normalization is a
// single-bit shift and needs no leading-zero counter.
//
// The multiplier is 32x32 and also serves the integer multiplies (int_mul: a and b as
// unsigned 32-bit numbers, the 64-bit product on int_product in stage 2).  Execute
// has one instruction in X1 per cycle, so the core never needs two products at once,
// and one multiplier instead of two saved four DSP blocks on the UP5K and 1409 logic
// cells on the HX8K, which builds products from logic (docs/fpga.md).
//
// MUL_ROWS = 1 writes the product as 32 rows of shift-and-add, row j adding a to the
// partial sum when b's bit j is set, for fabric without multiplier blocks: on iCE40
// each partial-product bit is then one logic cell (the row's adder bit and its
// b-select share a LUT4 beside the carry), where synthesis of a plain `*` takes about
// two (1593 against 2800 cells for 32x32 on the HX8K).  The value is the same.  The
// first 16 rows are summed in stage 1 (see g_rows).
`default_nettype none

module fp_mul #(
    parameter integer MUL_ROWS = 0,  // 1: shift-and-add rows instead of `*` (see above)
    // The latency the instantiating unit counts on: this module has two stages, and
    // elaboration fails for any other value (rtl/fpu.v sums its units' latencies to
    // the FPU latency of isa/uarch.yaml).
    parameter integer LATENCY  = 2
) (
    input  wire        clk,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire        int_mul,
    output reg  [31:0] result,
    output wire [63:0] int_product
);

  // ---- stage 1: unpack, DAZ, classify ------------------------------------------------
  wire [7:0] ea = a[30:23];
  wire [7:0] eb = b[30:23];
  wire a_zero = (ea == 8'd0);                     // zero or denormal (DAZ)
  wire b_zero = (eb == 8'd0);
  wire a_inf  = (ea == 8'hff) && (a[22:0] == 23'd0);
  wire b_inf  = (eb == 8'hff) && (b[22:0] == 23'd0);
  wire a_nan  = (ea == 8'hff) && (a[22:0] != 23'd0);
  wire b_nan  = (eb == 8'hff) && (b[22:0] != 23'd0);

  reg        s1_sign;
  reg [31:0] s1_ma, s1_mb;        // significands with the hidden bit, or int_mul's a, b
  wire [31:0] ma = int_mul ? a : {8'd0, 1'b1, a[22:0]};
  wire [31:0] mb = int_mul ? b : {8'd0, 1'b1, b[22:0]};
  reg signed [9:0] s1_exp;        // ea + eb - 127, biased; in [-125, 381]
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

  // ---- stage 2: product, normalize, round, FTZ/overflow ----------------------------
  generate
    if (MUL_ROWS != 0) begin : g_rows
      // Rows 0..15 in stage 1, from the unregistered operands, their 48-bit sum
      // registered; rows 16..31 in stage 2.  Either half is then about as deep as the
      // rest of its stage, where all 32 rows in stage 2 made it the core's longest path.
      reg [47:0] s1_low;
      reg [47:0] low;
      reg [32:0] row1;
      integer    i;
      always @* begin
        low = {16'd0, mb[0] ? ma : 32'd0};
        for (i = 1; i < 16; i = i + 1) begin
          row1         = {1'b0, low[i +: 32]} + {1'b0, ma};
          low[i +: 33] = mb[i] ? row1 : {1'b0, low[i +: 32]};
        end
      end
      always @(posedge clk) s1_low <= low;

      reg [63:0] acc;
      reg [32:0] row;
      integer    j;
      always @* begin
        acc = {16'd0, s1_low};
        for (j = 16; j < 32; j = j + 1) begin
          row          = {1'b0, acc[j +: 32]} + {1'b0, s1_ma};
          acc[j +: 33] = s1_mb[j] ? row : {1'b0, acc[j +: 32]};
        end
      end
      assign int_product = acc;
      wire unused_mb_low = |s1_mb[15:0];
    end else begin : g_star
      assign int_product = s1_ma * s1_mb;
    end
  endgenerate
  wire [47:0] prod = int_product[47:0];          // significands: in [2^46, 2^48)

  // Normalize to the 23 fraction bits below the leading one + guard bit + sticky.
  wire        top    = prod[47];
  wire [22:0] frac   = top ? prod[46:24] : prod[45:23];
  wire        guard  = top ? prod[23]    : prod[22];
  wire        sticky = top ? (prod[22:0] != 23'd0) : (prod[21:0] != 22'd0);
  wire        rnd_up = guard && (sticky || frac[0]);   // ties to even
  // Rounding the fraction alone: a carry out (fraction all ones) means the significand
  // became 2.0, i.e. 1.0 with exponent + 1, and frac_r[22:0] is then 0 as it must be.
  wire [23:0] frac_r = {1'b0, frac} + {23'd0, rnd_up};
  wire signed [9:0] exp_r = s1_exp + $signed({9'd0, top}) + $signed({9'd0, frac_r[23]});

  always @(posedge clk) begin
    if (s1_nan)
      result <= 32'h7fc00000;
    else if (s1_inf)
      result <= {s1_sign, 8'hff, 23'd0};
    else if (s1_zero || exp_r < 10'sd1)           // zero operand, or FTZ after rounding
      result <= {s1_sign, 31'd0};
    else if (exp_r > 10'sd254)                    // overflow
      result <= {s1_sign, 8'hff, 23'd0};
    else
      result <= {s1_sign, exp_r[7:0], frac_r[22:0]};
  end

  generate
    if (LATENCY != 2) begin : g_check_latency
      fp_mul_has_two_stages_but_LATENCY_differs u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
