# mandelbrot.s -- a 96x72 Mandelbrot tile in FP32, rendered to an 8888 framebuffer.
#
# The README demo.  Pixel p (row-major, p = py * W + px) is handled by thread
# p mod T, T = domw: each thread starts at its launch index and strides by T, keeping
# (px, py) up to date by adding T to px and wrapping rows (there is no divide).  For
# each pixel, c = (x0 + px * d, y0 + py * d) and z starts at 0; the loop tests
# |z|^2 > 4 before each step z = z^2 + c and stops after maxiter steps.  The iteration
# count i becomes a colour with a smooth polynomial palette:
#     s = 1 - i / maxiter,  u = s^4,  t = 1 - u
#     red = 9 u t^3,  green = 15 u^2 t^2,  blue = 8.5 u^3 t,  alpha = 1
# (points that never escape have u = 0 and come out black), and two packs build the
# pixel 0xAARRGGBB: `pack px, one, red` then `pack px, green, blue`.  Every float
# operation is spelled out in this order so that the test's reference, written with
# umbra::fp32, gets the same bits.
#
# Memory (.data, origin 0x10000):
#   fb      0x10000, 96 * 72 words = 27648 bytes: the image, row-major, one 32-bit
#           0xAARRGGBB pixel per word (little-endian bytes B, G, R, A) (output)
#   params  after it: W, H, maxiter (integers); x0, y0, d, 4.0, 1.0, 1/maxiter, 9.0,
#           15.0, 8.5 (binary32) (inputs)
# View: x in [-2.25, 0.75), y in [-1.125, 1.125), d = 1/32, maxiter = 48.
# Registers: r1 launch index, r2 threads, r3 params, r4 W, r5 H, r6 maxiter, r7 x0,
#            r8 y0, r9 d, r10 4.0, r11 1.0, r12 1/maxiter, r13-r15 palette weights,
#            r16 fb, r17 pixel count, r18 pixel p, r19 px, r20 py, r22 cx, r23 cy,
#            r24 x, r25 y, r26 i, r21 and r27-r30 scratch.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, params
        ldw     r4, 0(r3)               # W
        ldw     r5, 4(r3)               # H
        ldw     r6, 8(r3)               # maxiter
        ldw     r7, 12(r3)              # x0
        ldw     r8, 16(r3)              # y0
        ldw     r9, 20(r3)              # d
        ldw     r10, 24(r3)             # 4.0
        ldw     r11, 28(r3)             # 1.0
        ldw     r12, 32(r3)             # 1 / maxiter
        ldw     r13, 36(r3)             # 9.0
        ldw     r14, 40(r3)             # 15.0
        ldw     r15, 44(r3)             # 8.5
        la      r16, fb
        mul     r17, r4, r5             # pixels = W * H
        mov     r18, r1                 # p = launch index
        mov     r19, r1                 # px = p (wrapped below)
        movi    r20, 0                  # py = 0
wrap:
        blt     r19, r4, pixel          # px < W: (px, py) is pixel p
        sub     r19, r19, r4
        addi    r20, r20, 1
        j       wrap
pixel:
        bge     r18, r17, done
        itof    r21, r19
        mov     r22, r7
        fmadd   r22, r21, r9            # cx = round(px * d) + x0
        itof    r21, r20
        mov     r23, r8
        fmadd   r23, r21, r9            # cy = round(py * d) + y0
        movi    r24, 0                  # x = +0.0
        movi    r25, 0                  # y = +0.0
        movi    r26, 0                  # i = 0
iter:
        fmul    r27, r24, r24           # x^2
        fmul    r28, r25, r25           # y^2
        fadd    r29, r27, r28           # |z|^2
        fslt    r29, r10, r29           # 4 < |z|^2 ?
        bnz     r29, escaped
        fmul    r29, r24, r25           # x y
        fadd    r29, r29, r29           # 2 x y
        fadd    r25, r29, r23           # y = 2 x y + cy
        fsub    r24, r27, r28           # x^2 - y^2
        fadd    r24, r24, r22           # x = x^2 - y^2 + cx
        addi    r26, r26, 1
        blt     r26, r6, iter
escaped:
        itof    r27, r26
        fmul    r27, r27, r12           # i / maxiter
        fsub    r28, r11, r27           # s = 1 - i / maxiter
        fmul    r28, r28, r28           # s^2
        fmul    r28, r28, r28           # u = s^4
        fsub    r27, r11, r28           # t = 1 - u
        fmul    r29, r27, r27           # t^2
        fmul    r30, r13, r28           # 9 u
        fmul    r30, r30, r29           # 9 u t^2
        fmul    r30, r30, r27           # red = 9 u t^3
        fmul    r21, r14, r28           # 15 u
        fmul    r21, r21, r28           # 15 u^2
        fmul    r21, r21, r29           # green = 15 u^2 t^2
        fmul    r24, r15, r28           # 8.5 u
        fmul    r24, r24, r28           # 8.5 u^2
        fmul    r24, r24, r28           # 8.5 u^3
        fmul    r24, r24, r27           # blue = 8.5 u^3 t
        pack    r25, r11, r30           # alpha, red
        pack    r25, r21, r24           # ... green, blue: 0xAARRGGBB
        shli    r29, r18, 2
        add     r29, r16, r29
        stw     r25, 0(r29)             # fb[p] = pixel
        add     r18, r18, r2            # next pixel of this thread
        add     r19, r19, r2
        j       wrap
done:
        exit

        .data
fb:     .space  96 * 72 * 4             # at the data origin, 0x10000
params:
        .word   96, 72, 48              # W, H, maxiter
        .float  -2.25, -1.125, 0.03125  # x0, y0, d
        .float  4.0, 1.0                # escape radius squared, one
        .float  0.020833333333333332    # 1 / maxiter
        .float  9.0, 15.0, 8.5          # palette weights
