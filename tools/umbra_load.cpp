// umbra-load: run a program on a board over its UART (docs/fpga.md): the iCE40 boards,
// or the ULX3S, whose command processor also runs a manifest's domain launches and
// `commands:` lists (through the host API's device on the board, board_device.h: the
// same buffers, and the same checks, as the examples' harness on a model; a board
// without a command processor refuses DOORBELL and such a run is reported skipped).
//
//   umbra-load prog.s --threads 8 --dump result:1        load, run, print memory
//   umbra-load --manifest examples/sum.yaml              every run of an example,
//                                                        checked against its reference
//   umbra-load --info | --status                         what the board is / is doing
//
// The program is anything umbra_asm reads (ELF, $readmemh hex, raw binary, assembly
// source).  Exit status: 0 the run finished (and every check passed); 1 the run
// faulted, timed out or a check failed; 2 bad arguments or an unreadable program or
// manifest; 3 the board could not be reached or refused a command.
#include <CLI/CLI.hpp>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "board_link.h"
#include "harness.h"
#include "reference.h"
#include "serial_transport.h"
#include "umbra/cli_numbers.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"

using namespace umbra;

namespace {

// The longest --timeout: a day of board time is more than any example needs, and
// keeps the milliseconds far inside `unsigned` (which would wrap at 49.7 days).
constexpr double kMaxTimeoutSeconds = 86400;

// CLI::Range lets NaN through (every comparison with it is false) and the number
// would then be converted to milliseconds with undefined behaviour; this reads it as
// strtod does and wants a finite number in (0, kMaxTimeoutSeconds].
std::string check_timeout(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0 || v > kMaxTimeoutSeconds)
    return text + ": expected seconds, a number above 0 and at most " +
           std::to_string(int(kMaxTimeoutSeconds)) + " (one day)";
  return "";
}

// The upper bound is the board's (board::check_launch, once it has said it).
std::string check_threads(const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v < 1)
    return text + ": expected a thread count of at least 1 (at most what the board runs)";
  return "";
}

struct Dump {
  std::string spec;
  uint32_t address = 0, words = 0;
};

// "SYMBOL:WORDS", "SYMBOL+OFFSET:WORDS" or "ADDRESS:WORDS" (numbers in C syntax).
Dump parse_dump(const std::string& spec, const Program& p) {
  Dump d{spec};
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::invalid_argument("--dump " + spec + ": expected SYMBOL[+OFFSET]:WORDS or ADDRESS:WORDS");
  std::string where = spec.substr(0, colon);
  try {
    size_t used = 0;
    d.words = uint32_t(std::stoul(spec.substr(colon + 1), &used, 0));
    if (used != spec.size() - colon - 1 || d.words == 0 || spec[colon + 1] == '-')
      throw std::invalid_argument("");
  } catch (const std::exception&) {
    throw std::invalid_argument("--dump " + spec + ": the word count must be a positive number");
  }
  // The board's own size is checked once it has said it (board::check_read); no
  // memory reaches past the 32-bit address space.
  if (d.words > (uint64_t(1) << 30))
    throw std::invalid_argument("--dump " + spec + ": " + std::to_string(d.words) +
                                " words are more than the 32-bit address space holds");
  uint32_t offset = 0;
  const size_t plus = where.find('+');
  if (plus != std::string::npos) {
    offset = uint32_t(std::stoul(where.substr(plus + 1), nullptr, 0));
    where = where.substr(0, plus);
  }
  if (!where.empty() && std::isdigit(static_cast<unsigned char>(where[0]))) {
    d.address = uint32_t(std::stoul(where, nullptr, 0)) + offset;
  } else {
    const auto s = p.symbol(where);
    if (!s) throw std::invalid_argument("--dump " + spec + ": the program has no symbol '" + where + "'");
    d.address = *s + offset;
  }
  return d;
}

