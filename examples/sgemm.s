# sgemm.s -- FP32 matrix multiply with 4x4 register blocking, one output block at a
# time per thread (the data-parallel VM paper's dense matrix multiply, Segal and
# Peercy 2006: "all 4 outputs ... 4x4 blocking").
#
# C = A * B with A of M x K, B of K x N, C of M x N, binary32.  M and N must be
# multiples of 4 (K any, 0 included).  A is stored column-major (A[i][k] at word
# k*M + i), B and C row-major (B[k][j] at k*N + j), so the four A values and the four
# B values a step needs are neighbouring words, each read with a constant offset from
# one pointer.  The output is cut into 4x4 blocks q = bi * (N/4) + bj; block q goes to
# work item q mod domw (starting at lx, striding by domw: a thread launch or a domain
# launch of any width), so the blocks are independent and no thread waits for another.
#
# A block keeps its 16 sums in registers for the whole K loop: every step loads 4 B
# values and, one at a time, 4 A values, and after each A value issues the 4 fmadds of
# that row, so 8 loads feed 16 fmadds (a 1x1 block would need 2 loads per fmadd).  The
# sums start at +0 and, for k = 0, 1, ..., K-1 in order, take
#     c[r][s] = fmadd: c[r][s] + A[4bi+r][k] * B[k][4bj+s]     (not fused: isa.md)
# which is the order the C++ reference follows, so the bits match.  Only r1..r31 are
# used, so the FPGA configurations (32 registers) run it too.
#
# Memory (.data, origin 0x10000; the defaults fit the HX8K's 4 KiB):
#   dims    M, K, N              (input; 16, 8, 16 here)
#   ptrs    A, B, C addresses    (input; mat_a, mat_b, mat_c here: a bench points them
#                                 at larger matrices elsewhere in memory)
#   mat_a   M*K floats, column-major;  mat_b  K*N floats;  mat_c  M*N floats (output)
# Registers: r1 bj, r2 domw, r3 &A[4bi][k] (then &C row), r4 &B[k][4bj], r5 k left,
#            r6 M*4 (A's column stride), r7 N*4 (B's and C's row stride), r8 N/4,
#            r9 an A value (and scratch), r10-r25 the sums c[0][0..3] .. c[3][0..3],
#            r26-r29 B[k][4bj..4bj+3], r30 bi, r31 M/4.

        .text
_start:
        rdsr    r1, lx                  # block q = lx: bi = 0, bj = q until normalized
        rdsr    r2, domw
        movi    r30, 0
        la      r9, dims
        ldw     r31, 0(r9)
        shri    r31, r31, 2             # M / 4
        ldw     r8, 8(r9)
        shri    r8, r8, 2               # N / 4
        bz      r8, done                # no block columns: nothing to compute
norm:   bltu    r1, r8, check           # bj >= N/4: carry into bi
        sub     r1, r1, r8
        addi    r30, r30, 1
        j       norm
check:  bgeu    r30, r31, done          # past the last block row
        la      r9, dims
        ldw     r5, 4(r9)               # K
        ldw     r6, 0(r9)
        shli    r6, r6, 2               # M * 4
        ldw     r7, 8(r9)
        shli    r7, r7, 2               # N * 4
        ldw     r3, 12(r9)              # A
        shli    r4, r30, 4
        add     r3, r3, r4              # &A[4bi][0]
        ldw     r4, 16(r9)              # B
        shli    r9, r1, 4
        add     r4, r4, r9              # &B[0][4bj]
        mov     r10, r0
        mov     r11, r0
        mov     r12, r0
        mov     r13, r0
        mov     r14, r0
        mov     r15, r0
        mov     r16, r0
        mov     r17, r0
        mov     r18, r0
        mov     r19, r0
        mov     r20, r0
        mov     r21, r0
        mov     r22, r0
        mov     r23, r0
        mov     r24, r0
        mov     r25, r0
        bz      r5, store
kloop:
        ldw     r26, 0(r4)              # B[k][4bj .. 4bj+3]
        ldw     r27, 4(r4)
        ldw     r28, 8(r4)
        ldw     r29, 12(r4)
        ldw     r9, 0(r3)               # A[4bi][k]
        fmadd   r10, r9, r26
        fmadd   r11, r9, r27
        fmadd   r12, r9, r28
        fmadd   r13, r9, r29
        ldw     r9, 4(r3)               # A[4bi+1][k]
        fmadd   r14, r9, r26
        fmadd   r15, r9, r27
        fmadd   r16, r9, r28
        fmadd   r17, r9, r29
        ldw     r9, 8(r3)               # A[4bi+2][k]
        fmadd   r18, r9, r26
        fmadd   r19, r9, r27
        fmadd   r20, r9, r28
        fmadd   r21, r9, r29
        ldw     r9, 12(r3)              # A[4bi+3][k]
        fmadd   r22, r9, r26
        fmadd   r23, r9, r27
        fmadd   r24, r9, r28
        fmadd   r25, r9, r29
        add     r3, r3, r6              # next column of A
        add     r4, r4, r7              # next row of B
        addi    r5, r5, -1
        bnz     r5, kloop
