// Whole-number options, checked on their text (issue 37).  CLI11 2.1's own conversion
// of an unsigned option takes "-1" as 2^64 - 1 and lets an overflow through, and
// its Range check reads the text as a double, so "99999999999999999999" or "1.5" could
// reach a run as some other number.  Every numeric option of the tools goes through
// number_check instead: decimal digits only (no sign, no space, no fraction), at most
// 2^64 - 1, inside the option's range, or a refusal that names the option, the value
// and the range.  Header-only, for the tools that use CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace umbra {

// Decimal digits, or nothing when the text is not that or passes 2^64 - 1.
inline std::optional<uint64_t> parse_decimal(const std::string& s) {
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    const uint64_t d = uint64_t(ch - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

// Whole numbers in [lo, hi] separated by commas ("8,32"), or nothing when the text is
// not that (an empty item included).
inline std::optional<std::vector<uint64_t>> parse_number_list(const std::string& s, uint64_t lo,
                                                              uint64_t hi) {
  std::vector<uint64_t> v;
  size_t p = 0;
  do {
    const size_t e = std::min(s.find(',', p), s.size());
    const auto n = parse_decimal(s.substr(p, e - p));
    if (!n || *n < lo || *n > hi) return std::nullopt;
    v.push_back(*n);
    p = e + 1;
  } while (p <= s.size());
  return v;
}

// W or WxH, each from 1 to hi (H is 1 when absent), or nothing.
inline std::optional<std::pair<uint64_t, uint64_t>> parse_extent(const std::string& s, uint64_t hi) {
  const size_t x = s.find('x');
  const auto w = parse_decimal(s.substr(0, x));
  const auto h = x == std::string::npos ? std::optional<uint64_t>(1) : parse_decimal(s.substr(x + 1));
  if (!w || !h || *w < 1 || *h < 1 || *w > hi || *h > hi) return std::nullopt;
  return std::make_pair(*w, *h);
}

inline CLI::Validator number_check(uint64_t lo, uint64_t hi = UINT64_MAX) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        const auto n = parse_decimal(v);
        if (n && *n >= lo && *n <= hi) return "";
        return "'" + v + "' is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
      },
      "UINT");
}

// A whole-number option into `value` (any unsigned type wide enough for hi).
template <typename T>
CLI::Option* add_number(CLI::App& app, const std::string& name, T& value, const std::string& help,
                        uint64_t lo, uint64_t hi) {
  return app
      .add_option_function<std::string>(
          name, [&value](const std::string& v) { value = T(*parse_decimal(v)); }, help)
      ->check(number_check(lo, hi));
}

}  // namespace umbra
