// umbra-sim: the one command line for every model of the core.  Only the reference
// simulator (--model iss) exists so far; the others are already choices so that
// scripts written today keep working when they arrive.  The command loads a program
// (assembly, ELF, $readmemh hex or raw binary), runs it, and reports per-thread
// results, memory dumps and an optional instruction trace (docs/simulator.md).
//
// Output streams: stdout carries only what was asked for (trace, --regs, --dump-mem),
// so it can be diffed between runs and models; stderr carries diagnostics and the
// end-of-run summary.  Exit codes are distinct per outcome (kExit* below).
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/iss.h"
#include "umbra/program.h"

namespace {

constexpr int kExitOk = 0;        // every launched thread executed `exit`
constexpr int kExitBadInput = 1;  // command line, configuration or program file unusable
constexpr int kExitFault = 2;     // a thread faulted
constexpr int kExitLimit = 3;     // the instruction limit stopped the run
constexpr uint64_t kDefaultMaxInstructions = 100'000'000;

// An input problem: the message already names the file and what is wrong.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string hex8(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08x", v);
  return buf;
}

// Decimal, or hex with 0x; an optional K/M/G suffix multiplies by 2^10/2^20/2^30.
// A leading 0 is decimal, not octal: nobody means 0100 to be 64.
std::optional<uint64_t> parse_number(std::string s, bool allow_suffix) {
  uint64_t mult = 1;
  if (allow_suffix && !s.empty()) {
    const char c = char(std::toupper(static_cast<unsigned char>(s.back())));
    if (c == 'K' || c == 'M' || c == 'G') {
      mult = c == 'K' ? 1ull << 10 : c == 'M' ? 1ull << 20 : 1ull << 30;
      s.pop_back();
    }
  }
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s = s.substr(2);
  }
  if (s.empty() || s.size() > 16) return std::nullopt;
  uint64_t v = 0;
  for (char ch : s) {
    int d;
    if (ch >= '0' && ch <= '9')
      d = ch - '0';
    else if (base == 16 && std::isxdigit(static_cast<unsigned char>(ch)))
      d = std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
    else
      return std::nullopt;
    v = v * uint64_t(base) + uint64_t(d);
  }
  if (v > (uint64_t(1) << 40) / mult) return std::nullopt;  // far beyond any memory
  return v * mult;
}

std::string ext_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path + ": error: cannot open: " + std::strerror(errno));
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Assembly is assembled here rather than through obj::read_file so that the
// configuration's register count reaches the assembler.
umbra::Program load_program(const std::string& path, const std::string& format, const umbra::Config& cfg,
                            const std::vector<std::string>& include_dirs) {
  const std::string ext = ext_of(path);
  const bool is_asm = format == "asm" || (format == "auto" && (ext == ".s" || ext == ".S" || ext == ".asm"));
  if (is_asm) {
    read_bytes(path);  // a missing file gets one clear message, not an assembler diagnostic
    umbra::as::Options o;
    o.registers = cfg.registers;
    o.include_dirs = include_dirs;
    umbra::as::Result r = umbra::as::assemble_file(path, o);
    if (!r.ok()) {
      for (const auto& d : r.errors) std::cerr << d.render();
      throw InputError(path + ": " + std::to_string(r.errors.size()) + " error" +
                       (r.errors.size() == 1 ? "" : "s") + " in assembly, nothing run");
    }
    return r.program;
  }
  read_bytes(path);
  const auto fmt = umbra::obj::parse_format(format);
  try {
    return umbra::obj::read_file(path, *fmt);
  } catch (const umbra::ObjectError& e) {
    throw InputError(e.what());
  }
}

struct DumpSpec {
  std::string text;  // as given, for messages
  uint32_t start = 0, length = 0;
  std::string file;  // empty: stdout
};

