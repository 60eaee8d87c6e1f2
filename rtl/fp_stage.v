// fp_stage: one optional pipeline cut inside the FPU's units (fp_add, fp_mul,
// fp_misc).  With CUT = 1 it is a plain W-bit register (no enable, no reset: the FPU
// never stalls, and a bare flip-flop is what synth_ice40 -dsp may pull into an
// SB_MAC16 when it sits right before or after a `*`); with CUT = 0 it is a wire.  The
// units name every place where the datapath may be cut and let fpu.v's LATENCY decide
// which ones are registers, so the logic between cuts is written once for every depth.
`default_nettype none

module fp_stage #(
    parameter integer W   = 1,
    parameter integer CUT = 1
) (
    input  wire         clk,
    input  wire [W-1:0] d,
    output wire [W-1:0] q
);

  generate
    if (CUT != 0) begin : g_reg
      reg [W-1:0] r;
      always @(posedge clk) r <= d;
      assign q = r;
    end else begin : g_wire
      assign q = d;
      wire unused_clk = clk;  // a wire has no clock
    end
  endgenerate

endmodule

`default_nettype wire
