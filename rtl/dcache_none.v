// dcache_none: the data cache's place in a core built without one (cache.bytes: 0,
// docs/memory-system.md "No cache"), for on-chip memory, where a hit would save a
// couple of cycles and a cache costs more logic than the rest of the memory path.
// umbra_core instantiates it instead of dcache when CACHE_BYTES is 0; the SystemC
// model's dcache covers both forms, so the two are one block to the cosimulation.
//
// Same ports and stages as dcache: C1 (= X2) registers the request, C2 pushes it into
// the load/store unit's request FIFO; the entry itself the load/store unit has already
// written from X1 (rtl/load_store_unit.v, NO_CACHE), so only c2_push_valid counts here and
// the other push_* ports carry nothing.  Every ldw is a miss whose fill is its one word
// (the memory's fill length is CACHE_LINE_BYTES = 4 in such a configuration); the one
// response beat is the fill's last, and its word goes to the thread's return buffer,
// valid from the next cycle.  Nothing is kept, so stores, atomics, dinv and dinvall
// invalidate nothing, and nothing hits or merges.  What is left of the miss table is
// one bit per thread: its fill is in flight, so its response is a fill beat.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module dcache_none #(
    parameter integer THREADS = `UMBRA_DEFAULT_THREADS,
    parameter integer TW      = 3
) (
    input  wire                  clk,
    input  wire                  rst,

    input  wire                  x2_mem_valid,
    input  wire [7:0]            x2_mem_op,
    input  wire [31:0]           x2_mem_addr,
    input  wire [31:0]           x2_mem_data,
    input  wire [31:0]           x2_mem_cmp,
    input  wire [7:0]            x2_mem_tag,

    input  wire                  mem_resp_valid,
    input  wire [31:0]           mem_resp_data,
    input  wire [7:0]            mem_resp_tag,
    output wire                  fill_beat,
    output wire                  fill_done,

    output wire                  c2_push_valid,
    output wire [7:0]            c2_push_op,
    output wire [31:0]           c2_push_addr,
    output wire [31:0]           c2_push_data,
    output wire [31:0]           c2_push_cmp,
    output wire [TW-1:0]         c2_push_tag,
    output wire                  c2_push_marker,

    output wire [THREADS-1:0]    ans_valid,
    output wire [THREADS-1:0]    ans_c2,
    output wire [31:0]           ans_c2_data,
    output wire [THREADS-1:0]    ans_catch,

    output wire                  trace_cache_valid,
    output wire [TW-1:0]         trace_cache_thread,
    output wire [7:0]            trace_cache_op,
    output wire [31:0]           trace_cache_addr,
    output wire [`UMBRA_CACHE_OUTCOME_BITS-1:0] trace_cache_outcome
);

  localparam [`UMBRA_CACHE_OUTCOME_BITS-1:0] OUT_NONE = `UMBRA_CACHE_OUTCOME_NONE;
  localparam [`UMBRA_CACHE_OUTCOME_BITS-1:0] OUT_MISS = `UMBRA_CACHE_OUTCOME_MISS;
  localparam [7:0]  OP_RED_ADD = `UMBRA_OP_RED_ADD;  // 0x6_: atomics
  localparam [3:0]  GRP_ATOMIC = OP_RED_ADD[7:4];
  localparam [31:0] THREADS_U  = THREADS;

  generate
    if (TW < 8) begin : g_tag_hi
      wire unused_x2_tag_hi = |x2_mem_tag[7:TW];
    end
  endgenerate
  wire unused_x2_data = |{x2_mem_data, x2_mem_cmp};  // in the FIFO entry since X1

  reg          c2_valid;
  reg [7:0]    c2_op;
  reg [31:0]   c2_addr;
  reg [TW-1:0] c2_thread;
  always @(posedge clk) begin
    if (rst)
      c2_valid <= 1'b0;
    else
      c2_valid <= x2_mem_valid;
    c2_op     <= x2_mem_op;
    c2_addr   <= x2_mem_addr;
    c2_thread <= x2_mem_tag[TW-1:0];
  end

  wire c2_ldw    = c2_valid && c2_op == `UMBRA_OP_LDW;
  wire c2_atomic = c2_valid && c2_op[7:4] == GRP_ATOMIC;
  wire c2_store  = c2_valid && c2_op == `UMBRA_OP_STW;
  wire c2_flush  = c2_valid && c2_op == `UMBRA_OP_DFLUSH;

  // The load/store unit takes the word itself (ans_catch); here only the tag matters.
  wire unused_resp_data = |mem_resp_data;
  wire [TW-1:0] r_thread = mem_resp_tag[TW-1:0];
  wire          r_tag_ok = ({24'd0, mem_resp_tag} < THREADS_U);

  reg [THREADS-1:0] filling;  // the thread's one-word fill is in flight
  assign fill_beat = mem_resp_valid && r_tag_ok && filling[r_thread];
  assign fill_done = fill_beat;

  genvar t;
  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_thread
      localparam [31:0]   TID_U = t;
      localparam [TW-1:0] TID   = TID_U[TW-1:0];
      wire answered = fill_beat && r_thread == TID;
      always @(posedge clk) begin
        if (rst)
          filling[t] <= 1'b0;
        else if (c2_ldw && c2_thread == TID)
          filling[t] <= 1'b1;
        else if (answered)
          filling[t] <= 1'b0;
      end
      assign ans_valid[t] = answered;
      assign ans_catch[t] = answered;
    end
  endgenerate
  assign ans_c2      = {THREADS{1'b0}};
  assign ans_c2_data = 32'd0;

  assign c2_push_valid  = c2_ldw || c2_store || c2_atomic || c2_flush;
  assign c2_push_op     = 8'd0;
  assign c2_push_addr   = 32'd0;
  assign c2_push_data   = 32'd0;
  assign c2_push_cmp    = 32'd0;
  assign c2_push_tag = {TW{1'b0}};
  assign c2_push_marker = 1'b0;

  assign trace_cache_valid   = c2_valid;
  assign trace_cache_thread  = c2_thread;
  assign trace_cache_op      = c2_op;
  assign trace_cache_addr    = c2_addr;
  assign trace_cache_outcome = c2_ldw ? OUT_MISS : OUT_NONE;

endmodule

`default_nettype wire
