// fp_round.vh: the tail fp_add and fp_mul share, round to nearest even then the
// FTZ/overflow/special select, as two functions included inside each module (like
// fp_lzc32.vh): fp_round_prep before the unit's CUT_RND and fp_round_pack, the last
// stage, after it.
//
// Shaped for the clock, not for the reader of the formula: no decision waits for a
// carry chain.  The rounding increment's carry out of the fraction is "the guard bit
// set and the fraction all ones" (an AND tree, in parallel with the increment), and it
// is the last thing decided: the incremented fraction and exponent are computed in
// parallel and picked by it, and so is the result's class, made for either carry from
// the exponent's compares with constants before rounding (FTZ when exp + carry < 1,
// overflow when > 254), so the carry is one LUT from the class (the UP5K's longest
// path at 12 stages was the AND, then FTZ, the class and the pack, one after another).
// NaN, infinity and the operand-zero cases come from registered flags the units
// decided at their inputs, in parallel with the datapath; the last stage only
// turns the class bits into the word (one LUT per bit), so the unit's result
// register is not at the end of a rounding carry.

  // {sign, nan, inf, zero, exponent, fraction} of the result: at most one of nan,
  // inf and zero is set, and exponent/fraction matter only when none is.  (The
  // locals are r_*: a function's names must not hide the including module's.)
  function [34:0] fp_round_prep;
    input        r_sign;       // the sign of a finite, flushed or overflowed result
    input        r_spec_nan;   // the result is the canonical NaN
    input        r_spec_inf;   // an infinite operand makes the result infinite
    input        r_spec_zero;  // the result is an exact zero (zero operand, x + (-x))
    input        r_spec_sign;  // the sign of that infinity or zero
    input [9:0]  r_exp;        // biased exponent before rounding, two's complement
    input [22:0] r_frac;       // fraction bits below the leading one
    input        r_guard;
    input        r_sticky;
    reg          r_rnd_up, r_carry, r_inf0, r_inf1, r_zero0, r_zero1;
    reg   [22:0] r_frac_inc;
    reg   [7:0]  r_exp_inc;
    begin
      r_rnd_up   = r_guard && (r_sticky || r_frac[0]);    // ties to even
      r_carry    = r_guard && (&r_frac);                  // rounding up made the significand 2.0
      r_frac_inc = r_frac + 23'd1;                        // 0 on that carry, as it must be
      r_exp_inc  = r_exp[7:0] + 8'd1;
      // After rounding the exponent is exp + carry: below 1 flushes to zero (FTZ,
      // tininess after rounding), above 254 overflows to infinity; *0 for carry 0, *1
      // for carry 1.
      r_inf0  = !r_spec_nan && (r_spec_inf || (!r_spec_zero && !r_exp[9] &&
                                               (r_exp[8] || (&r_exp[7:0]))));
      r_inf1  = !r_spec_nan && (r_spec_inf || (!r_spec_zero && !r_exp[9] &&
                                               (r_exp[8] || (&r_exp[7:1]))));
      r_zero0 = !r_spec_nan && !r_spec_inf && (r_spec_zero || r_exp[9] || r_exp == 10'd0);
      r_zero1 = !r_spec_nan && !r_spec_inf && (r_spec_zero || r_exp[9]);
      fp_round_prep = {(r_spec_inf || r_spec_zero) ? r_spec_sign : r_sign, r_spec_nan,
                       r_carry ? r_inf1 : r_inf0, r_carry ? r_zero1 : r_zero0,
                       r_carry ? r_exp_inc : r_exp[7:0], r_rnd_up ? r_frac_inc : r_frac};
    end
  endfunction

  // The binary32 word of fp_round_prep's fields: NaN 0x7fc00000, +-infinity, +-0, or
  // the rounded number.
  function [31:0] fp_round_pack;
    input [34:0] r_f;
    reg          r_s, r_nan, r_inf, r_zero;
    begin
      {r_s, r_nan, r_inf, r_zero} = r_f[34:31];
      fp_round_pack = {r_s && !r_nan,
                       (r_nan || r_inf) ? 8'hff : r_zero ? 8'h00 : r_f[30:23],
                       r_nan || (!r_inf && !r_zero && r_f[22]),
                       (r_nan || r_inf || r_zero) ? 22'd0 : r_f[21:0]};
    end
  endfunction
