// The expected results of every example, computed in plain C++ from the inputs the
// program starts with (see reference.h).  Each function follows the specification at
// the top of its .s file: it reads the same inputs (by symbol) and writes what the
// program must store.  Integer examples use ordinary C++ arithmetic (std::stable_sort,
// builtin bit counts, 64-bit products); float examples call umbra::fp32 in exactly
// the order the program executes its float instructions, since binary32 addition is
// not associative and the bits must match.
#include "reference.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "umbra/fp32.h"

namespace umbra::examples {
namespace {

namespace fp = umbra::fp32;
constexpr uint32_t kOne = 0x3f800000u;  // 1.0f

void sum(Image& m) {
  const uint32_t n = m.at("n", 0);
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; ++i) s += m.at("array", i);
  m.set("result", 0, s);
}

void memcpy_words(Image& m) {
  const uint32_t n = m.at("n", 0);
  for (uint32_t i = 0; i < n; ++i) m.set("dst", i, m.at("src", i));
}

void sort(Image& m) {
  const uint32_t n = m.at("n", 0);
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = int32_t(m.at("array", i));
  std::stable_sort(v.begin(), v.end());
  for (uint32_t i = 0; i < n; ++i) m.set("sorted", i, uint32_t(v[i]));
}

void dot(Image& m) {
  const uint32_t n = m.at("n", 0), T = m.threads();
  std::vector<uint32_t> partial(T, 0);
  for (uint32_t t = 0; t < T; ++t) {
    uint32_t acc = 0;  // +0.0
    for (uint32_t i = t; i < n; i += T) acc = fp::madd(m.at("a", i), m.at("b", i), acc);
    partial[t] = acc;
    m.set("partial", t, acc);
  }
  uint32_t total = partial[0];
  for (uint32_t t = 1; t < T; ++t) total = fp::add(total, partial[t]);
  m.set("arrived", 0, T);
  m.set("result", 0, total);
}

// Escape-time iteration count of one point, z0 = 0, at most maxiter steps.
uint32_t mandel_iterations(uint32_t cx, uint32_t cy, uint32_t four, uint32_t maxiter) {
  uint32_t x = 0, y = 0, i = 0;
  while (i < maxiter) {
    const uint32_t x2 = fp::mul(x, x), y2 = fp::mul(y, y);
    if (fp::lt(four, fp::add(x2, y2))) break;
    const uint32_t xy = fp::mul(x, y);
    y = fp::add(fp::add(xy, xy), cy);
    x = fp::add(fp::sub(x2, y2), cx);
    ++i;
  }
  return i;
}

void mandelbrot(Image& m) {
  const uint32_t W = m.at("params", 0), H = m.at("params", 1), maxiter = m.at("params", 2);
  const uint32_t x0 = m.at("params", 3), y0 = m.at("params", 4), d = m.at("params", 5);
  const uint32_t four = m.at("params", 6), one = m.at("params", 7), inv_max = m.at("params", 8);
  const uint32_t kr = m.at("params", 9), kg = m.at("params", 10), kb = m.at("params", 11);
  for (uint32_t py = 0; py < H; ++py) {
    for (uint32_t px = 0; px < W; ++px) {
      const uint32_t cx = fp::madd(fp::itof(int32_t(px)), d, x0);
      const uint32_t cy = fp::madd(fp::itof(int32_t(py)), d, y0);
      const uint32_t i = mandel_iterations(cx, cy, four, maxiter);
      // s = 1 - i/maxiter, u = s^4, t = 1 - u
      uint32_t s = fp::sub(one, fp::mul(fp::itof(int32_t(i)), inv_max));
      s = fp::mul(s, s);
      const uint32_t u = fp::mul(s, s);
      const uint32_t t = fp::sub(one, u);
      const uint32_t t2 = fp::mul(t, t);
      const uint32_t red = fp::mul(fp::mul(fp::mul(kr, u), t2), t);
      const uint32_t green = fp::mul(fp::mul(fp::mul(kg, u), u), t2);
      const uint32_t blue = fp::mul(fp::mul(fp::mul(fp::mul(kb, u), u), u), t);
      const uint32_t pixel = fp::to_unorm8(one) << 24 | fp::to_unorm8(red) << 16 | fp::to_unorm8(green) << 8 |
                             fp::to_unorm8(blue);
      m.set("fb", py * W + px, pixel);
    }
  }
}

uint32_t histogram_hash(uint32_t i) {
  uint32_t h = i * 0x9e3779b1u;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return h;
}

void atomic_histogram(Image& m) {
  const uint32_t n = m.at("n", 0);
  uint32_t bins[10] = {};
  uint32_t total = 0;
  int32_t lo = int32_t(m.at("lo", 0)), hi = int32_t(m.at("hi", 0));
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t h = histogram_hash(i);
    ++bins[uint32_t((uint64_t(h) * 10) >> 32)];
    const int32_t v = int32_t(h >> 20);
    total += uint32_t(v);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    m.set("seen", i, m.at("seen", i) + 1);  // each ticket 0..n-1 drawn once
  }
  for (uint32_t b = 0; b < 10; ++b) m.set("bins", b, m.at("bins", b) + bins[b]);
  m.set("total", 0, m.at("total", 0) + total);
  m.set("lo", 0, uint32_t(lo));
  m.set("hi", 0, uint32_t(hi));
  m.set("ticket", 0, m.at("ticket", 0) + n);
}

