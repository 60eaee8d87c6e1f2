// command_processor: reads the host's command buffer from memory and drives the system
// with it (docs/commands.md; docs/microarchitecture.md, "Command processor");
// systemc/command_processor.{h,cpp} is the same block, cycle for cycle.  The host rings
// the doorbell with the buffer's address; the processor reads the buffer a line at a
// time through the memory system (a requester ahead of the cores, DRAM-port tag
// 0xFF00) and, command by command, sets the argument block, the domain, starts the
// dispatcher, copies a program into the instruction stores, invalidates the caches,
// waits for idle, or writes a fence or its performance counters to memory.
//
// Why a line at a time: a word read holds the DRAM's bus for a whole burst, while a fill
// brings a line's beats on consecutive cycles, so a small buffer's first commands are
// here one DRAM access after the doorbell, and `program` streams its text a word a
// cycle into the instruction stores.  One line buffer suffices: the processor takes at
// most a word a cycle and never reads ahead of the line it is in.
//
// On a line port (LINE_PORT, cache.line_port) a fill's line comes back in one beat on
// resp_line, the whole line buffer written at once, as the cores' caches take it.
//
// Every output is a function of registers (the state, the line buffer) and of the
// system's busy and the dispatcher's busy, which are registers too, so the block adds
// no path from the memory's inputs to its outputs.  `invalidate` reaches the caches
// from a register (inval_q), the cycle after it starts: the system's busy decides
// whether it starts, and every valid bit of every core's cache is too far from that OR
// of all the cores for one cycle.  It is an idle command, so nothing can touch a cache
// in between.  For the same reason a fill of the line buffer is asked for from a
// register (fill_q), the cycle after the processor finds its word missing: the request
// goes through the arbiter into the reorder queue's page compares, far across the chip.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_commands.vh"
`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module command_processor #(
    parameter integer CORES      = `UMBRA_DEFAULT_CORES,
    parameter integer LINE_BYTES = `UMBRA_DEFAULT_LINE_BYTES,
    parameter integer IMEM_WORDS = `UMBRA_DEFAULT_IMEM_WORDS,
    parameter integer LINE_PORT  = `UMBRA_DEFAULT_LINE_PORT,     // 1: a fill's line in one beat (resp_line)
    parameter integer FB = `UMBRA_CMD_FAULT_BITS  // derived; not to be set
) (
    input  wire               clk,
    input  wire               rst,
    input  wire               doorbell_valid,
    input  wire [31:0]        doorbell_addr,
    input  wire               system_busy,    // a core busy, items left, requests in the queue
    input  wire               dispatch_busy,  // items left in the dispatcher
    input  wire [CORES-1:0]   issued,         // core c issued an instruction this cycle

    output wire               req_valid,      // a request ahead of the cores'
    input  wire               req_ready,
    output wire [7:0]         req_op,
    output wire [31:0]        req_addr,
    output wire [31:0]        req_data,
    input  wire               resp_valid,     // a beat with the processor's tag
    input  wire [31:0]        resp_data,
    input  wire [8*LINE_BYTES-1:0] resp_line,  // LINE_PORT: the whole line

    output wire               imem_we,        // `program`: every core's instruction store
    output wire [31:0]        imem_addr,
    output wire [31:0]        imem_data,
    output wire               domain_valid,   // `run`
    output wire [31:0]        domain_w,
    output wire [31:0]        domain_h,
    output wire [31:0]        entry,
    output wire               inval_all,      // `invalidate`, the cycle after it starts
    output wire [31:0]        args,           // `rdsr arg`
    output wire               busy,
    output wire [FB-1:0]      fault,
    output wire [31:0]        fault_addr,
    output wire               started,        // a command executes this cycle (the command event)
    output wire [7:0]         cmd_op,
    output wire [31:0]        cmd_addr
);

