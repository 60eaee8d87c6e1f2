// umbra-sim: the one command line for every model of the core: the reference
// simulator (--model iss), the cycle-accurate SystemC model (systemc), the Verilated
// RTL (rtl) and both in lockstep (cosim).  The command loads a program (assembly, ELF,
// $readmemh hex or raw binary), runs it on the chosen model with the same options, and
// reports per-thread results, memory dumps, images, statistics (--stats-json), a trace
// and, for the cycle models, an issue-slot timeline (docs/simulator.md).
//
// The model comes from the registry (umbra/models.h): its name, its description for
// --help and what it supports (cycles, waveforms, a comparison) decide the options;
// no model is chosen by comparing names.  Every model is reduced to one Outcome (final
// memory, per-thread final state, the statistics it has) right after its run, so
// everything after the run — dumps, images, JSON, summary, exit code — is written once
// for all models, by sim_report.{h,cpp}.  What the cycle models do
// not return themselves (registers of the RTL, each thread's last pc) is rebuilt from
// their event stream, which the runners deliver while they run; the same stream drives
// the terminal progress line, so the runners need no extra hooks.
//
// --commands FILE runs the program through the host API instead (umbra/device.h): the
// program's text and data go into device memory, the command file (umbra/command_file.h)
// becomes a command buffer, and the model runs it from the doorbell; --domain stays a
// direct domain launch, its cycle counts untouched.
//
// Output streams: stdout carries only what was asked for (trace, --regs, --dump-mem,
// --show-image), so it can be diffed between runs and models; stderr carries
// diagnostics, the progress line and the end-of-run summary.  Exit codes are distinct
// per outcome (kExit* below).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim_report.h"
#include "umbra/asm.h"
#include "umbra/command_file.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
#include "umbra/device.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/iss.h"
#include "umbra/models.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"
#include "umbra/semantics.h"
#include "umbra/sim_image.h"
#include "umbra/sim_sinks.h"
#include "umbra/sim_timeline.h"
#include "umbra/systemc_run.h"
#include "wave_options.h"

namespace {

using namespace umbra::simreport;
using umbra::hex8_bare;
// The default budgets end a run that never exits within tens of seconds: measured on
// the shared 2-core machine, the ISS retires 4-10 M instructions/s and SystemC
// simulates 0.4-1.5 M cycles/s, cosim about a fifth of that; a longer program asks for
// more.  A livelock ends much sooner (kLivelockRounds).
constexpr uint64_t kDefaultMaxInstructions = 100'000'000;
constexpr uint64_t kDefaultMaxCycles = 10'000'000;
// Rounds (every thread issuing once) of spinning on one pc with nothing changed
// before a run is called a livelock: long enough that no waiting program is accused,
// short enough (well under a second on every model) to save the user the limit.
constexpr uint64_t kLivelockRounds = 10'000;

// An input problem: the message already names the file and what is wrong.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

// The input must be a file that can be opened; reading it is the loaders' business
// (obj::read_file bounds what it reads at Program::kMaxImageFileBytes, the assembler
// refuses what is not a regular file), so nothing is read here.
void check_input(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path + ": error: is a directory, not a program");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(path + ": error: cannot open: " + std::strerror(errno));
}

// Assembly is assembled here rather than through obj::read_file so that the
// configuration's register count reaches the assembler.
umbra::Program load_program(const std::string& path, const std::string& format, const umbra::Config& cfg,
                            const std::vector<std::string>& include_dirs) {
  const std::string ext = ext_of(path);
  const bool is_asm = format == "asm" || (format == "auto" && (ext == ".s" || ext == ".S" || ext == ".asm"));
  if (is_asm) {
    check_input(path);  // a missing file gets one clear message, not an assembler diagnostic
    umbra::as::Options o;
    o.registers = cfg.registers;
    o.data_base = cfg.data_base;
    o.include_dirs = include_dirs;
    umbra::as::Result r = umbra::as::assemble_file(path, o);
    if (!r.ok()) {
      for (const auto& d : r.errors) std::cerr << d.render();
      throw InputError(path + ": " + std::to_string(r.errors.size()) + " error" +
                       (r.errors.size() == 1 ? "" : "s") + " in assembly, nothing run");
    }
    return r.program;
  }
  check_input(path);
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
  } else if (auto s = [&] {
               try {
                 return p.data_symbol(start);
               } catch (const std::invalid_argument& e) {
                 throw bad(e.what());
               }
             }()) {
    d.start = *s;
  } else {
    throw bad("START '" + start + "' is neither a number nor a symbol of " + prog_name);
  }
  const auto len = parse_number(length, true);
  if (!len) throw bad("LENGTH '" + length + "' is not a number");
  if (*len == 0 || *len % 4) throw bad("LENGTH must be a positive multiple of 4 bytes");
  if (d.start % 4) throw bad("START 0x" + hex8_bare(d.start) + " is not a multiple of 4");
  if (d.start + *len > mem_bytes)
    throw bad("0x" + hex8_bare(d.start) + "+" + std::to_string(*len) + " is beyond data memory (" +
              std::to_string(mem_bytes) + " bytes)");
  d.length = uint32_t(*len);
  return d;
}