void fib(Image& m) {
  const uint32_t n = m.at("n", 0);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t a = 0, b = 1;
    for (uint32_t i = 0; i < m.at("args", k); ++i) {
      const uint32_t c = a + b;
      a = b;
      b = c;
    }
    m.set("results", k, a);
  }
  for (uint32_t t = 0; t < std::min(m.threads(), 16u); ++t) m.set("sp_delta", t, 0);  // the stacks' threads
}

void matmul(Image& m) {
  const uint32_t M = m.at("dims", 0), K = m.at("dims", 1), P = m.at("dims", 2);
  for (uint32_t r = 0; r < M; ++r)
    for (uint32_t j = 0; j < P; ++j) {
      uint32_t s = 0;
      for (uint32_t k = 0; k < K; ++k) s += m.at("mat_a", r * K + k) * m.at("mat_b", k * P + j);
      m.set("mat_c", r * P + j, s);
    }
}

// sgemm.s: C = A * B, A column-major at ptrs[0], B and C row-major at ptrs[1] and
// ptrs[2]; each sum starts at +0 and takes one fmadd a k, k ascending.  The 4x4 blocks
// change only which thread computes an element, not its order of operations.
void sgemm(Image& m) {
  const uint32_t M = m.at("dims", 0), K = m.at("dims", 1), N = m.at("dims", 2);
  const uint32_t pa = m.at("ptrs", 0), pb = m.at("ptrs", 1), pc = m.at("ptrs", 2);
  // Copied out of the image first: kernels_bench multiplies 512 x 512 matrices.
  std::vector<uint32_t> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t w = 0; w < a.size(); ++w) a[w] = m.load(pa + 4 * uint32_t(w));
  for (size_t w = 0; w < b.size(); ++w) b[w] = m.load(pb + 4 * uint32_t(w));
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      uint32_t sum = 0;  // +0.0
      for (uint32_t k = 0; k < K; ++k) sum = fp::madd(a[size_t(k) * M + i], b[size_t(k) * N + j], sum);
      m.store(pc + 4 * (i * N + j), sum);
    }
}

