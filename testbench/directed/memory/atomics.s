# atomics.s -- every atomic from every thread on ONE word, with an exact final value.
#
# The word x doubles as a lock: LOCKED (0x80000000, the most negative integer) means a
# thread holds it.  Each thread, in each of 8 rounds k:
#   acquire: atom.xchg old, x, LOCKED until old != LOCKED (a spinning thread only ever
#            swaps LOCKED for LOCKED);
#   while holding, operations that must leave x alone and return LOCKED:
#            red.min x, t+1 and atom.min (min(INT_MIN, n) = INT_MIN), red.cas and
#            atom.cas with a compare value that is not LOCKED (no swap), atom.add x, 0;
#   release: x = old + t + 1, written by the op k mod 8 -- red.xchg, atom.xchg, red.cas
#            (compare LOCKED: always swaps), atom.cas (the same), red.add and atom.add of
#            (new - LOCKED), red.max and atom.max (max(INT_MIN, new) = new);
# and counts every returned value that is not LOCKED while it holds x as an error.
# Every thread runs all ten atomics, and since each round adds t + 1 under the lock, x
# ends at 1000 + 8 * (1 + 2 + ... + T) whatever the interleaving.
#
# Expected (T = 8): x = 1000 + 8 * 36 = 1288; errors[t] = 0; rounds[t] = 8.
#@ threads: 8
#@ expect x: 1288
#@ expect errors: 0 0 0 0 0 0 0 0
#@ expect rounds: 8 8 8 8 8 8 8 8

ROUNDS = 8
        .text
        .global _start
_start:
        rdsr    r1, tid
        la      r2, x
        li      r3, 0x80000000          # LOCKED
        addi    r4, r1, 1               # this thread's increment
        movi    r5, 0                   # k
        movi    r6, 0                   # errors
        movi    r20, ROUNDS
round:
acquire:
        atom.xchg r7, r2, r3            # take x, leave LOCKED
        beq     r7, r3, acquire         # another thread holds it
        red.min r2, r4                  # no change while LOCKED
        atom.min r8, r2, r4
        sne     r8, r8, r3
        add     r6, r6, r8
        red.cas r4, r2, r0              # compare t+1: no swap
        mov     r8, r4
        atom.cas r8, r2, r0             # no swap either; returns LOCKED
        sne     r8, r8, r3
        add     r6, r6, r8
        atom.add r8, r2, r0             # add 0
        sne     r8, r8, r3
        add     r6, r6, r8
        add     r9, r7, r4              # the new value
        sub     r12, r9, r3             # new - LOCKED, for the adds
        andi    r10, r5, 7
        seqi    r11, r10, 0
        bnz     r11, rel0
        seqi    r11, r10, 1
        bnz     r11, rel1
        seqi    r11, r10, 2
        bnz     r11, rel2
        seqi    r11, r10, 3
        bnz     r11, rel3
        seqi    r11, r10, 4
        bnz     r11, rel4
        seqi    r11, r10, 5
        bnz     r11, rel5
        seqi    r11, r10, 6
        bnz     r11, rel6
        atom.max r8, r2, r9             # 7
        j       check
rel0:   red.xchg r2, r9
        j       next
rel1:   atom.xchg r8, r2, r9
        j       check
rel2:   red.cas r3, r2, r9              # compare LOCKED: swaps
        j       next
rel3:   mov     r8, r3
        atom.cas r8, r2, r9
        j       check
rel4:   red.add r2, r12
        j       next
rel5:   atom.add r8, r2, r12
        j       check
rel6:   red.max r2, r9
        j       next
check:  sne     r8, r8, r3              # a returning release must see LOCKED
        add     r6, r6, r8
next:   addi    r5, r5, 1
        blt     r5, r20, round
        shli    r13, r1, 2
        la      r14, errors
        add     r14, r14, r13
        stw     r6, 0(r14)
        la      r14, rounds
        add     r14, r14, r13
        stw     r5, 0(r14)
        exit

        .data
errors: .space 32
rounds: .space 32
        .align 64
x:      .word 1000
