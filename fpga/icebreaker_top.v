// icebreaker_top: the Umbra core on an iCEBreaker board (iCE40UP5K-SG48, 12 MHz
// oscillator, FTDI UART, one button, two user LEDs; pins in fpga/icebreaker.pcf).  A
// board top is its pins, its clock and its memory: the core, the data memory, the run
// counters, the UART host link (docs/fpga.md, "The host protocol"; the host side is
// fpga/host/) and the status lights are fpga/board_system.v's, shared with the HX8K
// breakout's top; this board's memory is the UP5K's four SPRAMs (128 KiB, SPRAM = 1).
//
// The clock (fpga/board_clock.v): the 12 MHz oscillator, it divided by two, or the PLL
// (SB_PLL40_PAD: the oscillator's pin 35 is a PLL input pad), as the configuration's
// fpga.board_clock_mhz says (fpga/build.sh).  Reset: power-on, the button and the
// PLL's lock (board_clock's), and the host's RESET command (the core and the memory
// controller; the link stays up).  LEDs, active low: green steady while running and
// blinking once a run has finished, red on a fault.  Simulation (Verilator, Icarus)
// compiles fpga/sim/SB_SPRAM256KA.v beside this file and sets CLK_DIV to 1, BAUD to
// OSC_HZ/8 and IDLE_CLKS small, so a bit is a few clocks.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module icebreaker_top #(
    `UMBRA_CORE_PARAMS,  // the core's (isa/config_keys.yaml); fpga/build.sh gives them all
    parameter integer MEM_WORDS    = 32768,
    parameter integer OSC_HZ       = 12000000,      // the board's oscillator
    // The core clock: the oscillator divided by CLK_DIV (1 or 2) with PLL = 0, or the
    // PLL's output with PLL = 1 (its DIVR/DIVF/DIVQ/FILTER_RANGE as icepll gives
    // them, CLK_HZ its output frequency); fpga/build.sh sets these from
    // fpga.board_clock_mhz.  The UART's bit length follows CLK_HZ.
    parameter integer CLK_DIV      = 2,
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
    input  wire BTN_N,
    output wire LEDR_N,
    output wire LEDG_N
);

  localparam integer CLKS_PER_BIT = CLK_HZ / BAUD;

  // ---- clock and reset (fpga/board_clock.v) ---------------------------------------------
  wire clk;
  wire sys_rst;
  board_clock #(
      .CLK_DIV(CLK_DIV), .PLL(PLL), .PLL_PAD(1), .PLL_DIVR(PLL_DIVR), .PLL_DIVF(PLL_DIVF),
      .PLL_DIVQ(PLL_DIVQ), .PLL_FILTER(PLL_FILTER)
  ) u_clock (
      .osc(CLK), .btn_n(BTN_N), .clk(clk), .rst(sys_rst)
  );

  wire led_r, led_g;
  board_system #(
      `UMBRA_CORE_PASS, .MEM_WORDS(MEM_WORDS), .SPRAM(1), .CLK_HZ(CLK_HZ),
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS),
      .BLINK_BIT(21   /* toggles every third of a second at 6 MHz */)
  ) u_sys (
      .clk(clk), .sys_rst(sys_rst), .rx(RX), .tx(TX), .led_r(led_r), .led_g(led_g)
  );
  assign LEDR_N = !led_r;
  assign LEDG_N = !led_g;

endmodule

`default_nettype wire
