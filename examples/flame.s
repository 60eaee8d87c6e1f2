# flame.s -- a fractal flame: random iterated-function-system walks, one work item a
# walk, scattering hits into a shared density histogram with memory-side atomics
# (after the flam3-on-GPU study in reference/gpu-microbenchmarks-strobe-2009.txt).
#
# Launched as a domain (`umbra-sim --domain 32x32`): work item (lx, ly) is walk
# k = ly * domw + lx; a walk with k >= nwalk exits at once, so any domain of at least
# nwalk items draws the same picture, whatever its shape.  (A thread launch, ly = 0,
# walks k = lx: one walk a thread.)  Walk k:
#
#   seed    s = h(k), h(i) = i * 0x9e3779b1; h ^= h >> 15; h *= 0x85ebca6b; h ^= h >> 13
#   start   x = itof(s) * 2^-31;  s = next(s);  y = itof(s) * 2^-31   (both in [-1, 1])
#   next(s) = s * 1664525 + 1013904223 (mod 2^32), a linear congruential generator
#
# then skip + npts steps (the first `skip` are not plotted: the walk has not yet
# reached the attractor).  One step, in this order of float operations:
#
#   s  = next(s);  X = pick[(s >> 26)]        (the top 6 bits choose one of 64 slots:
#                                              a transform's probability is its slots/64)
#   nx = a*x;  nx = b*y + nx;  nx = nx + c    (fmul, fmadd, fadd: the affine map)
#   ny = d*x;  ny = e*y + ny;  ny = ny + f
#   r2 = nx*nx;  r2 = ny*ny + r2;  r2 = fmax(r2, eps)
#   g  = bits(0x7ef311c3 - bits(r2))          (an integer first guess of 1/r2)
#   twice: t = (-r2)*g + 2.0;  g = g*t        (Newton: g = 1/r2 within 1e-5)
#   v  = ws*g + wl                            (the linear and spherical variations
#   x  = nx*v;  y = ny*v                       blended: (x, y) * (wl + ws / r^2))
#
# where X = (a, b, c, d, e, f, wl, ws) is a transform record.  There is no divide in
# the ISA, hence the Newton steps; eps keeps r2 normal, so g is finite.  A plotted
# step maps the point to a histogram cell
#
#   px = ftoi(x*sx + ox) - 1024;  py = ftoi(y*sy + oy) - 1024
#
# (ox and oy carry a bias of 1024 so that ftoi, which rounds toward zero, floors every
# point near the image), and when px < W and py < H (unsigned: a point left of or
# above the image is a huge unsigned number) adds 1 to hist[py * W + px] with red.add,
# which the memory performs, so the counts are exact whatever the interleaving.
# The transforms: three affine maps each blended with the spherical variation, and a
# rotation by 120 degrees taking half the slots (the three-fold symmetry).
#
# Memory (.data, origin 0x10000; it fits the UP5K's 64 KiB above 0x10000):
#   hist    W*H words  the density histogram, row-major, row 0 at the top (output)
#   nwalk   1 word     walks (input)        npts, skip  points plotted / skipped a walk
#   dims    W, H       the image, 120 x 120
#   view    sx, ox, sy, oy   floats: the point-to-pixel map, bias included
#   consts  1664525, 1013904223, 0x7ef311c3, 1024, 2.0, eps = 1e-20, 2^-31
#   pick    64 words   each a transform record's address
#   xforms  4 x 8 words (one 32-byte cache line each)
# Registers: r1 k (then nx), r2/r3 LCG multiplier and increment, r4 pick,
#            r5 0x7ef311c3, r6 2.0, r7 eps, r8 W, r9 H, r10 sx, r11 ox, r12 sy, r13 oy,
#            r14 1024, r15 hist, r16 one, r17 npts, r18 steps left, r19 s, r20 x,
#            r21 y, r22 the transform (then ny), r23-r30 a b c d e f wl ws; once nx and
#            ny are made, r23 r2, r24 -r2, r25 g, r26 t, and r23/r24 px/py.

        .text
_start:
        rdsr    r1, lx
        rdsr    r22, ly
        rdsr    r23, domw
        mul     r22, r22, r23
        add     r1, r1, r22             # k = ly * domw + lx
        la      r22, nwalk
        ldw     r23, 0(r22)
        bgeu    r1, r23, done           # not a walk
        ldw     r17, 4(r22)             # npts
        ldw     r18, 8(r22)             # skip
        add     r18, r18, r17           # steps
        bz      r18, done
        ldw     r8, 12(r22)             # W
        ldw     r9, 16(r22)             # H
        ldw     r10, 20(r22)            # sx
        ldw     r11, 24(r22)            # ox
        ldw     r12, 28(r22)            # sy
        ldw     r13, 32(r22)            # oy
        ldw     r2, 36(r22)             # LCG multiplier
        ldw     r3, 40(r22)             # LCG increment
        ldw     r5, 44(r22)             # 0x7ef311c3
        ldw     r14, 48(r22)            # 1024
        ldw     r6, 52(r22)             # 2.0
        ldw     r7, 56(r22)             # eps
        ldw     r24, 60(r22)            # 2^-31
        la      r4, pick
        la      r15, hist
        movi    r16, 1
        li      r19, 0x9e3779b1         # s = h(k)
        mul     r19, r1, r19
        shri    r23, r19, 15
        xor     r19, r19, r23
        li      r23, 0x85ebca6b
        mul     r19, r19, r23
        shri    r23, r19, 13
        xor     r19, r19, r23
        itof    r20, r19
        fmul    r20, r20, r24           # x
        mul     r19, r19, r2
        add     r19, r19, r3            # s = next(s)
        itof    r21, r19
        fmul    r21, r21, r24           # y
