// fpu_bench: the Verilated rtl/fpu.v against the golden model umbra::fp32, bit for bit.
//
// The unit is driven the way the core drives it: a new operation every cycle, the
// functions and execute's integer multiplies interleaved in random order, and every
// result checked exactly when the unit gives it: an add/multiply on arith_result
// LATENCY rising edges after its inputs were sampled, any other function on
// misc_result and an integer multiply (int_mul: the 64-bit unsigned product of a and
// b on the shared multiplier) on int_product MISC_LATENCY edges after.  LATENCY and
// MISC_LATENCY are the parameters the bench was Verilated with (FPU_LATENCY and
// FPU_MISC_LATENCY, from testbench/fpu/CMakeLists.txt), so each build checks its
// own pipeline depth.  Per function it runs `--count` random operations (default
// 1,000,000) from generators biased toward the hard cases (near-equal exponents and
// cancellation, products at the 2^-126 boundary and at overflow, short significands
// that make rounding ties, ftoi limits, pack channel boundaries) plus a fixed
// edge-case sweep: every pair (and for fmadd every triple) from a list of special
// values, all 256 unpack values in all four lanes, hand-picked boundary cases and
// boundary pairs of integer products.  Function codes come from the ISA tables
// (isa.yaml).  The build makes one bench per FPU shape (testbench/fpu/CMakeLists.txt):
// the multiplier as `*` or as shift-and-add rows (MUL_ROWS=1, what an FPGA without
// DSP blocks gets), at several depths.
//
//   fpu_bench [--seed N] [--count N]      a mismatch prints function, operands, both
//                                         results in hex, and the seed to replay it
#include <algorithm>
#include <array>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vfpu.h"
#include "umbra/fp32.h"
#include "umbra/isa.h"
#include "verilated.h"

