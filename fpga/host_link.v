// host_link: the board's command interpreter on the UART (docs/fpga.md, "The host
// protocol").  A host sends one command frame and waits for its whole reply before
// sending the next; every multi-byte field is little-endian.  The commands write the
// instruction store, write and read data memory, launch threads, report status
// (busy, faults, the run's cycles and issued instructions), reset the core, and
// describe the board (INFO), so the host tool needs no board-specific knowledge.
// With DOORBELL = 1 (a board whose system has the command processor, the ULX3S's),
// DOORBELL rings the command processor with a command buffer's address; elsewhere
// its byte is an unknown command, as it always was, and costs no logic.
//
// Why it is shaped so:
//   - Frames are fixed-format by command (no length prefix, no checksum): the UART
//     and the USB bridge are error-checked enough for a bench, and a fixed format
//     lets the receiver act on each byte as it arrives (a data word is written the
//     cycle its fourth byte is in), so no frame buffer is needed.
//   - Every error is answered the same way: the receiver discards input until the
//     line has been quiet for IDLE_CLKS, then sends one error byte.  A bad command
//     byte, a refused range or a UART framing error therefore never leaves the two
//     ends out of step: the host sees the error after its own frame has drained and
//     can simply send the next command.  A frame the host stops sending half-way is
//     answered with "incomplete" after the same quiet time.
//   - A reply is sent byte by byte from a multiplexer over its fields: a byte index
//     selects the next byte of the INFO constants, the status fields or the word
//     just read, so no reply is ever copied into a wide shift register (that copy
//     cost about 1100 LUT4s).  Nothing is snapshotted but the flags: the run counters
//     count only while the core is busy, so once the flags say it is not they stand
//     still for the whole reply and are sent live; while it is busy they are sent as
//     zero, since a counter carrying between two of its bytes being sent would make
//     a number that was never true (a snapshot of both cost 128 logic cells, 2.4% of
//     the UP5K, for a progress figure no tool needs).
//   - The ports toward the core and the memory are the interpreter's own registers
//     (the argument shift register, the running address, the assembled word), not
//     copies of them.
`default_nettype none

module host_link #(
    parameter integer CLKS_PER_BIT = 104,       // clock / baud
    parameter integer IDLE_CLKS    = 3000000,   // quiet time that ends a bad frame
    parameter integer THREADS      = 8,
    parameter integer REGS         = 32,
    parameter integer IMEM_WORDS   = 2048,
    parameter integer MEM_WORDS    = 32768,
    parameter integer LINE_BYTES   = 32,
    parameter integer CLK_HZ       = 12000000,
    parameter integer DOORBELL     = 0          // 1: the DOORBELL command exists
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rx,
    output wire        tx,

    output reg         core_rst,          // RESET command: resets the core and memory

    output reg         imem_we,
    output wire [31:0] imem_addr,         // word index
    output wire [31:0] imem_data,
    output reg         launch_valid,
    output wire [31:0] launch_count,
    output wire [31:0] launch_entry,
    output reg         doorbell_valid,    // DOORBELL: one cycle, with ...
    output wire [31:0] doorbell_addr,     // ... the command buffer's byte address

    output reg         mem_valid,
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
    input  wire [63:0] cycles,
    input  wire [63:0] issued
);

  // ---- command and status codes (docs/fpga.md) -------------------------------------
  localparam [7:0] CMD_INFO = 8'h01, CMD_WRITE_IMEM = 8'h02, CMD_WRITE_MEM = 8'h03,
                   CMD_READ_MEM = 8'h04, CMD_LAUNCH = 8'h05, CMD_STATUS = 8'h06,
                   CMD_RESET = 8'h07, CMD_DOORBELL = 8'h08;
  localparam [7:0] ST_OK = 8'h00, ST_UNKNOWN = 8'h01, ST_BUSY = 8'h02, ST_RANGE = 8'h03,
                   ST_FRAMING = 8'h04, ST_INCOMPLETE = 8'h05;
  localparam [7:0] VERSION = 8'd1;

  // ---- UART --------------------------------------------------------------------------
  wire [7:0] rx_data;
  wire       rx_valid, rx_ferr;
  uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
      .clk(clk), .rst(rst), .rx(rx), .data(rx_data), .valid(rx_valid),
      .frame_error(rx_ferr));

  // The reply being sent: its kind, the index of the next byte and the index of its
  // last byte.  tx_on is high from a reply's start until its last byte is taken.
  localparam [1:0] R_CODE = 2'd0, R_INFO = 2'd1, R_STATUS = 2'd2, R_WORD = 2'd3;
  reg  [1:0] tx_kind;
  reg  [4:0] tx_idx, tx_last;
  reg        tx_on;
  reg  [7:0] tx_byte;
  wire       tx_ready;
  wire       tx_take = tx_on && tx_ready;
  uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
      .clk(clk), .rst(rst), .data(tx_byte), .valid(tx_on), .ready(tx_ready), .tx(tx));

  // ---- quiet-line timer ----------------------------------------------------------------
  localparam integer QW = $clog2(IDLE_CLKS + 1);
  localparam [31:0]  IDLE_U = IDLE_CLKS;
  localparam [QW-1:0] IDLE = IDLE_U[QW-1:0];
  reg [QW-1:0] quiet;
  wire         is_quiet = (quiet == IDLE);

  // ---- the interpreter -----------------------------------------------------------------
  localparam [3:0] S_IDLE = 4'd0, S_ARGS = 4'd1, S_CHECK = 4'd2, S_DATA = 4'd3,
                   S_WRITE = 4'd4, S_RD_HDR = 4'd5, S_RD_REQ = 4'd6, S_RD_WAIT = 4'd7,
                   S_RD_SEND = 4'd8, S_DRAIN = 4'd9, S_RESET = 4'd10, S_REPLY = 4'd11,
                   S_IMEM = 4'd12, S_RD_NEXT = 4'd13;

  reg [3:0]  state;
  reg [7:0]  cmd;
  reg [2:0]  got;               // argument bytes received
  reg [63:0] arg_sr;            // arguments, shifted in from the top (little-endian)
  reg [15:0] addr;              // running word index (imem or memory); fits 16 bits
                                // once the range check has passed
  reg [15:0] count;             // words still to transfer
  reg [1:0]  nbyte;             // bytes of the current data word received
  reg [31:0] word;              // the data word being received, or the one read
  reg [7:0]  reply_code;
  reg [2:0]  reset_left;
  reg [7:0]  snap_flags;

  // LAUNCH takes eight argument bytes (u32, u32), DOORBELL four (u32), the others six
  // (u32 address, u16 count), which then sit in the top 48 bits of arg_sr.
  wire        eight = (cmd == CMD_LAUNCH);
  wire [31:0] a0 = eight ? arg_sr[31:0] : arg_sr[47:16];
  wire [15:0] a1 = arg_sr[63:48];

  // The range checks share one adder: the first word index (the imem's, or the
  // memory's byte address / 4) plus the count against the store's size.  Both sizes
  // are at most 32768 words, so the sum is formed in LW bits once the higher bits of
  // both operands are known to be zero; a 33-bit sum and compare each cost three
  // times as many cells.
  localparam integer NMAX = (IMEM_WORDS > MEM_WORDS) ? IMEM_WORDS : MEM_WORDS;
  localparam integer LW   = $clog2(NMAX + 1);
  localparam [31:0]  IMEM_U = IMEM_WORDS, MEM_U = MEM_WORDS;
  localparam [LW:0]  IMEM_N = IMEM_U[LW:0], MEM_N = MEM_U[LW:0];
  wire        to_imem = (cmd == CMD_WRITE_IMEM);
  wire [31:0] first   = to_imem ? a0 : {2'b00, a0[31:2]};
  wire [LW:0] sum     = {1'b0, first[LW-1:0]} + {1'b0, a1[LW-1:0]};
  wire        range_ok = (first[31:LW] == {(32 - LW){1'b0}}) &&
                         (a1 >> LW) == 16'd0 && (to_imem || a0[1:0] == 2'b00) &&
                         (sum <= (to_imem ? IMEM_N : MEM_N));
  wire        entry_ok = (arg_sr[33:32] == 2'b00) && ({2'b00, arg_sr[63:34]} < IMEM_WORDS);

  assign imem_addr    = {16'd0, addr};
  assign imem_data    = word;
  assign launch_count = arg_sr[31:0];
  assign launch_entry = arg_sr[63:32];
  assign doorbell_addr = arg_sr[63:32];
  wire   doorbell_cmd  = (DOORBELL != 0) && (rx_data == CMD_DOORBELL);
  assign mem_we       = (state == S_WRITE);
  assign mem_addr     = addr[14:0];
  assign mem_wdata    = word;

  // ---- the reply multiplexer -------------------------------------------------------------
  localparam [31:0] P_THREADS = THREADS, P_REGS = REGS, P_IMEM = IMEM_WORDS,
                    P_MEMB = MEM_WORDS * 4, P_LINE = LINE_BYTES, P_CLK = CLK_HZ;
  wire [8*24-1:0] info_reply = {P_CLK, P_LINE[15:0], P_MEMB, P_IMEM, P_REGS[15:0],
                                P_THREADS[15:0], VERSION, 32'h52424d55, ST_OK};
  // The flags are taken when the reply starts: a reply takes hundreds of cycles to
  // send, and a live `busy` that falls meanwhile would call a run finished beside
  // counters sent as zero (a poller would stop short).  The fault fields matter only
  // when the snapshotted fault flag is set, and once set they hold until the next
  // launch, which cannot come during a reply; nor can a launch or a reset move the
  // stopped counters.
  wire [7:0]  flags = {3'd0, launched, protocol_error, mem_fault, fault, busy};
  wire        counting = snap_flags[0];
  wire [63:0] cycles_sent = counting ? 64'd0 : cycles;
  wire [63:0] issued_sent = counting ? 64'd0 : issued;
  wire [8*27-1:0] status_reply = {issued_sent, cycles_sent, mem_fault_addr, fault_pc,
                                  fault_thread, snap_flags, ST_OK};
  // A reply's byte: the 32-bit word holding it (by tx_idx[4:2]), then the byte within
  // the word, so the word read from memory and the 1-byte codes share the last
  // multiplexer.  This multiplexer is about 220 of the link's 700 LUT4s (the status
  // reply's 27 live bytes most of them).
  reg [31:0] info_word, status_word, reply_word;
  always @(*) begin
    case (tx_idx[4:2])
      3'd0: info_word = info_reply[31:0];
      3'd1: info_word = info_reply[63:32];
      3'd2: info_word = info_reply[95:64];
      3'd3: info_word = info_reply[127:96];
      3'd4: info_word = info_reply[159:128];
      default: info_word = info_reply[191:160];
    endcase
    case (tx_idx[4:2])
      3'd0: status_word = status_reply[31:0];
      3'd1: status_word = status_reply[63:32];
      3'd2: status_word = status_reply[95:64];
      3'd3: status_word = status_reply[127:96];
      3'd4: status_word = status_reply[159:128];
      3'd5: status_word = status_reply[191:160];
      default: status_word = {8'd0, status_reply[215:192]};
    endcase
    case (tx_kind)
      R_INFO:   reply_word = info_word;
      R_STATUS: reply_word = status_word;
      R_WORD:   reply_word = word;
      default:  reply_word = {24'd0, reply_code};
    endcase
    case (tx_idx[1:0])
      2'd0: tx_byte = reply_word[7:0];
      2'd1: tx_byte = reply_word[15:8];
      2'd2: tx_byte = reply_word[23:16];
      default: tx_byte = reply_word[31:24];
    endcase
  end

  // Starts a reply of `kind` whose last byte has index `last` (the transmitter is idle).
  task start_reply(input [1:0] kind, input [4:0] last);
    begin
      tx_kind <= kind;
      tx_idx  <= 5'd0;
      tx_last <= last;
      tx_on   <= 1'b1;
    end
  endtask

  always @(posedge clk) begin
    imem_we        <= 1'b0;
    launch_valid   <= 1'b0;
    doorbell_valid <= 1'b0;
    if (rx_valid || rx_ferr)
      quiet <= {QW{1'b0}};
    else if (!is_quiet)
      quiet <= quiet + 1'b1;
    if (tx_take) begin
      tx_idx <= tx_idx + 5'd1;
      if (tx_idx == tx_last) tx_on <= 1'b0;
    end

    if (rst) begin
      state     <= S_IDLE;
      tx_on     <= 1'b0;
      quiet     <= {QW{1'b0}};
      mem_valid <= 1'b0;
      core_rst  <= 1'b0;
    end else begin
      case (state)
        S_IDLE: if (rx_ferr) begin
          reply_code <= ST_FRAMING;
          state      <= S_DRAIN;
        end else if (rx_valid) begin
          cmd <= rx_data;
          got <= (rx_data == CMD_LAUNCH) ? 3'd0 : doorbell_cmd ? 3'd4 : 3'd2;
          case (rx_data)
            CMD_INFO: begin tx_kind <= R_INFO; state <= S_REPLY; end
            CMD_STATUS: begin tx_kind <= R_STATUS; state <= S_REPLY; end
            CMD_RESET: begin core_rst <= 1'b1; reset_left <= 3'd4; state <= S_RESET; end
            CMD_WRITE_IMEM, CMD_WRITE_MEM, CMD_READ_MEM, CMD_LAUNCH: state <= S_ARGS;
            default: if (doorbell_cmd) state <= S_ARGS;
                     else begin reply_code <= ST_UNKNOWN; state <= S_DRAIN; end
          endcase
        end

        S_ARGS: if (rx_ferr) begin
          reply_code <= ST_FRAMING;
          state      <= S_DRAIN;
        end else if (rx_valid) begin
          arg_sr <= {rx_data, arg_sr[63:8]};
          got    <= got + 3'd1;
          if (got == 3'd7) state <= S_CHECK;
        end else if (is_quiet) begin
          tx_kind    <= R_CODE;
          reply_code <= ST_INCOMPLETE;
          state      <= S_REPLY;
        end

        S_CHECK: begin
          count      <= a1;
          nbyte      <= 2'd0;
          tx_kind    <= R_CODE;
          reply_code <= ST_OK;
          case (cmd)
            CMD_WRITE_IMEM: begin
              addr <= a0[15:0];
              if (busy) begin reply_code <= ST_BUSY; state <= S_DRAIN; end
              else if (!range_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else if (a1 == 16'd0) state <= S_REPLY;
              else state <= S_DATA;
            end
            CMD_WRITE_MEM, CMD_READ_MEM: begin
              addr <= a0[17:2];
              if (!range_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else if (cmd == CMD_READ_MEM) state <= S_RD_HDR;
              else if (a1 == 16'd0) state <= S_REPLY;
              else state <= S_DATA;
            end
            default: if (DOORBELL != 0 && cmd == CMD_DOORBELL) begin
              // The buffer's byte address, in arg_sr[63:32].
              if (busy) begin reply_code <= ST_BUSY; state <= S_DRAIN; end
              else if (arg_sr[33:32] != 2'b00) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else begin
                doorbell_valid <= 1'b1;
                state          <= S_REPLY;
              end
            end else begin  // CMD_LAUNCH: count, entry (byte address), read from arg_sr
              if (busy) begin reply_code <= ST_BUSY; state <= S_DRAIN; end
              else if (!entry_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else begin
                launch_valid <= 1'b1;
                state        <= S_REPLY;
              end
            end
          endcase
        end

        S_DATA: if (rx_ferr) begin
          reply_code <= ST_FRAMING;
          state      <= S_DRAIN;
        end else if (rx_valid) begin
          word  <= {rx_data, word[31:8]};
          nbyte <= nbyte + 2'd1;
          if (nbyte == 2'd3) begin
            if (cmd == CMD_WRITE_IMEM) begin
              imem_we <= 1'b1;
              state   <= S_IMEM;
            end else begin
              mem_valid <= 1'b1;
              state     <= S_WRITE;
            end
          end
        end else if (is_quiet) begin
          tx_kind    <= R_CODE;
          reply_code <= ST_INCOMPLETE;
          state      <= S_REPLY;
        end

        // The cycle the instruction store writes `word` at `addr`.
        S_IMEM: begin
          addr  <= addr + 16'd1;
          count <= count - 16'd1;
          state <= (count == 16'd1) ? S_REPLY : S_DATA;
        end

        // The memory takes a host request within a few cycles (at most a fill's
        // length), far less than one UART byte, so no byte is missed meanwhile.
        S_WRITE: if (mem_grant) begin
          mem_valid <= 1'b0;
          addr      <= addr + 16'd1;
          count     <= count - 16'd1;
          state     <= (count == 16'd1) ? S_REPLY : S_DATA;
        end

        S_RD_HDR: if (!tx_on) begin
          start_reply(R_CODE, 5'd0);
          state     <= (count == 16'd0) ? S_IDLE : S_RD_REQ;
          mem_valid <= (count != 16'd0);
        end

        S_RD_REQ: if (mem_grant) begin
          mem_valid <= 1'b0;
          state     <= S_RD_WAIT;
        end

        S_RD_WAIT: if (mem_rvalid) begin
          word  <= mem_rdata;
          state <= S_RD_SEND;
        end

        // The word's four bytes go out from `word`; the next read waits until they have.
        S_RD_SEND: if (!tx_on) begin
          start_reply(R_WORD, 5'd3);
          count <= count - 16'd1;
          state <= (count == 16'd1) ? S_IDLE : S_RD_NEXT;
        end

        S_DRAIN: if (is_quiet) begin
          tx_kind <= R_CODE;
          state   <= S_REPLY;
        end

        S_RESET: begin
          reset_left <= reset_left - 3'd1;
          if (reset_left == 3'd1) begin
            core_rst   <= 1'b0;
            tx_kind    <= R_CODE;
            reply_code <= ST_OK;
            state      <= S_REPLY;
          end
        end

        S_RD_NEXT: if (!tx_on) begin
          addr      <= addr + 16'd1;
          mem_valid <= 1'b1;
          state     <= S_RD_REQ;
        end

        default: if (!tx_on) begin  // S_REPLY; tx_kind was set on the way here
          snap_flags <= flags;
          start_reply(tx_kind, (tx_kind == R_INFO) ? 5'd23 : (tx_kind == R_STATUS) ? 5'd26 : 5'd0);
          state <= S_IDLE;
        end
      endcase
    end
  end

endmodule

`default_nettype wire
