// board_system: what both board tops put around the core -- the core, its data memory
// (spram_memory: SPRAM on the UP5K, block RAM on the HX8K), the run counters, the UART
// host link and the two status lights.  The tops keep only what differs per board:
// the clock (oscillator, divider or PLL), the reset inputs and the pins.
`default_nettype none

`include "umbra_isa.vh"   // UMBRA_GROUP_ATOMIC
`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module board_system #(
    `UMBRA_CORE_PARAMS,  // the core's (isa/config_keys.yaml)
    parameter integer MEM_WORDS    = 32768,
    parameter integer SPRAM        = 1,             // data memory in SPRAM (UP5K) or block RAM
    parameter integer CLK_HZ       = 6000000,
    parameter integer CLKS_PER_BIT = 52,
    parameter integer IDLE_CLKS    = CLK_HZ / 4,
    parameter integer BLINK_BIT    = 21             // the counter bit that blinks the "ran" light
) (
    input  wire clk,
    input  wire sys_rst,
    input  wire rx,
    output wire tx,
    output reg  led_r,   // a fault or a protocol error
    output reg  led_g    // busy, or blinking after a run
);
  wire link_core_rst;
  reg  core_rst;
  always @(posedge clk) core_rst <= sys_rst || link_core_rst;

  // A word port: the loader gives LINE_PORT 0 without a cache, and this memory has no
  // line port for a configuration with one.
  generate
    if (LINE_PORT != 0) begin : g_check_line_port
      board_system_has_no_line_port_set_cache_line_port_false u_error ();
    end
  endgenerate

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
  umbra_core #(`UMBRA_CORE_PASS, .CORE_ID(0)) u_core (
      .clk(clk), .rst(core_rst),
      .host_imem_we(imem_we), .host_imem_addr(imem_addr), .host_imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .launch_lx0(32'd0), .launch_domw(launch_count), .ncore(32'd1), .args(32'd0), .inval_all(1'b0),
      .domain_valid(1'b0), .domain_w(32'd0), .domain_h(32'd0),
      .start_valid(1'b0), .start_lx(32'd0), .start_ly(32'd0), .can_start(),
      .busy(busy), .fault(fault), .fault_thread(fault_thread), .fault_pc(fault_pc),
      .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_op(req_op),
      .mem_req_addr(req_addr), .mem_req_data(req_data), .mem_req_cmp(req_cmp),
      .mem_req_tag(req_tag),
      .mem_resp_valid(resp_valid), .mem_resp_data(resp_data), .mem_resp_tag(resp_tag),
      .mem_req_mask(), .mem_req_line(), .mem_resp_line({(8*CACHE_LINE_BYTES){1'b0}}),  // a word port: no line port
      .mem_resp_ahead_tag(8'd0),  // no response register
      .trace_issue_valid(issue_valid), .trace_issue_thread(), .trace_issue_pc(),
      .trace_issue_reason(), .trace_regwrite_valid(), .trace_regwrite_thread(),
      .trace_regwrite_pc(), .trace_regwrite_reg(), .trace_regwrite_value(),
      .trace_fault_cause(), .trace_protocol_error(protocol_error),
      .trace_cache_valid(), .trace_cache_thread(), .trace_cache_op(), .trace_cache_addr(),
      .trace_cache_outcome(), .trace_wake_valid(), .trace_wake_thread(), .trace_start_thread()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- data memory ----------------------------------------------------------------------
  wire        hm_valid, hm_grant, hm_we, hm_rvalid, mem_fault;
  wire        mem_fault_addr_lsb, mem_fault_addr_rotate;
  wire [14:0] hm_addr;
  wire [31:0] hm_wdata, hm_rdata;
  localparam [31:0] GROUPS_U = GROUPS;
  spram_memory #(
      .SPRAM(SPRAM), .MEM_WORDS(MEM_WORDS), .LINE_BYTES(CACHE_LINE_BYTES),
      .ATOMICS(GROUPS_U[`UMBRA_GROUP_ATOMIC] ? 1 : 0)
  ) u_mem (
      .clk(clk), .rst(core_rst),
      .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_op(req_op),
      .mem_req_addr(req_addr), .mem_req_data(req_data), .mem_req_cmp(req_cmp),
      .mem_req_tag(req_tag),
      .mem_resp_valid(resp_valid), .mem_resp_data(resp_data), .mem_resp_tag(resp_tag),
      .host_valid(hm_valid), .host_grant(hm_grant), .host_we(hm_we), .host_addr(hm_addr),
      .host_wdata(hm_wdata), .host_rvalid(hm_rvalid), .host_rdata(hm_rdata),
      .fault(mem_fault), .fault_addr_lsb(mem_fault_addr_lsb),
      .fault_addr_rotate(mem_fault_addr_rotate)
  );

  // ---- run counters -----------------------------------------------------------------------
  // The protocol's fields are 64 bits; the counters are CW bits, which wrap after 2^48
  // cycles (81 days at 40 MHz) and cost 32 logic cells fewer than 64 would.  The link
  // reads them a bit at a time: it asks for a rotation right by one per bit it sends
  // and takes bit 0, and a whole STATUS reply turns each counter exactly once round.
  // The rotation is an input of the LUT each counter bit has anyway (the bit, its
  // carry in, the rotate request and the next bit), so it costs no logic cell, where
  // the link's multiplexer over the 96 bits had cost about one a bit.  The link only
  // rotates a counter that stands still (the run has ended), so none is counting.
  localparam integer CW = 48;
  reg [CW-1:0] cycles, issued;
  reg          launched;
  wire         cycles_rotate, issued_rotate;
  always @(posedge clk) begin
    if (core_rst) begin
      cycles   <= {CW{1'b0}};
      issued   <= {CW{1'b0}};
      launched <= 1'b0;
    end else if (launch_valid) begin
      cycles   <= {CW{1'b0}};
      issued   <= {CW{1'b0}};
      launched <= 1'b1;
    end else begin
      if (cycles_rotate) cycles <= {cycles[0], cycles[CW-1:1]};
      else if (busy) cycles <= cycles + 1'b1;
      if (issued_rotate) issued <= {issued[0], issued[CW-1:1]};
      else if (issue_valid) issued <= issued + 1'b1;
    end
  end

  // ---- the host link ------------------------------------------------------------------------
  // The core reports a fault thread below THREADS and a fault pc inside its store
  // (umbra_core pads both with zeros), so the link sends the rest as zero.
  localparam integer THREAD_BITS = (THREADS > 1) ? $clog2(THREADS) : 1;
  localparam integer PC_BITS     = $clog2(IMEM_WORDS) + 2;
  /* verilator lint_off PINCONNECTEMPTY */
  host_link #(
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS), .THREADS(THREADS), .REGS(REGS),
      .IMEM_WORDS(IMEM_WORDS), .MEM_WORDS(MEM_WORDS), .LINE_BYTES(CACHE_LINE_BYTES), .CLK_HZ(CLK_HZ),
      .COUNT_BITS(CW), .THREAD_BITS(THREAD_BITS), .PC_BITS(PC_BITS)
  ) u_link (
      .clk(clk), .rst(sys_rst), .rx(rx), .tx(tx),
      .core_rst(link_core_rst),
      .imem_we(imem_we), .imem_addr(imem_addr), .imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .doorbell_valid(), .doorbell_addr(),  // DOORBELL = 0: one core, no command processor
      .mem_valid(hm_valid), .mem_grant(hm_grant), .mem_we(hm_we), .mem_addr(hm_addr),
      .mem_wdata(hm_wdata), .mem_rvalid(hm_rvalid), .mem_rdata(hm_rdata),
      .busy(busy), .fault(fault), .fault_thread(fault_thread), .fault_pc(fault_pc),
      .mem_fault(mem_fault), .mem_fault_addr_lsb(mem_fault_addr_lsb),
      .mem_fault_addr_rotate(mem_fault_addr_rotate),
      .protocol_error(protocol_error), .launched(launched),
      .cycles_lsb(cycles[0]), .issued_lsb(issued[0]), .cycles_rotate(cycles_rotate),
      .issued_rotate(issued_rotate)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- status lights ----------------------------------------------------------------------
  reg [BLINK_BIT:0] blink = {(BLINK_BIT + 1){1'b0}};
  always @(posedge clk) begin
    blink <= blink + 1'b1;
    led_r <= fault || mem_fault || protocol_error;
    led_g <= busy || (launched && blink[BLINK_BIT]);
  end

endmodule

`default_nettype wire
