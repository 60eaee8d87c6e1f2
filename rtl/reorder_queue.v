// reorder_queue: the memory reorder queue between the cores' memory ports and the DRAM
// port (docs/memory-system.md, "The reorder queue"); systemc/reorder_queue.{h,cpp} is
// the same block, cycle for cycle, and testbench/reorder_queue_cosim holds the two
// together.
//
// The entries are a compacting shift register kept in age order (entry 0 the oldest):
// a send removes entry `sel` and the younger entries move down one place, an accepted
// request is written behind the last valid one.  Age order makes "oldest" a priority
// encoder and makes the starvation rule cheap: an older entry has been passed over at
// least as often as any younger one, so only the head's pass count is compared with
// MAX_PASSES.  Every output but the response pass-through is a function of the
// registers (a Moore machine), so DRAM-side readiness never feeds back combinationally.
//
// The open-row table holds (bank, row) pairs as the address bits above the column
// (addr / ROW_BYTES = {row, bank}), most recently opened first; a send moves its pair to
// the front, replacing its bank's entry, else a free slot, else the last (least
// recently opened).  Two requests to one cache line are never reordered without any
// comparison of lines: a line lies inside one row, so an older request to the same line
// is itself a row hit older than the younger one, and the encoder finds it first.
//
// dram_req_op/addr/data/cmp/tag are don't-care while dram_req_valid is low.
`default_nettype none

module reorder_queue #(
    parameter integer MODE_REORDER = 1,    // 1: row-aware (queue.mode reorder), 0: FCFS
    parameter integer DEPTH        = 16,   // queue.depth, requests held
    parameter integer OPEN_ROWS    = 4,    // queue.open_rows
    parameter integer MAX_PASSES   = 16,   // queue.max_passes
    parameter integer BANKS        = 8,    // dram.banks, a power of two
    parameter integer ROW_BYTES    = 2048, // dram.row_bytes, a power of two
    parameter integer LINE_BYTES   = 32    // cache.line_bytes, at most ROW_BYTES
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
    output wire        mem_resp_valid,
    output wire [31:0] mem_resp_data,
    output wire [15:0] mem_resp_tag,

    // DRAM side.
    output wire        dram_req_valid,
    input  wire        dram_req_ready,
    output wire [7:0]  dram_req_op,
    output wire [31:0] dram_req_addr,
    output wire [31:0] dram_req_data,
    output wire [31:0] dram_req_cmp,
    output wire [15:0] dram_req_tag,
    input  wire        dram_resp_valid,
    input  wire [31:0] dram_resp_data,
    input  wire [15:0] dram_resp_tag
);

  localparam integer CW  = $clog2(DEPTH + 1);                      // occupancy
  localparam integer PW  = $clog2(MAX_PASSES + 1);                 // pass count
  localparam integer RB  = $clog2(ROW_BYTES);                      // column bits
  localparam integer BB  = $clog2(BANKS);                          // bank bits
  localparam integer GW  = 32 - RB;                                // page = {row, bank}
  localparam integer EW  = 8 + 32 + 32 + 32 + 16;                  // entry payload
  localparam [PW-1:0] MAXP = MAX_PASSES[PW-1:0];
  localparam [CW-1:0] FULL = DEPTH[CW-1:0];
  localparam [GW-1:0] BANK_MASK = (1 << BB) - 1;                   // bank bits of a page

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

  reg  [CW-1:0]       count;
  wire [EW*DEPTH-1:0] e_all;     // payloads, entry i in bits EW*i +: EW
  wire [PW*DEPTH-1:0] p_all;     // pass counts
  wire [DEPTH-1:0]    valid;
  wire [DEPTH-1:0]    hit;       // the entry's (bank, row) is in the open-row table
  reg  [DEPTH-1:0]    pick;      // one-hot: the entry on the DRAM port (none if empty)
  reg  [DEPTH-1:0]    at_or_above;  // the entry is pick or younger than it

  reg  [OPEN_ROWS-1:0]    t_valid;
  reg  [GW*OPEN_ROWS-1:0] t_page;

  assign mem_req_ready  = count < FULL;
  assign dram_req_valid = count != {CW{1'b0}};
  wire   accept = mem_req_valid && mem_req_ready;
  wire   send   = dram_req_valid && dram_req_ready;
  wire [CW-1:0] ins = count - {{(CW - 1){1'b0}}, send};  // where an accepted request goes

  // ---- selection ------------------------------------------------------------------------
  // Reorder mode: the oldest valid row hit, unless the head has been passed over
  // MAX_PASSES times or there is no hit; then (and always in FCFS mode) the head.
  genvar i, j;
  generate
    for (i = 0; i < DEPTH; i = i + 1) begin : g_hit
      localparam [CW-1:0] IDX = i;
      wire [GW-1:0] page = e_all[EW*i + 8 + RB +: GW];
      wire [OPEN_ROWS-1:0] match;
      for (j = 0; j < OPEN_ROWS; j = j + 1) begin : g_match
        assign match[j] = t_valid[j] && t_page[GW*j +: GW] == page;
      end
      assign valid[i] = IDX < count;
      assign hit[i]   = |match;
    end
  endgenerate

  wire [DEPTH-1:0] cand = valid & hit;
  wire use_head = (MODE_REORDER == 0) || (p_all[PW-1:0] >= MAXP) || cand == {DEPTH{1'b0}};
  reg  seen;
  integer k;
  always @* begin
    pick        = {DEPTH{1'b0}};
    at_or_above = {DEPTH{1'b0}};
    seen        = 1'b0;
    if (use_head)
      pick[0] = valid[0];
    else
      for (k = 0; k < DEPTH; k = k + 1)
        if (!seen && cand[k]) begin
          pick[k] = 1'b1;
          seen    = 1'b1;
        end
    at_or_above[0] = pick[0];
    for (k = 1; k < DEPTH; k = k + 1)
      at_or_above[k] = at_or_above[k - 1] || pick[k];
  end

  // The picked entry, by AND-OR over the one-hot pick.
  reg [EW-1:0] out;
  always @* begin
    out = {EW{1'b0}};
    for (k = 0; k < DEPTH; k = k + 1)
      out = out | (e_all[EW*k +: EW] & {EW{pick[k]}});
  end
  assign dram_req_op   = out[7:0];
  assign dram_req_addr = out[8 +: 32];
  assign dram_req_data = out[40 +: 32];
  assign dram_req_cmp  = out[72 +: 32];
  assign dram_req_tag  = out[104 +: 16];

  // ---- entries ----------------------------------------------------------------------------
  wire [EW-1:0] incoming = {mem_req_tag, mem_req_cmp, mem_req_data, mem_req_addr, mem_req_op};
  generate
    for (i = 0; i < DEPTH; i = i + 1) begin : g_entry
      localparam [CW-1:0] IDX = i;
      reg  [EW-1:0] payload;
      reg  [PW-1:0] passes;
      wire [EW-1:0] above_payload;
      wire [PW-1:0] above_passes;
      if (i + 1 < DEPTH) begin : g_above
        assign above_payload = e_all[EW*(i + 1) +: EW];
        assign above_passes  = p_all[PW*(i + 1) +: PW];
      end else begin : g_top
        assign above_payload = {EW{1'b0}};
        assign above_passes  = {PW{1'b0}};
      end
      wire shift = send && at_or_above[i];
      always @(posedge clk) begin
        if (accept && IDX == ins) begin
          payload <= incoming;
          passes  <= {PW{1'b0}};
        end else if (shift) begin
          payload <= above_payload;
          passes  <= above_passes;
        end else if (send) begin
          passes  <= passes + {{(PW - 1){1'b0}}, 1'b1};  // older than the one sent
        end
      end
      assign e_all[EW*i +: EW] = payload;
      assign p_all[PW*i +: PW] = passes;
    end
  endgenerate

  always @(posedge clk) begin
    if (rst)
      count <= {CW{1'b0}};
    else
      count <= count + {{(CW - 1){1'b0}}, accept} - {{(CW - 1){1'b0}}, send};
  end

  // ---- open-row table ---------------------------------------------------------------------
  wire [GW-1:0] sent_page = dram_req_addr[31:RB];
  reg  [OPEN_ROWS-1:0] same_bank;
  reg  [OPEN_ROWS-1:0] place;      // one-hot: the slot the sent pair takes
  reg  [OPEN_ROWS-1:0] up_to;      // slots at or before `place` (they shift back)
  reg                  found;
  integer s;
  always @* begin
    for (s = 0; s < OPEN_ROWS; s = s + 1)
      same_bank[s] = t_valid[s] && ((t_page[GW*s +: GW] ^ sent_page) & BANK_MASK) == {GW{1'b0}};
    place = {OPEN_ROWS{1'b0}};
    found = 1'b0;
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
