// host_link: the board's command interpreter on the UART (docs/fpga.md, "The host
// protocol", version 4).  A host sends one command frame and waits for its whole
// reply before sending the next; every field is little-endian.  The commands write the
// instruction store, write and read data memory, launch threads, report status (busy,
// faults, the run's cycles and issued instructions), reset the core, and describe the
// board (INFO), so the host tool needs no board-specific knowledge.  With DOORBELL = 1
// (the ULX3S, whose system has the command processor) DOORBELL rings the command
// processor; elsewhere its byte is an unknown command and costs no logic.  With
// WINDOW_BITS > 0 (the ULX3S's 32 MB SDRAM) WINDOW picks which 128 KiB of the memory
// the memory commands' 15-bit word indices address: the window's number is the high
// bits of the memory's word address, a register, so no adder sits in the address.
//
// Why it is shaped so (version 1 was 731 LUT4s and 256 flip-flops alone for the
// iCEBreaker; this one is 245 LUT4s, 130 flip-flops, 290 logic cells: docs/fpga.md,
// "Board tops"):
//   - Nothing is copied twice.  The serial engine hands over bits, not bytes, and one
//     32-bit register, `word`, takes received bits at its top and gives sent bits
//     from its bottom, LSB first: the four argument bytes every command with arguments
//     has (two u16 fields, or DOORBELL's u32), each data word written, each word read
//     from memory.  A reply byte of INFO or STATUS is not copied either: the engine
//     asks for each bit and gets it from its source.  Addresses are word indices, so
//     there is no alignment to check.
//   - Half duplex (the host waits for the whole reply before it sends again, and the
//     board does not listen while it answers), so one timer, one bit counter and one
//     frame flag serve both directions, and the quiet time is counted in the timer's
//     turns (bit times).
//   - Small counters and compares are plain logic, not carry chains: a logic cell on
//     a carry chain cannot take the logic around the count.  In iCE40 logic cells the
//     flip-flops cost as much as the LUTs, so what counts is cells, not LUTs.
//   - A transfer is checked whole before anything is written or read (first index +
//     count against the store, constant compares as plain logic).  The index
//     arithmetic is serial: the running index and the end are shift registers through
//     one full adder, so their flip-flops need no LUT (an iCE40 logic cell gives its
//     LUT's output or its flip-flop's, so a parallel adder and incrementer had cost a
//     cell per bit each on top of the registers).
//   - Every error is answered the same way: the receiver discards input until the
//     line has been quiet, then sends one status byte.  A bad command byte, a refused
//     range or a UART framing error therefore never leaves the two ends out of step; a
//     frame the host stops sending half-way is answered with "incomplete" after the
//     same quiet time.
//   - STATUS's widest fields -- the memory's fault address and the run counters --
//     arrive a bit at a time from the registers that hold them, which the system
//     rotates on request (a spare input of LUTs those registers have anyway), where a
//     multiplexer had cost about a LUT per bit.  The counters count only while the core
//     is busy, so once a reply's busy flag (taken when the command arrives) says it is
//     not, they stand still and turn once round during the reply; while busy they are
//     sent as zero (and not turned).  The fault address turns only once captured.
`default_nettype none

`include "umbra_defaults.vh"  // UMBRA_DEFAULT_*

