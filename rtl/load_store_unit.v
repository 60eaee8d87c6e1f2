// load_store_unit: the core's side of the generic memory port, behind the data cache
// (docs/memory-system.md, "The request FIFO and replay").
//
// The request FIFO holds up to REQ_QUEUE entries pushed by the dcache at the end of
// C2: fills, stores, atomics and dflush markers.  Its head drives the port directly
// (mem_req_valid while the head is a request), and leaves in the cycle mem_req_ready
// is high; a marker at the head never goes to the port: it leaves in that cycle and
// fills its thread's return buffer, so the thread wakes once everything pushed before
// it has been accepted.  The port must see the head in the cycle it arrives, so the
// entries are read asynchronously at head; Yosys still maps them to block RAM, read
// at the next head a cycle early, with a bypass for an entry written in that cycle.
//
// lsu_room tells execute whether an instruction that may push can pass X1: up to two
// earlier ones (in C1 and C2) may push first, so it is high in cycle c when the
// occupancy at the start of c is at most REQ_QUEUE - 3; it is a register.
//
// Return buffers, one word per thread, flops so that W sees a word in the cycle after
// it was made valid: filled by the dcache's answers (a hit or merge in C2, a fill's
// completion), by a returning atomic's response and by a marker leaving the FIFO;
// emptied by writeback's registered wake.  One buffer per thread is enough because a
// thread with a load, returning atomic or dflush outstanding sleeps until W has taken
// its word.  For the same reason an empty buffer may take its word before it becomes
// valid: the dcache writes a waiting thread's word as its fill beat passes and marks
// it valid at the fill's completion.  The writers of one buffer never meet in a cycle
// (a thread waits on one thing at a time), so the data needs no priority beyond a mux.
//
// lsu_busy: something is still owed at the memory side (requests in the FIFO, fills
// and returning atomics sent but not answered), from register state only.  Port
// misuse is the testbench's to know: a response whose tag names no thread, or whose
// thread is owed nothing, is dropped and raises the sticky trace_protocol_error.
`default_nettype none

`include "umbra_isa.vh"

