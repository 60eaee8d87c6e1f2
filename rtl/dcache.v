// dcache: the core's data cache (docs/memory-system.md, "The cache pipeline inside the
// core" and "Fills and the line buffer").  Write-through, write-invalidate, no write
// allocate; CACHE_WAYS-way set associative, lines of CACHE_LINE_BYTES.
//
// Two stages.  C1 (= X2, the request on x2_mem_*) presents the request's set to the
// tag and data RAMs, which read at its end; C2 (the next cycle) decides: hit, merge,
// miss, invalidations, a push into the load/store unit's request FIFO, a hit's word
// into its thread's return buffer.  C2 sees the cache as it is at the start of its
// cycle: valid bits, round-robin pointers and the miss table are flops read in C2;
// tags and data come out of the RAMs' read registers, and where the fill logic wrote
// the very word (or tag) being read at the end of C1 the written value is bypassed,
// because a block RAM's read does not see a write in the same cycle.
//
// Tags and data are in block RAM, one tag RAM and one data RAM per way, each with one
// registered read port and one write port (the fill beats: the data RAM takes every
// beat, the tag RAM the first).  Stores never write the data RAM (they invalidate),
// which is what keeps it at one write port.  The data RAM reads C1's set.  The tag RAM
// reads it a cycle earlier, at the end of X1 (x2_mem_addr_d), and its word goes through
// a register at the end of C1, so C2's tag compare starts at a flip-flop, not at a
// block RAM's slow output: that is what lets the tags leave distributed RAM for block
// RAM on the ECP5 (a way's 64 x 21 bits took 24 DPR16X4, 144 logic cells; docs/fpga.md,
// "Round eleven").  Fill writes those reads miss are bypassed where they can matter
// (TAG_BYPASS, below).  Valid bits, the round-robin victim pointers and the miss table
// (one entry per thread) are flops because C2 and the fill logic read several of them
// at once.
//
// The contract's line buffer (docs/memory-system.md, "Fills and the line buffer") has
// no storage of its own here: every beat, no-allocate fills included, is written into
// the victim way's data RAM, where C1's read of the same set finds the words a C2
// merge needs; and a waiting thread's word goes into its return buffer as its beat
// passes (ans_catch), to be made valid at the completion.  Both are invisible from
// outside: W only reads a return buffer once it is valid.  This keeps the line buffer,
// a second word per thread and their multiplexers out of the core.
//
// Fill responses come straight from the memory port: a beat whose tag names a thread
// that is the primary of a fill in flight (its miss-table entry carries its own
// number) is a fill beat; the load/store unit takes every other response.  Beats of
// one fill arrive on consecutive cycles and never interleave with another response,
// so one beat counter serves every fill.  RESP_AHEAD (set by umbra_system with its
// response register, memory.response_register) gives the next cycle's response tag a
// cycle early, and whether it is a fill beat and the fill's line are looked up from it
// into registers: the same answers, off the path from the response to the valid bits
// and the tag RAM's write.
//
// Answers go to the load/store unit's return buffers combinationally and are written
// there at the end of the cycle: ans_c2 writes C2's word (a hit's, or a merge's whose
// word has already arrived) into C2's thread's buffer, ans_catch the response beat
// into the buffers of the threads whose word it is, and ans_valid marks buffers full
// (a C2 hit, and at a fill's completion every thread waiting on it plus a C2 merge
// into it in the same cycle).  C2's own answers (ans_c2, and ans_valid for C2's
// thread) are registered and given in the cycle after C2 (C3): the load reaches W at
// X<L+1>, at least two cycles after C2 (= X3, L >= 4), so W finds the same buffer in
// the same cycle, while the tag compare drives a register of one word instead of every
// thread's buffer (the one-core ULX3S board's worst path at two seeds: docs/fpga.md,
// "Round eight").  The push (push_*) is taken into the request FIFO at the end of C2.
//
// LINE_PORT (cache.line_port; docs/memory-system.md, "The line port"): a fill's one
// beat carries the whole line (mem_resp_line), so it is the fill's first and last: it
// picks the victim, writes the line and completes the fill in one cycle.  The data RAM
// is then a line wide (one write of the whole line; C2 picks its word from the line
// read in C1), each waiting thread takes its word from the beat at its miss-table
// offset (ans_catch_data), and a line made valid by the completion stays valid
// whatever the victim's first-beat clear says, since both are this cycle.  A `wline`
// op from execute (the close of a combining buffer) passes C1 and C2 untouched into
// the push, with no cache event.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module dcache #(
    parameter integer THREADS          = `UMBRA_DEFAULT_THREADS,
    parameter integer TW               = 3,
    parameter integer CACHE_BYTES      = `UMBRA_DEFAULT_CACHE_BYTES,
    parameter integer CACHE_WAYS       = `UMBRA_DEFAULT_CACHE_WAYS,
    parameter integer CACHE_LINE_BYTES = `UMBRA_DEFAULT_CACHE_LINE_BYTES,
    parameter integer LINE_PORT        = `UMBRA_DEFAULT_LINE_PORT,  // 1: fills in one line-wide beat (above)
    parameter integer RESP_AHEAD       = 0   // 1: fill beat and line from mem_resp_ahead_tag (above)
) (
    input  wire                  clk,
    input  wire                  rst,

    // From execute, valid in X2 = C1.
    input  wire                  x2_mem_valid,
    input  wire [7:0]            x2_mem_op,
    input  wire [31:0]           x2_mem_addr,
    input  wire [31:0]           x2_mem_data,
    input  wire [31:0]           x2_mem_cmp,
    input  wire [7:0]            x2_mem_tag,
    input  wire [31:0]           x2_mem_addr_d,  // in X1: the address C1 will have (the tag read)
    input  wire                  inval_all,   // the command processor's `invalidate`: as a dinvall in C2

    // Responses from the memory port (the fill beats among them).
    input  wire                  mem_resp_valid,
    input  wire [31:0]           mem_resp_data,
    input  wire [7:0]            mem_resp_tag,
    input  wire [8*CACHE_LINE_BYTES-1:0] mem_resp_line,  // a fill's line (LINE_PORT)
    input  wire [7:0]            mem_resp_ahead_tag,     // RESP_AHEAD: next cycle's mem_resp_tag
    output wire                  fill_beat,     // this response is a fill beat (taken here)
    output wire                  fill_done,     // ... and the last one of its fill

    // Into the request FIFO at the end of C2.
    output wire                  c2_push_valid,
    output wire [7:0]            c2_push_op,
    output wire [31:0]           c2_push_addr,
    output wire [31:0]           c2_push_data,
    output wire [31:0]           c2_push_cmp,
    output wire [TW-1:0]         c2_push_tag,
    output wire                  c2_push_marker,   // a dflush marker: never on the port

    // Into the return buffers at the end of this cycle.
    output wire [THREADS-1:0]    ans_valid,   // the buffer is full from the next cycle
    output wire [THREADS-1:0]    ans_c2,      // write ans_c2_data (one-hot: the thread of last cycle's C2)
    output wire [31:0]           ans_c2_data,
    output wire [THREADS-1:0]    ans_catch,   // write ans_catch_data's word
    output wire [32*THREADS-1:0] ans_catch_data,  // thread t's word of the beat at [32*t +: 32]

    // The cache event of this cycle's C2 (docs/memory-system.md, "Events").
    output wire                  trace_cache_valid,
    output wire [TW-1:0]         trace_cache_thread,
    output wire [7:0]            trace_cache_op,
    output wire [31:0]           trace_cache_addr,
    output wire [`UMBRA_CACHE_OUTCOME_BITS-1:0] trace_cache_outcome
);

  // ---- geometry -----------------------------------------------------------------------
  localparam integer WAYS = CACHE_WAYS;
  localparam integer WPL  = CACHE_LINE_BYTES / 4;                  // words per line, >= 2
  localparam integer OW   = $clog2(WPL);                           // word-offset bits
  localparam integer LB   = $clog2(CACHE_LINE_BYTES);              // line-offset bits
  localparam integer SETS = CACHE_BYTES / (CACHE_WAYS * CACHE_LINE_BYTES);
  localparam integer SW   = $clog2(SETS);                          // 0 for one set
  localparam integer SI   = (SW > 0) ? SW : 1;                     // set index as stored
  localparam integer LW   = 32 - LB;                               // line number bits
  localparam integer TAGW = LW - SW;
  localparam integer WW   = (WAYS > 1) ? $clog2(WAYS) : 1;         // way number bits

  // Cache outcomes (rtl/umbra_uarch.vh, from isa/uarch.yaml).
  localparam integer OB = `UMBRA_CACHE_OUTCOME_BITS;
  localparam [OB-1:0] OUT_NONE  = `UMBRA_CACHE_OUTCOME_NONE;
  localparam [OB-1:0] OUT_HIT   = `UMBRA_CACHE_OUTCOME_HIT;
  localparam [OB-1:0] OUT_MISS  = `UMBRA_CACHE_OUTCOME_MISS;
  localparam [OB-1:0] OUT_MERGE = `UMBRA_CACHE_OUTCOME_MERGE;

  localparam [7:0] OP_RED_ADD = `UMBRA_OP_RED_ADD;  // 0x6_: atomics
  localparam [3:0] GRP_ATOMIC = OP_RED_ADD[7:4];
  localparam [7:0] OP_FILL    = `UMBRA_PORT_OP_FILL;

  localparam [31:0]   WPL_U = WPL;
  localparam [OW-1:0] LAST  = WPL_U[OW-1:0] - 1'b1;                // the last word's offset

  // ---- thread numbers -------------------------------------------------------------------
  // Tags are 8 bits at the port; only thread numbers below THREADS name a thread.
  localparam [31:0] THREADS_U = THREADS;
  wire [TW-1:0] x2_thread = x2_mem_tag[TW-1:0];
  wire [TW-1:0] r_thread  = mem_resp_tag[TW-1:0];
  // Only a tag below THREADS names a thread (a response's, or with RESP_AHEAD next cycle's).
  function names_thread(input [7:0] tag);
    names_thread = {24'd0, tag} < THREADS_U;
  endfunction
  generate
    if (TW < 8) begin : g_tag_hi
      // Execute's tag is the thread number zero-extended: the high bits carry nothing.
      wire unused_x2_tag_hi = |x2_mem_tag[7:TW];
    end
  endgenerate

  // ---- C1 -> C2 -------------------------------------------------------------------------
  reg          c2_valid;
  reg [7:0]    c2_op;
  reg [31:0]   c2_addr, c2_data, c2_cmp;
  reg [TW-1:0] c2_thread;
  always @(posedge clk) begin
    if (rst)
      c2_valid <= 1'b0;
    else
      c2_valid <= x2_mem_valid;
    c2_op     <= x2_mem_op;
    c2_addr   <= x2_mem_addr;
    c2_data   <= x2_mem_data;
    c2_cmp    <= x2_mem_cmp;
    c2_thread <= x2_thread;
  end

  wire [LW-1:0]   c2_line   = c2_addr[31:LB];
  wire [SI-1:0]   c2_set;
  wire [TAGW-1:0] c2_tag    = c2_line[LW-1:SW];
  wire [OW-1:0]   c2_off    = c2_addr[LB-1:2];
  wire            c2_ldw    = c2_valid && c2_op == `UMBRA_OP_LDW;
  wire            c2_atomic = c2_valid && c2_op[7:4] == GRP_ATOMIC;
  wire            c2_store  = c2_valid && c2_op == `UMBRA_OP_STW;
  wire            c2_flush  = c2_valid && c2_op == `UMBRA_OP_DFLUSH;
  wire            c2_dinvall = c2_valid && c2_op == `UMBRA_OP_DINVALL;
  // Invalidates its line and marks a fill of it no-allocate.
  wire            c2_inv    = c2_store || c2_atomic || (c2_valid && c2_op == `UMBRA_OP_DINV);

  wire [SI-1:0]   c0_set;  // in X1: the set the tag RAMs read for the next C1
  wire [SI-1:0]   c1_set;
  wire [OW-1:0]   c1_off  = x2_mem_addr[LB-1:2];
  wire [LW-1:0]   c1_line = x2_mem_addr[31:LB];
  wire            c2_line_is_c1s = c2_line == c1_line;  // C2's line is the next C2's

  // ---- miss table (declared here, filled in below) ---------------------------------------
  wire [THREADS-1:0]    mt_na;       // the fill this entry waits on is no-allocate
  wire [THREADS-1:0]    mt_primary;  // this thread's own fill is in flight
  wire [LW*THREADS-1:0] mt_line;
  wire [TW*THREADS-1:0] mt_tag;

  // ---- fill beats ------------------------------------------------------------------------
  reg  [OW-1:0] beat_q;    // the next beat's word number
  reg  [WW-1:0] victim_q;  // the current fill's way, chosen at its first beat
  // Whether the response is a fill beat, and the fill's line.  With RESP_AHEAD (the
  // system registers each core's responses and sends the register's input as
  // mem_resp_ahead_tag) both are looked up a cycle early and registered, which takes
  // the miss table's multiplexers off the path from the response to the valid bits and
  // the tag RAM's write (the one-core ULX3S board's seed-3 path, docs/fpga.md, "Round
  // five").  The lookups agree: a fill beat's thread is the fill's primary, asleep on
  // it from its miss, long before, to the fill's last beat, so its entry is valid and
  // its own, and its line unwritten, in both cycles (line_q below); a thread that is
  // not asleep on a fill has nothing outstanding that answers (stores get no response).
  wire            r_primary;
  wire [LW-1:0]   f_line;
  generate
    if (RESP_AHEAD != 0) begin : g_ahead
      wire [TW-1:0] a_thread = mem_resp_ahead_tag[TW-1:0];
      reg           r_primary_q;
      reg [LW-1:0]  f_line_q;
      always @(posedge clk) begin
        r_primary_q <= names_thread(mem_resp_ahead_tag) && mt_primary[a_thread];
        f_line_q    <= mt_line[LW*a_thread +: LW];
      end
      assign r_primary = r_primary_q;
      assign f_line    = f_line_q;
      if (TW < 8) begin : g_resp_tag_hi
        wire unused_resp_tag_hi = |mem_resp_tag[7:TW];  // checked a cycle early, above
      end
    end else begin : g_now
      assign r_primary = names_thread(mem_resp_tag) && mt_primary[r_thread];
      assign f_line    = mt_line[LW*r_thread +: LW];
      wire unused_ahead = |mem_resp_ahead_tag;
    end
  endgenerate
  assign fill_beat = mem_resp_valid && r_primary;
  wire          first_beat = fill_beat && beat_q == {OW{1'b0}};
  assign fill_done = fill_beat && (LINE_PORT != 0 || beat_q == LAST);
  wire [SI-1:0]   f_set;
  wire [TAGW-1:0] f_tag  = f_line[LW-1:SW];

  // The set is the low bits of the line number; a one-set cache has only set 0.
  generate
    if (SW > 0) begin : g_sets
      assign c0_set = x2_mem_addr_d[LB+SW-1:LB];
      wire unused_addr_d = |{x2_mem_addr_d[31:LB+SW], x2_mem_addr_d[LB-1:0]};
      assign c1_set = x2_mem_addr[LB+SW-1:LB];
      assign c2_set = c2_line[SW-1:0];
      assign f_set  = f_line[SW-1:0];
    end else begin : g_one_set
      assign c0_set = 1'b0;
      wire unused_addr_d = |x2_mem_addr_d;
      assign c1_set = 1'b0;
      assign c2_set = 1'b0;
      assign f_set  = 1'b0;
    end
  endgenerate

  // A C2 invalidation of the completing fill's line in the completion cycle counts.
  wire inval_now = c2_dinvall || inval_all;
  wire f_na = mt_na[r_thread] || inval_now || (c2_inv && c2_line == f_line);
  wire f_allocate = fill_done && !f_na;

  // ---- valid bits and victim choice --------------------------------------------------------
  wire [SETS*WAYS-1:0] valid_vec;
  wire [WW*SETS-1:0]   rr_vec;
  wire [WAYS-1:0]      c2_set_valid = valid_vec[WAYS*c2_set +: WAYS];

  // Each set's own victim, from its own valid bits and pointer: the lowest invalid way,
  // else the round-robin pointer (set_full).  The valid bits and pointer of a set are
  // updated from that set's victim, not from the fill's victim picked out of all sets,
  // so no set's next state waits for the mux that picks f_set's (it was the one-core
  // ULX3S board's longest path, the response's tag through f_line and that mux into
  // every valid bit: docs/fpga.md, "Round four").  Only the RAMs' write enables and
  // victim_q take the picked victim.
  reg [WW*SETS-1:0] set_victim;
  reg [SETS-1:0]    set_full;
  integer i, s;
  always @* begin
    for (s = 0; s < SETS; s = s + 1) begin
      set_victim[WW*s +: WW] = rr_vec[WW*s +: WW];
      set_full[s]            = 1'b1;
      for (i = WAYS - 1; i >= 0; i = i - 1)
        if (!valid_vec[WAYS*s + i]) begin
          set_victim[WW*s +: WW] = i[WW-1:0];
          set_full[s]            = 1'b0;
        end
    end
  end
  wire [WW-1:0] victim_new = set_victim[WW*f_set +: WW];
  wire [WW-1:0] victim     = first_beat ? victim_new : victim_q;

  always @(posedge clk) begin
    if (rst) begin
      beat_q   <= {OW{1'b0}};
      victim_q <= {WW{1'b0}};
    end else if (fill_beat) begin
      beat_q <= fill_done ? {OW{1'b0}} : beat_q + 1'b1;
      if (first_beat)
        victim_q <= victim_new;
    end
  end

  // ---- tag and data RAMs, one pair per way ----------------------------------------------
  wire [WAYS-1:0]      c2_way_hit;
  wire [32*WAYS-1:0]   c2_way_data;

  // A tag write the RAM's read missed matters only to a C2 that finds the way valid.  A
  // fill's first beat writes the tag and clears the victim's valid bit, and its last
  // beat sets it; with words as beats and three or more a line, that is two cycles or
  // more after the tag write, so a C2 that could miss the write (the next two cycles)
  // sees the way invalid whatever the tag.  The bypasses are kept where that fails: on
  // a line port (one beat is both) and with two-word lines (configs/test-nofp.yaml's:
  // without them most of its random cosimulation seeds fail).
  localparam integer TAG_BYPASS = (LINE_PORT != 0 || WPL == 2) ? 1 : 0;
  reg [TAGW-1:0] f_tag_q;  // last cycle's fill tag, for the tag RAMs' bypasses
  always @(posedge clk)
    f_tag_q <= f_tag;

  genvar w, t;
  generate
    for (w = 0; w < WAYS; w = w + 1) begin : g_way
      localparam [31:0]   WAY_U = w;
      localparam [WW-1:0] WAY   = WAY_U[WW-1:0];
      wire tag_we  = first_beat && victim == WAY;
      wire data_we = fill_beat && victim == WAY;
      wire [SI+OW-1:0] d_waddr = {f_set, beat_q};
      wire [SI+OW-1:0] d_raddr = {c1_set, c1_off};

      (* ram_style = "block", no_rw_check *) reg [TAGW-1:0] tag_ram [0:(1 << SI)-1];
      reg [TAGW-1:0] tag_c1, tag_rd;
      reg            tag_hit_c0, tag_hit_c1;

      always @(posedge clk) begin
        if (tag_we)
          tag_ram[f_set] <= f_tag;
        tag_c1 <= tag_ram[c0_set];
      end
      // The writes the RAM's read missed: the one at the end of X1, folded in before the
      // register, and the one at the end of C1, after it (TAG_BYPASS, above).
      always @(posedge clk) begin
        tag_hit_c0 <= TAG_BYPASS != 0 && tag_we && f_set == c0_set;
        tag_hit_c1 <= TAG_BYPASS != 0 && tag_we && f_set == c1_set;
        tag_rd     <= tag_hit_c0 ? f_tag_q : tag_c1;
      end

      if (LINE_PORT != 0) begin : g_line_ram
        // A line a RAM word: the one beat writes it, C2 picks its word.
        reg [32*WPL-1:0] data_ram [0:(1 << SI)-1];
        reg [32*WPL-1:0] data_rd, data_bypass;
        reg              data_hit_write;
        always @(posedge clk) begin
          if (data_we)
            data_ram[f_set] <= mem_resp_line;
          data_rd <= data_ram[c1_set];
        end
        always @(posedge clk) begin
          data_hit_write <= data_we && f_set == c1_set;
          data_bypass    <= mem_resp_line;
        end
        wire [32*WPL-1:0] line_now = data_hit_write ? data_bypass : data_rd;
        assign c2_way_data[32*w +: 32] = line_now[32*c2_off +: 32];
        wire unused_addr = |{d_waddr, d_raddr};
      end else begin : g_word_ram
        reg [31:0]     data_ram [0:(1 << (SI + OW))-1];
        reg [31:0]     data_rd, data_bypass;
        reg            data_hit_write;
        always @(posedge clk) begin
          if (data_we)
            data_ram[d_waddr] <= mem_resp_data;
          data_rd <= data_ram[d_raddr];
        end
        always @(posedge clk) begin
          data_hit_write <= data_we && d_waddr == d_raddr;
          data_bypass    <= mem_resp_data;
        end
        assign c2_way_data[32*w +: 32] = data_hit_write ? data_bypass : data_rd;
      end

      wire [TAGW-1:0] tag_now = tag_hit_c1 ? f_tag_q : tag_rd;
      assign c2_way_hit[w]            = c2_set_valid[w] && tag_now == c2_tag;
    end
  endgenerate

  // At most one way holds a line, so an OR of the masked words is the hit's word.
  reg [31:0] hit_data;
  always @* begin
    hit_data = 32'd0;
    for (i = 0; i < WAYS; i = i + 1)
      if (c2_way_hit[i])
        hit_data = hit_data | c2_way_data[32*i +: 32];
  end
  wire c2_hit_any = |c2_way_hit;

  // The valid bits as one vector, updated through masks, not one always block per bit:
  // a clear (a C2 invalidation, the victim's first beat, dinvall) wins over the
  // completing fill's make, as it would in a per-bit `if (clear) ... else if (make)`.
  // (Per-bit registers cost the Verilated model a third of its evaluation time.)
  function [WAYS-1:0] way_bit(input [WW-1:0] way);
    integer k;
    begin
      for (k = 0; k < WAYS; k = k + 1)
        way_bit[k] = way == k[WW-1:0];
    end
  endfunction
  // Each set's masks come from a compare of the set index with that set's constant (a
  // one-hot decode), not from a part-select at a variable offset: Yosys renders the
  // latter as a range check and a shifter over the whole vector, which was the ULX3S
  // board's deepest path into these bits (docs/fpga.md, "ULX3S timing").
  reg [SETS*WAYS-1:0] lines_valid_q, clear_bits, make_bits;
  always @* begin
    for (s = 0; s < SETS; s = s + 1) begin
      clear_bits[WAYS*s +: WAYS] = {WAYS{inval_now}}
                                 | ((c2_inv && c2_set == s[SI-1:0]) ? c2_way_hit : {WAYS{1'b0}})
                                 | ((first_beat && f_set == s[SI-1:0]) ? way_bit(set_victim[WW*s +: WW])
                                                                       : {WAYS{1'b0}});
      make_bits[WAYS*s +: WAYS]  = (f_allocate && f_set == s[SI-1:0])
                                 ? way_bit(first_beat ? set_victim[WW*s +: WW] : victim_q) : {WAYS{1'b0}};
    end
  end
  always @(posedge clk) begin
    if (rst)
      lines_valid_q <= {SETS*WAYS{1'b0}};
    else if (LINE_PORT != 0)
      lines_valid_q <= (lines_valid_q & ~clear_bits) | make_bits;  // the one beat: clear, then make
    else
      lines_valid_q <= (lines_valid_q | make_bits) & ~clear_bits;
  end
  assign valid_vec = lines_valid_q;

  // Each set's round-robin victim pointer, advanced when a fill of the set finds no
  // invalid way; WAYS is a power of two, so a pointer wraps by itself.
  generate
    if (WAYS > 1) begin : g_rr
      reg [WW*SETS-1:0] rr_q;
      integer r;
      always @(posedge clk) begin
        if (rst)
          rr_q <= {WW*SETS{1'b0}};
        else
          for (r = 0; r < SETS; r = r + 1)
            if (first_beat && set_full[r] && f_set == r[SI-1:0])
              rr_q[WW*r +: WW] <= rr_q[WW*r +: WW] + 1'b1;
      end
      assign rr_vec = rr_q;
    end else begin : g_no_rr
      assign rr_vec = {WW*SETS{1'b0}};
      wire unused_full = |set_full;  // one way: the victim is way 0 either way
    end
  endgenerate

  // ---- C2: the outcome --------------------------------------------------------------------
  // A merge joins the fill in flight for the line that still allocates (at most one).
  wire [THREADS-1:0] line_eq;
  wire [THREADS-1:0] joinable;
  reg  [TW-1:0]      merge_tag;
  always @* begin
    merge_tag = {TW{1'b0}};
    for (i = 0; i < THREADS; i = i + 1)
      if (joinable[i])
        merge_tag = merge_tag | mt_tag[TW*i +: TW];
  end
  // A misaligned load neither hits nor merges: its own fill carries the address as
  // computed, for the memory to refuse, and never allocates.
  wire c2_mis    = c2_addr[1:0] != 2'b00;
  wire c2_hit    = c2_ldw && !c2_mis && c2_hit_any;
  wire c2_joins  = !c2_mis && |joinable;  // a merge if it is a load that misses
  wire c2_merge  = c2_ldw && !c2_hit_any && c2_joins;
  wire c2_miss   = c2_ldw && (c2_mis || (!c2_hit_any && !(|joinable)));
  // A merge into the fill completing in this very cycle is answered with C2's answers
  // (C3, below), not by the completion.
  wire merge_now = c2_merge && fill_done && merge_tag == r_thread;

  // A merge into the fill receiving beats in this very cycle whose word has arrived
  // (its offset at most the beat's): the word is this beat or an earlier one, which is
  // in the fill's victim way (the line's set was read in C1, the bypass covering a beat
  // written in C1).  A merge in the completion cycle is one of these.  On a line port
  // the beat is the whole line.  A merge whose word is still to come catches it from
  // its beat (ans_catch).
  wire        c2_word_here  = c2_merge && fill_beat && merge_tag == r_thread &&
                              (LINE_PORT != 0 || c2_off <= beat_q);
  wire [31:0] c2_word_now   = (LINE_PORT != 0) ? mem_resp_line[32*c2_off +: 32] :
                              (c2_off == beat_q) ? mem_resp_data : c2_way_data[32*victim_q +: 32];

  // C2's answer, a cycle later (C3, above): the buffer made valid (a hit, or a merge
  // into the fill completing now) and the word written (a hit, or a merge whose word
  // is here).  The thread waits on nothing else, so no other answer meets it in C3.
  reg          c3_valid, c3_word;
  reg [TW-1:0] c3_thread;
  reg [31:0]   c3_data;
  always @(posedge clk) begin
    if (rst) begin
      c3_valid <= 1'b0;
      c3_word  <= 1'b0;
    end else begin
      c3_valid <= c2_hit || merge_now;
      c3_word  <= c2_hit || c2_word_here;
    end
    c3_thread <= c2_thread;
    c3_data   <= c2_hit ? hit_data : c2_word_now;
  end
  assign ans_c2_data = c3_data;

  generate
    for (t = 0; t < THREADS; t = t + 1) begin : g_entry
      localparam [31:0]   TID_U = t;
      localparam [TW-1:0] TID   = TID_U[TW-1:0];
      reg          valid_q, na_q;
      reg [LW-1:0] line_q;
      // line_q == c2_line, computed in C1 against the entry's next line and registered:
      // the compare was the front of C2's merge decision into the load/store unit
      // (docs/fpga.md, "ULX3S timing").  C2's line is C1's address, taken every cycle.
      reg          line_eq_q;
      reg [OW-1:0] off_q;
      reg [TW-1:0] tag_q;
      wire mine      = c2_thread == TID;
      wire completes = fill_done && valid_q && tag_q == r_thread;
      wire marked    = valid_q && (inval_now || (c2_inv && line_eq_q));
      always @(posedge clk) begin
        if (rst) begin
          valid_q <= 1'b0;
          na_q    <= 1'b0;
        end else if (mine && (c2_miss || (c2_merge && !merge_now))) begin
          valid_q <= 1'b1;
          na_q    <= c2_miss && c2_mis;
        end else begin
          if (completes)
            valid_q <= 1'b0;
          if (marked)
            na_q <= 1'b1;
        end
        // Line, offset and tag are written by any request of the entry's thread in C2,
        // hit or not: an entry is valid only while its thread sleeps on it, so no
        // request of the thread reaches C2 then, and the bits of an invalid entry are
        // read by nothing.  So C2's tag compare enables only valid_q and na_q (it was
        // the one-core board's longest path into these enables: docs/fpga.md, "Round
        // four").
        if (mine && c2_valid) begin
          line_q <= c2_line;
          off_q  <= c2_off;
          tag_q  <= c2_joins ? merge_tag : TID;
        end
        line_eq_q <= (mine && c2_valid) ? c2_line_is_c1s : line_q == c1_line;
      end
      assign mt_na[t]              = na_q;
      assign mt_primary[t]         = valid_q && tag_q == TID;
      assign mt_line[LW*t +: LW]   = line_q;
      assign mt_tag[TW*t +: TW]    = tag_q;
      assign line_eq[t]            = line_eq_q;
      assign joinable[t]           = valid_q && !na_q && line_eq[t];

      wire c3_mine = c3_thread == TID;
      assign ans_valid[t] = completes || (c3_valid && c3_mine);
      assign ans_c2[t]    = c3_word && c3_mine;
      assign ans_catch[t] = valid_q && fill_beat && tag_q == r_thread && (LINE_PORT != 0 || beat_q == off_q);
      assign ans_catch_data[32*t +: 32] = (LINE_PORT != 0) ? mem_resp_line[32*off_q +: 32] : mem_resp_data;
    end
  endgenerate

  // ---- C2: the push ----------------------------------------------------------------------
  // A wline (LINE_PORT) is execute's close of a combining buffer: op, address and tag
  // as execute sent them (data and cmp 0), for the load/store unit.
  wire c2_wline = (LINE_PORT != 0) && c2_valid && c2_op == `UMBRA_PORT_OP_WLINE;
  assign c2_push_valid  = c2_miss || c2_store || c2_atomic || c2_flush || c2_wline;
  // The pushed request is the same whether an ldw misses or not (it is pushed only
  // if it does), so the tag compare reaches c2_push_valid alone: the load/store unit
  // writes the entry without waiting for it.
  assign c2_push_op     = c2_ldw ? OP_FILL : c2_op;
  assign c2_push_addr   = (c2_ldw && !c2_mis) ? {c2_line, {LB{1'b0}}} : c2_addr;
  assign c2_push_data   = c2_ldw ? 32'd0 : c2_data;
  assign c2_push_cmp    = c2_ldw ? 32'd0 : c2_cmp;
  assign c2_push_tag    = c2_thread;
  assign c2_push_marker = c2_flush;

  assign trace_cache_valid   = c2_valid && !c2_wline;
  assign trace_cache_thread  = c2_thread;
  assign trace_cache_op      = c2_op;
  assign trace_cache_addr    = c2_addr;
  assign trace_cache_outcome = c2_hit ? OUT_HIT : c2_miss ? OUT_MISS : c2_merge ? OUT_MERGE : OUT_NONE;

endmodule

`default_nettype wire