// START:LENGTH[:FILE]; START is a number or a symbol of the program, LENGTH is bytes.
DumpSpec parse_dump(const std::string& spec, const umbra::Program& p, const std::string& prog_name,
                    uint32_t mem_bytes) {
  auto bad = [&](const std::string& why) {
    return InputError("--dump-mem '" + spec + "': " + why + " (expected START:LENGTH[:FILE])");
  };
  DumpSpec d;
  d.text = spec;
  const auto c1 = spec.find(':');
  if (c1 == std::string::npos) throw bad("missing ':LENGTH'");
  const auto c2 = spec.find(':', c1 + 1);
  const std::string start = spec.substr(0, c1);
  const std::string length = spec.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
  if (c2 != std::string::npos) {
    d.file = spec.substr(c2 + 1);
    if (d.file.empty()) throw bad("empty FILE");
  }
  if (start.empty()) throw bad("empty START");
  if (auto v = parse_number(start, false)) {
    if (*v > 0xffffffffull) throw bad("START " + start + " is beyond 32 bits");
    d.start = uint32_t(*v);
  } else if (auto s = p.symbol(start)) {
    d.start = *s;
  } else {
    throw bad("START '" + start + "' is neither a number nor a symbol of " + prog_name);
  }
  const auto len = parse_number(length, true);
  if (!len) throw bad("LENGTH '" + length + "' is not a number");
  if (*len == 0 || *len % 4) throw bad("LENGTH must be a positive multiple of 4 bytes");
  if (d.start % 4) throw bad("START 0x" + hex8(d.start) + " is not a multiple of 4");
  if (d.start + *len > mem_bytes)
    throw bad("0x" + hex8(d.start) + "+" + std::to_string(*len) + " is beyond data memory (" +
              std::to_string(mem_bytes) + " bytes)");
  d.length = uint32_t(*len);
  return d;
}

// Eight words per line after the address, all hex without 0x.
void write_dump(std::ostream& os, const umbra::iss::FlatMemory& m, const DumpSpec& d) {
  for (uint32_t a = d.start; a < d.start + d.length; a += 32) {
    os << hex8(a) << ':';
    for (uint32_t w = a; w < a + 32 && w < d.start + d.length; w += 4) os << ' ' << hex8(m.peek32(w));
    os << '\n';
  }
}

void write_regs(std::ostream& os, const umbra::iss::RunResult& res, unsigned registers) {
  for (unsigned t = 0; t < res.threads.size(); ++t) {
    const auto& th = res.threads[t];
    os << "thread " << t << " pc " << hex8(th.state.pc) << ' ' << umbra::iss::status_name(th.status) << '\n';
    unsigned on_line = 0;
    for (unsigned r = 1; r < registers; ++r) {
      if (th.state.r[r] == 0) continue;
      char buf[32];
      std::snprintf(buf, sizeof buf, "%5s=%08x", ("r" + std::to_string(r)).c_str(), th.state.r[r]);
      os << (on_line ? " " : "  ") << buf;
      if (++on_line == 8) {
        os << '\n';
        on_line = 0;
      }
    }
    if (on_line) os << '\n';
  }
}

void write_summary(std::ostream& os, const umbra::iss::RunResult& res, const umbra::Config& cfg) {
  os << "umbra-sim: iss, configuration '" << cfg.name << "' (T=" << cfg.threads << ", " << cfg.registers
     << " registers), " << res.threads.size() << " thread" << (res.threads.size() == 1 ? "" : "s") << '\n';
  os << "thread      retired  state\n";
  for (unsigned t = 0; t < res.threads.size(); ++t) {
    const auto& th = res.threads[t];
    char buf[96];
    std::snprintf(buf, sizeof buf, "%6u %12llu  %s at pc %08x", t,
                  static_cast<unsigned long long>(th.retired), umbra::iss::status_name(th.status),
                  th.state.pc);
    os << buf << '\n';
  }
  os << "total " << res.retired << " instruction" << (res.retired == 1 ? "" : "s") << " in " << res.rounds
     << " round" << (res.rounds == 1 ? "" : "s") << '\n';
}

