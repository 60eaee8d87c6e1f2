// synth_top: the smallest top that lets an FPGA flow measure the core honestly.  The
// core's generic memory port and host port are ~200 signals; left as top-level I/O
// they would not fit a 48-pin package, and left open or constant the synthesizer
// would delete most of the core.  So this top gives the core
//   - an on-chip word memory behind the generic memory port (block RAM, or SPRAM
//     where synth_ice40 -spram finds the shape), taking stores at once and answering
//     a line fill with its words on consecutive cycles from MEM_LATENCY cycles after
//     acceptance, as the fixed-latency testbench memory does; one port, so
//     mem_req_ready is low while a fill reads its line;
//   - a host port fed from a serial shift register (host_din shifted in on
//     host_shift; host_imem_we / host_launch use its 64 bits as {addr, data} or
//     {count, entry}), every pin registered twice so no path starts at a pad;
//   - status pins: busy, fault, mem_fault and the parity of fault_thread/fault_pc
//     (which keeps the fault capture logic in the netlist, as a board's readback
//     would).
// It is a synthesis vehicle, not a board: atomics (red.*, atom.*) need a
// read-modify-write at the memory, which belongs to the board top / memory system;
// here such a request, a misaligned or out-of-range address raises the sticky
// mem_fault and gets no response, as the fixed-latency memory refuses bad requests.
// The trace_* ports stay open and cost nothing after synthesis.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS, UMBRA_DEFAULT_*