// fft.s: the Stockham radix-2 stages, each butterfly's float operations in the program's
// order, from the source buffer to the other and back; both buffers end as the program
// leaves them (the result and stage m-1's input), and the barrier's counter at
// threads * m.
void fft(Image& m) {
  const uint32_t stages = m.at("params", 0), tw = m.at("params", 3);
  uint32_t src = m.at("params", 1), dst = m.at("params", 2);
  const uint32_t half = stages == 0 ? 0 : 1u << (stages - 1);
  for (uint32_t s = 0; s < stages; ++s) {
    const uint32_t ns = 1u << s;
    for (uint32_t j = 0; j < half; ++j) {
      const uint32_t v0r = m.load(src + 8 * j), v0i = m.load(src + 8 * j + 4);
      const uint32_t v1r = m.load(src + 8 * (j + half)), v1i = m.load(src + 8 * (j + half) + 4);
      const uint32_t w = tw + 12 * ((j % ns) * (half / ns));
      const uint32_t wr = m.load(w), wi = m.load(w + 4), nwi = m.load(w + 8);
      const uint32_t tr = fp::madd(v1r, wr, fp::mul(v1i, nwi));
      const uint32_t ti = fp::madd(v1i, wr, fp::mul(v1r, wi));
      const uint32_t d = 2 * j - j % ns;
      m.store(dst + 8 * d, fp::add(v0r, tr));
      m.store(dst + 8 * d + 4, fp::add(v0i, ti));
      m.store(dst + 8 * (d + ns), fp::sub(v0r, tr));
      m.store(dst + 8 * (d + ns) + 4, fp::sub(v0i, ti));
    }
    std::swap(src, dst);
  }
  m.set("arrived", 0, m.at("arrived", 0) + m.threads() * stages);
}

void bitcount(Image& m) {
  const uint32_t n = m.at("n", 0);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = m.at("x", i);
    uint32_t rev = 0, clz = 0;
    for (int b = 0; b < 32; ++b)
      if (x >> b & 1) rev |= 1u << (31 - b);
    while (clz < 32 && !(x >> (31 - clz) & 1)) ++clz;
    const int64_t q = int64_t(int32_t(x)) * int64_t(-0x16000);  // x * -1.375 in Q16.16
    m.set("pop", i, uint32_t(__builtin_popcount(x)));
    m.set("rev", i, rev);
    m.set("clz", i, clz);
    m.set("div10", i, x / 10);
    m.set("q16", i, uint32_t(uint64_t(q) >> 16));
  }
}

uint32_t channel(uint32_t pixel, int lane) { return pixel >> (8 * lane) & 0xff; }

void pixels(Image& m) {
  const uint32_t count = m.at("count", 0);
  const uint32_t one_and_half = 0x3fc00000u;  // 1.5f
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t src = m.at("src", i), dst = m.at("dst", i);
    const uint32_t a = fp::from_unorm8(channel(src, 3));
    const uint32_t ia = fp::sub(kOne, a);
    uint32_t out = fp::to_unorm8(fp::add(fp::mul(fp::from_unorm8(channel(dst, 3)), ia), a)) << 24;
    for (int lane = 2; lane >= 0; --lane) {
      const uint32_t c = fp::madd(fp::from_unorm8(channel(src, lane)), a,
                                  fp::mul(fp::from_unorm8(channel(dst, lane)), ia));
      out |= fp::to_unorm8(c) << (8 * lane);
    }
    m.set("out", i, out);
    // Brighten: alpha must survive unpack -> pack unchanged, so it is copied as is.
    uint32_t bright = channel(dst, 3) << 24;
    for (int lane = 2; lane >= 0; --lane)
      bright |= fp::to_unorm8(fp::mul(fp::from_unorm8(channel(dst, lane)), one_and_half)) << (8 * lane);
    m.set("bright", i, bright);
  }
}

void prefix_sum(Image& m) {
  const uint32_t n = m.at("n", 0), T = m.threads();
  const uint32_t block = (n + T - 1) / T;
  uint32_t running = 0;
  for (uint32_t i = 0; i < n; ++i) {
    running += m.at("input", i);
    m.set("output", i, running);
  }
  for (uint32_t t = 0; t < T; ++t) {
    uint32_t s = 0;
    for (uint32_t i = std::min(t * block, n); i < std::min((t + 1) * block, n); ++i) s += m.at("input", i);
    m.set("block_sum", t, s);
  }
  m.set("arrived", 0, T);
}

void cas_lock(Image& m) {
  const uint32_t iters = m.at("iters", 0), T = m.threads();
  m.set("lock", 0, 0);
  m.set("counter", 0, m.at("counter", 0) + T * iters);
  m.set("owners", 0, m.at("owners", 0) + iters * T * (T + 1) / 2);
}

