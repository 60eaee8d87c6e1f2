# all_ops.s -- every Umbra instruction at least once, for holding the SystemC model to
# the reference simulator (systemc/tests/iss_compare_test.cpp).
#
# Each thread works in its own 256-byte slice of `out`, so the threads' results do not
# depend on how they interleave; the only shared words take reductions that commute
# (red.add, and red.min / red.max each on a word of its own).  Values are mixed with
# the thread id so that threads do not all compute the same thing.  No `clock`: the
# reference simulator counts slots, not cycles.
# Registers: r1 tid, r3 this thread's slice, r20/r21 integer operands,
# r13..r17 float operands, r30 shared words, r31 link.

        .text
_start:
        rdsr    r1, tid
        shli    r2, r1, 8
        la      r3, out
        add     r3, r3, r2

        # ---- special
        nop
        rdsr    r4, cid
        rdsr    r5, nthr
        rdsr    r6, ncore
        rdsr    r7, lx
        rdsr    r8, ly
        rdsr    r9, domw
        rdsr    r10, domh
        movi    r11, -1234
        movhi   r11, 0xbeef
        dinv    4(r3)
        dinvall
        dflush

        # ---- integer
        li      r20, 0x12345678
        add     r20, r20, r1
        li      r21, -99
        sub     r21, r21, r1
        add     r22, r20, r21
        sub     r22, r20, r21
        and     r22, r20, r21
        or      r22, r20, r21
        xor     r22, r20, r21
        shl     r22, r20, r1
        shr     r22, r21, r1
        sra     r22, r21, r1
        mul     r22, r20, r21
        mulh    r22, r20, r21
        mulhu   r22, r20, r21
        min     r22, r20, r21
        max     r22, r20, r21
        minu    r22, r20, r21
        maxu    r22, r20, r21
        seq     r22, r20, r20
        sne     r22, r20, r21
        slt     r22, r21, r20
        sltu    r22, r21, r20
        sle     r22, r20, r20
        sleu    r22, r20, r21
        addi    r23, r20, -128
        andi    r23, r21, 0x7f
        ori     r23, r20, -2
        xori    r23, r21, 85
        shli    r23, r20, 31
        shri    r23, r21, 3
        srai    r23, r21, 5
        slti    r23, r21, -98
        seqi    r23, r1, 2
        muli    r23, r21, -7
        add     r0, r20, r21            # writes to r0 are dropped

        # ---- float
        la      r12, fconst
        ldw     r13, 0(r12)             # 1.5
        ldw     r14, 4(r12)             # -2.25
        ldw     r15, 8(r12)             # smallest denormal
        ldw     r16, 12(r12)            # +inf
        ldw     r17, 16(r12)            # a signalling NaN
        itof    r18, r1
        fadd    r13, r13, r18           # 1.5 + tid
        fadd    r19, r13, r14
        fsub    r19, r13, r14
        fmul    r19, r13, r14
        fmadd   r19, r13, r14
        fmin    r19, r17, r13
        fmax    r19, r14, r13
        fabs    r19, r14
        fneg    r19, r13
        fseq    r19, r15, r0            # denormal == +0
        fslt    r19, r14, r13
        fsle    r19, r17, r13           # NaN: false
        itof    r19, r21
        ftoi    r19, r14
        ftoi    r19, r16
        pack    r19, r13, r14
        pack    r19, r18, r13
        unpack  r19, r20, 2
        fadd    r19, r15, r15           # flushed
        fmul    r19, r16, r0            # inf * 0 = NaN
        fsub    r19, r16, r16           # inf - inf = NaN

        # ---- branches and jumps
        movi    r24, 0
        bz      r24, b1                 # taken
        addi    r24, r24, 100
b1:     bnz     r24, fail               # not taken
        beq     r1, r1, b2              # taken
        j       fail
b2:     bne     r1, r1, fail            # not taken
        blt     r21, r20, b3            # signed: taken
        j       fail
b3:     bge     r21, r20, fail          # not taken
        bltu    r20, r21, b4            # unsigned: taken
        j       fail
b4:     bgeu    r20, r21, fail          # not taken
        j       b5
        j       fail
b5:
        call    sub1                    # jal r31
        jal     r25, sub2
        la      r26, sub3
        jalr    r27, r26
        # a loop that runs tid + 1 times
        addi    r28, r1, 1
        movi    r29, 0
loop:   addi    r29, r29, 3
        addi    r28, r28, -1
        bnz     r28, loop

        # ---- loads and stores
        stw     r20, 0(r3)
        stw     r21, 4(r3)
        stw     r22, 252(r3)
        addi    r29, r3, 64
        stw     r19, -60(r29)           # 8(r3)
        ldw     r28, -64(r29)
        ldw     r28, 4(r3)
        ldw     r0, 8(r3)               # a load to r0 still sleeps and wakes

        # ---- atomics: per-thread words at r3+16.., shared words at `shared`
        addi    r12, r3, 16
        movi    r18, 10
        stw     r18, 0(r12)
        atom.add  r19, r12, r1          # old 10
        atom.min  r19, r12, r21
        atom.max  r19, r12, r20
        atom.xchg r19, r12, r1
        mov     r18, r1
        atom.cas  r18, r12, r21         # compares with tid: swaps
        atom.cas  r18, r12, r20         # compares with tid again: no swap now
        addi    r12, r3, 20
        red.xchg  r12, r21
        red.cas   r21, r12, r20         # compare r21: swaps in r20
        red.cas   r21, r12, r1          # no swap
        la      r30, shared
        red.add r30, r1
        addi    r12, r30, 4
        red.min r12, r21
        addi    r12, r30, 8
        red.max r12, r21
        ldw     r28, 0(r12)             # a load right after the reduction
        exit

sub1:   addi    r24, r24, 1
        ret
sub2:   addi    r24, r24, 2
        jalr    r0, r25
sub3:   addi    r24, r24, 4
        jalr    r0, r27
fail:   exit

        .data
fconst: .word   0x3fc00000, 0xc0100000, 0x00000001, 0x7f800000, 0x7fa00000
shared: .word   0, 0x7fffffff, 0x80000000
out:    .space  64 * 256