namespace {

namespace fp = umbra::fp32;
using umbra::isa::Op;

#if !defined(FPU_LATENCY) || !defined(FPU_MISC_LATENCY)
#error "FPU_LATENCY and FPU_MISC_LATENCY: the fpu parameters this bench was verilated with"
#endif
constexpr int kLatency = FPU_LATENCY;           // rtl/fpu.v LATENCY: add/multiply
constexpr int kMiscLatency = FPU_MISC_LATENCY;  // MISC_LATENCY: the rest, int_product
constexpr int kRing = std::max(kLatency, kMiscLatency);

bool is_arith(Op op) {
  return op == Op::FADD || op == Op::FSUB || op == Op::FMUL || op == Op::FMADD;
}

// The 0x4_ group, in opcode order; the RTL's `func` is the opcode's low nibble.
constexpr std::array<Op, 15> kFuncs = {Op::FADD, Op::FSUB, Op::FMUL, Op::FMADD, Op::FMIN,
                                       Op::FMAX, Op::FABS, Op::FNEG, Op::FSEQ,  Op::FSLT,
                                       Op::FSLE, Op::ITOF, Op::FTOI, Op::PACK,  Op::UNPACK};

struct Operation {
  Op op;
  uint32_t a, b, c;
};

uint32_t func_of(Op op) {
  return umbra::isa::info(op).opcode & 0xfu;
}
const char* name_of(Op op) {
  return umbra::isa::info(op).name;
}

uint32_t reference(const Operation& o) {
  switch (o.op) {
    case Op::FADD: return fp::add(o.a, o.b);
    case Op::FSUB: return fp::sub(o.a, o.b);
    case Op::FMUL: return fp::mul(o.a, o.b);
    case Op::FMADD: return fp::madd(o.a, o.b, o.c);
    case Op::FMIN: return fp::min(o.a, o.b);
    case Op::FMAX: return fp::max(o.a, o.b);
    case Op::FABS: return fp::abs(o.a);
    case Op::FNEG: return fp::neg(o.a);
    case Op::FSEQ: return fp::eq(o.a, o.b) ? 1u : 0u;
    case Op::FSLT: return fp::lt(o.a, o.b) ? 1u : 0u;
    case Op::FSLE: return fp::le(o.a, o.b) ? 1u : 0u;
    case Op::ITOF: return fp::itof(static_cast<int32_t>(o.a));
    case Op::FTOI: return static_cast<uint32_t>(fp::ftoi(o.a));
    case Op::PACK: return o.c << 16 | fp::to_unorm8(o.a) << 8 | fp::to_unorm8(o.b);
    case Op::UNPACK: return fp::from_unorm8((o.a >> (8 * (o.b & 3))) & 0xffu);
    default: break;
  }
  std::fprintf(stderr, "fpu_bench: no reference for %s\n", name_of(o.op));
  std::exit(2);
}

// ---- operand generators -------------------------------------------------------------

uint32_t make(uint32_t sign, uint32_t exp, uint32_t frac) {
  return (sign & 1) << 31 | (exp & 0xff) << 23 | (frac & 0x7fffff);
}

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}

  uint32_t u32() { return static_cast<uint32_t>(rng_()); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  bool coin(uint32_t one_in) { return below(one_in) == 0; }

  // A fraction that is often structured: zero, all ones, a single bit, a short
  // significand (few leading bits, the rest zero: exact products and sums, ties), a
  // long run of ones, or random.
  uint32_t frac() {
    switch (below(8)) {
      case 0: return 0;
      case 1: return 0x7fffff - below(4);
      case 2: return 1u << below(23);
      case 3: return below(4);
      case 4: {
        const uint32_t keep = 1 + below(23);  // significant fraction bits
        return (u32() & 0x7fffff) >> (23 - keep) << (23 - keep);
      }
      case 5: return 0x7fffff ^ (1u << below(23));
      default: return u32() & 0x7fffff;
    }
  }

  // An exponent field biased toward the edges of the range and toward 1.0.
  uint32_t exp() {
    switch (below(6)) {
      case 0: return below(4);         // zero/denormal and the smallest normals
      case 1: return 251 + below(5);   // the largest, inf/NaN
      case 2: return 120 + below(16);  // around 1.0
      default: return below(256);
    }
  }

  uint32_t any_float() {
    if (coin(4)) return u32();
    return make(u32(), exp(), frac());
  }

  // b close to a in magnitude: exponent within a few steps, the fraction equal,
  // nudged or structured; the sign random, so about half of the pairs cancel.
  uint32_t near(uint32_t a) {
    const int ea = static_cast<int>(a >> 23 & 0xff);
    const int span = coin(2) ? 2 : 28;
    const int eb = std::clamp(ea + static_cast<int>(below(2 * span + 1)) - span, 0, 255);
    uint32_t f = a & 0x7fffff;
    switch (below(4)) {
      case 0: break;
      case 1: f += below(9) - 4; break;
      case 2: f ^= u32() & ((1u << below(24)) - 1); break;
      default: f = frac(); break;
    }
    return make(u32(), static_cast<uint32_t>(eb), f);
  }

  uint32_t add_b(uint32_t a) { return coin(3) ? any_float() : near(a); }

  // Multiplier operands steered so the product lands near 1.0, near the 2^-126 FTZ
  // boundary or near overflow; the fractions of boundary cases are close to all ones
  // so the product rounds across the boundary.
  void mul_pair(uint32_t* a, uint32_t* b) {
    const uint32_t pick = below(5);
    if (pick == 0) {
      *a = any_float();
      *b = any_float();
      return;
    }
    const int target = pick == 1 ? 127 : pick == 2 ? 1 : pick == 3 ? 254 : 0;
    const int ea = 1 + static_cast<int>(below(254));
    const int eb = std::clamp(target + 127 - ea + static_cast<int>(below(5)) - 2, 0, 255);
    uint32_t fa = frac(), fb = frac();
    if (pick != 1 && coin(2)) {
      fa = 0x7fffff - below(3);
      fb = below(4);
    }
    *a = make(u32(), static_cast<uint32_t>(ea), fa);
    *b = make(u32(), static_cast<uint32_t>(eb), fb);
  }

  uint32_t int_operand() {
    switch (below(4)) {
      case 0: return u32();
      case 1: {
        const uint32_t bits = below(33);
        const uint32_t v = bits == 32 ? u32() : (u32() & ((1u << bits) - 1)) | (bits ? 1u << (bits - 1) : 0);
        return coin(2) ? 0u - v : v;
      }
      case 2: {  // odd values just above 2^24: every one needs rounding, many tie
        const uint32_t v = (1u << (24 + below(7))) + below(256);
        return coin(2) ? 0u - v : v;
      }
      default: {
        static constexpr uint32_t kInts[] = {0,          1,          0xffffffff, 0x7fffffff, 0x80000000,
                                             0x80000001, 0x00ffffff, 0x01000000, 0x01000001, 0x01000003,
                                             0xfeffffff, 0x7fffff80, 0x7fffffc0, 0x7fffffbf};
        return kInts[below(sizeof kInts / sizeof kInts[0])];
      }
    }
  }

  uint32_t ftoi_operand() {
    if (coin(4)) return any_float();
    return make(u32(), 118 + below(44), frac());  // |x| from 2^-9 to beyond 2^33
  }

  // A channel value for pack: mostly in (0, 1), often next to the float nearest to a
  // rounding boundary (k + 1/2) / 255 or a channel value k / 255.
  uint32_t pack_operand() {
    switch (below(4)) {
      case 0: return any_float();
      case 1: return make(u32() & (coin(8) ? 1 : 0), 110 + below(18), frac());
      default: {
        const uint32_t k = below(256);
        const float v = coin(2) ? (static_cast<float>(k) + 0.5f) / 255.0f : static_cast<float>(k) / 255.0f;
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits + below(9) - 4;
      }
    }
  }

  Operation random_op(Op op) {
    Operation o{op, any_float(), any_float(), u32()};
    switch (op) {
      case Op::FADD:
      case Op::FSUB: o.b = add_b(o.a); break;
      case Op::FMUL: mul_pair(&o.a, &o.b); break;
      case Op::FMADD: {
        mul_pair(&o.a, &o.b);
        // Often an addend that nearly cancels the rounded product.
        o.c = coin(3) ? any_float() : near(fp::mul(o.a, o.b));
        break;
      }
      case Op::FMIN:
      case Op::FMAX:
      case Op::FSEQ:
      case Op::FSLT:
      case Op::FSLE:
        switch (below(4)) {
          case 0: o.b = o.a; break;
          case 1: o.b = o.a ^ 0x80000000u; break;
          case 2: o.b = near(o.a); break;
          default: break;
        }
        break;
      case Op::ITOF: o.a = int_operand(); break;
      case Op::FTOI: o.a = ftoi_operand(); break;
      case Op::PACK:
        o.a = pack_operand();
        o.b = pack_operand();
        break;
      default: break;  // fabs, fneg, unpack: any bits
    }
    return o;
  }

 private:
  std::mt19937_64 rng_;
};

