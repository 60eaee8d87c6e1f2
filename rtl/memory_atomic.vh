// memory_atomic.vh: the word a memory-side atomic (red.*, atom.*) writes, from the old
// word, the operand and the comparand.  One definition for every RTL memory that
// performs atomics (fpga/spram_memory.v on the iCE40 boards, rtl/sdram_controller.v on
// the ULX3S), so the two cannot disagree on an operation's meaning.  Included inside a
// module, after umbra_isa.vh; any other op leaves the word as it was.
function [31:0] memory_atomic_new;
  input [7:0] op;
  input [31:0] old, val, cmp;
  reg less;
  begin
    // min and max share one signed compare: on equal operands either choice is the value.
    less = $signed(old) < $signed(val);
    case (op)
      `UMBRA_OP_RED_ADD, `UMBRA_OP_ATOM_ADD:   memory_atomic_new = old + val;
      `UMBRA_OP_RED_MIN, `UMBRA_OP_ATOM_MIN:   memory_atomic_new = less ? old : val;
      `UMBRA_OP_RED_MAX, `UMBRA_OP_ATOM_MAX:   memory_atomic_new = less ? val : old;
      `UMBRA_OP_RED_XCHG, `UMBRA_OP_ATOM_XCHG: memory_atomic_new = val;
      // The comparand travels in the request's cmp (field a's register).
      `UMBRA_OP_RED_CAS, `UMBRA_OP_ATOM_CAS:   memory_atomic_new = (old == cmp) ? val : old;
      default:                                 memory_atomic_new = old;
    endcase
  end
endfunction
