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
        .include "mandelbrot_setup.inc"
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
        .include "mandelbrot_pixel.inc"
        add     r18, r18, r2            # next pixel of this thread
        add     r19, r19, r2
        j       wrap
done:
        exit

        .data
        .include "mandelbrot_data.inc"
