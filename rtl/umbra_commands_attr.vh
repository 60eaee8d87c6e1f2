// Generated from isa/commands.yaml by umbra-cmdgen. Do not edit.
// Included inside rtl/command_processor.v: an opcode's {known, idle, nargs[1:0]}.
function [3:0] umbra_cmd_attr;
  input [31:0] op;
  begin
    case (op)
      `UMBRA_CMD_END: umbra_cmd_attr = {1'b1, 1'b0, 2'd0};
      `UMBRA_CMD_PROGRAM: umbra_cmd_attr = {1'b1, 1'b1, 2'd3};
      `UMBRA_CMD_ARGS: umbra_cmd_attr = {1'b1, 1'b1, 2'd1};
      `UMBRA_CMD_DOMAIN: umbra_cmd_attr = {1'b1, 1'b0, 2'd2};
      `UMBRA_CMD_RUN: umbra_cmd_attr = {1'b1, 1'b0, 2'd1};
      `UMBRA_CMD_INVALIDATE: umbra_cmd_attr = {1'b1, 1'b1, 2'd0};
      `UMBRA_CMD_WAIT: umbra_cmd_attr = {1'b1, 1'b1, 2'd0};
      `UMBRA_CMD_FENCE: umbra_cmd_attr = {1'b1, 1'b1, 2'd2};
      `UMBRA_CMD_COUNTERS_RESET: umbra_cmd_attr = {1'b1, 1'b0, 2'd0};
      `UMBRA_CMD_COUNTERS: umbra_cmd_attr = {1'b1, 1'b1, 2'd1};
      default: umbra_cmd_attr = 4'b0000;
    endcase
  end
endfunction
