// umbra_testing/grid_kernel.h: the one domain-launch kernel the tests share.  Every
// work item writes (ly << 16) | lx at out[ly * domw + lx], and item (0, 0) writes domw
// and domh to dims, so a test sees that every item ran once, with its own coordinates,
// on whatever thread the dispatcher gave it.  `out` holds 65536 words (a 256 x 256
// domain).
#pragma once

#include <cstdint>

namespace umbra::testkit {

inline constexpr const char* kGridKernel = R"(
        .text
        rdsr    r1, lx
        rdsr    r2, ly
        rdsr    r3, domw
        mul     r4, r2, r3
        add     r4, r4, r1
        shli    r4, r4, 2
        la      r5, out
        add     r5, r5, r4
        shli    r6, r2, 16
        or      r6, r6, r1
        stw     r6, 0(r5)
        or      r7, r1, r2
        bnz     r7, done
        rdsr    r8, domh
        la      r9, dims
        stw     r3, 0(r9)
        stw     r8, 4(r9)
done:   exit
        .data
dims:   .space  8
out:    .space  262144
)";

// A kernel whose parameter comes from the command processor's argument block: every
// work item stores index * scale at out[index], index = ly * domw + lx, where scale is
// the first word at `rdsr arg`.  The text only: a test appends its .data, which must
// define `out`.
inline constexpr const char* kArgKernelText = R"(
        .text
main:   rdsr    r1, lx
        rdsr    r2, ly
        rdsr    r3, domw
        rdsr    r10, arg
        ldw     r11, 0(r10)
        mul     r4, r2, r3
        add     r4, r4, r1
        mul     r6, r4, r11
        shli    r4, r4, 2
        la      r5, out
        add     r5, r5, r4
        stw     r6, 0(r5)
        exit
)";

// What item (x, y) leaves in out.
inline uint32_t grid_value(uint32_t x, uint32_t y) {
  return y << 16 | x;
}

}  // namespace umbra::testkit
