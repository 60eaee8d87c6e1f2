// fpu: the pipelined binary32 unit of the Umbra core, executing the 0x4_ opcode group
// (isa/isa.yaml; `func` is the opcode's low nibble).  Bit-exact with umbra::fp32.
// Fully pipelined: a new operation every cycle, no stalls.  The add/multiply functions
// (`arith` high) take LATENCY = UMBRA_FPU_LATENCY (isa/uarch.yaml; 4) cycles to arith_result, the others 1 (fp_misc's
// register) to misc_result; execute carries a misc result to W in its own result delay line,
// which it keeps anyway for the integer results, so the core has one delay line, not
// two (rtl/execute.v).
//
// One arithmetic datapath, multiply then add, as in the unfused MAD of a shader core:
//
//   cycle:     1             2             3             4
//   a, b  -> [fp_mul stage 1|fp_mul stage 2]                     -> product
//   c'    -> [delay         |delay         ]
//                            product, c'  -> [fp_add stage 1|fp_add stage 2] -> result
//   a,b,c -> [fp_misc       ] -> misc_result
//
// Every add/multiply function is fed through both units, choosing the operands so
// the unused half is an exact identity:
//   fmadd  a * b + c
//   fmul   a * b + (-0)       x + (-0) = x for every product, including +-0 and NaN
//   fadd   a * 1.0 + b        a * 1.0 = a after DAZ (denormal -> signed zero), NaN
//   fsub   a * 1.0 + (-b)     -> canonical NaN, which the add yields anyway
// so there is a single multiplier, a single adder, one 32-bit delay line for c and
// no result alignment between them.  The misc functions are one cycle of logic.
`default_nettype none

`include "umbra_isa.vh"   // UMBRA_OP_* opcodes, generated from isa/isa.yaml
`include "umbra_uarch.vh" // UMBRA_FPU_LATENCY, generated from isa/uarch.yaml

module fpu #(
    parameter integer MUL_ROWS = 0   // fp_mul's multiplier form (rtl/fp_mul.v)
) (
    input  wire        clk,
    input  wire [3:0]  func,     // low nibble of the 0x4_ opcode
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    output wire        arith,         // func is fadd, fsub, fmul or fmadd
    output wire [31:0] arith_result,  // an add/multiply, LATENCY cycles after its inputs
    output wire [31:0] misc_result,   // any other function, the cycle after its inputs
    // Execute's integer multiply borrows the multiplier (see fp_mul): a * b, unsigned,
    // on int_product in the cycle after int_mul.  func is then not an FPU function.
    input  wire        int_mul,
    output wire [63:0] int_product
);

  // The latency is isa/uarch.yaml's; the units' latencies are their structure (each
  // checks its own), and their sum must be it: change the YAML's number, and
  // elaboration fails here until the datapath has that many stages.
  localparam integer LATENCY = `UMBRA_FPU_LATENCY;
  localparam integer MUL_LATENCY = 2;   // fp_mul
  localparam integer ADD_LATENCY = 2;   // fp_add

  localparam [7:0] OP_FADD  = `UMBRA_OP_FADD;
  localparam [7:0] OP_FSUB  = `UMBRA_OP_FSUB;
  localparam [7:0] OP_FMUL  = `UMBRA_OP_FMUL;
  localparam [7:0] OP_FMADD = `UMBRA_OP_FMADD;
  localparam [3:0] FN_FADD  = OP_FADD[3:0];
  localparam [3:0] FN_FSUB  = OP_FSUB[3:0];
  localparam [3:0] FN_FMUL  = OP_FMUL[3:0];
  localparam [3:0] FN_FMADD = OP_FMADD[3:0];

  localparam [31:0] ONE      = 32'h3f800000;
  localparam [31:0] NEG_ZERO = 32'h80000000;

  // ---- operand selection for the multiply-add datapath -------------------------------
  wire is_fadd  = (func == FN_FADD);
  wire is_fsub  = (func == FN_FSUB);
  wire is_fmul  = (func == FN_FMUL);
  wire is_fmadd = (func == FN_FMADD);
  wire is_arith = is_fadd || is_fsub || is_fmul || is_fmadd;

  wire [31:0] mul_b = (!int_mul && (is_fadd || is_fsub)) ? ONE : b;
  wire [31:0] add_c = is_fadd ? b :
                      is_fsub ? {~b[31], b[30:0]} :
                      is_fmul ? NEG_ZERO : c;

  // ---- multiply (cycles 1-2), addend delayed alongside --------------------------------
  wire [31:0] product;
  fp_mul #(.MUL_ROWS(MUL_ROWS), .LATENCY(MUL_LATENCY)) u_mul (
      .clk(clk), .a(a), .b(mul_b), .int_mul(int_mul), .result(product),
      .int_product(int_product)
  );

  // The addend waits as long as the multiply takes.
  reg [32*MUL_LATENCY-1:0] addend_q;
  generate
    if (MUL_LATENCY > 1) begin : g_addend_line
      always @(posedge clk) addend_q <= {addend_q[32*(MUL_LATENCY-1)-1:0], add_c};
    end else begin : g_addend_reg
      always @(posedge clk) addend_q <= add_c;
    end
  endgenerate
  wire [31:0] addend = addend_q[32*(MUL_LATENCY-1) +: 32];

  // ---- add (cycles 3-4) ------------------------------------------------------------------
  wire [31:0] sum;
  fp_add #(.LATENCY(ADD_LATENCY)) u_add (.clk(clk), .x(product), .y(addend), .result(sum));

  // ---- misc functions (cycle 1), delayed to cycle 4 -----------------------------------
  fp_misc u_misc (.clk(clk), .func(func), .a(a), .b(b), .c_lo(c[15:0]), .result(misc_result));

  assign arith        = is_arith;
  assign arith_result = sum;

  generate
    if (MUL_LATENCY + ADD_LATENCY != LATENCY) begin : g_bad_latency
      fpu_stages_differ_from_UMBRA_FPU_LATENCY_of_isa_uarch_yaml u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
