// fpu: the pipelined binary32 unit of the Umbra core, executing the 0x4_ opcode group
// (isa/isa.yaml; `func` is the opcode's low nibble).  Bit-exact with umbra::fp32.
// Fully pipelined: a new operation every cycle, no stalls.  The add/multiply functions
// (`arith` high) take LATENCY cycles to arith_result (execute's EXEC_STAGES, a
// configuration's core.execute_stages; 4 by default), the others MISC_LATENCY (1 by
// default; fp_misc's register, then MISC_LATENCY - 1 more) to misc_result, as the
// integer multiply's product; execute carries a misc result to W in its own result delay line,
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
//
// A LATENCY above 4 (a MISC_LATENCY above 1) is, for now, that many more registers
// after the adder (after fp_misc and the multiplier's integer product): the right
// cycle for execute, though not yet the shorter paths that deeper pipelines are for.
`default_nettype none

`include "umbra_isa.vh"   // UMBRA_OP_* opcodes, generated from isa/isa.yaml
`include "umbra_uarch.vh" // UMBRA_DEFAULT_EXECUTE_STAGES, generated from isa/uarch.yaml

module fpu #(
    parameter integer MUL_ROWS     = 0,  // fp_mul's multiplier form (rtl/fp_mul.v)
    parameter integer LATENCY      = `UMBRA_DEFAULT_EXECUTE_STAGES,  // add/multiply, >= 4
    parameter integer MISC_LATENCY = 1   // the other functions and int_product, >= 1
) (
    input  wire        clk,
    input  wire [3:0]  func,     // low nibble of the 0x4_ opcode
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    output wire        arith,         // func is fadd, fsub, fmul or fmadd
    output wire [31:0] arith_result,  // an add/multiply, LATENCY cycles after its inputs
    output wire [31:0] misc_result,   // any other function, MISC_LATENCY cycles after its inputs
    // Execute's integer multiply borrows the multiplier (see fp_mul): a * b, unsigned,
    // on int_product MISC_LATENCY cycles after int_mul.  func is then not an FPU function.
    input  wire        int_mul,
    output wire [63:0] int_product
);

  // The units' latencies are their structure (each checks its own); what LATENCY asks
  // beyond their sum is padding at the end (below).
  localparam integer MUL_LATENCY = 2;   // fp_mul
  localparam integer ADD_LATENCY = 2;   // fp_add
  localparam integer ARITH_PAD = LATENCY - MUL_LATENCY - ADD_LATENCY;
  localparam integer MISC_PAD  = MISC_LATENCY - 1;

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
  wire [63:0] int_prod;
  fp_mul #(.MUL_ROWS(MUL_ROWS), .LATENCY(MUL_LATENCY)) u_mul (
      .clk(clk), .a(a), .b(mul_b), .int_mul(int_mul), .result(product),
      .int_product(int_prod)
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

  // ---- misc functions (cycle 1) -------------------------------------------------------
  wire [31:0] misc;
  fp_misc u_misc (.clk(clk), .func(func), .a(a), .b(b), .c_lo(c[15:0]), .result(misc));

  assign arith = is_arith;

  // ---- padding to LATENCY and MISC_LATENCY ------------------------------------------------
  generate
    if (ARITH_PAD < 0 || MISC_PAD < 0) begin : g_bad_latency
      fpu_LATENCY_below_4_or_MISC_LATENCY_below_1_the_datapath_has_more_stages u_error ();  // no such module
    end
    // (<= 0: a refused latency elaborates no register of negative width.)
    if (ARITH_PAD <= 0) begin : g_arith_now
      assign arith_result = sum;
    end else begin : g_arith_pad
      reg [32*ARITH_PAD-1:0] sum_q;
      if (ARITH_PAD > 1) begin : g_line
        always @(posedge clk) sum_q <= {sum_q[32*(ARITH_PAD-1)-1:0], sum};
      end else begin : g_reg
        always @(posedge clk) sum_q <= sum;
      end
      assign arith_result = sum_q[32*(ARITH_PAD-1) +: 32];
    end
    if (MISC_PAD <= 0) begin : g_misc_now
      assign misc_result = misc;
      assign int_product = int_prod;
    end else begin : g_misc_pad
      reg [96*MISC_PAD-1:0] misc_q;  // {misc, int product} per cycle
      if (MISC_PAD > 1) begin : g_line
        always @(posedge clk) misc_q <= {misc_q[96*(MISC_PAD-1)-1:0], misc, int_prod};
      end else begin : g_reg
        always @(posedge clk) misc_q <= {misc, int_prod};
      end
      assign {misc_result, int_product} = misc_q[96*(MISC_PAD-1) +: 96];
    end
  endgenerate

endmodule

`default_nettype wire
