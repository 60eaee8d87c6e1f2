// umbra::fp32 against the host's IEEE-754 hardware configured to the ISA rules
// (SSE with MXCSR FTZ|DAZ, round to nearest even).  Random operands are drawn
// with a fixed seed and biased towards the classes where FP units go wrong:
// zeros, denormals, infinities, NaNs, the extremes of the exponent range,
// exponents close together (cancellation) and short significands (exact
// results and rounding ties).  Explicit edge cases check fixed expected bits.
#include "umbra/fp32.h"

#include <gtest/gtest.h>
#include <xmmintrin.h>

#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "umbra/format.h"

namespace fp = umbra::fp32;

namespace {

using umbra::hex8;

constexpr int kRandomCount = 1000000;
constexpr int kMaxReported = 10;
constexpr uint64_t kSeed = 0x756d627261u;  // "umbra"

float to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
bool is_nan_bits(uint32_t u) {
  return (u & 0x7fffffffu) > 0x7f800000u;
}
uint32_t canonical(uint32_t u) {
  return is_nan_bits(u) ? fp::kCanonicalNaN : u;
}

// Puts the host SSE unit under the ISA rules for the lifetime of the object.
class HostRules {
 public:
  HostRules() : saved_(_mm_getcsr()) {
    // FTZ (bit 15) | DAZ (bit 6); rounding control (bits 14:13) = 0, nearest.
    _mm_setcsr((saved_ & ~0x6000u) | 0x8040u);
  }
  ~HostRules() { _mm_setcsr(saved_); }
  HostRules(const HostRules&) = delete;
  HostRules& operator=(const HostRules&) = delete;

