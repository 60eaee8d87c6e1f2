# atomic_values.s -- every atomic's result at the values where a wrong one shows.
#
# The memory computes atomics (the DRAM model and fixed memory behind the RTL and the
# SystemC model alike) with the same function the reference simulator uses, so a
# comparison of the models with each other and with the ISS cannot see a wrong atomic
# result.  These expectations are worked out by hand from the ISA's semantics
# (isa/isa.yaml): one thread, one atomic per word, each at an edge -- a signed min/max
# where the unsigned answer differs, an add that wraps, a cas that swaps and one that
# does not -- and every returning atomic's old value stored.
#
#   word  initial      operation                      final        old (atom.*)
#   w+0   0x7fffffff   atom.add  +1                   0x80000000   0x7fffffff
#   w+4   0xfffffffb   atom.min  3 (signed: -5 < 3)   0xfffffffb   0xfffffffb
#   w+8   3            atom.max  -1 (signed: 3 > -1)  3            3
#   w+12  0x12345678   atom.xchg 0xcafef00d           0xcafef00d   0x12345678
#   w+16  100          atom.cas  100 -> 200 (swaps)   200          100
#   w+20  100          atom.cas  101 -> 200 (no swap) 100          100
#   w+24  0xffffffff   red.add   2 (wraps)            1
#   w+28  0x80000000   red.min   0                    0x80000000
#   w+32  0xfffffff0   red.max   5 (signed: 5 > -16)  5
#   w+36  7            red.xchg  9                    9
#   w+40  55           red.cas   55 -> 66 (swaps)     66
#   w+44  55           red.cas   54 -> 66 (no swap)   55
#   w+48  1            atom.min  0x80000000           0x80000000   1
#   w+52  0x80000000   atom.max  0x7fffffff           0x7fffffff   0x80000000
#@ threads: 1
#@ expect w: 0x80000000 0xfffffffb 3 0xcafef00d 200 100 1 0x80000000 5 9 66 55 0x80000000 0x7fffffff
#@ expect old: 0x7fffffff 0xfffffffb 3 0x12345678 100 100 1 0x80000000

        .text
        .global _start
_start:
        la      r2, w
        la      r9, old
        addi    r3, r2, 0
        movi    r4, 1
        atom.add r5, r3, r4
        stw     r5, 0(r9)
        addi    r3, r2, 4
        movi    r4, 3
        atom.min r5, r3, r4
        stw     r5, 4(r9)
        addi    r3, r2, 8
        movi    r4, -1
        atom.max r5, r3, r4
        stw     r5, 8(r9)
        addi    r3, r2, 12
        li      r4, 0xcafef00d
        atom.xchg r5, r3, r4
        stw     r5, 12(r9)
        addi    r3, r2, 16
        movi    r5, 100
        movi    r4, 200
        atom.cas r5, r3, r4
        stw     r5, 16(r9)
        addi    r3, r2, 20
        movi    r5, 101
        atom.cas r5, r3, r4
        stw     r5, 20(r9)
        addi    r3, r2, 24
        movi    r4, 2
        red.add r3, r4
        addi    r3, r2, 28
        movi    r4, 0
        red.min r3, r4
        addi    r3, r2, 32
        movi    r4, 5
        red.max r3, r4
        addi    r3, r2, 36
        movi    r4, 9
        red.xchg r3, r4
        addi    r3, r2, 40
        movi    r6, 55
        movi    r4, 66
        red.cas r6, r3, r4
        addi    r3, r2, 44
        movi    r6, 54
        red.cas r6, r3, r4
        addi    r3, r2, 48
        li      r4, 0x80000000
        atom.min r5, r3, r4
        stw     r5, 24(r9)
        addi    r3, r2, 52
        li      r4, 0x7fffffff
        atom.max r5, r3, r4
        stw     r5, 28(r9)
        exit

        .data
w:      .word 0x7fffffff, 0xfffffffb, 3, 0x12345678, 100, 100
        .word 0xffffffff, 0x80000000, 0xfffffff0, 7, 55, 55, 1, 0x80000000
old:    .space 32
