// uart_rx: 8N1 serial receiver for the board top's host link (issue 5, second half).
// The line is asynchronous to clk, so it passes two flip-flops before any decision.
// A falling edge starts a frame; the start bit is checked again half a bit later (a
// glitch shorter than that is ignored), and every following bit is sampled in its
// middle.  A frame whose stop bit is low is reported on frame_error instead of data,
// so a host at the wrong baud rate is seen rather than silently misread.
`default_nettype none

module uart_rx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, at least 4
) (
    input  wire       clk,
    input  wire       rst,          // synchronous, active high
    input  wire       rx,
    output reg  [7:0] data,
    output reg        valid,        // one cycle per received byte
    output reg        frame_error   // one cycle per frame with a low stop bit
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
  reg          busy;
  reg [3:0]    bits;       // bits of the frame received after the start bit
  reg [CW-1:0] count;
  reg [7:0]    shift;

  always @(posedge clk) begin
    sync <= {sync[0], rx};
    valid       <= 1'b0;
    frame_error <= 1'b0;
    if (rst) begin
      sync  <= 2'b11;
      busy  <= 1'b0;
      bits  <= 4'd0;
      count <= {CW{1'b0}};
    end else if (!busy) begin
      if (!line) begin                 // start bit begins
        busy  <= 1'b1;
        bits  <= 4'd0;
        count <= {CW{1'b0}};
      end
    end else if (bits == 4'd0 && count == HALF_CLK) begin
      // Middle of the start bit: still low, or it was a glitch.
      if (line) busy <= 1'b0;
      bits  <= 4'd1;
      count <= {CW{1'b0}};
    end else if (bits != 4'd0 && count == LAST_CLK) begin
      count <= {CW{1'b0}};
      if (bits == 4'd9) begin          // middle of the stop bit
        busy <= 1'b0;
        if (line) begin
          data  <= shift;
          valid <= 1'b1;
        end else begin
          frame_error <= 1'b1;
        end
      end else begin
        shift <= {line, shift[7:1]};
        bits  <= bits + 1'b1;
      end
    end else begin
      count <= count + 1'b1;
    end
  end

endmodule

`default_nettype wire
