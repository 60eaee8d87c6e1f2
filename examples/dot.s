# dot.s -- FP32 dot product: per-thread partial sums with fmadd, then one combine.
#
# Computes  result = sum over i of a[i] * b[i]  in binary32, with Umbra's FP rules.
# Element i goes to thread t = i mod T (T = domw); each thread accumulates its
# elements in increasing i with fmadd (not fused: the product is rounded, then added),
# starting from +0.0, and stores its partial sum to partial[t].  Then it makes the
# store visible (dflush) and announces itself with atom.add on the arrival counter.
# The thread that gets back T-1 is the last one: every partial is in memory, so it
# drops any stale cached lines (dinvall) and adds partial[0] + partial[1] + ... +
# partial[T-1] in that order.  No barrier and no spinning: whoever finishes last does
# the combine.  The float result depends on T (the summation order does), and the
# test's reference follows the same order, so it matches bit for bit.
#
# Memory (.data, origin 0x10000):
#   n        1 word     number of elements (input, at most 128)
#   a, b     128 words  the vectors, binary32 (input; 100 values each)
#   partial  128 words  partial sum of thread t (output; at most 128 threads: a thread
#                       launch of 16 on each of 8 cores)
#   arrived  1 word     arrival counter, ends equal to T (output)
#   result   1 word     the dot product (output)
# Registers: r1 launch index, r2 threads, r3 scratch, r4 n, r5 a, r6 b, r7 partial
#            sum, r8 index, r9 stride in bytes, r10 offset, r11 &a[i], r12 &b[i],
#            r13 a[i], r14 b[i], r15 partial, r16 &partial[k], r17 arrived,
#            r18 arrival order, r19 T-1, r20 total, r21 partial[k].

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, n
        ldw     r4, 0(r3)               # r4 = n
        la      r5, a
        la      r6, b
        movi    r7, 0                   # partial = +0.0
        mov     r8, r1                  # i = launch index
        shli    r9, r2, 2               # stride: T words
        shli    r10, r1, 2
        add     r11, r5, r10            # &a[i]
        add     r12, r6, r10            # &b[i]
        j       test
loop:
        ldw     r13, 0(r11)
        ldw     r14, 0(r12)
        fmadd   r7, r13, r14            # partial = round(a[i] * b[i]) + partial
        add     r11, r11, r9
        add     r12, r12, r9
        add     r8, r8, r2
test:
        blt     r8, r4, loop

        la      r15, partial            # publish: partial[t] = partial sum
        shli    r10, r1, 2
        add     r16, r15, r10
        stw     r7, 0(r16)
        dflush                          # the partial is in memory before we announce
        la      r17, arrived
        movi    r18, 1
        atom.add r18, r17, r18          # r18 = threads that arrived before this one
        addi    r19, r2, -1
        bne     r18, r19, done          # not the last one: finished

        dinvall                         # last one: read the partials from memory
        ldw     r20, 0(r15)             # total = partial[0]
        movi    r8, 1
        j       ctest
cloop:
        shli    r10, r8, 2
        add     r16, r15, r10
        ldw     r21, 0(r16)
        fadd    r20, r20, r21           # total = total + partial[k]
        addi    r8, r8, 1
ctest:
        blt     r8, r2, cloop
        la      r3, result
        stw     r20, 0(r3)
done:
        exit

        .data
n:      .word   100
a:
        .float  2.2504, 1.2396, 3.1104, -3.8980, 2.9868, 1.9412, 1.7580, -1.3280
        .float  -1.4192, 2.1516, -3.8688, 3.1580, 0.7528, 1.2056, 3.0720, -0.7252
        .float  3.1284, -3.7904, -0.3072, 0.3176, -3.9372, 0.9820, 2.2808, -3.4928
        .float  2.6404, 0.9836, 1.1576, -2.3396, -2.9940, 3.5032, 2.9692, 3.7988
        .float  2.2856, -2.1960, 2.3948, -2.9856, 1.9084, -0.6848, 3.5288, -0.6204
        .float  -0.1860, -0.4420, 0.4936, 1.9032, -1.6396, -0.8352, 1.5644, 0.8832
        .float  -1.0112, -2.4044, 3.8380, -1.3112, 3.0856, -1.1484, -3.4972, -2.3012
        .float  1.2492, 0.1528, -2.3764, -0.3000, -2.9252, -2.9496, -0.8452, -2.3460
        .float  0.3524, -3.5600, -3.6108, -3.5468, 0.4040, 3.4904, 3.8768, 1.9992
        .float  3.9400, 2.7976, 0.8900, 3.9636, -1.9704, 0.5068, -1.7560, -0.5292
        .float  0.6388, 1.0660, -3.8152, -3.7520, 3.8148, -3.9440, 1.4684, -3.7444
        .float  -3.0172, 2.6180, 0.9684, -0.1824, 0.9260, -2.6528, -0.0280, 1.7892
        .float  -3.0324, -3.3352, 2.4612, 2.7100
        .space  (128 - 100) * 4
b:
        .float  -1.5936, 0.6776, 3.2608, -3.0684, -2.9740, -3.0860, -1.7532, 0.9492
        .float  2.8312, -0.5664, 1.4260, -3.5340, 2.6744, 1.6680, -0.4480, -2.5520
        .float  -2.9020, -0.8304, -0.0556, -2.9860, 2.5908, -0.0352, 3.1892, 1.0328
        .float  0.0376, 3.2236, -2.2620, -2.6884, -3.1520, 3.0252, 0.5136, -3.8636
        .float  0.1808, -2.8208, -0.6232, -0.9296, -0.0360, 3.0120, -1.3668, -1.4172
        .float  2.3564, 3.6368, -0.9988, -2.6784, -0.3264, -1.2868, -1.1860, -1.8392
        .float  1.4568, -3.0212, -2.8196, 1.3372, -1.5848, 2.7280, -2.3812, 2.3288
        .float  3.3176, -3.1972, -2.3900, 3.2892, 2.3272, 1.0528, -3.7064, 2.8408
        .float  1.8680, -0.5104, 0.4572, -2.9236, 2.8708, -3.2760, -2.7092, 1.3540
        .float  -2.4612, -1.0084, 3.8924, 0.8884, -2.4400, -3.5852, -3.3692, 0.9196
        .float  3.9428, -1.4900, 2.2072, -3.1636, 1.8092, -1.1208, -0.1892, -3.2580
        .float  2.7660, -1.3616, -2.7180, 0.1776, -3.3032, 2.0044, -3.5500, 1.9228
        .float  3.9792, -3.9532, 2.9888, -1.6992
        .space  (128 - 100) * 4
partial:
        .space  128 * 4
arrived:
        .word   0
result: .word   0
