// umbra_system: one core and the memory reorder queue in front of the DRAM port
// (docs/memory-system.md, "Blocks and names"); systemc/umbra_system.{h,cpp} is the same
// top.  The outside sees the generic memory port with the tag widened to 16 bits,
// {core, thread}, which is what a DRAM controller (or the DRAM model) takes.
//
// bypass_queue (static: tie it off) connects the core's port straight to the outside,
// with the tag zero-extended, for on-chip memory that answers in a fixed time
// (memory.model fixed): a queue that reorders for DRAM rows would only add a cycle
// there.  The cosimulation drives it from the configuration, so both memory models run
// through this one top; synthesis with it tied removes the unused path.
//
// busy also covers requests still in the queue: a store the core has handed over is
// not in memory until the queue has passed it on.
//
// trace_dram_valid marks a transfer on the DRAM port (the cosimulation's dram event, the
// request being mem_req_*); trace_port_* are the core's own port (its mem and memresp
// events).
`default_nettype none

`include "umbra_uarch.vh"

module umbra_system #(
    parameter integer THREADS          = 8,
    parameter integer EXEC_STAGES      = `UMBRA_DEFAULT_EXECUTE_STAGES,  // core.execute_stages
    parameter integer REGS             = 256,
    parameter integer IMEM_WORDS       = 4096,
    parameter integer CORE_ID          = 0,
    parameter integer CACHE_BYTES      = 4096,
    parameter integer CACHE_WAYS       = 2,
    parameter integer CACHE_LINE_BYTES = 32,
    parameter integer REQ_QUEUE        = 8,
    parameter integer MUL_ROWS         = 0,    // the multiplier's form (rtl/fp_mul.v), as on the chip
    parameter integer FF_RAMS          = 0,    // fetch's pcs, the FPU's addend delay: flip-flops
    parameter integer MODE_REORDER     = 1,    // queue.mode: 1 reorder, 0 fcfs
    parameter integer QUEUE_DEPTH      = 16,   // queue.depth
    parameter integer OPEN_ROWS        = 4,    // queue.open_rows
    parameter integer MAX_PASSES       = 16,   // queue.max_passes
    parameter integer BANKS            = 8,    // dram.banks
    parameter integer ROW_BYTES        = 2048  // dram.row_bytes
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
    input  wire [31:0] ncore,

    output wire        busy,
    output wire        fault,
    output wire [7:0]  fault_thread,
    output wire [31:0] fault_pc,

    // The DRAM port: the generic memory port with a {core, thread} tag.
    output wire        mem_req_valid,
    input  wire        mem_req_ready,
    output wire [7:0]  mem_req_op,
    output wire [31:0] mem_req_addr,
    output wire [31:0] mem_req_data,
    output wire [31:0] mem_req_cmp,
    output wire [15:0] mem_req_tag,
    input  wire        mem_resp_valid,
    input  wire [31:0] mem_resp_data,
    input  wire [15:0] mem_resp_tag,

    output wire        trace_issue_valid,
    output wire [7:0]  trace_issue_thread,
    output wire [31:0] trace_issue_pc,
    output wire [`UMBRA_BUBBLE_REASON_BITS-1:0] trace_issue_reason,
    output wire        trace_regwrite_valid,
    output wire [7:0]  trace_regwrite_thread,
    output wire [31:0] trace_regwrite_pc,
    output wire [7:0]  trace_regwrite_reg,
    output wire [31:0] trace_regwrite_value,
    output wire [`UMBRA_FAULT_BITS-1:0] trace_fault_cause,
    output wire        trace_protocol_error,
    output wire        trace_cache_valid,
    output wire [7:0]  trace_cache_thread,
    output wire [7:0]  trace_cache_op,
    output wire [31:0] trace_cache_addr,
    output wire [`UMBRA_CACHE_OUTCOME_BITS-1:0] trace_cache_outcome,
    output wire        trace_wake_valid,
    output wire [7:0]  trace_wake_thread,
    output wire        trace_dram_valid,
    output wire        trace_core_busy,    // the core's own busy (the statistics' cycles)
    // The core's own port, for the cosimulation's mem and memresp events.
    output wire        trace_port_req_valid,
    output wire        trace_port_req_ready,
    output wire [7:0]  trace_port_req_op,
    output wire [31:0] trace_port_req_addr,
    output wire [31:0] trace_port_req_data,
    output wire [31:0] trace_port_req_cmp,
    output wire [7:0]  trace_port_req_tag,
    output wire        trace_port_resp_valid,
    output wire [31:0] trace_port_resp_data,
    output wire [7:0]  trace_port_resp_tag
);

  localparam [7:0] CORE = CORE_ID[7:0];

  // The core's port.
  wire        c_req_valid, c_req_ready;
  wire [7:0]  c_req_op, c_req_tag;
  wire [31:0] c_req_addr, c_req_data, c_req_cmp;
  wire        c_resp_valid;
  wire [31:0] c_resp_data;
  wire [7:0]  c_resp_tag;
  wire        core_busy;

  umbra_core #(
      .THREADS(THREADS), .REGS(REGS), .IMEM_WORDS(IMEM_WORDS), .CORE_ID(CORE_ID),
      .CACHE_BYTES(CACHE_BYTES), .CACHE_WAYS(CACHE_WAYS), .CACHE_LINE_BYTES(CACHE_LINE_BYTES),
      .REQ_QUEUE(REQ_QUEUE), .MUL_ROWS(MUL_ROWS), .FF_RAMS(FF_RAMS), .EXEC_STAGES(EXEC_STAGES)
  ) u_core (
      .clk(clk), .rst(rst),
      .host_imem_we(host_imem_we), .host_imem_addr(host_imem_addr), .host_imem_data(host_imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .ncore(ncore),
      .busy(core_busy), .fault(fault), .fault_thread(fault_thread), .fault_pc(fault_pc),
      .mem_req_valid(c_req_valid), .mem_req_ready(c_req_ready), .mem_req_op(c_req_op),
      .mem_req_addr(c_req_addr), .mem_req_data(c_req_data), .mem_req_cmp(c_req_cmp),
      .mem_req_tag(c_req_tag),
      .mem_resp_valid(c_resp_valid), .mem_resp_data(c_resp_data), .mem_resp_tag(c_resp_tag),
      .trace_issue_valid(trace_issue_valid), .trace_issue_thread(trace_issue_thread),
      .trace_issue_pc(trace_issue_pc), .trace_issue_reason(trace_issue_reason),
      .trace_regwrite_valid(trace_regwrite_valid), .trace_regwrite_thread(trace_regwrite_thread),
      .trace_regwrite_pc(trace_regwrite_pc), .trace_regwrite_reg(trace_regwrite_reg),
      .trace_regwrite_value(trace_regwrite_value), .trace_fault_cause(trace_fault_cause),
      .trace_protocol_error(trace_protocol_error),
      .trace_cache_valid(trace_cache_valid), .trace_cache_thread(trace_cache_thread),
      .trace_cache_op(trace_cache_op), .trace_cache_addr(trace_cache_addr),
      .trace_cache_outcome(trace_cache_outcome),
      .trace_wake_valid(trace_wake_valid), .trace_wake_thread(trace_wake_thread)
  );

  // The queue sees the core's requests only when it is in use.
  wire        q_req_ready, q_resp_valid, q_dram_valid;
  wire [31:0] q_resp_data;
  wire [15:0] q_resp_tag, q_dram_tag;
  wire [7:0]  q_dram_op;
  wire [31:0] q_dram_addr, q_dram_data, q_dram_cmp;

  reorder_queue #(
      .MODE_REORDER(MODE_REORDER), .DEPTH(QUEUE_DEPTH), .OPEN_ROWS(OPEN_ROWS),
      .MAX_PASSES(MAX_PASSES), .BANKS(BANKS), .ROW_BYTES(ROW_BYTES),
      .LINE_BYTES(CACHE_LINE_BYTES)
  ) u_queue (
      .clk(clk), .rst(rst),
      .mem_req_valid(c_req_valid && !bypass_queue), .mem_req_ready(q_req_ready),
      .mem_req_op(c_req_op), .mem_req_addr(c_req_addr), .mem_req_data(c_req_data),
      .mem_req_cmp(c_req_cmp), .mem_req_tag({CORE, c_req_tag}),
      .mem_resp_valid(q_resp_valid), .mem_resp_data(q_resp_data), .mem_resp_tag(q_resp_tag),
      .dram_req_valid(q_dram_valid), .dram_req_ready(mem_req_ready && !bypass_queue),
      .dram_req_op(q_dram_op), .dram_req_addr(q_dram_addr), .dram_req_data(q_dram_data),
      .dram_req_cmp(q_dram_cmp), .dram_req_tag(q_dram_tag),
      .dram_resp_valid(mem_resp_valid), .dram_resp_data(mem_resp_data), .dram_resp_tag(mem_resp_tag)
  );

  assign c_req_ready   = bypass_queue ? mem_req_ready : q_req_ready;
  // The queue forwards responses unchanged (rtl/reorder_queue.v), bypassed or not, so
  // the core takes them from it either way.  Responses are for this core (one core):
  // the thread is the tag's low byte.
  assign c_resp_valid  = q_resp_valid;
  assign c_resp_data   = q_resp_data;
  assign c_resp_tag    = q_resp_tag[7:0];

  assign mem_req_valid = bypass_queue ? c_req_valid : q_dram_valid;
  assign mem_req_op    = bypass_queue ? c_req_op : q_dram_op;
  assign mem_req_addr  = bypass_queue ? c_req_addr : q_dram_addr;
  assign mem_req_data  = bypass_queue ? c_req_data : q_dram_data;
  assign mem_req_cmp   = bypass_queue ? c_req_cmp : q_dram_cmp;
  assign mem_req_tag   = bypass_queue ? {CORE, c_req_tag} : q_dram_tag;

  assign trace_port_req_valid  = c_req_valid;
  assign trace_port_req_ready  = c_req_ready;
  assign trace_port_req_op     = c_req_op;
  assign trace_port_req_addr   = c_req_addr;
  assign trace_port_req_data   = c_req_data;
  assign trace_port_req_cmp    = c_req_cmp;
  assign trace_port_req_tag    = c_req_tag;
  assign trace_port_resp_valid = c_resp_valid;
  assign trace_port_resp_data  = c_resp_data;
  assign trace_port_resp_tag   = c_resp_tag;

  assign busy             = core_busy || (!bypass_queue && q_dram_valid);
  assign trace_core_busy  = core_busy;
  assign trace_dram_valid = !bypass_queue && q_dram_valid && mem_req_ready;

  // The core's tag is {core, thread}; the high byte of a response names the core,
  // which with one core carries nothing.
  wire unused_resp_core = ^q_resp_tag[15:8];

endmodule

`default_nettype wire