// Eight words per line after the address, all hex without 0x.
// Little-endian words of a model's final data memory (every model returns it as bytes).
uint32_t peek32(const std::vector<uint8_t>& m, uint32_t a) {
  return uint32_t(m[a]) | uint32_t(m[a + 1]) << 8 | uint32_t(m[a + 2]) << 16 | uint32_t(m[a + 3]) << 24;
}

void write_dump(std::ostream& os, const std::vector<uint8_t>& m, const DumpSpec& d) {
  for (uint32_t a = d.start; a < d.start + d.length; a += 32) {
    os << hex8_bare(a) << ':';
    for (uint32_t w = a; w < a + 32 && w < d.start + d.length; w += 4) os << ' ' << hex8_bare(peek32(m, w));
    os << '\n';
  }
}

using umbra::BubbleReason;
using umbra::kBubbleReasons;
namespace simtools = umbra::simtools;

// The cycle models' events name a core and its thread; the trackers below count work
// items, core * launched + thread, as the reference simulator numbers its threads (a
// thread never launched gets a number past them, which the trackers ignore).  The
// text trace and the timeline see the events as they are.
class WorkItems final : public umbra::EventSink {
 public:
  WorkItems(umbra::EventSink* next, unsigned launched, unsigned cores, unsigned threads)
      : next_(next), launched_(launched), cores_(cores), threads_(threads) {}
  void on_event(const umbra::Event& e) override {
    if (e.kind == umbra::EventKind::Dram) return next_->on_event(e);
    umbra::Event x = e;
    x.thread = e.thread < launched_ ? e.core * launched_ + e.thread
                                    : cores_ * launched_ + e.core * threads_ + e.thread;
    next_->on_event(x);
  }
  bool stop_requested() const override { return next_->stop_requested(); }

 private:
  umbra::EventSink* next_;
  unsigned launched_, cores_, threads_;
};

// Thread ends for a cycle model from its result and the tracker's view of the events:
// n threads launched on each core, work item w = core * n + thread.
void cycle_thread_ends(Outcome& o, const simtools::ThreadTracker& tr, const umbra::Program& p,
                       const umbra::Config& cfg, unsigned n) {
  const umbra::RunResult& r = o.cyc;
  auto word_at = [&](uint32_t pc) -> std::optional<uint32_t> {
    if (pc < p.text_base || (pc - p.text_base) / 4 >= p.text.size()) return std::nullopt;
    return p.text[(pc - p.text_base) / 4];
  };
  for (unsigned t = 0; t < n * cfg.cores; ++t) {
    const unsigned core = t / n, slot = core * cfg.threads + t % n;
    ThreadEnd e;
    e.count = slot < r.stats.issued.size() ? r.stats.issued[slot] : 0;
    e.regs = tr.registers()[t];
    e.pc = e.count ? tr.last_pc(t) : p.entry;
    const auto w = word_at(e.pc);
    const auto d = w ? umbra::isa::decode(*w) : std::nullopt;
    const bool at_exit = e.count && d && std::string(d->info->name) == "exit";
    if (r.status == umbra::RunResult::Status::Fault && r.fault != umbra::Fault::None &&
        r.fault_core == core && r.fault_thread == t % n) {
      e.state = "faulted";
      if (r.fault_pc || r.fault == umbra::Fault::IllegalInstruction || r.fault == umbra::Fault::BadJump)
        e.pc = r.fault_pc;
    } else if (r.status == umbra::RunResult::Status::Exited || tr.exited(t) || at_exit) {
      e.state = "exited";
    } else {
      e.state = "running";
    }
    o.threads.push_back(std::move(e));
  }
}

void cycle_status(Outcome& o) {
  switch (o.cyc.status) {
    case umbra::RunResult::Status::Exited: o.status = "exited"; break;
    case umbra::RunResult::Status::Fault:
      o.status = "fault";
      o.rc = kExitFault;
      o.stop_line = "fault: " + o.cyc.message;
      break;
    case umbra::RunResult::Status::CycleLimit:
      o.status = "cycle limit";
      o.rc = kExitLimit;
      o.stop_line = "stopped: " + o.cyc.message;
      break;
  }
}

struct Request {
  const umbra::models::Model* model = nullptr;
  std::string input;
  unsigned threads = 1;
  umbra::Domain domain;  // a domain launch: threads is T, the tables are per context
  uint64_t max_instructions = kDefaultMaxInstructions, max_cycles = kDefaultMaxCycles;
  std::ostream* trace = nullptr;  // iss: instruction trace; cycle models: events
  std::FILE* event_trace = nullptr;
  std::string trace_name;                            // for messages: the file, or stdout
  uint64_t trace_limit = umbra::kDefaultTraceLimit;  // bytes; 0: none
  umbra::EventSink* timeline = nullptr;
  bool progress = false;
  std::string vcd, fst;     // rtl/cosim waveform base names (cosim_run.h)
  umbra::WaveBounds waves;  // their window and size limit
  std::string commands;     // --commands: the command file
};

