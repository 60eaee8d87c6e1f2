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
        .include "flame_setup.inc"
        la      r4, pick
        la      r15, hist
        movi    r16, 1
        .include "flame_walk.inc"
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
        .include "flame_data.inc"
