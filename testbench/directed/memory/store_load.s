# store_load.s -- a thread reads back what it just stored while the others' traffic
# keeps the reorder queue busy with row hits it would rather serve.
#
# Thread 0, 24 times: stores v = 1000 + 7 i to its word `w` (bank 0, row A), loads a
# word of row B of the same bank (a row conflict), loads `w` back and counts a
# difference from v as an error.  The store invalidates w's line, so the load misses and
# its fill goes to the port after the store: the queue must not let the fill overtake
# the store to the same line, however much it reorders around them.
# Threads 1..7, 24 times: invalidate and reload line (i mod 8) of their chunk in row B
# of bank 0 (dinv then ldw: a miss every time, all to the row the queue keeps open),
# summing word 0 of each line, and store the running sum into word 1 of that line.
#
# Expected: sums[0] = sum of v = 25932; sums[t] = 3 * sum_j (100 t + j) = 2400 t + 84
# for t > 0; errors[0] = 0; w = the last v = 1161.
#@ threads: 8
#@ expect sums: 25932 2484 4884 7284 9684 12084 14484 16884
#@ expect errors: 0
#@ expect w: 1161

N = 24
        .text
        .global _start
_start:
        rdsr    r1, tid
        la      r2, rowb
        shli    r3, r1, 8               # 256 t: thread t's chunk of row B
        add     r2, r2, r3
        movi    r4, 0                   # i
        movi    r5, 0                   # sum
        movi    r6, N
        bnz     r1, others
        la      r7, w
        movi    r8, 0                   # errors
        li      r9, 1000                # v
mine:   stw     r9, 0(r7)
        ldw     r10, 0(r2)              # row B, same bank: a conflict between the two
        ldw     r11, 0(r7)              # what was just stored
        sne     r12, r11, r9
        add     r8, r8, r12
        add     r5, r5, r11
        addi    r9, r9, 7
        addi    r4, r4, 1
        blt     r4, r6, mine
        la      r13, errors
        stw     r8, 0(r13)
        j       done
others: andi    r10, r4, 7
        shli    r10, r10, 5             # line (i mod 8) of the chunk
        add     r10, r2, r10
        dinv    0(r10)
        ldw     r11, 0(r10)             # a miss in row B every time
        add     r5, r5, r11
        stw     r5, 4(r10)
        addi    r4, r4, 1
        blt     r4, r6, others
done:   la      r13, sums
        shli    r14, r1, 2
        add     r13, r13, r14
        stw     r5, 0(r13)
        exit

        .data
sums:   .space 32
errors: .word 0xdead                    # overwritten with the count
        .align 16384
w:      .word 0                         # bank 0, row A
        .align 16384
rowb:                                   # bank 0, row A + 1
        # thread 0's chunk: word 0 of line j is 0 + j
        .word 0, 0, 0, 0, 0, 0, 0, 0
        .word 1, 0, 0, 0, 0, 0, 0, 0
        .word 2, 0, 0, 0, 0, 0, 0, 0
        .word 3, 0, 0, 0, 0, 0, 0, 0
        .word 4, 0, 0, 0, 0, 0, 0, 0
        .word 5, 0, 0, 0, 0, 0, 0, 0
        .word 6, 0, 0, 0, 0, 0, 0, 0
        .word 7, 0, 0, 0, 0, 0, 0, 0
        # thread 1's chunk: word 0 of line j is 100 + j
        .word 100, 0, 0, 0, 0, 0, 0, 0
        .word 101, 0, 0, 0, 0, 0, 0, 0
        .word 102, 0, 0, 0, 0, 0, 0, 0
        .word 103, 0, 0, 0, 0, 0, 0, 0
        .word 104, 0, 0, 0, 0, 0, 0, 0
        .word 105, 0, 0, 0, 0, 0, 0, 0
        .word 106, 0, 0, 0, 0, 0, 0, 0
        .word 107, 0, 0, 0, 0, 0, 0, 0
        # thread 2's chunk: word 0 of line j is 200 + j
        .word 200, 0, 0, 0, 0, 0, 0, 0
        .word 201, 0, 0, 0, 0, 0, 0, 0
        .word 202, 0, 0, 0, 0, 0, 0, 0
        .word 203, 0, 0, 0, 0, 0, 0, 0
        .word 204, 0, 0, 0, 0, 0, 0, 0
        .word 205, 0, 0, 0, 0, 0, 0, 0
        .word 206, 0, 0, 0, 0, 0, 0, 0
        .word 207, 0, 0, 0, 0, 0, 0, 0
        # thread 3's chunk: word 0 of line j is 300 + j
        .word 300, 0, 0, 0, 0, 0, 0, 0
        .word 301, 0, 0, 0, 0, 0, 0, 0
        .word 302, 0, 0, 0, 0, 0, 0, 0
        .word 303, 0, 0, 0, 0, 0, 0, 0
        .word 304, 0, 0, 0, 0, 0, 0, 0
        .word 305, 0, 0, 0, 0, 0, 0, 0
        .word 306, 0, 0, 0, 0, 0, 0, 0
        .word 307, 0, 0, 0, 0, 0, 0, 0
        # thread 4's chunk: word 0 of line j is 400 + j
        .word 400, 0, 0, 0, 0, 0, 0, 0
        .word 401, 0, 0, 0, 0, 0, 0, 0
        .word 402, 0, 0, 0, 0, 0, 0, 0
        .word 403, 0, 0, 0, 0, 0, 0, 0
        .word 404, 0, 0, 0, 0, 0, 0, 0
        .word 405, 0, 0, 0, 0, 0, 0, 0
        .word 406, 0, 0, 0, 0, 0, 0, 0
        .word 407, 0, 0, 0, 0, 0, 0, 0
        # thread 5's chunk: word 0 of line j is 500 + j
        .word 500, 0, 0, 0, 0, 0, 0, 0
        .word 501, 0, 0, 0, 0, 0, 0, 0
        .word 502, 0, 0, 0, 0, 0, 0, 0
        .word 503, 0, 0, 0, 0, 0, 0, 0
        .word 504, 0, 0, 0, 0, 0, 0, 0
        .word 505, 0, 0, 0, 0, 0, 0, 0
        .word 506, 0, 0, 0, 0, 0, 0, 0
        .word 507, 0, 0, 0, 0, 0, 0, 0
        # thread 6's chunk: word 0 of line j is 600 + j
        .word 600, 0, 0, 0, 0, 0, 0, 0
        .word 601, 0, 0, 0, 0, 0, 0, 0
        .word 602, 0, 0, 0, 0, 0, 0, 0
        .word 603, 0, 0, 0, 0, 0, 0, 0
        .word 604, 0, 0, 0, 0, 0, 0, 0
        .word 605, 0, 0, 0, 0, 0, 0, 0
        .word 606, 0, 0, 0, 0, 0, 0, 0
        .word 607, 0, 0, 0, 0, 0, 0, 0
        # thread 7's chunk: word 0 of line j is 700 + j
        .word 700, 0, 0, 0, 0, 0, 0, 0
        .word 701, 0, 0, 0, 0, 0, 0, 0
        .word 702, 0, 0, 0, 0, 0, 0, 0
        .word 703, 0, 0, 0, 0, 0, 0, 0
        .word 704, 0, 0, 0, 0, 0, 0, 0
        .word 705, 0, 0, 0, 0, 0, 0, 0
        .word 706, 0, 0, 0, 0, 0, 0, 0
        .word 707, 0, 0, 0, 0, 0, 0, 0
