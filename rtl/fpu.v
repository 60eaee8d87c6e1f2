// fpu: the pipelined binary32 unit of the Umbra core, executing the 0x4_ opcode group
// (isa/isa.yaml; `func` is the opcode's low nibble).  Bit-exact with umbra::fp32.
// Fully pipelined: a new operation every cycle, no stalls.  The add/multiply functions
// (`arith` high) reach arith_result LATENCY cycles after their inputs; every other
// function reaches misc_result, and execute's integer multiply int_product,
// MISC_LATENCY cycles after theirs.  Execute carries a misc result to W in its own
// result delay line, which it keeps anyway for the integer results (rtl/execute.v).
//
// One arithmetic datapath, multiply then add, as in the unfused MAD of a shader core
// (LATENCY = 4, no cuts):
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
// no result alignment between them.
//
// Depth.  nextpnr does not retime, so a longer latency is spent on real cuts inside
// the units (fp_stage), never on registers piled at the output.  Each unit names the
// places its datapath may be cut (see their headers); MISC_LATENCY = 2 cuts fp_misc
// in two and the multiplier between its partial products and their sum (CUT_MID: the
// UP5K's SB_MAC16 output registers, or the middle of the HX8K's rows), since the
// integer product shares the multiplier and comes out MISC_LATENCY cycles after its
// inputs.  MISC_LATENCY = 3 adds IN, a register on every input (func, a, b, c,
// int_mul) before any of the FPU's logic, so that execute's operand select ends at a
// flip-flop instead of running on into the compare of fp_misc or the multiplier's
// first rows.  MISC_LATENCY = 4 cuts fp_misc in three (operands / shifts / rounding)
// and takes the integer product after PROD, which it therefore always makes (it is cut
// 3 below, so from LATENCY 9 on the float path has the same cuts as with 3).  The
// remaining LATENCY - 3 - MISC_LATENCY cuts are taken in this order,
// the longest remaining stage first (measured on the UP5K, where a LUT level with its
// routing costs ~3 ns: docs/fpga.md, "The FPU alone", has the figures):
//   1 add ALIGN  between compare/swap/alignment shift and the add
//   2 add NORM   between the normalizing shift and the rounding
//   3 mul PROD   register the whole product before normalize/round
//   4 add SWAP   between compare/swap and the alignment shift
//   5 add LZC    between the leading-zero count and the normalizing shift
//   6 mul NORM   between normalize (guard, sticky) and the rounding
//   7 add RND    between the rounding increment and the FTZ/overflow select
//   8 mul RND    the same in the multiplier
// so (M = MISC_LATENCY; input register, mul and add latencies in brackets; with M = 4
// cut 3 is always there and the others follow in the same order):
//   LATENCY  M=1 cuts           M=2 cuts               M=3 cuts                M=4 cuts
//      4     none     [2+2]     (unsupported)          (unsupported)           (unsupported)
//      5     1        [2+3]     MID        [3+2]       (unsupported)           (unsupported)
//      6     1-2      [2+4]     MID 1      [3+3]       IN MID      [1+3+2]     (unsupported)
//      7     1-3      [3+4]     MID 1-2    [3+4]       IN MID 1    [1+3+3]     IN MID 3    [1+4+2]
//      8     1-4      [3+5]     MID 1-3    [4+4]       IN MID 1-2  [1+3+4]     IN MID 1,3  [1+4+3]
//      9     1-5      [3+6]     MID 1-4    [4+5]       IN MID 1-3  [1+4+4]     IN MID 1-3  [1+4+4]
//     10     1-6      [4+6]     MID 1-5    [4+6]       IN MID 1-4  [1+4+5]     IN MID 1-4  [1+4+5]
//     11     1-7      [4+7]     MID 1-6    [5+6]       IN MID 1-5  [1+4+6]     IN MID 1-5  [1+4+6]
//     12     1-8      [5+7]     MID 1-7    [5+7]       IN MID 1-6  [1+5+6]     IN MID 1-6  [1+5+6]
//     13     (unsupported)      MID 1-8    [6+7]       IN MID 1-7  [1+5+7]     IN MID 1-7  [1+5+7]
//     14     (unsupported)      (unsupported)          IN MID 1-8  [1+6+7]     IN MID 1-8  [1+6+7]
// Other values fail elaboration.
//
// Extension groups (GROUPS, core.groups; decode makes an absent group's opcodes
// illegal).  Without fp32 the adder and the addend's ring are not built and the
// multiplier serves only the integer product (its float tail has no reader, so
// synthesis drops it); without fp32 or fp32cvt fp_misc builds only the other group's
// functions, and without both no fp_misc at all.  Results no instruction can ask for
// are 0.
`default_nettype none

`include "umbra_isa.vh"   // UMBRA_OP_* opcodes, generated from isa/isa.yaml
`include "umbra_uarch.vh" // UMBRA_DEFAULT_EXECUTE_STAGES, generated from isa/uarch.yaml
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module fpu #(
    parameter integer MUL_ROWS     = `UMBRA_DEFAULT_MUL_ROWS,  // fp_mul's multiplier form (rtl/fp_mul.v)
    // add/multiply: inputs to arith_result; execute passes core.execute_stages
    parameter integer LATENCY      = `UMBRA_DEFAULT_EXECUTE_STAGES,
    parameter integer MISC_LATENCY = 1,  // other functions and int_product
    parameter integer FF_RAMS      = `UMBRA_DEFAULT_FF_RAMS,  // 1: the addend waits in flip-flops, never a RAM
    parameter integer RAM_OUT_REG  = `UMBRA_DEFAULT_RAM_OUT_REG,  // 1: the ring read a cycle early, into a flip-flop
    parameter integer GROUPS       = `UMBRA_DEFAULT_GROUPS  // core.groups (above)
) (
    input  wire        clk,
    input  wire [3:0]  func,     // low nibble of the 0x4_ opcode
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire [31:0] c,
    output wire        arith,         // func is fadd, fsub, fmul or fmadd
    output wire [31:0] arith_result,  // an add/multiply, LATENCY cycles after its inputs
    output wire [31:0] misc_result,   // any other function, MISC_LATENCY cycles after
    // Execute's integer multiply borrows the multiplier (see fp_mul): a * b, unsigned,
    // on int_product MISC_LATENCY cycles after int_mul.  func is then not an FPU
    // function.
    input  wire        int_mul,
    output wire [63:0] int_product
);

  // The optional cuts in the order of the table above: cut n exists when EXTRA >= n;
  // with M = 4 cut 3 (PROD) is fixed, and the cuts after it come one EXTRA sooner.
  localparam integer EXTRA    = LATENCY - 3 - MISC_LATENCY;
  localparam integer FIX_PROD = (MISC_LATENCY == 4) ? 1 : 0;
  localparam integer CUT_IN   = (MISC_LATENCY >= 3) ? 1 : 0;
  localparam integer MUL_MID  = (MISC_LATENCY >= 2) ? 1 : 0;
  localparam integer ADD_ALGN = (EXTRA >= 1) ? 1 : 0;
  localparam integer ADD_NORM = (EXTRA >= 2) ? 1 : 0;
  localparam integer MUL_PROD = (FIX_PROD != 0 || EXTRA >= 3) ? 1 : 0;
  localparam integer ADD_SWAP = (EXTRA >= 4 - FIX_PROD) ? 1 : 0;
  localparam integer ADD_LZC  = (EXTRA >= 5 - FIX_PROD) ? 1 : 0;
  localparam integer MUL_NORM = (EXTRA >= 6 - FIX_PROD) ? 1 : 0;
  localparam integer ADD_RND  = (EXTRA >= 7 - FIX_PROD) ? 1 : 0;
  localparam integer MUL_RND  = (EXTRA >= 8 - FIX_PROD) ? 1 : 0;
  localparam integer MUL_LATENCY = 2 + MUL_MID + MUL_PROD + MUL_NORM + MUL_RND;
  localparam integer ADD_LATENCY = 2 + ADD_SWAP + ADD_ALGN + ADD_LZC + ADD_NORM + ADD_RND;

  localparam [7:0] OP_FADD  = `UMBRA_OP_FADD;
  localparam [7:0] OP_FSUB  = `UMBRA_OP_FSUB;
  localparam [7:0] OP_FMUL  = `UMBRA_OP_FMUL;
  localparam [7:0] OP_FMADD = `UMBRA_OP_FMADD;
  localparam [3:0] FN_FADD  = OP_FADD[3:0];
  localparam [3:0] FN_FSUB  = OP_FSUB[3:0];
  localparam [3:0] FN_FMUL  = OP_FMUL[3:0];
  localparam [3:0] FN_FMADD = OP_FMADD[3:0];

  localparam [31:0] GROUPS_U = GROUPS;
  localparam        HAS_FP32 = GROUPS_U[`UMBRA_GROUP_FP32];
  localparam        HAS_CVT  = GROUPS_U[`UMBRA_GROUP_FP32CVT];

  localparam [31:0] ONE      = 32'h3f800000;
  localparam [31:0] NEG_ZERO = 32'h80000000;

  // ---- the input register (IN) ----------------------------------------------------------
  // Below it everything reads the q_ copies; only `arith` is decoded from the port,
  // since execute needs it in X1.
  wire [3:0]  q_func;
  wire [31:0] q_a, q_b, q_c;
  wire        q_int_mul;
  fp_stage #(.W(4 + 3 * 32 + 1), .CUT(CUT_IN)) s_in (
      .clk(clk), .d({func, a, b, c, int_mul}), .q({q_func, q_a, q_b, q_c, q_int_mul}));

  // ---- operand selection for the multiply-add datapath -------------------------------
  wire is_fadd  = (q_func == FN_FADD);
  wire is_fsub  = (q_func == FN_FSUB);
  wire is_fmul  = (q_func == FN_FMUL);

  wire [31:0] mul_b = (!q_int_mul && (is_fadd || is_fsub)) ? ONE : q_b;
  wire [31:0] add_c = is_fadd ? q_b :
                      is_fsub ? {~q_b[31], q_b[30:0]} :
                      is_fmul ? NEG_ZERO : q_c;

  // ---- multiply, addend delayed alongside -------------------------------------------
  wire [31:0] product;
  fp_mul #(.MUL_ROWS(MUL_ROWS), .CUT_MID(MUL_MID), .CUT_PROD(MUL_PROD), .CUT_NORM(MUL_NORM),
           .CUT_RND(MUL_RND), .INT_LATE(FIX_PROD), .LATENCY(MUL_LATENCY)) u_mul (
      .clk(clk), .a(q_a), .b(mul_b), .int_mul(q_int_mul), .result(product),
      .int_product(int_product)
  );

  // The addend waits as long as the multiply takes.  Up to two cycles it waits in
  // flip-flops.  From three on it waits in a RAM used as a ring of 16 words: written
  // every cycle at `ring_wr`, read MUL_LATENCY - 1 entries behind it into the RAM's
  // output register.  On an FPGA that is two block RAMs where the flip-flops would take
  // 32 logic cells a cycle (a flip-flop fed by another flip-flop shares no LUT); the
  // ring needs no thread number and no reset, since only the distance between the two
  // pointers matters, and the word read and the word written are never the same.
  // With FF_RAMS (the HX8K at 16 threads, short of block RAMs, not of cells) it waits
  // in flip-flops at every latency.  With RAM_OUT_REG (the LFE5U-85F, whose DP16KD
  // gives its data 5.8 ns after the clock) the ring is read an entry later still,
  // MUL_LATENCY - 2 behind (at least one, so still never the word written), and the
  // word waits its last cycle in a flip-flop: the adder's swap compare starts from a
  // register, not from the RAM (docs/fpga.md, "Round eight").
  wire [31:0] addend;
  generate
    if (!HAS_FP32) begin : g_no_addend
      assign addend = 32'd0;
      wire unused_add_c = ^add_c;
    end else if (MUL_LATENCY >= 3 && FF_RAMS == 0) begin : g_addend_ring
      localparam [3:0] OUT_REG = (RAM_OUT_REG != 0) ? 4'd1 : 4'd0;
      reg [3:0] ring_wr = 4'd0;
      wire [3:0] ring_rd = ring_wr - MUL_LATENCY[3:0] + 4'd1 + OUT_REG;
      (* ram_style = "block", no_rw_check *) reg [31:0] ring [0:15];
      reg [31:0] ring_q;
      always @(posedge clk) begin
        ring[ring_wr] <= add_c;
        ring_q        <= ring[ring_rd];
        ring_wr       <= ring_wr + 4'd1;
      end
      if (RAM_OUT_REG != 0) begin : g_out_reg
        reg [31:0] out_q;
        always @(posedge clk) out_q <= ring_q;
        assign addend = out_q;
      end else begin : g_ram_out
        assign addend = ring_q;
      end
    end else begin : g_addend_line
      reg [32*MUL_LATENCY-1:0] line_q;
      always @(posedge clk) line_q <= {line_q[32*MUL_LATENCY-33:0], add_c};
      assign addend = line_q[32*MUL_LATENCY-1 -: 32];
    end
  endgenerate

  // ---- add ----------------------------------------------------------------------------
  wire [31:0] sum;
  generate
    if (HAS_FP32) begin : g_add
      fp_add #(.CUT_SWAP(ADD_SWAP), .CUT_ALIGN(ADD_ALGN), .CUT_LZC(ADD_LZC), .CUT_NORM(ADD_NORM),
               .CUT_RND(ADD_RND), .LATENCY(ADD_LATENCY)) u_add (
          .clk(clk), .x(product), .y(addend), .result(sum));
    end else begin : g_no_add
      assign sum = 32'd0;
      wire unused_product = ^{product, addend};
    end
  endgenerate

  // ---- misc functions ----------------------------------------------------------------
  generate
    if (HAS_FP32 || HAS_CVT) begin : g_misc
      fp_misc #(.LATENCY(MISC_LATENCY - CUT_IN), .FP32(HAS_FP32 ? 1 : 0), .CVT(HAS_CVT ? 1 : 0)) u_misc (
          .clk(clk), .func(q_func), .a(q_a), .b(q_b), .c_lo(q_c[15:0]), .result(misc_result));
    end else begin : g_no_misc
      assign misc_result = 32'd0;
      wire unused_misc = ^{q_c[15:0]};
    end
  endgenerate

  assign arith        = HAS_FP32 &&
                        ((func == FN_FADD) || (func == FN_FSUB) || (func == FN_FMUL) || (func == FN_FMADD));
  assign arith_result = sum;

  generate
    if (MISC_LATENCY < 1 || MISC_LATENCY > 4) begin : g_bad_misc_latency
      fpu_MISC_LATENCY_is_not_1_to_4 u_error ();  // no such module
    end else if (EXTRA < 0 || EXTRA > 8 - FIX_PROD) begin : g_bad_latency
      fpu_LATENCY_out_of_range_for_this_MISC_LATENCY u_error ();  // no such module
    end else if (CUT_IN + MUL_LATENCY + ADD_LATENCY != LATENCY) begin : g_bad_sum
      fpu_stages_differ_from_LATENCY u_error ();  // no such module
    end
  endgenerate

endmodule

`default_nettype wire