void print_info(const board::BoardInfo& i) {
  std::printf("board: protocol %u, %u core%s of %u threads, %u registers, %" PRIu32 " instruction words, %" PRIu32
              " bytes of memory, %u-byte cache lines, %" PRIu32 " Hz\n",
              i.version, i.cores, i.cores == 1 ? "" : "s", i.threads, i.regs, i.imem_words, i.mem_bytes,
              i.line_bytes, i.clk_hz);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "umbra-load: run a program on an Umbra board (iCEBreaker, HX8K breakout, ULX3S) over its UART"};
  std::string device = "/dev/ttyUSB1", program_path, format = "auto", manifest_path;
  unsigned baud = 115200, threads = 1;
  double timeout_s = 10;
  std::vector<std::string> dumps;
  bool info_only = false, status_only = false;
  app.add_option("program", program_path, "program to run (ELF, .hex, raw binary, or assembly .s)");
  app.add_option("-d,--device", device, "serial device of the board's UART")->capture_default_str();
  // Bad arguments exit 2, as documented, not with CLI11's own codes.
  const auto parse = [&]() -> int {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e) == 0 ? 0 : 2;
    }
    return -1;
  };
  umbra::add_number(app, "-b,--baud", baud, "baud rate (the board top's BAUD; default 115200)", 50, 12000000);
  app.add_option("-f,--format", format, "program format: auto, elf, hex, bin, asm")->capture_default_str();
  app.add_option("-t,--threads", threads, "threads to launch (1 up to the board's thread count)")
      ->check(CLI::Validator(check_threads, "N"))
      ->capture_default_str();
  app.add_option("--dump", dumps, "after the run, print memory: SYMBOL[+OFFSET]:WORDS or ADDRESS:WORDS");
  app.add_option("--manifest", manifest_path, "run and check every run of an example manifest instead");
  app.add_option("--timeout", timeout_s, "seconds to wait for a run to finish (above 0, at most one day)")
      ->check(CLI::Validator(check_timeout, "SECONDS"))
      ->capture_default_str();
  app.add_flag("--info", info_only, "print what the board reports about itself and exit");
  app.add_flag("--status", status_only, "print the board's status and exit");
  // Its outputs are standard output (status, dumps, verdicts) and the device it
  // writes to; a standard output that fails is exit 2 (like a bad argument) at the end.
  umbra::check_stdout_at_exit("umbra-load", 2);
  if (const int rc = parse(); rc >= 0) return rc;

  const bool need_program = !info_only && !status_only;
  if (need_program && program_path.empty() == manifest_path.empty()) {
    std::cerr << "umbra-load: error: give a program or --manifest (one of them)\n";
    return 2;
  }
  const auto fmt = obj::parse_format(format);
  if (!fmt) {
    std::cerr << "umbra-load: error: --format " << format << ": expected auto, elf, hex, bin or asm\n";
    return 2;
  }
  const unsigned timeout_ms = unsigned(timeout_s * 1000);

  // Everything that can be wrong with the input is found before the board is touched.
  Program program;
  examples::Manifest manifest;
  const examples::Reference* reference = nullptr;
  std::vector<Dump> dump_specs;
  try {
    if (need_program && !manifest_path.empty()) {
      manifest = examples::load_manifest(manifest_path);
      reference = examples::find_reference(manifest.name);
      if (!reference) {
        std::cerr << "umbra-load: error: " << manifest_path << ": no reference for example '" << manifest.name
                  << "'\n";
        return 2;
      }
      program = examples::assemble(manifest);
    } else if (need_program) {
      program = obj::read_file(program_path, *fmt);
      for (const std::string& s : dumps) dump_specs.push_back(parse_dump(s, program));
    }
    // The rule for output paths (umbra/output_files.h): the device is written to, so it
    // may not be the program, a file it includes or the manifest (a serial device is
    // not a regular file and never matches).
    OutputFiles rule;
    rule.add_inputs(program.sources, manifest_path.empty() ? "the program" : "the example's program");
    rule.add_input(manifest_path, "the example manifest");
    rule.add(device, "", "--device");
    rule.check();
  } catch (const std::exception& e) {
    std::cerr << "umbra-load: error: " << e.what() << "\n";
    return 2;
  }

  try {
    board::SerialTransport serial(device, baud);
    board::Link link(serial);
    const board::BoardInfo info = link.info();
    if (info_only) {
      print_info(info);
      return 0;
    }
    if (status_only) {
      std::printf("status: %s\n", link.status().describe().c_str());
      return 0;
    }
    if (reference) {
      const examples::Model model = board::board_model(link, info, timeout_ms);
      bool ok = true;
      for (const examples::RunSpec& run : manifest.runs) {
        examples::Verdict v;
        try {
          v = examples::run_and_check(manifest, run, program, model, *reference);
        } catch (const board::LinkError& e) {
          // A domain or command run rings the command processor, which only some boards
          // have.
          if (!(run.domain() || run.command_run()) || e.code() != int(board::Code::Unknown)) throw;
          std::printf(
              "%s %s: skipped: the board has no command processor (DOORBELL refused), which a %s needs\n",
              manifest.name.c_str(), run.name.c_str(), run.domain() ? "domain launch" : "command list");
          continue;
        }
        std::printf("%s %s: %s (%" PRIu64 " instructions issued)\n", manifest.name.c_str(), run.name.c_str(),
                    v.passed ? "PASS" : "FAIL", v.instructions);
        if (!v.passed) std::printf("%s", v.summary().c_str());
        ok = ok && v.passed;
      }
      return ok ? 0 : 1;
    }
    // What the run asks of the board, against what the board says it is, before the
    // program is sent.
    try {
      if (!reference) board::check_launch(info, threads);
      for (const Dump& d : dump_specs) board::check_read(info, d.address, d.words, "--dump " + d.spec);
    } catch (const board::LinkError& e) {
      std::cerr << "umbra-load: error: " << e.what() << "\n";
      return 2;
    }
    link.load(program, info);
    link.launch(threads, program.entry);
    const board::Status s = link.wait(timeout_ms);
    std::printf("status: %s\n", s.describe().c_str());
    if (info.clk_hz)
      std::printf("time: %.3f ms at %.1f MHz\n", double(s.cycles) * 1e3 / info.clk_hz, info.clk_hz / 1e6);
    for (const Dump& d : dump_specs) {
      const std::vector<uint32_t> words = link.read_mem(d.address, d.words);
      for (uint32_t i = 0; i < d.words; ++i)
        std::printf("%s%s0x%08" PRIx32 ": 0x%08" PRIx32 " (%" PRId32 ")\n", i == 0 ? d.spec.c_str() : "",
                    i == 0 ? " " : "", d.address + 4 * i, words[i], int32_t(words[i]));
    }
    if (s.any_fault()) return 1;
    if (!s.finished()) {
      std::cerr << "umbra-load: error: the run did not finish within " << timeout_s << " s\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "umbra-load: error: " << e.what() << "\n";
    return 3;
  }
}
