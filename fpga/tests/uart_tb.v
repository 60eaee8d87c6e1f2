// uart_tb: fpga/uart_tx.v into fpga/uart_rx.v, driven as fpga/host_link.v drives
// them: the sender holds valid and answers each bit the transmitter asks for, moving
// to the next byte when the eighth has been taken; the receiver's bits are shifted into
// a byte, which is whole when the stop bit is.  Every byte value goes through back to
// back at two bit lengths (even and odd clocks per bit); a frame with a low stop bit
// must give frame_error and no byte; a glitch shorter than half a bit must give nothing.  Prints PASS or FAIL
// lines; uart_test.sh runs it under iverilog and fails on any FAIL.
`default_nettype none

module uart_tb;
  reg clk = 1'b0;
  always #5 clk = !clk;

  integer failures = 0;

  // ---- loopback at CLKS_PER_BIT = 8 and 5 -------------------------------------------
  reg        rst = 1'b1;
  reg  [7:0] txd [0:1];
  reg        txv [0:1];
  wire [2:0] txi [0:1];
  wire       txt [0:1];
  wire       line [0:1];
  wire       rxbv [0:1];
  wire       rxb [0:1];
  wire       rxv [0:1];
  wire       rxe [0:1];
  reg  [7:0] rxd [0:1];

  genvar g;
  generate
    for (g = 0; g < 2; g = g + 1) begin : g_link
      localparam integer CPB = (g == 0) ? 8 : 5;
      uart_tx #(.CLKS_PER_BIT(CPB)) u_tx (
          .clk(clk), .rst(rst), .valid(txv[g]), .index(txi[g]), .data(txd[g][txi[g]]),
          .take(txt[g]), .tx(line[g]));
      uart_rx #(.CLKS_PER_BIT(CPB)) u_rx (
          .clk(clk), .rst(rst), .rx(line[g]), .bit_valid(rxbv[g]), .bit_data(rxb[g]),
          .valid(rxv[g]), .frame_error(rxe[g]), .active());
      /* verilator lint_on PINCONNECTEMPTY */
      always @(posedge clk)
        if (rxbv[g]) rxd[g] <= {rxb[g], rxd[g][7:1]};
    end
  endgenerate

  // Sender: bytes 0..255 back to back on both links.
  integer sent [0:1];
  integer got [0:1];
  integer l;
  always @(posedge clk) begin
    for (l = 0; l < 2; l = l + 1) begin
      if (!rst && txv[l] && txt[l] && txi[l] == 3'd7) begin
        sent[l] = sent[l] + 1;
        txd[l] <= sent[l];
        txv[l] <= (sent[l] < 256);
      end
      if (rxv[l]) begin
        if (rxd[l] !== got[l][7:0]) begin
          $display("FAIL link %0d: byte %0d received as %0d", l, got[l], rxd[l]);
          failures = failures + 1;
        end
        got[l] = got[l] + 1;
      end
      if (rxe[l]) begin
        $display("FAIL link %0d: frame error in loopback", l);
        failures = failures + 1;
      end
    end
  end

  // ---- a hand-driven line for the error cases, CLKS_PER_BIT = 8 ------------------------
  reg        hline = 1'b1;
  reg  [7:0] hd;
  wire       hbv, hb, hv, he;
  integer    hbytes = 0, herrors = 0;
  uart_rx #(.CLKS_PER_BIT(8)) u_hrx (
      .clk(clk), .rst(rst), .rx(hline), .bit_valid(hbv), .bit_data(hb), .valid(hv),
      .frame_error(he), .active());
  /* verilator lint_on PINCONNECTEMPTY */
  always @(posedge clk) begin
    if (hbv) hd <= {hb, hd[7:1]};
    if (hv) hbytes = hbytes + 1;
    if (he) herrors = herrors + 1;
  end

  task hframe(input [7:0] b, input stop);
    integer i;
    begin
      hline = 1'b0;
      repeat (8) @(posedge clk);
      for (i = 0; i < 8; i = i + 1) begin
        hline = b[i];
        repeat (8) @(posedge clk);
      end
      hline = stop;
      repeat (8) @(posedge clk);
      hline = 1'b1;
      repeat (16) @(posedge clk);
    end
  endtask

  initial begin
    sent[0] = 0; sent[1] = 0; got[0] = 0; got[1] = 0;
    txd[0] = 8'd0; txd[1] = 8'd0;
    txv[0] = 1'b1; txv[1] = 1'b1;
    repeat (4) @(posedge clk);
    rst = 1'b0;

    hframe(8'ha5, 1'b0);                     // low stop bit
    if (herrors != 1 || hbytes != 0) begin
      $display("FAIL low stop bit: %0d frame errors, %0d bytes (want 1, 0)", herrors, hbytes);
      failures = failures + 1;
    end
    hline = 1'b0;                            // glitch of 2 clocks, under half a bit
    repeat (2) @(posedge clk);
    hline = 1'b1;
    repeat (200) @(posedge clk);
    if (herrors != 1 || hbytes != 0) begin
      $display("FAIL glitch: %0d frame errors, %0d bytes (want 1, 0)", herrors, hbytes);
      failures = failures + 1;
    end
    hframe(8'h3c, 1'b1);                     // and the line still works
    if (hbytes != 1 || hd !== 8'h3c) begin
      $display("FAIL after errors: %0d bytes, last %h (want 1, 3c)", hbytes, hd);
      failures = failures + 1;
    end

    // 256 frames of 10 bits at 8 clocks: under 21000 clocks.
    repeat (25000) @(posedge clk);
    for (l = 0; l < 2; l = l + 1)
      if (got[l] != 256) begin
        $display("FAIL link %0d: %0d of 256 bytes received", l, got[l]);
        failures = failures + 1;
      end
    if (failures == 0) $display("PASS");
    $finish;
  end
endmodule

`default_nettype wire