`include "umbra_commands_attr.vh"

  localparam integer LW  = LINE_BYTES / 4;              // words a line
  localparam integer OW  = (LW > 1) ? $clog2(LW) : 1;   // a word's index in the line
  localparam integer NW  = OW + 1;                      // beats received, 0..LW
  localparam [31:0]  LINE_MASK = ~(LINE_BYTES - 1);
  localparam [NW-1:0] LW_N = LW[NW-1:0];
  localparam [31:0]  COUNTER_WORDS = `UMBRA_CMD_COUNTER_FIXED_WORDS + CORES;
  localparam [31:0]  IMEM_WORDS_32 = IMEM_WORDS;
  localparam [7:0]   OP_FILL = `UMBRA_PORT_OP_FILL;
  localparam [7:0]   OP_STW  = `UMBRA_OP_STW;

  localparam [2:0] S_IDLE = 3'd0, S_FETCH = 3'd1, S_START = 3'd2, S_COPY = 3'd3, S_STORE = 3'd4,
                   S_FAULT = 3'd5;

  reg  [2:0]    state;
  reg  [31:0]   rd, cmd_at, op, a0, a1, a2;
  reg  [1:0]    nargs, argi;
  reg  [31:0]   line [0:LW-1];
  reg  [31:0]   line_base;
  reg  [NW-1:0] line_got;
  reg           line_have, filling;
  reg           in_line;  // rd's line is line_base's (with line_have: the word is or will be here)
  reg           fill_q;   // asking for rd's line: want_fill, a cycle later
  reg  [31:0]   left, dest, ret;
  reg  [31:0]   store_i;
  reg  [31:0]   store_addr;  // a0 + 4 * store_i, kept so that no adder feeds the queue's page compares
  reg  [31:0]   args_q, dom_w, dom_h;
  reg  [31:0]   cycles, busy_cycles, snap_cycles, snap_busy;
  reg  [32*CORES-1:0] instructions;
  reg  [FB-1:0] fault_q;
  reg           inval_q;

  // ---- the line buffer ---------------------------------------------------------------------
  // in_line is "(rd & LINE_MASK) == line_base" kept in a flop: set by the fill's grant
  // (rd waits for the fill, so it is the fill's line), cleared when a step of rd leaves
  // the line, and compared once where rd jumps (`program`'s text and back).  The
  // compare in word_ready was the front of the request into the reorder queue and of
  // every output that waits on a word (docs/fpga.md, "ULX3S timing").
  wire [OW-1:0] rd_word = (LW > 1) ? rd[OW+1:2] : {OW{1'b0}};
  wire          step_in_line = (LW > 1) && {1'b0, rd_word} != LW_N - 1'b1;  // rd + 4 stays in the line
  wire          word_ready = line_have && in_line && {1'b0, rd_word} < line_got;
  wire [31:0]   word = line[rd_word];
  wire          want_fill = (state == S_FETCH || state == S_COPY) && !word_ready && !filling;

  // ---- the command in S_START ----------------------------------------------------------------
  wire [3:0] attr_op   = umbra_cmd_attr(op);
  wire       is_run    = op == `UMBRA_CMD_RUN;
  wire       go        = state == S_START && !(attr_op[2] && system_busy) && !(is_run && dispatch_busy);
  wire       dom_ok    = dom_w != 32'd0 && dom_h != 32'd0;
  wire       entry_ok  = a0[1:0] == 2'b00 && {2'b00, a0[31:2]} < IMEM_WORDS_32;

  // ---- the fetched word in S_FETCH -------------------------------------------------------------
  wire [3:0] attr_word = umbra_cmd_attr(word);

  // ---- the counters block, word store_i ------------------------------------------------------
  reg [31:0] counter_word;
  integer k;
  always @* begin
    counter_word = 32'd0;
    if (store_i == `UMBRA_CMD_COUNTER_CYCLES)
      counter_word = snap_cycles;
    else if (store_i == `UMBRA_CMD_COUNTER_BUSY_CYCLES)
      counter_word = snap_busy;
    for (k = 0; k < CORES; k = k + 1)
      if (store_i == `UMBRA_CMD_COUNTER_FIXED_WORDS + k)
        counter_word = instructions[32*k +: 32];
  end

  wire store_now = state == S_STORE;
  assign req_valid = fill_q || store_now;
  assign req_op    = store_now ? OP_STW : OP_FILL;
  assign req_addr  = store_now ? store_addr : (rd & LINE_MASK);
  assign req_data  = !store_now ? 32'd0 : (op == `UMBRA_CMD_FENCE) ? a1 : counter_word;
  wire   granted   = req_valid && req_ready;

  assign imem_we      = state == S_COPY && word_ready;
  assign imem_addr    = dest;
  assign imem_data    = word;
  assign domain_valid = go && is_run && dom_ok && entry_ok;
  assign domain_w     = dom_w;
  assign domain_h     = dom_h;
  assign entry        = a0;
  assign inval_all    = inval_q;
  assign args         = args_q;
  assign busy         = state != S_IDLE && state != S_FAULT;
  assign fault        = fault_q;
  assign fault_addr   = cmd_at;
  assign started      = go;
  assign cmd_op       = op[7:0];
  assign cmd_addr     = cmd_at;

  // ---- the edge ------------------------------------------------------------------------------
  integer c;
  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      rd <= 32'd0; cmd_at <= 32'd0; op <= 32'd0; a0 <= 32'd0; a1 <= 32'd0; a2 <= 32'd0;
      nargs <= 2'd0; argi <= 2'd0;
      line_base <= 32'd0; line_got <= {NW{1'b0}}; line_have <= 1'b0; filling <= 1'b0; in_line <= 1'b0;
      left <= 32'd0; dest <= 32'd0; ret <= 32'd0; store_i <= 32'd0; store_addr <= 32'd0;
      args_q <= 32'd0; dom_w <= 32'd0; dom_h <= 32'd0;
      cycles <= 32'd0; busy_cycles <= 32'd0; snap_cycles <= 32'd0; snap_busy <= 32'd0;
      instructions <= {32*CORES{1'b0}};
      fault_q <= `UMBRA_CMD_FAULT_NONE;
      inval_q <= 1'b0;
      fill_q  <= 1'b0;
    end else begin
      // want_fill holds until the fill is granted: its word cannot arrive before.
      fill_q  <= want_fill && !(granted && !store_now);
      inval_q <= go && op == `UMBRA_CMD_INVALIDATE;
      // The counters (a counters_reset below wins).
      cycles <= cycles + 32'd1;
      if (system_busy) busy_cycles <= busy_cycles + 32'd1;
      for (c = 0; c < CORES; c = c + 1)
        instructions[32*c +: 32] <= instructions[32*c +: 32] + {31'd0, issued[c]};

      // The line buffer: a beat of the fill in flight, or a fill taken.
      if (resp_valid && LINE_PORT != 0) begin
        for (c = 0; c < LW; c = c + 1)
          line[c] <= resp_line[32*c +: 32];
        line_got <= LW_N;
        filling  <= 1'b0;
      end else if (resp_valid) begin
        line[line_got[OW-1:0]] <= resp_data;
        line_got <= line_got + 1'b1;
        if (line_got + 1'b1 == LW_N) filling <= 1'b0;
      end
      if (granted && !store_now) begin
        filling   <= 1'b1;
        line_have <= 1'b1;
        line_base <= rd & LINE_MASK;
        in_line   <= 1'b1;
        line_got  <= {NW{1'b0}};
      end

      case (state)
        S_IDLE, S_FAULT:
          if (doorbell_valid) begin
            cmd_at    <= doorbell_addr;
            line_have <= 1'b0;  // the host may have rewritten memory since
            argi      <= 2'd0;
            rd        <= doorbell_addr;
            if (doorbell_addr[1:0] != 2'b00) begin
              fault_q <= `UMBRA_CMD_FAULT_MISALIGNED;
              state   <= S_FAULT;
            end else begin
              fault_q <= `UMBRA_CMD_FAULT_NONE;
              state   <= S_FETCH;
            end
          end
        S_FETCH:
          if (word_ready) begin
            if (argi == 2'd0) begin
              cmd_at <= rd;
              if (!attr_word[3]) begin
                fault_q <= `UMBRA_CMD_FAULT_BAD_OPCODE;
                state   <= S_FAULT;
              end else begin
                op    <= word;
                nargs <= attr_word[1:0];
                rd    <= rd + 32'd4;
                in_line <= in_line && step_in_line;
                if (attr_word[1:0] == 2'd0)
                  state <= S_START;
                else
                  argi <= 2'd1;
              end
            end else begin
              case (argi)
                2'd1:    a0 <= word;
                2'd2:    a1 <= word;
                default: a2 <= word;
              endcase
              rd <= rd + 32'd4;
              in_line <= in_line && step_in_line;
              if (argi == nargs) begin
                argi  <= 2'd0;
                state <= S_START;
              end else begin
                argi <= argi + 2'd1;
              end
            end
          end
        S_START:
          if (go) begin
            state <= S_FETCH;
            case (op)
              `UMBRA_CMD_END: state <= S_IDLE;
              `UMBRA_CMD_PROGRAM:
                if (a0[1:0] != 2'b00 || a2[1:0] != 2'b00) begin
                  fault_q <= `UMBRA_CMD_FAULT_MISALIGNED;
                  state   <= S_FAULT;
                end else if (a1 > IMEM_WORDS_32 || {2'b00, a2[31:2]} > IMEM_WORDS_32 - a1) begin
                  fault_q <= `UMBRA_CMD_FAULT_BAD_PROGRAM;
                  state   <= S_FAULT;
                end else if (a1 != 32'd0) begin
                  ret   <= rd;
                  rd    <= a0;
                  in_line <= (a0 & LINE_MASK) == line_base;
                  left  <= a1;
                  dest  <= {2'b00, a2[31:2]};
                  state <= S_COPY;
                end
              `UMBRA_CMD_ARGS: args_q <= a0;
              `UMBRA_CMD_DOMAIN: begin
                dom_w <= a0;
                dom_h <= a1;
              end
              `UMBRA_CMD_RUN:
                if (!dom_ok) begin
                  fault_q <= `UMBRA_CMD_FAULT_BAD_DOMAIN;
                  state   <= S_FAULT;
                end else if (a0[1:0] != 2'b00) begin
                  fault_q <= `UMBRA_CMD_FAULT_MISALIGNED;
                  state   <= S_FAULT;
                end else if (!entry_ok) begin
                  fault_q <= `UMBRA_CMD_FAULT_BAD_ENTRY;
                  state   <= S_FAULT;
                end
              `UMBRA_CMD_FENCE, `UMBRA_CMD_COUNTERS:
                if (a0[1:0] != 2'b00) begin
                  fault_q <= `UMBRA_CMD_FAULT_MISALIGNED;
                  state   <= S_FAULT;
                end else begin
                  store_i     <= 32'd0;
                  store_addr  <= a0;
                  snap_cycles <= cycles;
                  snap_busy   <= busy_cycles;
                  state       <= S_STORE;
                end
              `UMBRA_CMD_COUNTERS_RESET: begin
                cycles       <= 32'd0;
                busy_cycles  <= 32'd0;
                instructions <= {32*CORES{1'b0}};
              end
              default: ;  // wait: its effect is this cycle's (invalidate's is inval_q's)
            endcase
          end
        S_COPY:
          if (word_ready) begin
            rd   <= rd + 32'd4;
            in_line <= in_line && step_in_line;
            dest <= dest + 32'd1;
            left <= left - 32'd1;
            if (left == 32'd1) begin
              rd    <= ret;
              in_line <= (ret & LINE_MASK) == line_base;
              state <= S_FETCH;
            end
          end
        S_STORE:
          if (granted) begin
            store_i <= store_i + 32'd1;
            store_addr <= store_addr + 32'd4;
            if (op == `UMBRA_CMD_FENCE || store_i + 32'd1 == COUNTER_WORDS) state <= S_FETCH;
          end
        default: state <= S_IDLE;
      endcase
    end
  end

  wire unused = ^{attr_op[3], attr_op[1:0], attr_word[2]};

endmodule

`default_nettype wire
