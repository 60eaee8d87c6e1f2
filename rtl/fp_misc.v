// fp_misc: the cheap binary32 functions of the 0x4_ group, everything except the
// add/multiply datapath: fmin, fmax (IEEE minNum/maxNum, -0 < +0), fabs, fneg, fseq,
// fslt, fsle (1 or 0), itof (RNE), ftoi (toward zero, saturating), pack (two floats to
// unorm8 channels, RNE, above the shifted low half of c) and unpack (unorm8 channel
// to float).  Rules: isa/isa.yaml fp_semantics; bit-exact with umbra::fp32.
//
// All functions are computed from the input ports in parallel and the selected one is
// registered; only itof and ftoi, never selected together, share a shifter.  The
// datapath runs in three steps, each of which LATENCY (fpu.v's MISC_LATENCY less its
// input register) may end with a register (fp_stage):
//   A  the operands: every function but itof, ftoi and pack finished (fabs, fneg,
//      fseq, unpack) or up to its last carry chain (fmin/fmax's and fslt/fsle's
//      compare: its outcome and both candidates for each value of it); itof's
//      magnitude and leading-zero count; ftoi's shift amount; the shared shifter's
//      operand and amount; pack's integer-and-guard bits before their shift
//                                                      -> cut A (with LATENCY 2 and 3)
//   B  the shifts: the shared shifter, pack's two 9-bit shifts, itof's exponents;
//      fmin/fmax's pick, fslt/fsle's bit               -> cut B (with LATENCY 3)
//   C  the increments and the select: itof's rounding, ftoi's negation, pack's
//      rounding, and the result register.
// So no step holds more than one carry chain behind a shifter or a compare; with 1
// the same logic is one cycle.
//
// unpack needs no table: n/255 = n * (2^-8 + 2^-16 + ...), so its binary expansion is
// the byte n repeated forever.  Normalizing n (r = n << lzc(n), leading one at bit 7)
// gives the significand bits r r r r ..., i.e. a 24-bit significand {r, r, r}, a
// round bit r[7] = 1 and a non-zero tail: the value is never a tie and always rounds
// up.  The exponent is 2^(-1-lzc(n)); for n = 255 the increment carries into the
// exponent and gives exactly 1.0.  The bench checks all 256 values.
//
// FP32 and CVT say which extension groups' functions exist (fpu.v GROUPS): fp32's
// fmin..fsle, fp32cvt's itof, ftoi, pack and unpack.  An absent group's function
// codes are never given (decode makes those opcodes illegal), so its selects are
// constant 0 and synthesis builds none of its logic.
`default_nettype none

`include "umbra_isa.vh"   // UMBRA_OP_* opcodes, generated from isa/isa.yaml

