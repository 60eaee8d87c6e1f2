// ulx3s_top: Umbra on the ULX3S board (Lattice ECP5 LFE5U-85F, CABGA381; 25 MHz
// oscillator, 32 MB SDR SDRAM, FTDI UART, buttons and 8 LEDs; pins in fpga/ulx3s.lpf,
// named as the board's published constraint file names them).
//
//   - fpga/ecp5_clock.v: the 25 MHz oscillator through the EHXPLLL to the core clock,
//     CLK_HZ (fpga.board_clock_mhz; the dividers from umbra-config --top ulx3s_top),
//     and the reset (power-on, PLL lock, FIRE1 = btn[1]);
//   - fpga/ulx3s_system.v: umbra_system with the configuration's cores, threads,
//     cache and queue, the SDRAM controller on the chip's pins, the UART host link
//     (docs/fpga.md, "The host protocol": umbra-load drives this board as it drives
//     the iCE40 boards) and the LEDs (led[0] running / blinking when done, led[1] a
//     fault, led[2] SDRAM initialized).
//
// The SDRAM's clock is the core clock forwarded through an output DDR flip-flop
// (ODDRX1F, 1 then 0), so it leaves the chip from an I/O cell as the commands do and
// the chip samples each command at the next rising edge, the timing
// rtl/sdram_controller.v is written for.  DQ is a tristate pin; the controller's
// output enable drives it.
//
// Simulation (the board bench, fpga/tests/ulx3s_sim_test.cpp) sets PLL = 0 and drives
// clk_25mhz at CLK_HZ, so the core clock is the pin (Verilator cannot multiply a
// clock); sdram_clk is then the clock itself, and the bench's chip model is clocked
// from the bench's own loop.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module ulx3s_top #(
    parameter integer CORES            = `UMBRA_DEFAULT_CORES,
    `UMBRA_CORE_PARAMS,  // the core's (isa/config_keys.yaml)
    parameter integer MODE_REORDER     = `UMBRA_DEFAULT_MODE_REORDER,
    parameter integer QUEUE_DEPTH      = `UMBRA_DEFAULT_QUEUE_DEPTH,
    parameter integer OPEN_ROWS        = `UMBRA_DEFAULT_OPEN_ROWS,
    parameter integer MAX_PASSES       = `UMBRA_DEFAULT_MAX_PASSES,
    parameter integer BANKS            = 4,
    parameter integer ROW_BYTES        = 1024,
    parameter integer RESP_REGISTER    = `UMBRA_DEFAULT_RESP_REGISTER,  // memory.response_register
    parameter integer REQ_REGISTER     = `UMBRA_DEFAULT_REQ_REGISTER,   // memory.request_register
    parameter integer REGISTERED_START = `UMBRA_DEFAULT_REGISTERED_START,  // dispatch.registered_start
    parameter integer REGISTERED_PICK  = `UMBRA_DEFAULT_REGISTERED_PICK,  // queue.registered_pick
    parameter integer REGISTERED_ACCEPT = `UMBRA_DEFAULT_REGISTERED_ACCEPT,  // queue.registered_accept
    // The SDRAM's times in clocks of CLK_HZ: sdram.*, rounded by umbra-config.
    `UMBRA_SDRAM_CLOCKS_PARAMS,
    // The core clock and the PLL that makes it (umbra-config --top ulx3s_top gives all
    // four from fpga.board_clock_mhz).
    parameter integer CLK_HZ           = 50000000,
    parameter integer PLL              = 1,
    parameter integer PLL_CLKI_DIV     = 1,
    parameter integer PLL_CLKFB_DIV    = 2,
    parameter integer PLL_CLKOP_DIV    = 12,
    parameter integer BAUD             = 115200,
    parameter integer IDLE_CLKS        = CLK_HZ / 4   // a bad frame ends after 250 ms quiet
) (
    input  wire        clk_25mhz,
    input  wire        ftdi_txd,     // the FTDI chip's TX: the FPGA receives
    output wire        ftdi_rxd,     // the FTDI chip's RX: the FPGA transmits
    input  wire [1:1]  btn,      // FIRE1 (the only button used: reset)
    output wire [7:0]  led,

    output wire        sdram_clk,
    output wire        sdram_cke,
    output wire        sdram_csn,
    output wire        sdram_rasn,
    output wire        sdram_casn,
    output wire        sdram_wen,
    output wire [1:0]  sdram_ba,
    output wire [12:0] sdram_a,
    output wire [1:0]  sdram_dqm,
    inout  wire [15:0] sdram_d
);

  wire clk, sys_rst;
  ecp5_clock #(
      .PLL(PLL), .PLL_CLKI_DIV(PLL_CLKI_DIV), .PLL_CLKFB_DIV(PLL_CLKFB_DIV),
      .PLL_CLKOP_DIV(PLL_CLKOP_DIV)
  ) u_clock (
      .osc(clk_25mhz), .btn(btn[1]), .clk(clk), .rst(sys_rst)
  );

  wire [15:0] dq_o;
  wire        dq_oe;
  ulx3s_system #(
      `UMBRA_CORE_PASS, .CORES(CORES), .MODE_REORDER(MODE_REORDER), .QUEUE_DEPTH(QUEUE_DEPTH),
      .OPEN_ROWS(OPEN_ROWS), .MAX_PASSES(MAX_PASSES), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES),
      .RESP_REGISTER(RESP_REGISTER), .REQ_REGISTER(REQ_REGISTER),
      .REGISTERED_START(REGISTERED_START), .REGISTERED_PICK(REGISTERED_PICK),
      .REGISTERED_ACCEPT(REGISTERED_ACCEPT),
      `UMBRA_SDRAM_CLOCKS_PASS,
      .CLK_HZ(CLK_HZ), .CLKS_PER_BIT(CLK_HZ / BAUD), .IDLE_CLKS(IDLE_CLKS),
      .BLINK_BIT(24   /* toggles every 0.84 s at 20 MHz */)
  ) u_sys (
      .clk(clk), .sys_rst(sys_rst), .rx(ftdi_txd), .tx(ftdi_rxd), .led(led),
      .sdram_cke(sdram_cke), .sdram_cs_n(sdram_csn), .sdram_ras_n(sdram_rasn),
      .sdram_cas_n(sdram_casn), .sdram_we_n(sdram_wen), .sdram_ba(sdram_ba), .sdram_a(sdram_a),
      .sdram_dqm(sdram_dqm), .sdram_dq_o(dq_o), .sdram_dq_oe(dq_oe), .sdram_dq_i(sdram_d)
  );
  assign sdram_d = dq_oe ? dq_o : 16'bz;

  generate
    if (PLL != 0) begin : g_clk_out
      ODDRX1F u_sdram_clk (.D0(1'b1), .D1(1'b0), .SCLK(clk), .RST(1'b0), .Q(sdram_clk));
    end else begin : g_clk_sim
      assign sdram_clk = clk;
    end
  endgenerate

endmodule

`default_nettype wire
