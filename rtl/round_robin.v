// round_robin: the first of N requests counting from `first` and wrapping, as a
// function of its inputs only (no register: the caller keeps `first`, the one after
// the last it served).  The system's memory arbiter (rtl/umbra_system.v) and the
// domain dispatcher (rtl/dispatcher.v) both pick a core so; systemc/round_robin.h is
// the same choice.  With N = 1 it is a wire.
`default_nettype none

module round_robin #(
    parameter integer N  = 1,
    parameter integer CW = 1   // width of a requester's number ($clog2(N), at least 1)
) (
    input  wire [N-1:0]  req,
    input  wire [CW-1:0] first,
    output reg  [CW-1:0] grant,
    output reg           any
);

  integer k, idx;
  always @* begin
    grant = {CW{1'b0}};
    any   = 1'b0;
    // From the last claim to the first, so the first requester found last wins.
    for (k = N - 1; k >= 0; k = k - 1) begin
      idx = {{(32 - CW){1'b0}}, first} + k;
      if (idx >= N) idx = idx - N;
      if (req[idx]) begin
        grant = idx[CW-1:0];
        any   = 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
