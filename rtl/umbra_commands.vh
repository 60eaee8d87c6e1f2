// Generated from isa/commands.yaml by umbra-cmdgen. Do not edit.
// The command processor's codes (rtl/command_processor.v); the C++ copy is umbra/commands_gen.h.
`ifndef UMBRA_COMMANDS_VH
`define UMBRA_COMMANDS_VH

`define UMBRA_CMD_END 32'h0
`define UMBRA_CMD_PROGRAM 32'h1
`define UMBRA_CMD_ARGS 32'h2
`define UMBRA_CMD_DOMAIN 32'h3
`define UMBRA_CMD_RUN 32'h4
`define UMBRA_CMD_INVALIDATE 32'h5
`define UMBRA_CMD_WAIT 32'h6
`define UMBRA_CMD_FENCE 32'h7
`define UMBRA_CMD_COUNTERS_RESET 32'h8
`define UMBRA_CMD_COUNTERS 32'h9
`define UMBRA_CMD_MAX_ARGS 3
`define UMBRA_CMD_COUNTER_FIXED_WORDS 2
`define UMBRA_CMD_COUNTER_CYCLES 0
`define UMBRA_CMD_COUNTER_BUSY_CYCLES 1
`define UMBRA_CMD_PORT_TAG 8'hff
`define UMBRA_CMD_FAULT_BITS 3
`define UMBRA_CMD_FAULT_NONE 3'd0
`define UMBRA_CMD_FAULT_BAD_OPCODE 3'd1
`define UMBRA_CMD_FAULT_MISALIGNED 3'd2
`define UMBRA_CMD_FAULT_BAD_DOMAIN 3'd3
`define UMBRA_CMD_FAULT_BAD_PROGRAM 3'd4
`define UMBRA_CMD_FAULT_BAD_ENTRY 3'd5

`endif
