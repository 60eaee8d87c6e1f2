# matmul.s -- integer matrix multiply, one output row per thread.
#
# C = A * B with A of M x K, B of K x P, all 32-bit integers, row-major, products and
# sums mod 2^32.  Row r of C goes to thread r mod T (T = domw): the thread walks the P
# columns of B, and for each forms the K-term dot product of A's row r with the column.
# Rows are independent, so no synchronization.  K must be at least 1.
#
# Memory (.data, origin 0x10000):
#   dims    3 words     M, K, P (input; 10, 12, 9 here)
#   mat_a   M*K words   A, row-major (input; values in -9..9)
#   mat_b   K*P words   B, row-major (input; values in -20..20)
#   mat_c   M*P words   C, row-major (output; room for 16 x 16)
# Registers: r1 launch index, r2 threads, r3 scratch, r4 M, r5 K, r6 P, r7 A, r8 B,
#            r9 C, r10 A row stride (bytes), r11 B/C row stride (bytes), r12 row,
#            r13 &A[row][0], r14 &C[row][j], r15 j, r16 &B[k][j], r17 &A[row][k],
#            r18 k left, r19 sum, r20/r21 factors.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, dims
        ldw     r4, 0(r3)               # M
        ldw     r5, 4(r3)               # K
        ldw     r6, 8(r3)               # P
        la      r7, mat_a
        la      r8, mat_b
        la      r9, mat_c
        shli    r10, r5, 2              # bytes per row of A
        shli    r11, r6, 2              # bytes per row of B and C
        mov     r12, r1                 # row = launch index
        j       rtest
row:
        mul     r13, r12, r10
        add     r13, r7, r13            # &A[row][0]
        mul     r14, r12, r11
        add     r14, r9, r14            # &C[row][0]
        movi    r15, 0                  # j = 0
col:
        shli    r16, r15, 2
        add     r16, r8, r16            # &B[0][j]
        mov     r17, r13                # &A[row][0]
        mov     r18, r5                 # K terms
        movi    r19, 0                  # sum = 0
kloop:
        ldw     r20, 0(r17)
        ldw     r21, 0(r16)
        mul     r20, r20, r21
        add     r19, r19, r20           # sum += A[row][k] * B[k][j]
        addi    r17, r17, 4             # next column of A
        add     r16, r16, r11           # next row of B
        addi    r18, r18, -1
        bnz     r18, kloop
        stw     r19, 0(r14)             # C[row][j] = sum
        addi    r14, r14, 4
        addi    r15, r15, 1
        blt     r15, r6, col
        add     r12, r12, r2            # next row of this thread
rtest:
        blt     r12, r4, row
        exit

        .data
dims:   .word   10, 12, 9
mat_a:
        .word   -1, 4, -6, 3, -8, 5, 0, 9, 5, 4, 0, -4
        .word   -7, 2, -7, 1, -6, 2, -7, -6, 3, -1, 2, 0
        .word   4, 3, 4, -2, 1, 1, -6, -6, 4, 4, -7, -2
        .word   5, -2, -9, -2, -8, 5, -2, -8, 3, -8, 3, -3
        .word   -1, -1, -6, 7, -4, 9, -6, 2, 4, 6, 1, 7
        .word   -3, -4, 0, 7, 3, 7, 6, 0, -4, -6, -3, -9
        .word   -2, -5, 1, -4, -3, 1, -4, -6, -1, -4, 2, -8
        .word   -3, -9, 1, 3, -3, -4, -2, -3, -6, 7, -9, -5
        .word   -1, -5, 7, -8, 8, -5, 8, 1, -2, 1, -2, 5
        .word   3, 7, 3, -4, 2, 4, 1, 2, -1, 5, 8, 0
mat_b:
        .word   -9, -5, -15, -14, 16, 9, -8, 8, 4, 1, 6, -18
        .word   -8, 12, -13, 15, -6, -9, -15, 20, 15, 1, 13, 17
        .word   -3, 15, -20, 20, -18, -1, 19, 4, 11, 5, -2, -16
        .word   9, 0, 6, 10, -2, 15, -3, -14, -9, 18, -13, -19
        .word   -8, -13, -3, -3, -10, 16, -8, -20, 9, -13, -10, 14
        .word   -13, -20, 11, 11, -5, -15, 16, -1, 3, -17, 11, 10
        .word   -3, -16, -2, -5, 19, 11, -11, 9, -2, -6, -8, 17
        .word   19, 10, -4, 19, -1, 11, 3, 9, -6, 15, -11, 11
        .word   17, -11, -10, -9, -1, -6, -3, -2, -14, -10, -11, -11
mat_c:  .space  16 * 16 * 4
