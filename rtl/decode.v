// decode: stage D.  Takes the instruction word out of the instruction store, decides
// what kind of instruction it is and whether it is one at all, and names the registers
// it reads.  Everything is registered (valid in R): the register file samples
// {r_thread, r_ra/r_rb/r_rc} at the end of R and its data is there in X1.
//
// Decode is fixed logic from the opcode (the generated UMBRA_OP_* constants, never a
// bare number).  It reduces every instruction to a few class bits the later stages
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

module decode #(
    parameter integer REGS = 256,
    parameter integer TW   = 3,
    parameter integer IW   = 12
) (
    input  wire              clk,
    input  wire              rst,

    // From fetch, valid in D.
    input  wire              d_valid,
    input  wire [TW-1:0]     d_thread,
    input  wire [IW-1:0]     d_pc,
    input  wire [31:0]       d_word,
    input  wire [1:0]        d_reason,

    // Valid in R.
    output reg               r_valid,
    output reg               r_sleep,    // a bubble of a thread asleep on memory
    output reg  [TW-1:0]     r_thread,
    output reg  [IW-1:0]     r_pc,
    output reg               r_illegal,
    output reg  [31:0]       r_word,
    output reg               r_we,       // field a's register := X1 or FPU result
    output reg               r_load,     // field a's register := memory data (ldw, atom.*)
    output reg               r_mem,      // sends a memory request (ldw, stw, red.*, atom.*)
    output reg               r_fpu,      // result from the FPU
    output reg               r_exit,
    output reg               r_flush,    // dflush: sleeps in X1 like a load, writes nothing
    output reg  [7:0]        r_ra,       // register read through field a (0: none)
    output reg  [7:0]        r_rb,       // ... field b
    output reg  [7:0]        r_rc        // ... field c
);

  localparam [1:0] WHY_MEMORY = 2'd1;   // d_reason of a SLEEP thread's bubble

  wire [7:0] op = d_word[`UMBRA_FIELD_OP_MSB:`UMBRA_FIELD_OP_LSB];
  wire [7:0] fa = d_word[`UMBRA_FIELD_A_MSB:`UMBRA_FIELD_A_LSB];
  wire [7:0] fb = d_word[`UMBRA_FIELD_B_MSB:`UMBRA_FIELD_B_LSB];
  wire [7:0] fc = d_word[`UMBRA_FIELD_C_MSB:`UMBRA_FIELD_C_LSB];

  // What an 8-bit field holds, for the validity check.  The I, J and N formats are
  // handled by `fmt`: an I-format's imm16 and a J-format's imm24 take any value.
  localparam [2:0] K_ZERO  = 3'd0;  // unused: must be zero
  localparam [2:0] K_REG   = 3'd1;  // register number: must exist in this core
  localparam [2:0] K_ANY   = 3'd2;  // simm8, br8, memory offset
  localparam [2:0] K_SREG  = 3'd3;  // special-register number
  localparam [2:0] K_UIMM5 = 3'd4;
  localparam [2:0] K_LANE  = 3'd5;

  localparam [1:0] FMT_R = 2'd0;
  localparam [1:0] FMT_I = 2'd1;
  localparam [1:0] FMT_J = 2'd2;
  localparam [1:0] FMT_N = 2'd3;

  reg       known;
  reg [1:0] fmt;
  reg [2:0] ka, kb, kc;
  reg       reads_a;  // field a is a register the instruction reads (not just writes)
  reg       branch;   // a conditional branch: field a is read through port c too
  reg       wr_result, wr_memory, memory, fpu, is_exit;

  always @* begin
    known     = 1'b1;
    fmt       = FMT_R;
    ka        = K_REG;
    reads_a   = 1'b0;
    branch    = 1'b0;
    kb        = K_REG;
    kc        = K_REG;
    wr_result = 1'b0;
    wr_memory = 1'b0;
    memory    = 1'b0;
    fpu       = 1'b0;
    is_exit   = 1'b0;
    case (op)
      `UMBRA_OP_NOP, `UMBRA_OP_DINVALL, `UMBRA_OP_DFLUSH:
        fmt = FMT_N;
      `UMBRA_OP_EXIT: begin
        fmt     = FMT_N;
        is_exit = 1'b1;
      end
      `UMBRA_OP_RDSR: begin
        kb        = K_SREG;
        kc        = K_ZERO;
        wr_result = 1'b1;
      end
      `UMBRA_OP_MOVI: begin
        fmt       = FMT_I;
        wr_result = 1'b1;
      end
      `UMBRA_OP_MOVHI: begin       // rd = (imm << 16) | (rd & 0xffff)
        fmt       = FMT_I;
        reads_a   = 1'b1;
        wr_result = 1'b1;
      end
      `UMBRA_OP_DINV: begin        // dinv OFFSET(rB): field a unused
        ka = K_ZERO;
        kc = K_ANY;
      end

      `UMBRA_OP_ADD, `UMBRA_OP_SUB, `UMBRA_OP_AND, `UMBRA_OP_OR, `UMBRA_OP_XOR,
      `UMBRA_OP_SHL, `UMBRA_OP_SHR, `UMBRA_OP_SRA, `UMBRA_OP_MUL, `UMBRA_OP_MULH,
      `UMBRA_OP_MULHU, `UMBRA_OP_MIN, `UMBRA_OP_MAX, `UMBRA_OP_MINU, `UMBRA_OP_MAXU,
      `UMBRA_OP_SEQ, `UMBRA_OP_SNE, `UMBRA_OP_SLT, `UMBRA_OP_SLTU, `UMBRA_OP_SLE,
      `UMBRA_OP_SLEU:
        wr_result = 1'b1;
      `UMBRA_OP_ADDI, `UMBRA_OP_ANDI, `UMBRA_OP_ORI, `UMBRA_OP_XORI, `UMBRA_OP_SLTI,
      `UMBRA_OP_SEQI, `UMBRA_OP_MULI: begin
        kc        = K_ANY;
        wr_result = 1'b1;
      end
      `UMBRA_OP_SHLI, `UMBRA_OP_SHRI, `UMBRA_OP_SRAI: begin
        kc        = K_UIMM5;
        wr_result = 1'b1;
      end

      `UMBRA_OP_FADD, `UMBRA_OP_FSUB, `UMBRA_OP_FMUL, `UMBRA_OP_FMIN, `UMBRA_OP_FMAX,
      `UMBRA_OP_FSEQ, `UMBRA_OP_FSLT, `UMBRA_OP_FSLE: begin
        fpu       = 1'b1;
        wr_result = 1'b1;
      end
      `UMBRA_OP_FMADD, `UMBRA_OP_PACK: begin  // rd is also an operand
        reads_a   = 1'b1;
        fpu       = 1'b1;
        wr_result = 1'b1;
      end
      `UMBRA_OP_FABS, `UMBRA_OP_FNEG, `UMBRA_OP_ITOF, `UMBRA_OP_FTOI: begin
        kc        = K_ZERO;
        fpu       = 1'b1;
        wr_result = 1'b1;
      end
      `UMBRA_OP_UNPACK: begin
        kc        = K_LANE;
        fpu       = 1'b1;
        wr_result = 1'b1;
      end

      `UMBRA_OP_LDW: begin
        kc        = K_ANY;
        memory    = 1'b1;
        wr_memory = 1'b1;
      end
      `UMBRA_OP_STW: begin
        kc      = K_ANY;
        reads_a = 1'b1;
        memory  = 1'b1;
      end
      `UMBRA_OP_RED_ADD, `UMBRA_OP_RED_MIN, `UMBRA_OP_RED_MAX, `UMBRA_OP_RED_XCHG: begin
        ka     = K_ZERO;
        memory = 1'b1;
      end
      `UMBRA_OP_RED_CAS: begin
        reads_a = 1'b1;
        memory  = 1'b1;
      end
      `UMBRA_OP_ATOM_ADD, `UMBRA_OP_ATOM_MIN, `UMBRA_OP_ATOM_MAX, `UMBRA_OP_ATOM_XCHG: begin
        memory    = 1'b1;
        wr_memory = 1'b1;
      end
      `UMBRA_OP_ATOM_CAS: begin
        reads_a   = 1'b1;
        memory    = 1'b1;
        wr_memory = 1'b1;
      end

      `UMBRA_OP_J:
        fmt = FMT_J;
      `UMBRA_OP_JAL: begin
        fmt       = FMT_I;
        wr_result = 1'b1;
      end
      `UMBRA_OP_JALR: begin
        kc        = K_ZERO;
        wr_result = 1'b1;
      end
      `UMBRA_OP_BZ, `UMBRA_OP_BNZ: begin
        fmt     = FMT_I;
        reads_a = 1'b1;
        branch  = 1'b1;
      end
      `UMBRA_OP_BEQ, `UMBRA_OP_BNE, `UMBRA_OP_BLT, `UMBRA_OP_BGE, `UMBRA_OP_BLTU,
      `UMBRA_OP_BGEU: begin
        kc      = K_ANY;
        reads_a = 1'b1;
        branch  = 1'b1;
      end

      default:
        known = 1'b0;
    endcase
  end

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

  reg sreg_ok;
  always @* begin
    case (fb)
      `UMBRA_SR_TID, `UMBRA_SR_CID, `UMBRA_SR_NTHR, `UMBRA_SR_NCORE, `UMBRA_SR_CLOCK,
      `UMBRA_SR_CLOCKH, `UMBRA_SR_LX, `UMBRA_SR_LY, `UMBRA_SR_DOMW, `UMBRA_SR_DOMH:
        sreg_ok = 1'b1;
      default:
        sreg_ok = 1'b0;
    endcase
  end

  function field_ok;
    input [2:0] kind;
    input [7:0] value;
    input       is_reg_ok;
    input       is_sreg_ok;
    begin
      case (kind)
        K_ZERO:  field_ok = (value == 8'd0);
        K_REG:   field_ok = is_reg_ok;
        K_SREG:  field_ok = is_sreg_ok;
        K_UIMM5: field_ok = (value[7:5] == 3'd0);
        K_LANE:  field_ok = (value[7:2] == 6'd0);
        default: field_ok = 1'b1;
      endcase
    end
  endfunction

  wire ok_a = field_ok(ka, fa, reg_ok_a, 1'b0);
  wire ok_b = field_ok(kb, fb, reg_ok_b, sreg_ok);
  wire ok_c = field_ok(kc, fc, reg_ok_c, 1'b0);

  reg legal;
  always @* begin
    case (fmt)
      FMT_R:   legal = ok_a && ok_b && ok_c;
      FMT_I:   legal = ok_a;
      FMT_J:   legal = 1'b1;
      default: legal = (d_word[`UMBRA_FIELD_ZERO_MSB:`UMBRA_FIELD_ZERO_LSB] == 24'd0);
    endcase
  end

  // ---- D -> R --------------------------------------------------------------------------
  always @(posedge clk) begin
    if (rst) begin
      r_valid <= 1'b0;
      r_sleep <= 1'b0;
    end else begin
      r_valid <= d_valid;
      r_sleep <= !d_valid && d_reason == WHY_MEMORY;
    end
    r_thread  <= d_thread;
    r_pc      <= d_pc;
    r_word    <= d_word;
    r_illegal <= !(known && legal);
    r_we      <= wr_result;
    r_load    <= wr_memory;
    r_mem     <= memory;
    r_fpu     <= fpu;
    r_exit    <= is_exit;
    r_flush   <= (op == `UMBRA_OP_DFLUSH);
    r_ra      <= reads_a ? fa : 8'd0;
    r_rb      <= (fmt == FMT_R && kb == K_REG) ? fb : 8'd0;
    r_rc      <= branch ? fa : (fmt == FMT_R && kc == K_REG) ? fc : 8'd0;
  end

endmodule

`default_nettype wire
