// ulx3s_system: what the ULX3S board top (fpga/ulx3s_top.v) puts around the cores --
// rtl/umbra_system.v (CORES cores, arbiter, reorder queue, dispatcher, command
// processor), rtl/sdram_controller.v behind its DRAM port, the UART host link
// (fpga/host_link.v, the protocol umbra-load speaks), the run counters and the status
// lights.  The top keeps only the clock, the reset button and the pins.
//
// Why it is shaped so:
// - The host's memory reads and writes reach the SDRAM through a two-way mux in front
//   of the controller, not through the system's arbiter: umbra_system (and its
//   cosimulation) stays exactly the system the SystemC model checks, the host asks
//   rarely (a word per UART frame's 4 bytes) and almost only while the cores are
//   idle, and the controller serves requests one at a time in acceptance order, so a
//   host write granted before the host's LAUNCH (or a later doorbell) is in the chip
//   before any request of that run.  The host wins the mux when it asks (the system's
//   request waits in rq_* for that cycle, and the system sees ready low once the
//   second register holds one too, which the port's valid/ready rules allow); its
//   request carries the tag HOST_TAG, whose high byte is neither a core's nor the
//   command processor's, and its response is taken here and never reaches the queue.
//   Like the iCE40 boards' memory, a host write does not touch the cores' data
//   caches: host_link's RESET (inside umbra-load's load) resets the system and so
//   empties them.
// - The host reaches the whole SDRAM in windows of 128 KiB: host_link's word indices
//   are 15 bits, and its WINDOW command sets the address bits above them (HOST_WB of
//   them, from the chip's size), so the host's addresses need no adder.
// - The SDRAM's timings are the part's datasheet figures (MT48LC16M16A2-6A, the
//   board's bill of materials; docs/memory-system.md) in clocks of CLK_HZ, rounded
//   up (the refresh interval down) by umbra-config (umbra::sdram_clocks), the one
//   rounding the cosimulation's controllers and the chip model's judge also use.  The chip's geometry follows the configuration's
//   dram.banks and dram.row_bytes (the reorder queue's view of the chip): 4 banks and
//   1024-byte rows (512 columns of 16 bits) for this chip.
// - RESET from the host resets the system but not the controller: a controller reset
//   would re-run the chip's 100 us power-up and drop refreshes it owes.
// - The system's requests pass a register (rq_*) on their way to the host's mux
//   and the controller: the reorder queue's pick (open-row compares, the oldest hit,
//   the 16-way entry mux) is a Moore output of many levels, and the controller's
//   decode of an accepted request (op, alignment, range, the word mask) would add its
//   own on the same path (docs/fpga.md, "ULX3S timing: where the time goes").  The
//   register takes a request whenever it is empty or handing its request over, so row
//   hits still stream back to back.  A second register (sk_*) takes the request the
//   system sends while rq_* waits, and the ready the queue sees is sk_*'s emptiness
//   alone, a flip-flop: were it rq_*'s "empty or taken", the controller's acceptance
//   would run through it into the queue's send and shift, the one-core board's
//   longest path once the data cache's were cut (docs/fpga.md, "Round four").  A
//   request in either counts as busy, so the host never sees a run finished with a
//   store still on its way, and since the controller serves in acceptance order the
//   command processor's fence still follows the run's last store.  Board-side only:
//   the SystemC model and the cosimulation see umbra_system, which this does not
//   touch (only the latency it sees behind its DRAM port changes: a cycle more each
//   way, as its responses pass a register too).
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_commands.vh"
`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module ulx3s_system #(
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
    parameter integer CLK_HZ           = 50000000,
    parameter integer CLKS_PER_BIT     = 434,
    parameter integer IDLE_CLKS        = CLK_HZ / 4,
    parameter integer BLINK_BIT        = 24,
    // The SDRAM part: rows, and its datasheet times in ns (sdram.* in the
    // configuration; the defaults are the MT48LC16M16A2-6A's).
    parameter integer SDRAM_ROW_BITS   = 13,
    `UMBRA_SDRAM_CLOCKS_PARAMS  // the SDRAM's times in clocks (sdram.* at CLK_HZ)
) (
    input  wire        clk,
    input  wire        sys_rst,
    input  wire        rx,
    output wire        tx,
    output reg  [7:0]  led,      // active high, as the ULX3S's

    output wire        sdram_cke,
    output wire        sdram_cs_n,
    output wire        sdram_ras_n,
    output wire        sdram_cas_n,
    output wire        sdram_we_n,
    output wire [1:0]  sdram_ba,
    output wire [12:0] sdram_a,
    output wire [1:0]  sdram_dqm,
    output wire [15:0] sdram_dq_o,
    output wire        sdram_dq_oe,
    input  wire [15:0] sdram_dq_i
);

  // ---- the SDRAM's geometry ------------------------------------------------------------
  localparam integer COL_BITS  = $clog2(ROW_BYTES) - 1;   // 16-bit columns
  localparam integer BANK_BITS = $clog2(BANKS);

  generate
    if (BANK_BITS != 2 || SDRAM_ROW_BITS != 13 || (1 << (COL_BITS + 1)) != ROW_BYTES) begin : g_check
      // The board's chip has 4 banks of 8192 rows of 1024 bytes; the queue must see those.
      ulx3s_system_dram_banks_and_row_bytes_must_be_the_chips_4_and_1024 u_error ();
    end
  endgenerate

  wire link_core_rst;
  reg  core_rst;
  always @(posedge clk) core_rst <= sys_rst || link_core_rst;

  // ---- the system ----------------------------------------------------------------------
  localparam integer CBITS = `UMBRA_CMD_FAULT_BITS;
  wire        imem_we, launch_valid, doorbell_valid;
  wire [31:0] doorbell_addr;
  wire [31:0] imem_addr, imem_data, launch_count, launch_entry;
  wire        sys_busy, fault;
  wire [7:0]  fault_core, fault_thread;
  wire [31:0] fault_pc;
  wire [CORES-1:0] issue_valid, protocol_errors;
  wire        s_req_valid, s_req_ready;
  wire [7:0]  s_req_op;
  wire [31:0] s_req_addr, s_req_data, s_req_cmp;
  wire [15:0] s_req_tag;
  reg         s_resp_valid;
  reg  [31:0] s_resp_data;
  reg  [15:0] s_resp_tag;
  wire [CBITS-1:0] cmd_fault;

  /* verilator lint_off PINCONNECTEMPTY */
  // Its memory side (the SDRAM controller) has no line port yet.
  generate
    if (LINE_PORT != 0) begin : g_check_line_port
      ulx3s_system_has_no_line_port_set_cache_line_port_false u_error ();
    end
  endgenerate

  umbra_system #(
      `UMBRA_CORE_PASS, .CORES(CORES), .MODE_REORDER(MODE_REORDER), .QUEUE_DEPTH(QUEUE_DEPTH),
      .OPEN_ROWS(OPEN_ROWS), .MAX_PASSES(MAX_PASSES), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES),
      .RESP_REGISTER(RESP_REGISTER), .REQ_REGISTER(REQ_REGISTER),
      .REGISTERED_START(REGISTERED_START), .REGISTERED_PICK(REGISTERED_PICK),
      .REGISTERED_ACCEPT(REGISTERED_ACCEPT)
  ) u_system (
      .clk(clk), .rst(core_rst), .bypass_queue(1'b0),
      .host_imem_we(imem_we), .host_imem_addr(imem_addr), .host_imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .domain_valid(1'b0), .domain_w(32'd0), .domain_h(32'd0), .ncore(CORES),
      .doorbell_valid(doorbell_valid), .doorbell_addr(doorbell_addr),
      .busy(sys_busy), .fault(fault), .fault_core(fault_core), .fault_thread(fault_thread),
      .fault_pc(fault_pc), .cmd_fault(cmd_fault), .cmd_fault_addr(),
      .mem_req_valid(s_req_valid), .mem_req_ready(s_req_ready), .mem_req_op(s_req_op),
      .mem_req_addr(s_req_addr), .mem_req_data(s_req_data), .mem_req_cmp(s_req_cmp),
      .mem_req_tag(s_req_tag),
      .mem_req_mask(), .mem_req_line(), .mem_resp_line({(8*CACHE_LINE_BYTES){1'b0}}),  // a word port: no line port yet
      .mem_resp_valid(s_resp_valid), .mem_resp_data(s_resp_data), .mem_resp_tag(s_resp_tag),
      .trace_issue_valid(issue_valid), .trace_issue_thread(), .trace_issue_pc(),
      .trace_issue_reason(), .trace_regwrite_valid(), .trace_regwrite_thread(),
      .trace_regwrite_pc(), .trace_regwrite_reg(), .trace_regwrite_value(),
      .trace_fault_cause(), .trace_protocol_error(protocol_errors),
      .trace_cache_valid(), .trace_cache_thread(), .trace_cache_op(), .trace_cache_addr(),
      .trace_cache_outcome(), .trace_wake_valid(), .trace_wake_thread(),
      .trace_start_valid(), .trace_start_thread(), .trace_start_lx(), .trace_start_ly(),
      .trace_cmd_valid(), .trace_cmd_op(), .trace_cmd_addr(), .trace_dram_valid(),
      .trace_core_busy(), .trace_core_fault(),
      .trace_port_req_valid(), .trace_port_req_ready(), .trace_port_req_op(),
      .trace_port_req_addr(), .trace_port_req_data(), .trace_port_req_cmp(),
      .trace_port_req_tag(), .trace_port_req_mask(), .trace_port_req_line(),
      .trace_port_resp_valid(), .trace_port_resp_data(),
      .trace_port_resp_tag()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- the host's mux in front of the controller -------------------------------------------
  localparam [15:0] HOST_TAG = 16'hfe00;   // high byte: no core (<= 64) and not the CP's 0xff
  // The host's windows of 32768 words cover the chip (BANKS x ROW_BYTES x 2^ROW_BITS).
  localparam integer HOST_WB = $clog2(BANKS * ROW_BYTES) + SDRAM_ROW_BITS - 17;
  wire        hm_valid, hm_we;
  wire [14+HOST_WB:0] hm_addr;
  wire [31:0] hm_wdata;
  wire        c_req_valid, c_req_ready;
  wire [7:0]  c_req_op;
  wire [31:0] c_req_addr, c_req_data, c_req_cmp;
  wire [15:0] c_req_tag;
  wire        resp_valid;
  wire [31:0] resp_data;
  wire [15:0] resp_tag;
  wire [31:0] hm_byte_addr = {{(15 - HOST_WB){1'b0}}, hm_addr, 2'b00};

  // The system's request registers (see the head of the file): rq_* goes to the
  // controller, sk_* holds a request the system sent while rq_* waited.
  reg         rq_valid, sk_valid;
  reg  [7:0]  rq_op, sk_op;
  reg  [31:0] rq_addr, rq_data, rq_cmp, sk_addr, sk_data, sk_cmp;
  reg  [15:0] rq_tag, sk_tag;
  wire        rq_take = rq_valid && c_req_ready && !hm_valid;   // the controller takes it
  wire        rq_free = !rq_valid || rq_take;                   // rq_* takes a request
  assign s_req_ready = !sk_valid;
  wire        s_in    = s_req_valid && !sk_valid;
  always @(posedge clk) begin
    if (core_rst) begin
      rq_valid <= 1'b0;
      sk_valid <= 1'b0;
    end else begin
      if (rq_free) begin
        rq_valid <= sk_valid || s_in;
        if (sk_valid) begin
          rq_op   <= sk_op;
          rq_addr <= sk_addr;
          rq_data <= sk_data;
          rq_cmp  <= sk_cmp;
          rq_tag  <= sk_tag;
        end else begin
          rq_op   <= s_req_op;
          rq_addr <= s_req_addr;
          rq_data <= s_req_data;
          rq_cmp  <= s_req_cmp;
          rq_tag  <= s_req_tag;
        end
      end
      if (rq_free)
        sk_valid <= 1'b0;
      else if (s_in)
        sk_valid <= 1'b1;
      if (s_in && !rq_free) begin
        sk_op   <= s_req_op;
        sk_addr <= s_req_addr;
        sk_data <= s_req_data;
        sk_cmp  <= s_req_cmp;
        sk_tag  <= s_req_tag;
      end
    end
  end

  wire busy = sys_busy || rq_valid;   // what the host, the counters and led[0] see (sk_* only
                                      // holds while rq_* does)

  assign c_req_valid = hm_valid || rq_valid;
  assign c_req_op    = hm_valid ? (hm_we ? `UMBRA_OP_STW : `UMBRA_OP_LDW) : rq_op;
  assign c_req_addr  = hm_valid ? hm_byte_addr : rq_addr;
  assign c_req_data  = hm_valid ? hm_wdata : rq_data;
  assign c_req_cmp   = hm_valid ? 32'd0 : rq_cmp;
  assign c_req_tag   = hm_valid ? HOST_TAG : rq_tag;
  wire   hm_grant    = c_req_ready && hm_valid;
  wire   to_host     = (resp_tag == HOST_TAG);
  wire   hm_rvalid   = resp_valid && to_host;
  // The system's responses pass a register too: the tag's compare with HOST_TAG would
  // otherwise lead the controller's response registers into the queue's pass-through
  // and the caches' fill logic.  Beats keep their spacing, a cycle later.
  always @(posedge clk) begin
    s_resp_valid <= resp_valid && !to_host && !core_rst;
    s_resp_data  <= resp_data;
    s_resp_tag   <= resp_tag;
  end

  // ---- the SDRAM controller -----------------------------------------------------------------
  localparam integer LW = CACHE_LINE_BYTES / 4;
  wire        mem_fault;
  wire [31:0] mem_fault_addr;
  wire        init_done;
  /* verilator lint_off PINCONNECTEMPTY */
  sdram_controller #(
      `UMBRA_SDRAM_CLOCKS_PASS, .INIT_REFRESHES(2), .COL_BITS(COL_BITS), .BANK_BITS(BANK_BITS),
      .ROW_BITS(SDRAM_ROW_BITS), .LINE_BYTES(CACHE_LINE_BYTES), .LINE_PORT(0)
  ) u_sdram (
      .clk(clk), .rst(sys_rst),
      .dram_req_valid(c_req_valid), .dram_req_ready(c_req_ready), .dram_req_op(c_req_op),
      .dram_req_addr(c_req_addr), .dram_req_data(c_req_data), .dram_req_cmp(c_req_cmp),
      .dram_req_tag(c_req_tag), .dram_req_mask({LW{1'b0}}), .dram_req_line({(32 * LW){1'b0}}),
      .dram_resp_valid(resp_valid), .dram_resp_data(resp_data), .dram_resp_tag(resp_tag),
      .dram_resp_line(),
      .init_done(init_done), .fault(mem_fault), .fault_addr(mem_fault_addr),
      .sdram_cke(sdram_cke), .sdram_cs_n(sdram_cs_n), .sdram_ras_n(sdram_ras_n),
      .sdram_cas_n(sdram_cas_n), .sdram_we_n(sdram_we_n), .sdram_ba(sdram_ba), .sdram_a(sdram_a),
      .sdram_dqm(sdram_dqm), .sdram_dq_o(sdram_dq_o), .sdram_dq_oe(sdram_dq_oe),
      .sdram_dq_i(sdram_dq_i)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // The link reads the memory's fault address a bit at a time, rotating the register
  // it reads (as spram_memory's own on the iCE40 boards); the controller's register is
  // its own, so the link turns a copy.  The copy follows the controller's until the
  // cycle after the fault is raised (the address is set with it) and then holds.
  reg  [31:0] fault_addr_ring;
  reg         fault_held;
  wire        fault_addr_rotate;
  always @(posedge clk) begin
    fault_held <= mem_fault;
    if (!fault_held) fault_addr_ring <= mem_fault_addr;
    else if (fault_addr_rotate) fault_addr_ring <= {fault_addr_ring[0], fault_addr_ring[31:1]};
  end

  // ---- run counters -----------------------------------------------------------------------
  // As fpga/board_system.v's: cycles with `busy` high since the launch or the doorbell
  // (busy covers the command processor), and the instructions every core issued since
  // then (up to CORES a cycle); the link reads them a bit at a time, rotating each
  // once round per STATUS reply, and only while the run has ended.
  localparam integer CNT = 48;
  reg [CNT-1:0] cycles, issued;
  reg           launched;
  wire          cycles_rotate, issued_rotate;
  reg [7:0]     issued_now;
  integer k;
  always @(*) begin
    issued_now = 8'd0;
    for (k = 0; k < CORES; k = k + 1) issued_now = issued_now + {7'd0, issue_valid[k]};
  end
  always @(posedge clk) begin
    if (core_rst) begin
      cycles   <= {CNT{1'b0}};
      issued   <= {CNT{1'b0}};
      launched <= 1'b0;
    end else if (launch_valid || doorbell_valid) begin
      cycles   <= {CNT{1'b0}};
      issued   <= {CNT{1'b0}};
      launched <= 1'b1;
    end else begin
      if (cycles_rotate) cycles <= {cycles[0], cycles[CNT-1:1]};
      else if (busy) cycles <= cycles + 1'b1;
      if (issued_rotate) issued <= {issued[0], issued[CNT-1:1]};
      else issued <= issued + {{(CNT - 8){1'b0}}, issued_now};
    end
  end

  // ---- the host link ------------------------------------------------------------------------
  // The status reply has one fault thread byte: a faulting core's thread is reported as
  // core * THREADS + thread (modulo 256), so a single-core board reads as before.
  localparam [31:0] T32 = THREADS;
  localparam [7:0]  T8 = T32[7:0];
  wire [7:0] flat_thread = fault_core * T8 + fault_thread;
  host_link #(
      .CLKS_PER_BIT(CLKS_PER_BIT), .IDLE_CLKS(IDLE_CLKS), .THREADS(THREADS), .CORES(CORES), .REGS(REGS),
      .IMEM_WORDS(IMEM_WORDS), .MEM_WORDS(32768), .LINE_BYTES(CACHE_LINE_BYTES), .CLK_HZ(CLK_HZ),
      .COUNT_BITS(CNT), .DOORBELL(1), .WINDOW_BITS(HOST_WB)
  ) u_link (
      .clk(clk), .rst(sys_rst), .rx(rx), .tx(tx),
      .core_rst(link_core_rst),
      .imem_we(imem_we), .imem_addr(imem_addr), .imem_data(imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .doorbell_valid(doorbell_valid), .doorbell_addr(doorbell_addr),
      .mem_valid(hm_valid), .mem_grant(hm_grant), .mem_we(hm_we), .mem_addr(hm_addr),
      .mem_wdata(hm_wdata), .mem_rvalid(hm_rvalid), .mem_rdata(resp_data),
      .busy(busy), .fault(fault), .fault_thread(flat_thread), .fault_pc(fault_pc),
      .mem_fault(mem_fault), .mem_fault_addr_lsb(fault_addr_ring[0]),
      .mem_fault_addr_rotate(fault_addr_rotate),
      .protocol_error(|protocol_errors), .launched(launched),
      .cycles_lsb(cycles[0]), .issued_lsb(issued[0]), .cycles_rotate(cycles_rotate),
      .issued_rotate(issued_rotate)
  );

  // ---- status lights ----------------------------------------------------------------------
  // led[0] busy, or blinking after a run; led[1] a fault (a core's, the memory's, a port
  // protocol error or the command processor's); led[2] the SDRAM is initialized.
  reg [BLINK_BIT:0] blink = {(BLINK_BIT + 1){1'b0}};
  always @(posedge clk) begin
    blink  <= blink + 1'b1;
    led[0] <= busy || (launched && blink[BLINK_BIT]);
    led[1] <= fault || mem_fault || (|protocol_errors) || (cmd_fault != {CBITS{1'b0}});
    led[2] <= init_done;
    led[7:3] <= 5'd0;
  end

endmodule

`default_nettype wire