// Special values for the exhaustive pair sweep.
std::vector<uint32_t> special_values() {
  std::vector<uint32_t> v;
  const uint32_t mags[] = {
      0x00000000,                          // zero
      0x00000001, 0x00400000, 0x007fffff,  // denormals: smallest, middle, largest
      0x00800000, 0x00800001, 0x00ffffff,  // 2^-126 and just above; largest of exp 1
      0x01000000, 0x0c000000,              // 2^-125, 2^-103 (2^-126 * 2^23)
      0x33800000, 0x33000000, 0x34000000,  // 2^-24, 2^-25, 2^-23 (ulp-scale addends)
      0x3b808081,                          // 1/255
      0x3effffff, 0x3f000000, 0x3f000001,  // 0.5 - ulp, 0.5 (pack tie), 0.5 + ulp
      0x3f7fffff, 0x3f800000, 0x3f800001,  // 1 - ulp, 1, 1 + ulp
      0x3fc00000, 0x3fffffff, 0x40000000,  // 1.5, 2 - ulp, 2
      0x40400000, 0x437f0000, 0x437f8000,  // 3, 255, 255.5
      0x4b7fffff, 0x4b800000, 0x4b800001,  // 2^24 - 1, 2^24, 2^24 + 2
      0x4effffff, 0x4f000000, 0x4f000001,  // 2^31 - 128, 2^31, 2^31 + 256
      0x5f000000, 0x1f800000,              // 2^63, 2^-64 (squares at the range ends)
      0x7effffff, 0x7f000000, 0x7f7fffff,  // large: 2^127 - ulp region, max normal
      0x7f800000,                          // inf
      0x7f800001, 0x7fc00000, 0x7fffffff,  // NaNs: signalling, quiet canonical, all ones
  };
  for (uint32_t m : mags) {
    v.push_back(m);
    v.push_back(m | 0x80000000u);
  }
  return v;
}

