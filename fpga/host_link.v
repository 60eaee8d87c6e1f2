// host_link: the board's command interpreter on the UART (docs/fpga.md, "The host
// protocol").  A host sends one command frame and waits for its whole reply before
// sending the next; every multi-byte field is little-endian.  The commands write the
// instruction store, write and read data memory, launch threads, report status
// (busy, faults, the run's cycles and issued instructions), reset the core, and
// describe the board (INFO), so the host tool needs no board-specific knowledge.
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
//   - Replies go through one shift register loaded only when the transmitter is
//     empty; the status reply is a snapshot taken in one cycle, so its counters agree
//     with each other.
`default_nettype none

module host_link #(
    parameter integer CLKS_PER_BIT = 104,       // clock / baud
    parameter integer IDLE_CLKS    = 3000000,   // quiet time that ends a bad frame
    parameter integer THREADS      = 8,
    parameter integer REGS         = 32,
    parameter integer IMEM_WORDS   = 2048,
    parameter integer MEM_WORDS    = 32768,
    parameter integer LINE_BYTES   = 32,
    parameter integer CLK_HZ       = 12000000
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rx,
    output wire        tx,

    output reg         core_rst,          // RESET command: resets the core and memory

    output reg         imem_we,
    output reg  [31:0] imem_addr,         // word index
    output reg  [31:0] imem_data,
    output reg         launch_valid,
    output reg  [31:0] launch_count,
    output reg  [31:0] launch_entry,

    output reg         mem_valid,
    input  wire        mem_grant,
    output reg         mem_we,
    output reg  [14:0] mem_addr,          // word index
    output reg  [31:0] mem_wdata,
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
                   CMD_RESET = 8'h07;
  localparam [7:0] ST_OK = 8'h00, ST_UNKNOWN = 8'h01, ST_BUSY = 8'h02, ST_RANGE = 8'h03,
                   ST_FRAMING = 8'h04, ST_INCOMPLETE = 8'h05;
  localparam [7:0] VERSION = 8'd1;

  // ---- UART --------------------------------------------------------------------------
  wire [7:0] rx_data;
  wire       rx_valid, rx_ferr;
  uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_rx (
      .clk(clk), .rst(rst), .rx(rx), .data(rx_data), .valid(rx_valid),
      .frame_error(rx_ferr));

  localparam integer TXB = 27;          // longest reply (STATUS), bytes
  reg [8*TXB-1:0] tx_sr;
  reg [4:0]       tx_left;
  wire            tx_ready;
  wire            tx_take = (tx_left != 5'd0) && tx_ready;
  uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) u_tx (
      .clk(clk), .rst(rst), .data(tx_sr[7:0]), .valid(tx_left != 5'd0), .ready(tx_ready),
      .tx(tx));

  // ---- quiet-line timer ----------------------------------------------------------------
  localparam integer QW = $clog2(IDLE_CLKS + 1);
  localparam [31:0]  IDLE_U = IDLE_CLKS;
  localparam [QW-1:0] IDLE = IDLE_U[QW-1:0];
  reg [QW-1:0] quiet;
  wire         is_quiet = (quiet == IDLE);

  // ---- the interpreter -----------------------------------------------------------------
  localparam [3:0] S_IDLE = 4'd0, S_ARGS = 4'd1, S_CHECK = 4'd2, S_DATA = 4'd3,
                   S_WRITE = 4'd4, S_RD_HDR = 4'd5, S_RD_REQ = 4'd6, S_RD_WAIT = 4'd7,
                   S_RD_SEND = 4'd8, S_DRAIN = 4'd9, S_RESET = 4'd10, S_REPLY = 4'd11;
  localparam [1:0] R_CODE = 2'd0, R_INFO = 2'd1, R_STATUS = 2'd2;

  reg [3:0]  state;
  reg [7:0]  cmd;
  reg [3:0]  nargs, got;        // argument bytes expected / received
  reg [63:0] arg_sr;            // arguments, shifted in from the top (little-endian)
  reg [31:0] addr;              // running word index (imem) or word index (memory)
  reg [15:0] count;             // words still to transfer
  reg [1:0]  nbyte;             // bytes of the current data word received
  reg [31:0] word;
  reg [1:0]  reply_kind;
  reg [7:0]  reply_code;
  reg [2:0]  reset_left;

  // The arguments once complete: (addr u32, count u16) in six bytes, or (u32, u32).
  wire [31:0] a0 = (nargs == 4'd8) ? arg_sr[31:0] : arg_sr[47:16];
  wire [31:0] a1 = (nargs == 4'd8) ? arg_sr[63:32] : {16'd0, arg_sr[63:48]};

  localparam [32:0] IMEM_N = IMEM_WORDS * 33'd1;
  localparam [32:0] MEM_N  = MEM_WORDS * 33'd1;
  wire imem_range_ok = ({1'b0, a0} + {17'd0, a1[15:0]}) <= IMEM_N;
  wire mem_range_ok  = (a0[1:0] == 2'b00) && ({3'd0, a0[31:2]} + {17'd0, a1[15:0]}) <= MEM_N;
  wire entry_ok      = (a1[1:0] == 2'b00) && ({3'd0, a1[31:2]} < IMEM_N);

  localparam [31:0] P_THREADS = THREADS, P_REGS = REGS, P_IMEM = IMEM_WORDS,
                    P_MEMB = MEM_WORDS * 4, P_LINE = LINE_BYTES, P_CLK = CLK_HZ;
  wire [8*TXB-1:0] info_reply = {24'd0, P_CLK, P_LINE[15:0], P_MEMB, P_IMEM, P_REGS[15:0],
                                 P_THREADS[15:0], VERSION, 32'h52424d55, ST_OK};
  wire [7:0] flags = {3'd0, launched, protocol_error, mem_fault, fault, busy};
  wire [8*TXB-1:0] status_reply = {issued, cycles, mem_fault_addr, fault_pc, fault_thread,
                                   flags, ST_OK};

  always @(posedge clk) begin
    imem_we      <= 1'b0;
    launch_valid <= 1'b0;
    if (rx_valid || rx_ferr)
      quiet <= {QW{1'b0}};
    else if (!is_quiet)
      quiet <= quiet + 1'b1;
    if (tx_take) begin
      tx_sr   <= {8'd0, tx_sr[8*TXB-1:8]};
      tx_left <= tx_left - 5'd1;
    end

    if (rst) begin
      state     <= S_IDLE;
      tx_left   <= 5'd0;
      quiet     <= {QW{1'b0}};
      mem_valid <= 1'b0;
      core_rst  <= 1'b0;
    end else begin
      case (state)
        S_IDLE: if (rx_ferr) begin
          reply_code <= ST_FRAMING;
          state      <= S_DRAIN;
        end else if (rx_valid) begin
          cmd    <= rx_data;
          got    <= 4'd0;
          case (rx_data)
            CMD_INFO: begin reply_kind <= R_INFO; state <= S_REPLY; end
            CMD_STATUS: begin reply_kind <= R_STATUS; state <= S_REPLY; end
            CMD_RESET: begin core_rst <= 1'b1; reset_left <= 3'd4; state <= S_RESET; end
            CMD_WRITE_IMEM, CMD_WRITE_MEM, CMD_READ_MEM: begin nargs <= 4'd6; state <= S_ARGS; end
            CMD_LAUNCH: begin nargs <= 4'd8; state <= S_ARGS; end
            default: begin reply_code <= ST_UNKNOWN; state <= S_DRAIN; end
          endcase
        end

        S_ARGS: if (rx_ferr) begin
          reply_code <= ST_FRAMING;
          state      <= S_DRAIN;
        end else if (rx_valid) begin
          arg_sr <= {rx_data, arg_sr[63:8]};
          got    <= got + 4'd1;
          if (got + 4'd1 == nargs) state <= S_CHECK;
        end else if (is_quiet) begin
          reply_kind <= R_CODE;
          reply_code <= ST_INCOMPLETE;
          state      <= S_REPLY;
        end

        S_CHECK: begin
          // nargs == 8 leaves arg_sr whole; 6 leaves the fields in its top 48 bits.
          count <= a1[15:0];
          nbyte <= 2'd0;
          reply_kind <= R_CODE;
          reply_code <= ST_OK;
          case (cmd)
            CMD_WRITE_IMEM: begin
              addr <= a0;
              if (busy) begin reply_code <= ST_BUSY; state <= S_DRAIN; end
              else if (!imem_range_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else if (a1[15:0] == 16'd0) state <= S_REPLY;
              else state <= S_DATA;
            end
            CMD_WRITE_MEM, CMD_READ_MEM: begin
              addr <= {2'b00, a0[31:2]};
              if (!mem_range_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else if (cmd == CMD_READ_MEM) state <= S_RD_HDR;
              else if (a1[15:0] == 16'd0) state <= S_REPLY;
              else state <= S_DATA;
            end
            default: begin  // CMD_LAUNCH: count, entry (byte address)
              if (busy) begin reply_code <= ST_BUSY; state <= S_DRAIN; end
              else if (!entry_ok) begin reply_code <= ST_RANGE; state <= S_DRAIN; end
              else begin
                launch_valid <= 1'b1;
                launch_count <= a0;
                launch_entry <= a1;
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
              imem_we   <= 1'b1;
              imem_addr <= addr;
              imem_data <= {rx_data, word[31:8]};
              addr      <= addr + 32'd1;
              count     <= count - 16'd1;
              if (count == 16'd1) state <= S_REPLY;
            end else begin
              mem_valid <= 1'b1;
              mem_we    <= 1'b1;
              mem_addr  <= addr[14:0];
              mem_wdata <= {rx_data, word[31:8]};
              state     <= S_WRITE;
            end
          end
        end else if (is_quiet) begin
          reply_kind <= R_CODE;
          reply_code <= ST_INCOMPLETE;
          state      <= S_REPLY;
        end

        // The memory takes a host request within a few cycles (at most a fill's
        // length), far less than one UART byte, so no byte is missed meanwhile.
        S_WRITE: if (mem_grant) begin
          mem_valid <= 1'b0;
          addr      <= addr + 32'd1;
          count     <= count - 16'd1;
          state     <= (count == 16'd1) ? S_REPLY : S_DATA;
        end

        S_RD_HDR: if (tx_left == 5'd0) begin
          tx_sr   <= {{8*TXB-8{1'b0}}, ST_OK};
          tx_left <= 5'd1;
          state   <= (count == 16'd0) ? S_IDLE : S_RD_REQ;
          mem_valid <= (count != 16'd0);
          mem_we    <= 1'b0;
          mem_addr  <= addr[14:0];
        end

        S_RD_REQ: if (mem_grant) begin
          mem_valid <= 1'b0;
          state     <= S_RD_WAIT;
        end

        S_RD_WAIT: if (mem_rvalid) begin
          word  <= mem_rdata;
          state <= S_RD_SEND;
        end

        S_RD_SEND: if (tx_left == 5'd0) begin
          tx_sr   <= {{8*TXB-32{1'b0}}, word};
          tx_left <= 5'd4;
          addr    <= addr + 32'd1;
          count   <= count - 16'd1;
          mem_addr  <= addr[14:0] + 15'd1;
          mem_valid <= (count != 16'd1);
          state     <= (count == 16'd1) ? S_IDLE : S_RD_REQ;
        end

        S_DRAIN: if (is_quiet) begin
          reply_kind <= R_CODE;
          state      <= S_REPLY;
        end

        S_RESET: begin
          reset_left <= reset_left - 3'd1;
          if (reset_left == 3'd1) begin
            core_rst   <= 1'b0;
            reply_kind <= R_CODE;
            reply_code <= ST_OK;
            state      <= S_REPLY;
          end
        end

        default: if (tx_left == 5'd0) begin  // S_REPLY
          case (reply_kind)
            R_INFO: begin tx_sr <= info_reply; tx_left <= 5'd24; end
            R_STATUS: begin tx_sr <= status_reply; tx_left <= 5'd27; end
            default: begin tx_sr <= {{8*TXB-8{1'b0}}, reply_code}; tx_left <= 5'd1; end
          endcase
          state <= S_IDLE;
        end
      endcase
    end
  end

endmodule

`default_nettype wire
