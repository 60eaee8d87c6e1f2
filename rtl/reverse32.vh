// reverse32: a 32-bit value with its bits in the opposite order.  Included inside the
// bodies of the modules that turn a left shift into a right shift of the reversed
// operand (execute's integer shifter, fp_misc's itof/ftoi shifter), so that each has
// one barrel shifter instead of two.  No include guard: every including module needs
// its own copy of the function.
function [31:0] reverse32;
  input [31:0] v;
  integer i;
  begin
    for (i = 0; i < 32; i = i + 1)
      reverse32[i] = v[31 - i];
  end
endfunction
