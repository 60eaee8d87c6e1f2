// Binary32 arithmetic with Umbra's rules (isa/isa.yaml, fp_semantics): DAZ on input,
// round to nearest even, FTZ on output (tininess after rounding), canonical NaN
// 0x7fc00000.  Implemented in integer arithmetic, the way the RTL does it, so it
// does not depend on the host's floating-point environment; the tests hold it
// against the host's IEEE arithmetic configured to the same rules.
#pragma once
#include <cstdint>

namespace umbra::fp32 {

constexpr uint32_t kCanonicalNaN = 0x7fc00000u;

uint32_t add(uint32_t a, uint32_t b);
uint32_t sub(uint32_t a, uint32_t b);
uint32_t mul(uint32_t a, uint32_t b);
// Not fused: add(mul(a, b), c).
uint32_t madd(uint32_t a, uint32_t b, uint32_t c);
uint32_t min(uint32_t a, uint32_t b);
uint32_t max(uint32_t a, uint32_t b);
uint32_t abs(uint32_t a);
uint32_t neg(uint32_t a);
bool eq(uint32_t a, uint32_t b);
bool lt(uint32_t a, uint32_t b);
bool le(uint32_t a, uint32_t b);
uint32_t itof(int32_t a);
int32_t ftoi(uint32_t a);
// One float to an unsigned 8-bit channel (the `pack` rule).
uint32_t to_unorm8(uint32_t a);
// One 8-bit channel to a float (the `unpack` rule).
uint32_t from_unorm8(uint32_t n);

}  // namespace umbra::fp32
