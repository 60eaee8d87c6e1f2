// synth_top_tb: fpga/synth_top.v run as a design, under Icarus (fpga_synth_top_sim).
// The synthesis top is what fpga/build.sh measures, and its memory (the request
// registered in front of the RAM, the response line behind it) is logic of its own
// that no cosimulation covers; so this bench loads PROGRAM's text over the top's
// serial host pins, launches THREADS threads and checks that the run ends with busy
// low and neither the core's fault (synth_top_mem.s faults on a word read back wrong)
// nor the memory's, and that every line fill was answered at MEM_LATENCY.  Parameters as `+define+`s: the configuration's synth_top
// parameters (umbra-config --top synth_top) and PROGRAM, the $readmemh text image.
`default_nettype none

module synth_top_tb;
  reg clk = 1'b0, rst_pin = 1'b1, din = 1'b0, shift = 1'b0, we = 1'b0, launch = 1'b0;
  always #5 clk = ~clk;
  wire busy, fault, mem_fault, fault_parity;
  synth_top #(.THREADS(`THREADS), .EXEC_STAGES(`EXEC_STAGES), .REGS(`REGS),
              .IMEM_WORDS(`IMEM_WORDS), .MEM_WORDS(`MEM_WORDS), .MEM_LATENCY(`MEM_LATENCY),
              .CACHE_BYTES(`CACHE_BYTES), .CACHE_WAYS(`CACHE_WAYS),
              .CACHE_LINE_BYTES(`CACHE_LINE_BYTES), .REQ_QUEUE(`REQ_QUEUE), .MUL_ROWS(`MUL_ROWS),
              .FF_RAMS(`FF_RAMS), .RAM_OUT_REG(`RAM_OUT_REG))
    dut (.clk(clk), .rst_pin(rst_pin), .host_din(din), .host_shift(shift),
         .host_imem_we_pin(we), .host_launch_pin(launch), .busy(busy), .fault(fault),
         .mem_fault(mem_fault), .fault_parity(fault_parity));

  // Every fill's first beat must come MEM_LATENCY cycles after its acceptance and the
  // rest on the cycles after it (a wrong latency would still compute right: the core
  // waits for tags).  Fills are serialized (ready is low while one reads its line),
  // so their beats never interleave: a queue of acceptance cycles is enough.
  localparam integer WPL = `CACHE_LINE_BYTES / 4;
  integer now = 0, fills = 0, beat = 0, late = 0, head = 0, tail = 0;
  integer accepted [0:63];
  always @(posedge clk) begin
    now <= now + 1;
    if (dut.req_valid && dut.req_ready && dut.is_fill) begin
      accepted[tail % 64] = now;
      tail = tail + 1;
    end
    if (dut.resp_valid) begin
      if (head == tail || now != accepted[head % 64] + `MEM_LATENCY + beat) begin
        if (late < 5) $display("synth_top_tb: beat %0d of a fill in cycle %0d, not %0d", beat, now,
                               accepted[head % 64] + `MEM_LATENCY + beat);
        late = late + 1;
      end
      beat = beat + 1;
      if (beat == WPL) begin
        beat = 0;
        head = head + 1;
        fills = fills + 1;
      end
    end
  end

  reg [31:0] text [0:`IMEM_WORDS-1];
  integer i, k, words, cycles, busy_cycles;

  // 64 bits into the host shift register, MSB first, one bit per host_shift pulse.
  task send64(input [63:0] v);
    begin
      for (k = 63; k >= 0; k = k - 1) begin
        @(negedge clk);
        din = v[k];
        shift = 1'b1;
        @(negedge clk);
        shift = 1'b0;
      end
    end
  endtask

  // A one-cycle pulse on the write pin or the launch pin, then time for the pins' two
  // synchronizing flops.
  task pulse(input is_launch);
    begin
      @(negedge clk);
      if (is_launch) launch = 1'b1;
      else we = 1'b1;
      @(negedge clk);
      launch = 1'b0;
      we = 1'b0;
      repeat (4) @(negedge clk);
    end
  endtask

  initial begin
    for (i = 0; i < `IMEM_WORDS; i = i + 1) text[i] = 32'bx;
    $readmemh(`PROGRAM, text);
    words = 0;
    while (words < `IMEM_WORDS && text[words] !== 32'bx) words = words + 1;
    repeat (10) @(negedge clk);
    rst_pin = 1'b0;
    repeat (10) @(negedge clk);
    for (i = 0; i < words; i = i + 1) begin
      send64({i[31:0], text[i]});
      pulse(1'b0);
    end
    send64({32'd`THREADS, 32'd0});  // {launch count, entry}
    pulse(1'b1);
    cycles = 0;
    busy_cycles = 0;
    while (cycles < 100000 && (busy_cycles == 0 || busy)) begin
      @(posedge clk);
      #1;
      cycles = cycles + 1;
      if (busy) busy_cycles = busy_cycles + 1;
    end
    $display("synth_top_tb: MEM_LATENCY=%0d, %0d words, busy %0d cycles, fault %b, mem_fault %b, %0d fills, %0d beats off time",
             `MEM_LATENCY, words, busy_cycles, fault, mem_fault, fills, late);
    if (words == 0 || busy_cycles == 0 || busy || fault || mem_fault || fills == 0 || late != 0)
      $display("FAIL");
    else
      $display("PASS");
    $finish;
  end

  wire unused = fault_parity;
endmodule

`default_nettype wire
