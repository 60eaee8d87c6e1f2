// uart_rx: 8N1 serial receiver for the board's host link (fpga/host_link.v).  The
// line is asynchronous to clk, so it passes two flip-flops before any decision.  A
// falling edge starts a frame; the start bit is checked again half a bit later (a
// glitch shorter than that is ignored), and every following bit is sampled in its
// middle.  A frame whose stop bit is low is reported on frame_error instead of valid,
// so a host at the wrong baud rate is seen rather than silently misread.
//
// It hands over bits, not bytes: each data bit is `bit_data` in the cycle `bit_valid` is
// high, LSB first, and the host link shifts it straight into the register where the
// byte is wanted (its 32-bit word), so no byte register sits between the two.
`default_nettype none

module uart_rx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, at least 4
) (
    input  wire clk,
    input  wire rst,          // synchronous, active high
    input  wire rx,
    output wire bit_valid,    // a data bit is sampled this cycle ...
    output wire bit_data,     // ... and this is it
    output wire valid,        // a frame's stop bit was high: its 8 data bits were a byte
    output wire frame_error,  // a frame's stop bit was low
    output reg  active        // a frame (or a glitch) is being received
);

  localparam integer CW = $clog2(CLKS_PER_BIT);

  generate
    if (CLKS_PER_BIT < 4) begin : g_check
      uart_rx_CLKS_PER_BIT_below_4 u_error ();
    end
  endgenerate

  localparam [31:0]   LAST_U   = CLKS_PER_BIT - 1;
  localparam [CW-1:0] LAST_CLK = LAST_U[CW-1:0];
  localparam [31:0]   HALF_U   = CLKS_PER_BIT / 2 - 1;
  localparam [CW-1:0] HALF_CLK = HALF_U[CW-1:0];

  reg [1:0]    sync;
  wire         line = sync[1];
  reg [3:0]    bits;       // bits of the frame sampled: 0 the start bit, 9 the stop bit
  reg [CW-1:0] count;
  wire         sample = active && (count == ((bits == 4'd0) ? HALF_CLK : LAST_CLK));

  assign bit_data    = line;
  assign bit_valid   = sample && bits != 4'd0 && bits != 4'd9;
  assign valid       = sample && bits == 4'd9 && line;
  assign frame_error = sample && bits == 4'd9 && !line;

  always @(posedge clk) begin
    sync <= {sync[0], rx};
    if (rst) begin
      sync   <= 2'b11;
      active <= 1'b0;
    end else if (!active) begin
      bits  <= 4'd0;
      count <= {CW{1'b0}};
      if (!line) active <= 1'b1;       // start bit begins
    end else if (sample) begin
      // A start bit high again in its middle was a glitch; the stop bit ends the frame.
      if ((bits == 4'd0 && line) || bits == 4'd9) active <= 1'b0;
      bits  <= bits + 4'd1;
      count <= {CW{1'b0}};
    end else begin
      count <= count + 1'b1;
    end
  end

endmodule

`default_nettype wire