 private:
  unsigned saved_;
};

// Host reference operations.  volatile keeps the compiler from folding or
// reordering them around the MXCSR change; noinline keeps them honest in the
// optimized build.
#define HOST_FN __attribute__((noinline))

HOST_FN uint32_t host_add(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  volatile float r = x + y;
  return canonical(to_bits(r));
}
HOST_FN uint32_t host_sub(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  volatile float r = x - y;
  return canonical(to_bits(r));
}
HOST_FN uint32_t host_mul(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  volatile float r = x * y;
  return canonical(to_bits(r));
}
HOST_FN uint32_t host_madd(uint32_t a, uint32_t b, uint32_t c) {
  volatile float x = to_float(a), y = to_float(b), z = to_float(c);
  volatile float p = x * y;  // rounded and flushed on its own: not fused
  volatile float r = p + z;
  return canonical(to_bits(r));
}
// DAZ as the host applies it: x * 1 is exact for every non-NaN operand except a
// denormal, which DAZ turns into a zero of the same sign.
HOST_FN uint32_t host_flush(uint32_t a) {
  volatile float x = to_float(a), one = 1.0f;
  volatile float r = x * one;
  return to_bits(r);
}
HOST_FN bool host_eq(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  return x == y;
}
HOST_FN bool host_lt(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  return x < y;
}
HOST_FN bool host_le(uint32_t a, uint32_t b) {
  volatile float x = to_float(a), y = to_float(b);
  return x <= y;
}
// minNum/maxNum built from host compares; SSE minss/maxss are not minNum.
uint32_t host_minmax(uint32_t a, uint32_t b, bool want_max) {
  const bool a_nan = is_nan_bits(a), b_nan = is_nan_bits(b);
  if (a_nan && b_nan) return fp::kCanonicalNaN;
  if (a_nan) return host_flush(b);
  if (b_nan) return host_flush(a);
  const uint32_t x = host_flush(a), y = host_flush(b);
  if (host_lt(x, y)) return want_max ? y : x;
  if (host_lt(y, x)) return want_max ? x : y;
  // Equal: identical bits, or two zeros where -0 < +0.
  const bool x_neg = x >> 31;
  return (x_neg != want_max) ? x : y;
}
HOST_FN uint32_t host_itof(int32_t a) {
  volatile int32_t i = a;
  volatile float r = static_cast<float>(i);
  return to_bits(r);
}
// ftoi and to_unorm8: exact double arithmetic (a float converts to double
// exactly, after host DAZ), with the range checks written out, because casting
// an out-of-range float to int is undefined behaviour.
int32_t host_ftoi(uint32_t a) {
  if (is_nan_bits(a)) return 0;
  const double d = to_float(host_flush(a));
  if (d >= 2147483648.0) return INT32_MAX;
  if (d < -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(std::trunc(d));
}
uint32_t host_to_unorm8(uint32_t a) {
  if (is_nan_bits(a)) return 0;
  const double d = to_float(host_flush(a));
  if (d <= 0.0) return 0;
  if (d >= 1.0) return 255;
  const double y = d * 255.0;  // 24-bit x 8-bit significands: exact in double
  const double fl = std::floor(y);
  const double frac = y - fl;  // exact
  uint32_t q = static_cast<uint32_t>(fl);
  if (frac > 0.5 || (frac == 0.5 && (q & 1))) ++q;
  return q;
}

// Collects mismatches for one operation; reports the first few with their
// operands in hex, and the total at the end.
class Mismatches {
 public:
  explicit Mismatches(const char* op) : op_(op) {}
  ~Mismatches() { EXPECT_EQ(count_, 0) << op_ << ": " << count_ << " mismatches"; }
  // Operands are formatted only on failure: the loops run a million times.
  template <typename T>
  void check(std::initializer_list<uint32_t> operands, T got, T want) {
    if (got == want) return;
    if (++count_ <= kMaxReported) {
      std::string text;
      for (uint32_t u : operands) text += (text.empty() ? "" : ", ") + hex8(u);
      ADD_FAILURE() << op_ << "(" << text << "): got " << hex8(static_cast<uint32_t>(got)) << ", want "
                    << hex8(static_cast<uint32_t>(want));
    }
  }

 private:
  const char* op_;
  int count_ = 0;
};

std::string args(uint32_t a) {
  return hex8(a);
}
std::string args(uint32_t a, uint32_t b) {
  return hex8(a) + ", " + hex8(b);
}

// Biased operand generator.
class Gen {
 public:
  Gen() : rng_(kSeed) {}
  explicit Gen(uint64_t seed) : rng_(seed) {}

  uint32_t bits(int n) { return n == 0 ? 0 : static_cast<uint32_t>(rng_() >> (64 - n)); }
  int range(int lo, int hi) {  // inclusive
    return lo + static_cast<int>(bits(32) % static_cast<uint32_t>(hi - lo + 1));
  }

  // A float; `partner` (if any) steers exponent and significand towards
  // another operand so that cancellation, alignment boundaries and, for
  // products (`product`), results at the edges of the exponent range and at
  // binade boundaries occur often.
  uint32_t operand(const uint32_t* partner = nullptr, bool product = false) {
    const int pe = partner ? static_cast<int>((*partner >> 23) & 0xff) : 127;
    const uint32_t pf = partner ? *partner & 0x7fffff : 0;
    int e;
    switch (range(0, partner ? 15 : 10)) {
      case 0: e = 0; break;    // zero / denormal
      case 1: e = 255; break;  // inf / NaN
      case 2:
      case 3: e = range(1, 3); break;  // near underflow
      case 4:
      case 5: e = range(252, 254); break;  // near overflow
      case 6:
      case 7:
      case 8: e = range(117, 137); break;  // ordinary
      case 9:
      case 10: e = range(0, 255); break;  // anything
      case 11:
      case 12:  // sums: close exponents (cancellation); products: near 1
        e = product ? 254 - pe + range(-1, 1) : pe + range(-2, 2);
        break;
      case 13:  // sums: alignment around the guard/sticky boundary
        e = product ? 254 - pe + range(-3, 3) : pe + range(-27, 27);
        break;
      case 14:  // products near 2^-126; sums: equal exponents
        e = product ? 127 - pe + range(-2, 2) : pe;
        break;
      default:  // products near overflow
        e = product ? 381 - pe + range(-2, 2) : pe + range(-1, 1);
        break;
    }
    if (e < 0) e = 0;
    if (e > 255) e = 255;
    uint32_t f;
    switch (range(0, partner ? 8 : 5)) {
      case 0: f = 0; break;
      case 1: f = 0x7fffff; break;
      case 2:
      case 3: f = bits(23); break;
      case 4: f = bits(23) & ~((1u << range(0, 23)) - 1); break;  // short
      case 5: f = bits(23) >> range(0, 23); break;                // small (denormals)
      case 6: f = pf; break;                                      // same significand
      case 7: f = (pf + static_cast<uint32_t>(range(-4, 4))) & 0x7fffff; break;
      default:
        if (product) {  // significand product close to 2: a binade boundary
          const uint64_t sig = (uint64_t{2} << 46) / (pf | 0x800000u);
          f = static_cast<uint32_t>(sig + range(-2, 2)) & 0x7fffff;
        } else {  // differ in the last bits only: deep cancellation
          f = pf ^ bits(range(0, 4));
        }
        break;
    }
    return bits(1) << 31 | static_cast<uint32_t>(e) << 23 | f;
  }

  int32_t integer() {
    switch (range(0, 3)) {
      case 0: return static_cast<int32_t>(bits(32));
      case 1: {  // random length: many values near the 24-bit boundary
        const uint32_t v = bits(range(0, 32));
        return static_cast<int32_t>(bits(1) ? 0u - v : v);
      }
      case 2: {  // exactly halfway between two floats, or one off
        const int len = range(25, 31);
        uint32_t v = (bits(len) | 1u << (len - 1)) & ~((1u << (len - 24)) - 1);
        v |= 1u << (len - 25);
        v += static_cast<uint32_t>(range(-1, 1));
        return static_cast<int32_t>(bits(1) ? 0u - v : v);
      }
      default: {
        static const int32_t kSpecial[] = {0, 1, -1, INT32_MAX, INT32_MIN, 16777216, 16777217, -16777217};
        return kSpecial[range(0, 7)];
      }
    }
  }

 private:
  std::mt19937_64 rng_;
};

// ---------------------------------------------------------------------------
// The host really is configured as we think.

TEST(Fp32Host, RulesAreInEffect) {
  HostRules rules;
  EXPECT_EQ(host_flush(0x00000001u), 0x00000000u);  // DAZ
  EXPECT_EQ(host_flush(0x80400000u), 0x80000000u);
  EXPECT_EQ(host_mul(0x00800000u, 0x3f000000u), 0x00000000u);  // FTZ
  EXPECT_EQ(host_add(0x3f800000u, 0x33800000u), 0x3f800000u);  // RNE tie
}

// ---------------------------------------------------------------------------
// Random operands against the host.

template <typename Ours, typename Host>
void random_binary(const char* name, Ours ours, Host host, bool product) {
  HostRules rules;
  Gen gen;
  Mismatches bad(name);
  for (int i = 0; i < kRandomCount; ++i) {
    const uint32_t a = gen.operand();
    const uint32_t b = gen.bits(2) ? gen.operand(&a, product) : gen.operand();
    const bool swap = gen.bits(1);
    const uint32_t x = swap ? b : a, y = swap ? a : b;
    bad.check({x, y}, ours(x, y), host(x, y));
  }
}

TEST(Fp32Random, Add) {
  random_binary("add", fp::add, host_add, false);
}
TEST(Fp32Random, Sub) {
  random_binary("sub", fp::sub, host_sub, false);
}
TEST(Fp32Random, Mul) {
  random_binary("mul", fp::mul, host_mul, true);
}
TEST(Fp32Random, Min) {
  random_binary(
      "min", fp::min, [](uint32_t a, uint32_t b) { return host_minmax(a, b, false); }, false);
}
TEST(Fp32Random, Max) {
  random_binary(
      "max", fp::max, [](uint32_t a, uint32_t b) { return host_minmax(a, b, true); }, false);
}
TEST(Fp32Random, Eq) {
  random_binary("eq", fp::eq, host_eq, false);
}
TEST(Fp32Random, Lt) {
  random_binary("lt", fp::lt, host_lt, false);
}
TEST(Fp32Random, Le) {
  random_binary("le", fp::le, host_le, false);
}

TEST(Fp32Random, Madd) {
  HostRules rules;
  Gen gen;
  Mismatches bad("madd");
  for (int i = 0; i < kRandomCount; ++i) {
    const uint32_t a = gen.operand();
    const uint32_t b = gen.bits(2) ? gen.operand(&a, true) : gen.operand();
    // Steer the addend towards the product so the sum cancels often.
    const uint32_t p = host_mul(a, b);
    const uint32_t c = gen.bits(2) ? gen.operand(&p, false) : gen.operand();
    bad.check({a, b, c}, fp::madd(a, b, c), host_madd(a, b, c));
  }
}

TEST(Fp32Random, Itof) {
  HostRules rules;
  Gen gen;
  Mismatches bad("itof");
  for (int i = 0; i < kRandomCount; ++i) {
    const int32_t a = gen.integer();
    bad.check({static_cast<uint32_t>(a)}, fp::itof(a), host_itof(a));
  }
}

TEST(Fp32Random, Ftoi) {
  HostRules rules;
  Gen gen;
  Mismatches bad("ftoi");
  const uint32_t near_int = 0x4f000000u;  // 2^31: steer exponents to 2^0..2^31
  for (int i = 0; i < kRandomCount; ++i) {
    uint32_t a = gen.operand();
    if (gen.bits(1)) {
      a = (a & 0x807fffffu) | static_cast<uint32_t>(gen.range(120, 160)) << 23;
    } else if (gen.bits(2) == 0) {
      a = gen.operand(&near_int, false);
    }
    bad.check({a}, fp::ftoi(a), host_ftoi(a));
  }
}

TEST(Fp32Random, ToUnorm8) {
  HostRules rules;
  Gen gen;
  Mismatches bad("to_unorm8");
  for (int i = 0; i < kRandomCount; ++i) {
    uint32_t a = gen.operand();
    if (gen.bits(2)) {  // mostly (0, 1], where the rounding happens
      a = (a & 0x807fffffu) | static_cast<uint32_t>(gen.range(110, 127)) << 23;
      if (gen.bits(2)) a &= 0x7fffffffu;
    }
    bad.check({a}, fp::to_unorm8(a), host_to_unorm8(a));
  }
}

// ---------------------------------------------------------------------------
// Edge cases with fixed expected bits; each is also held against the host.

struct Case2 {
  uint32_t a, b, want;
};

void check_cases(const char* name, uint32_t (*ours)(uint32_t, uint32_t), uint32_t (*host)(uint32_t, uint32_t),
                 std::initializer_list<Case2> cases) {
  HostRules rules;
  for (const Case2& c : cases) {
    EXPECT_EQ(hex8(ours(c.a, c.b)), hex8(c.want)) << name << "(" << args(c.a, c.b) << ")";
    EXPECT_EQ(hex8(host(c.a, c.b)), hex8(c.want)) << "host " << name << "(" << args(c.a, c.b) << ")";
  }
}

constexpr uint32_t kPosZero = 0x00000000u, kNegZero = 0x80000000u;
constexpr uint32_t kOne = 0x3f800000u, kNegOne = 0xbf800000u;
constexpr uint32_t kPosInf = 0x7f800000u, kNegInf = 0xff800000u;
constexpr uint32_t kMaxFloat = 0x7f7fffffu, kMinNormal = 0x00800000u;
constexpr uint32_t kQNaN = 0x7fc00000u, kNaN = fp::kCanonicalNaN;

TEST(Fp32Edge, SignedZeros) {
  check_cases("add", fp::add, host_add,
              {{kOne, kNegOne, kPosZero},
               {kNegOne, kOne, kPosZero},
               {kNegZero, kNegZero, kNegZero},
               {kPosZero, kNegZero, kPosZero},
               {kNegZero, kPosZero, kPosZero},
               {kPosZero, kPosZero, kPosZero},
               {kNegZero, kOne, kOne},
               {0x80000001u, kNegZero, kNegZero},  // denormal -> -0
               {0x80000001u, 0x00000001u, kPosZero},
               {kMaxFloat, 0xff7fffffu, kPosZero}});
  check_cases("sub", fp::sub, host_sub,
              {{kOne, kOne, kPosZero},
               {kNegZero, kPosZero, kNegZero},
               {kNegZero, kNegZero, kPosZero},
               {kPosZero, kNegZero, kPosZero}});
  check_cases("mul", fp::mul, host_mul,
              {{kNegZero, kOne, kNegZero},
               {kNegZero, kNegOne, kPosZero},
               {kPosZero, kNegOne, kNegZero},
               {0x80000001u, kOne, kNegZero},
               {0x00000001u, kNegOne, kNegZero}});
}

TEST(Fp32Edge, InvalidAndNaN) {
  check_cases("add", fp::add, host_add,
              {{kPosInf, kNegInf, kNaN},
               {kNegInf, kPosInf, kNaN},
               {kPosInf, kPosInf, kPosInf},
               {kNegInf, kNegInf, kNegInf},
               {kNegInf, kMaxFloat, kNegInf},
               {0xffc00001u, kOne, kNaN},  // payload and sign dropped
               {kOne, 0x7f800001u, kNaN},  // signalling NaN
               {0xff812345u, 0x7fc54321u, kNaN},
               {kQNaN, kPosInf, kNaN}});
  check_cases("sub", fp::sub, host_sub, {{kPosInf, kPosInf, kNaN}, {kNegInf, kPosInf, kNegInf}});
  check_cases("mul", fp::mul, host_mul,
              {{kPosZero, kPosInf, kNaN},
               {kNegInf, kPosZero, kNaN},
               {0x00000001u, kPosInf, kNaN},  // denormal is zero: 0 * inf
               {kPosInf, 0x807fffffu, kNaN},
               {kNegInf, kNegInf, kPosInf},
               {kNegInf, kOne, kNegInf},
               {0xffffffffu, kOne, kNaN}});
}

TEST(Fp32Edge, DenormalInputsAreZero) {
  check_cases("add", fp::add, host_add,
              {{0x00000001u, 0x00000001u, kPosZero},
               {0x007fffffu, kMinNormal, kMinNormal},
               {kOne, 0x007fffffu, kOne},
               {0x807fffffu, kMinNormal, kMinNormal}});
  check_cases("mul", fp::mul, host_mul,
              {{0x007fffffu, 0x7f000000u, kPosZero},  // not 2^-1 if DAZ
               {0x00400000u, kMaxFloat, kPosZero}});
  EXPECT_EQ(fp::ftoi(0x007fffffu), 0);
  EXPECT_EQ(fp::to_unorm8(0x007fffffu), 0u);
  EXPECT_FALSE(fp::lt(0x80000001u, 0x00000001u));
  EXPECT_TRUE(fp::eq(0x80000001u, 0x00000001u));
  EXPECT_TRUE(fp::le(0x00000001u, kNegZero));
  EXPECT_TRUE(fp::lt(0x00000001u, kMinNormal));
}

TEST(Fp32Edge, DenormalResultsFlush) {
  check_cases("mul", fp::mul, host_mul,
              {{kMinNormal, 0x3f000000u, kPosZero},  // exactly 2^-127
               {0x80800000u, 0x3f7fffffu, kNegZero},
               {0x00ffffffu, 0x3f000000u, kPosZero},
               {0x1f800000u, 0x1f800000u, kPosZero}});  // 2^-64 * 2^-64
  check_cases("sub", fp::sub, host_sub,
              {{0x00800001u, kMinNormal, kPosZero},  // 2^-149 result
               {0x80800000u, 0x80800001u, kPosZero},
               {0x00800001u, 0x80800000u, 0x01000000u}});
  check_cases("add", fp::add, host_add, {{0x01000000u, 0x80ffffffu, kPosZero}});  // 2^-125 - tiny
}

TEST(Fp32Edge, RoundingUpIntoMinNormal) {
  // Tininess is detected after rounding: a product below 2^-126 that rounds
  // (with unbounded exponent) to 2^-126 is kept; one that stays below goes.
  check_cases("mul", fp::mul, host_mul,
              {// (2 - 2^-23) * 2^-127 = 2^-126 - 2^-150 is exact in 24 bits: flushed.
               {0x00ffffffu, 0x3f000000u, kPosZero},
               // (2 - 2^-46) * 2^-127 rounds up to 2^-126: kept.
               {0x00ffffffu, 0x3f000001u, kMinNormal},
               {0x80ffffffu, 0x3f000001u, 0x80800000u},
               // 0xf80000 * 0x842108 = (2^25 - 1) * 2^22: the product is 2^-126 *
               // (1 - 2^-25), a tie between the odd 1.11..1 * 2^-127 and 2^-126.
               {0x3f780000u, 0x00842108u, kMinNormal},
               {0xbf780000u, 0x00842108u, 0x80800000u},
               // One ulp less in b: below the tie, stays under 2^-126, flushed.
               {0x3f780000u, 0x00842107u, kPosZero},
               // (1 - 2^-24) * 2^-126 is exact in 24 bits: flushed.
               {0x3f7fffffu, kMinNormal, kPosZero}});
}

TEST(Fp32Edge, RoundingTies) {
  check_cases("add", fp::add, host_add,
              {{kOne, 0x33800000u, kOne},                // 1 + 2^-24: tie, to even
               {0x3f800001u, 0x33800000u, 0x3f800002u},  // odd: up
               {kOne, 0x33800001u, 0x3f800001u},         // just above the tie
               {kOne, 0x33000000u, kOne},                // 2^-25: below the tie
               {kOne, 0xb3800000u, 0x3f7fffffu},         // 1 - 2^-24: exact
               {kOne, 0xb3000000u, kOne},                // 1 - 2^-25: tie, to even
               {0x4b000000u, 0x3f000000u, 0x4b000000u},  // 2^23 + 0.5
               {0x4b000001u, 0x3f000000u, 0x4b000002u},
               {0x4b7fffffu, 0x3f000000u, 0x4b800000u}});  // carry out
  check_cases("mul", fp::mul, host_mul,
              {{0x3f800001u, 0x3f800001u, 0x3f800002u},    // 1 + 2^-22 + 2^-46
               {0x3fc00000u, 0x3f800001u, 0x3fc00002u},    // 1.5(1+2^-23): tie up
               {0x3fc00000u, 0x3f800003u, 0x3fc00004u}});  // tie, to even
}

TEST(Fp32Edge, Overflow) {
  check_cases("add", fp::add, host_add,
              {{kMaxFloat, kMaxFloat, kPosInf},
               {0xff7fffffu, 0xff7fffffu, kNegInf},
               {kMaxFloat, 0x73000000u, kPosInf},  // + half ulp: tie, to even
               {kMaxFloat, 0x72800000u, kMaxFloat}});
  check_cases("mul", fp::mul, host_mul,
              {{kMaxFloat, 0x40000000u, kPosInf},
               {kMaxFloat, 0xc0000000u, kNegInf},
               {0x5f800000u, 0x5f800000u, kPosInf},  // 2^64 * 2^64
               {0x5f800000u, 0x5f7fffffu, 0x7f7fffffu},
               {kMaxFloat, 0x3f800001u, kPosInf}});
}

TEST(Fp32Edge, MaddIsNotFused) {
  HostRules rules;
  // (1 + 2^-23)^2 - (1 + 2^-22): fused would give 2^-46; rounding the product
  // first gives 0.
  EXPECT_EQ(hex8(fp::madd(0x3f800001u, 0x3f800001u, 0xbf800002u)), hex8(kPosZero));
  EXPECT_EQ(hex8(host_madd(0x3f800001u, 0x3f800001u, 0xbf800002u)), hex8(kPosZero));
  // A tiny product is flushed before the add: 2^-127 + 2^-126 = 2^-126.
  EXPECT_EQ(hex8(fp::madd(kMinNormal, 0x3f000000u, kMinNormal)), hex8(kMinNormal));
  // The product overflows to inf even though adding -max would bring it back.
  EXPECT_EQ(hex8(fp::madd(kMaxFloat, 0x40000000u, 0xff7fffffu)), hex8(kPosInf));
  EXPECT_EQ(hex8(fp::madd(kPosZero, kPosInf, kOne)), hex8(kNaN));
  EXPECT_EQ(hex8(fp::madd(kNegZero, kOne, kNegZero)), hex8(kNegZero));
}

TEST(Fp32Edge, MinMax) {
  auto host_min = [](uint32_t a, uint32_t b) { return host_minmax(a, b, false); };
  auto host_max = [](uint32_t a, uint32_t b) { return host_minmax(a, b, true); };
  check_cases("min", fp::min, +host_min,
              {{kNegZero, kPosZero, kNegZero},
               {kPosZero, kNegZero, kNegZero},
               {kQNaN, kOne, kOne},
               {kOne, 0xffc12345u, kOne},
               {kQNaN, 0x7f800001u, kNaN},
               {0xffffffffu, 0x7fc00001u, kNaN},
               {kQNaN, 0x80000001u, kNegZero},  // the other one, after DAZ
               {0x00000005u, kOne, kPosZero},
               {0x80000005u, 0x00000007u, kNegZero},
               {kNegInf, kMaxFloat, kNegInf},
               {kOne, kNegOne, kNegOne}});
  check_cases("max", fp::max, +host_max,
              {{kNegZero, kPosZero, kPosZero},
               {kPosZero, kNegZero, kPosZero},
               {kQNaN, kNegOne, kNegOne},
               {kQNaN, kQNaN, kNaN},
               {0x7f800001u, 0x00000003u, kPosZero},
               {0x80000003u, kNegOne, kNegZero},
               {kPosInf, kMaxFloat, kPosInf},
               {kOne, kNegOne, kOne}});
}

TEST(Fp32Edge, Compares) {
  HostRules rules;
  struct C {
    uint32_t a, b;
    bool eq, lt, le;
  };
  const C cases[] = {
      {kPosZero, kNegZero, true, false, true},    {kNegZero, kPosZero, true, false, true},
      {0x00000001u, kPosZero, true, false, true}, {kQNaN, kQNaN, false, false, false},
      {kQNaN, kOne, false, false, false},         {kOne, 0x7f800001u, false, false, false},
      {kNegInf, kPosInf, false, true, true},      {kPosInf, kPosInf, true, false, true},
      {kNegOne, kNegZero, false, true, true},     {0xbf800001u, kNegOne, false, true, true},
      {kOne, 0x3f800001u, false, true, true},     {kMinNormal, 0x80800000u, false, false, false},
  };
  for (const C& c : cases) {
    SCOPED_TRACE(args(c.a, c.b));
    EXPECT_EQ(fp::eq(c.a, c.b), c.eq);
    EXPECT_EQ(fp::lt(c.a, c.b), c.lt);
    EXPECT_EQ(fp::le(c.a, c.b), c.le);
    EXPECT_EQ(host_eq(c.a, c.b), c.eq);
    EXPECT_EQ(host_lt(c.a, c.b), c.lt);
    EXPECT_EQ(host_le(c.a, c.b), c.le);
  }
}

TEST(Fp32Edge, AbsNegTouchOnlyTheSign) {
  EXPECT_EQ(fp::abs(0xffc12345u), 0x7fc12345u);
  EXPECT_EQ(fp::abs(0x80000001u), 0x00000001u);
  EXPECT_EQ(fp::abs(kNegZero), kPosZero);
  EXPECT_EQ(fp::neg(0x7f800001u), 0xff800001u);
  EXPECT_EQ(fp::neg(0x00000001u), 0x80000001u);
  EXPECT_EQ(fp::neg(kPosZero), kNegZero);
  EXPECT_EQ(fp::neg(kOne), kNegOne);
}

TEST(Fp32Edge, Ftoi) {
  HostRules rules;
  struct C {
    uint32_t a;
    int32_t want;
  };
  const C cases[] = {
      {0x4f000000u, INT32_MAX},   // 2^31
      {0x4effffffu, 2147483520},  // largest float below 2^31
      {0xcf000000u, INT32_MIN},   // -2^31, exact
      {0xcf000001u, INT32_MIN},   // below -2^31
      {0xceffffffu, -2147483520},
      {kPosInf, INT32_MAX},
      {kNegInf, INT32_MIN},
      {kQNaN, 0},
      {0xffc00000u, 0},
      {0x7f800001u, 0},
      {0x00000001u, 0},
      {0x80400000u, 0},
      {kNegZero, 0},
      {0x3f7fffffu, 0},
      {0xbf7fffffu, 0},
      {kOne, 1},
      {0xbfc00000u, -1},  // -1.5 toward zero
      {0x3fffffffu, 1},
      {0x4b7fffffu, 16777215},
      {0x4b800001u, 16777218},
      {0xcb000001u, -8388609},
      {0x4e800000u, 1073741824},
  };
  for (const C& c : cases) {
    EXPECT_EQ(fp::ftoi(c.a), c.want) << args(c.a);
    EXPECT_EQ(host_ftoi(c.a), c.want) << "host " << args(c.a);
  }
}

TEST(Fp32Edge, Itof) {
  HostRules rules;
  struct C {
    int32_t a;
    uint32_t want;
  };
  const C cases[] = {
      {0, kPosZero},
      {1, kOne},
      {-1, kNegOne},
      {INT32_MIN, 0xcf000000u},
      {INT32_MAX, 0x4f000000u},  // rounds up to 2^31
      {INT32_MIN + 1, 0xcf000000u},
      {16777216, 0x4b800000u},
      {16777217, 0x4b800000u},  // tie, to even (down)
      {16777219, 0x4b800002u},  // tie, to even (up)
      {-16777217, 0xcb800000u},
      {16777218, 0x4b800001u},
      {0x7fffff80, 0x4effffffu},  // 2^31 - 128: exact
      {0x7fffff7f, 0x4effffffu},
      {0x7fffffbf, 0x4effffffu},
      {0x7fffffc0, 0x4f000000u},  // tie at the top, to even (up)
      {33554435, 0x4c000001u},    // 2^25 + 3: above the tie
  };
  for (const C& c : cases) {
    EXPECT_EQ(hex8(fp::itof(c.a)), hex8(c.want)) << c.a;
    EXPECT_EQ(hex8(host_itof(c.a)), hex8(c.want)) << "host " << c.a;
  }
}

TEST(Fp32Edge, ToUnorm8) {
  HostRules rules;
  // The float nearest to 0.5/255 and its neighbours: x * 255 just below and
  // above 1/2 (no float is exactly 0.5/255).
  const uint32_t half_step = to_bits(static_cast<float>(0.5 / 255.0));
  struct C {
    uint32_t a, want;
  };
  const C cases[] = {
      {kPosZero, 0},      {kNegZero, 0},      {kOne, 255},
      {0x3f7fffffu, 255},  // 255 - 255*2^-24 rounds to 255
      {0x40000000u, 255}, {kPosInf, 255},     {kNegInf, 0},
      {kNegOne, 0},       {0x80000001u, 0},   {0x00000001u, 0},
      {kMinNormal, 0},    {kQNaN, 0},         {0xffc00000u, 0},
      {0x7f800001u, 0},   {0x3f000000u, 128},  // 0.5 * 255 = 127.5: tie, to even
      {0x3effffffu, 127}, {0x3f000001u, 128}, {half_step - 1, 0},
      {half_step + 1, 1}, {0x3b808081u, 1},  // ~1/255
  };
  for (const C& c : cases) {
    EXPECT_EQ(fp::to_unorm8(c.a), c.want) << args(c.a);
    EXPECT_EQ(host_to_unorm8(c.a), c.want) << "host " << args(c.a);
  }
  // Ties at k + 1/2: x = (2k+1)/510 is a float only for 2k+1 = 255 (x = 0.5),
  // covered above.  Neighbours of every other k + 1/2 round away from the tie.
  EXPECT_EQ(fp::to_unorm8(half_step), host_to_unorm8(half_step));
}

TEST(Fp32Edge, FromUnorm8AllValues) {
  for (uint32_t n = 0; n < 256; ++n) {
    const uint32_t got = fp::from_unorm8(n);
    // Reference 1: double n/255 rounded to float.
    EXPECT_EQ(hex8(got), hex8(to_bits(static_cast<float>(n / 255.0)))) << n;
    // Reference 2, exact: neither float neighbour is closer to n/255.  Work in
    // units of half the float's ulp so the neighbour below a power of two
    // (spaced half as far) is an integer too: candidates 2m-2 (or 2m-1), 2m,
    // 2m+2, each compared to n/255 as |c * 255 - n * 2^k| in integers.
    if (n != 0 && n != 255) {
      const int exp = static_cast<int>(got >> 23) - 127 - 24;  // half-ulp
      ASSERT_LT(exp, 0);
      const int64_t m2 = 2 * static_cast<int64_t>((got & 0x7fffff) | 0x800000);
      const int64_t target = static_cast<int64_t>(n) << -exp;
      const auto dist = [&](int64_t c) {
        const int64_t d = c * 255 - target;
        return d < 0 ? -d : d;
      };
      const int64_t below = m2 == 2 * 0x800000 ? m2 - 1 : m2 - 2;
      EXPECT_LT(dist(m2), dist(m2 + 2)) << n;
      EXPECT_LT(dist(m2), dist(below)) << n;
    }
    EXPECT_EQ(fp::to_unorm8(got), n) << "round trip " << n;
  }
  EXPECT_EQ(fp::from_unorm8(0), kPosZero);
  EXPECT_EQ(fp::from_unorm8(255), kOne);
}

}  // namespace
