// Generated from isa/isa.yaml by umbra-isagen. Do not edit.
// umbra_decode_attr(attr_op): the decode attributes of each opcode, packed as the
// UMBRA_ATTR_* positions of umbra_isa.vh say; all zero (not KNOWN) for an opcode
// that is no instruction.  Included inside rtl/decode.v's module body; no include
// guard, since a function belongs to the module that includes it.
//
//                                   KNOWN FMT CHK_A CHK_B CHK_C READS_A READS_B READS_C COND_BRANCH WRITES_RESULT RETURNS_DATA MEMORY FPU 
function [`UMBRA_ATTR_BITS-1:0] umbra_decode_attr;
  input [7:0] attr_op;
  begin
    case (attr_op)
      `UMBRA_OP_NOP:         umbra_decode_attr = 20'b1_11_000_000_000_00000000;
      `UMBRA_OP_EXIT:        umbra_decode_attr = 20'b1_11_000_000_000_00000000;
      `UMBRA_OP_RDSR:        umbra_decode_attr = 20'b1_00_001_011_000_00001000;
      `UMBRA_OP_MOVI:        umbra_decode_attr = 20'b1_01_001_000_000_00001000;
      `UMBRA_OP_MOVHI:       umbra_decode_attr = 20'b1_01_001_000_000_10001000;
      `UMBRA_OP_DINV:        umbra_decode_attr = 20'b1_00_000_001_010_01000000;
      `UMBRA_OP_DINVALL:     umbra_decode_attr = 20'b1_11_000_000_000_00000000;
      `UMBRA_OP_DFLUSH:      umbra_decode_attr = 20'b1_11_000_000_000_00000000;
      `UMBRA_OP_ADD:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SUB:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_AND:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_OR:          umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_XOR:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SHL:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SHR:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SRA:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MUL:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MULH:        umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MULHU:       umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MIN:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MAX:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MINU:        umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_MAXU:        umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SEQ:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SNE:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SLT:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SLTU:        umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SLE:         umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_SLEU:        umbra_decode_attr = 20'b1_00_001_001_001_01101000;
      `UMBRA_OP_ADDI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_ANDI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_ORI:         umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_XORI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_SHLI:        umbra_decode_attr = 20'b1_00_001_001_100_01001000;
      `UMBRA_OP_SHRI:        umbra_decode_attr = 20'b1_00_001_001_100_01001000;
      `UMBRA_OP_SRAI:        umbra_decode_attr = 20'b1_00_001_001_100_01001000;
      `UMBRA_OP_SLTI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_SEQI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_MULI:        umbra_decode_attr = 20'b1_00_001_001_010_01001000;
      `UMBRA_OP_FADD:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FSUB:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FMUL:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FMADD:       umbra_decode_attr = 20'b1_00_001_001_001_11101001;
      `UMBRA_OP_FMIN:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FMAX:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FABS:        umbra_decode_attr = 20'b1_00_001_001_000_01001001;
      `UMBRA_OP_FNEG:        umbra_decode_attr = 20'b1_00_001_001_000_01001001;
      `UMBRA_OP_FSEQ:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FSLT:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_FSLE:        umbra_decode_attr = 20'b1_00_001_001_001_01101001;
      `UMBRA_OP_ITOF:        umbra_decode_attr = 20'b1_00_001_001_000_01001001;
      `UMBRA_OP_FTOI:        umbra_decode_attr = 20'b1_00_001_001_000_01001001;
      `UMBRA_OP_PACK:        umbra_decode_attr = 20'b1_00_001_001_001_11101001;
      `UMBRA_OP_UNPACK:      umbra_decode_attr = 20'b1_00_001_001_101_01001001;
      `UMBRA_OP_LDW:         umbra_decode_attr = 20'b1_00_001_001_010_01000110;
      `UMBRA_OP_STW:         umbra_decode_attr = 20'b1_00_001_001_010_11000010;
      `UMBRA_OP_RED_ADD:     umbra_decode_attr = 20'b1_00_000_001_001_01100010;
      `UMBRA_OP_RED_MIN:     umbra_decode_attr = 20'b1_00_000_001_001_01100010;
      `UMBRA_OP_RED_MAX:     umbra_decode_attr = 20'b1_00_000_001_001_01100010;
      `UMBRA_OP_RED_XCHG:    umbra_decode_attr = 20'b1_00_000_001_001_01100010;
      `UMBRA_OP_RED_CAS:     umbra_decode_attr = 20'b1_00_001_001_001_11100010;
      `UMBRA_OP_ATOM_ADD:    umbra_decode_attr = 20'b1_00_001_001_001_01100110;
      `UMBRA_OP_ATOM_MIN:    umbra_decode_attr = 20'b1_00_001_001_001_01100110;
      `UMBRA_OP_ATOM_MAX:    umbra_decode_attr = 20'b1_00_001_001_001_01100110;
      `UMBRA_OP_ATOM_XCHG:   umbra_decode_attr = 20'b1_00_001_001_001_01100110;
      `UMBRA_OP_ATOM_CAS:    umbra_decode_attr = 20'b1_00_001_001_001_11100110;
      `UMBRA_OP_J:           umbra_decode_attr = 20'b1_10_000_000_000_00000000;
      `UMBRA_OP_JAL:         umbra_decode_attr = 20'b1_01_001_000_000_00001000;
      `UMBRA_OP_JALR:        umbra_decode_attr = 20'b1_00_001_001_000_01001000;
      `UMBRA_OP_BZ:          umbra_decode_attr = 20'b1_01_001_000_000_10010000;
      `UMBRA_OP_BNZ:         umbra_decode_attr = 20'b1_01_001_000_000_10010000;
      `UMBRA_OP_BEQ:         umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      `UMBRA_OP_BNE:         umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      `UMBRA_OP_BLT:         umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      `UMBRA_OP_BGE:         umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      `UMBRA_OP_BLTU:        umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      `UMBRA_OP_BGEU:        umbra_decode_attr = 20'b1_00_001_001_010_11010000;
      default:              umbra_decode_attr = {`UMBRA_ATTR_BITS{1'b0}};
    endcase
  end
endfunction

// umbra_sreg_known(sreg_number): it is the number of a special register (rdsr's field b).
function umbra_sreg_known;
  input [7:0] sreg_number;
  begin
    case (sreg_number)
      `UMBRA_SR_TID, `UMBRA_SR_CID, `UMBRA_SR_NTHR, `UMBRA_SR_NCORE, `UMBRA_SR_CLOCK,
      `UMBRA_SR_CLOCKH, `UMBRA_SR_LX, `UMBRA_SR_LY, `UMBRA_SR_DOMW, `UMBRA_SR_DOMH,
      `UMBRA_SR_ARG:
        umbra_sreg_known = 1'b1;
      default:
        umbra_sreg_known = 1'b0;
    endcase
  end
endfunction
