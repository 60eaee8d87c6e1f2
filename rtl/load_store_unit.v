// load_store_unit: the core's side of the generic memory port, behind the data cache
// (docs/memory-system.md, "The request FIFO and replay").
//
// The request FIFO holds up to REQ_QUEUE entries pushed by the dcache at the end of
// C2: fills, stores, atomics and dflush markers.  Its head drives the port directly
// (mem_req_valid while the head is a request), and leaves in the cycle mem_req_ready
// is high; a marker at the head never goes to the port: it leaves in that cycle and
// fills its thread's return buffer, so the thread wakes once everything pushed before
// it has been accepted.
//
// lsu_room tells execute whether an instruction that may push can pass X1: up to two
// earlier ones (in C1 and C2) may push first, so it is high in cycle c when the
// occupancy at the start of c is at most REQ_QUEUE - 3; it is a register.
//
// Return buffers, one word per thread, so that W sees a word in the cycle after it was
// made valid: filled by the dcache's answers (a hit or merge in C2, given a cycle
// later; a fill's completion), by a returning atomic's response and by a marker
// leaving the FIFO; emptied by writeback's registered wake.  rb_word is the word of
// W's thread, read at the thread of the stage before W, X<L> (rb_rthread), so that
// the read can be registered.  One buffer per thread is enough because a thread with
// a load, returning atomic or dflush outstanding sleeps until W has taken its word.
// For the same reason an empty buffer may take its word before it becomes valid: the
// dcache writes a waiting thread's word as its fill beat passes and marks it valid at
// the fill's completion.  The writers of
// one buffer never meet in a cycle (a thread waits on one thing at a time), so the
// data needs no priority beyond a mux.  A marker makes its buffer valid and writes no
// word: dflush writes no register, so its word is never read (with a cache the words
// are flip-flops, and a fourth writer was a 32-bit multiplexer input per thread).
//
// NO_CACHE (behind dcache_none) changes two things inside, none outside:
// - The FIFO entry is written at the end of X1, from execute's unregistered request
//   (x1_*), and counted when dcache_none pushes it at the end of C2, as before.  Every
//   request that passes X1 is pushed at C2, so the write pointer is at most two
//   entries ahead of the count, inside the room lsu_room keeps; and an entry is
//   written two cycles before it can be read, so the head is read synchronously with
//   no bypass.  The X2 and C2 copies of the request then feed only trace ports, and
//   synthesis drops them (about 200 flip-flops).
// - A buffer's word has one writer, the response, one per cycle, so the words live in
//   one small RAM (block RAM on an FPGA, where 8 x 32 flip-flops and their muxes cost
//   about 300 logic cells), read at X<L>'s thread; a word written in that same cycle
//   reaches W through a bypass register.  The valid bits stay flip-flops.
//
// LINE_PORT (cache.line_port; docs/memory-system.md, "The line port"; behind a cache
// only) adds the combining buffers, one per thread as in systemc/load_store_unit.h: a
// line, a word mask, the words and the threads whose stores it holds, outside the
// FIFO, no two holding one line.  An aligned stw at C2 joins the buffer holding its
// line, else its thread's buffer (pushed as a `wline` first if it holds another line)
// starts anew; execute's close (a wline op at C2, tagged with the buffer's thread)
// pushes that buffer; and in a cycle whose start finds the FIFO empty and in which C2
// pushes nothing, the lowest-numbered thread's buffer goes.  The valid bits, lines,
// masks and writer bits are flip-flops because execute's X1 compares its line with
// every buffer's (buffer_valid, buffer_line, buffer_writers).  The words, THREADS x
// line_bytes / 4 of them, have one writer a cycle (C2's store) and one reader (the
// buffer going out), so they live in one small RAM per word of the line, THREADS deep
// (distributed RAM on an FPGA that has it), read asynchronously because the buffer
// that goes out is known only in its cycle.  A FIFO entry then carries a wline's
// mask and line beside the request, and a fill's one beat is its only one.  With
// LINE_PORT 0 none of this is built and the entry is as narrow as before.
//
// lsu_busy: something is still owed at the memory side (requests in the FIFO, fills
// and returning atomics sent but not answered, and on a line port a buffer holding a
// store), from register state only.  Port misuse is the testbench's to know: a
// response whose tag names no thread, or whose thread is owed nothing, is dropped and
// raises the sticky trace_protocol_error.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module load_store_unit #(
    parameter integer THREADS   = `UMBRA_DEFAULT_THREADS,
    parameter integer TW        = 3,
    parameter integer REQ_QUEUE = `UMBRA_DEFAULT_REQ_QUEUE,
    parameter integer NO_CACHE  = 0,    // 1: behind dcache_none (see above)
    parameter integer LINE_PORT = `UMBRA_DEFAULT_LINE_PORT,    // 1: the line port's combining buffers (see above)
    parameter integer LINE_BYTES = `UMBRA_DEFAULT_LINE_BYTES,  // cache.line_bytes: the line port's width
    // core.groups: without the atomic group no atom.* is ever sent, so no thread is
    // owed an answer and the per-thread tracking below is not built.
    parameter integer GROUPS    = `UMBRA_DEFAULT_GROUPS,
    parameter integer LNW = 32 - $clog2(LINE_BYTES)  // a line number's bits (derived; not to be set)
) (
    input  wire                  clk,
    input  wire                  rst,

    // From the dcache, taken at the end of C2.
    input  wire                  c2_push_valid,
    input  wire [7:0]            c2_push_op,
    input  wire [31:0]           c2_push_addr,
    input  wire [31:0]           c2_push_data,
    input  wire [31:0]           c2_push_cmp,
    input  wire [TW-1:0]         c2_push_tag,
    input  wire                  c2_push_marker,
    // From execute, valid in X1 (NO_CACHE only): the same request, two cycles early.
    input  wire                  x1_push,
    input  wire [7:0]            x1_mem_op,
    input  wire [31:0]           x1_mem_addr,
    input  wire [31:0]           x1_mem_data,
    input  wire [31:0]           x1_mem_cmp,
    input  wire [TW-1:0]         x1_mem_thread,
    // From the dcache: return-buffer writes of this cycle.
    input  wire [THREADS-1:0]    ans_valid,
    input  wire [THREADS-1:0]    ans_c2,
    input  wire [31:0]           ans_c2_data,
    input  wire [THREADS-1:0]    ans_catch,
    input  wire [32*THREADS-1:0] ans_catch_data,  // thread t's word of the beat, at [32*t +: 32]
    // From the dcache: this cycle's response is a fill beat / its fill's last.
    input  wire                  fill_beat,
    input  wire                  fill_done,
    // From writeback, valid in the cycle after W: that thread's buffer was used.
    input  wire                  wake_valid,
    input  wire [TW-1:0]         wake_thread,
    // From execute, valid in X<L>: the thread whose word W looks at in the next cycle.
    input  wire [TW-1:0]         rb_rthread,

    output wire                  mem_req_valid,
    input  wire                  mem_req_ready,
    output wire [7:0]            mem_req_op,
    output wire [31:0]           mem_req_addr,
    output wire [31:0]           mem_req_data,
    output wire [31:0]           mem_req_cmp,
    output wire [7:0]            mem_req_tag,
    output wire [LINE_BYTES/4-1:0] mem_req_mask,   // the line port: a wline's words ...
    output wire [8*LINE_BYTES-1:0] mem_req_line,   // ... and data
    input  wire                  mem_resp_valid,
    input  wire [31:0]           mem_resp_data,
    input  wire [7:0]            mem_resp_tag,

    // Return buffers: thread t's valid bit in bit t; W's thread's word (valid in W).
    output wire [THREADS-1:0]    rb_valid,
    output wire [31:0]           rb_word,
    output reg                   lsu_room,
    output wire                  lsu_busy,

    // The combining buffers as they are at the start of the cycle (LINE_PORT), for
    // execute's X1: buffer u's valid bit, line number and writer bits (thread t's
    // store is in it) at u, [LNW*u +: LNW] and [THREADS*u + t].
    output wire [THREADS-1:0]         buffer_valid,
    output wire [LNW*THREADS-1:0]     buffer_line,
    output wire [THREADS*THREADS-1:0] buffer_writers,

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
  // One memory of whole entries {marker, thread, op, addr, data, cmp} (and on a line
  // port {mask, line} below them: XW bits): a synthesizer maps it to block RAM in one
  // piece, where separate narrow fields would be left in flip-flops.
  localparam integer WPL = LINE_BYTES / 4;                        // words a line
  localparam integer LB  = $clog2(LINE_BYTES);                    // line-offset bits
  localparam integer XW  = (LINE_PORT != 0) ? WPL + 32 * WPL : 0;
  localparam integer EW  = 1 + TW + 8 + 96 + XW;
  reg  [PW-1:0] head;
  wire [PW-1:0] tail;
  wire [CW-1:0] count;
  wire         pop;
  wire [PW-1:0] head_next = rst ? {PW{1'b0}} :
                            !pop ? head : (head == LAST_IX) ? {PW{1'b0}} : head + 1'b1;
  wire [EW-1:0] head_entry;
  // What goes into the FIFO this cycle: C2's request (push_c2), or on a line port a
  // combining buffer as a wline (push_buffer, below).  They never meet: a buffer goes only
  // when C2's own request stays out of the FIFO (it joins a buffer, it evicts its
  // thread's, or there is none).
  wire          push_c2;
  wire          push_buffer;
  wire [EW-1:0] push_entry;
  wire          buffered;     // some buffer holds a store

  generate
    if (NO_CACHE != 0) begin : g_fifo_x1
      // Written at the end of X1, a load as a one-word fill with no data (a misaligned
      // load's address goes out as computed, for the memory to refuse), read
      // synchronously at the next head.  A read
      // of the entry being written is never used (see above), so what the RAM returns
      // then does not matter: no_rw_check spares the logic that would define it.
      (* no_rw_check *) reg [EW-1:0] q [0:F-1];
      reg [PW-1:0] wtail;
      reg [EW-1:0] head_q;
      wire         x1_ldw   = x1_mem_op == `UMBRA_OP_LDW;
      wire         x1_flush = x1_mem_op == `UMBRA_OP_DFLUSH;
      always @(posedge clk) begin
        if (x1_push)
          q[wtail] <= {x1_flush, x1_mem_thread, x1_ldw ? `UMBRA_PORT_OP_FILL : x1_mem_op,
                       x1_mem_addr, x1_ldw ? 32'd0 : x1_mem_data, x1_ldw ? 32'd0 : x1_mem_cmp};
        head_q <= q[head_next];
      end
      always @(posedge clk) begin
        if (rst)
          wtail <= {PW{1'b0}};
        else if (x1_push)
          wtail <= (wtail == LAST_IX) ? {PW{1'b0}} : wtail + 1'b1;
      end
      assign head_entry = head_q;
      wire unused_push = |{c2_push_op, c2_push_addr, c2_push_data, c2_push_cmp, c2_push_tag, c2_push_marker,
                           tail, push_entry};
    end else begin : g_fifo_c2
      // The port must see the head in the cycle it arrives, so the entries are read
      // asynchronously at head; Yosys still maps them to block RAM, read at the next
      // head a cycle early, with a bypass for an entry written in that cycle.
      //
      // The entry at tail is written in every cycle the FIFO is not full, pushed or
      // not: the tail entry is not in the FIFO until the tail advances past it, so an
      // entry written and not pushed is overwritten by the next.  That keeps C2's hit
      // (and the port's ready) out of the write enables of the whole entry, where the
      // hit was the one-core ULX3S board's longest path (its tag compare, through
      // c2_push_valid, into every bit of q: docs/fpga.md, "Round four"); only the
      // pointers and the count wait for them.
      wire q_we = count != FULL;
      reg [EW-1:0] q [0:F-1];
      always @(posedge clk) begin
        if (q_we)
          q[tail] <= push_entry;
      end
      assign head_entry = q[head];
      wire unused_x1 = |{x1_push, x1_mem_op, x1_mem_addr, x1_mem_data, x1_mem_cmp,
                         x1_mem_thread, head_next};
    end
  endgenerate

  wire          head_mark   = head_entry[EW-1];
  wire          nonempty    = count != {CW{1'b0}};
  wire          head_marker = nonempty && head_mark;
  wire [TW-1:0] head_thread = head_entry[EW-2 -: TW];
  assign mem_req_valid = nonempty && !head_mark;
  assign mem_req_op    = head_entry[XW+96 +: 8];
  assign mem_req_addr  = head_entry[XW+64 +: 32];
  assign mem_req_data  = head_entry[XW+32 +: 32];
  assign mem_req_cmp   = head_entry[XW +: 32];
  generate
    if (TW < 8) begin : g_tag_pad
      assign mem_req_tag = {{(8 - TW){1'b0}}, head_thread};
    end else begin : g_tag_full
      assign mem_req_tag = head_thread;
    end
  endgenerate

  wire sent = mem_req_valid && mem_req_ready;
  assign pop = sent || head_marker;

  // ---- combining buffers (LINE_PORT) ---------------------------------------------------
  generate
    if (LINE_PORT != 0) begin : g_combine
      localparam integer OW = (WPL > 1) ? $clog2(WPL) : 1;
      localparam [7:0] OP_WLINE = `UMBRA_PORT_OP_WLINE;
      reg  [THREADS-1:0]         valid_q;
      reg  [LNW*THREADS-1:0]     line_q;
      reg  [WPL*THREADS-1:0]     mask_q;
      reg  [THREADS*THREADS-1:0] writers_q;

      wire [LNW-1:0] c2_line  = c2_push_addr[31:LB];
      wire [OW-1:0]  c2_off   = c2_push_addr[LB-1:2];
      wire           c2_wline = c2_push_valid && c2_push_op == OP_WLINE;
      wire           c2_stw   = c2_push_valid && c2_push_op == `UMBRA_OP_STW && c2_push_addr[1:0] == 2'b00;
      // The buffer holding C2's line (at most one does).
      wire [THREADS-1:0] holds;
      wire               seen = |holds;
      reg  [TW-1:0]      holder;
      reg  [TW-1:0]      lowest;  // the lowest-numbered valid buffer (the idle rule)
      integer u;
      always @* begin
        holder = {TW{1'b0}};
        lowest = {TW{1'b0}};
        for (u = THREADS - 1; u >= 0; u = u - 1) begin
          if (holds[u]) holder = u[TW-1:0];
          if (valid_q[u]) lowest = u[TW-1:0];
        end
      end
      genvar g;
      for (g = 0; g < THREADS; g = g + 1) begin : g_holds
        assign holds[g] = valid_q[g] && line_q[LNW*g +: LNW] == c2_line;
      end

      wire          own_valid = valid_q[c2_push_tag];
      // C2's store joins `holder`; else it starts its thread's buffer, which goes first if
      // it holds a line.  A close pushes its buffer if it is still there.  An idle FIFO
      // (empty at the cycle's start, nothing from C2) takes the lowest buffer.
      wire          joins     = c2_stw && seen;
      wire          starts    = c2_stw && !seen;
      wire          idle      = !c2_push_valid && buffered && !nonempty;
      wire          out_close = c2_wline && own_valid;
      wire          out_evict = starts && own_valid;
      assign        push_buffer   = out_close || out_evict || idle;
      wire [TW-1:0] out_thread    = idle ? lowest : c2_push_tag;
      assign        push_c2   = c2_push_valid && !c2_wline && !c2_stw;
      wire [TW-1:0] in_thread     = joins ? holder : c2_push_tag;  // the buffer a store writes
      wire          words_we     = c2_stw;

      // The words: one RAM per word of the line, written by C2's store, read at the
      // buffer going out; a word its mask does not name goes out as 0, as the model's.
      wire [WPL-1:0]     out_mask = mask_q[WPL*out_thread +: WPL];
      wire [32*WPL-1:0]  out_line;
      for (g = 0; g < WPL; g = g + 1) begin : g_bank
        localparam [31:0] WORD_U = g;
        reg [31:0] words [0:THREADS-1];
        always @(posedge clk) begin
          if (words_we && c2_off == WORD_U[OW-1:0])
            words[in_thread] <= c2_push_data;
        end
        assign out_line[32*g +: 32] = out_mask[g] ? words[out_thread] : 32'd0;
      end

      wire [THREADS-1:0] t_bit = {{(THREADS - 1){1'b0}}, 1'b1} << c2_push_tag;
      wire [WPL-1:0]     w_bit = {{(WPL - 1){1'b0}}, 1'b1} << c2_off;
      always @(posedge clk) begin
        if (rst) begin
          valid_q <= {THREADS{1'b0}};
        end else begin
          if (push_buffer)
            valid_q[out_thread] <= 1'b0;
          if (starts)
            valid_q[c2_push_tag] <= 1'b1;
        end
        if (starts) begin
          line_q[LNW*c2_push_tag +: LNW]            <= c2_line;
          mask_q[WPL*c2_push_tag +: WPL]            <= w_bit;
          writers_q[THREADS*c2_push_tag +: THREADS] <= t_bit;
        end else if (joins) begin
          mask_q[WPL*holder +: WPL]            <= mask_q[WPL*holder +: WPL] | w_bit;
          writers_q[THREADS*holder +: THREADS] <= writers_q[THREADS*holder +: THREADS] | t_bit;
        end
      end

      wire [LNW-1:0] out_lnum = line_q[LNW*out_thread +: LNW];
      wire [31:0]    out_addr = {out_lnum, {LB{1'b0}}};
      assign push_entry = push_buffer ? {1'b0, out_thread, OP_WLINE, out_addr, 32'd0, 32'd0, out_mask, out_line}
                                  : {c2_push_marker, c2_push_tag, c2_push_op, c2_push_addr, c2_push_data,
                                     c2_push_cmp, {XW{1'b0}}};
      assign buffered     = |valid_q;
      assign buffer_valid     = valid_q;
      assign buffer_line      = line_q;
      assign buffer_writers   = writers_q;
      assign mem_req_mask = head_entry[32*WPL +: WPL];
      assign mem_req_line = head_entry[0 +: 32*WPL];
    end else begin : g_no_combine
      assign push_c2      = c2_push_valid;
      assign push_buffer      = 1'b0;
      assign push_entry   = {c2_push_marker, c2_push_tag, c2_push_op, c2_push_addr, c2_push_data, c2_push_cmp};
      assign buffered     = 1'b0;
      assign buffer_valid     = {THREADS{1'b0}};
      assign buffer_line      = {(LNW*THREADS){1'b0}};
      assign buffer_writers   = {(THREADS*THREADS){1'b0}};
      assign mem_req_mask = {WPL{1'b0}};
      assign mem_req_line = {(32*WPL){1'b0}};
    end
  endgenerate

  // Execute's replay keeps pushes within the room, so a push never meets a full FIFO;
  // the guard keeps a broken invariant from overwriting the head.
  wire push = (push_c2 || push_buffer) && count != FULL;

  // C2's push decides late in its cycle (the tag compare, the merge decision), so it
  // is added to the count and the tail a cycle later, from a flip-flop of its own
  // (pushed_q): count_q and tail_q are the count and tail without the last cycle's
  // push.  count and tail are the same in every cycle as if the push had been added
  // before the flops; only C2's way to them is shorter (it ran from C2's address into
  // the count, the one-core ULX3S board's worst path at two seeds: docs/fpga.md,
  // "Round eight").  lsu_room stays a register: its two values, with and without a
  // push, are ready before the push is.
  reg           pushed_q;
  reg  [CW-1:0] count_q;
  reg  [PW-1:0] tail_q;
  assign count = count_q + {{(CW - 1){1'b0}}, pushed_q};
  assign tail  = !pushed_q ? tail_q : (tail_q == LAST_IX) ? {PW{1'b0}} : tail_q + 1'b1;
  wire [CW-1:0] popped     = count - {{(CW - 1){1'b0}}, pop};
  wire          room_push  = popped < ROOM_MAX;   // popped + 1 <= ROOM_MAX
  wire          room_still = popped <= ROOM_MAX;

  always @(posedge clk) begin
    if (rst) begin
      head     <= {PW{1'b0}};
      tail_q   <= {PW{1'b0}};
      count_q  <= {CW{1'b0}};
      pushed_q <= 1'b0;
      lsu_room <= 1'b1;
    end else begin
      head     <= head_next;
      tail_q   <= tail;
      count_q  <= popped;
      pushed_q <= push;
      lsu_room <= push ? room_push : room_still;
    end
  end

  // ---- responses -----------------------------------------------------------------------
  // Requests that get a one-beat response: the atom.* (value-returning) atomics.
  localparam [31:0] GROUPS_U   = GROUPS;
  localparam        HAS_ATOMIC = GROUPS_U[`UMBRA_GROUP_ATOMIC];
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
      end
      assign atom_owed[t]   = HAS_ATOMIC && owed_q;
      assign atom_answer[t] = HAS_ATOMIC && answer;
      assign rb_valid[t]    = valid_q;
    end
  endgenerate

  // ---- return-buffer words ---------------------------------------------------------------
  generate
    if (NO_CACHE != 0) begin : g_rb_ram
      // The one response of this cycle, if it answers a thread (a fill beat is always
      // its fill's only beat here).
      wire rb_we = |(ans_catch | atom_answer);
      // The bypass defines a read of the word being written; no_rw_check tells the
      // synthesizer that the RAM need not.
      (* ram_style = "block", no_rw_check *) reg [31:0] words [0:THREADS-1];
      reg [31:0]   word_q;
      reg [31:0]   bypass_word;
      reg          bypass;
      always @(posedge clk) begin
        if (rb_we)
          words[r_thread] <= mem_resp_data;
        word_q <= words[rb_rthread];
      end
      always @(posedge clk) begin
        bypass      <= rb_we && r_thread == rb_rthread;
        bypass_word <= mem_resp_data;
      end
      assign rb_word = bypass ? bypass_word : word_q;
      wire unused_c2 = |{ans_c2, ans_c2_data, ans_catch_data};  // no cache: nothing answers in C2; a beat is its word
    end else begin : g_rb_flops
      wire [32*THREADS-1:0] words;
      genvar i;
      for (i = 0; i < THREADS; i = i + 1) begin : g_word
        reg [31:0] data_q;
        always @(posedge clk) begin
          if (ans_c2[i])
            data_q <= ans_c2_data;
          else if (ans_catch[i])
            data_q <= ans_catch_data[32*i +: 32];
          else if (atom_answer[i])
            data_q <= mem_resp_data;
        end
        assign words[32*i +: 32] = data_q;
      end
      reg [TW-1:0] w_thread_q;
      always @(posedge clk)
        w_thread_q <= rb_rthread;
      assign rb_word = words[32*w_thread_q +: 32];
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

  assign lsu_busy = nonempty || (|atom_owed) || fills_owed != {(TW + 1){1'b0}} || buffered;

endmodule

`default_nettype wire
