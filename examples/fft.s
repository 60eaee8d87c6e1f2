# fft.s -- 1D complex FFT, radix 2, N = 2^m points, the butterflies of each stage split
# over the threads, a barrier between stages (the data-parallel VM paper's "1D complex
# FFT", Segal and Peercy 2006, which ran 4K points).
#
# The Stockham form of the radix-2 transform (as Govindaraju et al. 2008 write it for
# GPUs): natural order in and out, no bit-reversal pass, and every stage reads two
# whole halves of its source and writes its destination, the two buffers swapping
# roles after each stage.  For stage s = 0 .. m-1, with Ns = 2^s, butterfly
# j = 0 .. N/2-1 (on work item j mod domw, from lx striding by domw) does
#
#   v0 = src[j];  v1 = src[j + N/2];  w = tw[(j mod Ns) * N / (2 Ns)]
#   tr = v1.re * w.re + (v1.im * -w.im)   (fmul, then fmadd: not fused, isa.md)
#   ti = v1.im * w.re + (v1.re * w.im)    (fmul, then fmadd)
#   d  = 2j - (j mod Ns)                  (= (j div Ns) * 2 Ns + j mod Ns)
#   dst[d]      = (v0.re + tr, v0.im + ti)     (fadd)
#   dst[d + Ns] = (v0.re - tr, v0.im - ti)     (fsub)
#
# which the C++ reference repeats operation for operation, so the bits match.  The ISA
# has no trigonometry, so the twiddles are a table: entry t (t < N/2) holds W_N^t =
# exp(-2 pi i t / N) as three floats, (cos, -sin, sin) of 2 pi t / N rounded to binary32
# (the third is the second negated, so the complex product takes two fmul and two
# fmadd and no fneg).  Flops, counted the standard way for the FFT: 5 N log2 N.
#
# Between stages every thread waits for all domw of them (a barrier): it flushes its
# stores (dflush), adds 1 to `arrived` (red.add), polls until the count reaches domw
# times the stages done (dinv + ldw: the counter's line must not come from the cache),
# then drops its cache (dinvall), since the next stage reads lines another core may
# have written.  So every work item must be resident at once: a thread launch, or a
# domain no larger than the machine's thread contexts.
#
# Memory (.data, origin 0x10000; the defaults fit the HX8K's 4 KiB):
#   params   m = log2 N, then the addresses of x (source of stage 0), y (the other
#            buffer) and the twiddle table (inputs; 6, x, y, twiddle here: a bench
#            points them at larger arrays elsewhere in memory)
#   arrived  the barrier's counter (0 at launch; domw * m at the end), its own line
#   x, y     N complex points each, (re, im) float pairs; the result is in x when m is
#            even, in y when m is odd (the other holds stage m-1's input)
#   twiddle  N/2 entries of 3 floats
# Registers: r1 lx, r2 domw, r3 N/2, r4 src, r5 dst, r6 Ns - 1, r7 log2(N / (2 Ns)),
#            r8 the table, r9 j, r10 N/2 * 8 (bytes from v0 to v1), r11 &arrived,
#            r12 the count to wait for, r13 stages left, r14 address (and scratch),
#            r15 Ns * 8, r16-r19 v0.re v0.im v1.re v1.im, r20 j mod Ns, r21 &w,
#            r22-r24 w.re w.im -w.im, r25 tr, r26 ti, r27/r28 the sums, r29 one.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r14, params
        ldw     r13, 0(r14)             # m
        ldw     r4, 4(r14)              # stage 0 reads x
        ldw     r5, 8(r14)              # and writes y
        ldw     r8, 12(r14)             # twiddles
        la      r11, arrived
        movi    r29, 1
        movi    r12, 0
        shl     r3, r29, r13
        shri    r3, r3, 1               # N / 2
        shli    r10, r3, 3
        addi    r7, r13, -1             # stage 0 steps the table by N / 2
        movi    r6, 0                   # Ns - 1
        movi    r15, 8                  # Ns * 8
        bz      r13, done               # one point: nothing to do