Outcome run_iss(const umbra::Program& prog, const umbra::Config& cfg, const Request& rq) {
  umbra::iss::Simulator sim(cfg);
  sim.set_livelock_window(kLivelockRounds);
  try {
    sim.load(prog, rq.input);
  } catch (const umbra::iss::LoadError& e) {
    throw InputError(e.what());
  }
  uint64_t written = 0, lines = 0, retired = 0;
  bool trace_full = false;
  if (rq.trace) {
    const std::string header = umbra::iss::trace_header() + '\n';
    *rq.trace << header;
    written = header.size();
  }
  const umbra::isa::LabelFn labels = sim.labels();
  umbra::iss::Observer obs;
  if (rq.trace)
    obs = [&](unsigned t, const umbra::Retired& r) {
      ++retired;
      if (trace_full) return;
      const std::string line = umbra::iss::trace_line(t, r, labels) + '\n';
      if (rq.trace_limit && written + line.size() > rq.trace_limit) {
        trace_full = true;  // whole lines only, and none after the first that does not fit
        return;
      }
      *rq.trace << line;
      written += line.size();
      ++lines;
    };
  const umbra::iss::IssResult res = rq.domain.launch()
                                        ? sim.run_domain(rq.domain.w, rq.domain.h, rq.max_instructions, obs)
                                        : sim.run(rq.threads, rq.max_instructions, obs);
  Outcome o;
  o.model = rq.model->name;
  o.status = "exited";
  if (trace_full)
    o.warnings.push_back("--trace " + rq.trace_name + " reached its size limit of " +
                         umbra::size_text(rq.trace_limit) + " and was not written further: it " +
                         "holds the first " + std::to_string(lines) + " retired instructions (the run " +
                         "retired " + std::to_string(retired) + "); raise the limit with --trace-limit " +
                         "SIZE (0: none)");
  if (res.fault) {
    const bool limit = res.fault->fault == umbra::Fault::InstructionLimit;
    o.stop_line = std::string(limit ? "stopped: " : "fault: ") + res.fault->message();
    o.rc = limit ? kExitLimit : kExitFault;
    o.status = limit ? "instruction limit" : "fault";
  } else if (res.livelock) {
    std::vector<std::string> where;
    bool one_pc = true;
    for (size_t t = 0; t < res.threads.size(); ++t) {
      if (res.threads[t].status != umbra::iss::ThreadStatus::Running) continue;
      if (!where.empty() && res.livelock->pcs[t] != res.livelock->pcs[0]) one_pc = false;
      where.push_back("thread " + std::to_string(t) + " at pc " + umbra::hex8(res.livelock->pcs[t]));
    }
    std::string who;
    for (const std::string& w : where) who += (who.empty() ? "" : ", ") + w;
    if (where.size() > 1 && one_pc) who = "every running thread at pc " + umbra::hex8(res.livelock->pcs[0]);
    o.stop_line = "livelock: " + who + " for " + std::to_string(res.livelock->rounds) +
                  " rounds with no register or memory change; did the program forget `exit`?";
    o.rc = kExitLivelock;
    o.status = "livelock";
  }
  for (const auto& th : res.threads) {
    ThreadEnd e;
    e.state = umbra::iss::status_name(th.status);
    e.pc = th.state.pc;
    e.count = th.retired;
    e.regs.assign(std::begin(th.state.r), std::begin(th.state.r) + cfg.registers);
    o.threads.push_back(std::move(e));
  }
  o.iss_retired = res.retired;
  o.iss_rounds = res.rounds;
  o.memory = sim.memory().bytes();
  return o;
}