// ---- the pipelined driver ---------------------------------------------------------

class Bench {
 public:
  Bench(uint64_t seed) : seed_(seed) {
    ctx_ = std::make_unique<VerilatedContext>();
    top_ = std::make_unique<Vfpu>(ctx_.get());
    top_->clk = 0;
    top_->func = 0;
    top_->a = top_->b = top_->c = 0;
    top_->int_mul = 0;
    top_->eval();
    // Fill the pipeline so every later check sees a valid result.
    flush();
  }

  ~Bench() { top_->final(); }

  // One cycle: present `o` (or a don't-care fadd when null), take a rising edge, and
  // check every result due after that edge: the add/multiply sampled kLatency - 1
  // edges earlier, the other function or integer multiply sampled kMiscLatency - 1
  // edges earlier.  The unit's `arith` (execute picks the result with it) must say
  // which is which.
  void clock(const Operation* o) {
    Slot now;
    if (o) now = Slot{Slot::kFpu, *o, 0, 0};
    issue(now);
  }

  // Execute's integer multiply on the FPU's multiplier, in the same stream: int_mul
  // high, func not an FPU function (as execute's multiply opcodes are not).
  void int_multiply(uint32_t a, uint32_t b) { issue(Slot{Slot::kIntMul, {}, a, b}); }

  void flush() {
    for (int i = 0; i < kRing; ++i) issue(Slot{});
  }

  uint64_t int_checked() const { return int_checked_; }
  uint64_t issued() const { return issued_; }
  uint64_t checked() const { return checked_; }
  uint64_t mismatches() const { return mismatches_; }
  uint64_t per_func(size_t i) const { return per_func_[i]; }

 private:
  struct Slot {
    enum Kind { kNone, kFpu, kIntMul } kind = kNone;
    Operation op{};
    uint32_t ia = 0, ib = 0;  // kIntMul's operands
  };

  void issue(const Slot& now) {
    top_->int_mul = now.kind == Slot::kIntMul;
    if (now.kind == Slot::kFpu) {
      top_->func = static_cast<uint8_t>(func_of(now.op.op));
      top_->a = now.op.a;
      top_->b = now.op.b;
      top_->c = now.op.c;
    } else if (now.kind == Slot::kIntMul) {
      top_->func = 0xf;
      top_->a = now.ia;
      top_->b = now.ib;
    }
    top_->clk = 0;
    top_->eval();
    if (now.kind == Slot::kFpu && bool(top_->arith) != is_arith(now.op.op) && ++mismatches_ <= 20)
      std::printf("MISMATCH %-6s: arith is %d\n", name_of(now.op.op), int(top_->arith));
    top_->clk = 1;
    top_->eval();
    // Edge number edge_ sampled `now`; the item sampled at edge e is due after edge
    // e + latency - 1.
    inflight_[edge_ % kRing] = now;
    if (now.kind != Slot::kNone) ++issued_;
    const Slot& arith = inflight_[(edge_ + kRing - (kLatency - 1)) % kRing];
    if (arith.kind == Slot::kFpu && is_arith(arith.op.op)) check(arith.op, top_->arith_result);
    const Slot& misc = inflight_[(edge_ + kRing - (kMiscLatency - 1)) % kRing];
    if (misc.kind == Slot::kFpu && !is_arith(misc.op.op)) check(misc.op, top_->misc_result);
    if (misc.kind == Slot::kIntMul) check_int(misc.ia, misc.ib);
    ++edge_;
  }

