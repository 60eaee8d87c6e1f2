# pixels.s -- 8888 pixels through the float pipeline: unpack, blend, pack.
#
# Two 8x8 images of 0xAARRGGBB pixels, src and dst.  For each pixel (pixel i on
# thread i mod T, T = domw) the channels are unpacked to floats in [0, 1] (`unpack`
# lane 3 = alpha, 2 = red, 1 = green, 0 = blue) and
#   out[i]    = src over dst:  a = src alpha, ia = 1 - a,
#               c = round(src.c * a) + round(dst.c * ia)  for red, green, blue,
#               alpha = round(dst.alpha * ia) + a
#               (fmul for the dst term, then fmadd adds the src term to it)
#   bright[i] = dst with red, green and blue times 1.5, alpha kept; pack saturates
#               channels above 1.0 to 255
# and two packs per pixel turn four floats back into 0xAARRGGBB (pack rounds x * 255 to
# the nearest integer, ties to even).  The first src pixel is fully opaque and the
# second fully transparent, so both ends of the blend are exercised.
#
# Memory (.data, origin 0x10000):
#   count        1 word     pixels (input, 64)
#   src, dst     64 words   the images (input)
#   out, bright  64 words   results (output)
# Registers: r1 launch index, r2 threads, r3 count, r4 index, r5 byte offset,
#            r6 src pixel, r7 dst pixel, r8 1.0, r9 1.5, r10 a, r11 ia,
#            r12-r15 blended A R G B, r16-r18 brightened R G B, r19 scratch,
#            r20 src/dst channel, r21 packed pixel, r22 scratch address.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r22, count
        ldw     r3, 0(r22)
        la      r22, consts
        ldw     r8, 0(r22)              # 1.0
        ldw     r9, 4(r22)              # 1.5
        mov     r4, r1                  # i = launch index
        j       test
pixel:
        shli    r5, r4, 2
        la      r22, src
        add     r22, r22, r5
        ldw     r6, 0(r22)
        la      r22, dst
        add     r22, r22, r5
        ldw     r7, 0(r22)

        unpack  r10, r6, 3              # a = src alpha
        fsub    r11, r8, r10            # ia = 1 - a
        unpack  r20, r7, 3
        fmul    r12, r20, r11           # alpha = dst.alpha * ia ...
        fadd    r12, r12, r10           # ... + a
        unpack  r20, r7, 2
        fmul    r13, r20, r11           # red = dst.red * ia ...
        unpack  r20, r6, 2
        fmadd   r13, r20, r10           # ... + src.red * a
        unpack  r20, r7, 1
        fmul    r14, r20, r11           # green
        unpack  r20, r6, 1
        fmadd   r14, r20, r10
        unpack  r20, r7, 0
        fmul    r15, r20, r11           # blue
        unpack  r20, r6, 0
        fmadd   r15, r20, r10
        pack    r21, r12, r13           # alpha, red
        pack    r21, r14, r15           # green, blue
        la      r22, out
        add     r22, r22, r5
        stw     r21, 0(r22)

        unpack  r16, r7, 2
        fmul    r16, r16, r9            # red * 1.5
        unpack  r17, r7, 1
        fmul    r17, r17, r9            # green * 1.5
        unpack  r18, r7, 0
        fmul    r18, r18, r9            # blue * 1.5
        unpack  r19, r7, 3              # alpha as it was
        pack    r21, r19, r16
        pack    r21, r17, r18
        la      r22, bright
        add     r22, r22, r5
        stw     r21, 0(r22)

        add     r4, r4, r2              # next pixel of this thread
test:
        bltu    r4, r3, pixel
        exit

        .data
count:  .word   64
consts: .float  1.0, 1.5
src:
        .word   0xffac2068, 0x002f8ece, 0xdc66ff36, 0x151bccca, 0xada7528e, 0xf30df4c5
        .word   0xab5db94c, 0xcf56c6fc, 0x7d05e40c, 0x90c9cb6b, 0x75faf129, 0xa5570dce
        .word   0x530088c0, 0xcc2dd9a1, 0x0141b8ad, 0xcc40f61f, 0x56fe908c, 0x3bb42245
        .word   0xd5e87db8, 0x3aa390cf, 0x6cff674e, 0x35912438, 0x360d8a2a, 0xa514eabd
        .word   0x3bf414e8, 0xcffbda5a, 0x2b8303e3, 0x84b4cccb, 0x281cbd38, 0xe0177b8c
        .word   0x7a486cc3, 0x0b693bd8, 0x5abe2020, 0xfcedbaac, 0xa94a22aa, 0x320d38c4
        .word   0xb663197e, 0x7b6d869b, 0xfd3ddf78, 0xae35c06e, 0xe3562134, 0x72774a39
        .word   0x7ddbb90d, 0xf6940bb8, 0x4796cb20, 0xb7d26c66, 0xee682149, 0x3e02cf81
        .word   0x08ad4723, 0xe0529003, 0xd790660c, 0x7da3fca8, 0x0be6e11e, 0x435fd3ee
        .word   0x7ef23136, 0x6a21c00f, 0xf76a80ef, 0xf7355308, 0xe9f388a7, 0x7ad38295
        .word   0x32892a78, 0xd178a431, 0xdd8fce3f, 0xe340291a
dst:
        .word   0xa7c976b6, 0x859e1c8b, 0xa293b07e, 0xf396121d, 0x738edc9d, 0x266f1cc4
        .word   0x8fa089bf, 0x18b6590b, 0xe51be54f, 0x9e28003f, 0xa25f277b, 0x2c93146c
        .word   0xec861f2d, 0x8d5e4c5e, 0xa9f53e11, 0xadf23fa1, 0x36c6a495, 0x51bb9280
        .word   0x31f0cde3, 0xdae7c208, 0x32c87be8, 0x07c93005, 0x8a84c34f, 0xb1512f03
        .word   0x0c873786, 0x8dde0e4d, 0xc1b656b7, 0xef33c5f0, 0xb2aed5cf, 0x82bfe2b8
        .word   0xa46c0c7a, 0x12d75230, 0xd4aa8123, 0x44efcea5, 0xc06974f7, 0x59d76b24
        .word   0xdfdcafe2, 0xef857f76, 0x6505cc90, 0xc1ef542a, 0x0116e46c, 0x643cae8a
        .word   0x9fbe7ba3, 0x09593ca3, 0x2868ad21, 0x3e722141, 0x3ea6b692, 0xae405ff0
        .word   0x015c0461, 0xdd93a8fb, 0xce785dbc, 0xeeac856f, 0xfca9f08c, 0x5f4ec318
        .word   0x9ebddd80, 0xc870a081, 0x45d26403, 0xa1b118f8, 0xbd242e40, 0xfa34f087
        .word   0xccd61d24, 0x41c63ffa, 0xf740f45a, 0x003ea0df
out:    .space  64 * 4
bright: .space  64 * 4
