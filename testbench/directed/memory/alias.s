# alias.s -- stores and loads to addresses that alias in the DRAM map.
#
# Four lines: a (bank 0, row r), b = a + 2048 (bank 1, same row number, same column),
# c = a + 16384 (bank 0, row r + 1, same column), d = a + 34816 (bank 1, row r + 2).
# Thread t owns word t of each line (so the lines are shared, the words are not).  In
# each of 6 rounds, with v = 256 t + 4 k, it stores v to a, v+1 to c, loads a, stores
# v+2 to b, loads c, stores v+3 to d, loads b, d and a again, and counts every load
# that does not return the value stored last.  Row conflicts (a/c/d in banks 0 and 1)
# and false sharing (eight threads' stores invalidating one line) both happen; then
# after a dinvall every word is read once more.
#
# Expected: errors[t] = 0; a[t] = 256 t + 20, b[t] = +2, c[t] = +1, d[t] = +3.
#@ threads: 8
#@ expect errors: 0 0 0 0 0 0 0 0
#@ expect a: 20 276 532 788 1044 1300 1556 1812
#@ expect b: 22 278 534 790 1046 1302 1558 1814
#@ expect c: 21 277 533 789 1045 1301 1557 1813
#@ expect d: 23 279 535 791 1047 1303 1559 1815

ROUNDS = 6
        .text
        .global _start
_start:
        rdsr    r1, tid
        shli    r2, r1, 2               # word t
        la      r3, a
        add     r3, r3, r2
        la      r4, b
        add     r4, r4, r2
        la      r5, c
        add     r5, r5, r2
        la      r6, d
        add     r6, r6, r2
        shli    r7, r1, 8               # v = 256 t
        movi    r8, 0                   # errors
        movi    r9, 0                   # k
        movi    r10, ROUNDS
round:  addi    r11, r7, 1
        addi    r12, r7, 2
        addi    r13, r7, 3
        stw     r7, 0(r3)               # a = v
        stw     r11, 0(r5)              # c = v + 1 (same bank, next row)
        ldw     r14, 0(r3)
        sne     r14, r14, r7
        add     r8, r8, r14
        stw     r12, 0(r4)              # b = v + 2 (next bank)
        ldw     r14, 0(r5)
        sne     r14, r14, r11
        add     r8, r8, r14
        stw     r13, 0(r6)              # d = v + 3
        ldw     r14, 0(r4)
        sne     r14, r14, r12
        add     r8, r8, r14
        ldw     r14, 0(r6)
        sne     r14, r14, r13
        add     r8, r8, r14
        ldw     r14, 0(r3)
        sne     r14, r14, r7
        add     r8, r8, r14
        addi    r9, r9, 1
        bge     r9, r10, last
        addi    r7, r7, 4
        j       round
last:   dinvall                         # everything from memory once more
        ldw     r14, 0(r3)
        sne     r14, r14, r7
        add     r8, r8, r14
        ldw     r14, 0(r5)
        sne     r14, r14, r11
        add     r8, r8, r14
        ldw     r14, 0(r4)
        sne     r14, r14, r12
        add     r8, r8, r14
        ldw     r14, 0(r6)
        sne     r14, r14, r13
        add     r8, r8, r14
        la      r15, errors
        add     r15, r15, r2
        stw     r8, 0(r15)
        exit

        .data
errors: .space 32
        .align 16384
a:      .space 32                       # bank 0, row r
        .align 2048
b:      .space 32                       # bank 1, row r
        .align 16384
c:      .space 32                       # bank 0, row r + 1
        .space 16384 + 2048 - 32
d:      .space 32                       # bank 1, row r + 2
