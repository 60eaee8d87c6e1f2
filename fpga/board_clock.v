// board_clock: the core clock and the reset of a board top (fpga/icebreaker_top.v,
// fpga/hx8k_breakout_top.v), from the board's oscillator: the oscillator itself
// (CLK_DIV = 1), halved by a flip-flop whose output nextpnr promotes to a global
// clock (CLK_DIV = 2), or the PLL's output (PLL = 1, its DIVR/DIVF/DIVQ/FILTER_RANGE
// as icepll gives them; fpga/build.sh sets all of these from fpga.board_clock_mhz).
// The PLL is an SB_PLL40_PAD where the oscillator reaches a PLL input pad (PLL_PAD = 1,
// the iCEBreaker's pin 35) and an SB_PLL40_CORE fed from the fabric otherwise (the
// HX8K breakout's J3); yosys flattens this module into the top, so the pad primitive
// still sees the top's pin.
//
// Reset (rst, synchronous to clk): held for the first 15 cycles after configuration
// (the iCE40 loads every flip-flop's initial value with the bitstream, so a counter
// starting at 0 is a power-on reset), while the PLL has not locked, and while the
// active-low button btn_n is pressed (synchronized here; tie it high on a board
// without one).
`default_nettype none

module board_clock #(
    parameter integer CLK_DIV    = 1,
    parameter integer PLL        = 0,
    parameter integer PLL_PAD    = 0,
    parameter integer PLL_DIVR   = 0,
    parameter integer PLL_DIVF   = 0,
    parameter integer PLL_DIVQ   = 0,
    parameter integer PLL_FILTER = 1
) (
    input  wire osc,     // the board's oscillator pin
    input  wire btn_n,   // reset button, active low (1'b1 when the board has none)
    output wire clk,
    output wire rst
);

  wire pll_lock;
  generate
    if (PLL != 0) begin : g_pll
      // The design is held in reset until the PLL locks.
      localparam [3:0] DIVR = PLL_DIVR;
      localparam [6:0] DIVF = PLL_DIVF;
      localparam [2:0] DIVQ = PLL_DIVQ;
      localparam [2:0] FILT = PLL_FILTER;
      if (PLL_PAD != 0) begin : g_pad
        SB_PLL40_PAD #(
            .FEEDBACK_PATH("SIMPLE"), .DIVR(DIVR), .DIVF(DIVF), .DIVQ(DIVQ), .FILTER_RANGE(FILT)
        ) u_pll (
            .PACKAGEPIN(osc), .PLLOUTGLOBAL(clk), .LOCK(pll_lock), .RESETB(1'b1), .BYPASS(1'b0));
      end else begin : g_core
        SB_PLL40_CORE #(
            .FEEDBACK_PATH("SIMPLE"), .DIVR(DIVR), .DIVF(DIVF), .DIVQ(DIVQ), .FILTER_RANGE(FILT)
        ) u_pll (
            .REFERENCECLK(osc), .PLLOUTGLOBAL(clk), .LOCK(pll_lock), .RESETB(1'b1), .BYPASS(1'b0));
      end
    end else if (CLK_DIV == 1) begin : g_osc
      assign clk = osc;
      assign pll_lock = 1'b1;
    end else if (CLK_DIV == 2) begin : g_half
      reg half = 1'b0;
      always @(posedge osc) half <= !half;
      assign clk = half;
      assign pll_lock = 1'b1;
    end else begin : g_bad_div
      board_clock_CLK_DIV_must_be_1_or_2 u_error ();  // no such module
    end
  endgenerate

  reg [3:0] por = 4'd0;
  reg [1:0] btn_s = 2'b11;
  always @(posedge clk) begin
    btn_s <= {btn_s[0], btn_n};
    if (por != 4'hf) por <= por + 4'd1;
  end
  assign rst = (por != 4'hf) || !btn_s[1] || !pll_lock;

endmodule

`default_nettype wire
