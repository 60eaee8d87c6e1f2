// umbra_system: CORES cores sharing one memory reorder queue in front of the DRAM port
// (docs/memory-system.md, "Blocks and names"); systemc/umbra_system.{h,cpp} is the same
// top.  The outside sees the generic memory port with the tag widened to 16 bits,
// {core, thread}, which is what a DRAM controller (or the DRAM model) takes.
//
// Each core has its own data cache and request FIFO (inside umbra_core).  Their ports
// meet at a round-robin arbiter in front of the queue: in a cycle the first core with a
// request, counting from the one after the last core served, is granted, and only it
// sees ready.  The grant is a function of the cores' registered requests and one
// register, so it adds no cycle, and with one core it is a wire: a one-core system is
// cycle for cycle the one-core system it always was.  Responses come back through the
// queue unchanged and go to the core their tag's high byte names.
//
// The host's writes and launch reach every core.  A launch of launch_count threads is
// one domain of CORES x launch_count work items, core-major: core c's thread t has
// `lx` c * launch_count + t and every thread reads `domw` CORES x launch_count.  A
// domain launch (domain_valid, at launch_entry) is domain_w x domain_h work items that
// the dispatcher (rtl/dispatcher.v) hands to free threads of any core, one a cycle,
// refilling threads as they exit.  The command processor (rtl/command_processor.v)
// reads a command buffer from memory when the host rings the doorbell
// (doorbell_valid, doorbell_addr) and drives the same launch, the instruction stores,
// `rdsr arg` and the caches' invalidation; its memory requests go ahead of the cores'
// (tag 0xFF00, whose high byte no core has).  The outputs fault_* are the
// lowest-numbered faulting core's, cmd_fault* the command processor's.
//
// bypass_queue (static: tie it off) connects the arbiter straight to the outside, for
// on-chip memory that answers in a fixed time (memory.model fixed): a queue that
// reorders for DRAM rows would only add a cycle there.  The cosimulation drives it
// from the configuration, so both memory models run through this one top; synthesis
// with it tied removes the unused path.
//
// RESP_REGISTER (memory.response_register; docs/memory-system.md, "The response
// register") gives each core a register of its own on the response it is sent: the
// core sees a response a cycle after the queue hands it back.  One response reaching
// every core's fill logic crosses the chip; with the register it reaches flip-flops
// that place beside each core, and the fill starts from them (the register's input also
// goes to the core as mem_resp_ahead_tag, so its cache looks up a fill beat's entry a
// cycle early: rtl/dcache.v, RESP_AHEAD).  The command processor's
// responses do not pass it.  A response waiting in it is one its core still owes
// (the core is busy), so nothing that waits for idle can miss it.
//
// REQ_REGISTER (memory.request_register; docs/memory-system.md, "The request
// register") puts a two-entry FIFO on each core's request, between the core and the
// arbiter.  Without it the arbiter's grant, a function of every core's request, is the
// ready of each core's port, and a core's ready decides its request FIFO's pop, count
// and room in the same cycle: two trips across the chip in one path.  With it a core
// sees ready while its register has an entry free (a flip-flop of its own), and the
// arbiter grants among the registers' heads, which place beside it.  A request then
// reaches the queue a cycle after its core hands it over; two entries keep one request
// a cycle flowing from a core whose head is granted every cycle.  Each core's requests
// still reach the queue in the order it sent them, so what a `dflush` orders (the
// stores before it are accepted before anything the thread sends after it) holds: a
// flag published after it passes the same register behind them.
//
// busy also covers requests still in the queue (and in the request registers): a store
// a core has handed over is not in memory until the queue has passed it on.
//
// The trace_* outputs are the cores' own, core c's in slice c of each (a W-bit field at
// [c*W +: W]); trace_dram_valid marks a transfer on the DRAM port (the cosimulation's
// dram event, the request being mem_req_*); trace_port_* are each core's own port (its
// mem and memresp events).
//
// LINE_PORT (cache.line_port; docs/memory-system.md, "The line port"): the port is a
// line wide, mem_req_mask and mem_req_line (a wline's words) pass the arbiter and the
// queue with the rest of the request (the command processor's requests carry none),
// and mem_resp_line (a fill's line) reaches every core and the command processor with
// the rest of the response; trace_port_req_mask/line are each core's, for its mem
// event.  With LINE_PORT 0 they are 0.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_commands.vh"
`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS, UMBRA_DEFAULT_*

module umbra_system #(
    parameter integer CORES            = `UMBRA_DEFAULT_CORES,  // 1..UMBRA_MAX_CORES
    `UMBRA_CORE_PARAMS,  // each core's (isa/config_keys.yaml)
    // The reorder queue's: queue.mode (1 reorder, 0 fcfs), queue.depth, queue.open_rows,
    // queue.max_passes, dram.banks, dram.row_bytes.
    parameter integer MODE_REORDER     = `UMBRA_DEFAULT_MODE_REORDER,
    parameter integer QUEUE_DEPTH      = `UMBRA_DEFAULT_QUEUE_DEPTH,
    parameter integer OPEN_ROWS        = `UMBRA_DEFAULT_OPEN_ROWS,
    parameter integer MAX_PASSES       = `UMBRA_DEFAULT_MAX_PASSES,
    parameter integer REGISTERED_PICK  = `UMBRA_DEFAULT_REGISTERED_PICK,  // queue.registered_pick
    parameter integer REGISTERED_ACCEPT = `UMBRA_DEFAULT_REGISTERED_ACCEPT,  // queue.registered_accept
    parameter integer BANKS            = `UMBRA_DEFAULT_BANKS,
    parameter integer ROW_BYTES        = `UMBRA_DEFAULT_ROW_BYTES,
    // memory.response_register: 1 puts a register on each core's response (below).
    parameter integer RESP_REGISTER    = `UMBRA_DEFAULT_RESP_REGISTER,
    // memory.request_register: 1 puts a two-entry register on each core's request (below).
    parameter integer REQ_REGISTER     = `UMBRA_DEFAULT_REQ_REGISTER,
    // dispatch.registered_start: 1 puts the dispatcher's starts into registers (rtl/dispatcher.v).
    parameter integer REGISTERED_START = `UMBRA_DEFAULT_REGISTERED_START,
    // The trace fields' widths (derived; not to be set).
    parameter integer RB = `UMBRA_BUBBLE_REASON_BITS,
    parameter integer FB = `UMBRA_FAULT_BITS,
    parameter integer OB = `UMBRA_CACHE_OUTCOME_BITS,
    parameter integer CB = `UMBRA_CMD_FAULT_BITS,
    parameter integer WPL = CACHE_LINE_BYTES / 4,  // words a line
    parameter integer LNB = 8 * CACHE_LINE_BYTES   // a line's bits
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        bypass_queue,

    input  wire        host_imem_we,
    input  wire [31:0] host_imem_addr,
    input  wire [31:0] host_imem_data,
    input  wire        launch_valid,
    input  wire [31:0] launch_count,
    input  wire [31:0] launch_entry,
    input  wire        domain_valid,
    input  wire [31:0] domain_w,
    input  wire [31:0] domain_h,
    input  wire [31:0] ncore,
    input  wire        doorbell_valid,       // the command processor's doorbell ...
    input  wire [31:0] doorbell_addr,        // ... with the command buffer's address

    output wire        busy,
    output wire        fault,
    output wire [7:0]  fault_core,
    output wire [7:0]  fault_thread,
    output wire [31:0] fault_pc,
    output wire [CB-1:0] cmd_fault,          // the command processor's fault (docs/commands.md) ...
    output wire [31:0] cmd_fault_addr,       // ... at this command (0 without a fault)

    // The DRAM port: the generic memory port with a {core, thread} tag.
    output wire        mem_req_valid,
    input  wire        mem_req_ready,
    output wire [7:0]  mem_req_op,
    output wire [31:0] mem_req_addr,
    output wire [31:0] mem_req_data,
    output wire [31:0] mem_req_cmp,
    output wire [15:0] mem_req_tag,
    output wire [WPL-1:0] mem_req_mask,      // LINE_PORT: a wline's words ...
    output wire [LNB-1:0] mem_req_line,      // ... and data
    input  wire        mem_resp_valid,
    input  wire [31:0] mem_resp_data,
    input  wire [15:0] mem_resp_tag,
    input  wire [LNB-1:0] mem_resp_line,     // LINE_PORT: a fill's line in one beat

    output wire [CORES-1:0]    trace_issue_valid,
    output wire [8*CORES-1:0]  trace_issue_thread,
    output wire [32*CORES-1:0] trace_issue_pc,
    output wire [RB*CORES-1:0] trace_issue_reason,
    output wire [CORES-1:0]    trace_regwrite_valid,
    output wire [8*CORES-1:0]  trace_regwrite_thread,
    output wire [32*CORES-1:0] trace_regwrite_pc,
    output wire [8*CORES-1:0]  trace_regwrite_reg,
    output wire [32*CORES-1:0] trace_regwrite_value,
    output wire [FB*CORES-1:0] trace_fault_cause,
    output wire [CORES-1:0]    trace_protocol_error,
    output wire [CORES-1:0]    trace_cache_valid,
    output wire [8*CORES-1:0]  trace_cache_thread,
    output wire [8*CORES-1:0]  trace_cache_op,
    output wire [32*CORES-1:0] trace_cache_addr,
    output wire [OB*CORES-1:0] trace_cache_outcome,
    output wire [CORES-1:0]    trace_wake_valid,
    output wire [8*CORES-1:0]  trace_wake_thread,
    output wire [CORES-1:0]    trace_start_valid,  // the dispatcher starts a thread...
    output wire [8*CORES-1:0]  trace_start_thread, // ... this one
    output wire [31:0]         trace_start_lx,     // ... on this work item
    output wire [31:0]         trace_start_ly,
    output wire                trace_cmd_valid,    // the command processor executes ...
    output wire [7:0]          trace_cmd_op,       // ... this command ...
    output wire [31:0]         trace_cmd_addr,     // ... from this address
    output wire                trace_dram_valid,
    output wire [CORES-1:0]    trace_core_busy,    // each core's own busy (the statistics' cycles)
    output wire [CORES-1:0]    trace_core_fault,   // each core's own fault
    // Each core's own port, for the cosimulation's mem and memresp events.
    output wire [CORES-1:0]    trace_port_req_valid,
    output wire [CORES-1:0]    trace_port_req_ready,
    output wire [8*CORES-1:0]  trace_port_req_op,
    output wire [32*CORES-1:0] trace_port_req_addr,
    output wire [32*CORES-1:0] trace_port_req_data,
    output wire [32*CORES-1:0] trace_port_req_cmp,
    output wire [8*CORES-1:0]  trace_port_req_tag,
    output wire [WPL*CORES-1:0] trace_port_req_mask,
    output wire [LNB*CORES-1:0] trace_port_req_line,
    output wire [CORES-1:0]    trace_port_resp_valid,
    output wire [32*CORES-1:0] trace_port_resp_data,
    output wire [8*CORES-1:0]  trace_port_resp_tag
);

  // A core's number is the tag's high byte.
  localparam integer CW = (CORES > 1) ? $clog2(CORES) : 1;
  localparam [31:0]   LAST_U    = CORES - 1;
  localparam [CW-1:0] LAST_CORE = LAST_U[CW-1:0];

  generate
    if (CORES < 1 || CORES > `UMBRA_MAX_CORES) begin : g_check_cores
      umbra_system_CORES_outside_1_to_UMBRA_MAX_CORES u_error ();
    end
  endgenerate

  // The cores' ports, core c's in slice c.
  wire [CORES-1:0]    c_req_valid, c_req_ready, c_resp_valid, c_busy, c_fault;
  // A core's response as it sees it (through its register with RESP_REGISTER).
  wire [32*CORES-1:0]  c_resp_data;
  wire [8*CORES-1:0]   c_resp_tag;
  wire [LNB*CORES-1:0] c_resp_line;
  wire [8*CORES-1:0]  c_req_op, c_req_tag, c_fault_thread;
  wire [32*CORES-1:0] c_req_addr, c_req_data, c_req_cmp, c_fault_pc;
  wire [WPL*CORES-1:0] c_req_mask;
  wire [LNB*CORES-1:0] c_req_line;

  // What the queue hands back, bypassed or not (below).
  wire        q_resp_valid, q_dram_valid, q_holding;
  wire [31:0] q_resp_data;
  wire [15:0] q_resp_tag, q_dram_tag;
  wire [LNB-1:0] q_resp_line;

  // What every core sees of the launch: `domw`, and its thread 0's `lx`.
  wire [31:0] domain_width = launch_count * CORES;

  // The command processor, and what the cores see of it and of the host.
  wire        cp_req_valid, cp_resp_valid, cp_imem_we, cp_domain_valid, cp_inval, cp_busy, cp_started;
  wire [7:0]  cp_req_op, cp_cmd_op;
  wire [31:0] cp_req_addr, cp_req_data, cp_imem_addr, cp_imem_data, cp_domain_w, cp_domain_h, cp_entry,
              cp_args, cp_fault_addr, cp_cmd_addr;
  wire [CB-1:0] cp_fault;
  wire        down_ready;
  wire        system_busy;
  wire [CORES-1:0] c_issued = trace_issue_valid;
  wire        k_imem_we      = host_imem_we || cp_imem_we;
  wire [31:0] k_imem_addr    = cp_imem_we ? cp_imem_addr : host_imem_addr;
  wire [31:0] k_imem_data    = cp_imem_we ? cp_imem_data : host_imem_data;
  wire        k_domain_valid = domain_valid || cp_domain_valid;
  wire [31:0] k_domain_w     = cp_domain_valid ? cp_domain_w : domain_w;
  wire [31:0] k_domain_h     = cp_domain_valid ? cp_domain_h : domain_h;
  wire [31:0] k_entry        = cp_domain_valid ? cp_entry : launch_entry;

  command_processor #(.CORES(CORES), .LINE_BYTES(CACHE_LINE_BYTES), .IMEM_WORDS(IMEM_WORDS),
                      .LINE_PORT(LINE_PORT)) u_command (
      .clk(clk), .rst(rst),
      .doorbell_valid(doorbell_valid), .doorbell_addr(doorbell_addr),
      .system_busy(system_busy), .dispatch_busy(dispatch_busy), .issued(c_issued),
      .req_valid(cp_req_valid), .req_ready(down_ready), .req_op(cp_req_op), .req_addr(cp_req_addr),
      .req_data(cp_req_data), .resp_valid(cp_resp_valid), .resp_data(q_resp_data),
      .resp_line(q_resp_line),
      .imem_we(cp_imem_we), .imem_addr(cp_imem_addr), .imem_data(cp_imem_data),
      .domain_valid(cp_domain_valid), .domain_w(cp_domain_w), .domain_h(cp_domain_h), .entry(cp_entry),
      .inval_all(cp_inval), .args(cp_args), .busy(cp_busy), .fault(cp_fault), .fault_addr(cp_fault_addr),
      .started(cp_started), .cmd_op(cp_cmd_op), .cmd_addr(cp_cmd_addr)
  );

  // The domain launch's dispatcher.
  wire [CORES-1:0] c_can_start, c_start;
  wire [31:0]      start_lx, start_ly;
  wire             dispatch_busy;
  dispatcher #(.CORES(CORES), .REGISTERED_START(REGISTERED_START)) u_dispatcher (
      .clk(clk), .rst(rst),
      .domain_valid(k_domain_valid), .domain_w(k_domain_w), .domain_h(k_domain_h),
      .can_start(c_can_start), .start_valid(c_start), .start_lx(start_lx), .start_ly(start_ly),
      .busy(dispatch_busy)
  );

  genvar c;
  generate
    for (c = 0; c < CORES; c = c + 1) begin : g_core
      wire [31:0] lx0 = launch_count * c;
      umbra_core #(`UMBRA_CORE_PASS, .CORE_ID(c), .DISPATCH(1), .RESP_AHEAD(RESP_REGISTER)) u_core (
          .clk(clk), .rst(rst),
          .host_imem_we(k_imem_we), .host_imem_addr(k_imem_addr), .host_imem_data(k_imem_data),
          .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(k_entry),
          .launch_lx0(lx0), .launch_domw(domain_width),
          .domain_valid(k_domain_valid), .domain_w(k_domain_w), .domain_h(k_domain_h),
          .start_valid(c_start[c]), .start_lx(start_lx), .start_ly(start_ly),
          .can_start(c_can_start[c]),
          .ncore(ncore), .args(cp_args), .inval_all(cp_inval),
          .busy(c_busy[c]), .fault(c_fault[c]), .fault_thread(c_fault_thread[8*c +: 8]),
          .fault_pc(c_fault_pc[32*c +: 32]),
          .mem_req_valid(c_req_valid[c]), .mem_req_ready(c_req_ready[c]), .mem_req_op(c_req_op[8*c +: 8]),
          .mem_req_addr(c_req_addr[32*c +: 32]), .mem_req_data(c_req_data[32*c +: 32]),
          .mem_req_cmp(c_req_cmp[32*c +: 32]), .mem_req_tag(c_req_tag[8*c +: 8]),
          .mem_req_mask(c_req_mask[WPL*c +: WPL]), .mem_req_line(c_req_line[LNB*c +: LNB]),
          .mem_resp_valid(c_resp_valid[c]), .mem_resp_data(c_resp_data[32*c +: 32]),
          .mem_resp_tag(c_resp_tag[8*c +: 8]), .mem_resp_line(c_resp_line[LNB*c +: LNB]),
          .mem_resp_ahead_tag(q_resp_tag[7:0]),  // the register's input (RESP_AHEAD)
          .trace_issue_valid(trace_issue_valid[c]), .trace_issue_thread(trace_issue_thread[8*c +: 8]),
          .trace_issue_pc(trace_issue_pc[32*c +: 32]), .trace_issue_reason(trace_issue_reason[RB*c +: RB]),
          .trace_regwrite_valid(trace_regwrite_valid[c]),
          .trace_regwrite_thread(trace_regwrite_thread[8*c +: 8]),
          .trace_regwrite_pc(trace_regwrite_pc[32*c +: 32]), .trace_regwrite_reg(trace_regwrite_reg[8*c +: 8]),
          .trace_regwrite_value(trace_regwrite_value[32*c +: 32]),
          .trace_fault_cause(trace_fault_cause[FB*c +: FB]),
          .trace_protocol_error(trace_protocol_error[c]),
          .trace_cache_valid(trace_cache_valid[c]), .trace_cache_thread(trace_cache_thread[8*c +: 8]),
          .trace_cache_op(trace_cache_op[8*c +: 8]), .trace_cache_addr(trace_cache_addr[32*c +: 32]),
          .trace_cache_outcome(trace_cache_outcome[OB*c +: OB]),
          .trace_wake_valid(trace_wake_valid[c]), .trace_wake_thread(trace_wake_thread[8*c +: 8]),
          .trace_start_thread(trace_start_thread[8*c +: 8])
      );
    end
  endgenerate

  // ---- the request registers -------------------------------------------------------------
  // What each core offers the arbiter (o_*): its port itself, or its register's head.
  // granted[c]: the arbiter passes core c's offer (if it makes one) on at the end of
  // this cycle.
  wire [CORES-1:0]     o_valid, granted, o_waiting;
  wire [8*CORES-1:0]   o_op, o_tag;
  wire [32*CORES-1:0]  o_addr, o_data, o_cmp;
  wire [WPL*CORES-1:0] o_mask;
  wire [LNB*CORES-1:0] o_line;
  localparam integer RW = 8 + 32 + 32 + 32 + 8 + WPL + LNB;  // a request's fields
  generate
    for (c = 0; c < CORES; c = c + 1) begin : g_req
      wire [RW-1:0] in_req = {c_req_op[8*c +: 8], c_req_addr[32*c +: 32], c_req_data[32*c +: 32],
                              c_req_cmp[32*c +: 32], c_req_tag[8*c +: 8], c_req_mask[WPL*c +: WPL],
                              c_req_line[LNB*c +: LNB]};
      wire [RW-1:0] out_req;
      if (REQ_REGISTER != 0) begin : g_reg
        // A two-entry FIFO that shifts: e0 is the head.  Its state alone gives the
        // core's ready, so no grant reaches the core in the cycle it is made.
        reg          v0, v1;
        reg [RW-1:0] e0, e1;
        wire push = c_req_valid[c] && !v1;
        wire pop  = v0 && granted[c];
        always @(posedge clk) begin
          if (rst) begin
            v0 <= 1'b0;
            v1 <= 1'b0;
          end else begin
            v0 <= v1 || push || (v0 && !pop);
            v1 <= !pop && (v1 || (push && v0));
          end
          if (pop ? (v1 || push) : (!v0 && push))
            e0 <= (pop && v1) ? e1 : in_req;
          if (push && v0 && !pop)
            e1 <= in_req;
        end
        assign c_req_ready[c] = !v1;
        assign o_valid[c]     = v0;
        assign o_waiting[c]   = v0;
        assign out_req        = e0;
      end else begin : g_wire
        assign c_req_ready[c] = granted[c];
        assign o_valid[c]     = c_req_valid[c];
        assign o_waiting[c]   = 1'b0;
        assign out_req        = in_req;
      end
      assign {o_op[8*c +: 8], o_addr[32*c +: 32], o_data[32*c +: 32], o_cmp[32*c +: 32], o_tag[8*c +: 8],
              o_mask[WPL*c +: WPL], o_line[LNB*c +: LNB]} = out_req;
    end
  endgenerate

  // ---- the arbiter ---------------------------------------------------------------------------
  // first: the core with the first claim this cycle (the one after the last served).
  reg  [CW-1:0] first;
  wire [CW-1:0] grant;
  wire          any;
  round_robin #(.N(CORES), .CW(CW)) u_arbiter (.req(o_valid), .first(first), .grant(grant), .any(any));

  // The command processor's request goes first (it asks rarely: a command line, a
  // program's text, a fence); the cores' offers are taken only when it does not ask.
  wire        q_req_ready;
  assign      down_ready = bypass_queue ? mem_req_ready : q_req_ready;
  wire        a_any  = any || cp_req_valid;
  wire [7:0]  a_op   = cp_req_valid ? cp_req_op : o_op[8*grant +: 8];
  wire [31:0] a_addr = cp_req_valid ? cp_req_addr : o_addr[32*grant +: 32];
  wire [31:0] a_data = cp_req_valid ? cp_req_data : o_data[32*grant +: 32];
  wire [31:0] a_cmp  = cp_req_valid ? 32'd0 : o_cmp[32*grant +: 32];
  wire [WPL-1:0] a_mask = cp_req_valid ? {WPL{1'b0}} : o_mask[WPL*grant +: WPL];
  wire [LNB-1:0] a_line = cp_req_valid ? {LNB{1'b0}} : o_line[LNB*grant +: LNB];
  wire [15:0] core_tag;
  generate
    if (CW < 8) begin : g_tag_pad
      assign core_tag = {{(8 - CW){1'b0}}, grant, o_tag[8*grant +: 8]};
    end else begin : g_tag_full
      assign core_tag = {grant, o_tag[8*grant +: 8]};
    end
  endgenerate
  wire [15:0] a_tag = cp_req_valid ? {`UMBRA_CMD_PORT_TAG, 8'd0} : core_tag;

  always @(posedge clk) begin
    if (rst)
      first <= {CW{1'b0}};
    else if (any && !cp_req_valid && down_ready)
      first <= (grant == LAST_CORE) ? {CW{1'b0}} : grant + 1'b1;
  end

  generate
    for (c = 0; c < CORES; c = c + 1) begin : g_granted
      assign granted[c] = down_ready && !cp_req_valid && grant == c;
    end
  endgenerate

  // ---- the queue -------------------------------------------------------------------------
  wire [7:0]  q_dram_op;
  wire [31:0] q_dram_addr, q_dram_data, q_dram_cmp;
  wire [WPL-1:0] q_dram_mask;
  wire [LNB-1:0] q_dram_line;

  reorder_queue #(
      .MODE_REORDER(MODE_REORDER), .DEPTH(QUEUE_DEPTH), .OPEN_ROWS(OPEN_ROWS),
      .MAX_PASSES(MAX_PASSES), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES),
      .LINE_BYTES(CACHE_LINE_BYTES), .LINE_PORT(LINE_PORT), .REGISTERED_PICK(REGISTERED_PICK),
      .REGISTERED_ACCEPT(REGISTERED_ACCEPT)
  ) u_queue (
      .clk(clk), .rst(rst),
      .mem_req_valid(a_any && !bypass_queue), .mem_req_ready(q_req_ready),
      .mem_req_op(a_op), .mem_req_addr(a_addr), .mem_req_data(a_data),
      .mem_req_cmp(a_cmp), .mem_req_tag(a_tag), .mem_req_mask(a_mask), .mem_req_line(a_line),
      .mem_resp_valid(q_resp_valid), .mem_resp_data(q_resp_data), .mem_resp_tag(q_resp_tag),
      .mem_resp_line(q_resp_line),
      .dram_req_valid(q_dram_valid), .dram_req_ready(mem_req_ready && !bypass_queue),
      .dram_req_op(q_dram_op), .dram_req_addr(q_dram_addr), .dram_req_data(q_dram_data),
      .dram_req_cmp(q_dram_cmp), .dram_req_tag(q_dram_tag),
      .dram_req_mask(q_dram_mask), .dram_req_line(q_dram_line), .holding(q_holding),
      .dram_resp_valid(mem_resp_valid), .dram_resp_data(mem_resp_data), .dram_resp_tag(mem_resp_tag),
      .dram_resp_line(mem_resp_line)
  );

  // The queue forwards responses unchanged (rtl/reorder_queue.v), bypassed or not, so
  // the cores take them from it either way: the one the tag's high byte names, or the
  // command processor (0xFF).  With one core the high byte carries nothing else.
  wire to_cp = q_resp_tag[15:8] == `UMBRA_CMD_PORT_TAG;
  assign cp_resp_valid = q_resp_valid && to_cp;
  wire [CORES-1:0] to_core;
  generate
    if (CORES == 1) begin : g_resp_one
      assign to_core = q_resp_valid && !to_cp;
    end else begin : g_resp_many
      for (c = 0; c < CORES; c = c + 1) begin : g_resp
        assign to_core[c] = q_resp_valid && q_resp_tag[15:8] == c;
      end
    end
    for (c = 0; c < CORES; c = c + 1) begin : g_resp_reg
      if (RESP_REGISTER != 0) begin : g_reg
        reg           r_valid;
        reg [31:0]    r_data;
        reg [7:0]     r_tag;
        reg [LNB-1:0] r_line;
        // The fields are taken only with a response of this core's: the core reads
        // them only then, and the per-core enable keeps synthesis from merging the
        // cores' copies into one register (which all cores would read again).
        always @(posedge clk) begin
          r_valid <= to_core[c] && !rst;
          if (to_core[c]) begin
            r_data <= q_resp_data;
            r_tag  <= q_resp_tag[7:0];
            r_line <= q_resp_line;
          end
        end
        assign c_resp_valid[c]            = r_valid;
        assign c_resp_data[32*c +: 32]    = r_data;
        assign c_resp_tag[8*c +: 8]       = r_tag;
        assign c_resp_line[LNB*c +: LNB]  = r_line;
      end else begin : g_wire
        assign c_resp_valid[c]            = to_core[c];
        assign c_resp_data[32*c +: 32]    = q_resp_data;
        assign c_resp_tag[8*c +: 8]       = q_resp_tag[7:0];
        assign c_resp_line[LNB*c +: LNB]  = q_resp_line;
      end
    end
  endgenerate

  assign mem_req_valid = bypass_queue ? a_any : q_dram_valid;
  assign mem_req_op    = bypass_queue ? a_op : q_dram_op;
  assign mem_req_addr  = bypass_queue ? a_addr : q_dram_addr;
  assign mem_req_data  = bypass_queue ? a_data : q_dram_data;
  assign mem_req_cmp   = bypass_queue ? a_cmp : q_dram_cmp;
  assign mem_req_tag   = bypass_queue ? a_tag : q_dram_tag;
  assign mem_req_mask  = bypass_queue ? a_mask : q_dram_mask;
  assign mem_req_line  = bypass_queue ? a_line : q_dram_line;

  // ---- the host's view ---------------------------------------------------------------------
  reg [7:0]  f_core;
  reg [7:0]  f_thread;
  reg [31:0] f_pc;
  integer j;
  always @* begin
    f_core   = 8'd0;
    f_thread = 8'd0;
    f_pc     = 32'd0;
    for (j = CORES - 1; j >= 0; j = j - 1)
      if (c_fault[j]) begin
        f_core   = j[7:0];
        f_thread = c_fault_thread[8*j +: 8];
        f_pc     = c_fault_pc[32*j +: 32];
      end
  end
  assign fault        = |c_fault;
  assign fault_core   = f_core;
  assign fault_thread = f_thread;
  assign fault_pc     = f_pc;

  assign system_busy      = (|c_busy) || (|o_waiting) || dispatch_busy || (!bypass_queue && q_holding);
  assign busy             = system_busy || cp_busy;
  assign cmd_fault        = cp_fault;
  assign cmd_fault_addr   = (cp_fault == `UMBRA_CMD_FAULT_NONE) ? 32'd0 : cp_fault_addr;
  assign trace_cmd_valid  = cp_started;
  assign trace_cmd_op     = cp_cmd_op;
  assign trace_cmd_addr   = cp_cmd_addr;
  assign trace_core_busy  = c_busy;
  assign trace_core_fault = c_fault;
  assign trace_dram_valid = !bypass_queue && q_dram_valid && mem_req_ready;

  generate
    for (c = 0; c < CORES; c = c + 1) begin : g_trace_start
      assign trace_start_valid[c] = c_start[c];
    end
  endgenerate
  assign trace_start_lx = start_lx;
  assign trace_start_ly = start_ly;

  assign trace_port_req_valid  = c_req_valid;
  assign trace_port_req_ready  = c_req_ready;
  assign trace_port_req_op     = c_req_op;
  assign trace_port_req_addr   = c_req_addr;
  assign trace_port_req_data   = c_req_data;
  assign trace_port_req_cmp    = c_req_cmp;
  assign trace_port_req_tag    = c_req_tag;
  assign trace_port_req_mask   = c_req_mask;
  assign trace_port_req_line   = c_req_line;
  assign trace_port_resp_valid = c_resp_valid;
  assign trace_port_resp_data  = c_resp_data;
  assign trace_port_resp_tag   = c_resp_tag;

endmodule

`default_nettype wire
