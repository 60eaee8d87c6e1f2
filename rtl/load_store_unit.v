// load_store_unit: the core's side of the generic memory port.  In this version it is
// a pass-through: the request execute registered at the end of X1 (x2_mem_*) is on the
// port in X2, and the memory accepts it at once (mem_req_ready is always high behind
// the fixed-latency memory; the memory-system issue adds a queue here).  Responses
// carry the thread number as their tag and land in that thread's return buffer, one
// word per thread, from the cycle after they arrive; writeback reads the buffers in W
// and its registered wake empties one at the end of the cycle after W.
//
// One buffer per thread is enough because a thread with a load or returning atomic in
// flight sleeps until writeback has taken its data.  The buffers are flops, not RAM:
// W must see a word in the cycle after the response (a load answered in time for its
// own W costs its thread nothing), which a registered RAM read would miss.
//
// lsu_busy counts the loads and returning atomics still owed a response (busy =
// f_busy | lsu_busy).  Port misuse is not the core's fault but the testbench's to
// know: a request while ready is low (it is lost), a response with no thread behind
// its tag or no request outstanding (it is dropped) raise the sticky
// trace_protocol_error.
`default_nettype none

`include "umbra_isa.vh"

module load_store_unit #(
    parameter integer THREADS = 8,
    parameter integer TW      = 3
) (
    input  wire                 clk,
    input  wire                 rst,

    // From execute, valid in X2.
    input  wire                 x2_mem_valid,
    input  wire [7:0]           x2_mem_op,
    input  wire [31:0]          x2_mem_addr,
    input  wire [31:0]          x2_mem_data,
    input  wire [31:0]          x2_mem_cmp,
    input  wire [7:0]           x2_mem_tag,
    // From writeback, valid in the cycle after W: that thread's buffer was used.
    input  wire                 wake_valid,
    input  wire [TW-1:0]        wake_thread,

    output wire                 mem_req_valid,
    input  wire                 mem_req_ready,
    output wire [7:0]           mem_req_op,
    output wire [31:0]          mem_req_addr,
    output wire [31:0]          mem_req_data,
    output wire [31:0]          mem_req_cmp,
    output wire [7:0]           mem_req_tag,
    input  wire                 mem_resp_valid,
    input  wire [31:0]          mem_resp_data,
    input  wire [7:0]           mem_resp_tag,

    // Return buffers, thread t in bit t / bits 32t+31..32t.
    output wire [THREADS-1:0]   rb_valid,
    output wire [32*THREADS-1:0] rb_data,
    output reg                  lsu_busy,

    output reg                  trace_protocol_error
);

  assign mem_req_valid = x2_mem_valid;
  assign mem_req_op    = x2_mem_op;
  assign mem_req_addr  = x2_mem_addr;
  assign mem_req_data  = x2_mem_data;
  assign mem_req_cmp   = x2_mem_cmp;
  assign mem_req_tag   = x2_mem_tag;

  // Requests that get a response: ldw and the atom.* (value-returning) atomics.
  reg returns;
  always @* begin
    case (x2_mem_op)
      `UMBRA_OP_LDW, `UMBRA_OP_ATOM_ADD, `UMBRA_OP_ATOM_MIN, `UMBRA_OP_ATOM_MAX,
      `UMBRA_OP_ATOM_XCHG, `UMBRA_OP_ATOM_CAS:
        returns = 1'b1;
      default:
        returns = 1'b0;
    endcase
  end

  // ---- return buffers --------------------------------------------------------------------
  // A response fills its thread's buffer if a response is owed and the buffer is free
  // (or being emptied in this cycle), as the SystemC load/store unit has it.
  reg  [TW:0]        outstanding;  // at most one per thread is owed: TW+1 bits
  wire               owed = (outstanding != {(TW + 1){1'b0}});
  wire [THREADS-1:0] filled;
  genvar t;
  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_buffer
      localparam [7:0]    TAG = t;
      localparam [TW-1:0] TID = t;
      reg        valid_q;
      reg [31:0] data_q;
      wire       used = wake_valid && wake_thread == TID;
      wire       fill = mem_resp_valid && mem_resp_tag == TAG && owed && (!valid_q || used);
      always @(posedge clk) begin
        if (rst)
          valid_q <= 1'b0;
        else if (fill)
          valid_q <= 1'b1;
        else if (used)
          valid_q <= 1'b0;
        if (fill)
          data_q <= mem_resp_data;
      end
      assign filled[t]             = fill;
      assign rb_valid[t]           = valid_q;
      assign rb_data[32*t +: 32]   = data_q;
    end
  endgenerate

  // ---- outstanding responses, port protocol ------------------------------------------------
  wire        sent     = x2_mem_valid && mem_req_ready && returns;
  wire        answered = |filled;
  wire [TW:0] next_outstanding = outstanding + {{TW{1'b0}}, sent} - {{TW{1'b0}}, answered};

  always @(posedge clk) begin
    if (rst) begin
      outstanding          <= {(TW + 1){1'b0}};
      lsu_busy             <= 1'b0;
      trace_protocol_error <= 1'b0;
    end else begin
      outstanding <= next_outstanding;
      lsu_busy    <= next_outstanding != {(TW + 1){1'b0}};
      if ((x2_mem_valid && !mem_req_ready) || (mem_resp_valid && !answered))
        trace_protocol_error <= 1'b1;
    end
  end

endmodule

`default_nettype wire
