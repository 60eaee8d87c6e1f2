// umbra-cosim: runs one program (or the runs of one example manifest) on the Verilated
// RTL and the SystemC model in lockstep, and on the reference simulator, and says
// whether all three agree; or (--model rtl) on the RTL alone.
//
//   umbra-cosim prog.s [--threads N | --domain WxH] [--config c.yaml] [--max-cycles N] [--model cosim|rtl]
//               [--vcd BASE | --fst BASE] [--wave-from CYCLE] [--wave-to CYCLE] [--wave-limit SIZE]
//               [--no-iss] [--events FILE [--events-limit SIZE]] [--json]
//   umbra-cosim --example examples/sum.yaml [--run I]
//   test-only:  --inject-fault CYCLE:KIND[:CORE] (every compared event kind)   --inject-iss K
//
// A mismatch report ends with the command that reproduces it: this one, with --run
// added for an example run.  Exit status: 0 everything agreed and every thread exited,
// 1 bad input, 2 a model faulted (the same way on both), 3 cycle limit, 4 the models
// disagree with each other or with the reference simulator (or an example's result
// is wrong).  A waveform cut at its size limit (--wave-limit) or a window the run never
// reached is a warning on stderr and changes no exit status.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness.h"
#include "reference.h"
#include "umbra/asm.h"
#include "umbra/cli_numbers.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/examples_model.h"
#include "umbra/models.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"
#include "wave_options.h"

