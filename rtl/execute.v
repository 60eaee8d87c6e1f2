// execute: stages X1 to X<L>, L = EXEC_STAGES (a configuration's core.execute_stages,
// 4 by default; its limits are isa/uarch.yaml's).  X1 does the work of an
// instruction that is not floating point: the integer/logic/compare result, `rdsr`,
// `movi`/`movhi`, the link address, the compare and the candidate next pcs, the
// effective address and the memory request, `exit`; it also starts the FPU.  X2
// decides the branch, the next pc and the faults from what X1 registered (and, in a
// deep pipeline, finishes the integer results that follow the compare: below).
// X2..X<L> otherwise only carry the result to W at the FPU's add/multiply latency (L), so every
// instruction writes back in the same stage and no two ever compete for the register
// file's write port.  The one delay line carries the integer result, the multiply's
// and the FPU's short functions' (misc_result), both of which come back MISC_LATENCY
// (M) cycles after X1, in X<1+M>; only an add/multiply comes from the FPU in W.  A
// deeper FPU is a faster clock on an FPGA, and the barrel pays for it with threads:
// the depth UMBRA_FETCH_TO_X1 + L + 1 may not exceed THREADS (umbra_core checks).
//
// Timing (instruction fetched in cycle n): decode's outputs are in R (n+2) and are
// registered here at its end (x1_*), next to the register values that come out of the
// register file's RAMs in X1 (n+3).  X1's outcome leaves on three paths: the thread's
// next pc and state (x2_upd_*, to fetch, which writes them at the end of X2; X1
// registers the compare's outcome, the candidate pcs and their range checks, and X2
// decides and picks from them), the memory request (x2_mem_*, registered, straight through the
// load/store unit onto the port in X2) and the result, delayed through X2..X<L> and
// presented to writeback on w_* in W (n+3+L).  None of these but the last depends on
// L.  A fault is on the core's outputs from X2 on.
//
// X1's subtract, the compare, ends at flip-flops: X1 registers its outcome (lt, ltu,
// eq) and the candidate next pcs with their range checks, and X2 makes the branch
// decision and the choice from them.  Where the FPU registers its inputs (M >= 3,
// the deep FPGA configurations) X2 also computes every integer result the compare or
// the adder feeds (add, sub, min/max, the set-on-compare ops) from the operands as
// registered at the end of X1, so that X1's longest path is register -> operand
// select -> carry chain -> flip-flop (it was the UP5K's longest path, docs/fpga.md).
//
// The integer multiply uses the FPU's multiplier (rtl/fp_mul.v), invisibly: X1 hands
// it the operands, the 64-bit product comes back in X<1+M>, where the signed high
// word's correction is applied.  The shifts ride it too (a multiply by a power of
// two), so their result also comes in X<1+M>.  Nothing observes a result before W, so
// no cycle of the contract changes, and the core has one multiplier instead of two and
// no barrel shifter.
//
// Memory instructions go to the data cache (docs/memory-system.md): ldw, stw, the
// atomics, dinv, dinvall and dflush all leave X1 on x2_mem_*.  Those that may push a
// request into the load/store unit's FIFO (ldw, stw, atomics, dflush) pass X1 only
// while lsu_room is high; otherwise they are replayed: nothing happens (no state
// change, no request, nothing for W) and the thread's pc stays, so its next slot
// issues the instruction again.  A fault is decided first: an illegal word or a bad
// jump faults whatever the room.  dflush sleeps like a load (w_flush: W wakes the
// thread without a register write).
//
// On a line port (LINE_PORT; docs/memory-system.md, "The line port"; systemc/execute.h)
// X1 also keeps the load/store unit's combining buffers in order with everything
// else: it compares its line with every buffer's (buffer_*, as they are at the start of
// the cycle) and with C1's and C2's requests, and decides, as the model's gate does,
// whether the instruction passes, is replayed, or is replayed and closes a buffer
// (sends a `wline` op tagged with the buffer's thread down C1 and C2, when there is
// room).  An aligned stw passes without room when its thread's buffer is empty or
// holds its line; ldw, an atomic or a misaligned stw waits for C1 and C2 to hold no
// request to its line and closes a buffer holding it; an atomic, a misaligned stw, a
// dflush or an exit closes the buffer holding a store of its thread.  So `exit` can be
// replayed here too, and only on a line port.
//
// Faults, in the order of isa/src/semantics.cpp execute(), with umbra::Fault's codes
// on trace_fault_cause: an illegal word (1); a next pc, taken or not, outside the
// instruction store, or a jalr target that is not a multiple of 4 (4, bad jump; `exit`
// is exempt).  A faulting instruction changes nothing but its thread's state
// (EXITED, pc left on it) and the sticky fault outputs.  Data addresses are not
// checked here: a misaligned or out-of-range access is the memory's to refuse.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module execute #(
    parameter integer THREADS    = `UMBRA_DEFAULT_THREADS,
    parameter integer IMEM_WORDS = `UMBRA_DEFAULT_IMEM_WORDS,
    parameter integer CORE_ID    = 0,
    parameter integer TW         = 3,
    parameter integer IW         = 12,
    parameter integer MUL_ROWS   = `UMBRA_DEFAULT_MUL_ROWS,  // the multiplier's form (rtl/fp_mul.v)
    parameter integer FF_RAMS    = `UMBRA_DEFAULT_FF_RAMS,  // the FPU's addend delay in flip-flops (rtl/fpu.v)
    parameter integer RAM_OUT_REG = `UMBRA_DEFAULT_RAM_OUT_REG,  // the addend ring read early (rtl/fpu.v)
    parameter integer DISPATCH   = 0,  // 1: each thread's work item from the dispatcher
    parameter integer EXEC_STAGES = `UMBRA_DEFAULT_EXEC_STAGES,  // L: X1 -> W
    parameter integer LINE_PORT  = `UMBRA_DEFAULT_LINE_PORT,  // 1: the combining buffers' gate (above)
    parameter integer LINE_BYTES = `UMBRA_DEFAULT_LINE_BYTES, // cache.line_bytes
    // core.groups (UMBRA_GROUP_* bits): decode makes an absent group's opcodes illegal,
    // so the logic only they use is not built (below, and the FPU's units).
    parameter integer GROUPS     = `UMBRA_DEFAULT_GROUPS,
    parameter integer LNW = 32 - $clog2(LINE_BYTES)  // a line number's bits (derived; not to be set)
) (
    input  wire            clk,
    input  wire            rst,

    // From fetch, valid in D: the thread whose work item is read (RAM_OUT_REG only).
    input  wire [TW-1:0]   d_thread,
    // From decode, valid in R.
    input  wire            r_valid,
    input  wire            r_sleep,
    input  wire [TW-1:0]   r_thread,
    input  wire [IW-1:0]   r_pc,
    input  wire            r_illegal,
    input  wire [31:0]     r_word,
    input  wire            r_we,
    input  wire            r_load,
    input  wire            r_mem,
    input  wire            r_fpu,
    input  wire            r_exit,
    input  wire            r_flush,      // dflush: sleeps in X1, writes no register

    // From the register file, valid in X1.
    input  wire [31:0]     rf_a,
    input  wire [31:0]     rf_b,
    input  wire [31:0]     rf_c,

    input  wire [63:0]     x1_clock,     // `clock` of the cycle X1's instruction was fetched in
    input  wire [31:0]     domw,
    input  wire [31:0]     lx0,          // `lx` of thread 0 (the threads of the cores before)
    input  wire [31:0]     domh,
    input  wire            items,        // `lx`/`ly` are the threads' work items (a domain)
    // From fetch: a thread started on a work item (rtl/fetch.v), kept here per thread.
    input  wire            item_we,
    input  wire [TW-1:0]   item_thread,
    input  wire [31:0]     item_lx,
    input  wire [31:0]     item_ly,
    input  wire [31:0]     ncore,
    input  wire [31:0]     args,         // `rdsr arg`: the command processor's argument block
    input  wire            lsu_room,     // the request FIFO can take three more pushes
    // The line port (LINE_PORT): the combining buffers at the start of the cycle
    // (rtl/load_store_unit.v) and C2's request, for X1's gate.
    input  wire [THREADS-1:0]         buffer_valid,
    input  wire [LNW*THREADS-1:0]     buffer_line,
    input  wire [THREADS*THREADS-1:0] buffer_writers,
    input  wire                       c2_push_valid,
    input  wire [31:0]                c2_push_addr,

    // To fetch, valid in X2.
    output reg             x2_upd_valid,
    output reg  [TW-1:0]   x2_upd_thread,
    output reg  [IW-1:0]   x2_upd_pc,
    output reg  [`UMBRA_THREAD_STATE_BITS-1:0] x2_upd_state,

    // To the load/store unit (and the port), valid in X2.
    output reg             x2_mem_valid,
    output reg  [7:0]      x2_mem_op,
    output reg  [31:0]     x2_mem_addr,
    output reg  [31:0]     x2_mem_data,
    output reg  [31:0]     x2_mem_cmp,
    output wire [7:0]      x2_mem_tag,
    // The same request in X1, not registered: a core without a data cache writes the
    // request FIFO's entry from these at the end of X1 (rtl/load_store_unit.v).
    output wire            x1_push,      // passes X1 and will push at C2
    output wire [7:0]      x1_mem_op,
    output wire [31:0]     x1_mem_addr,
    output wire [31:0]     x1_mem_data,
    output wire [31:0]     x1_mem_cmp,
    output wire [TW-1:0]   x1_mem_thread,
    // The address x2_mem_addr takes at the end of X1: the data cache's tag RAMs read
    // their set a cycle ahead of C1 (rtl/dcache.v).
    output wire [31:0]     x2_mem_addr_d,

    // To the load/store unit, valid in X<L>, the stage before W: the thread W looks
    // at next (its return buffer's read address).
    output reg  [TW-1:0]   xl_thread,

    // To writeback, valid in W.
    output reg             w_valid,      // an instruction that reaches W with work there
    output reg             w_sleep,      // a bubble of a thread asleep on memory
    output reg  [TW-1:0]   w_thread,
    output reg  [IW-1:0]   w_pc,
    output wire            w_we,         // write w_result to register w_rd
    output wire            w_load,       // the value comes from the return buffer
    output wire            w_flush,      // dflush: wake on the return buffer, no write
    output wire [7:0]      w_rd,
    output wire [31:0]     w_result,

    output reg             fault,
    output reg  [TW-1:0]   fault_thread,
    output reg  [IW-1:0]   fault_pc,
    output reg  [`UMBRA_FAULT_BITS-1:0] fault_cause
);

  // Opcodes whose high nibble names a whole group.
  localparam [7:0] OP_ADDI    = `UMBRA_OP_ADDI;     // 0x3_: register-immediate integer
  localparam [7:0] OP_RED_ADD = `UMBRA_OP_RED_ADD;  // 0x6_: atomics
  localparam [3:0] GRP_RI     = OP_ADDI[7:4];
  localparam [3:0] GRP_ATOMIC = OP_RED_ADD[7:4];

  // Fault causes and thread states (rtl/umbra_uarch.vh, from isa/uarch.yaml).
  localparam integer FB = `UMBRA_FAULT_BITS;
  localparam integer SB = `UMBRA_THREAD_STATE_BITS;
  localparam [FB-1:0] FAULT_NONE     = `UMBRA_FAULT_NONE;
  localparam [FB-1:0] FAULT_ILLEGAL  = `UMBRA_FAULT_ILLEGAL_INSTRUCTION;
  localparam [FB-1:0] FAULT_BAD_JUMP = `UMBRA_FAULT_BAD_JUMP;
  localparam [SB-1:0] ST_RUN    = `UMBRA_THREAD_STATE_RUN;
  localparam [SB-1:0] ST_SLEEP  = `UMBRA_THREAD_STATE_SLEEP;
  localparam [SB-1:0] ST_EXITED = `UMBRA_THREAD_STATE_EXITED;

  // W is L stages after X1 (the FPU's add/multiply latency): the result delay line
  // below holds X3..X<L> and W.  The multiply's and the FPU's short functions' results
  // come M cycles after X1: one cycle of logic each in a short pipeline, two in a
  // deep one, where the clock is fast enough that itof/ftoi/pack and the multiplier's
  // last rows no longer fit one cycle, three in a deeper one, whose first is the
  // FPU's input register, so that this stage's operand select ends at a flip-flop, and
  // four in the deepest, where fp_misc takes three (rtl/fpu.v; the L where M becomes
  // 2, 3 and 4: isa/uarch.yaml's misc_latency_2_from .. _4_from).  The delay RAM is
  // written in X<1+M> and read at the end of X<L>, the stage before W, which must
  // therefore come later.
  // umbra_core checks L against isa/uarch.yaml's limits and THREADS.
  localparam integer L = EXEC_STAGES;
  localparam integer M = `UMBRA_MISC_LATENCY(L);
  generate
    if (1 + M >= L) begin : g_check_latency
      execute_EXEC_STAGES_too_few_the_delay_RAM_is_written_in_X1_plus_MISC_LATENCY_and_read_before_W u_error ();
    end
  endgenerate

  localparam integer PPAD = 30 - IW;
  localparam integer TPAD = 32 - TW;
  localparam [31:0] IMEM_WORDS_U = IMEM_WORDS;
  localparam [31:0] THREADS_U    = THREADS;
  localparam [31:0] CORE_ID_U    = CORE_ID;
  localparam [31:0] GROUPS_U     = GROUPS;
  localparam        HAS_MULH     = GROUPS_U[`UMBRA_GROUP_MULH];
  localparam        HAS_ATOMIC   = GROUPS_U[`UMBRA_GROUP_ATOMIC];
  localparam        HAS_CVT      = GROUPS_U[`UMBRA_GROUP_FP32CVT];

  // ---- R -> X1 ------------------------------------------------------------------------
  reg            x1_valid, x1_sleep;
  reg [TW-1:0]   x1_thread;
  reg [IW-1:0]   x1_pc;
  reg [31:0]     x1_word;
  reg            x1_illegal, x1_we, x1_load, x1_mem, x1_fpu, x1_exit, x1_flush, x1_add;
  // Decoded from the opcode in R, so that in X1 the operand select and the branch
  // decision after the compare are one LUT each, not an opcode compare too.
  reg            x1_is_ri, x1_is_jalr, x1_br_always;
  reg [3:0]      x1_br_sel;  // a conditional branch's condition, as cmp_set reads it
  wire [7:0]     r_op = r_word[`UMBRA_FIELD_OP_MSB:`UMBRA_FIELD_OP_LSB];
  wire [7:0]     r_fa = r_word[`UMBRA_FIELD_A_MSB:`UMBRA_FIELD_A_LSB];
  wire [7:0]     r_fb = r_word[`UMBRA_FIELD_B_MSB:`UMBRA_FIELD_B_LSB];
  wire [7:0]     r_fc = r_word[`UMBRA_FIELD_C_MSB:`UMBRA_FIELD_C_LSB];

  // The pc-relative operand's word offset (j: 24 bits, jal/bz/bnz: 16, the other
  // branches: 8, sign-extended) is a function of the word alone, so R picks it: X1
  // gets its low IW bits and whether the bits above are all zeros or all ones.  With
  // the pc below 2^IW, the target pc + offset is in 0..2^IW-1 exactly when those bits
  // and the carry out of the IW-bit sum cancel (0 and no carry, or all ones and a
  // carry), so X1 adds IW bits where it added 30 before the range check.
  reg  [29:0]    r_offset;
  always @* begin
    case (r_op)
      `UMBRA_OP_J:   r_offset = {{6{r_fa[7]}}, r_fa, r_fb, r_fc};
      `UMBRA_OP_JAL,
      `UMBRA_OP_BZ,
      `UMBRA_OP_BNZ: r_offset = {{14{r_fb[7]}}, r_fb, r_fc};
      default:       r_offset = {{22{r_fc[7]}}, r_fc};
    endcase
  end
  reg [IW-1:0]   x1_off_lo;
  reg            x1_off_hi0, x1_off_hi1;

  always @(posedge clk) begin
    if (rst) begin
      x1_valid <= 1'b0;
      x1_sleep <= 1'b0;
    end else begin
      x1_valid <= r_valid;
      x1_sleep <= r_sleep;
    end
    x1_thread  <= r_thread;
    x1_pc      <= r_pc;
    x1_word    <= r_word;
    x1_illegal <= r_illegal;
    x1_we      <= r_we;
    x1_load    <= r_load;
    x1_mem     <= r_mem;
    x1_fpu     <= r_fpu;
    x1_exit    <= r_exit;
    x1_flush   <= r_flush;
    x1_add     <= (r_op == `UMBRA_OP_ADD) || (r_op == `UMBRA_OP_ADDI);
    x1_is_ri     <= (r_op[7:4] == GRP_RI);
    x1_off_lo    <= r_offset[IW-1:0];
    x1_off_hi0   <= ~|r_offset[29:IW];
    x1_off_hi1   <= &r_offset[29:IW];
    x1_is_jalr   <= (r_op == `UMBRA_OP_JALR);
    x1_br_always <= (r_op == `UMBRA_OP_J) || (r_op == `UMBRA_OP_JAL);
    // {inv, eq, lt, ltu}: the ordered branches take "or equal" with their compare
    x1_br_sel    <= {(r_op == `UMBRA_OP_BNZ) || (r_op == `UMBRA_OP_BNE) ||
                     (r_op == `UMBRA_OP_BLT) || (r_op == `UMBRA_OP_BLTU),
                     (r_op == `UMBRA_OP_BZ) || (r_op == `UMBRA_OP_BNZ) ||
                     (r_op == `UMBRA_OP_BEQ) || (r_op == `UMBRA_OP_BNE) ||
                     (r_op == `UMBRA_OP_BLT) || (r_op == `UMBRA_OP_BGE) ||
                     (r_op == `UMBRA_OP_BLTU) || (r_op == `UMBRA_OP_BGEU),
                     (r_op == `UMBRA_OP_BLT) || (r_op == `UMBRA_OP_BGE),
                     (r_op == `UMBRA_OP_BLTU) || (r_op == `UMBRA_OP_BGEU)};
  end

  wire [7:0] x1_op = x1_word[`UMBRA_FIELD_OP_MSB:`UMBRA_FIELD_OP_LSB];
  wire [7:0] x1_fa = x1_word[`UMBRA_FIELD_A_MSB:`UMBRA_FIELD_A_LSB];
  wire [7:0] x1_fb = x1_word[`UMBRA_FIELD_B_MSB:`UMBRA_FIELD_B_LSB];
  wire [7:0] x1_fc = x1_word[`UMBRA_FIELD_C_MSB:`UMBRA_FIELD_C_LSB];

  // ---- X1: operands ---------------------------------------------------------------------
  // Field a holds rd/rs/rc (or a branch's first register), b is ra or the base, c is rb
  // or an immediate; the register-immediate forms take c sign-extended in rb's place
  // (a valid uimm5 has c[7:5] = 0, so the same extension serves the shifts).
  wire [31:0] va = rf_a;
  wire [31:0] vb = rf_b;
  wire [31:0] vc = rf_c;

  wire [31:0] imm8  = {{24{x1_fc[7]}}, x1_fc};
  wire [31:0] imm16 = {{16{x1_fb[7]}}, x1_fb, x1_fc};

  // Without the atomic group no word reaches here as one, and the constant lets
  // synthesis drop the atomics' address select and data (their compare value is the
  // memory's to drop: fpga/spram_memory.v ATOMICS).
  wire        is_atomic = HAS_ATOMIC && (x1_op[7:4] == GRP_ATOMIC);
  wire [31:0] y         = x1_is_ri ? imm8 : vc;

  wire [31:0] pc32   = {{PPAD{1'b0}}, x1_pc, 2'b00};
  wire [31:0] pc_seq = pc32 + 32'd4;

  // ---- X1: integer result ----------------------------------------------------------------
  // One adder: vb + y for add/addi (x1_add, decoded in R), vb - y (vb + ~y + 1) for
  // sub and for every compare, whose outcome the add never needs.  With LATE_INT
  // (M >= 3) X2 does the add, the sub and every result that depends on the compare
  // (x2_word below), and X1's adder only compares.
  localparam LATE_INT = (M >= 3);
  wire        x1_sub = LATE_INT || !x1_add;
  wire [32:0] diff   = {1'b0, vb} + {1'b0, y ^ {32{x1_sub}}} + {32'd0, x1_sub};
  wire        ltu    = !diff[32];  // no carry out of vb + ~y + 1: vb < y
  wire        lt     = (vb[31] != y[31]) ? vb[31] : diff[31];
  wire        eq     = (vb == y);

  // Shifts ride the multiplier: x << n is the low word of x * 2^n, and for n > 0 x >> n
  // is the high word of x * 2^(32-n), unsigned for shr and with x signed for sra (the
  // high word's sign correction of mulh, below, with x's term alone), so a 32-bit
  // barrel shifter (about 250 LUT4s on the UP5K, 150 logic cells on the HX8K) becomes
  // a 5-to-32 decoder; the result comes with the product in X<1+M>, which nothing sees
  // before W.
  wire        shift_left  = (x1_op == `UMBRA_OP_SHL) || (x1_op == `UMBRA_OP_SHLI);
  wire        shift_arith = (x1_op == `UMBRA_OP_SRA) || (x1_op == `UMBRA_OP_SRAI);
  wire        shift_right_op = (x1_op == `UMBRA_OP_SHR) || (x1_op == `UMBRA_OP_SHRI) || shift_arith;
  wire        shift_mul   = shift_left || shift_right_op;
  wire [4:0]  pow_log     = shift_left ? y[4:0] : (5'd0 - y[4:0]);   // 32 - n, mod 32
  wire [31:0] shift_pow   = 32'd1 << pow_log;

  // Each thread's work item, in a small RAM read at the thread in R, so X1 has it in a
  // register.  A thread is written only while it is free, with nothing in flight, so
  // no read meets its write (no_rw_check).  After a thread launch `lx` is the launch's
  // lx0 + tid and `ly` 0 (items low).  Yosys is asked for block RAM (the iCE40s have
  // no other); with RAM_OUT_REG (the LFE5U-85F, where its 16 x 64 bits took 16 DPR16X4,
  // 96 logic cells, of distributed RAM a core: docs/fpga.md, "Round eleven") it is read
  // a cycle earlier, at the thread in D, into a flip-flop in R, as the register file
  // is.  A thread in D was started a cycle before at the latest, so the earlier read
  // still finds its item.
  wire [31:0] x1_lx, x1_ly;
  generate
    if (DISPATCH != 0) begin : g_items
      (* ram_style = "block", no_rw_check *) reg [63:0] item_ram [0:THREADS-1];
      reg  [63:0] item_rd;
      wire [63:0] x1_item;
      always @(posedge clk) begin
        if (item_we)
          item_ram[item_thread] <= {item_ly, item_lx};
        item_rd <= item_ram[(RAM_OUT_REG != 0) ? d_thread : r_thread];
      end
      if (RAM_OUT_REG != 0) begin : g_item_out_reg
        reg [63:0] item_q;
        always @(posedge clk) item_q <= item_rd;
        assign x1_item = item_q;
      end else begin : g_item_ram_out
        assign x1_item = item_rd;
        wire unused_d_thread = ^d_thread;
      end
      assign x1_lx = items ? x1_item[31:0]  : lx0 + {{TPAD{1'b0}}, x1_thread};
      assign x1_ly = items ? x1_item[63:32] : 32'd0;
    end else begin : g_no_items
      assign x1_lx = lx0 + {{TPAD{1'b0}}, x1_thread};
      assign x1_ly = 32'd0;
      wire unused_items = ^{items, item_we, item_thread, item_lx, item_ly, d_thread};
    end
  endgenerate

  reg [31:0] sreg;
  always @* begin
    case (x1_fb)
      `UMBRA_SR_TID:    sreg = {{TPAD{1'b0}}, x1_thread};
      `UMBRA_SR_CID:    sreg = CORE_ID_U;
      `UMBRA_SR_NTHR:   sreg = THREADS_U;
      `UMBRA_SR_NCORE:  sreg = ncore;
      `UMBRA_SR_CLOCK:  sreg = x1_clock[31:0];
      `UMBRA_SR_CLOCKH: sreg = x1_clock[63:32];
      `UMBRA_SR_LX:     sreg = x1_lx;
      `UMBRA_SR_LY:     sreg = x1_ly;
      `UMBRA_SR_DOMW:   sreg = domw;
      `UMBRA_SR_DOMH:   sreg = domh;
      `UMBRA_SR_ARG:    sreg = args;
      default:          sreg = 32'd0;                      // decode rejects the rest
    endcase
  end

  // The result multiplexer costs about 32 LUT4s per distinct 32-bit input, so the
  // four min/max share one input (which operand to take is a bit per op), the six
  // compares one (their bit), and and/or/xor one (a LUT per bit on the op's class).
  wire        lg_and  = (x1_op == `UMBRA_OP_AND) || (x1_op == `UMBRA_OP_ANDI);
  wire        lg_or   = (x1_op == `UMBRA_OP_OR) || (x1_op == `UMBRA_OP_ORI);
  wire [31:0] logic_r = lg_and ? (vb & y) : lg_or ? (vb | y) : (vb ^ y);
  // What min/max and the set-on-compare ops take from the compare, decoded once: X1
  // uses it with the compare's outcome at M < 3, X2 with the registered outcome.  All
  // zero for any other op, so cmp_set is 0 there.  cmp_set also makes X2's branch
  // decision, from x2_br_sel (decoded in R).
  wire        mm_max  = (x1_op == `UMBRA_OP_MAX) || (x1_op == `UMBRA_OP_MAXU);
  wire        mm_u    = (x1_op == `UMBRA_OP_MINU) || (x1_op == `UMBRA_OP_MAXU);
  wire        cmp_inv = (x1_op == `UMBRA_OP_SNE);
  wire        cmp_eq  = (x1_op == `UMBRA_OP_SEQ) || (x1_op == `UMBRA_OP_SEQI) || (x1_op == `UMBRA_OP_SNE) ||
                        (x1_op == `UMBRA_OP_SLE) || (x1_op == `UMBRA_OP_SLEU);
  wire        cmp_lt  = (x1_op == `UMBRA_OP_SLT) || (x1_op == `UMBRA_OP_SLTI) ||
                        (x1_op == `UMBRA_OP_SLE);
  wire        cmp_ltu = (x1_op == `UMBRA_OP_SLTU) || (x1_op == `UMBRA_OP_SLEU);
  // min takes vb when vb < y, max when it is not
  function pick_vb(input max, input u, input c_lt, input c_ltu);
    pick_vb = max ^ (u ? c_ltu : c_lt);
  endfunction
  function cmp_set(input [3:0] sel, input c_eq, input c_lt, input c_ltu);  // {inv, eq, lt, ltu}
    cmp_set = sel[3] ^ ((sel[2] && c_eq) || (sel[1] && c_lt) || (sel[0] && c_ltu));
  endfunction
  wire [3:0]  cmp_sel = {cmp_inv, cmp_eq, cmp_lt, cmp_ltu};
  wire        pick_b  = pick_vb(mm_max, mm_u, lt, ltu);
  wire        cmp_bit = cmp_set(cmp_sel, eq, lt, ltu);

  reg [31:0] result;
  always @* begin
    case (x1_op)
      `UMBRA_OP_RDSR:                    result = sreg;
      `UMBRA_OP_MOVI:                    result = imm16;
      `UMBRA_OP_MOVHI:                   result = {x1_fb, x1_fc, va[15:0]};
      `UMBRA_OP_ADD,  `UMBRA_OP_ADDI,
      `UMBRA_OP_SUB:                     result = LATE_INT ? 32'd0 : diff[31:0];
      `UMBRA_OP_AND,  `UMBRA_OP_ANDI,
      `UMBRA_OP_OR,   `UMBRA_OP_ORI,
      `UMBRA_OP_XOR,  `UMBRA_OP_XORI:    result = logic_r;
      `UMBRA_OP_MIN,  `UMBRA_OP_MAX,
      `UMBRA_OP_MINU, `UMBRA_OP_MAXU:    result = LATE_INT ? 32'd0 : pick_b ? vb : y;
      `UMBRA_OP_SEQ,  `UMBRA_OP_SEQI,
      `UMBRA_OP_SNE,
      `UMBRA_OP_SLT,  `UMBRA_OP_SLTI,
      `UMBRA_OP_SLTU,
      `UMBRA_OP_SLE,
      `UMBRA_OP_SLEU:                    result = {31'd0, !LATE_INT && cmp_bit};
      `UMBRA_OP_JAL,  `UMBRA_OP_JALR:    result = pc_seq;
      default:                           result = 32'd0;  // mul*, shifts in X<1+M>; FPU; none
    endcase
  end

  // Multiply, first half: the FPU's multiplier takes the unsigned operands vb and
  // mul_y, and the correction that turns the unsigned high word into the signed one
  // (hi_s = hi_u - (b < 0 ? y : 0) - (y < 0 ? b : 0), mod 2^32; sra takes only the
  // first term, its 2^(32-n) being unsigned; 0 for mulhu and shr).
  reg mul, mul_hi, signed_b, signed_y;
  always @* begin
    mul      = 1'b1;
    mul_hi   = 1'b0;
    signed_b = 1'b0;
    signed_y = 1'b0;
    case (x1_op)
      `UMBRA_OP_MUL, `UMBRA_OP_MULI: ;
      // Without mulh the correction keeps sra's term only (signed_y stays 0).
      `UMBRA_OP_MULH: begin
        mul_hi   = HAS_MULH;
        signed_b = HAS_MULH;
        signed_y = HAS_MULH;
      end
      `UMBRA_OP_MULHU:
        mul_hi = HAS_MULH;
      default: begin
        mul      = shift_mul;
        mul_hi   = shift_mul && shift_right_op && (y[4:0] != 5'd0);
        signed_b = shift_arith;
      end
    endcase
  end

  wire [31:0] mul_y    = shift_mul ? shift_pow : y;
  // The signed high word's correction, where it is added in X1 (see x2_word below).
  wire [31:0] corr_x1  = (signed_b && vb[31] ? mul_y : 32'd0) + (signed_y && y[31] ? vb : 32'd0);

  // ---- X1: control flow ---------------------------------------------------------------
  // A branch compares field a's register with field b's on the compare above: decode
  // reads field a's register through port c for a branch (rtl/decode.v), so y is va,
  // and bz/bnz read no register through b, so vb is 0.  va < vb is y < vb, !(vb <= y):
  // blt is "not lt-or-eq", bge "lt-or-eq", and likewise unsigned (decided in X2).
  wire [IW:0] target = {1'b0, x1_pc} + {1'b0, x1_off_lo};  // a word address and its carry

  // Each candidate next pc is range-checked in X1; the compare's outcome, the two
  // candidates (taken or not; jalr's register either way) and their checks are
  // registered, and X2 makes the decision, the choice and the fault from them
  // (below), so that the path register value -> compare ends at a flip-flop (the
  // UP5K's longest path at 16 threads, 10 stages, had gone on through the decision,
  // and before that through the fault to the thread's next pc and state).  target is
  // a word address (its range check: r_offset above) and pc_seq a multiple of 4: only
  // jalr's register can be misaligned.
  wire seq_in_store    = ({2'b00, pc_seq[31:2]} < IMEM_WORDS_U);
  wire target_in_store = (x1_off_hi0 ? !target[IW] : x1_off_hi1 && target[IW]) &&
                         ({{(32 - IW){1'b0}}, target[IW-1:0]} < IMEM_WORDS_U);
  wire jalr_ok         = vb[1:0] == 2'b00 && ({2'b00, vb[31:2]} < IMEM_WORDS_U);
  wire [IW-1:0] pc_if_taken = x1_is_jalr ? vb[IW+1:2] : target[IW-1:0];
  wire [IW-1:0] pc_if_not   = x1_is_jalr ? vb[IW+1:2] : pc_seq[IW+1:2];

  // ---- X1: memory -------------------------------------------------------------------------
  // Loads and stores address rB + offset (field c, in words); atomics address ra.  The
  // data is store_data()'s (stw: rs, atomics: rb); cmp is field a's register value,
  // which decode made 0 for instructions that do not read field a.
  wire [31:0] ea = is_atomic ? vb : vb + {imm8[29:0], 2'b00};

  // The instructions that go to the cache are never branches: their next pc is
  // pc_seq, so whether they fault is known in X1, from the pc alone, and the request
  // and the replay need nothing of the branch decision.  A replayed instruction does
  // nothing (no state change, no request, nothing for W) and keeps its pc.
  wire pushes     = x1_mem || x1_flush;  // may push into the request FIFO
  wire to_cache   = pushes || x1_op == `UMBRA_OP_DINV || x1_op == `UMBRA_OP_DINVALL;
  wire mem_passes = x1_valid && !x1_illegal && !x1_exit && seq_in_store;  // no fault
  // gate_pass: the instruction may pass (word port: a pushing one needs room);
  // exit_held: an exit is replayed (line port only); close: the replay closes buffer
  // close_thread instead, whose line is close_line.
  wire           gate_pass, exit_held, close;
  wire [TW-1:0]  close_thread;
  wire [LNW-1:0] close_line;
  wire replay     = mem_passes && !gate_pass;
  wire mem_retire = mem_passes && !replay;
  wire close_now  = (replay || exit_held) && close;

  // ---- X1 -> X2: the branch decision in pieces ---------------------------------------------
  reg          x2_live;  // passed X1 (not illegal, exit or replayed); X2 takes out bad jumps
  reg          x2_lt, x2_ltu, x2_eq;
  reg          x2_br_always;
  reg [3:0]    x2_br_sel;
  reg          x2_ok_taken, x2_ok_not;
  reg          x2_illegal, x2_exit, x2_replay, x2_sleeps;
  reg [IW-1:0] x2_pc, x2_pc_taken, x2_pc_not;

  always @(posedge clk) begin
    if (rst) begin
      x2_upd_valid <= 1'b0;
      x2_mem_valid <= 1'b0;
      x2_live      <= 1'b0;
    end else begin
      x2_upd_valid <= x1_valid;
      x2_mem_valid <= (mem_retire && to_cache) || close_now;
      x2_live      <= x1_valid && !x1_illegal && !x1_exit && !replay;
    end
    x2_upd_thread  <= x1_thread;
    x2_pc          <= x1_pc;
    x2_lt          <= lt;
    x2_ltu         <= ltu;
    x2_eq          <= eq;
    x2_br_always   <= x1_br_always;
    x2_br_sel      <= x1_br_sel;
    x2_ok_taken    <= x1_is_jalr ? jalr_ok : target_in_store;
    x2_ok_not      <= x1_is_jalr ? jalr_ok : seq_in_store;
    x2_pc_taken    <= pc_if_taken;
    x2_pc_not      <= pc_if_not;
    x2_illegal     <= x1_illegal;
    x2_exit        <= x1_exit;
    x2_replay      <= replay || exit_held;
    x2_sleeps      <= x1_load || x1_flush;
    x2_mem_op      <= close_now ? `UMBRA_PORT_OP_WLINE : x1_mem_op;
    x2_mem_addr    <= x2_mem_addr_d;
    x2_mem_data    <= close_now ? 32'd0 : x1_mem_data;
    x2_mem_cmp     <= close_now ? 32'd0 : x1_mem_cmp;
  end

  // ---- X2: the next pc and state, the fault -------------------------------------------------
  // What X1 decided, put together: x2_upd_* reach fetch in X2 as before, a few LUTs
  // after the registers instead of at them.
  wire x2_taken    = x2_br_always || cmp_set(x2_br_sel, x2_eq, x2_lt, x2_ltu);
  wire x2_bad_jump = !x2_exit && !(x2_taken ? x2_ok_taken : x2_ok_not);
  wire x2_faulting = x2_illegal || x2_bad_jump;
  wire x2_valid    = x2_live && !x2_bad_jump;  // has work after X1
  always @* begin
    x2_upd_pc = (x2_faulting || x2_exit || x2_replay) ? x2_pc : x2_taken ? x2_pc_taken : x2_pc_not;
    x2_upd_state = (x2_faulting || (x2_exit && !x2_replay)) ? ST_EXITED :
                   (!x2_replay && x2_sleeps) ? ST_SLEEP : ST_RUN;
  end

  assign x1_push       = mem_retire && pushes;  // = retire && pushes
  assign x1_mem_op     = x1_op;
  assign x1_mem_addr   = ea;
  assign x1_mem_data   = (x1_op == `UMBRA_OP_STW) ? va : is_atomic ? vc : 32'd0;
  assign x1_mem_cmp    = va;
  assign x1_mem_thread = x1_thread;
  assign x2_mem_addr_d = close_now ? {close_line, {(32 - LNW){1'b0}}} : x1_mem_addr;

  reg [TW-1:0] x2_thread;
  wire [TW-1:0] x2_mem_thread;  // x2_thread, or the buffer a close names
  generate
    if (TW < 8) begin : g_tag_pad
      assign x2_mem_tag = {{(8 - TW){1'b0}}, x2_mem_thread};
    end else begin : g_tag_full
      assign x2_mem_tag = x2_mem_thread;
    end
  endgenerate

  // ---- X1: the line port's gate ----------------------------------------------------------
  generate
    if (LINE_PORT != 0) begin : g_gate
      localparam integer LB = 32 - LNW;
      wire [LNW-1:0] line = ea[31:LB];
      // C1's request (x2_mem_valid) and its line as the model keeps it: a memory
      // instruction's or dinv's address, a close's line, 0 for dinvall and dflush.
      reg  [LNW-1:0] c1_line;
      reg  [TW-1:0]  c1_thread;
      always @(posedge clk) begin
        c1_line   <= close_now ? close_line :
                     (x1_mem || x1_op == `UMBRA_OP_DINV) ? line : {LNW{1'b0}};
        c1_thread <= close_now ? close_thread : x1_thread;
      end
      assign x2_mem_thread = c1_thread;
      wire unused_offset = |c2_push_addr[LB-1:0];  // only the line is compared

      // The buffer holding X1's line (at most one), the lowest holding a store of X1's
      // thread.
      wire [THREADS-1:0] holds, writes;
      genvar u;
      for (u = 0; u < THREADS; u = u + 1) begin : g_cmp
        assign holds[u]  = buffer_valid[u] && buffer_line[LNW*u +: LNW] == line;
        wire [THREADS-1:0] writers = buffer_writers[THREADS*u +: THREADS];
        assign writes[u] = buffer_valid[u] && writers[x1_thread];
      end
      reg [TW-1:0] holder, writer;
      integer k;
      always @* begin
        holder = {TW{1'b0}};
        writer = {TW{1'b0}};
        for (k = THREADS - 1; k >= 0; k = k - 1) begin
          if (holds[k]) holder = k[TW-1:0];
          if (writes[k]) writer = k[TW-1:0];
        end
      end
      wire any_holder = |holds;
      wire any_writer = |writes;
      wire own_free   = !buffer_valid[x1_thread] || buffer_line[LNW*x1_thread +: LNW] == line;
      wire stw_al     = x1_op == `UMBRA_OP_STW && ea[1:0] == 2'b00;
      wire touched    = (x2_mem_valid && c1_line == line) ||
                        (c2_push_valid && c2_push_addr[31:LB] == line);
      // The model's gate (systemc/execute.cpp, execute::gate), case by case.
      reg pass_r, close_r, by_writer;
      always @* begin
        pass_r    = 1'b1;
        close_r   = 1'b0;
        by_writer = 1'b0;
        if (x1_exit || x1_flush) begin
          by_writer = 1'b1;
          pass_r    = !any_writer && (lsu_room || !pushes);
          close_r   = any_writer;
        end else if (!x1_mem) begin
          pass_r = 1'b1;
        end else if (stw_al) begin
          pass_r = own_free || lsu_room;
        end else if (touched) begin
          pass_r = 1'b0;
        end else if (any_holder) begin
          pass_r  = 1'b0;
          close_r = 1'b1;
        end else if (x1_op == `UMBRA_OP_LDW) begin
          pass_r = lsu_room;
        end else begin
          by_writer = 1'b1;
          pass_r    = !any_writer && lsu_room;
          close_r   = any_writer;
        end
      end
      assign gate_pass    = pass_r;
      assign exit_held    = x1_valid && !x1_illegal && x1_exit && any_writer;
      assign close        = close_r && lsu_room;
      assign close_thread = by_writer ? writer : holder;
      assign close_line   = buffer_line[LNW*close_thread +: LNW];
    end else begin : g_no_gate
      assign gate_pass     = !pushes || lsu_room;
      assign exit_held     = 1'b0;
      assign close         = 1'b0;
      assign close_thread  = x1_thread;
      assign close_line    = {LNW{1'b0}};
      assign x2_mem_thread = x2_thread;
      wire unused_line = |{buffer_valid, buffer_line, buffer_writers, c2_push_valid, c2_push_addr, close_thread};
    end
  endgenerate

  // The first fault is held in fault_q and its fields; in the cycle it is decided, X2,
  // the outputs show it already, so they rise in X2 as when X1 registered them.
  reg           fault_q;
  reg [TW-1:0]  fault_thread_q;
  reg [IW-1:0]  fault_pc_q;
  reg [FB-1:0]  fault_cause_q;
  wire          fault_now   = x2_upd_valid && x2_faulting && !fault_q;
  wire [FB-1:0] cause_now   = x2_illegal ? FAULT_ILLEGAL : FAULT_BAD_JUMP;
  always @(posedge clk) begin
    if (rst) begin
      fault_q        <= 1'b0;
      fault_thread_q <= {TW{1'b0}};
      fault_pc_q     <= {IW{1'b0}};
      fault_cause_q  <= FAULT_NONE;
    end else if (fault_now) begin
      fault_q        <= 1'b1;
      fault_thread_q <= x2_upd_thread;
      fault_pc_q     <= x2_pc;
      fault_cause_q  <= cause_now;
    end
  end
  always @* begin
    fault        = fault_q || fault_now;
    fault_thread = fault_now ? x2_upd_thread : fault_thread_q;
    fault_pc     = fault_now ? x2_pc : fault_pc_q;
    fault_cause  = fault_now ? cause_now : fault_cause_q;
  end

  // ---- FPU: operands in X1, result in W -----------------------------------------------
  // fpu's a, b, c are ra, rb and rd (fmadd's addend, pack's old value); unpack's lane
  // is field c itself.  A multiply's b is y (muli's immediate); for the FPU's own
  // functions y is rb.
  wire [31:0] fpu_b = (HAS_CVT && x1_op == `UMBRA_OP_UNPACK) ? {24'd0, x1_fc} : mul_y;
  wire        fpu_arith;      // X1: an add/multiply, whose result is in W
  wire [31:0] fpu_sum;        // valid in W
  wire [31:0] fpu_misc;       // valid in X<1+M>
  wire [63:0] product;        // valid in X<1+M>
  fpu #(.MUL_ROWS(MUL_ROWS), .LATENCY(L), .MISC_LATENCY(M), .FF_RAMS(FF_RAMS),
        .RAM_OUT_REG(RAM_OUT_REG), .GROUPS(GROUPS)) u_fpu (
      .clk(clk), .func(x1_op[3:0]), .a(vb), .b(fpu_b), .c(va), .arith(fpu_arith),
      .arith_result(fpu_sum), .misc_result(fpu_misc), .int_mul(mul), .int_product(product)
  );

  // ---- X1 -> X2 -------------------------------------------------------------------------
  reg            x2_sleep;
  reg [7:0]      x2_rd;
  reg            x2_we, x2_load, x2_flush;
  reg            x2_misc, x2_arith;  // an FPU function: short / add or multiply
  reg [31:0]     x2_result;
  reg            x2_mul, x2_mul_hi;

  always @(posedge clk) begin
    if (rst)
      x2_sleep <= 1'b0;
    else
      x2_sleep <= x1_sleep;
    x2_thread     <= x1_thread;
    x2_rd         <= x1_fa;
    x2_we         <= x1_we;
    x2_load       <= x1_load;
    x2_misc       <= x1_fpu && !fpu_arith;
    x2_arith      <= x1_fpu && fpu_arith;
    x2_flush      <= x1_flush;
    x2_result     <= (M < 3 && mul) ? corr_x1 : result;
    x2_mul        <= mul;
    x2_mul_hi     <= mul_hi;
  end

  // ---- the multiply's sign correction, and X2's integer results --------------------------
  // The signed high word is the unsigned one less (b if a < 0) and (a if b < 0), with a
  // the multiplier's first operand (vb) and b its second (mul_y; y's sign is mul_y's
  // wherever signed_y is set).  A multiply has no result of its own before X<1+M>, and
  // no other instruction needs a correction, so one field of the line to X<1+M> carries
  // either: x2_word.  With LATE_INT (M >= 3) the correction is added in X2 from the
  // operands as registered at the end of X1, which are the FPU's input register itself
  // once synthesis merges the identical flip-flops, so the adder is off X1's
  // operand-select path; the same adder does add and sub there (x2_ma +/- x2_mb), and
  // min/max and the set-on-compare ops take their operand or bit from the compare's
  // registered outcome.  Otherwise X1 does all of that (corr_x1, result, above).
  wire [31:0] x2_word;
  generate
    if (LATE_INT) begin : g_int_x2
      localparam [1:0] SEL_ZERO = 2'd0, SEL_A = 2'd1, SEL_B = 2'd2, SEL_NOT_B = 2'd3;
      wire        op_add = (x1_op == `UMBRA_OP_ADD) || (x1_op == `UMBRA_OP_ADDI);
      wire        op_sub = (x1_op == `UMBRA_OP_SUB);
      wire        op_mm  = (x1_op == `UMBRA_OP_MIN) || (x1_op == `UMBRA_OP_MAX) ||
                           (x1_op == `UMBRA_OP_MINU) || (x1_op == `UMBRA_OP_MAXU);
      reg  [31:0] x2_ma, x2_mb;
      reg  [1:0]  x2_sel_a, x2_sel_b;  // the adder's inputs: 0, x2_ma, x2_mb or ~x2_mb
      reg         x2_cin, x2_sum, x2_mm, x2_mm_max, x2_mm_u;
      reg  [3:0]  x2_cmp_sel;
      always @(posedge clk) begin
        x2_ma      <= vb;
        x2_mb      <= fpu_b;   // mul_y for a multiply, y for the integer ops
        x2_sel_a   <= mul ? ((signed_b && vb[31]) ? SEL_B : SEL_ZERO) : SEL_A;
        x2_sel_b   <= mul ? ((signed_y && mul_y[31]) ? SEL_A : SEL_ZERO) : op_sub ? SEL_NOT_B : SEL_B;
        x2_cin     <= op_sub;
        x2_sum     <= mul || op_add || op_sub;
        x2_mm      <= op_mm;
        x2_mm_max  <= mm_max;
        x2_mm_u    <= mm_u;
        x2_cmp_sel <= cmp_sel;
      end
      wire [31:0] add_a = (x2_sel_a == SEL_A) ? x2_ma : (x2_sel_a == SEL_B) ? x2_mb : 32'd0;
      wire [31:0] add_b = (x2_sel_b == SEL_A) ? x2_ma : (x2_sel_b == SEL_B) ? x2_mb :
                          (x2_sel_b == SEL_NOT_B) ? ~x2_mb : 32'd0;
      wire [31:0] sum     = add_a + add_b + {31'd0, x2_cin};
      wire        pick_a  = pick_vb(x2_mm_max, x2_mm_u, x2_lt, x2_ltu);
      assign x2_word = x2_sum ? sum : x2_mm ? (pick_a ? x2_ma : x2_mb) :
                       {x2_result[31:1], x2_result[0] || cmp_set(x2_cmp_sel, x2_eq, x2_lt, x2_ltu)};
      wire unused_x1 = |{corr_x1, diff[30:0], pick_b, cmp_bit};
    end else begin : g_corr_x1
      assign x2_word = x2_result;
    end
  endgenerate

  // ---- X2 -> W: the stage registers -----------------------------------------------------
  // Stages X3..X<L> and W as shift registers, index k - 3 for stage X<k> and L - 2 for
  // W; X<L>, the stage before W, gives the delay RAM's (and the return buffers') read
  // address.  The stage flags that need a reset, the threads and the pcs (only the
  // trace reads them) are flip-flops; everything else W needs waits in the RAM below.
  localparam integer NS = L - 1;  // X3..X<L>, W
  reg [NS-1:0]      s_valid, s_sleep;
  reg [TW*NS-1:0]   s_thread;
  reg [IW*NS-1:0]   s_pc;

  always @(posedge clk) begin
    if (rst) begin
      s_valid <= {NS{1'b0}};
      s_sleep <= {NS{1'b0}};
    end else begin
      s_valid <= {s_valid[NS-2:0], x2_valid};
      s_sleep <= {s_sleep[NS-2:0], x2_sleep};
    end
    s_thread <= {s_thread[TW*(NS-1)-1:0], x2_thread};
    s_pc     <= {s_pc[IW*(NS-1)-1:0], x2_pc};
  end

  always @* begin
    xl_thread = s_thread[TW*(NS-2) +: TW];
    w_valid   = s_valid[NS-1];
    w_sleep   = s_sleep[NS-1];
    w_thread  = s_thread[TW*(NS-1) +: TW];
    w_pc      = s_pc[IW*(NS-1) +: IW];
  end

  // ---- X2 -> X<1+M>: what the delay RAM takes waits for the multiplier -------------------
  // With M = 1 that is X2 itself; a longer multiplier keeps X2's fields M - 1 more
  // cycles, next to X<1+M>'s valid and thread from the stage registers.
  localparam integer XW = 32 + 8 + 7;  // result or multiply correction, rd, flags
  wire [XW-1:0] x2_fields = {x2_word, x2_rd, x2_we, x2_load, x2_flush, x2_misc, x2_arith, x2_mul,
                             x2_mul_hi};
  wire          xm_valid;
  wire [TW-1:0] xm_thread;
  wire [XW-1:0] xm_fields;
  generate
    if (M == 1) begin : g_misc_x2
      assign xm_valid  = x2_valid;
      assign xm_thread = x2_thread;
      assign xm_fields = x2_fields;
    end else begin : g_misc_late
      reg [XW*(M-1)-1:0] fields_q;
      if (M > 2) begin : g_line
        always @(posedge clk) fields_q <= {fields_q[XW*(M-2)-1:0], x2_fields};
      end else begin : g_reg
        always @(posedge clk) fields_q <= x2_fields;
      end
      assign xm_valid  = s_valid[M-2];
      assign xm_thread = s_thread[TW*(M-2) +: TW];
      assign xm_fields = fields_q[XW*(M-2) +: XW];
    end
  endgenerate

  wire [31:0] xm_result;  // a multiply's sign correction when xm_mul
  wire [7:0]  xm_rd;
  wire        xm_we, xm_load, xm_flush, xm_misc, xm_arith, xm_mul, xm_mul_hi;
  assign {xm_result, xm_rd, xm_we, xm_load, xm_flush, xm_misc, xm_arith, xm_mul, xm_mul_hi} = xm_fields;

  // ---- X<1+M>: multiply, second half -------------------------------------------------------
  wire [31:0] mul_r = xm_mul_hi ? product[63:32] - xm_result : product[31:0];

  // ---- X<1+M> -> W: the result waits for the FPU's latency -------------------------------
  // What W needs of an instruction is written into a RAM at its thread in X<1+M> and
  // read back in X<L>, out of the RAM's register in W: on an FPGA that is block RAM
  // where L - 1 stages of flip-flops would take a hundred logic cells or more.  In any
  // cycle the thread written (X<1+M>'s) and the thread read (X<L>'s) differ, since
  // L - 1 - M < THREADS.  Only an instruction with work after X1 (xm_valid) writes its
  // thread's entry, so while a thread sleeps its entry keeps the load's destination,
  // and each of its bubbles brings that to W with w_sleep (writeback needs no copy of
  // its own).
  localparam integer DW = 32 + 8 + 4;
  wire [31:0] xm_out = xm_mul ? mul_r : xm_misc ? fpu_misc : xm_result;
  (* ram_style = "block", no_rw_check *) reg [DW-1:0] delay [0:THREADS-1];
  reg [DW-1:0] w_q;
  always @(posedge clk) begin
    if (xm_valid)
      delay[xm_thread] <= {xm_out, xm_rd, xm_we, xm_load, xm_flush, xm_arith};
    w_q              <= delay[xl_thread];
  end
  wire [31:0] w_int;
  wire        w_arith;
  assign {w_int, w_rd, w_we, w_load, w_flush, w_arith} = w_q;

  // Both are registers: the FPU adder's last stage and the delay RAM's.
  assign w_result = w_arith ? fpu_sum : w_int;

endmodule

`default_nettype wire
