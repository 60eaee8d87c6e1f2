// writeback: stage W, the register file's only writer and the place a sleeping
// thread wakes.  An instruction with a computed result writes field a's register.  A
// load or returning atomic looks in its thread's return buffer: if the data is there
// it is written and the thread may issue again; if not, the thread stays asleep.
// Every later bubble of that thread that reaches W (w_sleep, once per T cycles) looks
// again, bringing the load's destination with it from execute, so a late load costs
// its thread whole rounds of T slots, as the contract says.
//
// The decision is made in W from execute's w_* registers and the buffer flops; what
// it drives is registered, valid in the cycle after W: the register-file write port
// (rf_*, the RAM takes it at the end of that cycle) and the wake (wake_*, fetch lets
// the thread issue in that very cycle's slot, the load/store unit empties the buffer).
// So data that arrives in the cycle before W still lets the thread issue in its next
// slot.  The regwrite trace event is W's, in W's cycle.  Writes to r0 are dropped and
// make no event; a load into r0 still wakes its thread.  A dflush (w_flush) sleeps and
// wakes like a load but writes nothing: its destination counts as r0.
//
// wake_* is also the wake event of the cosimulation (docs/memory-system.md, "Events"):
// the top puts it on trace_wake_*, in the cycle after W.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module writeback #(
    parameter integer THREADS = `UMBRA_DEFAULT_THREADS,
    parameter integer TW      = 3,
    parameter integer IW      = 12
) (
    input  wire                  clk,
    input  wire                  rst,

    // From execute, valid in W.
    input  wire                  w_valid,
    input  wire                  w_sleep,
    input  wire [TW-1:0]         w_thread,
    input  wire [IW-1:0]         w_pc,
    input  wire                  w_we,
    input  wire                  w_load,
    input  wire                  w_flush,
    input  wire [7:0]            w_rd,
    input  wire [31:0]           w_result,

    // Return buffers (load/store unit): valid bits, and the word of w_thread's.
    input  wire [THREADS-1:0]    rb_valid,
    input  wire [31:0]           rb_word,

    // Valid in the cycle after W.
    output reg                   rf_we,
    output reg  [TW-1:0]         rf_wthread,
    output reg  [7:0]            rf_wreg,
    output reg  [31:0]           rf_wdata,
    output reg                   wake_valid,
    output reg  [TW-1:0]         wake_thread,

    // This cycle's register write, for the cosimulation.
    output wire                  trace_regwrite_valid,
    output wire [TW-1:0]         trace_regwrite_thread,
    output wire [IW-1:0]         trace_regwrite_pc,
    output wire [7:0]            trace_regwrite_reg,
    output wire [31:0]           trace_regwrite_value
);

  wire        buffered = rb_valid[w_thread];
  wire [31:0] data     = rb_word;

  // A bubble of a sleeping thread brings its load's destination and flag with it
  // (execute keeps a sleeping thread's last instruction, rtl/execute.v); only the pc,
  // which the trace alone reads, is remembered here.
  wire [IW*THREADS-1:0] pend_pc_vec;
  wire                  waits    = w_load || w_flush;  // on the return buffer
  wire                  remember = w_valid && waits;
  wire [7:0]            dest     = w_flush ? 8'd0 : w_rd;

  genvar t;
  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_pending
      localparam [TW-1:0] TID = t;
      reg [IW-1:0] pc_q;
      always @(posedge clk) begin
        if (rst)
          pc_q <= {IW{1'b0}};
        else if (remember && w_thread == TID)
          pc_q <= w_pc;
      end
      assign pend_pc_vec[IW*t +: IW] = pc_q;
    end
  endgenerate

  // The load itself, or a later bubble of its sleeping thread, takes the data if it
  // is there.
  wire          from_load = w_valid && waits;
  wire          woken     = (from_load || (!w_valid && w_sleep)) && buffered;
  wire          computed  = w_valid && !waits && w_we;
  wire [IW-1:0] pc        = computed || from_load ? w_pc : pend_pc_vec[IW*w_thread +: IW];
  wire [31:0]   value     = computed ? w_result : data;
  wire          writes    = (computed || woken) && dest != 8'd0;

  always @(posedge clk) begin
    if (rst) begin
      rf_we      <= 1'b0;
      wake_valid <= 1'b0;
    end else begin
      rf_we      <= writes;
      wake_valid <= woken;
    end
    rf_wthread  <= w_thread;
    rf_wreg     <= dest;
    rf_wdata    <= value;
    wake_thread <= w_thread;
  end

  assign trace_regwrite_valid  = writes;
  assign trace_regwrite_thread = w_thread;
  assign trace_regwrite_pc     = pc;
  assign trace_regwrite_reg    = dest;
  assign trace_regwrite_value  = value;

endmodule

`default_nettype wire
