// fpu_netlist_tb: the synthesized FPU (yosys synth_ice40 output, module fpu_syn, with
// the iCE40 cell models) against the RTL fpu, cycle by cycle, under random inputs.
// fpga/fpu_fmax.sh runs it on each netlist it places: the bit-exact bench
// (fpu_bench.cpp) checks the RTL, this checks that synthesis kept its meaning (yosys's
// DSP packing once silently dropped most of the FPU when one register fed four
// SB_MAC16).  Every output is compared in every cycle once the pipelines are full:
// both sides are the same deterministic function of the input history.
// Parameters: those of the fpu under test, and CYCLES.
`default_nettype none
`timescale 1ns / 1ps

module fpu_netlist_tb;
  parameter integer MUL_ROWS     = 0;
  parameter integer LATENCY      = 4;
  parameter integer MISC_LATENCY = 1;
  parameter integer CYCLES       = 20000;

  reg         clk = 1'b0;
  reg  [3:0]  func = 4'd0;
  reg  [31:0] a = 32'd0, b = 32'd0, c = 32'd0;
  reg         int_mul = 1'b0;
  wire        arith_r, arith_s;
  wire [31:0] ar_r, ar_s, mr_r, mr_s;
  wire [63:0] ip_r, ip_s;

  fpu #(.MUL_ROWS(MUL_ROWS), .LATENCY(LATENCY), .MISC_LATENCY(MISC_LATENCY)) u_rtl (
      .clk(clk), .func(func), .a(a), .b(b), .c(c), .arith(arith_r), .arith_result(ar_r),
      .misc_result(mr_r), .int_mul(int_mul), .int_product(ip_r));
  fpu_syn u_syn (
      .clk(clk), .func(func), .a(a), .b(b), .c(c), .arith(arith_s), .arith_result(ar_s),
      .misc_result(mr_s), .int_mul(int_mul), .int_product(ip_s));

  // A float with an exponent near 127 half of the time, so adds and products are
  // mostly finite and normal; otherwise any bits.
  function [31:0] operand;
    input [31:0] r;
    input [31:0] s;
    begin
      operand = s[0] ? {r[31], 8'd112 + {3'd0, s[5:1]}, r[22:0]} : r;
    end
  endfunction

  integer cycle;
  integer errors = 0;
  initial begin
    for (cycle = 0; cycle < CYCLES; cycle = cycle + 1) begin
      #5 clk = 1'b1;
      #1;
      if (cycle > LATENCY + 2 &&
          (arith_r !== arith_s || ar_r !== ar_s || mr_r !== mr_s || ip_r !== ip_s)) begin
        errors = errors + 1;
        if (errors <= 10)
          $display("MISMATCH cycle %0d: arith %h/%h misc %h/%h int %h/%h (rtl/netlist)",
                   cycle, ar_r, ar_s, mr_r, mr_s, ip_r, ip_s);
      end
      func    = $random;
      a       = operand($random, $random);
      b       = operand($random, $random);
      c       = operand($random, $random);
      int_mul = ($random % 8) == 0;
      #4 clk = 1'b0;
    end
    if (errors == 0) $display("fpu_netlist_tb: PASS, %0d cycles", CYCLES);
    else $display("fpu_netlist_tb: FAIL, %0d mismatching cycles", errors);
    $finish;
  end
endmodule

`default_nettype wire
