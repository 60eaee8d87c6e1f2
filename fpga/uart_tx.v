// uart_tx: 8N1 serial transmitter for the board's host link (fpga/host_link.v): one
// start bit, eight data bits LSB first, one stop bit, each CLKS_PER_BIT clocks long.
// A frame starts when `valid` is high and no frame is on the line, so a sender holds
// valid for as long as it has bytes and needs no timing knowledge of its own; frames
// then follow each other with one stop bit between them.  The line idles high and is
// driven from a register, so it never glitches.
//
// It takes bits, not a byte: `index` names the data bit it wants next and `data` is
// that bit, put on the line in the cycle `take` is high.  The host link answers from
// wherever the bit lives (its shift register, or a reply field through a multiplexer),
// so no byte is copied into a shift register here.
`default_nettype none

module uart_tx #(
    parameter integer CLKS_PER_BIT = 104   // clock / baud rate, at least 2
) (
    input  wire       clk,
    input  wire       rst,      // synchronous, active high
    input  wire       valid,    // start a frame when the line is free
    output wire [2:0] index,    // the data bit wanted next ...
    input  wire       data,     // ... which is this
    output wire       take,     // data goes on the line this cycle
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

  reg          busy;
  reg [3:0]    pos;      // bits on the line after the start bit: 8 the stop bit's
  reg [CW-1:0] count;
  wire         tick = busy && (count == LAST_CLK);

  assign index = pos[2:0];
  assign take  = tick && !pos[3];

  always @(posedge clk) begin
    if (rst) begin
      tx   <= 1'b1;
      busy <= 1'b0;
    end else if (!busy) begin
      pos   <= 4'd0;
      count <= {CW{1'b0}};
      if (valid) begin
        tx   <= 1'b0;                  // start bit
        busy <= 1'b1;
      end
    end else if (!tick) begin
      count <= count + 1'b1;
    end else begin
      count <= {CW{1'b0}};
      pos   <= pos + 4'd1;
      tx    <= pos[3] ? 1'b1 : data;   // after the data bits, the stop bit
      if (pos == 4'd9) busy <= 1'b0;   // the stop bit is done: the line stays high
    end
  end

endmodule

`default_nettype wire
