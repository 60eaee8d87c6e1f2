# combine.s -- stores combined into line writes (cache.line_port; docs/memory-system.md,
# "The line port") keep every promise a store made as a word: program order with the
# thread's own loads and atomics to the line, visibility after dflush, and the other
# threads' stores to the same line.  On a word port it is an ordinary store test.
#
# Grid: thread t stores t*16 + i into word t of line i of `grid`, i = 0..15, so the
# eight threads' stores to one line arrive interleaved and may join one wline; it then
# loads word t of line 15 back (its own store must be seen: the fill goes behind the
# wline) and counts a mismatch in errors[t].
# Mix: line `mix` holds the counter (word 0) that every thread adds 1 to with atom.add
# and words 1..7 that thread t >= 1 stores 100 + t to before the atomic and 200 + t
# after it: the later store is never combined into the wline ahead of the atomic.
# Hand-off: thread 0 stores 11..18 into `msg`, dflush, then sets `flag` with atom.add;
# thread 1 waits for the flag (atom.add of 0), invalidates msg's line and sums it.
#
# Expected: grid[i*8 + t] = 16 t + i; errors all 0; mix = 8, 201..207; got = 116.
#@ threads: 8
#@ expect grid+0: 0 16 32 48 64 80 96 112
#@ expect grid+32: 1 17 33 49 65 81 97 113
#@ expect grid+64: 2 18 34 50 66 82 98 114
#@ expect grid+96: 3 19 35 51 67 83 99 115
#@ expect grid+128: 4 20 36 52 68 84 100 116
#@ expect grid+160: 5 21 37 53 69 85 101 117
#@ expect grid+192: 6 22 38 54 70 86 102 118
#@ expect grid+224: 7 23 39 55 71 87 103 119
#@ expect grid+256: 8 24 40 56 72 88 104 120
#@ expect grid+288: 9 25 41 57 73 89 105 121
#@ expect grid+320: 10 26 42 58 74 90 106 122
#@ expect grid+352: 11 27 43 59 75 91 107 123
#@ expect grid+384: 12 28 44 60 76 92 108 124
#@ expect grid+416: 13 29 45 61 77 93 109 125
#@ expect grid+448: 14 30 46 62 78 94 110 126
#@ expect grid+480: 15 31 47 63 79 95 111 127
#@ expect errors: 0 0 0 0 0 0 0 0
#@ expect mix: 8 201 202 203 204 205 206 207
#@ expect got: 116

        .text
        .global _start
_start:
        rdsr    r1, tid
        la      r2, grid
        shli    r3, r1, 2
        add     r2, r2, r3              # &grid[t], line 0
        shli    r4, r1, 4               # v = 16 t
        movi    r5, 16
gloop:  stw     r4, 0(r2)
        addi    r2, r2, 32              # the next line, same word
        addi    r4, r4, 1
        addi    r5, r5, -1
        bnz     r5, gloop
        ldw     r6, -32(r2)             # line 15, word t: this thread's last store
        addi    r4, r4, -1
        sne     r7, r6, r4
        la      r8, errors
        add     r8, r8, r3
        stw     r7, 0(r8)
        # mix
        la      r9, mix
        add     r10, r9, r3
        movi    r11, 1
        bz      r1, atom
        addi    r12, r1, 100
        stw     r12, 0(r10)
atom:   atom.add r13, r9, r11
        bz      r1, handoff
        addi    r12, r12, 100               # 200 + t
        stw     r12, 0(r10)
handoff:
        la      r14, msg
        la      r15, flag
        bnz     r1, reader
        movi    r16, 11
        movi    r17, 8
wmsg:   stw     r16, 0(r14)
        addi    r14, r14, 4
        addi    r16, r16, 1
        addi    r17, r17, -1
        bnz     r17, wmsg
        dflush
        atom.add r18, r15, r11
        exit
reader: movi    r19, 1
        bne     r1, r19, done
        movi    r20, 0
wait:   atom.add r18, r15, r20
        bz      r18, wait
        dinv    0(r14)
        movi    r21, 0
        movi    r17, 8
rmsg:   ldw     r22, 0(r14)
        add     r21, r21, r22
        addi    r14, r14, 4
        addi    r17, r17, -1
        bnz     r17, rmsg
        la      r23, got
        stw     r21, 0(r23)
done:   exit

        .data
errors: .space 32
got:    .word 0
        .align 32
mix:    .space 32
        .align 32
msg:    .space 32
        .align 2048
flag:   .word 0
        .align 2048
grid:   .space 512