module fp_misc #(
    parameter integer LATENCY = 1,  // 1, 2 or 3 (see above)
    parameter integer FP32    = 1,  // fmin, fmax, fabs, fneg, fseq, fslt, fsle
    parameter integer CVT     = 1   // itof, ftoi, pack, unpack
) (
    input  wire        clk,
    input  wire [3:0]  func,     // low nibble of the 0x4_ opcode
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [15:0] c_lo,     // pack: the low half of c, shifted up
    output reg  [31:0] result
);

  // Function codes: the low nibble of the opcodes from isa.yaml.
  localparam [7:0] OP_FMIN   = `UMBRA_OP_FMIN;
  localparam [7:0] OP_FMAX   = `UMBRA_OP_FMAX;
  localparam [7:0] OP_FABS   = `UMBRA_OP_FABS;
  localparam [7:0] OP_FNEG   = `UMBRA_OP_FNEG;
  localparam [7:0] OP_FSEQ   = `UMBRA_OP_FSEQ;
  localparam [7:0] OP_FSLT   = `UMBRA_OP_FSLT;
  localparam [7:0] OP_FSLE   = `UMBRA_OP_FSLE;
  localparam [7:0] OP_ITOF   = `UMBRA_OP_ITOF;
  localparam [7:0] OP_FTOI   = `UMBRA_OP_FTOI;
  localparam [7:0] OP_PACK   = `UMBRA_OP_PACK;
  localparam [7:0] OP_UNPACK = `UMBRA_OP_UNPACK;
  localparam [3:0] FN_FMIN   = OP_FMIN[3:0];
  localparam [3:0] FN_FMAX   = OP_FMAX[3:0];
  localparam [3:0] FN_FABS   = OP_FABS[3:0];
  localparam [3:0] FN_FNEG   = OP_FNEG[3:0];
  localparam [3:0] FN_FSEQ   = OP_FSEQ[3:0];
  localparam [3:0] FN_FSLT   = OP_FSLT[3:0];
  localparam [3:0] FN_FSLE   = OP_FSLE[3:0];
  localparam [3:0] FN_ITOF   = OP_ITOF[3:0];
  localparam [3:0] FN_FTOI   = OP_FTOI[3:0];
  localparam [3:0] FN_PACK   = OP_PACK[3:0];
  localparam [3:0] FN_UNPACK = OP_UNPACK[3:0];

  localparam [31:0] CANON_NAN = 32'h7fc00000;

`include "fp_lzc32.vh"   // lzc32: leading-zero count, as a tree

  // The same count as a loop, "the highest set bit wins", which Yosys makes a priority
  // chain.  With LATENCY 1 itof uses this one all the same: on the HX8K the tree made
  // ABC map the multiplier rows (fp_mul MUL_ROWS) into 606 more LUT4s, and the FPU
  // went from 19.9 to 14.5 MHz; from LATENCY 2 on the count has a cycle of its own with
  // the negation, where the tree's five levels matter (docs/fpga.md, "The FPU alone").
  function [5:0] lzc32_chain;
    input [31:0] v;
    integer i;
    begin
      lzc32_chain = 6'd32;
      for (i = 0; i <= 31; i = i + 1)
        if (v[i]) lzc32_chain = 6'd31 - i[5:0];    // the highest set bit wins
    end
  endfunction

  // Leading-zero count of a non-zero byte (0..7).
  function [2:0] lzc8;
    input [7:0] v;
    integer i;
    begin
      lzc8 = 3'd7;
      for (i = 0; i <= 7; i = i + 1)
        if (v[i]) lzc8 = 3'd7 - i[2:0];            // the highest set bit wins
    end
  endfunction

