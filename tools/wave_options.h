// The options that bound a run's waveforms and traces (issue 37), the same on
// umbra-sim and umbra-cosim: --wave-from/--wave-to (the cycles dumped) and --wave-limit
// (the bytes a file may reach), into umbra::WaveBounds (run_result.h); and a size limit
// option for a trace (umbra-sim --trace-limit, umbra-cosim --events-limit).  Header-only, for the tools
// that use CLI11 and the contracts: the parser refuses a bad value (a negative or
// non-decimal cycle, one beyond 64 bits, a size that is not N[K|M|G], a window whose
// FROM is after its TO) with a message naming the option, as it does any other.
#pragma once
#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include "run_result.h"
#include "umbra/cli_numbers.h"

namespace umbra {

// Decimal digits with an optional multiplier (1 when none is allowed), or nothing
// when the text is not that or the value passes 2^64 - 1.
inline std::optional<uint64_t> parse_wave_number(std::string s, bool size) {
  uint64_t mult = 1;
  if (size && !s.empty()) {
    const char c = char(std::toupper(static_cast<unsigned char>(s.back())));
    if (c == 'K' || c == 'M' || c == 'G') {
      mult = c == 'K' ? uint64_t(1) << 10 : c == 'M' ? uint64_t(1) << 20 : uint64_t(1) << 30;
      s.pop_back();
    }
  }
  const auto v = parse_decimal(s);
  if (!v) return std::nullopt;
  if (*v > UINT64_MAX / mult) return std::nullopt;
  return *v * mult;
}

// The default limit of a trace (--trace, --events): as the waveforms', 1 GiB, about
// 12 M lines of the ISS's trace, some 15 M of a cycle model's events.
constexpr uint64_t kDefaultTraceLimit = uint64_t(1) << 30;

// The warning of a tool whose --events file (`path`, '-' for stdout) reached `limit`
// at cycle `stopped_at` of a run that went on to `end_cycle`: one text for every tool.
inline std::string events_limit_warning(const std::string& tool, const std::string& path, uint64_t limit,
                                        uint64_t stopped_at, uint64_t end_cycle) {
  return tool + ": warning: --events " + (path == "-" ? std::string("(stdout)") : "'" + path + "'") +
         " reached its size limit of " + umbra::size_text(limit) + " at cycle " + std::to_string(stopped_at) +
         " and was not written further: it holds the events of the cycles before it (the run went on to "
         "cycle " +
         std::to_string(end_cycle) + "); raise the limit with --events-limit SIZE (0: none)";
}

inline CLI::Validator wave_number_check(bool size) {
  return CLI::Validator(
      [size](std::string& v) -> std::string {
        if (parse_wave_number(v, size)) return "";
        return "'" + v + "' is not " +
               (size ? "a size: bytes as decimal digits, with K, M or G for KiB, MiB or GiB (e.g. 512M)"
                     : "a cycle number: decimal digits from 0 to 18446744073709551615");
      },
      size ? "SIZE" : "CYCLE");
}

// A size limit option (N, or N with K, M or G; 0 for none) into `limit`.
inline CLI::Option* add_limit_option(CLI::App& app, const std::string& name, uint64_t& limit,
                                     const std::string& help) {
  return app
      .add_option_function<std::string>(
          name, [&limit](const std::string& v) { limit = *parse_wave_number(v, true); }, help)
      ->check(wave_number_check(true));
}

// Adds the three options to `app`; `bounds` holds what they say once app.parse()
// returns.  The window is checked whole once every option is in.
inline void add_wave_options(CLI::App& app, umbra::WaveBounds& bounds) {
  app.add_option_function<std::string>(
         "--wave-from", [&bounds](const std::string& v) { bounds.from = *parse_wave_number(v, false); },
         "--vcd/--fst: the first cycle dumped (default 0); both sides of a cosimulation dump the same "
         "cycles, at their times from the run's start")
      ->check(wave_number_check(false));
  app.add_option_function<std::string>(
         "--wave-to", [&bounds](const std::string& v) { bounds.to = *parse_wave_number(v, false); },
         "--vcd/--fst: the last cycle dumped (default: the run's last)")
      ->check(wave_number_check(false));
  add_limit_option(app, "--wave-limit", bounds.limit,
                   "--vcd/--fst: the bytes a waveform file may reach, N or N with K, M or G (default 1G; 0: "
                   "no limit); a file stops at the last whole cycle that fits, with a warning, and the run "
                   "goes on");
  app.final_callback([&bounds] {
    if (bounds.from > bounds.to)
      throw CLI::ValidationError("--wave-from/--wave-to",
                                 "--wave-from " + std::to_string(bounds.from) + " is after --wave-to " +
                                     std::to_string(bounds.to) + ": the window is FROM to TO, both included");
  });
}

}  // namespace umbra
