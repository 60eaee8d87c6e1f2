// Generated from isa/isa.yaml by umbra-isagen. Do not edit.
// Opcode, field and special-register constants for the RTL decode.
`ifndef UMBRA_ISA_VH
`define UMBRA_ISA_VH

`define UMBRA_FIELD_A_LSB 16
`define UMBRA_FIELD_A_MSB 23
`define UMBRA_FIELD_B_LSB 8
`define UMBRA_FIELD_B_MSB 15
`define UMBRA_FIELD_C_LSB 0
`define UMBRA_FIELD_C_MSB 7
`define UMBRA_FIELD_IMM16_LSB 0
`define UMBRA_FIELD_IMM16_MSB 15
`define UMBRA_FIELD_IMM24_LSB 0
`define UMBRA_FIELD_IMM24_MSB 23
`define UMBRA_FIELD_OP_LSB 24
`define UMBRA_FIELD_OP_MSB 31
`define UMBRA_FIELD_ZERO_LSB 0
`define UMBRA_FIELD_ZERO_MSB 23

// Opcodes (op[7:4] groups the unit, op[3:0] selects the function)
`define UMBRA_OP_NOP 8'h01
`define UMBRA_OP_EXIT 8'h02
`define UMBRA_OP_RDSR 8'h03
`define UMBRA_OP_MOVI 8'h04
`define UMBRA_OP_MOVHI 8'h05
`define UMBRA_OP_DINV 8'h06
`define UMBRA_OP_DINVALL 8'h07
`define UMBRA_OP_DFLUSH 8'h08
`define UMBRA_OP_ADD 8'h10
`define UMBRA_OP_SUB 8'h11
`define UMBRA_OP_AND 8'h12
`define UMBRA_OP_OR 8'h13
`define UMBRA_OP_XOR 8'h14
`define UMBRA_OP_SHL 8'h15
`define UMBRA_OP_SHR 8'h16
`define UMBRA_OP_SRA 8'h17
`define UMBRA_OP_MUL 8'h18
`define UMBRA_OP_MULH 8'h19
`define UMBRA_OP_MULHU 8'h1a
`define UMBRA_OP_MIN 8'h1b
`define UMBRA_OP_MAX 8'h1c
`define UMBRA_OP_MINU 8'h1d
`define UMBRA_OP_MAXU 8'h1e
`define UMBRA_OP_SEQ 8'h20
`define UMBRA_OP_SNE 8'h21
`define UMBRA_OP_SLT 8'h22
`define UMBRA_OP_SLTU 8'h23
`define UMBRA_OP_SLE 8'h24
`define UMBRA_OP_SLEU 8'h25
`define UMBRA_OP_ADDI 8'h30
`define UMBRA_OP_ANDI 8'h31
`define UMBRA_OP_ORI 8'h32
`define UMBRA_OP_XORI 8'h33
`define UMBRA_OP_SHLI 8'h34
`define UMBRA_OP_SHRI 8'h35
`define UMBRA_OP_SRAI 8'h36
`define UMBRA_OP_SLTI 8'h37
`define UMBRA_OP_SEQI 8'h38
`define UMBRA_OP_MULI 8'h39
`define UMBRA_OP_FADD 8'h40
`define UMBRA_OP_FSUB 8'h41
`define UMBRA_OP_FMUL 8'h42
`define UMBRA_OP_FMADD 8'h43
`define UMBRA_OP_FMIN 8'h44
`define UMBRA_OP_FMAX 8'h45
`define UMBRA_OP_FABS 8'h46
`define UMBRA_OP_FNEG 8'h47
`define UMBRA_OP_FSEQ 8'h48
`define UMBRA_OP_FSLT 8'h49
`define UMBRA_OP_FSLE 8'h4a
`define UMBRA_OP_ITOF 8'h4b
`define UMBRA_OP_FTOI 8'h4c
`define UMBRA_OP_PACK 8'h4d
`define UMBRA_OP_UNPACK 8'h4e
`define UMBRA_OP_LDW 8'h50
`define UMBRA_OP_STW 8'h51
`define UMBRA_OP_RED_ADD 8'h60
`define UMBRA_OP_RED_MIN 8'h61
`define UMBRA_OP_RED_MAX 8'h62
`define UMBRA_OP_RED_XCHG 8'h63
`define UMBRA_OP_RED_CAS 8'h64
`define UMBRA_OP_ATOM_ADD 8'h68
`define UMBRA_OP_ATOM_MIN 8'h69
`define UMBRA_OP_ATOM_MAX 8'h6a
`define UMBRA_OP_ATOM_XCHG 8'h6b
`define UMBRA_OP_ATOM_CAS 8'h6c
`define UMBRA_OP_J 8'h70
`define UMBRA_OP_JAL 8'h71
`define UMBRA_OP_JALR 8'h72
`define UMBRA_OP_BZ 8'h73
`define UMBRA_OP_BNZ 8'h74
`define UMBRA_OP_BEQ 8'h78
`define UMBRA_OP_BNE 8'h79
`define UMBRA_OP_BLT 8'h7a
`define UMBRA_OP_BGE 8'h7b
`define UMBRA_OP_BLTU 8'h7c
`define UMBRA_OP_BGEU 8'h7d

// Special registers (rdsr)
`define UMBRA_SR_TID 8'd0
`define UMBRA_SR_CID 8'd1
`define UMBRA_SR_NTHR 8'd2
`define UMBRA_SR_NCORE 8'd3
`define UMBRA_SR_CLOCK 8'd4
`define UMBRA_SR_CLOCKH 8'd5
`define UMBRA_SR_LX 8'd6
`define UMBRA_SR_LY 8'd7
`define UMBRA_SR_DOMW 8'd8
`define UMBRA_SR_DOMH 8'd9
`define UMBRA_SR_ARG 8'd10