Outcome run_cycle_model(const umbra::Program& prog, const umbra::Config& cfg, const Request& rq) {
  const unsigned items = rq.threads * cfg.cores;
  simtools::ThreadTracker tracker(items, cfg.registers);
  std::unique_ptr<umbra::TextEventSink> text;
  std::unique_ptr<simtools::ProgressSink> progress;
  simtools::LivelockWatch livelock(items, cfg.registers, kLivelockRounds);
  auto word_at = [&](uint32_t pc) -> std::optional<uint32_t> {
    if (pc < prog.text_base || (pc - prog.text_base) / 4 >= prog.text.size()) return std::nullopt;
    return prog.text[(pc - prog.text_base) / 4];
  };
  // Which words of the program touch memory, decided once: the question is asked for
  // every issued instruction.
  std::vector<bool> accesses_memory(prog.text.size());
  for (size_t i = 0; i < prog.text.size(); ++i)
    if (const auto d = umbra::isa::decode(prog.text[i])) accesses_memory[i] = umbra::is_memory_op(*d);
  simtools::RequestOrigins origins(
      items, [&](uint32_t pc) { return word_at(pc) && accesses_memory[(pc - prog.text_base) / 4]; });
  simtools::TeeSink by_item;
  by_item.add(&tracker);
  by_item.add(&livelock);
  by_item.add(&origins);
  WorkItems items_sink(&by_item, rq.threads, cfg.cores, cfg.threads);
  simtools::TeeSink tee;
  tee.add(&items_sink);
  if (rq.event_trace) {
    const std::string header = "# cycle event thread fields (docs/microarchitecture.md, Events)\n";
    std::fputs(header.c_str(), rq.event_trace);
    text = std::make_unique<umbra::TextEventSink>(rq.event_trace, rq.trace_limit, header.size());
    tee.add(text.get());
  }
  tee.add(rq.timeline);
  if (rq.progress) {
    progress = std::make_unique<simtools::ProgressSink>("umbra-sim: " + rq.model->name);
    tee.add(progress.get());
  }
  Outcome o;
  o.model = rq.model->name;
  o.has_cycles = true;
  std::optional<std::string> mismatch;  // a comparing model: what differed
  // One simulation per process: run it here, so the sinks see events directly.
  umbra::models::Job job;
  job.program = &prog;
  job.source = rq.input;
  job.threads = rq.threads;
  job.domain = rq.domain;
  job.max_cycles = rq.max_cycles;
  job.sink = tee.get();
  job.isolation = umbra::Isolation::InProcess;
  job.vcd = rq.vcd;
  job.fst = rq.fst;
  job.waves = rq.waves;
  job.repro =
      "umbra-sim --model " + rq.model->name + " " + rq.input +
      (rq.domain.launch() ? " --domain " + std::to_string(rq.domain.w) + "x" + std::to_string(rq.domain.h)
                          : " --threads " + std::to_string(rq.threads));
  const umbra::models::Result r = rq.model->run(cfg, job);
  o.cyc = r.run;  // a comparing model: the RTL's, the design; both sides' statistics are compared
  if (r.compared) {
    o.cosim = true;
    o.events_compared = r.events_compared;
    o.iss_problems = r.iss_problems;
    o.iss_notes = r.iss_notes;
    o.mismatch_report = r.mismatch_report;
    if (!r.agreed) mismatch = r.summary;
  }
  if (progress) progress->finish();
  if (text) {
    text->finish();
    if (text->stopped())
      o.warnings.push_back("--trace " + rq.trace_name + " reached its size limit of " +
                           umbra::size_text(rq.trace_limit) + " at cycle " +
                           std::to_string(text->stopped_at()) +
                           " and was not written further: it holds the events of the cycles before it (the " +
                           "run went on to cycle " + std::to_string(r.run.end_cycle) +
                           "); raise the limit with --trace-limit SIZE (0: none)");
  }
  // The memory refuses an access knowing only its thread and address; name the
  // instruction that made it, as the reference simulator does ("thread 0, pc 0x0000000c
  // (ldw r1, 0(r2)): misaligned access: ...").  A posted store is refused after its
  // thread has issued on (the DRAM model takes it from the queue later), so the
  // thread's last issued pc would blame the next instruction.
  // A core's own fault names its pc already; the instruction is added as for the rest.
  umbra::RunResult& rr = o.cyc;
  const std::string who = umbra::thread_name(cfg.cores, rr.fault_core, rr.fault_thread);
  const auto dis = [&](uint32_t pc) {
    std::string d =
        umbra::isa::disassemble(word_at(pc).value_or(0), pc, [&](uint32_t a) { return prog.text_label(a); });
    const auto comment = d.find("  # invalid:");  // the reason follows in the message
    if (comment != std::string::npos) d.resize(comment);
    return " (" + d + ")";
  };
  const std::string prefix = who + ": ", at_pc = who + ", pc " + umbra::hex8(rr.fault_pc);
  if (rr.status == umbra::RunResult::Status::Fault &&
      (rr.fault == umbra::Fault::Misaligned || rr.fault == umbra::Fault::OutOfRange) &&
      rr.message.rfind(prefix, 0) == 0) {
    if (const auto pc = origins.pc_of(rr.fault_core * rq.threads + rr.fault_thread, rr.fault_addr)) {
      rr.fault_pc = *pc;
      rr.message = who + ", pc " + umbra::hex8(*pc) + dis(*pc) + ": " + rr.message.substr(prefix.size());
    }
  } else if (rr.status == umbra::RunResult::Status::Fault &&
             (rr.fault == umbra::Fault::IllegalInstruction || rr.fault == umbra::Fault::BadJump) &&
             rr.message.rfind(at_pc + ": ", 0) == 0) {
    rr.message = at_pc + dis(rr.fault_pc) + rr.message.substr(at_pc.size());
  }
  cycle_status(o);
  cycle_thread_ends(o, tracker, prog, cfg, rq.threads);
  o.memory = o.cyc.memory;
  if (livelock.detected()) {  // the watcher stopped the run (StopReason::External)
    o.status = "livelock";
    o.rc = kExitLivelock;
    o.stop_line = livelock.message();
  }
  if (mismatch) {  // outranks whatever the run itself ended with
    o.rc = kExitMismatch;
    o.status = "mismatch";
    o.stop_line = "cosim mismatch:\n" + *mismatch;
  }
  return o;
}

