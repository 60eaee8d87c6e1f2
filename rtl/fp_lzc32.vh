// lzc32: the leading-zero count of a 32-bit value (32 when it is zero), as a tree.
// Included inside the bodies of fp_add (its 28-bit sum, padded with ones below) and
// fp_misc (itof).  Written as "the highest set bit wins" over a loop, Yosys builds a
// chain of 32 priority multiplexers, which was the UP5K's longest FPU path (~40 ns of
// itof); here the count of each pair of bits, then of each 4, 8, 16 and 32 bits, is
// chosen from its halves' counts by whether the upper half is all zero: five levels
// of 1-bit multiplexers.  No include guard: every including module needs its own copy.
function [5:0] lzc32;
  input [31:0] v;
  reg [15:0] z0, c0;   // per 2 bits: all zero; count (1 bit)
  reg [7:0]  z1;       // per 4 bits, count 2 bits each in c1
  reg [15:0] c1;
  reg [3:0]  z2;       // per 8 bits, count 3 bits each in c2
  reg [11:0] c2;
  reg [1:0]  z3;       // per 16 bits, count 4 bits each in c3
  reg [7:0]  c3;
  reg [4:0]  c4;
  integer k;
  begin
    for (k = 0; k < 16; k = k + 1) begin
      z0[k] = !v[2*k+1] && !v[2*k];
      c0[k] = !v[2*k+1];
    end
    for (k = 0; k < 8; k = k + 1) begin
      z1[k]       = z0[2*k+1] && z0[2*k];
      c1[2*k +: 2] = z0[2*k+1] ? {1'b1, c0[2*k]} : {1'b0, c0[2*k+1]};
    end
    for (k = 0; k < 4; k = k + 1) begin
      z2[k]       = z1[2*k+1] && z1[2*k];
      c2[3*k +: 3] = z1[2*k+1] ? {1'b1, c1[4*k +: 2]} : {1'b0, c1[4*k+2 +: 2]};
    end
    for (k = 0; k < 2; k = k + 1) begin
      z3[k]       = z2[2*k+1] && z2[2*k];
      c3[4*k +: 4] = z2[2*k+1] ? {1'b1, c2[6*k +: 3]} : {1'b0, c2[6*k+3 +: 3]};
    end
    c4    = z3[1] ? {1'b1, c3[3:0]} : {1'b0, c3[7:4]};
    lzc32 = (z3[1] && z3[0]) ? 6'd32 : {1'b0, c4};
  end
endfunction
