# memcpy.s -- copy a block of words, the threads splitting it line by line.
#
# Copies n words from src to dst.  The block is cut into 32-byte lines (8 words, the
# default data-cache line): line l goes to thread l mod T (T = domw, the number of
# threads launched), so neighbouring threads touch neighbouring lines at the same time,
# the access pattern a row-aware memory queue rewards.  Each line is moved with eight
# loads then eight stores, so a thread has several loads in flight before it needs the
# first value.  The n mod 8 words after the last whole line are again dealt out word by
# word, word w to thread w mod T.  The guard words around dst must stay untouched.
#
# Memory (.data, origin 0x10000):
#   n          1 word      number of words to copy (input, at most 320)
#   src        320 words   source block (input; 301 pseudo-random words)
#   guard_lo   1 word      0xdeadbeef, must survive
#   dst        320 words   destination (output)
#   guard_hi   1 word      0xdeadbeef, must survive
# Registers: r1 launch index, r2 threads launched, r3 address scratch, r4 n,
#            r5 whole lines, r6 src, r7 dst, r8 line/word index, r9 byte offset,
#            r10 source address, r11 destination address, r12-r19 the line's words.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, n
        ldw     r4, 0(r3)               # r4 = n words
        shri    r5, r4, 3               # r5 = whole lines
        la      r6, src
        la      r7, dst
        mov     r8, r1                  # first line of this thread
line:
        bgeu    r8, r5, tail            # no whole line left for this thread
        shli    r9, r8, 5               # 32 bytes per line
        add     r10, r6, r9
        add     r11, r7, r9
        ldw     r12, 0(r10)
        ldw     r13, 4(r10)
        ldw     r14, 8(r10)
        ldw     r15, 12(r10)
        ldw     r16, 16(r10)
        ldw     r17, 20(r10)
        ldw     r18, 24(r10)
        ldw     r19, 28(r10)
        stw     r12, 0(r11)
        stw     r13, 4(r11)
        stw     r14, 8(r11)
        stw     r15, 12(r11)
        stw     r16, 16(r11)
        stw     r17, 20(r11)
        stw     r18, 24(r11)
        stw     r19, 28(r11)
        add     r8, r8, r2              # next line of this thread
        j       line
tail:
        shli    r8, r5, 3               # first word after the whole lines
        add     r8, r8, r1              # ... plus this thread's share
tail_loop:
        bgeu    r8, r4, done
        shli    r9, r8, 2
        add     r10, r6, r9
        ldw     r12, 0(r10)
        add     r11, r7, r9
        stw     r12, 0(r11)
        add     r8, r8, r2
        j       tail_loop
done:
        exit

        .data
