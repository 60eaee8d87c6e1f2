// What the SystemC and cosimulation checks share (randcheck.h): the memory comparison
// that names regions of the layout, the cycle budget and the result line.
#include "randcheck.h"

#include <cstdio>

#include "umbra/format.h"

namespace umbra::randprog {

namespace {

uint32_t word_at(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

std::string region(uint32_t a, const Layout& L, unsigned threads) {
  if (a >= L.ro && a < L.ro + 4 * L.ro_words) return "read-only word " + std::to_string((a - L.ro) / 4);
  if (a >= L.shared && a < L.shared + 4 * L.shared_words)
    return "shared word " + std::to_string((a - L.shared) / 4);
  if (a >= L.dump && a < L.dump + 4 * L.dump_words * threads) {
    const uint32_t w = (a - L.dump) / 4;
    return "dump of thread " + std::to_string(w / L.dump_words) + ", register r" +
           std::to_string(9 + w % L.dump_words);
  }
  if (const Layout::Where w = L.locate(a); w.valid)
    return "private cell row " + std::to_string(w.row) + " bank " + std::to_string(w.bank) + ", thread " +
           std::to_string(w.thread) + " byte " + std::to_string(w.byte);
  return "outside the program's regions";
}

}  // namespace

std::string SeedResult::line() const {
  std::string s = "seed " + std::to_string(seed) + " " + model + ": ";
  if (passed)
    return s + "PASS (" + std::to_string(cycles) + " cycles, " + std::to_string(iss_instructions) +
           " instructions)";
  return s + "FAIL: " + detail + "\n  replay: " + repro;
}

std::vector<std::string> memory_differences(const std::vector<uint8_t>& expected,
                                            const std::vector<uint8_t>& got, const Layout& layout,
                                            unsigned threads, unsigned max_reported) {
  std::vector<std::string> out;
  if (expected.size() != got.size()) {
    out.push_back("memory sizes differ: expected " + std::to_string(expected.size()) + " bytes, got " +
                  std::to_string(got.size()));
    return out;
  }
  unsigned n = 0;
  for (uint32_t a = 0; a + 4 <= expected.size(); a += 4) {
    const uint32_t e = word_at(expected, a), g = word_at(got, a);
    if (e == g) continue;
    if (n++ < max_reported)
      out.push_back(hex8(a) + " (" + region(a, layout, threads) + "): expected " + hex8(e) + ", got " +
                    hex8(g));
  }
  if (n > max_reported) out.push_back(std::to_string(n - max_reported) + " more differing words");
  return out;
}

uint64_t cycle_budget(const Config& cfg, uint64_t iss_instructions) {
  // Every instruction a DRAM miss behind every other thread's, generously.
  return iss_instructions * (400 + 20ull * cfg.threads) + 200000;
}

}  // namespace umbra::randprog
