// uart_tx: 8N1 serial transmitter for the board top's host link (issue 5, second
// half): one start bit, eight data bits LSB first, one stop bit, each CLKS_PER_BIT
// clocks long.  A byte is taken when valid && ready; ready is low while a frame is on
// the line, so the host protocol above needs no timing knowledge of its own.  The
// line idles high and is driven from a register, so it never glitches.
`default_nettype none

module uart_tx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, at least 2
) (
    input  wire       clk,
    input  wire       rst,      // synchronous, active high
    input  wire [7:0] data,
    input  wire       valid,
    output wire       ready,
    output reg        tx
);

  localparam integer CW = $clog2(CLKS_PER_BIT);

  generate
    if (CLKS_PER_BIT < 2) begin : g_check
      uart_tx_CLKS_PER_BIT_below_2 u_error ();
    end
  endgenerate

  localparam [31:0]   LAST_U   = CLKS_PER_BIT - 1;
  localparam [CW-1:0] LAST_CLK = LAST_U[CW-1:0];

  reg [8:0]    shift;    // the data bits and the stop bit still to send
  reg [3:0]    bits;     // bits of the frame still to send after the current one
  reg [CW-1:0] count;
  reg          busy;

  assign ready = !busy;

  always @(posedge clk) begin
    if (rst) begin
      tx    <= 1'b1;
      busy  <= 1'b0;
      bits  <= 4'd0;
      count <= {CW{1'b0}};
      shift <= 9'h1ff;
    end else if (!busy) begin
      if (valid) begin
        tx    <= 1'b0;                 // start bit
        shift <= {1'b1, data};
        bits  <= 4'd9;
        count <= {CW{1'b0}};
        busy  <= 1'b1;
      end
    end else if (count != LAST_CLK) begin
      count <= count + 1'b1;
    end else begin
      count <= {CW{1'b0}};
      if (bits == 4'd0) begin
        busy <= 1'b0;                  // stop bit done: the line stays high
      end else begin
        tx    <= shift[0];
        shift <= {1'b1, shift[8:1]};
        bits  <= bits - 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