// --commands: the program loaded into a device of the chosen model, the command file
// submitted as one buffer; the outcome is the run's status and final memory (no thread
// table: a buffer may make many runs, each numbering its work items from 0).
Outcome run_command_file(const umbra::Program& prog, const umbra::Config& cfg, const Request& rq) {
  namespace host = umbra::host;
  const bool cycles = rq.model->supports.cycles;
  host::RunOptions ro;
  ro.max_instructions = rq.max_instructions;
  ro.max_cycles = cycles ? rq.max_cycles : 0;
  ro.isolation = umbra::Isolation::InProcess;
  ro.vcd = rq.vcd;
  ro.fst = rq.fst;
  ro.waves = rq.waves;
  ro.repro = "umbra-sim --model " + rq.model->name + " " + rq.input + " --commands " + rq.commands;
  host::Device dev = host::Device::open(rq.model->name, cfg, ro);
  Outcome o;
  try {
    const host::ProgramImage img = dev.load(prog, rq.input);
    const host::CommandBuffer cb = host::parse_command_file(rq.commands, prog, img);
    dev.submit(cb);
    o.command_words = cb.words().size() + (cb.ended() ? 0 : 1);
    o.command_addr = dev.last_buffer();
  } catch (const host::DeviceError& e) {
    throw InputError("--commands " + rq.commands + ": " + e.what());
  } catch (const host::CommandFileError& e) {
    throw InputError(e.what());
  }
  const umbra::models::Result& r = dev.wait();
  o.model = rq.model->name;
  o.commands = rq.commands;
  o.memory = r.run.memory;
  if (!cycles) {
    o.iss_retired = r.instructions;
    o.iss_rounds = r.iss_rounds;
    o.status = "exited";
    if (r.run.status == umbra::RunResult::Status::Fault) {
      o.status = "fault";
      o.rc = kExitFault;
      o.stop_line = "fault: " + r.run.message;
    } else if (r.run.status == umbra::RunResult::Status::CycleLimit) {
      o.status = "instruction limit";
      o.rc = kExitLimit;
      o.stop_line = "stopped: " + r.run.message;
    }
    return o;
  }
  o.has_cycles = true;
  o.cyc = r.run;
  cycle_status(o);
  if (r.compared) {
    o.cosim = true;
    o.events_compared = r.events_compared;
    o.iss_problems = r.iss_problems;
    o.iss_notes = r.iss_notes;
    o.mismatch_report = r.mismatch_report;
    if (!r.agreed) {
      o.rc = kExitMismatch;
      o.status = "mismatch";
      o.stop_line = "cosim mismatch:\n" + r.summary;
    }
  }
  return o;
}

std::vector<uint32_t> read_pixels(const std::vector<uint8_t>& m, const simtools::ImageSpec& s) {
  std::vector<uint32_t> px(size_t(s.width) * s.height);
  for (size_t i = 0; i < px.size(); ++i) px[i] = peek32(m, uint32_t(s.address + 4 * i));
  return px;
}

