// umbra-systemc-run: runs one program on the cycle-accurate SystemC model and reports
// what happened, for people debugging the model and for the tests, which need a fresh
// process per simulation anyway.  The simulation runs in this process (one design per
// process is all SystemC allows, and all this command needs).
//
//   umbra-systemc-run prog.s [--config c.yaml] [--threads N] [--max-cycles N]
//                     [--events FILE|-] [--memory-out FILE] [--json] [--registers]
//
// stdout carries only what was asked for (the JSON summary, or the events with
// `--events -`); stderr carries diagnostics and a one-line summary.  Exit status as
// umbra-sim's: 0 every thread exited, 1 bad input, 2 fault, 3 cycle limit.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "events.h"
#include "umbra/cli_numbers.h"
#include "umbra/config.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"
#include "umbra/systemc_run.h"
#include "wave_options.h"

namespace {

namespace harness = umbra::harness;

constexpr int kExitOk = 0, kExitBadInput = 1, kExitFault = 2, kExitLimit = 3;

nlohmann::json summary(const umbra::RunResult& r, bool with_registers) {
  using umbra::BubbleReason;
  nlohmann::json j;
  j["status"] = umbra::status_name(r.status);
  j["message"] = r.message;
  j["launch_cycle"] = r.launch_cycle;
  j["end_cycle"] = r.end_cycle;
  j["cycles"] = r.cycles;
  j["issued"] = r.stats.issued;
  nlohmann::json bubbles;
  for (unsigned k = 0; k < umbra::kBubbleReasons; ++k) {
    std::vector<uint64_t> per_thread;
    for (const auto& b : r.stats.bubbles) per_thread.push_back(b[k]);
    bubbles[umbra::bubble_reason_name(BubbleReason(k))] = per_thread;
  }
  j["bubbles"] = bubbles;
  j["ipc"] = r.stats.ipc();
  j["wall_seconds"] = r.wall_seconds;
  j["cycles_per_second"] = r.cycles_per_second();
  j["cpu_seconds"] = r.cpu_seconds;
  j["cycles_per_cpu_second"] = r.cycles_per_cpu_second();
  if (r.status == umbra::RunResult::Status::Fault) {
    j["fault"] = {{"kind", umbra::fault_name(r.fault)},
                  {"thread", r.fault_thread},
                  {"pc", r.fault_pc},
                  {"addr", r.fault_addr}};
  }
  if (with_registers) j["registers"] = r.registers;
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run a program on the cycle-accurate SystemC model of the Umbra core"};
  std::string input, config_path, format = "auto", events_path, memory_out;
  unsigned threads = 0;
  uint64_t max_cycles = 100'000'000;
  bool json = false, registers = false;
  app.add_option("input", input, "program: .s/.S/.asm assembly, ELF, .hex ($readmemh) or raw binary")
      ->required();
  app.add_option("--config", config_path,
                 "machine configuration (configs/*.yaml); default: built-in default");
  umbra::add_number(app, "--threads", threads, "threads to launch, 1..T (default: T)", 1, 256);
  umbra::add_number(app, "--max-cycles", max_cycles, "busy cycles allowed after launch (default 100000000)",
                    1, UINT64_MAX);
  app.add_option("--format", format, "input format: auto, elf, hex, bin, asm");
  app.add_option("--events", events_path, "write every cycle's events to FILE ('-': stdout)");
  uint64_t events_limit = umbra::kDefaultTraceLimit;
  umbra::add_limit_option(
      app, "--events-limit", events_limit,
      "the bytes --events may write, N or N with K, M or G (default 1G; 0: no limit); the "
      "file stops at the last whole cycle that fits, with a warning, and the run goes on");
  app.add_option("--memory-out", memory_out, "write the final data memory, raw bytes, to FILE");
  app.add_flag("--json", json, "print a JSON summary on stdout");
  app.add_flag("--registers", registers, "include every launched thread's final registers in the JSON");
  umbra::check_stdout_at_exit("umbra-systemc-run", kExitBadInput);  // the JSON, --events -, --help
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  umbra::RunResult r;
  try {
    const umbra::Config cfg = config_path.empty() ? umbra::Config{} : umbra::load_config(config_path);
    const auto fmt = umbra::obj::parse_format(format);
    if (!fmt) throw std::runtime_error("unknown format '" + format + "' (auto, elf, hex, bin, asm)");
    const umbra::Program p = umbra::obj::read_file(input, *fmt);
    if (app.count("--events-limit") && events_path.empty())
      throw std::runtime_error("--events-limit: bounds the file of --events, and none was asked for");

    // The rule for output paths (umbra/output_files.h), before anything is written.
    umbra::OutputFiles rule;
    rule.add_inputs(p.sources);
    rule.add_input(config_path, "the configuration");
    if (!events_path.empty() && events_path != "-") rule.add(events_path, "", "--events");
    if (!memory_out.empty()) rule.add(memory_out, "", "--memory-out");
    rule.check();
    umbra::OutputFile events_out, memory_file;
    if (!events_path.empty()) events_out = umbra::OutputFile(events_path, "--events");
    if (!memory_out.empty()) memory_file = umbra::OutputFile(memory_out, "--memory-out", true);
    std::FILE* events_file = events_out.file();
    std::unique_ptr<umbra::TextEventSink> sink;
    if (events_file) sink = std::make_unique<umbra::TextEventSink>(events_file, events_limit);

    harness::RunOptions opts;
    opts.isolation = harness::RunOptions::Isolation::InProcess;
    opts.capture_registers = registers;
    r = harness::run_systemc(p, cfg, threads ? threads : cfg.threads, max_cycles, sink.get(), opts);
    if (sink) sink->finish();
    events_out.close();
    if (sink && sink->stopped())
      std::fprintf(stderr, "%s\n",
                   umbra::events_limit_warning("umbra-systemc-run", events_path, events_limit,
                                               sink->stopped_at(), r.end_cycle)
                       .c_str());
    if (memory_file.is_open()) {
      memory_file.stream().write(reinterpret_cast<const char*>(r.memory.data()),
                                 std::streamsize(r.memory.size()));
      memory_file.close();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "umbra-systemc-run: error: %s\n", e.what());
    return kExitBadInput;
  }

  if (json) std::cout << summary(r, registers).dump(1) << "\n";
  try {
    umbra::check_stdout();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "umbra-systemc-run: error: %s\n", e.what());
    return kExitBadInput;
  }
  std::fprintf(stderr, "%s: %s after %llu cycles (%llu instructions, IPC %.3f, %.0f cycles/CPU-s)%s%s\n",
               input.c_str(), umbra::status_name(r.status), static_cast<unsigned long long>(r.cycles),
               static_cast<unsigned long long>(r.stats.total_issued()), r.stats.ipc(),
               r.cycles_per_cpu_second(), r.message.empty() ? "" : ": ", r.message.c_str());
  switch (r.status) {
    case umbra::RunResult::Status::Exited: return kExitOk;
    case umbra::RunResult::Status::Fault: return kExitFault;
    case umbra::RunResult::Status::CycleLimit: return kExitLimit;
  }
  return kExitFault;
}
