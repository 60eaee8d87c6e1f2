# merge.s -- misses to one line from several threads, merged into one fill.
#
# All threads start together and load word t of line1 (thread t): one thread's miss
# starts the fill, the others find it in flight and merge; then word 7 - t of the same
# line (hits).  Then every thread loads the SAME word of line2 (merges on one word).
# Last, thread 0 stores 0x777 to word 0 of line3 while the others load words 1..7 of
# it: the store invalidates the line and marks any fill in flight no-allocate, the
# loads still get the words memory holds, and thread 0 reads its own store back.
#
# Expected, for thread t (out + 16 t, four words):
#   0x1100 + t, 0x1107 - t, 0x2200, and 0x777 (t = 0) or 0x3300 + t (t > 0)
#@ threads: 8
#@ expect out: 0x1100 0x1107 0x2200 0x777 0x1101 0x1106 0x2200 0x3301 0x1102 0x1105 0x2200 0x3302 0x1103 0x1104 0x2200 0x3303 0x1104 0x1103 0x2200 0x3304 0x1105 0x1102 0x2200 0x3305 0x1106 0x1101 0x2200 0x3306 0x1107 0x1100 0x2200 0x3307
#@ expect line3: 0x777

        .text
        .global _start
_start:
        rdsr    r1, tid
        shli    r2, r1, 2               # 4 t
        la      r3, line1
        add     r4, r3, r2
        ldw     r5, 0(r4)               # word t of line1: one miss, the rest merge
        movi    r6, 28
        sub     r6, r6, r2
        add     r6, r3, r6
        ldw     r6, 0(r6)               # word 7 - t: hits
        la      r7, line2
        ldw     r8, 0(r7)               # one word, every thread
        la      r9, line3
        bnz     r1, other
        movi    r10, 0x777
        stw     r10, 0(r9)              # thread 0: store into the line the others load
        ldw     r11, 0(r9)              # and read it back
        j       done
other:  add     r9, r9, r2
        ldw     r11, 0(r9)              # word t of line3
done:   la      r12, out
        shli    r13, r1, 4
        add     r12, r12, r13
        stw     r5, 0(r12)
        stw     r6, 4(r12)
        stw     r8, 8(r12)
        stw     r11, 12(r12)
        exit

        .data
out:    .space 128
        .align 2048
line1:  .word 0x1100, 0x1101, 0x1102, 0x1103, 0x1104, 0x1105, 0x1106, 0x1107
        .align 2048                     # each line in its own bank
line2:  .word 0x2200, 0x2201, 0x2202, 0x2203, 0x2204, 0x2205, 0x2206, 0x2207
        .align 2048
line3:  .word 0x3300, 0x3301, 0x3302, 0x3303, 0x3304, 0x3305, 0x3306, 0x3307
