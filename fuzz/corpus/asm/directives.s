# every directive and statement form umbra-as knows
        .equ    N, 4
SIZE = N * 4 + (1 << 3) - 0x2
        .global _start, table
        .text
_start: li      r1, 0x12345678
        li      r2, -5
        la      r3, table
        ldw     r4, 4(r3)
        stw     r4, -8(r3)
        rdsr    r5, tid
        rdsr    r6, 9
        .align  16
loop:   addi    r1, r1, -1
        bnz     r1, loop
        beq     r1, r2, . + 8
        j       end
        .space  8
        .word   0x01000000, end - _start
end:    exit
        .data
table:  .word   1, 2, 3, N, SIZE, 'a', ~0, -1 >> 3, 7 % 3, 5 ^ 6 | 1 & 3
        .float  1.5, -0.0, 0x1p-3, inf, nan, 1e38
        .space  3, 0xff
        .align  4
tail:   .space  SIZE
