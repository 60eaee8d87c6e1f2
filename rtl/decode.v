// decode: stage D.  Takes the instruction word out of the instruction store, decides
// what kind of instruction it is and whether it is one at all, and names the registers
// it reads.  Everything is registered (valid in R), r_illegal from registered halves
// of the check (below): the register file samples {r_thread, r_ra/r_rb/r_rc} at the
// end of R and its data is there in X1.  With RAM_OUT_REG the register file samples
// the raw fields (d_fa/d_fb/d_fc) at the end of D instead, so that nothing of the
// opcode table stands between the instruction store's read and its own, and drops
// in R what r_keep and r_c_is_a say is no read (rtl/regfile.v).
//
// Decode is fixed logic from the opcode: umbra_decode_attr() (rtl/umbra_isa_decode.vh,
// generated from isa/isa.yaml by umbra-isagen, as the SystemC decode's InstrInfo flags
// are) gives each opcode's format, each field's validity check, which fields are
// register reads and its class bits; this module keeps only the validity logic and
// the registers.  It reduces every instruction to a few class bits the later stages
// steer by: does it write field a's register from X1 or the FPU (r_we) or from memory
// (r_load: ldw and atom.*, the thread sleeps), does it send a memory request (r_mem),
// does it use the FPU, is it `exit`, is it `dflush` (r_flush: the thread sleeps until
// the load/store unit's flush marker reaches the head of its FIFO, and writes
// nothing).  The function within a class is left to execute, which gets the word
// (r_word).  A field that is not a register read is presented as
// r0, so its value in X1 is 0: that is what the memory request's cmp carries for an
// instruction that does not read field a (as umbra::read_operands has it).  A
// conditional branch's field c is its offset, so port c is free: it reads field a's
// register there as well, and execute compares it with field b's on the comparator the
// integer compares use (rtl/execute.v), with no second one for branches.
//
// Validity follows isa/src/isa.cpp decode() exactly: a known opcode; every field the
// format has that no operand uses is zero (N format: bits 23:0); a uimm5 or lane
// operand has no bits above its width; a special-register number names one.  One rule
// is added for configurations with fewer than 256 registers (as the SystemC decode
// has it): a register field, or a memory operand's base, naming a register the core
// does not have (REGS or above) is illegal too, instead of aliasing another register.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module decode #(
    parameter integer REGS = `UMBRA_DEFAULT_REGS,
    parameter integer TW   = 3,
    parameter integer IW   = 12,
    // The extension groups this core implements (core.groups): an opcode of another
    // group is illegal, as a register the core lacks is.
    parameter integer GROUPS = `UMBRA_DEFAULT_GROUPS
) (
    input  wire              clk,
    input  wire              rst,

    // From fetch, valid in D.
    input  wire              d_valid,
    input  wire [TW-1:0]     d_thread,
    input  wire [IW-1:0]     d_pc,
    input  wire [31:0]       d_word,
    input  wire [`UMBRA_BUBBLE_REASON_BITS-1:0] d_reason,

    // Valid in R.
    output reg               r_valid,
    output reg               r_sleep,    // a bubble of a thread asleep on memory
    output reg  [TW-1:0]     r_thread,
    output reg  [IW-1:0]     r_pc,
    output wire              r_illegal,  // from R's half of the check (below)
    output reg  [31:0]       r_word,
    output reg               r_we,       // field a's register := X1 or FPU result
    output reg               r_load,     // field a's register := memory data (ldw, atom.*)
    output reg               r_mem,      // sends a memory request (ldw, stw, red.*, atom.*)
    output reg               r_fpu,      // result from the FPU
    output reg               r_exit,
    output reg               r_flush,    // dflush: sleeps in X1 like a load, writes nothing
    output reg  [7:0]        r_ra,       // register read through field a (0: none)
    output reg  [7:0]        r_rb,       // ... field b
    output reg  [7:0]        r_rc,       // ... field c
    // For a register file that reads in D (RAM_OUT_REG, rtl/regfile.v): the fields in
    // D, before the table says which are reads, and in R which the ports keep.
    output wire [7:0]        d_fa,
    output wire [7:0]        d_fb,
    output wire [7:0]        d_fc,
    output reg  [2:0]        r_keep,     // {c, b, a}: the port's field is a register read
    output reg               r_c_is_a    // port c carries field a's register (a branch)
);

  wire [7:0] op = d_word[`UMBRA_FIELD_OP_MSB:`UMBRA_FIELD_OP_LSB];
  wire [7:0] fa = d_word[`UMBRA_FIELD_A_MSB:`UMBRA_FIELD_A_LSB];
  wire [7:0] fb = d_word[`UMBRA_FIELD_B_MSB:`UMBRA_FIELD_B_LSB];
  wire [7:0] fc = d_word[`UMBRA_FIELD_C_MSB:`UMBRA_FIELD_C_LSB];
  assign d_fa = fa;
  assign d_fb = fb;
  assign d_fc = fc;

`include "umbra_isa_decode.vh"

  // The opcode's attributes, from the generated table: its format, each 8-bit field's
  // check (UMBRA_CHK_*), which fields are register reads, and the class bits.
  wire [`UMBRA_ATTR_BITS-1:0] attr = umbra_decode_attr(op);
  wire       known     = attr[`UMBRA_ATTR_KNOWN];
  wire [1:0] fmt       = attr[`UMBRA_ATTR_FMT_MSB:`UMBRA_ATTR_FMT_LSB];
  wire [2:0] ka        = attr[`UMBRA_ATTR_CHK_A_MSB:`UMBRA_ATTR_CHK_A_LSB];
  wire [2:0] kb        = attr[`UMBRA_ATTR_CHK_B_MSB:`UMBRA_ATTR_CHK_B_LSB];
  wire [2:0] kc        = attr[`UMBRA_ATTR_CHK_C_MSB:`UMBRA_ATTR_CHK_C_LSB];
  wire       reads_a   = attr[`UMBRA_ATTR_READS_A];
  wire       reads_b   = attr[`UMBRA_ATTR_READS_B];
  wire       reads_c   = attr[`UMBRA_ATTR_READS_C];
  wire       branch    = attr[`UMBRA_ATTR_COND_BRANCH];  // field a is read through port c too
  wire       wr_result = attr[`UMBRA_ATTR_WRITES_RESULT];
  wire       wr_memory = attr[`UMBRA_ATTR_RETURNS_DATA];
  wire       memory    = attr[`UMBRA_ATTR_MEMORY];
  wire       fpu       = attr[`UMBRA_ATTR_FPU];

  // Register numbers this core has.  With 256 registers every field value is one; the
  // generate keeps Verilator from flagging an always-true comparison.
  wire reg_ok_a, reg_ok_b, reg_ok_c;
  generate
    if (REGS >= 256) begin : g_all_regs
      assign reg_ok_a = 1'b1;
      assign reg_ok_b = 1'b1;
      assign reg_ok_c = 1'b1;
    end else begin : g_some_regs
      localparam [31:0] NREGS_U = REGS;
      localparam [7:0]  NREGS   = NREGS_U[7:0];
      assign reg_ok_a = (fa < NREGS);
      assign reg_ok_b = (fb < NREGS);
      assign reg_ok_c = (fc < NREGS);
    end
  endgenerate

  // With every group (the default) no logic is added: the default core is unchanged.
  // GROUPS is an integer so that -G and chparam give it as a number.
  localparam [31:0] GROUPS_U = GROUPS;
  localparam [`UMBRA_NUM_GROUPS-1:0] GMASK = GROUPS_U[`UMBRA_NUM_GROUPS-1:0];
  wire group_ok;
  generate
    if (GMASK == `UMBRA_GROUPS_ALL) begin : g_all_groups
      assign group_ok = 1'b1;
    end else begin : g_some_groups
      assign group_ok = |(umbra_op_group(op) & GMASK);
    end
  endgenerate

  wire sreg_ok = umbra_sreg_known(fb);

  // The validity check in two halves.  The word comes out of the instruction store's
  // block RAM late in D (an ECP5 DP16KD's read without its output register is 5.8 ns),
  // and the whole check after it was the one-core ULX3S board's worst path at one
  // seed (docs/fpga.md, "Round eight").  So D registers what each field's check reads
  // (the kind from the table, and whether the value is zero, a register this core has,
  // a special register, five or two bits wide), and R puts them together into
  // r_illegal, which execute takes into a register at the end of R: the same answer in
  // the same cycle.
  reg       k_known, k_group_ok, k_zero24;
  reg [1:0] k_fmt;
  reg [2:0] k_ka, k_kb, k_kc;
  // Per field: {zero, a register, a special register, fits 5 bits, fits 2 bits}.
  reg [4:0] k_fa, k_fb, k_fc;
  function [4:0] field_facts(input [7:0] value, input is_reg_ok, input is_sreg_ok);
    field_facts = {value == 8'd0, is_reg_ok, is_sreg_ok, value[7:5] == 3'd0, value[7:2] == 6'd0};
  endfunction
  always @(posedge clk) begin
    k_known    <= known;
    k_group_ok <= group_ok;
    k_zero24   <= d_word[`UMBRA_FIELD_ZERO_MSB:`UMBRA_FIELD_ZERO_LSB] == 24'd0;
    k_fmt      <= fmt;
    k_ka       <= ka;
    k_kb       <= kb;
    k_kc       <= kc;
    k_fa       <= field_facts(fa, reg_ok_a, 1'b0);
    k_fb       <= field_facts(fb, reg_ok_b, sreg_ok);
    k_fc       <= field_facts(fc, reg_ok_c, 1'b0);
  end

  function field_ok(input [2:0] kind, input [4:0] facts);
    case (kind)
      `UMBRA_CHK_ZERO: field_ok = facts[4];
      `UMBRA_CHK_REG:  field_ok = facts[3];
      `UMBRA_CHK_SREG: field_ok = facts[2];
      `UMBRA_CHK_U5:   field_ok = facts[1];
      `UMBRA_CHK_U2:   field_ok = facts[0];
      default: field_ok = 1'b1;
    endcase
  endfunction

  wire ok_a = field_ok(k_ka, k_fa);
  wire ok_b = field_ok(k_kb, k_fb);
  wire ok_c = field_ok(k_kc, k_fc);

  reg legal;
  always @* begin
    case (k_fmt)
      `UMBRA_FMT_R: legal = ok_a && ok_b && ok_c;
      `UMBRA_FMT_I: legal = ok_a;
      `UMBRA_FMT_J: legal = 1'b1;
      default:      legal = k_zero24;
    endcase
  end
  assign r_illegal = !(k_known && legal && k_group_ok);

  // ---- D -> R --------------------------------------------------------------------------
  always @(posedge clk) begin
    if (rst) begin
      r_valid <= 1'b0;
      r_sleep <= 1'b0;
    end else begin
      r_valid <= d_valid;
      r_sleep <= !d_valid && d_reason == `UMBRA_BUBBLE_REASON_MEMORY;
    end
    r_thread  <= d_thread;
    r_pc      <= d_pc;
    r_word    <= d_word;
    r_we      <= wr_result;
    r_load    <= wr_memory;
    r_mem     <= memory;
    r_fpu     <= fpu;
    r_exit    <= (op == `UMBRA_OP_EXIT);
    r_flush   <= (op == `UMBRA_OP_DFLUSH);
    r_ra      <= reads_a ? fa : 8'd0;
    r_rb      <= reads_b ? fb : 8'd0;
    r_rc      <= branch ? fa : reads_c ? fc : 8'd0;
    r_keep    <= {reads_c, reads_b, reads_a};
    r_c_is_a  <= branch;
  end

endmodule

`default_nettype wire
