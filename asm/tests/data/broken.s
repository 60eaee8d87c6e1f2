# A deliberately broken program: each line marked below has one error, and the
# assembler must report every one of them, with line, column and caret.
        .text
start:  add r1, r2                  # add takes 3 operands
        addi r1, r2, 300            # immediate out of range
        ldw r3, 6(r4)               # misaligned memory offset
        ad r1, r2, r3               # unknown mnemonic (did you mean add?)
        .wrd 5                      # unknown directive
        bz r1, nowhere              # undefined symbol
start:  nop                         # duplicate label
        li r5, 1 / 0                # division by zero
        .align 3                    # not a power of 2
        add r1, 5, r2               # expected a register
        sub r1, r2, r40             # fine on 256 registers, an error on 32
        beq r1, r2, far             # branch target out of range
        .space 512
far:    exit