n:      .word   301
src:
        .word   0x551f4aed, 0x40cbf25f, 0xeaf286cc, 0xef2ba285, 0xa97f17f8, 0x2ef1d50f
        .word   0x802ce58e, 0x69a3ec78, 0x8ad7ac6a, 0x19c576fd, 0xcfee1b28, 0x83b4aa9a
        .word   0xff732e23, 0x78c0e10b, 0x3ca44b78, 0x140393cc, 0xcea71f03, 0x7f331818
        .word   0xee7a3660, 0xb05c1aec, 0x7d3adcea, 0x26d45d04, 0xca08b7be, 0xaf092edb
        .word   0x51b1a1b8, 0x22c3acae, 0x773c4774, 0x261f3a79, 0x51e9034d, 0xea1f3ff8
        .word   0x5b027960, 0xebc864a6, 0x4211f389, 0xb2340bc1, 0x9cb97d63, 0x9437d043
        .word   0xab5ac04c, 0x715340e8, 0x1f939f5e, 0x77245c2e, 0xd2b09376, 0xde748c4f
        .word   0x8b84c72f, 0xab43e348, 0xbd5772e7, 0x6e4996d5, 0x4668f8b8, 0x0541bc71
        .word   0x31cf407f, 0x5780455a, 0x7576d3d7, 0x1b33fa8a, 0xb5efba1e, 0x900e78bd
        .word   0x00c4146e, 0x435cec71, 0x8f95f9a4, 0xcd444de0, 0x8a4a125b, 0x93301d07
        .word   0xc41774f1, 0x86af1da2, 0x7cca4180, 0xe2a5d32c, 0x1b7c7de5, 0xf049bce2
        .word   0xfaecb1bb, 0xc53111c0, 0x1ac04260, 0x01e83c82, 0xebb08eee, 0x927e17a4
        .word   0x0615cc42, 0x6f74a961, 0xf462a0f7, 0x5f0c1fb6, 0xe757016a, 0xb1e14c5f
        .word   0x7cadcbb8, 0x02b3a0d7, 0x807a23ba, 0xfbcdaa5b, 0xa97b8f0f, 0x11780de7
        .word   0x5a49d111, 0x45914437, 0x611d86de, 0xe34655c7, 0xb949034f, 0x441896d2
        .word   0x4980eb03, 0x8dd4a355, 0xa4391054, 0x6ecadb0b, 0xc8290f5f, 0xe5ac5d72
        .word   0xe01e2a00, 0xfaf5c5c4, 0x041fe3d3, 0x810da6fe, 0xf5d3de33, 0xdc3bc7dc
        .word   0xe2d6743d, 0xb8eb9ed9, 0x263f96cd, 0xccb08e33, 0x097f687f, 0x9ee31fe4
        .word   0x7ccb19ae, 0x3ff081a8, 0xdf378477, 0x0b7f00fd, 0xbb6508b6, 0x6be8471d
        .word   0x89c62807, 0x9470d505, 0x6a9261c5, 0x47077f71, 0xeed5cf0d, 0x8fbc6adc
        .word   0xcfda7ebb, 0x87600783, 0xb4ac916b, 0x13838d62, 0xef1f1578, 0xa3d53835
        .word   0x408fa2ff, 0xf43d0378, 0x9187b7dc, 0xd0cae666, 0xb926d3ab, 0xca820ffc
        .word   0x3b0d53c7, 0x0416a2f6, 0x05fb0f4d, 0xea6ef1cf, 0x33a53319, 0xf596fac4
        .word   0xcae2ddc7, 0x6abb23d1, 0x7e9b7bb2, 0x196936b2, 0x6d83e2f7, 0x20dc1ce3
        .word   0xe2232f72, 0xa71e9b9f, 0x15405ebf, 0xa3a24fe3, 0xe7012c39, 0x94ee2a6b
        .word   0xa781acfd, 0x470fabb2, 0xd1bc2be7, 0x96a05ff5, 0xcbb8c593, 0x2492db30
        .word   0xa7d9445c, 0x2336751f, 0xe5f1bc5f, 0x0fda853d, 0x2e38e778, 0x7281dec8
        .word   0x1b8d4142, 0x9fc04cba, 0xee61631b, 0x772c8dcf, 0x55e1201d, 0x28c79085
        .word   0x2b206125, 0xeab4ef16, 0x37dcc0ce, 0xc216eb7f, 0xebefe776, 0x404cab7c
        .word   0x27aca737, 0x41b0b488, 0xf58cd7ee, 0xafc667e1, 0x4dedf336, 0x3d3afe81
        .word   0xcf7e706d, 0x2d290524, 0x8d34e0ad, 0x0c075848, 0xbf9fcad3, 0x71e9a027
        .word   0x8de1477a, 0xc2788cbe, 0xca165d00, 0xf0eb51c9, 0xb5131b7f, 0x3734e2c3
        .word   0xb8b078d4, 0xe0ed6ee9, 0x2992ec9a, 0xff74dd37, 0x0c0fcc2f, 0x37ef0869
        .word   0xd05c66ad, 0x7271bafb, 0x0f81e0f1, 0xab706b28, 0x4f78d196, 0xa55876ed
        .word   0xc58d1cf9, 0xb2f5e006, 0x0e3f9137, 0x6fc047ee, 0xf53cc229, 0x83a4ebe2
        .word   0x3004a56e, 0x6410a0de, 0x24d26e60, 0x13264f9e, 0x9e262a1d, 0xdc74709e
        .word   0x99af1b7e, 0x1886c819, 0xfca1d722, 0xec5b220c, 0x5a2a1f63, 0x08220e32
        .word   0xb138805e, 0x6abb9c09, 0x2dbe2bef, 0x194a56cb, 0xe3ef95b2, 0xec3f8175
        .word   0x97fd4f02, 0x42b092c3, 0x7729a2fc, 0xc8067130, 0xdfd7f27c, 0x38b12efa
        .word   0x1472d01e, 0x15edc61b, 0x0a3f5c3d, 0x710e544f, 0x209960f6, 0xa8645714
        .word   0xe082ae25, 0x237027a4, 0xc0263566, 0x17ae36fc, 0xe57d6614, 0x44a289d8
        .word   0xdb83494c, 0xb8e874b3, 0x5f95ddea, 0x8b0057ca, 0x1796348a, 0xa1a11b19
        .word   0x5622cb87, 0x6cd06a5c, 0xd986aafe, 0xa97f710f, 0x8e3340cb, 0x1fef166d
        .word   0x4922fc8a, 0x655b3973, 0x8d322b96, 0x99432cdd, 0x4aa2950c, 0x2bce3326
        .word   0x9b3a55c8, 0x91a6fa8b, 0x859e7c66, 0x11f99908, 0xbc64e541, 0x7b064859
        .word   0x5ebcd676, 0xed42a1fa, 0xb7afdbe1, 0x8f1d9b26, 0xfc64631e, 0x55a740da
        .word   0x11cf9788, 0xc209b3d2, 0x4593fe3c, 0xa0896489, 0x11385216, 0xca33cf3c
        .word   0xdefa1fb2, 0xe33037e7, 0xbdd3216b, 0x1dcca646, 0x2e215b5e, 0xf441e1d4
        .word   0xdb15f767, 0xf1196dcf, 0x5a86e121, 0x693f8531, 0xf0da21ea, 0x3dc1d6b6
        .word   0x4ae3fcdc, 0x991400dc, 0x4304cad4, 0xb60f4ddd, 0xa213966d, 0x9841afb6
        .word   0xd9fbf805
        .space  (320 - 301) * 4
guard_lo:
        .word   0xdeadbeef
dst:    .space  320 * 4
guard_hi:
        .word   0xdeadbeef
