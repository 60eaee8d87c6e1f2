// reorder_queue: the memory reorder queue between the cores' memory ports and the DRAM
// port (docs/memory-system.md, "The reorder queue"); systemc/reorder_queue.{h,cpp} is
// the same block, cycle for cycle, and testbench/reorder_queue_cosim holds the two
// together.
//
// The entries are a compacting shift register kept in age order (entry 0 the oldest):
// a send removes the picked entry and the younger entries move down one place, an
// accepted request is written behind the last valid one.  An entry holds only what
// the pick reads (its page, pass count and open-row match) and a slot number; the
// request itself waits in that slot of a store that never shifts ("the store" below).
// Age order makes "oldest" a priority encoder and makes the starvation rule cheap: an
// older entry has been passed over at least as often as any younger one, so only the
// head's pass count is compared with MAX_PASSES.  Every output but the response
// pass-through is a function of the registers (a Moore machine), so DRAM-side
// readiness never feeds back combinationally.
//
// The pick reads flip-flops: each entry keeps which open-row slot its page matches
// (`q_match`), and the occupancy is a thermometer (`occ`), so "entry k is a row hit" is
// one LUT and the pick a priority encoder behind it.  The matches follow the table as
// it changes (a send moves its page to slot 0 and shifts the slots before its place),
// and the sent page's own matches and bank come from the picked entry's slot, or from
// the head's page where the head is sent as a miss; no page passes through the entry
// multiplexer on its way to a register.  Comparing pages anew every cycle (the table
// against every entry, the oldest hit, the entry multiplexer, then the table's bank
// match) was the ULX3S board's deepest path (docs/fpga.md, "ULX3S timing").  The
// cycles are the same as comparing anew; only the logic between registers differs.
//
// The open-row table holds (bank, row) pairs as the address bits above the column
// (addr / ROW_BYTES = {row, bank}), most recently opened first; a send moves its pair to
// the front, replacing its bank's entry, else a free slot, else the last (least
// recently opened).  Two requests to one cache line are never reordered without any
// comparison of lines: a line lies inside one row, so an older request to the same line
// is itself a row hit older than the younger one, and the encoder finds it first.
//
// dram_req_op/addr/data/cmp/tag are don't-care while dram_req_valid is low.
//
// LINE_PORT (cache.line_port): a request's mask and line (a wline's words) wait with it
// in the store, and a response's line passes back with it; with LINE_PORT 0 the store
// holds no line and dram_req_mask/line are 0.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module reorder_queue #(
    parameter integer MODE_REORDER = `UMBRA_DEFAULT_MODE_REORDER,    // 1: row-aware (queue.mode reorder), 0: FCFS
    parameter integer DEPTH        = `UMBRA_DEFAULT_DEPTH,   // queue.depth, requests held
    parameter integer OPEN_ROWS    = `UMBRA_DEFAULT_OPEN_ROWS,    // queue.open_rows
    parameter integer MAX_PASSES   = `UMBRA_DEFAULT_MAX_PASSES,   // queue.max_passes
    parameter integer BANKS        = `UMBRA_DEFAULT_BANKS,    // dram.banks, a power of two
    parameter integer ROW_BYTES    = `UMBRA_DEFAULT_ROW_BYTES, // dram.row_bytes, a power of two
    parameter integer LINE_BYTES   = `UMBRA_DEFAULT_LINE_BYTES,   // cache.line_bytes, at most ROW_BYTES
    parameter integer LINE_PORT    = `UMBRA_DEFAULT_LINE_PORT,    // cache.line_port: requests carry mask and line
    parameter integer REGISTERED_PICK = `UMBRA_DEFAULT_REGISTERED_PICK,  // queue.registered_pick (below)
    parameter integer REGISTERED_ACCEPT = `UMBRA_DEFAULT_REGISTERED_ACCEPT  // queue.registered_accept (below)
) (
    input  wire        clk,
    input  wire        rst,               // synchronous, active high

    // Core side: the generic memory port, the tag widened to {core, thread}.
    input  wire        mem_req_valid,
    output wire        mem_req_ready,
    input  wire [7:0]  mem_req_op,
    input  wire [31:0] mem_req_addr,
    input  wire [31:0] mem_req_data,
    input  wire [31:0] mem_req_cmp,
    input  wire [15:0] mem_req_tag,
    input  wire [LINE_BYTES/4-1:0] mem_req_mask,
    input  wire [8*LINE_BYTES-1:0] mem_req_line,
    output wire        mem_resp_valid,
    output wire [31:0] mem_resp_data,
    output wire [15:0] mem_resp_tag,
    output wire [8*LINE_BYTES-1:0] mem_resp_line,

    // DRAM side.
    output wire        dram_req_valid,
    input  wire        dram_req_ready,
    output wire [7:0]  dram_req_op,
    output wire [31:0] dram_req_addr,
    output wire [31:0] dram_req_data,
    output wire [31:0] dram_req_cmp,
    output wire [15:0] dram_req_tag,
    output wire [LINE_BYTES/4-1:0] dram_req_mask,
    output wire [8*LINE_BYTES-1:0] dram_req_line,
    output wire        holding,           // a request is held (with REGISTERED_PICK, also
                                          // in the cycle after a send, when none is offered;
                                          // with REGISTERED_ACCEPT, also in the input register)
    input  wire        dram_resp_valid,
    input  wire [31:0] dram_resp_data,
    input  wire [15:0] dram_resp_tag,
    input  wire [8*LINE_BYTES-1:0] dram_resp_line
);

  localparam integer PW  = $clog2(MAX_PASSES + 1);                 // pass count
  localparam integer RB  = $clog2(ROW_BYTES);                      // column bits
  localparam integer BB  = $clog2(BANKS);                          // bank bits
  localparam integer GW  = 32 - RB;                                // page = {row, bank}
  localparam integer IW  = DEPTH > 1 ? $clog2(DEPTH) : 1;            // entry index
  localparam [PW-1:0] MAXP = MAX_PASSES[PW-1:0];
  localparam [GW-1:0] BANK_MASK = (1 << BB) - 1;                   // bank bits of a page
  localparam [DEPTH-1:0] ONE = 1;

  // A module that does not exist is the one error Verilator, Yosys and Icarus all
  // report at elaboration; its name is the message.
  generate
    if (DEPTH < 1 || DEPTH > 64) begin : g_check_depth
      reorder_queue_DEPTH_outside_1_to_64 u_error ();
    end
    if (OPEN_ROWS < 1) begin : g_check_open_rows
      reorder_queue_OPEN_ROWS_below_1 u_error ();
    end
    if (MAX_PASSES < 1) begin : g_check_max_passes
      reorder_queue_MAX_PASSES_below_1 u_error ();
    end
    if ((1 << RB) != ROW_BYTES || (1 << BB) != BANKS || RB + BB > 31) begin : g_check_map
      reorder_queue_ROW_BYTES_and_BANKS_must_be_powers_of_two u_error ();
    end
    if (LINE_BYTES > ROW_BYTES) begin : g_check_line
      reorder_queue_LINE_BYTES_above_ROW_BYTES_lines_would_cross_rows u_error ();
    end
  endgenerate

  // Responses go straight back; the tag names the core.
  assign mem_resp_valid = dram_resp_valid;
  assign mem_resp_data  = dram_resp_data;
  assign mem_resp_tag   = dram_resp_tag;
  assign mem_resp_line  = dram_resp_line;

  reg  [DEPTH-1:0]    occ;       // entry k holds a request (a thermometer: k < occupancy)
  reg  [DEPTH-1:0]    hit;       // a valid entry whose (bank, row) is in the open-row table
  reg  [DEPTH-1:0]    pick;      // one-hot: the entry on the DRAM port (none if not valid)
  reg  [DEPTH-1:0]    at_or_above;  // the entry is pick or younger than it
  reg  [IW-1:0]       rd_slot;      // the store's slot of the offered entry
  reg  [IW-1:0]       free_slot;    // the store's lowest slot not in use

  // The entries, one vector per field, entry e at [W*e +: W]: entry 0 the oldest.  They
  // hold what the pick and the open-row table read (the page, the pass count, the
  // matched slot) and the slot of the store below where the rest of the request waits.
  // Registers, not a RAM: every entry moves on a send.  Vectors rather than arrays of
  // entries for the Verilated model: an array written by nonblocking assignments costs
  // it a pending-write flag per write site, set up and tested in every cycle, queue
  // empty or not; a vector costs a copy of its words.
  reg [IW*DEPTH-1:0] q_slot;
  reg [GW*DEPTH-1:0] q_page;
  reg [PW*DEPTH-1:0] q_pass;
  reg [OPEN_ROWS*DEPTH-1:0] q_match;  // the open-row slot holding the entry's page, if any

  reg  [OPEN_ROWS-1:0]    t_valid;
  reg  [GW*OPEN_ROWS-1:0] t_page;

  wire   pick_ok;  // the pick describes the entries as they are (REGISTERED_PICK)
  assign dram_req_valid = occ[0] && pick_ok;
  wire   send   = dram_req_valid && dram_req_ready;

  // ---- the request the entries take ------------------------------------------------------
  // The core side's request as it arrives, or with REGISTERED_ACCEPT the one an input
  // register took in the cycle before: then the entries' write, and the new entry's
  // compare with the open-row table, start at flip-flops rather than at the cores'
  // request FIFOs and the arbiter in front of them (the ULX3S one-core board's worst
  // path; docs/fpga.md, "Round seven").  The register takes a request whenever it is
  // empty or hands its own to the entries, so it passes one request a cycle while the
  // queue has room; each waits a cycle in it.  queue.registered_accept
  // (docs/memory-system.md, "The reorder queue").
  localparam integer WPL = LINE_BYTES / 4;
  localparam integer RW  = 8 + 3 * 32 + 16;                  // op, address, data, compare, tag
  localparam integer RQW = RW + WPL + 8 * LINE_BYTES;         // a request, packed, with mask and line
  wire [RQW-1:0] mem_req = {mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag, mem_req_mask,
                            mem_req_line};
  wire           in_valid;
  wire [RQW-1:0] in_req;
  wire [7:0]     in_op;
  wire [31:0]    in_addr, in_data, in_cmp;
  wire [15:0]    in_tag;
  wire [WPL-1:0] in_mask;
  wire [8*LINE_BYTES-1:0] in_line;
  assign {in_op, in_addr, in_data, in_cmp, in_tag, in_mask, in_line} = in_req;
  wire [GW-1:0]  in_page = in_addr[31:RB];
  wire unused_in = |{in_op, in_addr[RB-1:0], in_data, in_cmp, in_tag, in_mask, in_line};  // the store takes in_req
  wire   accept = in_valid && !occ[DEPTH - 1];
  generate
    if (REGISTERED_ACCEPT != 0) begin : g_reg_accept
      reg           valid_q;
      reg [RQW-1:0] req_q;
      assign mem_req_ready = !valid_q || !occ[DEPTH - 1];
      wire take = mem_req_valid && mem_req_ready;
      always @(posedge clk) begin
        if (rst)
          valid_q <= 1'b0;
        else if (take || accept)
          valid_q <= take;
        if (take)
          req_q <= mem_req;
      end
      assign in_valid = valid_q;
      assign in_req   = req_q;
      assign holding  = occ[0] || valid_q;
    end else begin : g_accept
      assign mem_req_ready = !occ[DEPTH - 1];
      assign in_valid      = mem_req_valid;
      assign in_req        = mem_req;
      assign holding       = occ[0];
    end
  endgenerate

  // Where an accepted request goes (one-hot): behind the last valid entry, which is one
  // place lower when a send moves the younger entries down.
  reg [DEPTH-1:0] ins;
  integer e;
  always @* begin
    for (e = 0; e < DEPTH; e = e + 1)
      ins[e] = send ? occ[e] && (e + 1 == DEPTH || !occ[(e + 1) % DEPTH])
                    : !occ[e] && (e == 0 || occ[(e + DEPTH - 1) % DEPTH]);
  end

  // ---- selection ------------------------------------------------------------------------
  // Reorder mode: the oldest valid row hit, unless the head has been passed over
  // MAX_PASSES times or there is no hit; then (and always in FCFS mode) the head.
  // An empty queue picks nothing whatever the entries hold, so the whole search sits
  // behind `occ[0]`: the same logic, and a simulator skips it while the queue is empty,
  // which is most cycles.  With REGISTERED_PICK the search's result is taken into
  // registers and offered in the next cycle, unless that cycle's entries are not the
  // ones searched (a send moved them): then nothing is offered for a cycle, and the
  // next search sees the entries after the send.  An accepted request only joins
  // behind the others and leaves every entry's match as it was, so a pick stays right
  // for the entries it was made on (the new one waits a search); an empty queue's pick
  // is the head, for the request that arrives.  That cuts the loop from the entries'
  // matches through the pick, the sent slot and the table's update back into the
  // matches, and the pick's way out to the DRAM side, both at the price of a cycle
  // after each send; queue.registered_pick (docs/memory-system.md, "The reorder queue").
  wire [PW-1:0]       head_passes = q_pass[0 +: PW];
  reg  [DEPTH-1:0] pick_c, at_c;  // the search's pick (one-hot) and the entries at or above it
  reg          any_hit, seen;
  reg [IW-1:0] sel_c;           // pick_c as an index
  integer k;
  always @* begin
    k = 0;
    hit     = {DEPTH{1'b0}};
    pick_c  = {DEPTH{1'b0}};
    at_c    = {DEPTH{1'b0}};
    any_hit = 1'b0;
    seen    = 1'b0;
    sel_c   = {IW{1'b0}};
    if (occ[0]) begin
      for (k = 0; k < DEPTH; k = k + 1) begin
        hit[k]  = occ[k] && |q_match[OPEN_ROWS*k +: OPEN_ROWS];
        any_hit = any_hit || hit[k];
      end
      if ((MODE_REORDER == 0) || (head_passes >= MAXP) || !any_hit)
        pick_c[0] = 1'b1;
      else
        for (k = 0; k < DEPTH; k = k + 1)
          if (!seen && hit[k]) begin
            pick_c[k] = 1'b1;
            sel_c     = k[IW-1:0];
            seen      = 1'b1;
          end
      at_c[0] = pick_c[0];
      for (k = 1; k < DEPTH; k = k + 1)
        at_c[k] = at_c[k - 1] || pick_c[k];
    end else if (REGISTERED_PICK != 0) begin
      pick_c[0] = 1'b1;  // the head, for a request arriving now
      at_c      = {DEPTH{1'b1}};
    end
  end

  // The search's slot: the picked entry's, or for an empty queue's pick the one the
  // arriving request takes, slot 0, since an empty queue uses none.
  wire [IW-1:0] slot_c = occ[0] ? q_slot[IW*sel_c +: IW] : {IW{1'b0}};
  generate
    if (REGISTERED_PICK != 0) begin : g_reg_pick
      reg              pick_ok_q;
      reg [DEPTH-1:0]  pick_q, at_q;
      reg [IW-1:0]     slot_q;
      always @(posedge clk) begin
        pick_ok_q <= rst || !send;
        pick_q    <= pick_c;
        at_q      <= at_c;
        slot_q    <= slot_c;
      end
      assign pick_ok = pick_ok_q;
      always @* begin
        pick        = dram_req_valid ? pick_q : {DEPTH{1'b0}};
        at_or_above = dram_req_valid ? at_q : {DEPTH{1'b0}};
        rd_slot     = slot_q;
      end
    end else begin : g_pick
      assign pick_ok = 1'b1;
      always @* begin
        pick        = pick_c;
        at_or_above = at_c;
        rd_slot     = slot_c;
      end
    end
  endgenerate

  // ---- the store -------------------------------------------------------------------------
  // The request itself (op, address, data, compare, tag, and the line port's mask and
  // line) is written once, on accept, into a free slot of a DEPTH-word store, and read
  // once, where the pick names its slot: it never moves with the entries.  Shifting it
  // was most of the queue (on the ULX3S board some 4,900 LUT4 and 2,300 flip-flops at
  // depth 16, a 16-way multiplexer in front of every bit); as a store with one write and
  // an asynchronous read it is the ECP5's distributed RAM.  A slot is free while `used`
  // is clear; an accept takes the lowest free one, and there is one whenever an accept
  // can happen (fewer than DEPTH entries, one slot each).  A send frees its slot.
  localparam integer SW = LINE_PORT != 0 ? RQW : RW;  // the packed request, without a line unless a line port
  reg [SW-1:0]    store[0:DEPTH-1];
  reg [DEPTH-1:0] used;
  reg             free_seen;
  integer j;
  always @* begin
    free_slot = {IW{1'b0}};
    free_seen = 1'b0;
    for (j = 0; j < DEPTH; j = j + 1)
      if (!free_seen && !used[j]) begin
        free_slot = j[IW-1:0];
        free_seen = 1'b1;
      end
  end

  wire [SW-1:0] picked = store[rd_slot];
  generate
    if (LINE_PORT != 0) begin : g_line
      assign {dram_req_mask, dram_req_line} = dram_req_valid ? picked[0 +: RQW - RW] : {(RQW - RW){1'b0}};
    end else begin : g_no_line
      assign dram_req_mask = {WPL{1'b0}};
      assign dram_req_line = {(8*LINE_BYTES){1'b0}};
    end
  endgenerate

  always @(posedge clk)
    if (accept)
      store[free_slot] <= in_req[RQW-1 -: SW];

  always @(posedge clk) begin
    if (rst)
      used <= {DEPTH{1'b0}};
    else
      used <= (used | (accept ? ONE << free_slot : {DEPTH{1'b0}}))
            & ~(send ? ONE << rd_slot : {DEPTH{1'b0}});
  end

  // The picked entry; zero while none is offered.
  assign {dram_req_op, dram_req_addr, dram_req_data, dram_req_cmp, dram_req_tag} =
      dram_req_valid ? picked[SW-1 -: RW] : {RW{1'b0}};

  // ---- entries ----------------------------------------------------------------------------
  // A send shifts the entries at and above the pick down one place (the top one takes
  // zeros: `% DEPTH` only keeps the unused index in range); the older ones count one
  // more pass.  An accepted request lands at `ins`.
  integer m;
  always @(posedge clk) begin
    if (accept || send)
      for (m = 0; m < DEPTH; m = m + 1) begin
        if (accept && ins[m]) begin
          q_slot[IW*m +: IW] <= free_slot;
          q_page[GW*m +: GW] <= in_page;
          q_pass[PW*m +: PW] <= {PW{1'b0}};
        end else if (send && at_or_above[m]) begin
          q_slot[IW*m +: IW] <= m + 1 < DEPTH ? q_slot[IW*((m + 1) % DEPTH) +: IW] : {IW{1'b0}};
          q_page[GW*m +: GW] <= m + 1 < DEPTH ? q_page[GW*((m + 1) % DEPTH) +: GW] : {GW{1'b0}};
          q_pass[PW*m +: PW] <= m + 1 < DEPTH ? q_pass[PW*((m + 1) % DEPTH) +: PW] : {PW{1'b0}};
        end else if (send) begin
          q_pass[PW*m +: PW] <= q_pass[PW*m +: PW] + {{(PW - 1){1'b0}}, 1'b1};  // older than the one sent
        end
      end
  end

  always @(posedge clk) begin
    if (rst)
      occ <= {DEPTH{1'b0}};
    else if (accept && !send)
      occ <= (occ << 1) | ONE;
    else if (send && !accept)
      occ <= occ >> 1;
  end

  // ---- open-row table ---------------------------------------------------------------------
  // The table holds at most one page per bank (a send replaces its bank's slot), so a
  // page matches at most one slot, and the sent page's bank is in the slot its page is
  // open in, if it is open.  Otherwise the sent entry is the head (a miss is only ever
  // sent from there), whose page sits at constant positions of q_page.
  wire [GW-1:0] sent_page = dram_req_addr[31:RB];
  wire [GW-1:0] head_page = q_page[0 +: GW];
  reg  [OPEN_ROWS-1:0] sent_slot;  // the slot holding the sent page (none for a miss)
  reg  [OPEN_ROWS-1:0] same_bank;
  reg  [OPEN_ROWS-1:0] place;      // one-hot: the slot the sent pair takes
  reg  [OPEN_ROWS-1:0] up_to;      // slots at or before `place` (they shift back)
  reg                  found;
  integer s;
  always @* begin
    s         = 0;
    sent_slot = {OPEN_ROWS{1'b0}};
    same_bank = {OPEN_ROWS{1'b0}};
    place     = {OPEN_ROWS{1'b0}};
    up_to     = {OPEN_ROWS{1'b0}};
    found     = 1'b0;
    if (dram_req_valid) begin  // only a send uses it
      for (s = 0; s < DEPTH; s = s + 1)
        if (pick[s]) sent_slot = sent_slot | q_match[OPEN_ROWS*s +: OPEN_ROWS];
      for (s = 0; s < OPEN_ROWS; s = s + 1)
        same_bank[s] = |sent_slot ? sent_slot[s]
                     : t_valid[s] && ((t_page[GW*s +: GW] ^ head_page) & BANK_MASK) == {GW{1'b0}};
      for (s = 0; s < OPEN_ROWS; s = s + 1)
        if (!found && same_bank[s]) begin
          place[s] = 1'b1;
          found    = 1'b1;
        end
      for (s = 0; s < OPEN_ROWS; s = s + 1)
        if (!found && !t_valid[s]) begin
          place[s] = 1'b1;
          found    = 1'b1;
        end
      if (!found)
        place[OPEN_ROWS - 1] = 1'b1;
      up_to[OPEN_ROWS - 1] = place[OPEN_ROWS - 1];
      for (s = OPEN_ROWS - 2; s >= 0; s = s - 1)
        up_to[s] = up_to[s + 1] || place[s];
    end
  end

  // Each entry's slot after a send: the sent page's entries match slot 0, the others'
  // slots move with the table's shift (the slot at `place` was the sent page's, its
  // bank's, a free one, or the last: whichever, its page is no longer open).
  function [OPEN_ROWS-1:0] after_send(input [OPEN_ROWS-1:0] slots, input is_sent,
                                      input [OPEN_ROWS-1:0] shifted);
    integer f;
    begin
      after_send[0] = is_sent;
      for (f = 1; f < OPEN_ROWS; f = f + 1)
        after_send[f] = shifted[f] ? slots[f - 1] : slots[f];
    end
  endfunction

  // Pages equal to the sent one: those matching its slot, or for a miss the head's.
  // An accepted request's page is compared with the table and with every entry's page
  // (the sent one is among them) side by side, not with the multiplexer's output.
  reg  [DEPTH-1:0]     is_sent;    // entry e's page is the sent page
  reg                  in_sent;    // the accepted request's page is the sent page
  reg  [OPEN_ROWS-1:0] in_slot;    // the accepted request's slot in the table as it is
  always @* begin
    in_sent = 1'b0;
    for (e = 0; e < DEPTH; e = e + 1) begin
      is_sent[e] = |sent_slot ? |(q_match[OPEN_ROWS*e +: OPEN_ROWS] & sent_slot)
                              : q_page[GW*e +: GW] == head_page;
      in_sent    = in_sent || (pick[e] && q_page[GW*e +: GW] == in_page);
    end
    for (e = 0; e < OPEN_ROWS; e = e + 1)
      in_slot[e] = t_valid[e] && t_page[GW*e +: GW] == in_page;
  end

  integer x;
  always @(posedge clk) begin
    if (accept || send)
      for (x = 0; x < DEPTH; x = x + 1) begin
        if (accept && ins[x])
          q_match[OPEN_ROWS*x +: OPEN_ROWS] <= send ? after_send(in_slot, in_sent, up_to) : in_slot;
        else if (send && at_or_above[x])
          q_match[OPEN_ROWS*x +: OPEN_ROWS] <=
              x + 1 < DEPTH ? after_send(q_match[OPEN_ROWS*((x + 1) % DEPTH) +: OPEN_ROWS],
                                         is_sent[(x + 1) % DEPTH], up_to)
                            : {OPEN_ROWS{1'b0}};
        else if (send)
          q_match[OPEN_ROWS*x +: OPEN_ROWS] <= after_send(q_match[OPEN_ROWS*x +: OPEN_ROWS], is_sent[x], up_to);
      end
  end

  always @(posedge clk) begin
    if (rst) begin
      t_valid <= {OPEN_ROWS{1'b0}};
    end else if (send) begin
      t_valid[0]     <= 1'b1;
      t_page[0 +: GW] <= sent_page;
      for (s = 1; s < OPEN_ROWS; s = s + 1)
        if (up_to[s]) begin
          t_valid[s]           <= t_valid[s - 1];
          t_page[GW*s +: GW]   <= t_page[GW*(s - 1) +: GW];
        end
    end
  end

endmodule

`default_nettype wire
