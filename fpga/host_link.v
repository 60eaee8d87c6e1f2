// host_link: the board's command interpreter on the UART (docs/fpga.md, "The host
// protocol", version 2).  A host sends one command frame and waits for its whole
// reply before sending the next; every field is little-endian.  The commands write the
// instruction store, write and read data memory, launch threads, report status (busy,
// faults, the run's cycles and issued instructions), reset the core, and describe the
// board (INFO), so the host tool needs no board-specific knowledge.  With DOORBELL = 1
// (the ULX3S, whose system has the command processor) DOORBELL rings the command
// processor; elsewhere its byte is an unknown command and costs no logic.
//
// Why it is shaped so (version 1 was 731 LUT4s and 256 flip-flops alone for the
// iCEBreaker, this one 452 and 142: docs/fpga.md, "Board tops"):
//   - Nothing is copied twice.  The UART hands over bits, not bytes, and one 32-bit
//     register, `word`, takes received bits at its top and gives sent bits from its
//     bottom, LSB first: the four argument bytes every command with arguments has (two
//     u16 fields, or DOORBELL's u32), each data word written, each word read from
//     memory.  A reply byte of INFO or STATUS is not copied either: the transmitter
//     asks for each bit and gets it from its source through the reply multiplexer.
//     Addresses are word indices, so there is no alignment to check.
//   - A transfer is checked whole before anything is written or read (first index +
//     count against the store: one adder, constant compares as plain logic) and then
//     runs until the running index equals the end that adder gave -- an equality, not
//     a second counter.
//   - Every error is answered the same way: the receiver discards input until the
//     line has been quiet for IDLE_CLKS, then sends one status byte.  A bad command
//     byte, a refused range or a UART framing error therefore never leaves the two ends
//     out of step; a frame the host stops sending half-way is answered with
//     "incomplete" after the same quiet time.  The quiet timer starts IDLE_CLKS below
//     a power of two and is quiet when its top bit sets: no comparator.
//   - The run counters count only while the core is busy, so once a STATUS reply's
//     busy flag (taken when the command arrives) says it is not, they stand still for
//     the whole reply and are sent live; while busy they are sent as zero, since a
//     counter carrying between two of its bytes would make a number that was never
//     true.  They come in at the board's width (COUNT_BITS), not the protocol's 64:
//     the STATUS multiplexer, a third of the link, grows with every live input bit.
//   - Half duplex: the board does not listen while it answers, since the host waits
//     for the whole reply before it sends again.
`default_nettype none

module host_link #(
    parameter integer CLKS_PER_BIT = 104,       // clock / baud
    parameter integer IDLE_CLKS    = 3000000,   // quiet time that ends a bad frame
    parameter integer THREADS      = 8,
    parameter integer REGS         = 32,
    parameter integer IMEM_WORDS   = 2048,      // at most 32768, as MEM_WORDS
    parameter integer MEM_WORDS    = 32768,
    parameter integer LINE_BYTES   = 32,
    parameter integer CLK_HZ       = 12000000,
    parameter integer COUNT_BITS   = 48,        // the run counters' width: 8..64, whole bytes
    parameter integer DOORBELL     = 0          // 1: the DOORBELL command exists
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rx,
    output wire        tx,

    output wire        core_rst,          // RESET command: resets the core and memory

    output wire        imem_we,
    output wire [31:0] imem_addr,         // word index
    output wire [31:0] imem_data,
    output reg         launch_valid,
    output wire [31:0] launch_count,
    output wire [31:0] launch_entry,      // byte address
    output reg         doorbell_valid,    // DOORBELL: one cycle, with ...
    output wire [31:0] doorbell_addr,     // ... the command buffer's byte address

    output wire        mem_valid,
    input  wire        mem_grant,
    output wire        mem_we,
    output wire [14:0] mem_addr,          // word index
    output wire [31:0] mem_wdata,
    input  wire        mem_rvalid,
    input  wire [31:0] mem_rdata,

    input  wire        busy,
    input  wire        fault,
    input  wire [7:0]  fault_thread,
    input  wire [31:0] fault_pc,
    input  wire        mem_fault,
    input  wire [31:0] mem_fault_addr,
    input  wire        protocol_error,
    input  wire        launched,
    input  wire [COUNT_BITS-1:0] cycles,
    input  wire [COUNT_BITS-1:0] issued
);

  // ---- command and status codes (docs/fpga.md) -------------------------------------
  localparam [7:0] CMD_INFO = 8'h01, CMD_WRITE_IMEM = 8'h02, CMD_WRITE_MEM = 8'h03,
                   CMD_READ_MEM = 8'h04, CMD_LAUNCH = 8'h05, CMD_STATUS = 8'h06,
                   CMD_RESET = 8'h07, CMD_DOORBELL = 8'h08;
  localparam [2:0] ST_OK = 3'd0, ST_UNKNOWN = 3'd1, ST_BUSY = 3'd2, ST_RANGE = 3'd3,
                   ST_FRAMING = 3'd4, ST_INCOMPLETE = 3'd5;
  localparam [7:0] VERSION = 8'd2;

  localparam integer NMAX = (IMEM_WORDS > MEM_WORDS) ? IMEM_WORDS : MEM_WORDS;
  localparam integer AW   = $clog2(NMAX);     // a word index; addr has one bit more
  generate
    if (NMAX > 32768 || COUNT_BITS < 8 || COUNT_BITS > 64 || COUNT_BITS % 8 != 0) begin : g_check
      host_link_stores_above_32768_words_or_counters_not_whole_bytes u_error ();
    end
  endgenerate

  // ---- UART --------------------------------------------------------------------------
  wire rx_bit_valid, rx_bit, rx_valid, rx_ferr, rx_active;
  uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
      .clk(clk), .rst(rst), .rx(rx), .bit_valid(rx_bit_valid), .bit_data(rx_bit),
      .valid(rx_valid), .frame_error(rx_ferr), .active(rx_active));

  wire       tx_valid, tx_take;
  wire [2:0] tx_index;
  reg        tx_bit;
  uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
      .clk(clk), .rst(rst), .valid(tx_valid), .index(tx_index),
      .data(tx_bit), .take(tx_take), .tx(tx));

  // ---- quiet-line timer ----------------------------------------------------------------
  localparam integer QB = $clog2(IDLE_CLKS);  // 2^QB >= IDLE_CLKS
  localparam [31:0]  QUIET_FROM_U = (32'd1 << QB) - IDLE_CLKS;
  localparam [QB:0]  QUIET_FROM = QUIET_FROM_U[QB:0];
  reg  [QB:0] quiet;
  wire        is_quiet = quiet[QB];
  always @(posedge clk) begin
    if (rst || rx_active) quiet <= QUIET_FROM;
    else if (!is_quiet) quiet <= quiet + 1'b1;
  end

  // ---- the interpreter -----------------------------------------------------------------
  localparam [3:0] S_CMD = 4'd0, S_ARGS = 4'd1, S_DATA = 4'd2, S_CHECK = 4'd3,
                   S_NEXT = 4'd4, S_MEM = 4'd5, S_RD_WAIT = 4'd6, S_STEP = 4'd7,
                   S_DRAIN = 4'd8, S_RESET = 4'd9, S_SEND = 4'd10;
  // What S_SEND sends: a status byte alone, the INFO or STATUS reply, or a read word.
  localparam [1:0] K_CODE = 2'd0, K_INFO = 2'd1, K_STATUS = 2'd2, K_WORD = 2'd3;

  reg [3:0]  state;
  reg [3:0]  cmd;               // the command byte's low bits (a known command's are its value)
  reg [1:0]  nb;                // bytes of the arguments or data word received; RESET's cycles
  reg [31:0] word;              // the arguments, each data word, each read word
  reg [AW:0] addr;              // running word index
  reg [AW:0] stop;              // the index after the last
  reg [2:0]  code;
  reg [1:0]  kind;
  reg [4:0]  idx;               // the reply's byte
  reg        snap_busy;

  // Received bits shift in at the top and sent bits leave at the bottom, LSB first,
  // so four bytes in are the little-endian word, and a read word goes out as it came.
  always @(posedge clk)
    if (state == S_RD_WAIT) word <= mem_rdata;
    else if (rx_bit_valid || (tx_take && kind == K_WORD)) word <= {rx_bit, word[31:1]};

  wire [7:0]  cmd_byte = word[31:24];   // a command byte, when it has just arrived
  wire [15:0] arg_a = word[15:0], arg_b = word[31:16];
  wire [16:0] sum = {1'b0, arg_a} + {1'b0, arg_b};
  localparam [31:0] IMEM_U = IMEM_WORDS, MEM_U = MEM_WORDS;
  // x <= c for a constant c, as plain logic: written with <= it would become a carry
  // chain and a LUT per bit, three times over.
  function at_most(input [16:0] x, input [31:0] c);
    integer i;
    begin
      at_most = 1'b1;
      for (i = 0; i < 17; i = i + 1)
        at_most = c[i] ? (!x[i] || at_most) : (!x[i] && at_most);
    end
  endfunction
  wire is_imem   = (cmd == CMD_WRITE_IMEM[3:0]);
  wire is_write  = (cmd == CMD_WRITE_MEM[3:0]);
  wire is_read   = (cmd == CMD_READ_MEM[3:0]);
  wire is_launch = (cmd == CMD_LAUNCH[3:0]);
  wire is_bell   = (DOORBELL != 0) && (cmd == CMD_DOORBELL[3:0]);
  wire in_range  = is_launch ? at_most({1'b0, arg_b}, IMEM_U - 1) :
                   is_bell   ? (word[1:0] == 2'b00) : at_most(sum, is_imem ? IMEM_U : MEM_U);

  wire [31:0] addr_ext = {{(31 - AW){1'b0}}, addr};
  assign imem_addr     = addr_ext;
  assign imem_data     = word;
  assign imem_we       = (state == S_STEP) && is_imem;
  assign launch_count  = {16'd0, arg_a};
  assign launch_entry  = {14'd0, arg_b, 2'b00};
  assign doorbell_addr = word;
  assign mem_valid     = (state == S_MEM);
  assign mem_we        = !is_read;
  assign mem_addr      = addr_ext[14:0];
  assign mem_wdata     = word;
  assign core_rst      = (state == S_RESET);

  // ---- the reply multiplexer -------------------------------------------------------------
  localparam [31:0] P_THREADS = THREADS, P_REGS = REGS, P_IMEM = IMEM_WORDS,
                    P_MEMB = MEM_WORDS * 4, P_LINE = LINE_BYTES, P_CLK = CLK_HZ;
  wire [8*32-1:0] info_reply = {64'd0, P_CLK, P_LINE[15:0], P_MEMB, P_IMEM, P_REGS[15:0],
                                P_THREADS[15:0], VERSION, 32'h52424d55, 8'd0};
  wire [7:0]      flags = {3'd0, launched, protocol_error, mem_fault, fault, snap_busy};
  wire [63:0]     cycles64 = {{(64 - COUNT_BITS){1'b0}}, cycles};
  wire [63:0]     issued64 = {{(64 - COUNT_BITS){1'b0}}, issued};
  wire [8*32-1:0] status_reply = {40'd0, issued64, cycles64, mem_fault_addr, fault_pc,
                                  fault_thread, flags, 8'd0};
  reg  [7:0]      reply_byte;
  always @(*) begin
    case (kind)
      K_INFO:   reply_byte = info_reply[{idx, 3'b000} +: 8];
      K_STATUS: reply_byte = (snap_busy && idx >= 5'd11) ? 8'd0 : status_reply[{idx, 3'b000} +: 8];
      default:  reply_byte = {5'd0, code};
    endcase
    tx_bit = (kind == K_WORD) ? word[0] : reply_byte[tx_index];
  end
  wire send_last = (kind == K_CODE) || (kind == K_WORD && idx == 5'd3) ||
                   (kind == K_INFO && idx == 5'd23) || (kind == K_STATUS && idx == 5'd26);
  assign tx_valid = (state == S_SEND);

  always @(posedge clk) begin
    launch_valid   <= 1'b0;
    doorbell_valid <= 1'b0;
    if (rst) begin
      state <= S_CMD;
    end else begin
      case (state)
        S_CMD: begin
          idx       <= 5'd0;
          nb        <= 2'd0;
          code      <= ST_OK;
          kind      <= K_CODE;
          snap_busy <= busy;
          cmd       <= cmd_byte[3:0];
          if (rx_ferr) begin
            code  <= ST_FRAMING;
            state <= S_DRAIN;
          end else if (rx_valid) begin
            case (cmd_byte)
              CMD_INFO:   begin kind <= K_INFO; state <= S_SEND; end
              CMD_STATUS: begin kind <= K_STATUS; state <= S_SEND; end
              CMD_RESET:  state <= S_RESET;
              CMD_WRITE_IMEM, CMD_WRITE_MEM, CMD_READ_MEM, CMD_LAUNCH: state <= S_ARGS;
              default: if (DOORBELL != 0 && cmd_byte == CMD_DOORBELL) state <= S_ARGS;
                       else begin code <= ST_UNKNOWN; state <= S_DRAIN; end
            endcase
          end
        end

        // The arguments, or a data word: four bytes into `word`.
        S_ARGS, S_DATA: if (rx_ferr) begin
          code  <= ST_FRAMING;
          state <= S_DRAIN;
        end else if (rx_valid) begin
          nb <= nb + 2'd1;
          if (nb == 2'd3) state <= (state == S_ARGS) ? S_CHECK : is_imem ? S_STEP : S_MEM;
        end else if (is_quiet) begin
          code  <= ST_INCOMPLETE;
          state <= S_SEND;
        end

        S_CHECK: begin
          addr <= {1'b0, arg_a[AW-1:0]};
          stop <= sum[AW:0];
          // A refusal drains whatever the frame still sends before answering.
          if (busy && (is_launch || is_bell || is_imem)) begin
            code  <= ST_BUSY;
            state <= S_DRAIN;
          end else if (!in_range) begin
            code  <= ST_RANGE;
            state <= S_DRAIN;
          end else begin
            launch_valid   <= is_launch;
            doorbell_valid <= is_bell;
            state          <= (is_imem || is_write) ? S_NEXT : S_SEND;
          end
        end

        // Between words: the end, or the next word.
        S_NEXT: if (addr == stop) state <= is_read ? S_CMD : S_SEND;
                else state <= is_read ? S_MEM : S_DATA;

        // A write's word must stay in `word` until the memory takes it, and the next
        // data bit comes two bit times after the word's stop bit (16 clocks on the
        // 8-clock benches, 104 at 115200 baud and 6 MHz): the memory takes a host
        // request within a few cycles (at most a fill's, or an SDRAM access's, length).
        S_MEM: if (mem_grant) state <= is_read ? S_RD_WAIT : S_STEP;

        S_RD_WAIT: if (mem_rvalid) begin   // `word` takes mem_rdata
          kind  <= K_WORD;
          state <= S_SEND;
        end

        S_STEP: begin
          addr  <= addr + 1'b1;
          state <= S_NEXT;
        end

        S_DRAIN: if (is_quiet) state <= S_SEND;

        // core_rst is this state: four cycles.
        S_RESET: begin
          nb <= nb + 2'd1;
          if (nb == 2'd3) state <= S_SEND;
        end

        // A byte is done with once its last data bit is on the line: the next byte's
        // bits are then chosen while the stop bit goes out.
        default: if (tx_take && tx_index == 3'd7) begin  // S_SEND
          idx <= idx + 5'd1;
          if (send_last) begin
            idx   <= 5'd0;
            state <= (kind == K_WORD) ? S_STEP :
                     (is_read && code == ST_OK && kind == K_CODE) ? S_NEXT : S_CMD;
          end
        end
      endcase
    end
  end

endmodule

`default_nettype wire
