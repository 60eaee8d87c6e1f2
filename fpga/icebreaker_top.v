// icebreaker_top: the Umbra core on an iCEBreaker board (iCE40UP5K-SG48, 12 MHz
// oscillator, FTDI UART, one button, two user LEDs; pins in fpga/icebreaker.pcf).
//
//   - umbra_core, the shader core, unchanged (its generic ports as documented);
//   - spram_memory: the data memory in the UP5K's four SPRAMs (128 KiB) behind the
//     core's generic memory port, atomics performed there as read-modify-writes,
//     fills answered with a line's words on consecutive cycles;
//   - host_link: the UART command interpreter through which a host loads the
//     instruction store and data memory, launches, polls status and reads results
//     (docs/fpga.md, "The host protocol"; the host side is fpga/host/);
//   - the run counters the status reply carries: cycles with `busy` high since the
//     last launch (the contract's run length) and instructions issued since then;
//   - LEDs (active low): green steady while running, green blinking when the run has
//     finished (halted), red on a fault (the core's, the memory's, or a port
//     protocol error); both off before the first launch.
//
// Everything runs on one clock: the 12 MHz oscillator, or it divided by two (a
// flip-flop whose output nextpnr promotes to a global clock), or the PLL
// (SB_PLL40_PAD: the oscillator's pin 35 is a PLL input pad), as the configuration's
// fpga.board_clock_mhz says (fpga/build.sh): the iCE40's PLL makes nothing below
// 16 MHz, and the core's Fmax today (docs/fpga.md) is below 12 MHz, so it runs at 6.
// Reset: power-on (a few cycles after configuration), the button, and the host's
// RESET command (core and memory controller only; the link stays up).  Simulation
// (Verilator, Icarus) compiles fpga/sim/SB_SPRAM256KA.v beside this file and sets
// CLK_DIV to 1, BAUD to OSC_HZ/8 and IDLE_CLKS small, so a bit is a few clocks.
`default_nettype none

`include "umbra_uarch.vh"

module icebreaker_top #(
    parameter integer THREADS      = 8,
    parameter integer EXEC_STAGES  = `UMBRA_DEFAULT_EXECUTE_STAGES,  // X1 -> W
    parameter integer REGS         = 32,
    // Defaults: configs/ice40-up5k.yaml.
    parameter integer IMEM_WORDS   = 1024,
    parameter integer MEM_WORDS    = 32768,
    parameter integer LINE_BYTES   = 4,
    parameter integer CACHE_BYTES  = 0,
    parameter integer CACHE_WAYS   = 1,
    parameter integer REQ_QUEUE    = 8,
    parameter integer MUL_ROWS     = 0,             // 1: multiplier as logic rows (no DSPs)
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

  // ---- clock ----------------------------------------------------------------------------
  wire clk;
  wire pll_lock;
  generate
    if (PLL != 0) begin : g_pll
      // The PLL's settings come from icepll at build time (fpga/build.sh, from the
      // configuration's fpga.board_clock_mhz); the design is held in reset until it locks.
      localparam [3:0] DIVR = PLL_DIVR;
      localparam [6:0] DIVF = PLL_DIVF;
      localparam [2:0] DIVQ = PLL_DIVQ;
      localparam [2:0] FILT = PLL_FILTER;
      wire pll_out;
      SB_PLL40_PAD #(
          .FEEDBACK_PATH("SIMPLE"), .DIVR(DIVR), .DIVF(DIVF), .DIVQ(DIVQ), .FILTER_RANGE(FILT)
      ) u_pll (
          .PACKAGEPIN(CLK), .PLLOUTGLOBAL(pll_out), .LOCK(pll_lock), .RESETB(1'b1),
          .BYPASS(1'b0));
      assign clk = pll_out;
    end else if (CLK_DIV == 1) begin : g_osc
      assign clk = CLK;
      assign pll_lock = 1'b1;
    end else if (CLK_DIV == 2) begin : g_half
      reg half = 1'b0;
      always @(posedge CLK) half <= !half;
      assign clk = half;
      assign pll_lock = 1'b1;
    end else begin : g_bad_div
      icebreaker_top_CLK_DIV_must_be_1_or_2 u_error ();
    end
  endgenerate

  // ---- reset ----------------------------------------------------------------------------
  // The iCE40 loads every flip-flop's initial value with the bitstream, so a counter
  // starting at 0 holds the design in reset for its first 15 cycles.
  reg [3:0] por = 4'd0;
  reg [1:0] btn_s = 2'b11;
  always @(posedge clk) begin
    btn_s <= {btn_s[0], BTN_N};
    if (por != 4'hf) por <= por + 4'd1;
  end
  wire sys_rst = (por != 4'hf) || !btn_s[1] || !pll_lock;
  wire led_r, led_g;
  board_system #(
      .THREADS(THREADS), .EXEC_STAGES(EXEC_STAGES), .REGS(REGS), .IMEM_WORDS(IMEM_WORDS),
      .MEM_WORDS(MEM_WORDS), .LINE_BYTES(LINE_BYTES), .CACHE_BYTES(CACHE_BYTES), .CACHE_WAYS(CACHE_WAYS),
      .REQ_QUEUE(REQ_QUEUE), .MUL_ROWS(MUL_ROWS), .SPRAM(1), .CLK_HZ(CLK_HZ),
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS),
      .BLINK_BIT(21   /* toggles every third of a second at 6 MHz */)
  ) u_sys (
      .clk(clk), .sys_rst(sys_rst), .rx(RX), .tx(TX), .led_r(led_r), .led_g(led_g)
  );
  assign LEDR_N = !led_r;
  assign LEDG_N = !led_g;

endmodule

`default_nettype wire
