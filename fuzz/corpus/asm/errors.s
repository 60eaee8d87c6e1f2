# one mistake per line; the assembler must report each and go on
        addd    r1, r2, r3
        add     r1, r2
        add     r256, r1, r1
        addi    r1, r1, 300
        ldw     r1, 3(r2)
        ldw     r1, 1024(r2)
        rdsr    r1, bogus
        j       nowhere
        .word   1 / 0
        .space  -4
        .align  3
        .include "does-not-exist.s"
a = b
b = a
dup:    nop
dup:    nop
        .data
        add     r1, r1, r1
        .float  1e99
        .word   0x100000000
        'unterminated
        "string