module load_store_unit #(
    parameter integer THREADS   = 8,
    parameter integer TW        = 3,
    parameter integer REQ_QUEUE = 8
) (
    input  wire                  clk,
    input  wire                  rst,

    // From the dcache, taken at the end of C2.
    input  wire                  push_valid,
    input  wire [7:0]            push_op,
    input  wire [31:0]           push_addr,
    input  wire [31:0]           push_data,
    input  wire [31:0]           push_cmp,
    input  wire [TW-1:0]         push_thread,
    input  wire                  push_marker,
    // From the dcache: return-buffer writes of this cycle.
    input  wire [THREADS-1:0]    ans_valid,
    input  wire [THREADS-1:0]    ans_c2,
    input  wire [31:0]           ans_c2_data,
    input  wire [THREADS-1:0]    ans_catch,
    // From the dcache: this cycle's response is a fill beat / its fill's last.
    input  wire                  fill_beat,
    input  wire                  fill_done,
    // From writeback, valid in the cycle after W: that thread's buffer was used.
    input  wire                  wake_valid,
    input  wire [TW-1:0]         wake_thread,

    output wire                  mem_req_valid,
    input  wire                  mem_req_ready,
    output wire [7:0]            mem_req_op,
    output wire [31:0]           mem_req_addr,
    output wire [31:0]           mem_req_data,
    output wire [31:0]           mem_req_cmp,
    output wire [7:0]            mem_req_tag,
    input  wire                  mem_resp_valid,
    input  wire [31:0]           mem_resp_data,
    input  wire [7:0]            mem_resp_tag,

    // Return buffers, thread t in bit t / bits 32t+31..32t.
    output wire [THREADS-1:0]    rb_valid,
    output wire [32*THREADS-1:0] rb_data,
    output reg                   lsu_room,
    output wire                  lsu_busy,

    output reg                   trace_protocol_error
);

  localparam integer F  = REQ_QUEUE;
  localparam integer PW = (F > 1) ? $clog2(F) : 1;     // FIFO index bits
  localparam integer CW = $clog2(F + 1);               // occupancy 0..F
  localparam [31:0]  F_U      = F;
  localparam [31:0]  LAST_U   = F - 1;
  localparam [31:0]  ROOM_U   = F - 3;                 // REQ_QUEUE >= 4
  localparam [PW-1:0] LAST_IX  = LAST_U[PW-1:0];
  localparam [CW-1:0] FULL     = F_U[CW-1:0];
  localparam [CW-1:0] ROOM_MAX = ROOM_U[CW-1:0];
  localparam [31:0]  THREADS_U = THREADS;

  // ---- request FIFO ------------------------------------------------------------------
  // One memory of whole entries {marker, thread, op, addr, data, cmp}: a synthesizer
  // maps it to block RAM in one piece (reading at the next head), where separate
  // narrow fields would be left in flip-flops.
  localparam integer EW = 1 + TW + 8 + 96;
  reg [EW-1:0] q [0:F-1];
  reg [PW-1:0] head, tail;
  reg [CW-1:0] count;

  wire [EW-1:0] head_entry  = q[head];
  wire          head_mark   = head_entry[EW-1];
  wire          nonempty    = count != {CW{1'b0}};
  wire          head_marker = nonempty && head_mark;
  wire [TW-1:0] head_thread = head_entry[EW-2 -: TW];
  assign mem_req_valid = nonempty && !head_mark;
  assign mem_req_op    = head_entry[96 +: 8];
  assign mem_req_addr  = head_entry[64 +: 32];
  assign mem_req_data  = head_entry[32 +: 32];
  assign mem_req_cmp   = head_entry[0 +: 32];
  generate
    if (TW < 8) begin : g_tag_pad
      assign mem_req_tag = {{(8 - TW){1'b0}}, head_thread};
    end else begin : g_tag_full
      assign mem_req_tag = head_thread;
    end
  endgenerate

  wire sent = mem_req_valid && mem_req_ready;
  wire pop  = sent || head_marker;
  // Execute's replay keeps pushes within the room, so a push never meets a full FIFO;
  // the guard keeps a broken invariant from overwriting the head.
  wire push = push_valid && (count != FULL || pop);
  wire [CW-1:0] next_count = count + {{(CW - 1){1'b0}}, push} - {{(CW - 1){1'b0}}, pop};

  always @(posedge clk) begin
    if (push)
      q[tail] <= {push_marker, push_thread, push_op, push_addr, push_data, push_cmp};
  end

  always @(posedge clk) begin
    if (rst) begin
      head     <= {PW{1'b0}};
      tail     <= {PW{1'b0}};
      count    <= {CW{1'b0}};
      lsu_room <= 1'b1;
    end else begin
      if (pop)
        head <= (head == LAST_IX) ? {PW{1'b0}} : head + 1'b1;
      if (push)
        tail <= (tail == LAST_IX) ? {PW{1'b0}} : tail + 1'b1;
      count    <= next_count;
      lsu_room <= next_count <= ROOM_MAX;
    end
  end

  // ---- responses -----------------------------------------------------------------------
  // Requests that get a one-beat response: the atom.* (value-returning) atomics.
  reg returns;
  always @* begin
    case (mem_req_op)
      `UMBRA_OP_ATOM_ADD, `UMBRA_OP_ATOM_MIN, `UMBRA_OP_ATOM_MAX, `UMBRA_OP_ATOM_XCHG,
      `UMBRA_OP_ATOM_CAS:
        returns = 1'b1;
      default:
        returns = 1'b0;
    endcase
  end
  wire sent_fill = sent && mem_req_op == `UMBRA_PORT_OP_FILL;

  wire          r_tag_ok = ({24'd0, mem_resp_tag} < THREADS_U);
  wire [TW-1:0] r_thread = mem_resp_tag[TW-1:0];

  wire [THREADS-1:0] atom_owed;
  wire [THREADS-1:0] atom_answer;
  genvar t;
  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_buffer
      localparam [31:0]   TID_U = t;
      localparam [TW-1:0] TID   = TID_U[TW-1:0];
      reg        owed_q;     // a returning atomic of this thread was sent
      reg        valid_q;
      reg [31:0] data_q;
      wire answer = mem_resp_valid && r_tag_ok && r_thread == TID && owed_q && !fill_beat;
      wire marker = head_marker && head_thread == TID;
      wire used   = wake_valid && wake_thread == TID;
      always @(posedge clk) begin
        if (rst) begin
          owed_q  <= 1'b0;
          valid_q <= 1'b0;
        end else begin
          if (sent && returns && head_thread == TID)
            owed_q <= 1'b1;
          else if (answer)
            owed_q <= 1'b0;
          if (ans_valid[t] || answer || marker)
            valid_q <= 1'b1;
          else if (used)
            valid_q <= 1'b0;
        end
        if (ans_c2[t])
          data_q <= ans_c2_data;
        else if (ans_catch[t] || answer)
          data_q <= mem_resp_data;
        else if (marker)
          data_q <= 32'd0;
      end
      assign atom_owed[t]          = owed_q;
      assign atom_answer[t]        = answer;
      assign rb_valid[t]           = valid_q;
      assign rb_data[32*t +: 32]   = data_q;
    end
  endgenerate

  // Fills sent on the port and not yet complete (at most one per thread).
  reg  [TW:0] fills_owed;
  always @(posedge clk) begin
    if (rst) begin
      fills_owed           <= {(TW + 1){1'b0}};
      trace_protocol_error <= 1'b0;
    end else begin
      fills_owed <= fills_owed + {{TW{1'b0}}, sent_fill} - {{TW{1'b0}}, fill_done};
      if (mem_resp_valid && !fill_beat && !(|atom_answer))
        trace_protocol_error <= 1'b1;
    end
  end

  assign lsu_busy = nonempty || (|atom_owed) || fills_owed != {(TW + 1){1'b0}};

endmodule

`default_nettype wire
