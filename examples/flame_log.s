# flame_log.s -- the fractal flame of flame.s drawn without atomics: every plotted
# point is logged, the logs are split by image region, and each region is binned by
# the one thread that owns it (the design the flam3-on-GPU study proposed in place of
# its atomics: "pack them into a 32-bit int and write them into a log ... split it ...
# into smaller logs, each corresponding to subdivisions of the image"; strobe 2009).
# The same walks and the same picture as flame.s (flame_setup.inc, flame_walk.inc,
# flame_data.inc are shared), so the histograms must be equal word for word.
#
# A thread launch (every work item resident: phase 3 waits for all of them).  Work
# item t = lx of D = domw:
#
#   1. log    walks k = t, t + D, ... < nwalk, as flame.s draws them; each plotted
#             point inside the image is packed into one word, i = py * W + px, and
#             appended to t's log (entry n at logs + (n D + t) * 4: the D logs are
#             interleaved, so neighbouring threads write neighbouring words);
#   2. split  t counts its points by region, r = i >> rshift (R = ((W H - 1) >> rshift)
#             + 1 regions of 2^rshift cells, 1024 here), turns the counts into each
#             region's first position (beg[r][t], an exclusive prefix sum) and copies
#             each point to position cur[r][t]++ of its sorted log (laid out as the
#             log), so t's points of region r end up at positions beg .. cur - 1;
#   3. bin    after a barrier (dflush, red.add on `arrived`, poll with dinv + ldw
#             until it reaches D, dinvall), t owns regions r = t, t + D, ... < R and
#             for each reads every thread u's points of r (u = 0 .. D-1, in position
#             order) and adds 1 to hist[i] with a plain ldw, addi, stw: no other
#             thread writes those cells, so no atomic is needed.
#
# Memory (.data, origin 0x10000): hist, nwalk, npts, skip and flame_data.inc as in
# flame.s (16 walks of 32 points here, small enough for every model; the manifest and
# bench/kernels_bench draw more), then
#   rshift   log2 of a region's cells (input)
#   arrived  the barrier's counter (0 at launch, D at the end), its own line
#   logs     from here to the end of memory the program lays out, with
#            maxn = ceil(nwalk / D) * npts (the most points a thread can log):
#            the logs (D maxn words), the sorted logs (D maxn words), beg (R D words,
#            [r][t] at word r D + t) and cur (R D words).  Nothing checks that they
#            fit: a store past the end of memory faults.  With 16 threads and the
#            defaults they end at 0x1fa80, inside the UP5K's 128 KiB.
# Registers: phase 1 as flame.s, but r15 the log cursor, r16 D * 4 and r31 k (r1 is
# nx inside the step).  Phases 2 and 3: r1 t, r2 D, r9 t's log, r10 t's sorted log,
# r11 R, r12 rshift, r13 D * 4, r14 &beg[0][t], r15 t's log end, r18 &cur[0][t]
# (r14, r18 and r10 lose the t * 4, r8, in phase 3), r19-r30 the loops' scratch.

        .text
_start:
        la      r22, nwalk
        .include "flame_setup.inc"
        la      r4, pick
        rdsr    r31, lx                 # k = t
        rdsr    r16, domw
        shli    r15, r31, 2
        la      r1, logs
        add     r15, r15, r1            # t's log: logs + t * 4
        shli    r16, r16, 2             # D entries a position
walk:
        la      r22, nwalk
        ldw     r23, 0(r22)
        bgeu    r31, r23, logged        # no more walks for t
        ldw     r17, 4(r22)             # npts
        ldw     r18, 8(r22)             # skip
        add     r18, r18, r17           # steps
        bz      r18, logged
        ldw     r24, 60(r22)            # 2^-31 (the last walk's steps reused r24)
        mov     r1, r31
        .include "flame_walk.inc"
        mul     r24, r24, r8
        add     r24, r24, r23           # the point packed: py * W + px
        stw     r24, 0(r15)
        add     r15, r15, r16           # appended to t's log
next:
        bnz     r18, step
        shri    r1, r16, 2
        add     r31, r31, r1            # t's next walk
        j       walk

logged:                                 # 2. split
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, nwalk
        ldw     r4, 0(r3)
        ldw     r5, 4(r3)
        movi    r6, 0                   # ceil(nwalk / D): thread 0's walks
        movi    r7, 0
cwalk:  bgeu    r7, r4, cdone
        addi    r6, r6, 1
        add     r7, r7, r2
        j       cwalk
