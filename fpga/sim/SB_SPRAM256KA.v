// SB_SPRAM256KA simulation model: the iCE40 UP5K's 16K x 16 single-port RAM, written
// from the primitive's documented behaviour so Verilator and Icarus can run the board
// top (fpga/icebreaker_top.v) without the vendor or Yosys cell libraries.  Only
// simulations read this file; Yosys maps the name onto the hard block itself.
//
// Behaviour modelled: one access per clock while CHIPSELECT is high; a read
// (WREN low) puts the word on DATAOUT after the edge and DATAOUT holds it until the
// next read; a write stores the nibbles MASKWREN selects and leaves DATAOUT
// undefined on silicon, modelled as all ones here so a design that used it would show
// a wrong value rather than a plausible one.  STANDBY, SLEEP and POWEROFF (active
// low) are the power controls the board holds at 0, 0, 1; with the RAM off DATAOUT
// reads 0.  Contents start at zero (the hardware's are undefined; the host writes
// every word a program relies on).
`default_nettype none

module SB_SPRAM256KA (
    input  wire [13:0] ADDRESS,
    input  wire [15:0] DATAIN,
    input  wire [3:0]  MASKWREN,
    input  wire        WREN,
    input  wire        CHIPSELECT,
    input  wire        CLOCK,
    input  wire        STANDBY,
    input  wire        SLEEP,
    input  wire        POWEROFF,
    output reg  [15:0] DATAOUT
);

  reg [15:0] mem [0:16383];
  integer i;
  initial begin
    for (i = 0; i < 16384; i = i + 1) mem[i] = 16'h0000;
    DATAOUT = 16'h0000;
  end

  wire [15:0] nibble_mask = {{4{MASKWREN[3]}}, {4{MASKWREN[2]}}, {4{MASKWREN[1]}},
                             {4{MASKWREN[0]}}};

  always @(posedge CLOCK) begin
    if (SLEEP || !POWEROFF) begin
      DATAOUT <= 16'h0000;
    end else if (!STANDBY && CHIPSELECT) begin
      if (WREN) begin
        mem[ADDRESS] <= (mem[ADDRESS] & ~nibble_mask) | (DATAIN & nibble_mask);
        DATAOUT      <= 16'hffff;
      end else begin
        DATAOUT <= mem[ADDRESS];
      end
    end
  end

endmodule

`default_nettype wire
