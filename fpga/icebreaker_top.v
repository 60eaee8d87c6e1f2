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

module icebreaker_top #(
    parameter integer THREADS      = 8,
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
  wire link_core_rst;
  reg  core_rst;
  always @(posedge clk) core_rst <= sys_rst || link_core_rst;

  // ---- the core -------------------------------------------------------------------------
  wire        imem_we, launch_valid;
  wire [31:0] imem_addr, imem_data, launch_count, launch_entry;
  wire        busy, fault, protocol_error, issue_valid;
  wire [7:0]  fault_thread;
  wire [31:0] fault_pc;
  wire        req_valid, req_ready;
  wire [7:0]  req_op, req_tag;
  wire [31:0] req_addr, req_data, req_cmp;
  wire        resp_valid;
  wire [31:0] resp_data;
  wire [7:0]  resp_tag;

  /* verilator lint_off PINCONNECTEMPTY */
  umbra_core #(
      .THREADS(THREADS), .REGS(REGS), .IMEM_WORDS(IMEM_WORDS), .CORE_ID(0),
      .CACHE_BYTES(CACHE_BYTES), .CACHE_WAYS(CACHE_WAYS), .CACHE_LINE_BYTES(LINE_BYTES),
      .REQ_QUEUE(REQ_QUEUE), .MUL_ROWS(MUL_ROWS)
  ) u_core (
      .clk(clk), .rst(core_rst),
      .host_imem_we(imem_we), .host_imem_addr(imem_addr), .host_imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .ncore(32'd1),
      .busy(busy), .fault(fault), .fault_thread(fault_thread), .fault_pc(fault_pc),
      .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_op(req_op),
      .mem_req_addr(req_addr), .mem_req_data(req_data), .mem_req_cmp(req_cmp),
      .mem_req_tag(req_tag),
      .mem_resp_valid(resp_valid), .mem_resp_data(resp_data), .mem_resp_tag(resp_tag),
      .trace_issue_valid(issue_valid), .trace_issue_thread(), .trace_issue_pc(),
      .trace_issue_reason(), .trace_regwrite_valid(), .trace_regwrite_thread(),
      .trace_regwrite_pc(), .trace_regwrite_reg(), .trace_regwrite_value(),
      .trace_fault_cause(), .trace_protocol_error(protocol_error),
      .trace_cache_valid(), .trace_cache_thread(), .trace_cache_op(), .trace_cache_addr(),
      .trace_cache_outcome(), .trace_wake_valid(), .trace_wake_thread()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- data memory ----------------------------------------------------------------------
  wire        hm_valid, hm_grant, hm_we, hm_rvalid, mem_fault;
  wire [14:0] hm_addr;
  wire [31:0] hm_wdata, hm_rdata, mem_fault_addr;
  spram_memory #(
      .SPRAM(1), .MEM_WORDS(MEM_WORDS), .LINE_BYTES(LINE_BYTES)
  ) u_mem (
      .clk(clk), .rst(core_rst),
      .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_op(req_op),
      .mem_req_addr(req_addr), .mem_req_data(req_data), .mem_req_cmp(req_cmp),
      .mem_req_tag(req_tag),
      .mem_resp_valid(resp_valid), .mem_resp_data(resp_data), .mem_resp_tag(resp_tag),
      .host_valid(hm_valid), .host_grant(hm_grant), .host_we(hm_we), .host_addr(hm_addr),
      .host_wdata(hm_wdata), .host_rvalid(hm_rvalid), .host_rdata(hm_rdata),
      .fault(mem_fault), .fault_addr(mem_fault_addr)
  );

  // ---- run counters -----------------------------------------------------------------------
  reg [63:0] cycles, issued;
  reg        launched;
  always @(posedge clk) begin
    if (core_rst) begin
      cycles   <= 64'd0;
      issued   <= 64'd0;
      launched <= 1'b0;
    end else if (launch_valid) begin
      cycles   <= 64'd0;
      issued   <= 64'd0;
      launched <= 1'b1;
    end else begin
      if (busy) cycles <= cycles + 64'd1;
      if (issue_valid) issued <= issued + 64'd1;
    end
  end

  // ---- the host link ------------------------------------------------------------------------
  host_link #(
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS), .THREADS(THREADS), .REGS(REGS),
      .IMEM_WORDS(IMEM_WORDS), .MEM_WORDS(MEM_WORDS), .LINE_BYTES(LINE_BYTES), .CLK_HZ(CLK_HZ)
  ) u_link (
      .clk(clk), .rst(sys_rst), .rx(RX), .tx(TX),
      .core_rst(link_core_rst),
      .imem_we(imem_we), .imem_addr(imem_addr), .imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .mem_valid(hm_valid), .mem_grant(hm_grant), .mem_we(hm_we), .mem_addr(hm_addr),
      .mem_wdata(hm_wdata), .mem_rvalid(hm_rvalid), .mem_rdata(hm_rdata),
      .busy(busy), .fault(fault), .fault_thread(fault_thread), .fault_pc(fault_pc),
      .mem_fault(mem_fault), .mem_fault_addr(mem_fault_addr),
      .protocol_error(protocol_error), .launched(launched), .cycles(cycles), .issued(issued)
  );

  // ---- LEDs -------------------------------------------------------------------------------
  reg [21:0] blink = 22'd0;           // bit 21 toggles every third of a second at 6 MHz
  reg        led_r, led_g;
  always @(posedge clk) begin
    blink <= blink + 22'd1;
    led_r <= fault || mem_fault || protocol_error;
    led_g <= busy || (launched && blink[21]);
  end
  assign LEDR_N = !led_r;
  assign LEDG_N = !led_g;

endmodule

`default_nettype wire