stage:
        mov     r9, r1
        bgeu    r9, r3, sync
bfly:
        shli    r14, r9, 3
        add     r14, r14, r4            # &src[j]
        ldw     r16, 0(r14)
        ldw     r17, 4(r14)
        add     r14, r14, r10           # &src[j + N/2]
        ldw     r18, 0(r14)
        ldw     r19, 4(r14)
        and     r20, r9, r6             # j mod Ns
        shl     r21, r20, r7
        muli    r21, r21, 12
        add     r21, r21, r8            # &tw[(j mod Ns) * N / (2 Ns)]
        ldw     r22, 0(r21)
        ldw     r23, 4(r21)
        ldw     r24, 8(r21)
        fmul    r25, r19, r24
        fmadd   r25, r18, r22           # tr
        fmul    r26, r18, r23
        fmadd   r26, r19, r22           # ti
        fadd    r27, r16, r25
        fadd    r28, r17, r26
        fsub    r16, r16, r25
        fsub    r17, r17, r26
        add     r14, r9, r9
        sub     r14, r14, r20
        shli    r14, r14, 3
        add     r14, r14, r5            # &dst[2j - j mod Ns]
        stw     r27, 0(r14)
        stw     r28, 4(r14)
        add     r14, r14, r15           # Ns points on
        stw     r16, 0(r14)
        stw     r17, 4(r14)
        add     r9, r9, r2
        bltu    r9, r3, bfly
sync:
        dflush                          # this stage's stores are in memory
        red.add r11, r29
        add     r12, r12, r2
wait:
        dinv    0(r11)
        ldw     r14, 0(r11)
        bltu    r14, r12, wait
        dinvall                         # no stale line of the other buffer
        mov     r14, r4                 # the buffers swap
        mov     r4, r5
        mov     r5, r14
        shli    r6, r6, 1
        addi    r6, r6, 1               # 2 Ns - 1
        shli    r15, r15, 1
        addi    r7, r7, -1
        addi    r13, r13, -1
        bnz     r13, stage
done:
        exit

        .data
params: .word   6, x, y, twiddle        # m, x, y, the table
        .align  32
arrived:
        .word   0
        .align  32
