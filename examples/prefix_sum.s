# prefix_sum.s -- inclusive prefix sum, threads in contiguous blocks, a barrier made of
# an atomic counter.
#
# output[i] = input[0] + ... + input[i]  (mod 2^32), for i < n.
# The array is cut into T contiguous blocks of ceil(n / T) elements (T = domw; the
# quotient by repeated subtraction, as there is no divide), block t for thread t.
#   1. each thread sums its block into block_sum[t], makes the store visible (dflush)
#      and counts itself in `arrived` with red.add;
#   2. barrier: it spins, re-reading `arrived` from memory (dinv drops the cached
#      line each time), until all T threads have arrived;
#   3. it adds block_sum[0..t-1] (after dinvall) to get the total before its block,
#      and writes the running sums of its block from there.
# The barrier is the interesting part: a model whose cache returns a stale `arrived`
# spins until the instruction limit stops it, and a model that lets a load overtake
# the earlier stores gives wrong sums.
#
# Memory (.data, origin 0x10000):
#   n          1 word     elements (input, at most 256)
#   input      256 words  the elements (input; 200 values in -1000..1000)
#   output     256 words  inclusive prefix sums (output)
#   block_sum  128 words  sum of each thread's block (output; at most 128 threads: a
#                         thread launch of 16 on each of 8 cores)
#   arrived    1 word     ends equal to T (output)
# Registers: r1 launch index, r2 threads, r3 scratch, r4 n, r5 dividend, r6 block
#            size, r7 begin, r8 end, r9 input, r10 output, r11 begin offset,
#            r12 input pointer, r13 &input[end], r14 sum, r15 element, r16 block_sum,
#            r17 &block_sum[k], r18 arrived, r19 count, r20 k, r21 output pointer.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, n
        ldw     r4, 0(r3)               # n
        add     r5, r4, r2
        addi    r5, r5, -1              # n + T - 1
        movi    r6, 0                   # block = (n + T - 1) / T
div:
        bltu    r5, r2, div_done
        sub     r5, r5, r2
        addi    r6, r6, 1
        j       div
div_done:
        mul     r7, r1, r6              # begin = t * block
        add     r8, r7, r6              # end = begin + block
        minu    r7, r7, r4              # both clipped to n
        minu    r8, r8, r4
        la      r9, input
        la      r10, output
        shli    r11, r7, 2
        add     r12, r9, r11            # &input[begin]
        shli    r13, r8, 2
        add     r13, r9, r13            # &input[end]

        movi    r14, 0                  # 1. sum of the block
        j       sum_test
sum_loop:
        ldw     r15, 0(r12)
        add     r14, r14, r15
        addi    r12, r12, 4
sum_test:
        bltu    r12, r13, sum_loop
        la      r16, block_sum
        shli    r17, r1, 2
        add     r17, r16, r17
        stw     r14, 0(r17)             # block_sum[t]
        dflush                          # in memory before we count ourselves
        la      r18, arrived
        movi    r19, 1
        red.add r18, r19                # arrived += 1

wait:                                   # 2. barrier: until arrived == T
        dinv    0(r18)
        ldw     r19, 0(r18)
        bltu    r19, r2, wait

        dinvall                         # 3. total before this block
        movi    r14, 0
        movi    r20, 0
        j       off_test
off_loop:
        shli    r17, r20, 2
        add     r17, r16, r17
        ldw     r15, 0(r17)
        add     r14, r14, r15
        addi    r20, r20, 1
off_test:
        bltu    r20, r1, off_loop
        add     r12, r9, r11            # &input[begin]
        add     r21, r10, r11           # &output[begin]
        j       scan_test
scan_loop:
        ldw     r15, 0(r12)
        add     r14, r14, r15
        stw     r14, 0(r21)             # output[i] = running sum
        addi    r12, r12, 4
        addi    r21, r21, 4
scan_test:
        bltu    r12, r13, scan_loop
        exit

        .data
n:      .word   200
input:
        .word   68, 593, -18, -786, 866, -111, 186, 27, 60, 345, 478, -304
        .word   828, -975, -520, -586, -445, -764, 400, -278, 331, -519, 843, -245
        .word   429, 173, -973, -797, -29, 148, -225, 672, -102, -520, -530, -875
        .word   -212, 420, 284, -826, 614, -163, -716, -234, 394, 609, 650, 664
        .word   -945, 403, -181, -476, -761, -625, 272, -151, -906, 151, 135, -788
        .word   883, -971, -749, -194, -796, 878, -664, -391, -432, -469, -781, 301
        .word   -654, -221, -34, 480, 975, -650, 886, 901, 146, 852, -177, -804
        .word   -891, -974, -480, 538, -575, -478, 164, 645, 364, 936, 657, 337
        .word   -129, 124, 996, 588, -944, 72, 870, -917, 701, 86, 266, 958
        .word   973, -131, 968, 117, 978, -201, 795, 279, 206, -608, -253, 181
        .word   -906, -129, -383, -802, 357, 386, 671, 58, -935, 730, 554, -27
        .word   522, 852, 921, 148, -344, 90, -135, -446, -213, 666, -938, -174
        .word   156, -199, 977, 299, 47, -942, -914, 85, -526, 872, 105, -531
        .word   140, -888, -297, 461, -419, -120, -701, -339, 975, -682, -462, -101
        .word   -95, -945, 380, -974, -516, -705, -596, -422, -925, -575, -547, 276
        .word   -610, 412, 981, 170, 316, 292, 0, -39, 146, 570, 723, 896
        .word   -502, -396, 374, -464, 343, 48, 692, 184
        .space  (256 - 200) * 4
output: .space  256 * 4
block_sum:
        .space  128 * 4
arrived:
        .word   0