int run(int argc, char** argv) {
  CLI::App app{"umbra-sim: run an Umbra program on a model of the core (docs/simulator.md)"};
  std::string model = "iss", config_path, input, format = "auto", trace_file, mem_size_text, max_text,
              max_cycles_text, stats_path, timeline_path, window_text;
  std::optional<unsigned> threads;
  std::string domain_text;
  std::vector<std::string> dumps, include_dirs, image_dumps, image_shows;
  bool show_regs = false, no_progress = false;
  std::string model_help = "model to run:";
  for (const umbra::models::Model& m : umbra::models::all())
    model_help +=
        std::string(&m == &umbra::models::all().front() ? " " : ", ") + m.name + " (" + m.description + ")";
  app.add_option("--model", model, model_help)
      ->check(CLI::IsMember(umbra::models::names()))
      ->capture_default_str();
  app.add_option("--config", config_path, "machine configuration (configs/*.yaml); default: built-in default")
      ->type_name("FILE");  // the loader says why a file cannot be read
  auto* threads_opt =
      app.add_option("--threads", threads, "threads to launch, 1..T (default: T, every context)")
          ->check(CLI::Range(1u, 256u));
  app.add_option("--domain", domain_text,
                 "launch a domain of W x H work items (W or WxH) instead of threads: the dispatcher hands "
                 "each (lx, ly) to a free thread of any core, refilling threads as they exit; the thread "
                 "tables are then per thread context")
      ->excludes(threads_opt);
  std::string commands_path;
  app.add_option(
         "--commands", commands_path,
         "run the program through the host API: load it into device memory and submit the command "
         "file FILE (YAML, a list of commands: program, args, domain, run, wait, fence, counters, ...; "
         "arguments are numbers or the program's symbols; docs/simulator.md) as one command buffer")
      ->excludes(threads_opt)
      ->excludes("--domain");
  app.add_option("--mem-size", mem_size_text,
                 "data memory bytes (overrides the configuration; K/M/G, 0x ok)");
  app.add_option(
      "--max-instructions", max_text,
      "iss: stop after this many instructions of all threads (default 100000000, tens of seconds); "
      "a run whose every thread spins on one pc changing nothing stops earlier, as a livelock");
  app.add_option(
      "--max-cycles", max_cycles_text,
      "systemc/rtl/cosim: stop after this many busy cycles after launch (default 10000000: 10-30 s "
      "under systemc, a minute or two under cosim); livelocks stop earlier");
  app.add_option("--dump-mem", dumps,
                 "after the run, print words START:LENGTH (bytes; START may be a symbol), "
                 "or write them to FILE with START:LENGTH:FILE")
      ->allow_extra_args(false);  // one value per --dump-mem, so a following input is not eaten
  app.add_option("--dump-image", image_dumps,
                 "after the run, write WIDTHxHEIGHT 0xAARRGGBB words from ADDR (a number or symbol) as a "
                 "PNG: ADDR:WIDTHxHEIGHT:FILE.png")
      ->allow_extra_args(false);
  app.add_option("--show-image", image_shows,
                 "after the run, print WIDTHxHEIGHT 0xAARRGGBB words from ADDR in 24-bit colour on "
                 "stdout (at most 80 columns): ADDR:WIDTHxHEIGHT")
      ->allow_extra_args(false);
  app.add_option("--stats-json", stats_path,
                 "write the run's statistics as JSON to FILE ('-': stdout): cycles, issued instructions "
                 "and bubbles by reason per thread, IPC (iss: instructions and rounds)");
  std::string vcd_base, fst_base;
  app.add_option("--vcd", vcd_base,
                 "rtl/cosim: write waveforms BASE.rtl.vcd (and, for cosim, BASE.systemc.vcd) with the same "
                 "names for the same signals");
  app.add_option("--fst", fst_base, "rtl/cosim: as --vcd, converted to FST (BASE.rtl.fst, BASE.systemc.fst)")
      ->excludes("--vcd");  // one waveform format a run
  umbra::WaveBounds waves;
  umbra::add_wave_options(app, waves);
  app.add_option("--timeline", timeline_path,
                 "systemc/rtl/cosim: draw the issue slots of a window of cycles, per pipeline stage, as SVG "
                 "(with several cores, core 0's)");
  app.add_option("--timeline-window", window_text,
                 "the cycles --timeline draws, START:COUNT (default: 64 from the first issued instruction)");
  // A value always ('-' for stdout): an optional value would take the program named
  // after it for the trace file (`--trace A.s B.s` overwrote A.s).
  auto* trace =
      app.add_option("--trace", trace_file,
                     "iss: trace every instruction; systemc/rtl/cosim: every cycle's events; to FILE "
                     "('-': stdout)");
  uint64_t trace_limit = umbra::kDefaultTraceLimit;
  umbra::add_limit_option(
      app, "--trace-limit", trace_limit,
      "the bytes --trace may write, N or N with K, M or G (default 1G; 0: no limit); the "
      "trace stops at the last whole line (iss) or cycle (cycle models) that fits, with a "
      "warning, and the run goes on");
  app.add_flag("--regs", show_regs, "print every thread's final non-zero registers");
  app.add_flag("--no-progress", no_progress, "no progress line on a terminal during long runs");
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
  if (input.empty()) {
    std::cerr << "umbra-sim: error: no input program given\n" << app.help();
    return kExitBadInput;
  }
  const umbra::models::Model& chosen = umbra::models::find(model);
  const bool iss = !chosen.supports.cycles;  // the reference simulator counts instructions
  if (iss && !max_cycles_text.empty())
    throw InputError(
        "--max-cycles: the reference simulator (--model iss) has no cycles; use --max-instructions");
  if (!iss && !max_text.empty())
    throw InputError("--max-instructions: --model " + model +
                     " counts cycles, not instructions; use --max-cycles");
  if (!timeline_path.empty() && iss)
    throw InputError("--timeline: --model iss has no cycles; use --model systemc, rtl or cosim");
  if (app.count("--timeline-window") && timeline_path.empty())
    throw InputError("--timeline-window needs --timeline FILE.svg");
  if (!commands_path.empty()) {
    // A buffer may make many runs, each numbering its work items from 0: what these
    // show per thread or per cycle would mix them.
    for (const auto& [given, name] : {std::pair<bool, const char*>{trace->count() > 0, "--trace"},
                                      {!timeline_path.empty(), "--timeline"},
                                      {show_regs, "--regs"}})
      if (given)
        throw InputError(std::string(name) + ": not with --commands (a buffer may make several runs)");
  }

  umbra::Config cfg;
  if (!config_path.empty()) cfg = umbra::load_config(config_path);
  if (app.count("--mem-size")) {  // an empty value too
    const auto v = parse_number(mem_size_text, true);
    if (!v || *v < 4 || *v > (1ull << 31) || *v % 4)
      throw InputError("--mem-size '" + mem_size_text + "': expected a multiple of 4 bytes from 4 to 2G");
    cfg.mem_bytes = uint32_t(*v);
  }
  Request rq;
  rq.model = &chosen;
  rq.input = input;
  rq.commands = commands_path;
  if ((!vcd_base.empty() || !fst_base.empty()) && !chosen.supports.waveforms)
    throw InputError("--vcd/--fst: waveforms come from --model rtl or cosim (cosim writes both sides)");
  rq.vcd = vcd_base;
  rq.fst = fst_base;
  rq.waves = waves;
  for (const char* option : {"--wave-from", "--wave-to", "--wave-limit"})
    if (app.count(option) && vcd_base.empty() && fst_base.empty())
      throw InputError(std::string(option) +
                       ": bounds the waveforms of --vcd or --fst, and none was asked for");
  if (app.count("--trace-limit") && !trace->count())
    throw InputError("--trace-limit: bounds the trace of --trace, and none was asked for");
  if (app.count("--max-instructions")) {
    const auto v = parse_number(max_text, false);
    if (!v || *v == 0) throw InputError("--max-instructions '" + max_text + "': expected a positive number");
    rq.max_instructions = *v;
  }
  if (app.count("--max-cycles")) {
    const auto v = parse_number(max_cycles_text, false);
    if (!v || *v == 0) throw InputError("--max-cycles '" + max_cycles_text + "': expected a positive number");
    rq.max_cycles = *v;
  }
  rq.threads = threads.value_or(cfg.threads);
  if (app.count("--domain")) {  // an empty value too
    try {
      rq.domain = umbra::models::parse_domain(domain_text);
    } catch (const std::invalid_argument& e) {
      throw InputError(e.what());
    }
  }
  if (rq.threads > cfg.threads)
    throw InputError("--threads " + std::to_string(rq.threads) + ": configuration '" + cfg.name + "' has " +
                     std::to_string(cfg.threads) + " thread contexts (core.threads)");
  std::optional<simtools::TimelineWindow> window;
  if (!timeline_path.empty()) {
    try {
      window = !app.count("--timeline-window") ? simtools::TimelineWindow{}
                                               : simtools::parse_timeline_window(window_text);
    } catch (const std::runtime_error& e) {
      throw InputError(e.what());
    }
  }

  const umbra::Program prog = load_program(input, format, cfg, include_dirs);
  std::vector<DumpSpec> dump_specs;
  for (const std::string& s : dumps) dump_specs.push_back(parse_dump(s, prog, input, cfg.mem_bytes));
  const simtools::SymbolLookup lookup = [&](const std::string& name) { return prog.data_symbol(name); };
  std::vector<simtools::ImageSpec> png_specs, show_specs;
  try {
    for (const std::string& s : image_dumps)
      png_specs.push_back(simtools::parse_image_spec("--dump-image", s, true, lookup, cfg.mem_bytes));
    for (const std::string& s : image_shows)
      show_specs.push_back(simtools::parse_image_spec("--show-image", s, false, lookup, cfg.mem_bytes));
  } catch (const simtools::ImageError& e) {
    throw InputError(e.what());
  }

  // No output may replace an input of the run (the program and what it includes, the
  // configuration, the command file) or another output: the rule of every tool
  // (umbra/output_files.h).  Outputs here are streamed or written after the run, so
  // only its check is used, before anything is opened.
  umbra::OutputFiles outputs;
  outputs.add_inputs(prog.sources.empty() ? std::vector<std::string>{input} : prog.sources);
  outputs.add_input(config_path, "the configuration");
  outputs.add_input(commands_path, "the command file");
  const bool trace_to_file = trace->count() && trace_file != "-";
  if (trace_to_file) outputs.add(trace_file, "", "--trace");
  if (!stats_path.empty() && stats_path != "-") outputs.add(stats_path, "", "--stats-json");
  for (const DumpSpec& d : dump_specs)
    if (!d.file.empty()) outputs.add(d.file, "", "--dump-mem");
  for (const auto& s : png_specs) outputs.add(s.file, "", "--dump-image");
  if (!timeline_path.empty()) outputs.add(timeline_path, "", "--timeline");
  // Waveforms are written by the model as it runs, under names derived from BASE; a
  // directory that is not there would otherwise be noticed (or not) only by the
  // writer, after the whole run.
  for (const auto& [option, base] :
       {std::pair<std::string, std::string>{"--vcd", vcd_base}, {"--fst", fst_base}}) {
    if (base.empty()) continue;
    const std::string ext = option == "--vcd" ? ".vcd" : ".fst";
    outputs.add(base + ".rtl" + ext, "", option);
    if (chosen.supports.compares) outputs.add(base + ".systemc" + ext, "", option);
    const std::filesystem::path parent = std::filesystem::path(base).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw InputError("error: " + option + " '" + base + "': directory '" + dir + "' " +
                       (std::filesystem::exists(dir, ec) ? "is not a directory" : "does not exist"));
  }
  try {
    outputs.check();
    // Verilator's writer says nothing when it cannot open its file (the run went on
    // and exited 0 with no waveform): each waveform file is opened here first.
    for (const auto& [option, base] :
         {std::pair<std::string, std::string>{"--vcd", vcd_base}, {"--fst", fst_base}}) {
      if (base.empty()) continue;
      const std::string ext = option == "--vcd" ? ".vcd" : ".fst";
      umbra::check_writable(base + ".rtl" + ext, option);
      if (chosen.supports.compares) umbra::check_writable(base + ".systemc" + ext, option);
    }
  } catch (const umbra::OutputError& e) {
    throw InputError("error: " + std::string(e.what()));
  }

  // Output files are opened before the run, so a bad path costs nothing.  Each write
  // is checked (umbra/output_file.h); stdout is checked once, at the end.
  umbra::OutputFile trace_out, stats_out, timeline_out;
  try {
    if (trace->count()) {
      rq.trace_limit = trace_limit;
      rq.trace_name = trace_file == "-" ? "(stdout)" : "'" + trace_file + "'";
      std::cout.flush();
      trace_out = umbra::OutputFile(trace_file, "--trace");
      if (iss)
        rq.trace = trace_out.is_stdout() ? &std::cout : &trace_out.stream();
      else
        rq.event_trace = trace_out.file();
    }
    if (!stats_path.empty()) stats_out = umbra::OutputFile(stats_path, "--stats-json");
    if (window) timeline_out = umbra::OutputFile(timeline_path, "--timeline");
  } catch (const umbra::OutputError& e) {
    throw InputError("error: " + std::string(e.what()));
  }
  std::unique_ptr<simtools::TimelineSink> timeline;
  if (window) {
    timeline = std::make_unique<simtools::TimelineSink>(*window, cfg.execute_stages);
    rq.timeline = timeline.get();
  }
  rq.progress = !no_progress && isatty(STDERR_FILENO);

  Outcome o;
  try {
    o = !rq.commands.empty() ? run_command_file(prog, cfg, rq)
        : iss                ? run_iss(prog, cfg, rq)
                             : run_cycle_model(prog, cfg, rq);
    o.domain = rq.domain;
  } catch (const umbra::RunError& e) {
    throw InputError("--model " + model + ": " + e.what());
  }
  int rc = o.rc;
  // Warnings (a waveform cut at its limit) change no exit status: the run is whole.
  for (const auto* ws : {&o.warnings, &o.cyc.warnings})
    for (const std::string& w : *ws) std::cerr << "umbra-sim: warning: " << w << '\n';
  if (!o.stop_line.empty()) std::cerr << "umbra-sim: " << o.stop_line << '\n';
  // A file that could not be written is an error even after a run that succeeded:
  // the user would otherwise read a truncated trace or dump as the whole.
  auto output_failed = [&](const std::string& what) {
    std::cerr << "umbra-sim: " << what << '\n';
    if (rc == kExitOk) rc = kExitBadInput;
  };
  // Closes a file, its failure (with the partial file removed) an output error.
  auto close_checked = [&](umbra::OutputFile& f) {
    try {
      f.close();
    } catch (const umbra::OutputError& e) {
      output_failed("error: " + std::string(e.what()));
    }
  };
  if (!trace_out.is_stdout()) close_checked(trace_out);
  // The waveform writers run inside the model (perhaps in a child process): the files
  // they were to write must be there now.
  for (const auto& [option, base] :
       {std::pair<std::string, std::string>{"--vcd", vcd_base}, {"--fst", fst_base}}) {
    if (base.empty()) continue;
    const std::string ext = option == "--vcd" ? ".vcd" : ".fst";
    for (const char* side : {".rtl", ".systemc"}) {
      if (side == std::string(".systemc") && !chosen.supports.compares) continue;
      std::error_code ec;
      if (!std::filesystem::exists(base + side + ext, ec))
        output_failed("error: " + option + " '" + base + side + ext + "': the waveform was not written");
    }
  }
  // stdout (the trace, --regs, --dump-mem without FILE, --show-image, --stats-json -)
  // is checked once, at the end, after everything was written to it.
  auto check_stdout = [&] {
    try {
      umbra::check_stdout();
    } catch (const umbra::OutputError& e) {
      output_failed("error: " + std::string(e.what()));
    }
  };
  if (show_regs) write_regs(std::cout, o, cfg.registers);
  for (const DumpSpec& d : dump_specs) {
    if (d.file.empty()) {
      write_dump(std::cout, o.memory, d);
      continue;
    }
    try {
      umbra::OutputFile f(d.file, "--dump-mem");
      write_dump(f.stream(), o.memory, d);
      f.close();
    } catch (const umbra::OutputError& e) {
      output_failed("error: " + std::string(e.what()));
    }
  }
  for (const auto& s : png_specs) {
    try {
      simtools::write_png(s.file, read_pixels(o.memory, s), s.width, s.height);
    } catch (const simtools::ImageError& e) {
      std::error_code ec;
      if (std::filesystem::is_regular_file(s.file, ec)) std::filesystem::remove(s.file, ec);  // partial
      output_failed(e.what());
    }
  }
  for (const auto& s : show_specs)
    std::cout << simtools::ansi_image(read_pixels(o.memory, s), s.width, s.height);
  std::cout.flush();
  if (timeline && window->start && *window->start > o.cyc.end_cycle) {
    // Asked for cycles the run never reached: no empty picture, a refusal.
    timeline_out = umbra::OutputFile();
    std::remove(timeline_path.c_str());
    output_failed("--timeline-window " + window_text + ": the run ended at cycle " +
                  std::to_string(o.cyc.end_cycle) + ", before the window's first cycle " +
                  std::to_string(*window->start) + "; " + timeline_path + " was not written");
  } else if (timeline) {
    simtools::TimelineSink::Style style;
    style.title =
        "umbra-sim --model " + model + " " + input + " (" +
        (rq.domain.launch() ? "domain " + std::to_string(rq.domain.w) + "x" + std::to_string(rq.domain.h)
                            : plural(rq.threads, "thread")) +
        ", T=" + std::to_string(cfg.threads) + ", memory latency " + std::to_string(cfg.mem_latency) + ")";
    style.threads = cfg.threads;
    style.describe = [&](uint32_t pc) -> std::string {
      if (pc < prog.text_base || (pc - prog.text_base) / 4 >= prog.text.size()) return "?";
      return umbra::isa::disassemble(prog.text[(pc - prog.text_base) / 4], pc,
                                     [&](uint32_t a) { return prog.text_label(a); });
    };
    try {
      timeline_out.stream() << timeline->svg(style);
      timeline_out.close();
    } catch (const umbra::OutputError& e) {
      output_failed("error: " + std::string(e.what()));
    } catch (const std::runtime_error& e) {
      output_failed(timeline_path + ": error: " + e.what());
    }
  }
  if (!stats_path.empty()) {
    const std::string text = stats_json(o, cfg, input).dump(2) + "\n";
    if (stats_out.is_stdout()) {
      std::cout << text;
      std::cout.flush();
    } else {
      stats_out.stream() << text;
      close_checked(stats_out);
    }
  }
  check_stdout();
  write_summary(std::cerr, o, cfg);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  umbra::check_stdout_at_exit("umbra-sim", kExitBadInput);  // --help, usage: the run's own check is in run()
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