twiddle:
        .float  0x1p0, -0.0, 0.0
        .float  0x1.fd88dap-1, -0x1.917a6cp-4, 0x1.917a6cp-4
        .float  0x1.f6297cp-1, -0x1.8f8b84p-3, 0x1.8f8b84p-3
        .float  0x1.e9f416p-1, -0x1.294062p-2, 0x1.294062p-2
        .float  0x1.d906bcp-1, -0x1.87de2ap-2, 0x1.87de2ap-2
        .float  0x1.c38b3p-1, -0x1.e2b5d4p-2, 0x1.e2b5d4p-2
        .float  0x1.a9b662p-1, -0x1.1c73b4p-1, 0x1.1c73b4p-1
        .float  0x1.8bc806p-1, -0x1.44cf32p-1, 0x1.44cf32p-1
        .float  0x1.6a09e6p-1, -0x1.6a09e6p-1, 0x1.6a09e6p-1
        .float  0x1.44cf32p-1, -0x1.8bc806p-1, 0x1.8bc806p-1
        .float  0x1.1c73b4p-1, -0x1.a9b662p-1, 0x1.a9b662p-1
        .float  0x1.e2b5d4p-2, -0x1.c38b3p-1, 0x1.c38b3p-1
        .float  0x1.87de2ap-2, -0x1.d906bcp-1, 0x1.d906bcp-1
        .float  0x1.294062p-2, -0x1.e9f416p-1, 0x1.e9f416p-1
        .float  0x1.8f8b84p-3, -0x1.f6297cp-1, 0x1.f6297cp-1
        .float  0x1.917a6cp-4, -0x1.fd88dap-1, 0x1.fd88dap-1
        .float  0x1.1a6264p-54, -0x1p0, 0x1p0
        .float  -0x1.917a6cp-4, -0x1.fd88dap-1, 0x1.fd88dap-1
        .float  -0x1.8f8b84p-3, -0x1.f6297cp-1, 0x1.f6297cp-1
        .float  -0x1.294062p-2, -0x1.e9f416p-1, 0x1.e9f416p-1
        .float  -0x1.87de2ap-2, -0x1.d906bcp-1, 0x1.d906bcp-1
        .float  -0x1.e2b5d4p-2, -0x1.c38b3p-1, 0x1.c38b3p-1
        .float  -0x1.1c73b4p-1, -0x1.a9b662p-1, 0x1.a9b662p-1
        .float  -0x1.44cf32p-1, -0x1.8bc806p-1, 0x1.8bc806p-1
        .float  -0x1.6a09e6p-1, -0x1.6a09e6p-1, 0x1.6a09e6p-1
        .float  -0x1.8bc806p-1, -0x1.44cf32p-1, 0x1.44cf32p-1
        .float  -0x1.a9b662p-1, -0x1.1c73b4p-1, 0x1.1c73b4p-1
        .float  -0x1.c38b3p-1, -0x1.e2b5d4p-2, 0x1.e2b5d4p-2
        .float  -0x1.d906bcp-1, -0x1.87de2ap-2, 0x1.87de2ap-2
        .float  -0x1.e9f416p-1, -0x1.294062p-2, 0x1.294062p-2
        .float  -0x1.f6297cp-1, -0x1.8f8b84p-3, 0x1.8f8b84p-3
        .float  -0x1.fd88dap-1, -0x1.917a6cp-4, 0x1.917a6cp-4
x:
        .float  1.125, -1.4375, -1.59375, 0.5625, -1.46875, -0.03125, -0.3125, 1.53125
        .float  0.3125, -0.5, -0.46875, 1.5, -0.40625, -1.4375, -0.3125, 1.09375
        .float  0.53125, 0.90625, 0.25, -1.78125, 1.6875, 0.40625, 1.21875, -0.96875
        .float  -0.625, 1.28125, 1.46875, -0.4375, -1.1875, -1.15625, 1.78125, -0.53125
        .float  1.125, -1.625, 1.65625, 1.84375, -1.59375, -0.40625, -1.40625, 1.6875
        .float  0.46875, 1.40625, -1.9375, 1.625, -0.59375, -0.0625, -0.46875, -0.84375
        .float  0.9375, 0.6875, 1.625, 0.09375, -0.46875, -1.28125, -0.96875, -1.59375
        .float  -1.03125, -1.1875, 0.84375, 1.75, -1.3125, 1.09375, -1.96875, -1.34375
        .float  1.6875, 1.15625, 0.96875, 0.65625, 0.46875, 0, 0.1875, -1.71875
        .float  0.96875, -1.125, -0.625, 0.625, -1.65625, 0.34375, -0.03125, -0.1875
        .float  0.6875, 1.125, 1.875, 1.34375, -0.875, -0.46875, 1.4375, 1.59375
        .float  1.0625, 1.8125, 1.09375, -0.75, 0.09375, 0.65625, -1.59375, 0.78125
        .float  -1.3125, -1.09375, 1.3125, 1.875, -1.5625, -0.59375, 0.375, -0.28125
        .float  -0.03125, -0.34375, -1.09375, -1.4375, -1.4375, 0.0625, -0.6875, -1.46875
        .float  -0.03125, -0.75, -0.59375, 0.5625, -1.40625, 1.46875, 0.125, -1.84375
        .float  -0.8125, -0.09375, 0.25, -1.78125, 1.9375, 0.75, 0.3125, 1.78125
y:      .space  64 * 8