`include "reverse32.vh"

  // Order key for non-NaN floats: unsigned compare of keys = numeric compare, with
  // -0 < +0 (a negative float's bits are inverted, a positive one's sign bit set).
  function [31:0] order_key;
    input [31:0] v;
    begin
      order_key = v[31] ? ~v : {1'b1, v[30:0]};
    end
  endfunction

  // One float to an unsigned 8-bit channel: NaN and values <= 0 give 0, values >= 1
  // give 255, otherwise round(x * 255), ties to even.  For x = m * 2^(e-150) in (0, 1)
  // (m the 24-bit significand, e the biased exponent, e <= 126) the exact product is
  // P * 2^-(24+k) with P = m * 255 < 2^32 and k = 126 - e; for k > 8 (e < 118) it is
  // below 0.5 and rounds to 0.  The integer part and the guard bit are P[31:23] >> k, a
  // 9-bit shift by k = (14 - e) mod 16 for e in 118..126.
  // P[31:23] needs no 32-bit subtract: with P = (m << 8) - m and m[23] = 1 it is
  // m[23:15] - 1 - borrow, the borrow being {m[14:0], 8'b0} < m[22:0], which is the
  // 16-bit compare {m[14:0], 0} < {m[22:8], m[7:0] != 0}; both differences are made
  // beside the compare, which picks one.
  // The sticky bit (P mod 2^(23+k) != 0) needs no wide shift either: 255 is odd, so
  // P mod 2^j = 0 exactly when m mod 2^j = 0, and for k >= 1 the hidden bit of m lies
  // below 2^(23+k); only k = 0 looks at the low bits, where it is m[22:0] != 0.
  // In three parts, one for each step: unorm8_a gives {P[31:23], k, class, sticky
  // term}, the class being 0: zero, 1: 255, 2: rounded from the bits; step B shifts
  // the bits by k; unorm8_c rounds.
  function [15:0] unorm8_a;
    input [31:0] v;
    reg        borrow;
    reg [8:0]  m_hi;
    reg [1:0]  cls;
    begin
      borrow = {v[14:0], 1'b0} < {v[22:8], |v[7:0]};
      m_hi   = {1'b1, v[22:15]};
      if ((v[30:23] == 8'hff && v[22:0] != 23'd0) || v[31] || v[30:23] == 8'd0)
        cls = 2'd0;                                // NaN, <= 0, denormal (DAZ)
      else if (v[30:23] >= 8'd127)
        cls = 2'd1;                                // >= 1, +inf
      else if (v[30:23] < 8'd118)
        cls = 2'd0;                                // below 0.5
      else
        cls = 2'd2;
      unorm8_a = {borrow ? m_hi - 9'd2 : m_hi - 9'd1, 4'd14 - v[26:23], cls,
                  (v[26:23] != 4'd14) || (v[22:0] != 23'd0)};
    end
  endfunction

  // {class, sticky term} and the shifted {integer part, guard} to the channel.
  function [7:0] unorm8_c;
    input [2:0] cls_st;
    input [8:0] q;
    begin
      case (cls_st[2:1])
        2'd0:    unorm8_c = 8'd0;
        2'd1:    unorm8_c = 8'd255;
        default: unorm8_c = q[8:1] + {7'd0, q[0] && (cls_st[0] || q[1])};
      endcase
    end
  endfunction

  // ---- DAZ and classification ------------------------------------------------------
  wire a_nan = (a[30:23] == 8'hff) && (a[22:0] != 23'd0);
  wire b_nan = (b[30:23] == 8'hff) && (b[22:0] != 23'd0);
  wire a_z   = (a[30:23] == 8'd0);                // a zero or a denormal: +-0 under DAZ
  wire b_z   = (b[30:23] == 8'd0);
  wire [31:0] a_daz = a_z ? {a[31], 31'd0} : a;
  wire [31:0] b_daz = b_z ? {b[31], 31'd0} : b;

  // ---- one ordered comparison for fmin, fmax and the compares ----------------------
  // Keys order -0 below +0, which is what minNum/maxNum want; the compares treat the
  // two zeros as equal, which only matters when both operands are zeros (against a
  // non-zero value both zeros order the same way).
  // The keys compare the raw operands, not the flushed ones, so that the exponent
  // test does not stand in front of the carry chain (on the UP5K this step was the
  // longest path); the flush matters only when an operand is +-0 under DAZ, and then
  // the order is a matter of signs: +-0 < b exactly when b is positive (and not a
  // zero), a < +-0 when a is negative, and of two zeros only -0 < +0.
  wire raw_lt    = (order_key(a) < order_key(b));
  wire a_same_b  = (a_z && b_z) ? (a[31] == b[31]) : (!a_z && !b_z && (a == b));
  wire both_zero = a_z && b_z;

  // fmin takes a when a <= b, fmax when a > b (equal operands are identical bits).
  // Everything that waits for raw_lt, the end of the carry chain, is decided after
  // cut A from two candidates made here, one for each value of raw_lt, so that step A
  // ends at the chain (this compare, from the FPU's input register, was the UP5K's
  // longest path once execute's compare was registered): fmin/fmax take a (a_daz, or
  // the canonical NaN when both are NaN) or b_daz, and fslt/fsle set bit 0.
  wire lt_if1 = (a_z && b_z) ? (a[31] && !b[31]) : a_z ? !b[31] : b_z ? a[31] : 1'b1;
  wire lt_if0 = (a_z && b_z) ? (a[31] && !b[31]) : a_z ? !b[31] : b_z ? a[31] : 1'b0;
  wire has_fp32 = (FP32 != 0);
  wire has_cvt  = (CVT != 0);
  wire is_fmin  = (func == FN_FMIN);
  wire is_mm    = has_fp32 && (is_fmin || (func == FN_FMAX));
  wire pick_if1 = b_nan || (!a_nan && ((lt_if1 || a_same_b) == is_fmin));
  wire pick_if0 = b_nan || (!a_nan && ((lt_if0 || a_same_b) == is_fmin));

  // Compares: any NaN gives false; -0 == +0.
  wire cmp_ok = !a_nan && !b_nan;
  wire f_eq   = cmp_ok && (a_same_b || both_zero);
  wire is_lt_cmp = has_fp32 && ((func == FN_FSLT) || (func == FN_FSLE));
  wire lt_set1   = cmp_ok && lt_if1 && !both_zero;
  wire lt_set0   = cmp_ok && lt_if0 && !both_zero;

  // ---- itof, step A: |a| and its leading-zero count ----------------------------------
  // The count is taken of a or ~a, not of |a| = ~a + 1, so that it does not wait for
  // the negation's carry chain.  The two counts differ only where the increment
  // carries past ~a's leading one: ~a is 0...01...1 (or 0), i.e. a = -2^k, whose |a|
  // is a power of two with one leading zero fewer (i_pow: a is ones, then zeros).
  // Step C takes such an a as an exact power of two.
  wire [31:0] i_mag = a[31] ? (~a + 32'd1) : a;   // 0x80000000 stays 2^31, unsigned
  wire [31:0] i_cnt = a[31] ? ~a : a;
  wire [5:0]  i_lz  = (LATENCY >= 2) ? lzc32(i_cnt) : lzc32_chain(i_cnt);
  wire        i_pow = a[31] && ((a[30:0] & ~a[31:1]) == 31'd0);  // no 0 above a 1

  // ---- unpack: the byte lane b[1:0] of a, as n / 255 (see the header) ---------------
  wire [7:0]  u_n    = a[{b[1:0], 3'b000} +: 8];
  wire [2:0]  u_lz   = lzc8(u_n);
  wire [7:0]  u_r    = u_n << u_lz;               // leading one at bit 7
  // Significand {u_r, u_r, u_r} rounded up; only its fraction is stored, and a carry
  // (n = 255: all ones) means 1.0 at exponent + 1.  Below 255 the increment never
  // carries out of the low byte, so it is an 8-bit add, not a 24-bit one, and it needs
  // no carry chain after the shift: when the count is not zero u_r ends in a zero bit,
  // which +1 sets; when it is zero u_r is u_n, whose increment is ready beside the count.
  wire        u_ones = (u_n == 8'hff);
  wire [7:0]  u_n1   = u_n + 8'd1;
  wire [7:0]  u_low  = u_n[7] ? u_n1 : {u_r[7:1], 1'b1};
  wire [22:0] u_frac = u_ones ? 23'd0 : {u_r[6:0], u_r, u_low};
  // The exponent, 126 - lz (127 for 255), is 0111 above 14 - lz: a LUT per bit, not
  // a subtract and an add on a carry chain after the count.
  reg  [3:0]  u_exp_lo;
  always @* begin
    case (u_lz)
      3'd0:    u_exp_lo = 4'd14;
      3'd1:    u_exp_lo = 4'd13;
      3'd2:    u_exp_lo = 4'd12;
      3'd3:    u_exp_lo = 4'd11;
      3'd4:    u_exp_lo = 4'd10;
      3'd5:    u_exp_lo = 4'd9;
      3'd6:    u_exp_lo = 4'd8;
      default: u_exp_lo = 4'd7;
    endcase
  end
  wire [7:0]  u_exp  = u_ones ? 8'd127 : {4'b0111, u_exp_lo};
  wire [31:0] unpack_r = (u_n == 8'd0) ? 32'd0 : {1'b0, u_exp, u_frac};

  // ---- the functions finished in step A -----------------------------------------------
  reg [31:0] early_r;
  always @* begin
    case (func)
      FN_FMIN,
      FN_FMAX:   early_r = (a_nan && b_nan) ? CANON_NAN : a_daz;   // or b_daz, after cut A
      FN_FABS:   early_r = {1'b0, a[30:0]};
      FN_FNEG:   early_r = {~a[31], a[30:0]};
      FN_FSEQ:   early_r = {31'd0, f_eq};
      FN_FSLT:   early_r = 32'd0;                  // set after cut A
      FN_FSLE:   early_r = {31'd0, f_eq};          // or set after cut A
      FN_PACK:   early_r = {c_lo, 16'd0};           // the channels in step C
      FN_UNPACK: early_r = unpack_r;
      default:   early_r = 32'd0;                 // itof, ftoi (below), add/multiply, 0xf
    endcase
    if ((func == FN_PACK || func == FN_UNPACK) ? !has_cvt : !has_fp32)
      early_r = 32'd0;                            // an absent group's function
  end

  // ---- ftoi: the shift amount and the exponent's cases --------------------------------
  // For a biased exponent e in 127..157 the magnitude is m * 2^(e-150) truncated, i.e.
  // (m << 7) >> (157 - e); 157 - e is 0..30 and equals (29 - e[4:0]) mod 32 there.
  wire [4:0]  t_rsh  = 5'd29 - a[27:23];
  wire        t_zero = a_nan || (a[30:23] < 8'd127);   // NaN, |a| < 1
  wire        t_sat  = (a[30:23] >= 8'd158);           // |a| >= 2^31, infinities

  // itof and ftoi share one right shifter: a left shift is a right shift of the
  // bit-reversed operand, reversed back (as in execute's integer shifter).  Its operand
  // and amount are picked in step A, so that step B is the shift alone.
  wire        is_itof = has_cvt && (func == FN_ITOF);
  wire        is_ftoi = has_cvt && (func == FN_FTOI);
  wire        is_pack = has_cvt && (func == FN_PACK);
  wire [31:0] sh_in   = is_itof ? reverse32(i_mag) : {1'b0, 1'b1, a[22:0], 7'd0};
  wire [4:0]  sh_amt  = is_itof ? i_lz[4:0] : t_rsh;

  // ---- cut A ----------------------------------------------------------------------------
  wire        is_itof2, is_ftoi2, is_pack2, i_pow2, sign2, t_zero2, t_sat2;
  wire        raw_lt2, is_mm2, pick_if12, pick_if02, is_lt_cmp2, lt_set12, lt_set02;
  wire [31:0] sh_in2, early2, b_daz2;
  wire [4:0]  sh_amt2;
  wire [5:0]  i_lz2;
  wire [15:0] pk_a2, pk_b2;                        // unorm8_a of a and b
  fp_stage #(.W(7 + 7 + 32 + 32 + 32 + 5 + 6 + 32), .CUT((LATENCY >= 2) ? 1 : 0)) u_cut_a (
      .clk(clk),
      .d({is_itof, is_ftoi, is_pack, i_pow, a[31], t_zero, t_sat,
          raw_lt, is_mm, pick_if1, pick_if0, is_lt_cmp, lt_set1, lt_set0,
          sh_in, early_r, b_daz, sh_amt, i_lz, unorm8_a(a), unorm8_a(b)}),
      .q({is_itof2, is_ftoi2, is_pack2, i_pow2, sign2, t_zero2, t_sat2,
          raw_lt2, is_mm2, pick_if12, pick_if02, is_lt_cmp2, lt_set12, lt_set02,
          sh_in2, early2, b_daz2, sh_amt2, i_lz2, pk_a2, pk_b2}));

  // ---- step B: the shifts, and itof's exponents -------------------------------------------
  // itof's exponent without and with the rounding carry, 158 - lz (+ 1), from the
  // count alone, beside the shifter: the rounding's carry picks one instead of adding
  // it.  For a = -2^k the count is one too many, and 159 - lz is the exponent of
  // |a| = 2^k, exact.
  wire [7:0]  i_exp0  = 8'd158 - {2'b00, i_lz2};
  wire [7:0]  i_exp1  = 8'd159 - {2'b00, i_lz2};
  wire [31:0] sh_out  = sh_in2 >> sh_amt2;
  // One word goes on: the shift's for itof and ftoi, fmin/fmax's pick, the finished
  // result otherwise (for pack, c's half above the channels; fslt/fsle's bit set here).
  wire        pick_a  = raw_lt2 ? pick_if12 : pick_if02;
  wire        lt_set  = is_lt_cmp2 && (raw_lt2 ? lt_set12 : lt_set02);
  wire [31:0] word    = (is_itof2 || is_ftoi2) ? sh_out : (is_mm2 && !pick_a) ? b_daz2 :
                        {early2[31:1], early2[0] || lt_set};
  wire [8:0]  pk_qa   = pk_a2[15:7] >> pk_a2[6:3];
  wire [8:0]  pk_qb   = pk_b2[15:7] >> pk_b2[6:3];

  // ---- cut B ----------------------------------------------------------------------------
  wire        is_itof3, is_ftoi3, is_pack3, i_pow3, sign3, t_zero3, t_sat3;
  wire [31:0] word3;
  wire [7:0]  i_exp03, i_exp13;
  wire [11:0] pk_a3, pk_b3;                        // {class, sticky term, shifted bits}
  fp_stage #(.W(7 + 32 + 16 + 24), .CUT((LATENCY >= 3) ? 1 : 0)) u_cut_b (
      .clk(clk),
      .d({is_itof2, is_ftoi2, is_pack2, i_pow2, sign2, t_zero2, t_sat2, word, i_exp0, i_exp1,
          pk_a2[2:0], pk_qa, pk_b2[2:0], pk_qb}),
      .q({is_itof3, is_ftoi3, is_pack3, i_pow3, sign3, t_zero3, t_sat3, word3, i_exp03, i_exp13,
          pk_a3, pk_b3}));
  wire unused_lz2 = |i_lz2[5];                     // 32 (a = 0 or -1) shifts by i_lz2[4:0] = 0

  // ---- step C: itof, |a| normalized by the leading-zero count, RNE ---------------------
  wire [31:0] i_norm  = reverse32(word3);          // i_mag << i_lz: leading one at bit 31
  // The increment is computed beside the rounding decision and picked by it; its
  // carry out (round up and the fraction all ones: the significand became 2.0, and
  // the incremented fraction is then 0) picks the exponent, so no add waits for
  // another (the same shape as rtl/fp_round.vh).
  wire        i_rnd   = i_norm[7] && ((i_norm[6:0] != 7'd0) || i_norm[8]);
  wire [22:0] i_inc   = i_norm[30:8] + 23'd1;
  // For a = -2^k the shift by the count (one too many) leaves i_norm with no bit at
  // 31..7 (the leading one shifted out, or a = -1: a count of 32, no shift, i_norm
  // = 1), so the fraction is zero and only i_pow3 says the result is not.
  wire        i_carry = i_rnd && (&i_norm[30:8]);
  wire [22:0] i_frac  = i_rnd ? i_inc : i_norm[30:8];
  wire [7:0]  i_exp   = (i_carry || i_pow3) ? i_exp13 : i_exp03;
  wire [31:0] itof_r  = (i_norm[31] || i_pow3) ? {sign3, i_exp, i_frac} : 32'd0;

  // ---- step C: ftoi, toward zero, saturating; NaN and |a| < 1 give 0 -----------------
  wire [30:0] t_mag   = word3[30:0];               // {1, a[22:0], 7'b0} >> t_rsh
  wire [31:0] ftoi_r  = t_zero3 ? 32'd0 :
                        t_sat3  ? (sign3 ? 32'h80000000 : 32'h7fffffff) :
                        sign3   ? (~{1'b0, t_mag} + 32'd1) : {1'b0, t_mag};

  // ---- step C: pack's rounding ----------------------------------------------------------
  wire [31:0] pack_r  = {word3[31:16], unorm8_c(pk_a3[11:9], pk_a3[8:0]), unorm8_c(pk_b3[11:9], pk_b3[8:0])};

  // ---- select and register ------------------------------------------------------------
  always @(posedge clk)
    result <= is_itof3 ? itof_r : is_ftoi3 ? ftoi_r : is_pack3 ? pack_r : word3;

  generate
    if (LATENCY < 1 || LATENCY > 3) begin : g_check_latency
      fp_misc_LATENCY_is_not_1_2_or_3 u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