namespace {

constexpr int kExitOk = 0, kExitBadInput = 1, kExitFault = 2, kExitLimit = 3, kExitMismatch = 4;

std::string quote(const std::string& s) {
  if (!s.empty() &&
      s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@") ==
          std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int exit_for(const umbra::cosim::RunResult& r) {
  switch (r.status) {
    case umbra::cosim::RunResult::Status::Exited: return kExitOk;
    case umbra::cosim::RunResult::Status::Fault: return kExitFault;
    case umbra::cosim::RunResult::Status::CycleLimit: return kExitLimit;
  }
  return kExitFault;
}

nlohmann::json run_json(const umbra::cosim::RunResult& r) {
  return {{"status", umbra::status_name(r.status)},
          {"message", r.message},
          {"launch_cycle", r.launch_cycle},
          {"end_cycle", r.end_cycle},
          {"cycles", r.cycles},
          {"issued", r.stats.issued},
          {"wall_seconds", r.wall_seconds},
          {"cycles_per_second", r.cycles_per_second()}};
}

nlohmann::json cosim_json(const umbra::cosim::CosimResult& c) {
  nlohmann::json j;
  j["passed"] = c.passed();
  j["systemc"] = run_json(c.systemc);
  j["rtl"] = run_json(c.rtl);
  j["events_compared"] = c.events_compared;
  j["mismatch"] = {{"found", c.mismatch.found}, {"stage", c.mismatch.stage},
                   {"cycle", c.mismatch.cycle}, {"thread", c.mismatch.thread},
                   {"field", c.mismatch.field}, {"systemc", c.mismatch.systemc},
                   {"rtl", c.mismatch.rtl},     {"report", c.mismatch.report}};
  j["iss_problems"] = c.iss_problems;
  j["iss_notes"] = c.iss_notes;
  return j;
}

// Warnings about a run's outputs (a waveform cut at its limit): on stderr, whatever
// stdout carries, and no change to the exit status.
void print_warnings(const umbra::cosim::RunResult& r) {
  for (const std::string& w : r.warnings) std::fprintf(stderr, "umbra-cosim: warning: %s\n", w.c_str());
}

void print_cosim(const std::string& what, const umbra::cosim::CosimResult& c, bool iss) {
  const auto& r = c.rtl;
  std::printf(
      "%s: %s; %s at cycle %llu, %llu busy cycles, %llu events compared, %.0f cycles/s (both models)\n",
      what.c_str(),
      !c.passed() ? "MISMATCH"
      : iss       ? "SystemC, RTL and ISS agree"
                  : "SystemC and RTL agree (ISS not checked)",
      umbra::status_name(r.status), (unsigned long long)r.end_cycle, (unsigned long long)r.cycles,
      (unsigned long long)c.events_compared, r.cycles_per_second());
  if (r.status != umbra::cosim::RunResult::Status::Exited)
    std::printf("  rtl: %s\n  systemc: %s\n", r.message.c_str(), c.systemc.message.c_str());
  // Notes come per thread and per model; the first says what they are about.
  if (!c.iss_notes.empty())
    std::printf(
        "  note: %zu thread stream(s) left the ISS's path at a value read from memory that another "
        "thread's order decided, and were not compared further; the first:\n    %s\n",
        c.iss_notes.size(), c.iss_notes.front().c_str());
  if (!c.passed()) std::fputs(c.summary().c_str(), stdout);
}

// The models this tool runs are the registry's that run the Verilated RTL (they alone
// make waveforms); the one among them that compares is the cosimulation, the other the
// RTL alone.  Chosen by what the registry says, so a model added there needs no change
// here unless it needs options of its own.
const umbra::models::Model& rtl_model(const std::string& name) {
  std::string known;
  for (const umbra::models::Model& m : umbra::models::all()) {
    if (!m.supports.waveforms) continue;
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw std::runtime_error("--model must be one of the models that run the RTL (" + known + "), not '" +
                           name + "'");
}

// The rule for output paths (umbra/output_files.h): no waveform or event file may be
// an input of the run (the program and what it includes, the manifest, the
// configuration) or another output; checked before anything is written, and each
// waveform file opened once here, since Verilator's writer does not report an open
// that fails.
void check_outputs(umbra::OutputFiles outputs, const std::string& vcd, const std::string& fst,
                   const std::string& events_path, bool lockstep) {
  std::vector<std::pair<std::string, std::string>> waves;
  for (const auto& [option, base] : {std::pair<std::string, std::string>{"--vcd", vcd}, {"--fst", fst}}) {
    if (base.empty()) continue;
    const std::string ext = option == "--vcd" ? ".vcd" : ".fst";
    waves.emplace_back(option, base + ".rtl" + ext);
    if (lockstep) waves.emplace_back(option, base + ".systemc" + ext);
  }
  for (const auto& [option, path] : waves) outputs.add(path, "", option);
  if (!events_path.empty() && events_path != "-") outputs.add(events_path, "", "--events");
  outputs.check();
  for (const auto& [option, path] : waves) umbra::check_writable(path, option);
}

}  // namespace

int main(int argc, char** argv) {
  umbra::check_stdout_at_exit("umbra-cosim", kExitBadInput);
  CLI::App app{
      "Cosimulate the Umbra core: Verilated RTL and SystemC model in lockstep, checked against the ISS"};
  std::string input, example, config_path, format = "auto", model = "cosim", vcd, fst, inject, events_path,
                                           domain_text;
  unsigned threads = 0, history = 16;
  int run_index = -1;
  int64_t inject_iss = -1;
  uint64_t max_cycles = 100'000'000;
  bool no_iss = false, json = false;
  app.add_option("input", input, "program: .s/.S/.asm assembly, ELF, .hex ($readmemh) or raw binary");
  app.add_option("--example", example,
                 "an example manifest (examples/*.yaml): make its runs and check the results");
  umbra::add_number(app, "--run", run_index, "with --example: only this run (0-based)", 0, INT32_MAX);
  app.add_option("--config", config_path,
                 "machine configuration; default: the one the RTL was verilated for");
  auto* threads_opt =
      umbra::add_number(app, "--threads", threads, "threads to launch, 1..T (default: T)", 1, 256);
  app.add_option("--domain", domain_text,
                 "launch a domain of W x H work items (W or WxH) through the dispatcher instead of threads")
      ->excludes(threads_opt);
  umbra::add_number(app, "--max-cycles", max_cycles, "busy cycles allowed after launch (default 100000000)",
                    1, UINT64_MAX);
  app.add_option("--format", format, "input format: auto, elf, hex, bin, asm");
  app.add_option("--model", model, "cosim (default): RTL and SystemC in lockstep; rtl: the RTL alone");
  app.add_option("--vcd", vcd, "waveforms: BASE.rtl.vcd and BASE.systemc.vcd");
  app.add_option("--fst", fst, "waveforms: BASE.rtl.fst and BASE.systemc.fst (via gtkwave's vcd2fst)");
  umbra::WaveBounds waves;
  umbra::add_wave_options(app, waves);
  app.add_option("--events", events_path, "--model rtl: write the RTL's events to FILE ('-': stdout)");
  uint64_t events_limit = umbra::kDefaultTraceLimit;
  umbra::add_limit_option(
      app, "--events-limit", events_limit,
      "the bytes --events may write, N or N with K, M or G (default 1G; 0: no limit); the "
      "file stops at the last whole cycle that fits, with a warning, and the run goes on");
  app.add_flag("--no-iss", no_iss, "do not compare with the reference simulator");
  umbra::add_number(app, "--history", history, "events shown before a mismatch (default 16)", 0, 1u << 20);
  app.add_flag("--json", json, "print a JSON summary on stdout instead of text");
  app.add_option(
      "--inject-fault", inject,
      std::string("test only: perturb the SystemC side's first event of KIND at or after CYCLE in core CORE "
                  "(CYCLE:KIND[:CORE], CORE 0 by default, KIND one of ") +
          umbra::cosim::injection_kinds() + ")");
  umbra::add_number(app, "--inject-iss", inject_iss,
                    "test only: add 1 to the reference simulator's K-th register write", 0, INT64_MAX);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (input.empty() == example.empty())
      throw std::runtime_error("give a program or --example MANIFEST (one of them)");
    if (app.count("--run") && example.empty())
      throw std::runtime_error("--run: picks a run of --example's manifest, and no --example was given");
    if (!example.empty() && app.count("--domain"))
      throw std::runtime_error("--domain is for a program: an example's manifest says how it launches");
    const umbra::models::Model& mdl = rtl_model(model);
    const bool lockstep = mdl.supports.compares;  // cosim; else the RTL alone
    if (!vcd.empty() && !fst.empty()) throw std::runtime_error("--vcd and --fst: choose one");
    if (app.count("--events-limit") && events_path.empty())
      throw std::runtime_error("--events-limit: bounds the file of --events, and none was asked for");
    for (const char* option : {"--wave-from", "--wave-to", "--wave-limit"})
      if (app.count(option) && vcd.empty() && fst.empty())
        throw std::runtime_error(std::string(option) +
                                 ": bounds the waveforms of --vcd or --fst, and none was asked for");
    if (!events_path.empty() && lockstep)
      throw std::runtime_error("--events is for --model rtl (the cosim reports events at a mismatch)");
    const std::string config_file =
        config_path.empty() ? umbra::cosim::verilated_params().config_file : config_path;
    umbra::OutputFiles inputs;
    inputs.add_input(config_file, "the configuration");
    const umbra::Config cfg = umbra::load_config(config_file);
    umbra::cosim::check_config(cfg);

    umbra::cosim::Options opts;
    opts.vcd = vcd;
    opts.fst = fst;
    opts.waves = waves;
    opts.check_iss = !no_iss;
    opts.history = history;
    opts.inject_iss = inject_iss;
    if (!inject.empty()) opts.inject = umbra::cosim::parse_injection(inject);
    std::string repro;
    for (int i = 0; i < argc; ++i) repro += (i ? " " : "") + quote(argv[i]);

    if (!example.empty()) {
      // The manifest's runs, each checked by the harness against the example's C++
      // reference; the cosim adapter turns any disagreement into a failed run.
      const auto m = umbra::examples::load_manifest(example);
      // An example that needs an extension group the configuration lacks is skipped by
      // name, as umbra-examples and the suite skip it (the assembler's own refusal).
      if (const std::string absent = umbra::examples::absent_group(m, cfg); !absent.empty()) {
        std::printf("%s: skipped: %s\n", m.name.c_str(), absent.c_str());
        return kExitOk;
      }
      const umbra::Program p = umbra::examples::assemble(m);
      inputs.add_input(example, "the example manifest");
      inputs.add_inputs(p.sources, "the example's program");
      check_outputs(inputs, vcd, fst, events_path, lockstep);
      const umbra::examples::Reference* ref = umbra::examples::find_reference(m.name);
      if (!ref) throw std::runtime_error(example + ": no reference named '" + m.name + "'");
      if (run_index >= int(m.runs.size()))
        throw std::runtime_error(example + " has " + std::to_string(m.runs.size()) + " runs (0.." +
                                 std::to_string(m.runs.size() - 1) + ")");
      int worst = kExitOk;
      nlohmann::json all = nlohmann::json::array();
      for (size_t i = 0; i < m.runs.size(); ++i) {
        if (run_index >= 0 && size_t(run_index) != i) continue;
        opts.repro = repro + (run_index < 0 ? " --run " + std::to_string(i) : "");
        opts.program_name = m.name;
        umbra::cosim::CosimResult c;
        umbra::models::Result rtl_result;
        const umbra::cosim::RunResult& rr = rtl_result.run;
        // The cosimulation with this command's options (ISS check, injections, history).
        const auto cosim_run = [&](const umbra::Config& config, const umbra::models::Job& job) {
          umbra::cosim::Options o = opts;
          o.writes = job.writes;
          o.domain = job.domain;
          o.doorbell = job.doorbell;
          c = umbra::cosim::run_cosim(*job.program, config, job.threads,
                                      umbra::models::cycle_budget(config, job.max_instructions), o);
          return umbra::models::from_cosim(c);
        };
        // The RTL alone with this command's waveforms (the registry's run has none).
        const auto rtl_run = [&](const umbra::Config& config, const umbra::models::Job& job) {
          umbra::models::Job j = job;
          j.vcd = vcd;
          j.fst = fst;
          j.waves = waves;
          return mdl.run(config, j);
        };
        const umbra::examples::Model harness =
            lockstep ? umbra::examples::harness_model(cfg, cosim_run)
                     : umbra::examples::harness_model(cfg, rtl_run, &rtl_result);
        const auto v = umbra::examples::run_and_check(m, m.runs[i], p, harness, *ref);
        print_warnings(lockstep ? c.rtl : rr);
        if (lockstep) print_warnings(c.systemc);
        const std::string what = m.name + " " + m.runs[i].name;
        if (json) {
          nlohmann::json j = lockstep ? cosim_json(c) : run_json(rr);
          j["run"] = m.runs[i].name;
          j["checked"] = v.passed;
          j["problems"] = v.problems;
          all.push_back(j);
        } else if (!lockstep) {
          std::printf("%s: %s; %llu cycles, %.0f cycles/s\n", what.c_str(), v.passed ? "correct" : "WRONG",
                      (unsigned long long)rr.end_cycle, rr.cycles_per_second());
        } else {
          print_cosim(what, c, opts.check_iss);
        }
        if (!v.passed) {
          if (!json) std::printf("  result check failed:\n%s\n", v.summary().c_str());
          worst = kExitMismatch;
        }
      }
      if (json) std::printf("%s\n", all.dump(2).c_str());
      umbra::check_stdout();
      return worst;
    }

    const auto fmt = umbra::obj::parse_format(format);
    if (!fmt) throw std::runtime_error("unknown format '" + format + "' (auto, elf, hex, bin, asm)");
    umbra::as::Options asm_options;  // assembly for the configuration's machine (its .data origin)
    asm_options.apply(cfg);
    const umbra::Program p = umbra::obj::read_file(input, *fmt, &asm_options);
    inputs.add_inputs(p.sources, "the program");
    check_outputs(inputs, vcd, fst, events_path, lockstep);
    const unsigned n = threads ? threads : cfg.threads;
    if (app.count("--domain")) opts.domain = umbra::models::parse_domain(domain_text);
    opts.repro = repro;
    opts.program_name = input;
    opts.isolation = umbra::cosim::Options::Isolation::InProcess;
    if (!lockstep) {
      umbra::OutputFile events_out;
      if (!events_path.empty()) events_out = umbra::OutputFile(events_path, "--events");
      std::FILE* events = events_out.file();
      umbra::TextEventSink sink(events, events_limit);
      umbra::models::Job job;
      job.program = &p;
      job.source = input;
      job.threads = n;
      job.domain = opts.domain;
      job.max_cycles = max_cycles;
      job.sink = events ? &sink : nullptr;
      job.isolation = opts.isolation;
      job.vcd = vcd;
      job.fst = fst;
      job.waves = waves;
      job.repro = repro;
      const umbra::cosim::RunResult r = mdl.run(cfg, job).run;
      sink.finish();
      events_out.close();
      print_warnings(r);
      if (sink.stopped())
        std::fprintf(stderr, "%s\n",
                     umbra::events_limit_warning("umbra-cosim", events_path, events_limit, sink.stopped_at(),
                                                 r.end_cycle)
                         .c_str());
      if (json)
        std::printf("%s\n", run_json(r).dump(2).c_str());
      else
        std::fprintf(events == stdout ? stderr : stdout,
                     "%s: rtl: %s at cycle %llu, %llu busy cycles, %.0f cycles/s%s%s\n", input.c_str(),
                     umbra::status_name(r.status), (unsigned long long)r.end_cycle,
                     (unsigned long long)r.cycles, r.cycles_per_second(), r.message.empty() ? "" : ": ",
                     r.message.c_str());
      umbra::check_stdout();
      return exit_for(r);
    }
    const auto c = umbra::cosim::run_cosim(p, cfg, n, max_cycles, opts);
    print_warnings(c.rtl);
    print_warnings(c.systemc);
    if (json)
      std::printf("%s\n", cosim_json(c).dump(2).c_str());
    else
      print_cosim(input, c, opts.check_iss);
    umbra::check_stdout();
    if (!c.passed()) return kExitMismatch;
    return std::max(exit_for(c.rtl), exit_for(c.systemc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "umbra-cosim: %s\n", e.what());
    return kExitBadInput;
  }
}
