// Umbra binary32 arithmetic: the bit-exact reference for the float instructions
// (isa/isa.yaml, fp_semantics).  Everything is integer arithmetic on sign, biased
// exponent and 24-bit significand, so the result never depends on the host's FPU
// or compiler flags.  The code is laid out as the RTL FPU is: unpack (with DAZ),
// special-case select, an integer datapath that leaves a normalized significand
// plus guard and sticky bits, and one shared round-and-pack stage that applies
// RNE, overflow and FTZ.  Keep the two side by side when changing either: the
// stage boundaries and bit widths here are the ones the hardware uses.
#include "umbra/fp32.h"

namespace umbra::fp32 {
namespace {

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kExpMask = 0x7f800000u;
constexpr uint32_t kFracMask = 0x007fffffu;
constexpr uint32_t kHidden = 0x00800000u;
constexpr int kBias = 127;
constexpr int kExpInfNaN = 255;

constexpr uint32_t infinity(uint32_t sign) {
  return sign << 31 | kExpMask;
}
constexpr uint32_t zero(uint32_t sign) {
  return sign << 31;
}

// One operand as the unpack stage delivers it.  DAZ happens here, once: an
// exponent field of 0 makes the operand a zero of the same sign, so no later
// stage ever sees a denormal significand.
struct Operand {
  uint32_t sign;  // 0 or 1
  int exp;        // biased exponent field; 0 for a zero
  uint32_t sig;   // significand with the hidden bit (bit 23); 0 for a zero
  bool is_zero;
  bool is_inf;
  bool is_nan;
};

Operand unpack(uint32_t x) {
  Operand o;
  o.sign = x >> 31;
  o.exp = static_cast<int>((x & kExpMask) >> 23);
  const uint32_t frac = x & kFracMask;
  o.is_zero = o.exp == 0;
  o.is_inf = o.exp == kExpInfNaN && frac == 0;
  o.is_nan = o.exp == kExpInfNaN && frac != 0;
  o.sig = o.is_zero ? 0 : (kHidden | frac);
  return o;
}

// The operand's bits after DAZ: what min/max return and compares look at.
uint32_t flush_input(uint32_t x) {
  return (x & kExpMask) == 0 ? x & kSignBit : x;
}

int leading_zeros32(uint32_t x) {
  return x == 0 ? 32 : __builtin_clz(x);
}
int leading_zeros64(uint64_t x) {
  return x == 0 ? 64 : __builtin_clzll(x);
}

// Shared round-and-pack stage.  `sig` is normalized (bit 23 set) and `exp` is the
// biased exponent of that value with the range unbounded (it may be <= 0 or
// >= 255).  Rounding first and range-checking second is exactly "tininess after
// rounding": a value just below 2^-126 that rounds up to 2^-126 survives.
uint32_t round_and_pack(uint32_t sign, int exp, uint32_t sig, bool guard, bool sticky) {
  if (guard && (sticky || (sig & 1))) {
    ++sig;
    if (sig >> 24) {  // 1.11..1 rounded up to 10.00..0: renormalize
      sig >>= 1;
      ++exp;
    }
  }
  if (exp >= kExpInfNaN) return infinity(sign);
  if (exp <= 0) return zero(sign);  // FTZ
  return sign << 31 | static_cast<uint32_t>(exp) << 23 | (sig & kFracMask);
}

// Sign-magnitude to a two's-complement key, one's-complement style (negative
// values are ~magnitude), so a plain signed compare orders all non-NaN values and
// puts -0 just below +0.  min/max want that order; compares treat the two zeros
// as equal separately.
int32_t order_key(uint32_t x) {
  return static_cast<int32_t>(x & kSignBit ? x ^ 0x7fffffffu : x);
}

bool both_zero(uint32_t a, uint32_t b) {
  return ((flush_input(a) | flush_input(b)) & ~kSignBit) == 0;
}

bool either_nan(uint32_t a, uint32_t b) {
  return unpack(a).is_nan || unpack(b).is_nan;
}

}  // namespace

uint32_t add(uint32_t a, uint32_t b) {
  Operand x = unpack(a);
  Operand y = unpack(b);
  if (x.is_nan || y.is_nan) return kCanonicalNaN;
  if (x.is_inf || y.is_inf) {
    if (x.is_inf && y.is_inf && x.sign != y.sign) return kCanonicalNaN;
    return infinity(x.is_inf ? x.sign : y.sign);
  }

  // Swap so that x has the larger magnitude: the result then takes x's sign, and
  // an effective subtraction never goes negative.  Zeros (exp 0, sig 0) need no
  // special path; they fall out of the datapath below.
  if (y.exp > x.exp || (y.exp == x.exp && y.sig > x.sig)) {
    const Operand t = x;
    x = y;
    y = t;
  }
  const bool subtract = x.sign != y.sign;

  // 27-bit working significands: 24 bits, then guard, round and sticky.  Three
  // extra bits are enough: when the alignment shift is 2 or more, cancellation
  // can cost at most one bit of normalization; when it is 0 or 1 nothing is
  // shifted out and the difference is exact.
  const uint32_t mx = x.sig << 3;
  uint32_t my = y.sig << 3;
  const int shift = x.exp - y.exp;
  if (shift >= 27) {
    my = my != 0;  // everything lands in sticky
  } else if (shift > 0) {
    const bool lost = (my & ((1u << shift) - 1)) != 0;
    my = my >> shift | lost;  // jam the shifted-out bits into sticky
  }

  uint32_t m = subtract ? mx - my : mx + my;  // < 2^28
  // IEEE: an exact zero sum is +0 unless both addends were -0.
  if (m == 0) return zero(subtract ? 0 : x.sign);

  int exp = x.exp;
  if (m >> 27) {  // carry out of an addition: shift right, keep sticky
    m = m >> 1 | (m & 1);
    ++exp;
  } else {  // cancellation: shift left until bit 26 is set
    const int lz = leading_zeros32(m) - 5;
    m <<= lz;
    exp -= lz;
  }
  return round_and_pack(x.sign, exp, m >> 3, (m >> 2) & 1, (m & 3) != 0);
}

uint32_t sub(uint32_t a, uint32_t b) {
  return add(a, b ^ kSignBit);
}

uint32_t mul(uint32_t a, uint32_t b) {
  const Operand x = unpack(a);
  const Operand y = unpack(b);
  const uint32_t sign = x.sign ^ y.sign;
  if (x.is_nan || y.is_nan) return kCanonicalNaN;
  if ((x.is_inf && y.is_zero) || (x.is_zero && y.is_inf)) return kCanonicalNaN;
  if (x.is_inf || y.is_inf) return infinity(sign);
  if (x.is_zero || y.is_zero) return zero(sign);

  // 24 x 24 -> 48-bit product in [2^46, 2^48): one conditional 1-bit normalize.
  uint64_t p = static_cast<uint64_t>(x.sig) * y.sig;
  int exp = x.exp + y.exp - kBias;
  if (p >> 47) {
    ++exp;
  } else {
    p <<= 1;
  }
  return round_and_pack(sign, exp, static_cast<uint32_t>(p >> 24), (p >> 23) & 1, (p & 0x7fffff) != 0);
}

uint32_t madd(uint32_t a, uint32_t b, uint32_t c) {
  return add(mul(a, b), c);
}

uint32_t min(uint32_t a, uint32_t b) {
  const bool a_nan = unpack(a).is_nan;
  const bool b_nan = unpack(b).is_nan;
  if (a_nan && b_nan) return kCanonicalNaN;
  if (a_nan) return flush_input(b);
  if (b_nan) return flush_input(a);
  const uint32_t fa = flush_input(a);
  const uint32_t fb = flush_input(b);
  return order_key(fb) < order_key(fa) ? fb : fa;
}

uint32_t max(uint32_t a, uint32_t b) {
  const bool a_nan = unpack(a).is_nan;
  const bool b_nan = unpack(b).is_nan;
  if (a_nan && b_nan) return kCanonicalNaN;
  if (a_nan) return flush_input(b);
  if (b_nan) return flush_input(a);
  const uint32_t fa = flush_input(a);
  const uint32_t fb = flush_input(b);
  return order_key(fb) > order_key(fa) ? fb : fa;
}

uint32_t abs(uint32_t a) {
  return a & ~kSignBit;
}
uint32_t neg(uint32_t a) {
  return a ^ kSignBit;
}

bool eq(uint32_t a, uint32_t b) {
  if (either_nan(a, b)) return false;
  return both_zero(a, b) || flush_input(a) == flush_input(b);
}

bool lt(uint32_t a, uint32_t b) {
  if (either_nan(a, b) || both_zero(a, b)) return false;
  return order_key(flush_input(a)) < order_key(flush_input(b));
}

bool le(uint32_t a, uint32_t b) {
  if (either_nan(a, b)) return false;
  return both_zero(a, b) || order_key(flush_input(a)) <= order_key(flush_input(b));
}

uint32_t itof(int32_t a) {
  if (a == 0) return 0;
  const uint32_t sign = a < 0;
  // Magnitude in 32 unsigned bits, so INT_MIN (2^31) needs no special case.
  uint32_t mag = sign ? 0u - static_cast<uint32_t>(a) : static_cast<uint32_t>(a);
  const int lz = leading_zeros32(mag);
  mag <<= lz;  // leading one at bit 31: 24 bits, guard at bit 7, sticky below
  return round_and_pack(sign, kBias + 31 - lz, mag >> 8, (mag >> 7) & 1, (mag & 0x7f) != 0);
}

int32_t ftoi(uint32_t a) {
  const Operand x = unpack(a);
  if (x.is_nan || x.is_zero) return 0;
  const int e = x.exp - kBias;  // value = sig * 2^(e - 23)
  if (e < 0) return 0;          // |value| < 1 truncates to 0
  // |value| >= 2^31 (including inf).  -2^31 itself lands here and is exact.
  if (e >= 31) return x.sign ? INT32_MIN : INT32_MAX;
  const uint32_t mag = e >= 23 ? x.sig << (e - 23) : x.sig >> (23 - e);
  return static_cast<int32_t>(x.sign ? 0u - mag : mag);
}

uint32_t to_unorm8(uint32_t a) {
  const Operand x = unpack(a);
  if (x.is_nan || x.is_zero || x.sign) return 0;
  if (x.exp >= kBias) return 255;  // >= 1.0, including +inf

  // x * 255 = (sig * 255) * 2^-(150 - exp) exactly; sig * 255 = (sig << 8) - sig
  // fits in 32 bits.  Shift right with RNE; the result is at most 255 because
  // x < 1.  (The only exact tie is x = 0.5 -> 127.5, where ties-to-even and
  // ties-away agree, so round-half-up logic would give the same bits.)
  const uint64_t p = (static_cast<uint64_t>(x.sig) << 8) - x.sig;
  const int shift = kBias + 23 - x.exp;  // 24 .. 149
  if (shift > 32) return 0;              // p < 2^32, so x * 255 < 1/2
  uint32_t q = static_cast<uint32_t>(p >> shift);
  const bool guard = (p >> (shift - 1)) & 1;
  const bool sticky = (p & ((uint64_t{1} << (shift - 1)) - 1)) != 0;
  if (guard && (sticky || (q & 1))) ++q;
  return q;
}

uint32_t from_unorm8(uint32_t n) {
  // The unpack unit has an 8-bit input; only the channel byte counts.
  n &= 0xff;
  if (n == 0) return 0;
  // n / 255 = n * (2^-8 + 2^-16 + ...): in binary it is the byte n repeated
  // forever after the point.  Eight copies give the first 64 bits; the infinite
  // tail is never zero, so sticky is always 1 and no ties occur.  255 becomes
  // 0.111..1 and rounds up to exactly 1.0.
  uint64_t f = n * 0x0101010101010101ull;
  const int lz = leading_zeros64(f);  // 0 .. 7
  f <<= lz;                           // value = 1.f * 2^(-1 - lz)
  return round_and_pack(0, kBias - 1 - lz, static_cast<uint32_t>(f >> 40), (f >> 39) & 1, true);
}

}  // namespace umbra::fp32