step:
        mul     r19, r19, r2
        add     r19, r19, r3            # s = next(s)
        shri    r22, r19, 24
        andi    r22, r22, -4            # (s >> 26) * 4
        add     r22, r22, r4
        ldw     r22, 0(r22)             # the transform
        ldw     r23, 0(r22)             # a
        ldw     r24, 4(r22)             # b
        ldw     r25, 8(r22)             # c
        ldw     r26, 12(r22)            # d
        ldw     r27, 16(r22)            # e
        ldw     r28, 20(r22)            # f
        ldw     r29, 24(r22)            # wl
        ldw     r30, 28(r22)            # ws
        fmul    r1, r23, r20
        fmadd   r1, r24, r21
        fadd    r1, r1, r25             # nx = a*x + b*y + c
        fmul    r22, r26, r20
        fmadd   r22, r27, r21
        fadd    r22, r22, r28           # ny = d*x + e*y + f
        fmul    r23, r1, r1
        fmadd   r23, r22, r22
        fmax    r23, r23, r7            # r2 = max(nx*nx + ny*ny, eps)
        fneg    r24, r23
        sub     r25, r5, r23            # g: first guess of 1 / r2
        mov     r26, r6
        fmadd   r26, r24, r25
        fmul    r25, r25, r26           # g = g * (2 - r2*g)
        mov     r26, r6
        fmadd   r26, r24, r25
        fmul    r25, r25, r26           # again
        fmadd   r29, r30, r25           # v = ws / r2 + wl
        fmul    r20, r1, r29            # x = nx * v
        fmul    r21, r22, r29           # y = ny * v
        addi    r18, r18, -1
        bgeu    r18, r17, next          # still skipping
        mov     r23, r11
        fmadd   r23, r20, r10
        ftoi    r23, r23
        sub     r23, r23, r14           # px
        bgeu    r23, r8, next           # outside the image
        mov     r24, r13
        fmadd   r24, r21, r12
        ftoi    r24, r24
        sub     r24, r24, r14           # py
        bgeu    r24, r9, next
        mul     r24, r24, r8
        add     r24, r24, r23
        shli    r24, r24, 2
        add     r24, r24, r15
        red.add r24, r16                # hist[py * W + px] += 1
next:
        bnz     r18, step
done:
        exit

        .data
hist:   .space  120 * 120 * 4           # at the data origin, 0x10000
nwalk:  .word   1024                    # walks
npts:   .word   256                     # points plotted a walk
skip:   .word   20                      # points skipped first
dims:   .word   120, 120                # W, H
view:   .float  26.25, 1084.0           # sx, ox: x in [-2.2857, 2.2857] across W
        .float  -26.25, 1084.0          # sy, oy: y upwards
consts: .word   1664525, 1013904223     # the generator
        .word   0x7ef311c3, 1024        # first-guess constant, pixel bias
        .float  2.0, 1e-20, 0x1p-31     # two, eps, 2^-31
        .align  32
pick:                                   # 12 + 12 + 8 + 32 slots of 64
        .word   xf0, xf0, xf0, xf0, xf0, xf0, xf0, xf0
        .word   xf0, xf0, xf0, xf0, xf1, xf1, xf1, xf1
        .word   xf1, xf1, xf1, xf1, xf1, xf1, xf1, xf1
        .word   xf2, xf2, xf2, xf2, xf2, xf2, xf2, xf2
        .word   xf3, xf3, xf3, xf3, xf3, xf3, xf3, xf3
        .word   xf3, xf3, xf3, xf3, xf3, xf3, xf3, xf3
        .word   xf3, xf3, xf3, xf3, xf3, xf3, xf3, xf3
        .word   xf3, xf3, xf3, xf3, xf3, xf3, xf3, xf3
xforms:                                 #  a, b, c, d, e, f, wl, ws
xf0:    .float  0.56, -0.3, 0.2, 0.3, 0.56, -0.1, 0.4, 0.6
xf1:    .float  -0.5, 0.4, -0.3, 0.4, 0.5, 0.3, 0.6, 0.4
xf2:    .float  0.3, 0.0, 0.6, 0.0, 0.3, 0.4, 1.0, 0.0
xf3:    .float  -0.5, -0.8660254, 0.0, 0.8660254, -0.5, 0.0, 1.0, 0.0