int run(int argc, char** argv) {
  CLI::App app{"umbra-sim: run an Umbra program on a model of the core (docs/simulator.md)"};
  std::string model = "iss", config_path, input, format = "auto", trace_file, mem_size_text, max_text;
  std::optional<unsigned> threads;
  std::vector<std::string> dumps, include_dirs;
  bool show_regs = false;
  app.add_option("--model", model, "model to run: iss (the reference simulator); systemc, rtl, cosim later")
      ->check(CLI::IsMember({"iss", "systemc", "rtl", "cosim"}))
      ->capture_default_str();
  app.add_option("--config", config_path, "machine configuration (configs/*.yaml); default: built-in default")
      ->check(CLI::ExistingFile);
  app.add_option("--threads", threads, "threads to launch, 1..T (default: T, every context)")
      ->check(CLI::Range(1u, 64u));
  app.add_option("--mem-size", mem_size_text,
                 "data memory bytes (overrides the configuration; K/M/G, 0x ok)");
  app.add_option("--max-instructions", max_text,
                 "stop after this many instructions of all threads (default 100000000)");
  app.add_option("--dump-mem", dumps,
                 "after the run, print words START:LENGTH (bytes; START may be a symbol), "
                 "or write them to FILE with START:LENGTH:FILE")
      ->allow_extra_args(false);  // one value per --dump-mem, so a following input is not eaten
  auto* trace = app.add_option("--trace", trace_file, "trace every instruction to FILE (default: stdout)")
                    ->expected(0, 1);
  app.add_flag("--regs", show_regs, "print every thread's final non-zero registers");
  app.add_option("--format", format, "input format (default: by content and extension)")
      ->check(CLI::IsMember({"auto", "elf", "hex", "bin", "asm"}));
  app.add_option("-I", include_dirs, "assembler include directory")->allow_extra_args(false);
  app.add_option("input", input, "program: .s/.S/.asm assembly, ELF, .hex ($readmemh) or raw binary");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitBadInput;
  }
  // `--trace prog.s` reads as a trace file and no input; there is no other sensible
  // meaning, so take it as the input and trace to stdout.
  if (input.empty() && trace->count() && !trace_file.empty()) std::swap(input, trace_file);
  if (input.empty()) {
    std::cerr << "umbra-sim: error: no input program given\n" << app.help();
    return kExitBadInput;
  }
  if (model != "iss") {
    std::cerr << "umbra-sim: error: --model " << model
              << " is not built yet; only --model iss is available\n";
    return kExitBadInput;
  }

  umbra::Config cfg;
  if (!config_path.empty()) cfg = umbra::load_config(config_path);
  if (!mem_size_text.empty()) {
    const auto v = parse_number(mem_size_text, true);
    if (!v || *v < 4 || *v > (1ull << 31) || *v % 4)
      throw InputError("--mem-size '" + mem_size_text + "': expected a multiple of 4 bytes from 4 to 2G");
    cfg.mem_bytes = uint32_t(*v);
  }
  uint64_t max_instructions = kDefaultMaxInstructions;
  if (!max_text.empty()) {
    const auto v = parse_number(max_text, false);
    if (!v || *v == 0) throw InputError("--max-instructions '" + max_text + "': expected a positive number");
    max_instructions = *v;
  }
  const unsigned n = threads.value_or(cfg.threads);
  if (n > cfg.threads)
    throw InputError("--threads " + std::to_string(n) + ": configuration '" + cfg.name + "' has " +
                     std::to_string(cfg.threads) + " thread contexts (core.threads)");

  const umbra::Program prog = load_program(input, format, cfg, include_dirs);
  std::vector<DumpSpec> dump_specs;
  for (const std::string& s : dumps) dump_specs.push_back(parse_dump(s, prog, input, cfg.mem_bytes));

  umbra::iss::Simulator sim(cfg);
  try {
    sim.load(prog, input);
  } catch (const umbra::iss::LoadError& e) {
    throw InputError(e.what());
  }

  std::ofstream trace_out;
  std::ostream* tos = nullptr;
  if (trace->count()) {
    if (!trace_file.empty()) {
      trace_out.open(trace_file);
      if (!trace_out) throw InputError(trace_file + ": error: cannot write trace: " + std::strerror(errno));
      tos = &trace_out;
    } else {
      tos = &std::cout;
    }
    *tos << umbra::iss::trace_header() << '\n';
  }
  const umbra::isa::LabelFn labels = sim.labels();
  umbra::iss::Observer obs;
  if (tos)
    obs = [&](unsigned t, const umbra::Retired& r) { *tos << umbra::iss::trace_line(t, r, labels) << '\n'; };

  const umbra::iss::RunResult res = sim.run(n, max_instructions, obs);
  if (tos) tos->flush();
  std::cout.flush();

  int rc = kExitOk;
  if (res.fault) {
    const bool limit = res.fault->fault == umbra::Fault::InstructionLimit;
    std::cerr << "umbra-sim: " << (limit ? "stopped: " : "fault: ") << res.fault->message() << '\n';
    rc = limit ? kExitLimit : kExitFault;
  }
  if (show_regs) write_regs(std::cout, res, cfg.registers);
  for (const DumpSpec& d : dump_specs) {
    if (d.file.empty()) {
      write_dump(std::cout, sim.memory(), d);
      continue;
    }
    std::ofstream f(d.file);
    if (f) write_dump(f, sim.memory(), d);
    if (!f) {
      std::cerr << "umbra-sim: " << d.file << ": error: cannot write memory dump: " << std::strerror(errno)
                << '\n';
      if (rc == kExitOk) rc = kExitBadInput;
    }
  }
  std::cout.flush();
  write_summary(std::cerr, res, cfg);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const InputError& e) {
    std::cerr << "umbra-sim: " << e.what() << '\n';
  } catch (const umbra::ConfigError& e) {
    std::cerr << "umbra-sim: " << e.what() << '\n';
  } catch (const std::bad_alloc&) {
    std::cerr << "umbra-sim: error: out of memory (is --mem-size too large?)\n";
  } catch (const std::exception& e) {
    std::cerr << "umbra-sim: error: " << e.what() << '\n';
  }
  return kExitBadInput;
}
