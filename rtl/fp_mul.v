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
//     rows (MUL_ROWS = 1): the first rows before the register above,
//                         the middle rows                             -> CUT_MID
//                         and the last rows
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
// MUL_ROWS = 1 writes the product as 32 rows of shift-and-add, row j adding a to the
// partial sum when b's bit j is set, for fabric without multiplier blocks: on iCE40
// each partial-product bit is then one logic cell (the row's adder bit and its
// b-select share a LUT4 beside the carry), where synthesis of a plain `*` takes about
// two (1593 against 2800 cells for 32x32 on the HX8K).  The value is the same.  The
// rows are spread over the stages the integer product may use: 16 before the input
// register and 16 after it, or 11 / 11 / 10 around CUT_MID (see g_rows).
`default_nettype none

module fp_mul #(
    parameter integer MUL_ROWS = 0,  // 1: shift-and-add rows instead of `*` (see above)
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

  // Rows before the input register and before CUT_MID (MUL_ROWS = 1).
  localparam integer ROWS_PRE = (CUT_MID != 0) ? 11 : 16;
  localparam integer ROWS_MID = (CUT_MID != 0) ? 22 : 16;

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

  // ---- the product ---------------------------------------------------------------------
  wire [63:0] psum;                               // ma * mb, the integer product
  generate
    if (MUL_ROWS != 0) begin : g_rows
      // Row j: acc += ma << j when mb[j].  acc only ever has bits below 32 + j set.
      reg [63:0] pre;
      reg [32:0] row0;
      integer    i;
      always @* begin
        pre = {32'd0, mb[0] ? ma : 32'd0};
        for (i = 1; i < ROWS_PRE; i = i + 1) begin
          row0         = {1'b0, pre[i +: 32]} + {1'b0, ma};
          pre[i +: 33] = mb[i] ? row0 : {1'b0, pre[i +: 32]};
        end
      end
      reg [63:0] s1_pre;
      always @(posedge clk) s1_pre <= pre;

      reg [63:0] mid;
      reg [32:0] row1;
      integer    j;
      always @* begin
        mid = s1_pre;
        for (j = ROWS_PRE; j < ROWS_MID; j = j + 1) begin
          row1         = {1'b0, mid[j +: 32]} + {1'b0, s1_ma};
          mid[j +: 33] = s1_mb[j] ? row1 : {1'b0, mid[j +: 32]};
        end
      end

      wire [63:0] mid2;
      wire [31:0] ma2, mb2;
      fp_stage #(.W(14 + 64 + 64), .CUT(CUT_MID)) u_mid (
          .clk(clk), .d({flags1, mid, s1_ma, s1_mb}), .q({flags2, mid2, ma2, mb2}));

      reg [63:0] acc;
      reg [32:0] row2;
      integer    k;
      always @* begin
        acc = mid2;
        for (k = ROWS_MID; k < 32; k = k + 1) begin
          row2         = {1'b0, acc[k +: 32]} + {1'b0, ma2};
          acc[k +: 33] = mb2[k] ? row2 : {1'b0, acc[k +: 32]};
        end
      end
      assign psum = acc;
      // Bits of b already consumed by earlier rows; with no rows left after CUT_MID
      // (never: 32 > ROWS_MID) ma2 would be unused as well.
      wire unused_mb = |s1_mb[ROWS_PRE-1:0] ^ |mb2[ROWS_MID-1:0] ^ |ma2;
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