// Memory-port ops that are no instruction (port_ops)
`define UMBRA_PORT_OP_FILL 8'h5f
`define UMBRA_PORT_OP_WLINE 8'h5e

// Extension groups: a group's bit in the GROUPS parameter (a configuration's core.groups)
`define UMBRA_NUM_GROUPS 5
`define UMBRA_GROUPS_ALL 5'b11111
`define UMBRA_GROUP_BASE 0
`define UMBRA_GROUP_MULH 1
`define UMBRA_GROUP_FP32 2
`define UMBRA_GROUP_FP32CVT 3
`define UMBRA_GROUP_ATOMIC 4

`define UMBRA_REGISTERS 256
`define UMBRA_ZERO_REGISTER 0

// Decode attributes: umbra_decode_attr(op) (umbra_isa_decode.vh) returns this packed
// vector for each opcode, all zero for an opcode that is no instruction.
`define UMBRA_ATTR_BITS 20
`define UMBRA_ATTR_KNOWN 19  // the opcode is an instruction
`define UMBRA_ATTR_FMT_MSB 18  // its format (UMBRA_FMT_*)
`define UMBRA_ATTR_FMT_LSB 17
`define UMBRA_ATTR_CHK_A_MSB 16  // field a's check (UMBRA_CHK_*)
`define UMBRA_ATTR_CHK_A_LSB 14
`define UMBRA_ATTR_CHK_B_MSB 13  // field b's check
`define UMBRA_ATTR_CHK_B_LSB 11
`define UMBRA_ATTR_CHK_C_MSB 10  // field c's check
`define UMBRA_ATTR_CHK_C_LSB 8
`define UMBRA_ATTR_READS_A 7  // field a is a register read
`define UMBRA_ATTR_READS_B 6  // field b is a register read (a memory operand's base included)
`define UMBRA_ATTR_READS_C 5  // field c is a register read
`define UMBRA_ATTR_COND_BRANCH 4  // a conditional branch
`define UMBRA_ATTR_WRITES_RESULT 3  // writes field a's register from X1's or the FPU's result
`define UMBRA_ATTR_RETURNS_DATA 2  // writes field a's register from memory: the thread sleeps
`define UMBRA_ATTR_MEMORY 1  // sends a request to data memory (load, store, atomic)
`define UMBRA_ATTR_FPU 0  // executes on the FPU
// Formats (UMBRA_ATTR_FMT)
`define UMBRA_FMT_R 2'd0
`define UMBRA_FMT_I 2'd1
`define UMBRA_FMT_J 2'd2
`define UMBRA_FMT_N 2'd3
// The validity check of an 8-bit field (UMBRA_ATTR_CHK_*)
`define UMBRA_CHK_ZERO 3'd0  // unused: must be zero
`define UMBRA_CHK_REG 3'd1  // a register number: must name a register the core has
`define UMBRA_CHK_ANY 3'd2  // any value (a signed immediate, a branch offset, a memory offset)
`define UMBRA_CHK_SREG 3'd3  // a special-register number
`define UMBRA_CHK_U5 3'd4  // unsigned 5-bit: bits 7:5 zero
`define UMBRA_CHK_U2 3'd5  // unsigned 2-bit: bits 7:2 zero

`endif