store:
        la      r9, dims
        ldw     r3, 20(r9)              # C
        mul     r9, r30, r7
        shli    r9, r9, 2               # 4bi rows of N*4 bytes
        add     r3, r3, r9
        shli    r9, r1, 4
        add     r3, r3, r9              # &C[4bi][4bj]
        stw     r10, 0(r3)
        stw     r11, 4(r3)
        stw     r12, 8(r3)
        stw     r13, 12(r3)
        add     r3, r3, r7
        stw     r14, 0(r3)
        stw     r15, 4(r3)
        stw     r16, 8(r3)
        stw     r17, 12(r3)
        add     r3, r3, r7
        stw     r18, 0(r3)
        stw     r19, 4(r3)
        stw     r20, 8(r3)
        stw     r21, 12(r3)
        add     r3, r3, r7
        stw     r22, 0(r3)
        stw     r23, 4(r3)
        stw     r24, 8(r3)
        stw     r25, 12(r3)
        add     r1, r1, r2              # this work item's next block
        j       norm
done:
        exit

        .data
dims:   .word   16, 8, 16               # M, K, N
ptrs:   .word   mat_a, mat_b, mat_c
mat_a:    .float  -1.2, -1.1, 0, 1.3, -0.3, 1.7, -1.4, -1.9375
          .float  1.9375, -1.8125, 1.9375, -0.125, -1.5, -0.6875, 1, -1.5
          .float  -1.4375, -1.2, 0.8, 1.1, 1.0625, 1.625, -1.8, -1.3
          .float  1.5, -1.4375, -0.4375, -2, -0.25, -0.625, -1.375, -0.625
          .float  1.875, -2, 1.2, -1, 1.4, 1.5, -1.7, 1.3
          .float  -0.3, -1, 1.8125, -1.25, -1.375, 0.2, 0.4, 1.625
          .float  0.9375, 1.4, 1.625, 0.4375, 1.375, 0.6, -1.8125, -1.1875
          .float  -1.25, 1.3, 1.5, -0.5, -0.7, 0.0625, 1.4, 0.5
          .float  -0.5, 1.5, -0.375, -2, 0.2, 1.6, -0.4375, 0.875
          .float  -0.6875, 0.5625, -0.2, 1.0625, 1, -1.7, 0.4, 0.75
          .float  -0.9375, -1.2, 1.1, 0.625, -1.125, -1.3125, 0.25, 1.8
          .float  0.625, 2, 1.375, -1.0625, 1.6, -1.6875, 0.7, 1
          .float  -1.4375, 1.6, -0.8125, 1.875, -0.5, 0.9375, 1.75, 1.1
          .float  0.3, 1.2, 1.375, -1.6875, 0.125, -2, -1.8, -0.2
          .float  0.25, 0, 1.1, 0.6, 0.1, 1.9375, 0.3, -0.5625
          .float  0.3125, 1.0625, -0.7, 1.9, -1.5, -0.625, 0.1875, -0.9375
mat_b:    .float  -1.9375, 1.6875, 0.6, 1.9, 1.25, 0.6875, -1.5625, -0.125
          .float  1.9, -1.4375, -0.5625, 0.3, 1.6, -0.4375, -0.0625, -1.2
          .float  -1, -2, 0, -1.5625, 1.875, 1.0625, -1.3125, 1.8
          .float  0.1875, 0.9375, 0.5, 0.3125, 1.5, 1.3, 0, 1.8
          .float  1.2, -1.4375, 1.9375, -0.8, -1.1, 0.8, -1, 2
          .float  -0.3125, -0.0625, 1.9, -0.5, 1, 1.4375, -1.25, -1.5
          .float  0.5625, 1.2, -0.5625, -0.75, 0.7, -0.9, -0.875, 0.2
          .float  1.8, 0.4, 0.5, -1.0625, 1, 0.1, 1.7, -0.1
          .float  -1.8, -1.9375, -0.8, -1.4, 1.25, 1.625, -1.9, -0.7
          .float  -1.0625, 1.2, -1.125, 1.375, -1.8125, 1.5, -1.9, -1.8125
          .float  0.9, -1.9, -0.1, 0.9375, 1.5, 1.25, -1.875, 0.875
          .float  0.5, 1.5625, -0.8125, -1, 0.875, 1.6, 1.5, 1.3
          .float  0.75, 0.125, -0.5, -0.5625, -1.125, 1.9, -1.9, 1.25
          .float  -1.6, -0.625, -1.4, -1.8125, -0.125, 1.4, -1.1875, 1
          .float  2, 0.8, -1.7, -1, -0.9375, 0.2, 1.625, -1
          .float  0.7, -0.0625, 0.4, 2, -1.1, -0.6, 0.25, -1.5
mat_c:  .space  16 * 16 * 4
