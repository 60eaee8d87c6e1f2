// ulx3s_bench: fpga/ulx3s_top.v as the board bench (fpga/tests/ulx3s_sim_test.cpp)
// Verilates it, with the SDRAM's data bus split into the two sides a C++ chip model
// can meet.  Simulation only.
//
// Why a wrapper: Verilator (5.006) gives a top-level inout no input side -- a top
// port `inout sdram_d` reads back only what the design drives -- so the chip cannot
// answer on it.  Inside this wrapper the bus is an ordinary net with two tristate
// drivers, the top's and the chip's (chip_dq when chip_dq_oe), which Verilator
// resolves; the bench reads the resolved bus (sdram_dq, what the chip sees) and the
// top's own output enable (sdram_dq_oe, by hierarchical reference, since the board
// has no pin for it), so the chip model can judge who drives DQ.  Every parameter is
// the top's, passed through.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module ulx3s_bench #(
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
    parameter integer CLK_HZ           = 50000000,
    parameter integer PLL              = 0,
    parameter integer PLL_CLKI_DIV     = 1,
    parameter integer PLL_CLKFB_DIV    = 2,
    parameter integer PLL_CLKOP_DIV    = 12,
    parameter integer BAUD             = 115200,
    parameter integer IDLE_CLKS        = CLK_HZ / 4
) (
    input  wire        clk_25mhz,
    input  wire        ftdi_txd,
    output wire        ftdi_rxd,
    input  wire [1:1]  btn,
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
    output wire [15:0] sdram_dq,       // the bus as resolved
    output wire        sdram_dq_oe,    // the FPGA drives it
    input  wire [15:0] chip_dq,
    input  wire        chip_dq_oe
);

  wire [15:0] bus;
  ulx3s_top #(
      `UMBRA_CORE_PASS, .CORES(CORES), .MODE_REORDER(MODE_REORDER), .QUEUE_DEPTH(QUEUE_DEPTH),
      .OPEN_ROWS(OPEN_ROWS), .MAX_PASSES(MAX_PASSES), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES),
      .RESP_REGISTER(RESP_REGISTER), .REQ_REGISTER(REQ_REGISTER),
      .REGISTERED_START(REGISTERED_START), .REGISTERED_PICK(REGISTERED_PICK),
      .REGISTERED_ACCEPT(REGISTERED_ACCEPT),
      `UMBRA_SDRAM_CLOCKS_PASS,
      .CLK_HZ(CLK_HZ), .PLL(PLL), .PLL_CLKI_DIV(PLL_CLKI_DIV), .PLL_CLKFB_DIV(PLL_CLKFB_DIV),
      .PLL_CLKOP_DIV(PLL_CLKOP_DIV), .BAUD(BAUD), .IDLE_CLKS(IDLE_CLKS)
  ) u_top (
      .clk_25mhz(clk_25mhz), .ftdi_txd(ftdi_txd), .ftdi_rxd(ftdi_rxd), .btn(btn), .led(led),
      .sdram_clk(sdram_clk), .sdram_cke(sdram_cke), .sdram_csn(sdram_csn),
      .sdram_rasn(sdram_rasn), .sdram_casn(sdram_casn), .sdram_wen(sdram_wen),
      .sdram_ba(sdram_ba), .sdram_a(sdram_a), .sdram_dqm(sdram_dqm), .sdram_d(bus)
  );
  assign bus = chip_dq_oe ? chip_dq : 16'bz;
  assign sdram_dq = bus;
  assign sdram_dq_oe = u_top.dq_oe;

endmodule

`default_nettype wire
