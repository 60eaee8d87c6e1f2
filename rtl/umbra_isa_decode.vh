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

// umbra_op_group(group_op): one bit set, the opcode's group (UMBRA_GROUP_*); none for an
// opcode that is no instruction.  ANDed with GROUPS, it says the core implements it.
function [`UMBRA_NUM_GROUPS-1:0] umbra_op_group;
  input [7:0] group_op;
  begin
    umbra_op_group = {`UMBRA_NUM_GROUPS{1'b0}};
    case (group_op)
      `UMBRA_OP_NOP, `UMBRA_OP_EXIT, `UMBRA_OP_RDSR, `UMBRA_OP_MOVI,
      `UMBRA_OP_MOVHI, `UMBRA_OP_DINV, `UMBRA_OP_DINVALL, `UMBRA_OP_DFLUSH,
      `UMBRA_OP_ADD, `UMBRA_OP_SUB, `UMBRA_OP_AND, `UMBRA_OP_OR,
      `UMBRA_OP_XOR, `UMBRA_OP_SHL, `UMBRA_OP_SHR, `UMBRA_OP_SRA,
      `UMBRA_OP_MUL, `UMBRA_OP_MIN, `UMBRA_OP_MAX, `UMBRA_OP_MINU,
      `UMBRA_OP_MAXU, `UMBRA_OP_SEQ, `UMBRA_OP_SNE, `UMBRA_OP_SLT,
      `UMBRA_OP_SLTU, `UMBRA_OP_SLE, `UMBRA_OP_SLEU, `UMBRA_OP_ADDI,
      `UMBRA_OP_ANDI, `UMBRA_OP_ORI, `UMBRA_OP_XORI, `UMBRA_OP_SHLI,
      `UMBRA_OP_SHRI, `UMBRA_OP_SRAI, `UMBRA_OP_SLTI, `UMBRA_OP_SEQI,
      `UMBRA_OP_MULI, `UMBRA_OP_LDW, `UMBRA_OP_STW, `UMBRA_OP_J,
      `UMBRA_OP_JAL, `UMBRA_OP_JALR, `UMBRA_OP_BZ, `UMBRA_OP_BNZ,
      `UMBRA_OP_BEQ, `UMBRA_OP_BNE, `UMBRA_OP_BLT, `UMBRA_OP_BGE,
      `UMBRA_OP_BLTU, `UMBRA_OP_BGEU:
        umbra_op_group[`UMBRA_GROUP_BASE] = 1'b1;
      `UMBRA_OP_MULH, `UMBRA_OP_MULHU:
        umbra_op_group[`UMBRA_GROUP_MULH] = 1'b1;
      `UMBRA_OP_FADD, `UMBRA_OP_FSUB, `UMBRA_OP_FMUL, `UMBRA_OP_FMADD,
      `UMBRA_OP_FMIN, `UMBRA_OP_FMAX, `UMBRA_OP_FABS, `UMBRA_OP_FNEG,
      `UMBRA_OP_FSEQ, `UMBRA_OP_FSLT, `UMBRA_OP_FSLE:
        umbra_op_group[`UMBRA_GROUP_FP32] = 1'b1;
      `UMBRA_OP_ITOF, `UMBRA_OP_FTOI, `UMBRA_OP_PACK, `UMBRA_OP_UNPACK:
        umbra_op_group[`UMBRA_GROUP_FP32CVT] = 1'b1;
      `UMBRA_OP_RED_ADD, `UMBRA_OP_RED_MIN, `UMBRA_OP_RED_MAX, `UMBRA_OP_RED_XCHG,
      `UMBRA_OP_RED_CAS, `UMBRA_OP_ATOM_ADD, `UMBRA_OP_ATOM_MIN, `UMBRA_OP_ATOM_MAX,
      `UMBRA_OP_ATOM_XCHG, `UMBRA_OP_ATOM_CAS:
        umbra_op_group[`UMBRA_GROUP_ATOMIC] = 1'b1;
      default: ;
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