  void check(const Operation& o, uint32_t got) {
    const uint32_t want = reference(o);
    ++checked_;
    ++per_func_[func_of(o.op)];
    if (got == want) return;
    if (++mismatches_ <= 20) {
      std::printf("MISMATCH %-6s a=0x%08" PRIx32 " b=0x%08" PRIx32 " c=0x%08" PRIx32 "  rtl=0x%08" PRIx32
                  " ref=0x%08" PRIx32 "  (seed %" PRIu64 ")\n",
                  name_of(o.op), o.a, o.b, o.c, got, want, seed_);
    }
  }

  void check_int(uint32_t a, uint32_t b) {
    const uint64_t want = uint64_t(a) * b;
    ++checked_;
    ++int_checked_;
    if (top_->int_product != want && ++mismatches_ <= 20)
      std::printf("MISMATCH int_mul a=0x%08" PRIx32 " b=0x%08" PRIx32 "  rtl=0x%016" PRIx64
                  " ref=0x%016" PRIx64 "  (seed %" PRIu64 ")\n",
                  a, b, uint64_t(top_->int_product), want, seed_);
  }

  uint64_t seed_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vfpu> top_;
  std::array<Slot, kRing> inflight_{};
  uint64_t edge_ = 0;
  uint64_t issued_ = 0, checked_ = 0, mismatches_ = 0, int_checked_ = 0;
  std::array<uint64_t, 16> per_func_{};
};

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: fpu_bench [--seed N] [--count N]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  uint64_t count = 1000000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--seed" || arg == "--count") && i + 1 < argc) {
      char* end = nullptr;
      const uint64_t v = std::strtoull(argv[++i], &end, 0);
      if (!end || *end) usage();
      (arg == "--seed" ? seed : count) = v;
    } else {
      usage();
    }
  }
  std::printf("fpu_bench: LATENCY %d, MISC_LATENCY %d, seed %" PRIu64 ", %" PRIu64
              " random operations per function\n",
              kLatency, kMiscLatency, seed, count);
  for (Op op : kFuncs) {
    if ((umbra::isa::info(op).opcode & 0xf0u) != 0x40u) {
      std::fprintf(stderr, "fpu_bench: %s is not in the 0x4_ group\n", name_of(op));
      return 2;
    }
  }

  const auto t0 = std::chrono::steady_clock::now();
  Bench bench(seed);
  Gen gen(seed);

  // 1. Edge cases: every pair of special values for every function (random c, except
  //    fmadd, which gets every triple), every unpack byte in every lane.
  const std::vector<uint32_t> sv = special_values();
  for (Op op : kFuncs) {
    for (uint32_t a : sv) {
      for (uint32_t b : sv) {
        if (op == Op::FMADD) {
          for (uint32_t c : sv) {
            const Operation o{op, a, b, c};
            bench.clock(&o);
          }
        } else {
          const Operation o{op, a, b, gen.u32()};
          bench.clock(&o);
        }
      }
    }
  }
  for (uint32_t n = 0; n < 256; ++n) {
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const Operation o{Op::UNPACK, (gen.u32() & ~(0xffu << 8 * lane)) | n << 8 * lane,
                        (gen.u32() & ~3u) | lane, gen.u32()};
      bench.clock(&o);
    }
  }
  // Hand-picked boundaries.
  const Operation fixed[] = {
      {Op::FMUL, 0x00ffffff, 0x3f000001, 0},            // just below 2^-126, rounds up to it: kept
      {Op::FMUL, 0x00ffffff, 0x3f000000, 0},            // 2^-126 * (1 - 2^-24) exactly: flushed
      {Op::FMUL, 0x3fffffff, 0x3f800001, 0},            // 2 - 2^-46: rounds to 2 (carry out)
      {Op::FMUL, 0x7f7fffff, 0x3f800001, 0},            // overflow by rounding
      {Op::FMUL, 0x5f800000, 0x5f800000, 0},            // 2^128: overflow
      {Op::FADD, 0x00800001, 0x80800000, 0},            // difference 2^-149: flushed, sign +
      {Op::FADD, 0x80800001, 0x00800000, 0},            // flushed, sign -
      {Op::FADD, 0x3f800000, 0x33800000, 0},            // 1 + 2^-24: tie to even (1)
      {Op::FADD, 0x3f800001, 0x33800000, 0},            // tie to even (up)
      {Op::FADD, 0x7f7fffff, 0x73800000, 0},            // max + half ulp: tie, rounds to inf
      {Op::FADD, 0x7f7fffff, 0x737fffff, 0},            // max + just under half ulp: stays
      {Op::FADD, 0x3f800000, 0xb3800000, 0},            // 1 - 2^-24: exact
      {Op::FADD, 0x3f800000, 0xb3000000, 0},            // 1 - 2^-25: tie, back to 1
      {Op::FSUB, 0x00000000, 0x00000000, 0},            // +0 - +0 = +0
      {Op::FSUB, 0x80000000, 0x00000000, 0},            // -0 - +0 = -0
      {Op::FMADD, 0x00000000, 0x80000000, 0x80000000},  // (+0 * -0) + -0 = -0
      {Op::FMADD, 0x00400000, 0x3f800000, 0x80000000},  // denormal * 1 + -0 = +0
      {Op::ITOF, 0x01000001, 0, 0},                     // 2^24 + 1: tie, down
      {Op::ITOF, 0x01000003, 0, 0},                     // 2^24 + 3: tie, up
      {Op::FTOI, 0xcf000000, 0, 0},                     // -2^31 exactly
      {Op::FTOI, 0x4f000000, 0, 0},                     // 2^31: saturates
      {Op::PACK, 0x3f000000, 0x3effffff, 0x12345678},   // 127.5 tie -> 128; just below
  };
  for (const Operation& o : fixed) bench.clock(&o);
  // itof at and beside every power of two, both signs: fp_misc counts the leading zeros
  // of a or ~a and takes a = -2^k (~a all ones below its leading one) apart.
  for (uint32_t k = 0; k < 32; ++k) {
    for (const uint32_t v : {1u << k, (1u << k) - 1, (1u << k) + 1}) {
      const Operation pos{Op::ITOF, v, 0, 0}, neg{Op::ITOF, 0u - v, 0, 0};
      bench.clock(&pos);
      bench.clock(&neg);
    }
  }
  // Integer products: every pair of boundary values.
  const uint32_t iv[] = {0u,          1u,          2u,          3u,          0x7fffffffu,
                         0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0x0000ffffu,
                         0xffff0000u, 0x55555555u, 0xaaaaaaaau};
  for (uint32_t a : iv)
    for (uint32_t b : iv) bench.int_multiply(a, b);
  const uint64_t edge_cases = bench.issued();

  // 2. Random: `count` operations per function and `count` integer multiplies, the
  //    functions in a fresh random order in every round and the multiply at a random
  //    place among them, so every kind of operation follows every other in the pipe.
  std::array<Op, kFuncs.size()> order = kFuncs;
  std::mt19937_64 shuffle_rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (uint64_t i = 0; i < count; ++i) {
    std::shuffle(order.begin(), order.end(), shuffle_rng);
    const size_t int_at = shuffle_rng() % (order.size() + 1);
    for (size_t k = 0; k <= order.size(); ++k) {
      if (k == int_at) bench.int_multiply(gen.u32(), gen.u32());
      if (k == order.size()) break;
      const Operation o = gen.random_op(order[k]);
      bench.clock(&o);
    }
  }
  bench.flush();

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("fpu_bench: %" PRIu64 " operations checked (%" PRIu64 " of them edge cases), %.1f s\n",
              bench.checked(), edge_cases, secs);
  if (bench.checked() != bench.issued()) {
    std::printf("fpu_bench: FAIL, %" PRIu64 " operations issued but %" PRIu64 " checked\n", bench.issued(),
                bench.checked());
    return 1;
  }
  for (Op op : kFuncs) std::printf("  %-6s %" PRIu64 "\n", name_of(op), bench.per_func(func_of(op)));
  std::printf("  %-6s %" PRIu64 "\n", "intmul", bench.int_checked());
  if (bench.mismatches()) {
    std::printf("fpu_bench: FAIL, %" PRIu64 " mismatches; replay with --seed %" PRIu64 " --count %" PRIu64
                "\n",
                bench.mismatches(), seed, count);
    return 1;
  }
  std::printf("fpu_bench: PASS\n");
  return 0;
}
