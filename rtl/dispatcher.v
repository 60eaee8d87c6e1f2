// dispatcher: hands out the work items of a domain launch to the cores' free threads
// (docs/microarchitecture.md, "Domain launch"); systemc/dispatcher.{h,cpp} is the same
// block.  A domain is domain_w x domain_h work items, taken row by row ((0,0), (1,0),
// ... (w-1,0), (0,1), ...), one per cycle: in a cycle with an item left, the first
// core with a free thread (can_start), counting from the one after the core served
// last, is given the item on start_* and starts its lowest free thread on it at the
// end of the cycle.  A thread that exits is free again in the cycle after its exit's
// update in X2, so a domain far larger than cores x threads runs as the threads
// finish, each thread taking the next item.
//
// Why one item a cycle: a thread spends at least T cycles (one issue round) on each
// of its instructions, so the cores finish at most cores x threads / (T x k) items a
// cycle for a kernel of k instructions, which is below one for any kernel longer than
// `cores` instructions.  The grant is, like the memory arbiter's, a function of
// registers only (the cores' thread states and `first`), so it adds no cycle.
//
// REGISTERED_START (dispatch.registered_start; docs/microarchitecture.md, "Domain
// launch"): the grant goes into registers, and a core starts its thread on the item a
// cycle after the grant.  Without it the path runs from every core's thread states
// (can_start) to the grant and back into the granted core's thread states in one
// cycle, across the chip twice.  A start in those registers is not yet in its core's
// can_start, so the core it goes to is passed over in that cycle: a core gets at most
// an item every second cycle, the dispatcher still one a cycle over two cores or more.
//
// busy: items are left, or a registered start has not reached its core.  A domain with
// no items (a zero side) is done at once.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module dispatcher #(
    parameter integer CORES            = `UMBRA_DEFAULT_CORES,
    parameter integer REGISTERED_START = `UMBRA_DEFAULT_REGISTERED_START
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               domain_valid,
    input  wire [31:0]        domain_w,
    input  wire [31:0]        domain_h,
    input  wire [CORES-1:0]   can_start,
    output wire [CORES-1:0]   start_valid,
    output wire [31:0]        start_lx,
    output wire [31:0]        start_ly,
    output wire               busy
);

  localparam integer CW = (CORES > 1) ? $clog2(CORES) : 1;
  localparam [31:0]   LAST_U    = CORES - 1;
  localparam [CW-1:0] LAST_CORE = LAST_U[CW-1:0];

  reg  [31:0] w, h, x, y;
  reg         have;        // an item (x, y) is left
  reg  [CW-1:0] first;

  // The first core with a free thread from `first` on (and, with REGISTERED_START,
  // without a start on its way).
  wire [CW-1:0]    grant;
  wire             any;
  wire [CORES-1:0] pending;
  round_robin #(.N(CORES), .CW(CW)) u_pick (.req(can_start & ~pending), .first(first), .grant(grant), .any(any));
  wire give = have && any;

  wire last_x = (x + 32'd1 == w);
  always @(posedge clk) begin
    if (rst) begin
      have  <= 1'b0;
      first <= {CW{1'b0}};
      w <= 32'd0; h <= 32'd0; x <= 32'd0; y <= 32'd0;
    end else if (domain_valid) begin
      have <= (domain_w != 32'd0) && (domain_h != 32'd0);
      w <= domain_w; h <= domain_h; x <= 32'd0; y <= 32'd0;
    end else if (give) begin
      first <= (grant == LAST_CORE) ? {CW{1'b0}} : grant + 1'b1;
      if (last_x) begin
        x    <= 32'd0;
        y    <= y + 32'd1;
        have <= (y + 32'd1 != h);
      end else begin
        x <= x + 32'd1;
      end
    end
  end

  wire [CORES-1:0] given;
  genvar c;
  generate
    for (c = 0; c < CORES; c = c + 1) begin : g_given
      assign given[c] = give && grant == c;
    end
    if (REGISTERED_START != 0) begin : g_registered
      reg [CORES-1:0] start_q;
      reg [31:0]      lx_q, ly_q;
      always @(posedge clk) begin
        start_q <= (rst || domain_valid) ? {CORES{1'b0}} : given;
        if (give) begin
          lx_q <= x;
          ly_q <= y;
        end
      end
      assign pending     = start_q;
      assign start_valid = start_q;
      assign start_lx    = lx_q;
      assign start_ly    = ly_q;
      assign busy        = have || (|start_q);
    end else begin : g_direct
      assign pending     = {CORES{1'b0}};
      assign start_valid = given;
      assign start_lx    = x;
      assign start_ly    = y;
      assign busy        = have;
    end
  endgenerate

endmodule

`default_nettype wire
