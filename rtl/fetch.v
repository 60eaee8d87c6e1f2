// fetch: stage F of the barrel pipeline.  Owns the slot counter, the 64-bit clock, every
// thread's pc and state, the launch registers and the instruction store.  In cycle n
// the slot belongs to thread `slot`: if that thread is RUN its instruction is read
// from the store and issued, otherwise a bubble goes down the pipe with the reason
// (idle, memory, exited).  Bubbles are the point: they make a sleeping thread's
// latency visible, and the one that reaches W is when that thread looks for its load
// data again.
//
// X1's outcome (next pc and state) arrives registered, on x2_upd_* in X2, and W's wake
// arrives registered, on wake_* in the cycle after W; both are written into the
// per-thread state (and the pc RAM) at the end of that cycle, which is what the
// contract's "at the end of X1 / of W" means for everything F can observe: X2's thread
// is never the slot's (T >= 8), and the wake can be (T = D, the depth 4 + L for L
// execute stages: W of the instruction fetched in n is in n+3+L, the same thread's
// next slot is n+4+L), so the slot's state takes the wake as it arrives.  Nothing
// here depends on L: the update comes in X2, the wake in the cycle after W.  f_busy
// is the OR of the threads' RUN/SLEEP flops.
//
// A domain launch (domain_valid, from the system's dispatcher, rtl/dispatcher.v) starts
// no thread itself: it latches the entry, `domw` and `domh`, and from then on each
// start_valid starts the lowest-numbered free (IDLE or EXITED) thread at the entry
// with the work item start_lx/start_ly, which execute keeps per thread (item_*).
// can_start says some thread is free; it comes from the state flops alone, so the
// dispatcher's choice adds no register.  A free thread has nothing in flight (its
// exit's update was its last, and a sleeping thread is not free), so a start never
// meets an update or a wake of the same thread.
//
// The instruction store is a synchronous-read RAM (block RAM): the address is the
// slot thread's pc in F, the word comes out of the RAM's register in D.  pcs are word
// indices (IW bits): X1 faults every next pc outside the store, and the host launches
// at a word address inside it, so only launch_entry[IW+1:2] is kept.
`default_nettype none

`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module fetch #(
    parameter integer THREADS    = `UMBRA_DEFAULT_THREADS,
    parameter integer IMEM_WORDS = `UMBRA_DEFAULT_IMEM_WORDS,
    parameter integer TW         = 3,
    parameter integer IW         = 12,
    parameter integer FF_RAMS    = `UMBRA_DEFAULT_FF_RAMS,  // 1: the pcs in flip-flops, not a RAM (see below)
    parameter integer DISPATCH   = 0   // 1: domain launches and starts (a system's core)
) (
    input  wire            clk,
    input  wire            rst,

    input  wire            host_imem_we,
    input  wire [31:0]     host_imem_addr,
    input  wire [31:0]     host_imem_data,
    input  wire            launch_valid,
    input  wire [31:0]     launch_count,
    input  wire [31:0]     launch_entry,
    input  wire [31:0]     launch_lx0,   // `lx` of this core's thread 0 (its cores before it)
    input  wire [31:0]     launch_domw,  // `domw`: the threads launched on every core
    input  wire            domain_valid, // a domain launch: entry, domw, domh; no thread yet
    input  wire [31:0]     domain_w,
    input  wire [31:0]     domain_h,
    input  wire            start_valid,  // start a free thread on work item start_lx/ly
    input  wire [31:0]     start_lx,
    input  wire [31:0]     start_ly,
    output wire            can_start,    // some thread is IDLE or EXITED

    // From execute, valid in X2: the X1 outcome of the instruction fetched in n-4.
    input  wire            x2_upd_valid,
    input  wire [TW-1:0]   x2_upd_thread,
    input  wire [IW-1:0]   x2_upd_pc,
    input  wire [`UMBRA_THREAD_STATE_BITS-1:0] x2_upd_state,
    // From writeback, valid in the cycle after W: that thread's data was written.
    input  wire            wake_valid,
    input  wire [TW-1:0]   wake_thread,

    // To decode, valid in D.
    output reg             d_valid,     // an instruction, not a bubble
    output reg  [TW-1:0]   d_thread,
    output reg  [IW-1:0]   d_pc,
    output reg  [31:0]     d_word,      // instruction store read data
    output reg  [`UMBRA_BUBBLE_REASON_BITS-1:0] d_reason,    // bubble reason when !d_valid
    // Core-wide registers.
    output reg  [63:0]     x1_clock,    // the cycle X1's instruction was fetched in (see below)
    output reg  [31:0]     domw,        // launch_domw of the last launch
    output reg  [31:0]     lx0,         // launch_lx0 of the last launch
    output wire [31:0]     domh,        // 1 after a thread launch, domain_h after a domain
    output wire            items,       // the last launch was a domain: `lx`/`ly` per thread
    // The started thread's work item, for execute to keep (this cycle).
    output wire            item_we,
    output wire [TW-1:0]   item_thread,
    output wire [31:0]     item_lx,
    output wire [31:0]     item_ly,
    output wire            f_busy,      // some thread is RUN or SLEEP

    // This cycle's issue event, for the cosimulation.
    output wire            trace_issue_valid,
    output wire [TW-1:0]   trace_issue_thread,
    output wire [IW-1:0]   trace_issue_pc,
    output wire [`UMBRA_BUBBLE_REASON_BITS-1:0] trace_issue_reason
);

  // Thread states and bubble reasons (docs/microarchitecture.md, "Inter-block signals").
  // Thread states and bubble reasons (rtl/umbra_uarch.vh, from isa/uarch.yaml).
  localparam integer SB = `UMBRA_THREAD_STATE_BITS;
  localparam [SB-1:0] ST_IDLE   = `UMBRA_THREAD_STATE_IDLE;
  localparam [SB-1:0] ST_RUN    = `UMBRA_THREAD_STATE_RUN;
  localparam [SB-1:0] ST_SLEEP  = `UMBRA_THREAD_STATE_SLEEP;
  localparam [SB-1:0] ST_EXITED = `UMBRA_THREAD_STATE_EXITED;
  localparam integer RB = `UMBRA_BUBBLE_REASON_BITS;
  localparam [RB-1:0] WHY_IDLE   = `UMBRA_BUBBLE_REASON_IDLE;
  localparam [RB-1:0] WHY_MEMORY = `UMBRA_BUBBLE_REASON_MEMORY;
  localparam [RB-1:0] WHY_EXITED = `UMBRA_BUBBLE_REASON_EXITED;
  // x1_clock's reset value: the contract's clock (0 in cycle 0) minus fetch -> X1.
  localparam [63:0] X1_CLOCK_AT_RESET = 64'd0 - `UMBRA_FETCH_TO_X1;

  localparam [31:0]   IMEM_WORDS_U = IMEM_WORDS;
  localparam [31:0]   LAST_U       = THREADS - 1;
  localparam [TW-1:0] LAST_SLOT    = LAST_U[TW-1:0];

  wire [IW-1:0] launch_pc = launch_entry[IW+1:2];

  // Thread t starts when launch_count > t.  Every t fits in TW bits, so one test of the
  // high bits and a TW-bit compare per thread do it (32-bit compares cost a carry
  // chain each).
  wire launch_all = (launch_count[31:TW] != {(32 - TW){1'b0}});

  // Without a dispatcher (an FPGA board's lone core) the domain inputs do nothing.
  wire domain_launch = (DISPATCH != 0) && domain_valid;
  wire start_now     = (DISPATCH != 0) && start_valid;

  // ---- slot counter, clock, launch count -------------------------------------------------
  // The only reader of the clock is `rdsr` in X1, which reads the cycle its instruction
  // was fetched in, UMBRA_FETCH_TO_X1 cycles before: so the counter here is the
  // contract's `clock` minus that (it starts below 0; cycle 0 is the first after reset),
  // and execute needs no 64-bit subtractor.
  reg  [TW-1:0] slot;
  wire [TW-1:0] next_slot = rst ? {TW{1'b0}} : (slot == LAST_SLOT) ? {TW{1'b0}} : slot + 1'b1;
  always @(posedge clk) begin
    if (rst) begin
      slot     <= {TW{1'b0}};
      x1_clock <= X1_CLOCK_AT_RESET;
      domw     <= 32'd0;
      lx0      <= 32'd0;
    end else begin
      slot     <= next_slot;
      x1_clock <= x1_clock + 64'd1;
      if (launch_valid) begin
        domw <= launch_domw;
        lx0  <= launch_lx0;
      end else if (domain_launch) begin
        domw <= domain_w;
        lx0  <= 32'd0;
      end
    end
  end

  // `domh` and the work-item flag exist only with a dispatcher.
  generate
    if (DISPATCH != 0) begin : g_domain
      reg [31:0] domh_q;
      reg        items_q;
      always @(posedge clk) begin
        if (rst || launch_valid) begin
          domh_q  <= 32'd1;
          items_q <= 1'b0;
        end else if (domain_valid) begin
          domh_q  <= domain_h;
          items_q <= 1'b1;
        end
      end
      assign domh  = domh_q;
      assign items = items_q;
    end else begin : g_no_domain
      assign domh  = 32'd1;
      assign items = 1'b0;
      wire unused_domain = ^{domain_valid, domain_h, start_valid};
    end
  endgenerate

  // ---- per-thread pc and state -----------------------------------------------------------
  // The pcs live in a small RAM (block RAM on an FPGA, where T x IW flip-flops with
  // their write and read multiplexers cost about twenty logic cells a thread), written
  // by X2's update and read a cycle early at the next slot, so the slot's pc is in the
  // RAM's register in F.  X2's thread is never the next slot's (X2 holds the thread
  // fetched 4 cycles before this one, the next slot is this one's successor, and
  // T >= 8), so no read meets a write to the same thread.  A launch would have to write
  // every starting thread at once: instead each thread has a flag that says its pc is
  // the launch's (launch_pc_q) until its first update, and one that says it is 0 (no
  // launch since reset), which is what a bubble of an idle thread shows.  no_rw_check:
  // since no read meets its write, Yosys need not build the bypass that would define
  // one.  With FF_RAMS (the HX8K at 16 threads, short of block RAMs, not of cells) the
  // pcs are flip-flops, written and read the same way.
  wire [SB*THREADS-1:0] state_vec;
  reg [IW-1:0]  pc_ram_q;
  reg [IW-1:0]  launch_pc_q;
  reg [THREADS-1:0] at_launch, at_zero;
  wire [THREADS-1:0] active_vec;

  generate
    if (FF_RAMS != 0) begin : g_pcs_ff
      reg [IW*THREADS-1:0] pcs;
      always @(posedge clk) begin
        if (x2_upd_valid)
          pcs[x2_upd_thread*IW +: IW] <= x2_upd_pc;
        pc_ram_q <= pcs[next_slot*IW +: IW];
      end
    end else begin : g_pcs_ram
      (* no_rw_check *) reg [IW-1:0] pcs [0:THREADS-1];
      always @(posedge clk) begin
        if (x2_upd_valid)
          pcs[x2_upd_thread] <= x2_upd_pc;
        pc_ram_q <= pcs[next_slot];
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst)
      launch_pc_q <= {IW{1'b0}};
    else if (launch_valid || domain_launch)
      launch_pc_q <= launch_pc;
  end

  // The thread a start takes: the lowest-numbered free one.
  wire [THREADS-1:0] free_vec;
  reg  [TW-1:0]      first_free;
  integer f;
  always @* begin
    first_free = {TW{1'b0}};
    for (f = THREADS - 1; f >= 0; f = f - 1)
      if (free_vec[f]) first_free = f[TW-1:0];
  end
  assign can_start   = (DISPATCH != 0) && (|free_vec);
  assign item_we     = start_now;
  assign item_thread = first_free;
  assign item_lx     = start_lx;
  assign item_ly     = start_ly;

  genvar t;
  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_thread
      localparam [TW-1:0] TID   = t;
      wire         starts;
      if (t == (1 << TW) - 1) begin : g_last   // count > 2^TW - 1: only the high bits
        assign starts = launch_all;
      end else begin : g_below
        assign starts = launch_all || (launch_count[TW-1:0] > TID);
      end
      wire updated = x2_upd_valid && x2_upd_thread == TID;
      wire dispatched = start_now && first_free == TID;
      reg [SB-1:0] state_q;
      always @(posedge clk) begin
        if (rst) begin
          state_q      <= ST_IDLE;
          at_launch[t] <= 1'b0;
          at_zero[t]   <= 1'b1;
        end else if ((launch_valid && starts) || dispatched) begin
          state_q      <= ST_RUN;
          at_launch[t] <= 1'b1;
          at_zero[t]   <= 1'b0;
        end else begin
          if (updated) begin
            state_q      <= x2_upd_state;
            at_launch[t] <= 1'b0;
            at_zero[t]   <= 1'b0;
          end
          if (wake_valid && wake_thread == TID && state_q == ST_SLEEP)
            state_q <= ST_RUN;
        end
      end
      assign state_vec[SB*t +: SB] = state_q;
      assign active_vec[t]       = (state_q == ST_RUN) || (state_q == ST_SLEEP);
      assign free_vec[t]         = (state_q == ST_IDLE) || (state_q == ST_EXITED);
    end
  endgenerate

  assign f_busy = |active_vec;

  // The slot thread's state as of this cycle, with a wake arriving now.
  wire [SB-1:0] held_state = state_vec[SB*slot +: SB];
  wire          woken      = wake_valid && wake_thread == slot && held_state == ST_SLEEP;
  wire [SB-1:0] slot_state = woken ? ST_RUN : held_state;
  wire [IW-1:0] slot_pc    = at_zero[slot]   ? {IW{1'b0}} :
                             at_launch[slot] ? launch_pc_q : pc_ram_q;
  wire          issue      = (slot_state == ST_RUN);
  wire [RB-1:0] reason     = (slot_state == ST_SLEEP)  ? WHY_MEMORY :
                             (slot_state == ST_EXITED) ? WHY_EXITED : WHY_IDLE;

  // ---- instruction store ------------------------------------------------------------------
  // The host writes the store only while the core is idle (the board refuses it when
  // busy), so a fetch never needs the word being written: no_rw_check spares the
  // bypass that would define that read.
  (* no_rw_check *) reg [31:0] imem [0:IMEM_WORDS-1];
  wire host_write = host_imem_we && (host_imem_addr < IMEM_WORDS_U);
  always @(posedge clk) begin
    if (host_write)
      imem[host_imem_addr[IW-1:0]] <= host_imem_data;
    d_word <= imem[slot_pc];
  end

  // ---- F -> D ------------------------------------------------------------------------------
  always @(posedge clk) begin
    if (rst) begin
      d_valid  <= 1'b0;
      d_reason <= WHY_IDLE;
    end else begin
      d_valid  <= issue;
      d_reason <= reason;
    end
    d_thread <= slot;
    d_pc     <= slot_pc;
  end

  assign trace_issue_valid  = issue;
  assign trace_issue_thread = slot;
  assign trace_issue_pc     = slot_pc;
  assign trace_issue_reason = reason;

endmodule

`default_nettype wire
