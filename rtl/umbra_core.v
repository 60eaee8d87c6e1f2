// umbra_core: one Umbra shader core, the barrel pipeline of docs/microarchitecture.md.
// THREADS contexts issue strictly round-robin into an in-order pipeline of
// UMBRA_FETCH_TO_X1 + EXEC_STAGES + 1 stages (rtl/umbra_uarch.vh, from isa/uarch.yaml;
// by default eight: F D R X1 X2 X3 X4 W); with THREADS at least that a thread's next
// instruction is fetched only after its previous one has written back, so there is no
// forwarding, interlock or branch prediction anywhere below.  EXEC_STAGES (X1 -> W, the
// FPU's latency) is the one place the depth is chosen: a deeper FPU for a faster
// FPGA clock costs threads, nothing else.  This file only wires the blocks together and
// carries the generic ports; each block's file says what it does and when.
//
// Memory instructions go through the data cache (dcache, C1 = X2 and C2) and the
// load/store unit's request FIFO to the port (docs/memory-system.md).  LINE_PORT
// (cache.line_port, with a cache only) makes the port a line wide: mem_resp_line
// brings a fill's line in one beat, mem_req_mask and mem_req_line carry the combined
// stores of a `wline` (docs/memory-system.md, "The line port"); without it they are
// 0 and unused, and nothing of the line port is built.
//
// Parameters come from configs/*.yaml through the key -> parameter table
// (isa/config_keys.yaml; CORE_ID from the core's position).  The trace_* outputs exist for the cosimulation
// (docs/microarchitecture.md, "RTL trace ports"); an FPGA top that leaves them open
// loses their logic in synthesis.
`default_nettype none

`include "umbra_isa.vh"
`include "umbra_uarch.vh"
`include "umbra_defaults.vh"  // UMBRA_CORE_PARAMS