module host_link #(
    parameter integer CLKS_PER_BIT = 104,       // clock / baud
    parameter integer IDLE_CLKS    = 3000000,   // quiet time that ends a bad frame
    parameter integer THREADS      = `UMBRA_DEFAULT_THREADS,   // a core's; LAUNCH starts them on every core
    parameter integer CORES        = 1,
    parameter integer REGS         = 32,
    parameter integer IMEM_WORDS   = 2048,      // at most 32768, as MEM_WORDS
    parameter integer MEM_WORDS    = 32768,
    parameter integer LINE_BYTES   = `UMBRA_DEFAULT_LINE_BYTES,
    parameter integer CLK_HZ       = 12000000,
    parameter integer COUNT_BITS   = 48,        // the run counters' width: 8..64, whole bytes
    // The fault fields' bits that can be other than 0: the rest are sent as 0 without
    // a multiplexer input each (a board's core reports a thread below THREADS and a pc
    // inside its store; the defaults take the whole fields).
    parameter integer THREAD_BITS  = 8,         // fault_thread's low bits: 1..8
    parameter integer PC_BITS      = 32,        // fault_pc's low bits: 3..32
    parameter integer DOORBELL     = 0,         // 1: the DOORBELL command exists
    // The memory is 2^WINDOW_BITS windows of MEM_WORDS (then 32768) words, chosen by the
    // WINDOW command; 0: MEM_WORDS words, no WINDOW command (it costs no logic).
    parameter integer WINDOW_BITS  = 0
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
    output wire [14+WINDOW_BITS:0] mem_addr,  // word index: {window, index}
    output wire [31:0] mem_wdata,
    input  wire        mem_rvalid,
    input  wire [31:0] mem_rdata,

    input  wire        busy,
    input  wire        fault,
    input  wire [7:0]  fault_thread,
    input  wire [31:0] fault_pc,
    input  wire        mem_fault,
    input  wire        protocol_error,
    input  wire        launched,
    // The memory's fault address and the run counters, one bit at a time: the system
    // rotates such a register right by one in a cycle its *_rotate is high and shows
    // its bit 0 on *_lsb (see above).
    input  wire        mem_fault_addr_lsb,
    output reg         mem_fault_addr_rotate,
    input  wire        cycles_lsb,
    input  wire        issued_lsb,
    output reg         cycles_rotate,
    output reg         issued_rotate
);

  // ---- command and status codes (docs/fpga.md) -------------------------------------
  localparam [7:0] CMD_INFO = 8'h01, CMD_WRITE_IMEM = 8'h02, CMD_WRITE_MEM = 8'h03,
                   CMD_READ_MEM = 8'h04, CMD_LAUNCH = 8'h05, CMD_STATUS = 8'h06,
                   CMD_RESET = 8'h07, CMD_DOORBELL = 8'h08, CMD_WINDOW = 8'h09;
  localparam [2:0] ST_OK = 3'd0, ST_UNKNOWN = 3'd1, ST_BUSY = 3'd2, ST_RANGE = 3'd3,
                   ST_FRAMING = 3'd4, ST_INCOMPLETE = 3'd5;
  localparam [7:0] VERSION = 8'd4;

  localparam integer NMAX = (IMEM_WORDS > MEM_WORDS) ? IMEM_WORDS : MEM_WORDS;
  generate
    if (NMAX > 32768 || COUNT_BITS < 8 || COUNT_BITS > 64 || COUNT_BITS % 8 != 0 ||
        THREAD_BITS < 1 || THREAD_BITS > 8 || PC_BITS < 3 || PC_BITS > 32) begin : g_check
      host_link_stores_above_32768_words_or_counters_not_whole_bytes u_error ();
    end
    // INFO's memory size is a u32 of bytes: at most 2^14 windows of 128 KiB (2 GiB).
    if (WINDOW_BITS < 0 || WINDOW_BITS > 14 || (WINDOW_BITS > 0 && MEM_WORDS != 32768)) begin : g_check_window
      host_link_WINDOW_BITS_outside_0_to_14_or_windows_not_of_32768_words u_error ();
    end
  endgenerate

  // The small counters (a frame's bit, a reply's byte) and the byte ranges below are
  // plain logic: written with + or < they become carry chains, whose cells cannot take
  // the logic around them (the counters' holds and resets, the decodes): 315 logic
  // cells instead of 290 (the measurement in docs/fpga.md).  The bit timer stays a
  // carry chain: as plain logic its decrement was a critical path of the iCEBreaker top.
  function [4:0] inc5(input [4:0] x);
    inc5 = x ^ {&x[3:0], &x[2:0], &x[1:0], x[0], 1'b1};
  endfunction
  function [3:0] inc4(input [3:0] x);
    inc4 = x ^ {&x[2:0], &x[1:0], x[0], 1'b1};
  endfunction

  // ---- the serial line: one engine for both directions and the quiet time -------------
  // Half duplex, so one timer, one bit counter and one frame flag serve the receiver
  // and the transmitter (8N1, LSB first), and between frames the timer's turns measure
  // the quiet time.  Received: the line passes two flip-flops (it is asynchronous to
  // clk); a falling edge starts a frame, the start bit is checked again half a bit
  // later (a shorter glitch is ignored), every later bit is sampled in its middle, and
  // a low stop bit is a framing error.  Sent: a frame starts when the interpreter is in
  // S_SEND and the line is free; each data bit is asked for by its index (tx_index)
  // and put on the line from a register (tx_bit_q), so the line never glitches.
  // The bit timer counts down to 0, where a bit ends: one compare for every bit (a
  // received frame's timer starts at half a bit).  Between frames it runs on, and
  // `quiet` counts its turns from a frame's end: the line is quiet once its top bit
  // sets, after IDLE_CLKS rounded up to a power of two bit times: no comparator.
  localparam integer BW = $clog2(CLKS_PER_BIT);
  localparam integer QW = $clog2((IDLE_CLKS + CLKS_PER_BIT - 1) / CLKS_PER_BIT) + 1;
  localparam [31:0]  LAST_U = CLKS_PER_BIT - 1, HALF_U = CLKS_PER_BIT / 2 - 1;
  generate
    if (CLKS_PER_BIT < 4 || QW < 2) begin : g_check_bit
      host_link_CLKS_PER_BIT_below_4_or_IDLE_CLKS_below_a_bit u_error ();
    end
  endgenerate

  reg  [1:0]    sync;
  wire          line = sync[1];
  reg  [BW-1:0] tim;
  reg  [QW-1:0] quiet;
  reg  [3:0]    pos;              // the frame's bit: 0 the start bit, 9 the stop bit
  reg           on, sending;      // a frame is on the line; it is ours
  reg           tx_q;
  reg           tx_bit, tx_bit_q;
  wire          tx_valid;
  wire          bit_end      = (tim == {BW{1'b0}});
  wire          tick         = on && bit_end;
  wire          is_quiet     = quiet[QW-1];
  wire          rx_bit       = line;
  wire          rx_bit_valid = tick && !sending && pos != 4'd0 && pos != 4'd9;
  wire          rx_valid     = tick && !sending && pos == 4'd9 && line;
  wire          rx_ferr      = tick && !sending && pos == 4'd9 && !line;
  wire          tx_take      = tick && sending && !pos[3];
  wire [2:0]    tx_index     = pos[2:0];
  assign tx = tx_q;
  // The bit asked for is named a bit time before it is taken, so it passes a register:
  // the reply multiplexer's inputs (the core's fault fields among them) end there.
  always @(posedge clk) tx_bit_q <= tx_bit;

  always @(posedge clk) begin
    sync <= {sync[0], rx};
    tim  <= bit_end ? LAST_U[BW-1:0] : tim - 1'b1;
    if (rst) begin
      sync  <= 2'b11;
      on    <= 1'b0;
      tx_q  <= 1'b1;
      quiet <= {QW{1'b0}};
    end else if (!on) begin
      pos <= 4'd0;
      if (tx_valid || !line) begin
        on      <= 1'b1;
        sending <= tx_valid;
        quiet   <= {QW{1'b0}};
        tim     <= tx_valid ? LAST_U[BW-1:0] : HALF_U[BW-1:0];
        if (tx_valid) tx_q <= 1'b0;            // start bit
      end else if (bit_end && !is_quiet) begin
        quiet <= quiet + 1'b1;
      end
    end else if (tick) begin
      pos <= inc4(pos);
      if (sending) tx_q <= pos[3] ? 1'b1 : tx_bit_q;   // after the data bits, the stop bit
      // The stop bit ends a frame; a start bit high again in its middle was a glitch.
      if (pos == 4'd9 || (!sending && pos == 4'd0 && line)) on <= 1'b0;
    end
  end

  // ---- the interpreter -----------------------------------------------------------------
  localparam [3:0] S_CMD = 4'd0, S_ARGS = 4'd1, S_RANGE = 4'd2, S_NEXT = 4'd3, S_DATA = 4'd4,
                   S_MEM = 4'd5, S_RD_WAIT = 4'd6, S_STEP = 4'd7, S_DRAIN = 4'd8,
                   S_RESET = 4'd9, S_SEND = 4'd10;
  // What S_SEND sends: a status byte alone, the INFO or STATUS reply, or a read word.
  localparam [1:0] K_CODE = 2'd0, K_INFO = 2'd1, K_STATUS = 2'd2, K_WORD = 2'd3;

  reg [3:0]  state;
  reg [3:0]  cmd;               // the command byte's low bits (a known command's are its value)
  wire is_imem   = (cmd == CMD_WRITE_IMEM[3:0]);
  wire is_write  = (cmd == CMD_WRITE_MEM[3:0]);
  wire is_read   = (cmd == CMD_READ_MEM[3:0]);
  wire is_launch = (cmd == CMD_LAUNCH[3:0]);
  wire is_bell   = (DOORBELL != 0) && (cmd == CMD_DOORBELL[3:0]);
  wire is_window = (WINDOW_BITS != 0) && (cmd == CMD_WINDOW[3:0]);
  reg [31:0] word;              // the arguments, each data word, each read word
  reg [15:0] addr;              // running word index
  reg [15:0] stop;              // the index after the last; its carry out in `carry`
  reg        carry;             // the serial adder's
  reg        done;              // addr == stop (no word left)
  reg [2:0]  code;
  // Binary: recoded one-hot (Yosys's default for a register like this) it costs more.
  (* fsm_encoding = "none" *) reg [1:0]  kind;
  // The reply's byte; while receiving, its low two bits count a word's bytes (the
  // arguments leave it a multiple of four, and every reply ends by clearing it); RESET's
  // cycles; S_STEP's 16 (cleared on the way in).
  reg [4:0]  idx;
  reg        snap_busy, snap_mem_fault;

  // Received bits shift in at the top and sent bits leave at the bottom, LSB first,
  // so four bytes in are the little-endian word, and a read word goes out as it came.
  always @(posedge clk)
    if (state == S_RD_WAIT) word <= mem_rdata;
    else if (rx_bit_valid || (tx_take && kind == K_WORD)) word <= {rx_bit, word[31:1]};

  // The transfer's index arithmetic is serial, a bit a cycle through one full adder:
  // `addr` and `stop` are shift registers whose flip-flops need no LUT but at their
  // top.  While the second argument's bits arrive (bytes 2 and 3 of the arguments),
  // the first argument's bit of the same weight is at word[16], so addr takes it and
  // stop the sum, and `done` learns whether the count is zero, with no cycle of their
  // own.  Between words S_STEP turns both once round in 16 cycles, adding one to addr
  // and comparing it with stop.  A word takes 40 bit times on the line, so 16 cycles
  // are free.
  wire arg_b_bit = rx_bit_valid && (state == S_ARGS) && idx[1];
  wire stepping  = (state == S_STEP);
  wire a_bit     = stepping ? addr[0] : word[16];
  wire b_bit     = !stepping && rx_bit;
  wire sum_bit   = a_bit ^ b_bit ^ carry;
  always @(posedge clk) begin
    // Each sum starts here: the arguments' with no carry in, a step's with one (a step
    // always follows S_NEXT, which reads `done` as it leaves).
    if (state == S_CMD || state == S_NEXT) begin
      carry <= (state == S_NEXT);
      done  <= 1'b1;
    end
    if (arg_b_bit || stepping) begin
      addr  <= {stepping ? sum_bit : word[16], addr[15:1]};
      stop  <= {stepping ? stop[0] : sum_bit, stop[15:1]};
      carry <= (a_bit && b_bit) || (carry && (a_bit ^ b_bit));
      done  <= done && (stepping ? (sum_bit == stop[0]) : !rx_bit);
    end
  end

  wire [7:0]  cmd_byte = word[31:24];   // a command byte, when it has just arrived
  wire [15:0] arg_a = word[15:0], arg_b = word[31:16];
  localparam [31:0] IMEM_U = IMEM_WORDS, MEM_U = MEM_WORDS;
  // x <= c for a constant c, as plain logic: written with <= it would become a carry
  // chain and a LUT per bit.
  function at_most(input [16:0] x, input [31:0] c);
    integer i;
    begin
      at_most = 1'b1;
      for (i = 0; i < 17; i = i + 1)
        at_most = c[i] ? (!x[i] || at_most) : (!x[i] && at_most);
    end
  endfunction
  // The range check from a register (it is a chain of compares behind the command): the
  // arguments' last bit arrives a bit time before their stop bit ends S_ARGS.
  reg  range_ok;
  always @(posedge clk) range_ok <= in_range;
  // WINDOW's u32 is the window's first byte address: a multiple of 128 KiB inside
  // the memory.
  localparam [31:0] WINDOW_ZERO = (32'd1 << 17) - 1 | ~((32'd1 << (17 + WINDOW_BITS)) - 1);
  wire in_range  = is_launch ? at_most({1'b0, arg_b}, IMEM_U - 1) :
                   is_bell   ? (word[1:0] == 2'b00) :
                   is_window ? (word & WINDOW_ZERO) == 32'd0 :
                               at_most({carry, stop}, is_imem ? IMEM_U : MEM_U);

  assign imem_addr     = {16'd0, addr};
  assign imem_data     = word;
  assign imem_we       = (state == S_MEM) && is_imem;
  assign launch_count  = {16'd0, arg_a};
  assign launch_entry  = {14'd0, arg_b, 2'b00};
  assign doorbell_addr = word;
  assign mem_valid     = (state == S_MEM) && !is_imem;
  assign mem_we        = !is_read;
  generate
    if (WINDOW_BITS > 0) begin : g_window
      reg [WINDOW_BITS-1:0] window;
      always @(posedge clk)
        if (rst) window <= {WINDOW_BITS{1'b0}};
        else if (state == S_RANGE && is_window && range_ok) window <= word[17 +: WINDOW_BITS];
      assign mem_addr = {window, addr[14:0]};
    end else begin : g_no_window
      assign mem_addr = addr[14:0];
    end
  endgenerate
  assign mem_wdata     = word;
  assign core_rst      = (state == S_RESET);

  // ---- the reply multiplexer -------------------------------------------------------------
  localparam [31:0] P_THREADS = THREADS, P_REGS = REGS, P_IMEM = IMEM_WORDS,
                    P_MEMB = (MEM_WORDS * 4) << WINDOW_BITS, P_LINE = LINE_BYTES, P_CLK = CLK_HZ,
                    P_CORES = CORES;
  wire [8*32-1:0] info_reply = {48'd0, P_CORES[15:0], P_CLK, P_LINE[15:0], P_MEMB, P_IMEM, P_REGS[15:0],
                                P_THREADS[15:0], VERSION, 32'h52424d55, 8'd0};
  wire [7:0]      flags = {3'd0, launched, protocol_error, mem_fault, fault, snap_busy};
  wire [7:0]      thread8 = {{(8 - THREAD_BITS){1'b0}}, fault_thread[THREAD_BITS-1:0]};
  wire [31:0]     pc32 = {{(32 - PC_BITS){1'b0}}, fault_pc[PC_BITS-1:0]};
  wire            unused_fault_high = ^{fault_thread, fault_pc};   // the bits left out are 0
  // Bytes 0..6 come from their sources; bytes 7..10 are the memory's fault address and
  // bytes 11..26 the two 64-bit counters, whose low COUNT_BITS/8 bytes arrive a bit at a
  // time from the registers themselves.  The fault address is sent (and turned) only if
  // the memory had faulted when the command came: from then on it stands still, and
  // before, it is 0.
  wire [8*7-1:0]  status_head = {pc32, thread8, flags, 8'd0};
  localparam integer CB = COUNT_BITS / 8;
  // Which bytes are which, as tables over idx (not compares: see inc5).
  localparam [31:0] MFA_BYTES    = 32'hf << 7;
  localparam [31:0] CYCLES_BYTES = ((32'd1 << CB) - 1) << 11;
  localparam [31:0] ISSUED_BYTES = ((32'd1 << CB) - 1) << 19;
  localparam [31:0] HEAD_BYTES   = 32'h7f;
  wire in_mfa    = MFA_BYTES[idx];
  wire in_cycles = CYCLES_BYTES[idx];
  wire in_issued = ISSUED_BYTES[idx];
  wire in_head   = HEAD_BYTES[idx];
  // A busy run's counters are sent as zero, and stand still (they count).
  wire counts_out = (kind == K_STATUS) && !snap_busy;
  wire mfa_out = (kind == K_STATUS) && snap_mem_fault;
  // A rotation a cycle after its bit is taken (the next bit is named a bit time before
  // it goes out, at least 4 cycles): from a register, since the request fans out to
  // every bit of a 48-bit counter (unregistered, the link's timer to the counters was
  // the iCEBreaker top's critical path).
  always @(posedge clk) begin
    mem_fault_addr_rotate <= mfa_out && in_mfa && tx_take;
    cycles_rotate         <= counts_out && in_cycles && tx_take;
    issued_rotate         <= counts_out && in_issued && tx_take;
  end
  // Byte 0 of every reply is the status byte (`code`, ST_OK for INFO and STATUS), so
  // the status-byte-alone reply is any reply's first byte.
  wire [7:0]      code_byte = {5'd0, code};
  reg             status_bit;
  always @(*) begin
    status_bit = in_head ? status_head[{idx[2:0], tx_index}] :
                 (mfa_out && in_mfa && mem_fault_addr_lsb) ||
                 (counts_out && ((in_cycles && cycles_lsb) || (in_issued && issued_lsb)));
    tx_bit = (kind == K_WORD) ? word[0] :
             (kind == K_CODE) ? code_byte[tx_index] :
             (kind == K_STATUS) ? status_bit : info_reply[{idx, tx_index}];
  end
  wire send_last = (kind == K_CODE) || (kind == K_WORD && idx[1:0] == 2'd3) ||
                   (kind == K_INFO && idx == 5'd25) || (kind == K_STATUS && idx == 5'd26);
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
          code      <= ST_OK;
          kind      <= K_CODE;
          snap_busy <= busy;
          snap_mem_fault <= mem_fault;
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
              default: if ((DOORBELL != 0 && cmd_byte == CMD_DOORBELL) ||
                           (WINDOW_BITS != 0 && cmd_byte == CMD_WINDOW)) state <= S_ARGS;
                       else begin code <= ST_UNKNOWN; state <= S_DRAIN; end
            endcase
          end
        end

        // The arguments, or a data word: four bytes into `word`.
        S_ARGS, S_DATA: if (rx_ferr) begin
          code  <= ST_FRAMING;
          state <= S_DRAIN;
        end else if (rx_valid) begin
          idx <= inc5(idx);
          if (idx[1:0] == 2'd3) state <= (state == S_ARGS) ? S_RANGE : S_MEM;
        end else if (is_quiet) begin
          code  <= ST_INCOMPLETE;
          state <= S_SEND;
        end

        S_RANGE:
          // A refusal drains whatever the frame still sends before answering.
          // busy as the command arrived (the core turns busy only through our LAUNCH or
          // DOORBELL, so it cannot have turned busy since): a register, where the
          // core's is logic behind its thread states.
          if (snap_busy && (is_launch || is_bell || is_imem)) begin
            code  <= ST_BUSY;
            state <= S_DRAIN;
          end else if (!range_ok) begin
            code  <= ST_RANGE;
            state <= S_DRAIN;
          end else begin
            launch_valid   <= is_launch;
            doorbell_valid <= is_bell;
            state          <= (is_imem || is_write) ? S_NEXT : S_SEND;
          end

        // Between words: the end, or the next word.
        S_NEXT: if (done) state <= is_read ? S_CMD : S_SEND;
                else state <= is_read ? S_MEM : S_DATA;

        // A write's word must stay in `word` until the memory takes it, and the next
        // data bit comes two bit times after the word's stop bit (16 clocks on the
        // 8-clock benches, 104 at 115200 baud and 6 MHz): the memory takes a host
        // request within a few cycles (at most a fill's, or an SDRAM access's, length).
        // The instruction store takes its word here, in one cycle.
        S_MEM: begin
          idx <= 5'd0;
          if (mem_grant || is_imem) state <= is_read ? S_RD_WAIT : S_STEP;
        end

        S_RD_WAIT: if (mem_rvalid) begin   // `word` takes mem_rdata
          kind  <= K_WORD;
          state <= S_SEND;
        end

        S_STEP: begin
          idx <= inc5(idx);
          if (idx[3:0] == 4'd15) state <= S_NEXT;
        end

        S_DRAIN: if (is_quiet) state <= S_SEND;

        // core_rst is this state: four cycles.
        S_RESET: begin
          idx <= inc5(idx);
          if (idx[1:0] == 2'd3) state <= S_SEND;
        end

        // A byte is done with once its last data bit is on the line: the next byte's
        // bits are then chosen while the stop bit goes out.
        default: if (tx_take && tx_index == 3'd7) begin  // S_SEND
          idx <= inc5(idx);
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
