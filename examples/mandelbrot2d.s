# mandelbrot2d.s -- mandelbrot.s's 96x72 image as a 2D domain: one work item a pixel.
#
# Launched as a domain of 96 x 72 work items (`umbra-sim --domain 96x72`), far more
# than the machine has threads: the dispatcher hands each (lx, ly) to a free thread
# of any core and refills a thread when it exits, so the kernel has no loop over
# pixels, no stride and no row wrapping.  Work item (lx, ly) is pixel (px, py) =
# (lx, ly), p = ly * W + lx; an item outside the image (a larger domain) exits at once.
# The pixel itself, the palette, the memory layout and the registers are
# mandelbrot.s's (mandelbrot_setup.inc, mandelbrot_pixel.inc, mandelbrot_data.inc), so
# the image is the same, bit for bit.

        .text
_start:
        rdsr    r19, lx                 # px
        rdsr    r20, ly                 # py
        .include "mandelbrot_setup.inc"
        bge     r19, r4, done           # outside the image
        bge     r20, r5, done
        mul     r18, r20, r4
        add     r18, r18, r19           # p = py * W + px
        .include "mandelbrot_pixel.inc"
done:
        exit

        .data
        .include "mandelbrot_data.inc"
