// hx8k_breakout_top: the Umbra core on Lattice's iCE40-HX8K breakout board
// (iCE40HX8K-CT256, 12 MHz oscillator, FTDI FT2232H UART, eight user LEDs; pins in
// fpga/hx8k_breakout.pcf).  A board top is its pins, its clock and its memory: the
// core, the data memory, the run counters, the UART host link and the status lights are
// fpga/board_system.v's, as on the iCEBreaker, so umbra-load drives either board; this
// board's memory is block RAM (SPRAM = 0: the HX8K has no SPRAM), configs/
// ice40-hx8k-breakout.yaml's 4 KiB.
//
// The clock (fpga/board_clock.v): the oscillator (PLL = 0, CLK_DIV = 1) or the PLL
// (SB_PLL40_CORE fed from the oscillator's pin), as the configuration's
// fpga.board_clock_mhz says (fpga/build.sh).  The board has no user button: reset is
// power-on and the PLL's lock, and the host's RESET command (core and memory only).
// LEDs, active high: D2 steady while running and blinking once a run has finished, D3
// on a fault.  Simulation (Verilator) runs it with PLL = 0, CLK_DIV = 1 and a fast UART.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module hx8k_breakout_top #(
    `UMBRA_CORE_PARAMS,  // the core's (isa/config_keys.yaml); fpga/build.sh gives them all
    parameter integer MEM_WORDS    = 1024,
    parameter integer OSC_HZ       = 12000000,      // the board's oscillator
    // The core clock: the oscillator divided by CLK_DIV (1 or 2) with PLL = 0, or the
    // PLL's output with PLL = 1 (its DIVR/DIVF/DIVQ/FILTER_RANGE as icepll gives
    // them, CLK_HZ its output frequency); fpga/build.sh sets these from
    // fpga.board_clock_mhz.  The UART's bit length follows CLK_HZ.
    parameter integer CLK_DIV      = 1,
    parameter integer PLL          = 0,
    parameter integer PLL_DIVR     = 0,
    parameter integer PLL_DIVF     = 0,
    parameter integer PLL_DIVQ     = 0,
    parameter integer PLL_FILTER   = 1,
    parameter integer CLK_HZ       = OSC_HZ / CLK_DIV,
    parameter integer BAUD         = 115200,
    parameter integer IDLE_CLKS    = CLK_HZ / 4     // a bad frame ends after 250 ms quiet
) (
    input  wire CLK,
    input  wire RX,
    output wire TX,
    output wire [7:0] LED
);

  localparam integer CLKS_PER_BIT = CLK_HZ / BAUD;

  // ---- clock and reset (fpga/board_clock.v) ---------------------------------------------
  wire clk;
  wire sys_rst;
  board_clock #(
      .CLK_DIV(CLK_DIV), .PLL(PLL), .PLL_PAD(0), .PLL_DIVR(PLL_DIVR), .PLL_DIVF(PLL_DIVF),
      .PLL_DIVQ(PLL_DIVQ), .PLL_FILTER(PLL_FILTER)
  ) u_clock (
      .osc(CLK), .btn_n(1'b1), .clk(clk), .rst(sys_rst)
  );

  wire led_r, led_g;
  board_system #(
      `UMBRA_CORE_PASS, .MEM_WORDS(MEM_WORDS), .SPRAM(0), .CLK_HZ(CLK_HZ),
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS),
      .BLINK_BIT(22   /* toggles every third of a second at 12 MHz */)
  ) u_sys (
      .clk(clk), .sys_rst(sys_rst), .rx(RX), .tx(TX), .led_r(led_r), .led_g(led_g)
  );
  assign LED = {6'd0, led_r, led_g};

endmodule

`default_nettype wire