module synth_top #(
    `UMBRA_CORE_PARAMS,  // the core's (isa/config_keys.yaml)
    parameter integer MEM_WORDS   = 32768,  // data memory, 32-bit words (memory.bytes / 4)
    parameter integer MEM_LATENCY = 2       // request accepted in m, first beat in m + this
) (
    input  wire clk,
    input  wire rst_pin,
    input  wire host_din,
    input  wire host_shift,
    input  wire host_imem_we_pin,
    input  wire host_launch_pin,
    output reg  busy,
    output reg  fault,
    output reg  mem_fault,
    output reg  fault_parity
);

  localparam integer MW = (MEM_WORDS > 1) ? $clog2(MEM_WORDS) : 1;

  generate
    if (MEM_LATENCY < 1) begin : g_check_latency
      synth_top_MEM_LATENCY_below_1 u_error ();
    end
  endgenerate

  // A word port: the loader gives LINE_PORT 0 without a cache, and this memory has no
  // line port for a configuration with one.
  generate
    if (LINE_PORT != 0) begin : g_check_line_port
      synth_top_has_no_line_port_set_cache_line_port_false u_error ();
    end
  endgenerate

  // ---- pins: two flops each (the inputs are asynchronous to clk on a board) ----------
  reg [1:0] rst_s, din_s, shift_s, imem_we_s, launch_s;
  always @(posedge clk) begin
    rst_s     <= {rst_s[0], rst_pin};
    din_s     <= {din_s[0], host_din};
    shift_s   <= {shift_s[0], host_shift};
    imem_we_s <= {imem_we_s[0], host_imem_we_pin};
    launch_s  <= {launch_s[0], host_launch_pin};
  end
  wire rst = rst_s[1];

  reg [63:0] host_sr;
  reg        host_imem_we, host_launch;
  always @(posedge clk) begin
    if (shift_s[1])
      host_sr <= {host_sr[62:0], din_s[1]};
    host_imem_we <= imem_we_s[1];
    host_launch  <= launch_s[1];
  end

  // ---- the core -------------------------------------------------------------------------
  wire        core_busy, core_fault;
  wire [7:0]  core_fault_thread;
  wire [31:0] core_fault_pc;
  wire        req_valid, req_ready;
  wire [7:0]  req_op, req_tag;
  wire [31:0] req_addr, req_data;
  reg         resp_valid;
  reg  [31:0] resp_data;
  reg  [7:0]  resp_tag;

  /* verilator lint_off PINCONNECTEMPTY */
  umbra_core #(`UMBRA_CORE_PASS, .CORE_ID(0)) u_core (
      .clk(clk), .rst(rst),
      .host_imem_we(host_imem_we), .host_imem_addr(host_sr[63:32]),
      .host_imem_data(host_sr[31:0]),
      .launch_valid(host_launch), .launch_count(host_sr[63:32]),
      .launch_entry(host_sr[31:0]),
      .launch_lx0(32'd0), .launch_domw(host_sr[63:32]), .ncore(32'd1), .args(32'd0), .inval_all(1'b0),
      .domain_valid(1'b0), .domain_w(32'd0), .domain_h(32'd0),
      .start_valid(1'b0), .start_lx(32'd0), .start_ly(32'd0), .can_start(),
      .busy(core_busy), .fault(core_fault), .fault_thread(core_fault_thread),
      .fault_pc(core_fault_pc),
      .mem_req_valid(req_valid), .mem_req_ready(req_ready), .mem_req_op(req_op),
      .mem_req_addr(req_addr), .mem_req_data(req_data), .mem_req_cmp(),
      .mem_req_tag(req_tag),
      .mem_resp_valid(resp_valid), .mem_resp_data(resp_data), .mem_resp_tag(resp_tag),
      .mem_req_mask(), .mem_req_line(), .mem_resp_line({(8*CACHE_LINE_BYTES){1'b0}}),  // a word port: no line port
      .mem_resp_ahead_tag(8'd0),  // no response register
      .trace_issue_valid(), .trace_issue_thread(), .trace_issue_pc(),
      .trace_issue_reason(), .trace_regwrite_valid(), .trace_regwrite_thread(),
      .trace_regwrite_pc(), .trace_regwrite_reg(), .trace_regwrite_value(),
      .trace_fault_cause(), .trace_protocol_error(),
      .trace_cache_valid(), .trace_cache_thread(), .trace_cache_op(), .trace_cache_addr(),
      .trace_cache_outcome(), .trace_wake_valid(), .trace_wake_thread(), .trace_start_thread()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---- data memory ----------------------------------------------------------------------
  // One port, as SPRAM has: a cycle either writes a word or reads one.  A fill reads
  // its line's words on consecutive cycles from its acceptance on (ready is low while
  // it does); each read's data is the RAM's output register, valid in the next cycle,
  // and register stages after it carry it to the response, MEM_LATENCY cycles after
  // acceptance.  With MEM_LATENCY >= 2 the first of those stages stands in front of
  // the RAM instead (CMD_REG: its address, write enable and data registered), so that
  // the path from the core's request through the range check ends at a flip-flop,
  // not at the write enables of RAMs across the chip (the UP5K's longest path once
  // the core's own were shorter, docs/fpga.md); every access then happens one cycle
  // later, in the order accepted, and every response in the same cycle as before.
  localparam integer WPL = CACHE_LINE_BYTES / 4;  // words per line, a power of two
  localparam integer OW  = (WPL > 1) ? $clog2(WPL) : 1;
  localparam [31:0] MEM_BYTES = MEM_WORDS * 4;
  localparam [31:0] LINE_MASK = CACHE_LINE_BYTES - 1;
  localparam [31:0] LAST_U    = WPL - 1;
  localparam [OW-1:0] LAST_WORD = LAST_U[OW-1:0];
  localparam [OW-1:0] ONE_WORD  = 1;
  wire is_fill  = (req_op == `UMBRA_PORT_OP_FILL);
  wire is_stw   = (req_op == `UMBRA_OP_STW);
  wire in_range = (req_addr < MEM_BYTES) &&
                  (is_fill ? (req_addr & LINE_MASK) == 32'd0 : req_addr[1:0] == 2'b00);
  wire ok       = req_valid && req_ready && in_range && (is_fill || is_stw);
  wire bad      = req_valid && req_ready && !(in_range && (is_fill || is_stw));

  reg          filling;    // reading words 1.. of a line
  reg [OW-1:0] fill_word;  // the next word to read
  reg [MW-1:0] fill_base;
  reg [7:0]    fill_tag;
  assign req_ready = !filling;
  wire [MW-1:0] raddr = filling ? (fill_base | {{(MW-OW){1'b0}}, fill_word}) : req_addr[MW+1:2];
  wire          last_word = (fill_word == LAST_WORD);
  always @(posedge clk) begin
    if (rst) begin
      filling <= 1'b0;
    end else if (filling) begin
      fill_word <= fill_word + 1'b1;
      if (last_word)
        filling <= 1'b0;
    end else if (ok && is_fill && WPL > 1) begin
      filling   <= 1'b1;
      fill_word <= ONE_WORD;
      fill_base <= req_addr[MW+1:2];
      fill_tag  <= req_tag;
    end
  end

  localparam integer CMD_REG = (MEM_LATENCY >= 2) ? 1 : 0;
  localparam integer PEND    = MEM_LATENCY - CMD_REG;  // stages from the RAM's output on
  wire          cmd_we   = ok && is_stw;
  wire          cmd_read = filling || (ok && is_fill);  // a read that becomes a beat
  wire [7:0]    cmd_tag  = filling ? fill_tag : req_tag;
  reg           ram_we, ram_read;
  reg  [MW-1:0] ram_addr;
  reg  [31:0]   ram_data;
  reg  [7:0]    ram_tag;
  generate
    if (CMD_REG != 0) begin : g_cmd_reg
      always @(posedge clk) begin
        ram_we   <= !rst && cmd_we;
        ram_read <= !rst && cmd_read;
        ram_addr <= raddr;
        ram_data <= req_data;
        ram_tag  <= cmd_tag;
      end
    end else begin : g_cmd_wire
      always @(*) begin
        ram_we   = cmd_we;
        ram_read = cmd_read;
        ram_addr = raddr;
        ram_data = req_data;
        ram_tag  = cmd_tag;
      end
    end
  endgenerate

  reg [31:0] mem [0:MEM_WORDS-1];
  reg [31:0] mem_q;
  always @(posedge clk) begin
    if (ram_we)
      mem[ram_addr] <= ram_data;
    else
      mem_q <= mem[ram_addr];
  end

  // The response in flight: stage k holds a load read k+1 cycles ago.  Its data is
  // the RAM's output register at stage 0 and registers after that.
  wire [PEND-1:0]    pend_valid;
  wire [8*PEND-1:0]  pend_tag;
  wire [32*PEND-1:0] pend_data;
  reg        v0;
  reg  [7:0] t0;
  always @(posedge clk) begin
    v0 <= !rst && ram_read;
    t0 <= ram_tag;
  end
  assign pend_valid[0]   = v0;
  assign pend_tag[7:0]   = t0;
  assign pend_data[31:0] = mem_q;
  genvar g;
  generate
    for (g = 1; g < PEND; g = g + 1) begin : g_stage
      reg        v;
      reg [7:0]  t;
      reg [31:0] q;
      always @(posedge clk) begin
        v <= !rst && pend_valid[g-1];
        t <= pend_tag[8*(g-1) +: 8];
        q <= pend_data[32*(g-1) +: 32];
      end
      assign pend_valid[g]       = v;
      assign pend_tag[8*g +: 8]  = t;
      assign pend_data[32*g +: 32] = q;
    end
  endgenerate

  always @(*) begin
    resp_valid = pend_valid[PEND-1];
    resp_tag   = pend_tag[8*(PEND-1) +: 8];
    resp_data  = pend_data[32*(PEND-1) +: 32];
  end

  // ---- status pins ------------------------------------------------------------------------
  // A refused request reaches mem_fault a cycle late, through bad_q, so that the range
  // check behind the request FIFO's RAM ends at one flip-flop rather than at the pin's
  // enable (the UP5K's longest path at 30 MHz).
  reg bad_q;
  always @(posedge clk) begin
    bad_q <= !rst && bad;
    if (rst)
      mem_fault <= 1'b0;
    else if (bad_q)
      mem_fault <= 1'b1;
    busy         <= core_busy;
    fault        <= core_fault;
    fault_parity <= ^{core_fault_thread, core_fault_pc};
  end

endmodule

`default_nettype wire
