// ecp5_clock: the core clock and the reset of an ECP5 board top (fpga/ulx3s_top.v)
// from the board's oscillator: the EHXPLLL's CLKOP (PLL = 1; its dividers as
// umbra-config --top ulx3s_top computes them from fpga.board_clock_mhz as ecppll
// does: fout = fin * CLKFB_DIV / CLKI_DIV, the VCO at fout * CLKOP_DIV), or the
// oscillator itself (PLL = 0).  PLL = 0 is also the simulation's form, as the iCE40
// tops' is (fpga/board_clock.v): Verilator cannot multiply a clock, so the bench
// drives the oscillator pin at the core clock's frequency and every timing that
// follows CLK_HZ (the UART, the SDRAM's) is the same as on the board.
//
// Reset (rst, synchronous to clk): held for the first 15 cycles after configuration
// (every flip-flop starts from its initial value, so a counter from 0 is a power-on
// reset), while the PLL has not locked, and while the active-high button btn is
// pressed (synchronized here; tie it low on a board without one).
`default_nettype none

module ecp5_clock #(
    parameter integer PLL          = 1,
    parameter integer PLL_CLKI_DIV  = 1,
    parameter integer PLL_CLKFB_DIV = 2,
    parameter integer PLL_CLKOP_DIV = 12
) (
    input  wire osc,
    input  wire btn,
    output wire clk,
    output wire rst
);

  wire pll_lock;
  generate
    if (PLL != 0) begin : g_pll
      // The form `ecppll -i 25 -o MHZ` writes (its dividers agree with
      // umbra::ecp5_pll's): feedback from CLKOP, CLKOP_CPHASE = CLKOP_DIV / 2 - 1.
      (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
      (* MFG_GMCREF_SEL = "2" *)
      EHXPLLL #(
          .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
          .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
          .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
          .CLKI_DIV(PLL_CLKI_DIV), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_CLKOP_DIV),
          .CLKOP_CPHASE(PLL_CLKOP_DIV / 2 - 1), .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP"),
          .CLKFB_DIV(PLL_CLKFB_DIV)
      ) u_pll (
          .RST(1'b0), .STDBY(1'b0), .CLKI(osc), .CLKOP(clk), .CLKFB(clk),
          .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1),
          .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(pll_lock)
      );
    end else begin : g_osc
      assign clk = osc;
      assign pll_lock = 1'b1;
    end
  endgenerate

  reg [3:0] por = 4'd0;
  reg [1:0] btn_s = 2'b00;
  always @(posedge clk) begin
    btn_s <= {btn_s[0], btn};
    if (por != 4'hf) por <= por + 4'd1;
  end
  assign rst = (por != 4'hf) || btn_s[1] || !pll_lock;

endmodule

`default_nettype wire