// flame.s: walk k = 0..nwalk-1, each seeded with h(k) (atomic_histogram's hash), skip
// + npts steps of the chosen transform, the affine map blended with the spherical
// variation through two Newton steps for 1/r^2, every plotted point inside the image
// counted once in hist (the order of the red.adds does not matter: they commute).
void flame(Image& m) {
  const uint32_t nwalk = m.at("nwalk", 0), npts = m.at("npts", 0), skip = m.at("skip", 0);
  const uint32_t W = m.at("dims", 0), H = m.at("dims", 1);
  const uint32_t sx = m.at("view", 0), ox = m.at("view", 1), sy = m.at("view", 2), oy = m.at("view", 3);
  const uint32_t lcg_a = m.at("consts", 0), lcg_c = m.at("consts", 1), guess = m.at("consts", 2);
  const uint32_t bias = m.at("consts", 3), two = m.at("consts", 4), eps = m.at("consts", 5);
  const uint32_t unit = m.at("consts", 6);  // 2^-31
  const uint32_t pick = m.sym("pick");
  std::vector<uint32_t> hist(size_t(W) * H, 0);
  for (uint32_t k = 0; k < nwalk; ++k) {
    uint32_t s = histogram_hash(k);
    uint32_t x = fp::mul(fp::itof(int32_t(s)), unit);
    s = s * lcg_a + lcg_c;
    uint32_t y = fp::mul(fp::itof(int32_t(s)), unit);
    for (uint32_t left = skip + npts; left != 0;) {
      s = s * lcg_a + lcg_c;
      const uint32_t xf = m.load(pick + 4 * (s >> 26));
      uint32_t c[8];
      for (uint32_t j = 0; j < 8; ++j) c[j] = m.load(xf + 4 * j);  // a b c d e f wl ws
      const uint32_t nx = fp::add(fp::madd(c[1], y, fp::mul(c[0], x)), c[2]);
      const uint32_t ny = fp::add(fp::madd(c[4], y, fp::mul(c[3], x)), c[5]);
      const uint32_t r2 = fp::max(fp::madd(ny, ny, fp::mul(nx, nx)), eps);
      uint32_t g = guess - r2;
      for (int n = 0; n < 2; ++n) g = fp::mul(g, fp::madd(fp::neg(r2), g, two));
      const uint32_t v = fp::madd(c[7], g, c[6]);
      x = fp::mul(nx, v);
      y = fp::mul(ny, v);
      if (--left >= npts) continue;
      const uint32_t px = uint32_t(fp::ftoi(fp::madd(x, sx, ox))) - bias;
      const uint32_t py = uint32_t(fp::ftoi(fp::madd(y, sy, oy))) - bias;
      if (px < W && py < H) ++hist[size_t(py) * W + px];
    }
  }
  for (size_t i = 0; i < hist.size(); ++i) m.set("hist", uint32_t(i), m.at("hist", uint32_t(i)) + hist[i]);
}

// flame_log.s: flame.s's walks and histogram, logged, split and binned without atomics;
// the barrier's counter ends at the thread count.
void flame_log(Image& m) {
  flame(m);
  m.set("arrived", 0, m.at("arrived", 0) + m.threads());
}

const std::map<std::string, Reference>& table() {
  static const std::map<std::string, Reference> t = {
      {"sum", sum},
      {"memcpy", memcpy_words},
      {"sort", sort},
      {"dot", dot},
      {"mandelbrot", mandelbrot},
      {"mandelbrot2d", mandelbrot},  // the same image, one work item a pixel
      {"atomic_histogram", atomic_histogram},
      {"fib", fib},
      {"matmul", matmul},
      {"sgemm", sgemm},
      {"fft", fft},
      {"bitcount", bitcount},
      {"pixels", pixels},
      {"prefix_sum", prefix_sum},
      {"cas_lock", cas_lock},
      {"flame", flame},
      {"flame_log", flame_log},
  };
  return t;
}

}  // namespace

const Reference* find_reference(const std::string& name) {
  const auto& t = table();
  const auto it = t.find(name);
  return it == t.end() ? nullptr : &it->second;
}

std::vector<std::string> reference_names() {
  std::vector<std::string> names;
  for (const auto& kv : table()) names.push_back(kv.first);
  return names;
}

}  // namespace umbra::examples