module umbra_core #(
    // The configuration's: THREADS (pipeline depth..256), EXEC_STAGES (X1 -> W, the
    // FPU's latency; the depth UMBRA_FETCH_TO_X1 + EXEC_STAGES + 1 must not exceed
    // THREADS), REGS (r0 reads zero), GROUPS (a mask of UMBRA_GROUP_* bits: an
    // instruction of another group is illegal, rtl/decode.v), IMEM_WORDS, CACHE_BYTES
    // (0: none), CACHE_WAYS, CACHE_LINE_BYTES (4 without a cache), REQ_QUEUE, LINE_PORT
    // (the port a line wide, with a cache only), MUL_ROWS (the multiplier as
    // shift-and-add rows, for fabric without multiplier blocks), FF_RAMS (fetch's pcs
    // and the FPU's addend delay in flip-flops, not RAMs), RAM_OUT_REG (the register
    // file's, the addend ring's and the work items' RAMs read a cycle early, into
    // flip-flops).  Their keys, ranges and defaults: isa/config_keys.yaml
    // (docs/configuration.md); the limits are checked below.
    `UMBRA_CORE_PARAMS,
    parameter integer CORE_ID          = 0,     // value of the `cid` special register
    parameter integer DISPATCH         = 0,     // 1: domain launches through a dispatcher
                                                // (umbra_system); 0 ignores domain_* and
                                                // start_* and builds nothing for them
    parameter integer RESP_AHEAD       = 0      // 1: mem_resp_ahead_tag is the tag of the
                                                // response on mem_resp_* next cycle (the
                                                // system's response register); 0: unused
) (
    input  wire        clk,
    input  wire        rst,               // synchronous, active high

    // Host port: instruction store writes (word index), while no thread runs.
    input  wire        host_imem_we,
    input  wire [31:0] host_imem_addr,
    input  wire [31:0] host_imem_data,

    // Launch: threads 0..launch_count-1 start at launch_entry (a byte address).  The
    // launch is one domain over every core: `lx` of thread t is launch_lx0 + t and
    // `domw` is launch_domw (a core alone: 0 and launch_count).
    input  wire        launch_valid,
    input  wire [31:0] launch_count,
    input  wire [31:0] launch_entry,
    input  wire [31:0] launch_lx0,
    input  wire [31:0] launch_domw,

    // Domain launch (DISPATCH): domain_valid latches the entry (launch_entry), `domw`
    // and `domh` and starts nothing; then each start_valid starts the lowest free
    // thread on the work item start_lx/start_ly.  can_start: some thread is free.
    input  wire        domain_valid,
    input  wire [31:0] domain_w,
    input  wire [31:0] domain_h,
    input  wire        start_valid,
    input  wire [31:0] start_lx,
    input  wire [31:0] start_ly,
    output wire        can_start,

    input  wire [31:0] ncore,             // value of the `ncore` special register
    // From the command processor (docs/commands.md): `rdsr arg`'s value, and
    // `invalidate` (the whole data cache, as a dinvall in C2).
    input  wire [31:0] args,
    input  wire        inval_all,

    output wire        busy,
    output wire        fault,             // sticky until reset
    output wire [7:0]  fault_thread,
    output wire [31:0] fault_pc,

    // Generic memory port (requests valid/ready, responses valid only).
    output wire        mem_req_valid,
    input  wire        mem_req_ready,
    output wire [7:0]  mem_req_op,
    output wire [31:0] mem_req_addr,
    output wire [31:0] mem_req_data,
    output wire [31:0] mem_req_cmp,
    output wire [7:0]  mem_req_tag,
    output wire [CACHE_LINE_BYTES/4-1:0] mem_req_mask,  // LINE_PORT: a wline's words ...
    output wire [8*CACHE_LINE_BYTES-1:0] mem_req_line,  // ... and data
    input  wire        mem_resp_valid,
    input  wire [31:0] mem_resp_data,
    input  wire [7:0]  mem_resp_tag,
    input  wire [8*CACHE_LINE_BYTES-1:0] mem_resp_line, // LINE_PORT: a fill's line in one beat
    input  wire [7:0]  mem_resp_ahead_tag,  // RESP_AHEAD: next cycle's mem_resp_tag, if valid

    // Cosimulation trace (docs/microarchitecture.md, "RTL trace ports").
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
    output wire [7:0]  trace_start_thread   // the thread a start_valid takes
);

  // Index widths.  $clog2(1) = 0, so single-entry cases keep one bit.
  localparam integer TW = $clog2(THREADS);                          // thread number
  localparam integer RW = (REGS > 256) ? 8 : (REGS > 1) ? $clog2(REGS) : 1;  // register
  localparam integer IW = (IMEM_WORDS > 1) ? $clog2(IMEM_WORDS) : 1; // pc word index

  // ---- elaboration checks ----------------------------------------------------------
  // A module that does not exist is the one error Verilator, Yosys and Icarus all
  // report at elaboration (Verilog-2005 has no $error); its name is the message.
  generate
    // The limits are isa/uarch.yaml's (rtl/umbra_uarch.vh): the execute stages the
    // FPU and the delay line can be, at least the pipeline depth of threads, thread
    // numbers are 8-bit memory tags, register fields 8 bits, and every instruction is
    // in reach of one `j`.
    if (EXEC_STAGES < `UMBRA_MIN_EXECUTE_STAGES || EXEC_STAGES > `UMBRA_MAX_EXECUTE_STAGES) begin : g_check_stages
      umbra_core_EXEC_STAGES_outside_UMBRA_MIN_EXECUTE_STAGES_to_UMBRA_MAX_EXECUTE_STAGES u_error ();
    end
    if (THREADS < `UMBRA_FETCH_TO_X1 + EXEC_STAGES + 1) begin : g_check_threads_min
      umbra_core_THREADS_below_the_pipeline_depth_FETCH_TO_X1_plus_EXEC_STAGES_plus_1_a_thread_would_meet_its_previous_instruction_in_flight u_error ();
    end
    if (THREADS > `UMBRA_MAX_THREADS) begin : g_check_threads_max
      umbra_core_THREADS_above_UMBRA_MAX_THREADS_thread_numbers_are_8_bit_memory_tags u_error ();
    end
    if (REGS < `UMBRA_MIN_REGISTERS || REGS > `UMBRA_MAX_REGISTERS) begin : g_check_regs
      umbra_core_REGS_outside_UMBRA_MIN_REGISTERS_to_UMBRA_MAX_REGISTERS u_error ();
    end
    if (IMEM_WORDS < 1 || IMEM_WORDS > `UMBRA_MAX_IMEM_WORDS) begin : g_check_imem
      umbra_core_IMEM_WORDS_outside_1_to_UMBRA_MAX_IMEM_WORDS u_error ();
    end
    if (CACHE_BYTES == 0) begin : g_check_no_cache
      // No cache: a load's fill is its one word.
      if (CACHE_LINE_BYTES != 4) begin : g_check_line
        umbra_core_CACHE_LINE_BYTES_must_be_4_without_a_cache u_error ();
      end
    end else begin : g_check_cache
      if (CACHE_LINE_BYTES < 8 || CACHE_LINE_BYTES > 128 ||
          (CACHE_LINE_BYTES & (CACHE_LINE_BYTES - 1)) != 0) begin : g_check_line
        umbra_core_CACHE_LINE_BYTES_not_a_power_of_two_from_8_to_128 u_error ();
      end
      if (CACHE_WAYS < 1 || CACHE_WAYS > 8 || (CACHE_WAYS & (CACHE_WAYS - 1)) != 0) begin : g_check_ways
        umbra_core_CACHE_WAYS_not_a_power_of_two_from_1_to_8 u_error ();
      end
      if (CACHE_BYTES < CACHE_WAYS * CACHE_LINE_BYTES ||
          (CACHE_BYTES & (CACHE_BYTES - 1)) != 0) begin : g_check_size
        umbra_core_CACHE_BYTES_not_0_or_a_power_of_two_of_at_least_one_set u_error ();
      end
    end
    if (LINE_PORT != 0 && CACHE_BYTES == 0) begin : g_check_line_port
      umbra_core_LINE_PORT_needs_a_data_cache u_error ();
    end
    if (REQ_QUEUE < 4 || REQ_QUEUE > 64) begin : g_check_queue
      umbra_core_REQ_QUEUE_outside_4_to_64_replay_needs_room_for_three u_error ();
    end
  endgenerate

  // ---- inter-block signals, named and timed as docs/microarchitecture.md says ----------
  // Valid in D.
  wire            d_valid;
  wire [TW-1:0]   d_thread;
  wire [IW-1:0]   d_pc;
  wire [31:0]     d_word;
  wire [`UMBRA_BUBBLE_REASON_BITS-1:0] d_reason;
  wire [63:0]     x1_clock;
  wire [31:0]     domw, lx0, domh;
  wire            items, item_we;
  wire [TW-1:0]   item_thread;
  wire [31:0]     item_lx, item_ly;
  wire            f_busy;
  // Valid in R.
  wire            r_valid;
  wire            r_sleep;
  wire [TW-1:0]   r_thread;
  wire [IW-1:0]   r_pc;
  wire            r_illegal;
  wire [31:0]     r_word;
  wire            r_we;
  wire            r_load;
  wire            r_mem;
  wire            r_fpu;
  wire            r_exit;
  wire            r_flush;
  wire [7:0]      r_ra;
  wire [7:0]      r_rb;
  wire [7:0]      r_rc;
  wire [7:0]      d_fa, d_fb, d_fc;
  wire [2:0]      r_keep;
  wire            r_c_is_a;
  // Valid in X1.
  wire [31:0]     rf_a;
  wire [31:0]     rf_b;
  wire [31:0]     rf_c;
  wire            x1_push;             // execute's request, unregistered
  wire [7:0]      x1_mem_op;
  wire [31:0]     x1_mem_addr;
  wire [31:0]     x1_mem_data;
  wire [31:0]     x1_mem_cmp;
  wire [TW-1:0]   x1_mem_thread;
  wire [31:0]     x2_mem_addr_d;       // x2_mem_addr's next value (the cache's tag read)
  // Valid in X2.
  wire            x2_upd_valid;
  wire [TW-1:0]   x2_upd_thread;
  wire [IW-1:0]   x2_upd_pc;
  wire [`UMBRA_THREAD_STATE_BITS-1:0] x2_upd_state;
  wire            x2_mem_valid;
  wire [7:0]      x2_mem_op;
  wire [31:0]     x2_mem_addr;
  wire [31:0]     x2_mem_data;
  wire [31:0]     x2_mem_cmp;
  wire [7:0]      x2_mem_tag;
  // Valid in W.
  wire            w_valid;
  wire            w_sleep;
  wire [TW-1:0]   w_thread;
  wire [IW-1:0]   w_pc;
  wire            w_we;
  wire            w_load;
  wire            w_flush;
  wire [7:0]      w_rd;
  wire [31:0]     w_result;
  wire [TW-1:0]   xl_thread;           // valid in X<EXEC_STAGES>, the stage before W
  wire [THREADS-1:0]    rb_valid;
  wire [31:0]     rb_word;
  wire            lsu_busy;
  wire            lsu_room;
  // dcache -> load/store unit.
  wire            c2_push_valid;
  wire [7:0]      c2_push_op;
  wire [31:0]     c2_push_addr;
  wire [31:0]     c2_push_data;
  wire [31:0]     c2_push_cmp;
  wire [TW-1:0]   c2_push_tag;
  wire            c2_push_marker;
  wire [THREADS-1:0]    ans_valid;
  wire [THREADS-1:0]    ans_c2;
  wire [31:0]           ans_c2_data;
  wire [THREADS-1:0]    ans_catch;
  wire [32*THREADS-1:0] ans_catch_data;
  wire            fill_beat;
  // load/store unit -> execute: the combining buffers (LINE_PORT).
  localparam integer LNW = 32 - $clog2(CACHE_LINE_BYTES);
  wire [THREADS-1:0]         buffer_valid;
  wire [LNW*THREADS-1:0]     buffer_line;
  wire [THREADS*THREADS-1:0] buffer_writers;
  wire            fill_done;
  // Valid in the cycle after W.
  wire            rf_we;
  wire [TW-1:0]   rf_wthread;
  wire [7:0]      rf_wreg;
  wire [31:0]     rf_wdata;
  wire            wake_valid;
  wire [TW-1:0]   wake_thread;

  wire [TW-1:0]   fault_thread_i;
  wire [IW-1:0]   fault_pc_i;
  wire [TW-1:0]   trace_issue_thread_i;
  wire [IW-1:0]   trace_issue_pc_i;
  wire [TW-1:0]   trace_regwrite_thread_i;
  wire [IW-1:0]   trace_regwrite_pc_i;
  wire [TW-1:0]   trace_cache_thread_i;

  fetch #(
      .THREADS(THREADS), .IMEM_WORDS(IMEM_WORDS), .TW(TW), .IW(IW), .FF_RAMS(FF_RAMS),
      .DISPATCH(DISPATCH)
  ) u_fetch (
      .clk(clk), .rst(rst),
      .host_imem_we(host_imem_we), .host_imem_addr(host_imem_addr),
      .host_imem_data(host_imem_data),
      .launch_valid(launch_valid), .launch_count(launch_count), .launch_entry(launch_entry),
      .launch_lx0(launch_lx0), .launch_domw(launch_domw), .lx0(lx0),
      .domain_valid(domain_valid), .domain_w(domain_w), .domain_h(domain_h),
      .start_valid(start_valid), .start_lx(start_lx), .start_ly(start_ly),
      .can_start(can_start), .domh(domh), .items(items),
      .item_we(item_we), .item_thread(item_thread), .item_lx(item_lx), .item_ly(item_ly),
      .x2_upd_valid(x2_upd_valid), .x2_upd_thread(x2_upd_thread), .x2_upd_pc(x2_upd_pc),
      .x2_upd_state(x2_upd_state),
      .wake_valid(wake_valid), .wake_thread(wake_thread),
      .d_valid(d_valid), .d_thread(d_thread), .d_pc(d_pc), .d_word(d_word),
      .d_reason(d_reason), .x1_clock(x1_clock), .domw(domw), .f_busy(f_busy),
      .trace_issue_valid(trace_issue_valid), .trace_issue_thread(trace_issue_thread_i),
      .trace_issue_pc(trace_issue_pc_i), .trace_issue_reason(trace_issue_reason)
  );

  decode #(
      .REGS(REGS), .TW(TW), .IW(IW), .GROUPS(GROUPS)
  ) u_decode (
      .clk(clk), .rst(rst),
      .d_valid(d_valid), .d_thread(d_thread), .d_pc(d_pc), .d_word(d_word),
      .d_reason(d_reason),
      .r_valid(r_valid), .r_sleep(r_sleep), .r_thread(r_thread), .r_pc(r_pc),
      .r_illegal(r_illegal), .r_word(r_word), .r_we(r_we), .r_load(r_load), .r_mem(r_mem),
      .r_fpu(r_fpu), .r_exit(r_exit), .r_flush(r_flush), .r_ra(r_ra), .r_rb(r_rb),
      .r_rc(r_rc), .d_fa(d_fa), .d_fb(d_fb), .d_fc(d_fc), .r_keep(r_keep),
      .r_c_is_a(r_c_is_a)
  );

  regfile #(
      .TW(TW), .RW(RW), .RAM_OUT_REG(RAM_OUT_REG)
  ) u_regfile (
      .clk(clk),
      .d_thread(d_thread), .d_fa(d_fa), .d_fb(d_fb), .d_fc(d_fc),
      .r_thread(r_thread), .r_ra(r_ra), .r_rb(r_rb), .r_rc(r_rc), .r_keep(r_keep),
      .r_c_is_a(r_c_is_a),
      .rf_a(rf_a), .rf_b(rf_b), .rf_c(rf_c),
      .rf_we(rf_we), .rf_wthread(rf_wthread), .rf_wreg(rf_wreg), .rf_wdata(rf_wdata)
  );

  execute #(
      .THREADS(THREADS), .IMEM_WORDS(IMEM_WORDS), .CORE_ID(CORE_ID), .TW(TW), .IW(IW),
      .MUL_ROWS(MUL_ROWS), .FF_RAMS(FF_RAMS), .RAM_OUT_REG(RAM_OUT_REG), .DISPATCH(DISPATCH),
      .EXEC_STAGES(EXEC_STAGES),
      .LINE_PORT(LINE_PORT), .LINE_BYTES(CACHE_LINE_BYTES), .GROUPS(GROUPS)
  ) u_execute (
      .clk(clk), .rst(rst),
      .d_thread(d_thread),
      .r_valid(r_valid), .r_sleep(r_sleep), .r_thread(r_thread), .r_pc(r_pc),
      .r_illegal(r_illegal), .r_word(r_word), .r_we(r_we), .r_load(r_load), .r_mem(r_mem),
      .r_fpu(r_fpu), .r_exit(r_exit), .r_flush(r_flush),
      .rf_a(rf_a), .rf_b(rf_b), .rf_c(rf_c),
      .x1_clock(x1_clock), .domw(domw), .lx0(lx0), .domh(domh), .items(items),
      .item_we(item_we), .item_thread(item_thread), .item_lx(item_lx), .item_ly(item_ly),
      .ncore(ncore), .args(args), .lsu_room(lsu_room),
      .buffer_valid(buffer_valid), .buffer_line(buffer_line), .buffer_writers(buffer_writers),
      .c2_push_valid(c2_push_valid), .c2_push_addr(c2_push_addr),
      .x2_upd_valid(x2_upd_valid), .x2_upd_thread(x2_upd_thread), .x2_upd_pc(x2_upd_pc),
      .x2_upd_state(x2_upd_state),
      .x2_mem_valid(x2_mem_valid), .x2_mem_op(x2_mem_op), .x2_mem_addr(x2_mem_addr),
      .x2_mem_data(x2_mem_data), .x2_mem_cmp(x2_mem_cmp), .x2_mem_tag(x2_mem_tag),
      .x1_push(x1_push), .x1_mem_op(x1_mem_op), .x1_mem_addr(x1_mem_addr),
      .x1_mem_data(x1_mem_data), .x1_mem_cmp(x1_mem_cmp), .x1_mem_thread(x1_mem_thread),
      .x2_mem_addr_d(x2_mem_addr_d), .xl_thread(xl_thread),
      .w_valid(w_valid), .w_sleep(w_sleep), .w_thread(w_thread), .w_pc(w_pc),
      .w_we(w_we), .w_load(w_load), .w_flush(w_flush), .w_rd(w_rd), .w_result(w_result),
      .fault(fault), .fault_thread(fault_thread_i), .fault_pc(fault_pc_i),
      .fault_cause(trace_fault_cause)
  );

  // CACHE_BYTES 0: no cache (docs/memory-system.md, "No cache"), the same ports.
  generate
    if (CACHE_BYTES == 0) begin : g_no_cache
      wire unused_inval = |{inval_all, x2_mem_addr_d};  // nothing to invalidate, no tags
      wire unused_line  = |{mem_resp_line, mem_resp_ahead_tag};  // no line port, no fill's line
      assign ans_catch_data = {THREADS{mem_resp_data}};
      dcache_none #(
          .THREADS(THREADS), .TW(TW)
      ) u_dcache (
        .clk(clk), .rst(rst),
        .x2_mem_valid(x2_mem_valid), .x2_mem_op(x2_mem_op), .x2_mem_addr(x2_mem_addr),
        .x2_mem_data(x2_mem_data), .x2_mem_cmp(x2_mem_cmp), .x2_mem_tag(x2_mem_tag),
        .mem_resp_valid(mem_resp_valid), .mem_resp_data(mem_resp_data),
        .mem_resp_tag(mem_resp_tag), .fill_beat(fill_beat), .fill_done(fill_done),
        .c2_push_valid(c2_push_valid), .c2_push_op(c2_push_op), .c2_push_addr(c2_push_addr),
        .c2_push_data(c2_push_data), .c2_push_cmp(c2_push_cmp), .c2_push_tag(c2_push_tag),
        .c2_push_marker(c2_push_marker), .ans_valid(ans_valid), .ans_c2(ans_c2),
        .ans_c2_data(ans_c2_data), .ans_catch(ans_catch),
        .trace_cache_valid(trace_cache_valid), .trace_cache_thread(trace_cache_thread_i),
        .trace_cache_op(trace_cache_op), .trace_cache_addr(trace_cache_addr),
        .trace_cache_outcome(trace_cache_outcome)
      );
    end else begin : g_cache
      dcache #(
          .THREADS(THREADS), .TW(TW), .CACHE_BYTES(CACHE_BYTES), .CACHE_WAYS(CACHE_WAYS),
          .CACHE_LINE_BYTES(CACHE_LINE_BYTES), .LINE_PORT(LINE_PORT), .RESP_AHEAD(RESP_AHEAD)
      ) u_dcache (
        .clk(clk), .rst(rst),
        .x2_mem_valid(x2_mem_valid), .x2_mem_op(x2_mem_op), .x2_mem_addr(x2_mem_addr),
        .x2_mem_data(x2_mem_data), .x2_mem_cmp(x2_mem_cmp), .x2_mem_tag(x2_mem_tag),
        .x2_mem_addr_d(x2_mem_addr_d), .inval_all(inval_all),
        .mem_resp_valid(mem_resp_valid), .mem_resp_data(mem_resp_data),
        .mem_resp_tag(mem_resp_tag), .mem_resp_line(mem_resp_line),
        .mem_resp_ahead_tag(mem_resp_ahead_tag),
        .fill_beat(fill_beat), .fill_done(fill_done),
        .c2_push_valid(c2_push_valid), .c2_push_op(c2_push_op), .c2_push_addr(c2_push_addr),
        .c2_push_data(c2_push_data), .c2_push_cmp(c2_push_cmp), .c2_push_tag(c2_push_tag),
        .c2_push_marker(c2_push_marker), .ans_valid(ans_valid), .ans_c2(ans_c2),
        .ans_c2_data(ans_c2_data), .ans_catch(ans_catch), .ans_catch_data(ans_catch_data),
        .trace_cache_valid(trace_cache_valid), .trace_cache_thread(trace_cache_thread_i),
        .trace_cache_op(trace_cache_op), .trace_cache_addr(trace_cache_addr),
        .trace_cache_outcome(trace_cache_outcome)
      );
    end
  endgenerate

  load_store_unit #(
      .THREADS(THREADS), .TW(TW), .REQ_QUEUE(REQ_QUEUE), .NO_CACHE(CACHE_BYTES == 0 ? 1 : 0),
      .LINE_PORT(LINE_PORT), .LINE_BYTES(CACHE_LINE_BYTES), .GROUPS(GROUPS)
  ) u_load_store_unit (
      .clk(clk), .rst(rst),
      .c2_push_valid(c2_push_valid), .c2_push_op(c2_push_op), .c2_push_addr(c2_push_addr),
      .c2_push_data(c2_push_data), .c2_push_cmp(c2_push_cmp), .c2_push_tag(c2_push_tag),
      .c2_push_marker(c2_push_marker),
      .x1_push(x1_push), .x1_mem_op(x1_mem_op), .x1_mem_addr(x1_mem_addr),
      .x1_mem_data(x1_mem_data), .x1_mem_cmp(x1_mem_cmp), .x1_mem_thread(x1_mem_thread),
      .ans_valid(ans_valid), .ans_c2(ans_c2),
      .ans_c2_data(ans_c2_data), .ans_catch(ans_catch), .ans_catch_data(ans_catch_data),
      .fill_beat(fill_beat), .fill_done(fill_done),
      .wake_valid(wake_valid), .wake_thread(wake_thread), .rb_rthread(xl_thread),
      .mem_req_valid(mem_req_valid), .mem_req_ready(mem_req_ready),
      .mem_req_op(mem_req_op), .mem_req_addr(mem_req_addr), .mem_req_data(mem_req_data),
      .mem_req_cmp(mem_req_cmp), .mem_req_tag(mem_req_tag),
      .mem_req_mask(mem_req_mask), .mem_req_line(mem_req_line),
      .mem_resp_valid(mem_resp_valid), .mem_resp_data(mem_resp_data),
      .mem_resp_tag(mem_resp_tag),
      .rb_valid(rb_valid), .rb_word(rb_word), .lsu_room(lsu_room), .lsu_busy(lsu_busy),
      .buffer_valid(buffer_valid), .buffer_line(buffer_line), .buffer_writers(buffer_writers),
      .trace_protocol_error(trace_protocol_error)
  );

  writeback #(
      .THREADS(THREADS), .TW(TW), .IW(IW)
  ) u_writeback (
      .clk(clk), .rst(rst),
      .w_valid(w_valid), .w_sleep(w_sleep), .w_thread(w_thread), .w_pc(w_pc),
      .w_we(w_we), .w_load(w_load), .w_flush(w_flush), .w_rd(w_rd), .w_result(w_result),
      .rb_valid(rb_valid), .rb_word(rb_word),
      .rf_we(rf_we), .rf_wthread(rf_wthread), .rf_wreg(rf_wreg), .rf_wdata(rf_wdata),
      .wake_valid(wake_valid), .wake_thread(wake_thread),
      .trace_regwrite_valid(trace_regwrite_valid),
      .trace_regwrite_thread(trace_regwrite_thread_i),
      .trace_regwrite_pc(trace_regwrite_pc_i),
      .trace_regwrite_reg(trace_regwrite_reg),
      .trace_regwrite_value(trace_regwrite_value)
  );

  // Some thread RUN or SLEEP, or a load/returning atomic still owed its response.
  assign busy = f_busy || lsu_busy;

  // ---- ports at their architectural widths --------------------------------------------
  // Thread numbers are 8 bits and pcs 32-bit byte addresses outside; inside, a thread
  // is TW bits and a pc the IW-bit word index (pcs outside the store fault in X1).
  localparam integer TPAD = 8 - TW;
  localparam integer PPAD = 30 - IW;
  generate
    if (TPAD > 0) begin : g_thread_pad
      assign fault_thread          = {{TPAD{1'b0}}, fault_thread_i};
      assign trace_issue_thread    = {{TPAD{1'b0}}, trace_issue_thread_i};
      assign trace_regwrite_thread = {{TPAD{1'b0}}, trace_regwrite_thread_i};
      assign trace_cache_thread    = {{TPAD{1'b0}}, trace_cache_thread_i};
      assign trace_wake_thread     = {{TPAD{1'b0}}, wake_thread};
      assign trace_start_thread    = {{TPAD{1'b0}}, item_thread};
    end else begin : g_thread_full
      assign fault_thread          = fault_thread_i;
      assign trace_issue_thread    = trace_issue_thread_i;
      assign trace_regwrite_thread = trace_regwrite_thread_i;
      assign trace_cache_thread    = trace_cache_thread_i;
      assign trace_wake_thread     = wake_thread;
      assign trace_start_thread    = item_thread;
    end
  endgenerate
  assign fault_pc          = {{PPAD{1'b0}}, fault_pc_i, 2'b00};
  assign trace_issue_pc    = {{PPAD{1'b0}}, trace_issue_pc_i, 2'b00};
  assign trace_regwrite_pc = {{PPAD{1'b0}}, trace_regwrite_pc_i, 2'b00};
  assign trace_wake_valid  = wake_valid;

endmodule

`default_nettype wire