cdone:  mul     r6, r6, r5              # maxn
        mul     r6, r6, r2
        shli    r6, r6, 2               # bytes of the D logs
        la      r7, logs
        shli    r8, r1, 2               # t * 4
        add     r9, r7, r8              # t's log
        add     r10, r9, r6             # t's sorted log
        ldw     r11, 12(r3)             # W
        ldw     r12, 16(r3)             # H
        mul     r11, r11, r12
        addi    r11, r11, -1
        la      r12, rshift
        ldw     r12, 0(r12)
        shr     r11, r11, r12
        addi    r11, r11, 1             # R
        shli    r13, r2, 2              # D * 4: from [r][t] to [r+1][t]
        add     r14, r10, r6            # &beg[0][t]
        mul     r17, r11, r13
        add     r18, r14, r17           # &cur[0][t]
        mov     r19, r14                # beg[r][t] = 0: the counts first
        mov     r20, r11
clear:  stw     r0, 0(r19)
        add     r19, r19, r13
        addi    r20, r20, -1
        bnz     r20, clear
        mov     r19, r9
count:  bgeu    r19, r15, counted
        ldw     r20, 0(r19)
        shr     r20, r20, r12
        mul     r20, r20, r13
        add     r20, r20, r14
        ldw     r21, 0(r20)
        addi    r21, r21, 1
        stw     r21, 0(r20)             # region r's count of t
        add     r19, r19, r13
        j       count
counted:
        movi    r21, 0                  # positions before region r
        mov     r19, r14
        mov     r20, r18
        mov     r22, r11
prefix: ldw     r23, 0(r19)
        stw     r21, 0(r19)             # beg[r][t]
        stw     r21, 0(r20)             # cur[r][t]
        add     r21, r21, r23
        add     r19, r19, r13
        add     r20, r20, r13
        addi    r22, r22, -1
        bnz     r22, prefix
        mov     r19, r9
scatter:
        bgeu    r19, r15, split
        ldw     r20, 0(r19)
        shr     r21, r20, r12
        mul     r21, r21, r13
        add     r21, r21, r18
        ldw     r22, 0(r21)             # cur[r][t]
        addi    r23, r22, 1
        stw     r23, 0(r21)
        mul     r22, r22, r13
        add     r22, r22, r10
        stw     r20, 0(r22)             # sorted position cur[r][t]
        add     r19, r19, r13
        j       scatter
split:                                  # the barrier
        dflush
        la      r24, arrived
        movi    r25, 1
        red.add r24, r25
bwait:  dinv    0(r24)
        ldw     r25, 0(r24)
        bltu    r25, r2, bwait
        dinvall                         # other cores' logs and cells, not stale lines
        sub     r14, r14, r8            # 3. bin: beg[0][0]
        sub     r18, r18, r8            # cur[0][0]
        sub     r10, r10, r8            # the sorted logs
        la      r26, hist
        mov     r19, r1                 # region r = t
region: bgeu    r19, r11, binned
        mul     r20, r19, r13           # r D * 4
        movi    r21, 0                  # thread u
logof:  shli    r22, r21, 2
        add     r23, r20, r22
        add     r24, r23, r14
        ldw     r24, 0(r24)             # beg[r][u]
        add     r25, r23, r18
        ldw     r25, 0(r25)             # cur[r][u]
        bgeu    r24, r25, nextu
        mul     r27, r24, r13
        add     r27, r27, r22
        add     r27, r27, r10           # u's first point of r
        mul     r28, r25, r13
        add     r28, r28, r22
        add     r28, r28, r10           # and its end
bin:    ldw     r29, 0(r27)
        shli    r29, r29, 2
        add     r29, r29, r26
        ldw     r30, 0(r29)
        addi    r30, r30, 1
        stw     r30, 0(r29)             # hist[i] += 1, r's cells being t's alone
        add     r27, r27, r13
        bltu    r27, r28, bin
nextu:  addi    r21, r21, 1
        bltu    r21, r2, logof
        add     r19, r19, r2
        j       region
binned:
        exit

        .data
hist:   .space  120 * 120 * 4           # at the data origin, 0x10000
nwalk:  .word   16                      # walks
npts:   .word   32                      # points plotted a walk
skip:   .word   20                      # points skipped first
        .include "flame_data.inc"
rshift: .word   10                      # regions of 1024 cells: 15 for 120 x 120
        .align  32
arrived:
        .word   0
        .align  32
logs:
