# bitcount.s -- integer bit manipulation: shifts, and/or/xor, multiply-high.
#
# For each input word x[i] (i = 0..n-1, element i on thread i mod T, T = domw):
#   pop[i]   number of set bits, the SWAR way: pairs, nibbles, bytes, then one
#            multiply by 0x01010101 adds the four byte counts into the top byte
#   rev[i]   x with its 32 bits in reverse order: swap neighbours, pairs, nibbles,
#            bytes, then halves, each with a mask, two shifts and an or
#   clz[i]   leading zero bits (32 for 0), by a branch-free binary search: at each step
#            sltu says whether the top 16/8/4/2/1 bits are zero and the shift follows
#   div10[i] x / 10 unsigned, as mulhu(x, 0xcccccccd) >> 3 (exact for every x)
#   q16[i]   x times -1.375 in signed Q16.16 fixed point: the 64-bit product
#            x * 0xfffea000 (mulh for the high word, mul for the low) shifted right by
#            16, keeping the low 32 bits
# Memory (.data, origin 0x10000):
#   n                           1 word      elements (input, at most 64)
#   x                           64 words    inputs (48 here, the first six chosen
#                                           edge cases)
#   pop, rev, clz, div10, q16   64 words    results (output)
# Registers: r1 launch index, r2 threads, r3 n, r4 index, r5 x, r6 work, r7 scratch,
#            r8 0x55555555, r9 0x33333333, r10 0x0f0f0f0f, r11 0x00ff00ff,
#            r12 0x01010101, r13 0xcccccccd, r14 -1.375 in Q16.16, r15 byte offset,
#            r16 address, r17 count, r18 step constant, r19 x base, r20 pop base.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r16, n
        ldw     r3, 0(r16)
        li      r8, 0x55555555
        li      r9, 0x33333333
        li      r10, 0x0f0f0f0f
        li      r11, 0x00ff00ff
        li      r12, 0x01010101
        li      r13, 0xcccccccd
        li      r14, 0xfffea000         # -1.375 in Q16.16
        la      r19, x
        la      r20, pop
        mov     r4, r1                  # i = launch index
        j       test
elem:
        shli    r15, r4, 2
        add     r16, r19, r15
        ldw     r5, 0(r16)              # x
        add     r16, r20, r15           # &pop[i]; rev[i] is 256 bytes further

        # population count
        shri    r6, r5, 1
        and     r6, r6, r8
        sub     r6, r5, r6              # 2-bit counts
        shri    r7, r6, 2
        and     r7, r7, r9
        and     r6, r6, r9
        add     r6, r6, r7              # 4-bit counts
        shri    r7, r6, 4
        add     r6, r6, r7
        and     r6, r6, r10             # 8-bit counts
        mul     r6, r6, r12             # sum of the bytes in the top byte
        shri    r6, r6, 24
        stw     r6, 0(r16)

        # bit reversal
        shri    r6, r5, 1
        and     r6, r6, r8
        and     r7, r5, r8
        shli    r7, r7, 1
        or      r6, r6, r7              # swap neighbouring bits
        shri    r7, r6, 2
        and     r7, r7, r9
        and     r6, r6, r9
        shli    r6, r6, 2
        or      r6, r6, r7              # swap pairs
        shri    r7, r6, 4
        and     r7, r7, r10
        and     r6, r6, r10
        shli    r6, r6, 4
        or      r6, r6, r7              # swap nibbles
        shri    r7, r6, 8
        and     r7, r7, r11
        and     r6, r6, r11
        shli    r6, r6, 8
        or      r6, r6, r7              # swap bytes
        shri    r7, r6, 16
        shli    r6, r6, 16
        or      r6, r6, r7              # swap halves
        stw     r6, 256(r16)

        # count leading zeros
        mov     r6, r5
        movi    r17, 0
        li      r18, 0x00010000
        sltu    r7, r6, r18             # top 16 bits clear?
        shli    r7, r7, 4
        add     r17, r17, r7
        shl     r6, r6, r7
        li      r18, 0x01000000
        sltu    r7, r6, r18             # top 8 bits clear?
        shli    r7, r7, 3
        add     r17, r17, r7
        shl     r6, r6, r7
        li      r18, 0x10000000
        sltu    r7, r6, r18             # top 4 bits clear?
        shli    r7, r7, 2
        add     r17, r17, r7
        shl     r6, r6, r7
        li      r18, 0x40000000
        sltu    r7, r6, r18             # top 2 bits clear?
        shli    r7, r7, 1
        add     r17, r17, r7
        shl     r6, r6, r7
        li      r18, 0x80000000
        sltu    r7, r6, r18             # top bit clear?
        add     r17, r17, r7
        seq     r7, r5, r0              # x = 0: one more
        add     r17, r17, r7
        la      r7, clz
        add     r7, r7, r15
        stw     r17, 0(r7)

        # unsigned divide by 10
        mulhu   r6, r5, r13
        shri    r6, r6, 3
        la      r7, div10
        add     r7, r7, r15
        stw     r6, 0(r7)

        # Q16.16 multiply: (x * c) >> 16 of the 64-bit signed product
        mulh    r6, r5, r14
        mul     r7, r5, r14
        shli    r6, r6, 16
        shri    r7, r7, 16
        or      r6, r6, r7
        la      r7, q16
        add     r7, r7, r15
        stw     r6, 0(r7)

        add     r4, r4, r2              # next element of this thread
test:
        bltu    r4, r3, elem
        exit

        .data
n:      .word   48
x:      .word   0, 0xffffffff, 1, 0x80000000, 0x7fffffff, 0x12345678
        .word   0xb4114b09, 0xa6cf37b2, 0x609dc11c, 0x8b65d239, 0x2c7243e9, 0xc1c0fcd8
        .word   0xe051c45d, 0xb6f9205b, 0x00757623, 0xf2c38650, 0x8c39bba9, 0xdd13e501
        .word   0xbea49219, 0x7757ab7b, 0xd0ee7d60, 0x1ed02d8a, 0xb489542a, 0x4c73efba
        .word   0xdb558be2, 0x58039356, 0xf02d64b5, 0x3140c26b, 0x9b82b58f, 0x28545bc5
        .word   0x4085181c, 0xa46dfeef, 0xbebf74c7, 0xec00f837, 0x323d0ebd, 0xe2564ca7
        .word   0xb37a8fea, 0xc3d3660b, 0x142514fa, 0xeae6bef1, 0xa6679958, 0x8b034ea3
        .word   0xf401a331, 0x783e952e, 0x86992f71, 0xe1b0475e, 0x9f6b5dc4, 0x0d33dabf
        .space  (64 - 48) * 4
pop:    .space  64 * 4
rev:    .space  64 * 4
clz:    .space  64 * 4
div10:  .space  64 * 4
q16:    .space  64 * 4
