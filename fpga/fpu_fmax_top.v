// fpu_fmax_top: the FPU alone between registers, for fpga/fpu_fmax.sh to measure what
// each pipeline depth (rtl/fpu.v LATENCY, MISC_LATENCY) and multiplier form (MUL_ROWS)
// places at.  The FPU has ~230 input and output bits and an iCE40 package far fewer
// pins, so the inputs come from a shift register fed by one pin (every FPU input a
// flip-flop, as in the core, where they leave X1's registers) and every output is
// registered and then folded by XOR into a few registered pins (so synthesis keeps all
// of the FPU and no path starts or ends at a pad).  What nextpnr then reports as the
// critical path is the FPU's own, plus at most the input register's fan-out.
`default_nettype none

module fpu_fmax_top #(
    parameter integer MUL_ROWS     = 0,
    parameter integer LATENCY      = 4,
    parameter integer MISC_LATENCY = 1
) (
    input  wire       clk,
    input  wire       din,
    output reg  [7:0] dout
);

  localparam integer IN_W  = 4 + 32 + 32 + 32 + 1;     // func, a, b, c, int_mul
  localparam integer OUT_W = 1 + 32 + 32 + 64;         // arith, the results, int_product

  reg  [IN_W-1:0] in_q;
  always @(posedge clk) in_q <= {in_q[IN_W-2:0], din};

  wire        arith;
  wire [31:0] arith_result, misc_result;
  wire [63:0] int_product;
  fpu #(.MUL_ROWS(MUL_ROWS), .LATENCY(LATENCY), .MISC_LATENCY(MISC_LATENCY)) u_fpu (
      .clk(clk), .func(in_q[100:97]), .a(in_q[96:65]), .b(in_q[64:33]), .c(in_q[32:1]),
      .arith(arith), .arith_result(arith_result), .misc_result(misc_result),
      .int_mul(in_q[0]), .int_product(int_product)
  );

  reg [OUT_W-1:0] out_q;
  always @(posedge clk) out_q <= {arith, arith_result, misc_result, int_product};

  // Fold the 129 output bits into 8: dout is the XOR of the 17 bytes of out_q (zero
  // padded): two LUT levels.
  wire [8*17-1:0] padded = {{(8*17-OUT_W){1'b0}}, out_q};
  reg  [7:0]      fold;
  integer         k;
  always @* begin
    fold = 8'd0;
    for (k = 0; k < 17; k = k + 1) fold = fold ^ padded[8*k +: 8];
  end
  always @(posedge clk) dout <= fold;

endmodule

`default_nettype wire
