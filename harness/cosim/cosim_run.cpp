// run_rtl and run_cosim (umbra/cosim_run.h): the benches, the RTL's own checks on top
// of the harness's, the monitors, the comparison and the waveform files.  The
// child-process transport is the harness's (subprocess.h) plus the comparison's fields.
//
// Neither bench uses the SystemC kernel: each steps the host's script and its systems
// (RtlSide, rtl_system.h; SystemcSide, harness/system_side.h) from one loop, in the
// order a SystemC simulation would take them.  In the cosimulation the host's outputs
// fan out to both systems; their busy and fault outputs, and both memories' faults,
// are ORed into the host's inputs so that either side stopping stops the run (and the
// comparator, which also compares busy and fault, says which side it was).  The
// comparator checks each cycle once both sides have produced it.
#include "umbra/cosim_run.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

#include "bench.h"
#include "comparator.h"
#include "core_monitor.h"
#include "iss_check.h"
#include "rtl_system.h"
#include "subprocess.h"
#include "system_side.h"
#include "systemc_waveform.h"
#include "traced_memory.h"
#include "umbra/format.h"
#include "umbra/rtl_params.h"
#include "umbra/semantics.h"
#include "umbra_core.h"
#include "umbra_system.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include "wave_file.h"

namespace umbra::cosim {

Config verilated_config() {
  return load_config(verilated_params().config_file);
}

void check_config(const Config& cfg) {
  const VerilatedParams& v = verilated_params();
  std::string diff;
  auto say = [](const RtlParam& p, uint64_t value) {
    return std::string(p.name) == "GROUPS" ? "[" + group_names(uint32_t(value)) + "]" : std::to_string(value);
  };
  auto compare = [&](RtlTop top, const std::vector<std::pair<std::string, uint64_t>>& params,
                     const char* what_rtl) {
    for (const RtlParam& p : rtl_param_table()) {
      if (!p.applies_to(top) || (p.needs && !p.needs(cfg))) continue;
      const auto built =
          std::find_if(params.begin(), params.end(), [&](const auto& nv) { return nv.first == p.name; });
      const uint64_t have = p.value(cfg);
      std::string what;
      if (built == params.end())
        what = std::string(p.name) + " is not among the verilated parameters (a build older than the table)";
      else if (built->second != have)
        what = std::string(p.keys) + " gives " + p.name + " = " + say(p, have) + " but " + what_rtl +
               " was verilated with " + say(p, built->second);
      if (!what.empty()) diff += (diff.empty() ? "" : ", ") + what;
    }
  };
  compare(RtlTop::System, v.params, "the RTL");
  // The RTL memory: the SDRAM controller, when the configuration's memory is the SDRAM.
  const bool sdram = cfg.mem_model == "sdram";
  if (sdram && v.memory_top != "sdram_controller")
    diff += std::string(diff.empty() ? "" : ", ") +
            "memory.model is sdram but this RTL has no SDRAM controller behind its port (it was built for a "
            "memory.model other than sdram)";
  else if (!sdram && !v.memory_top.empty())
    diff += std::string(diff.empty() ? "" : ", ") + "memory.model is " + cfg.mem_model +
            " but this RTL has " + v.memory_top + " behind its port (memory.model sdram)";
  else if (sdram)
    compare(RtlTop::SdramController, v.memory_params, "the RTL SDRAM controller");
  if (!diff.empty())
    throw RunError(
        "configuration '" + cfg.name + "': " + diff + " (from " + v.config_file +
        "); Verilator fixes RTL parameters when it verilates: rebuild with that file changed, or use "
        "the SystemC model or the ISS for this configuration");
}

namespace {
const std::pair<const char*, Injection::Kind> kInjections[] = {{"regwrite", Injection::Kind::RegWriteValue},
                                                               {"issue", Injection::Kind::IssuePc},
                                                               {"mem", Injection::Kind::MemAddr},
                                                               {"memresp", Injection::Kind::MemRespData},
                                                               {"cache", Injection::Kind::CacheOutcome},
                                                               {"wake", Injection::Kind::WakeThread},
                                                               {"dram", Injection::Kind::DramAddr},
                                                               {"start", Injection::Kind::StartItem},
                                                               {"command", Injection::Kind::CommandAddr},
                                                               {"port-mem", Injection::Kind::PortMemAddr},
                                                               {"busy", Injection::Kind::Busy},
                                                               {"system-busy", Injection::Kind::SystemBusy},
                                                               {"fault-cause", Injection::Kind::FaultCause}};
}  // namespace

const char* injection_kinds() {
  return "regwrite, issue, mem, memresp, cache, wake, dram, start, port-mem, busy, system-busy, fault-cause";
}

Injection parse_injection(const std::string& spec) {
  Injection in;
  const auto colon = spec.find(':');
  const std::string num = spec.substr(0, colon);
  std::string kind = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const auto colon2 = kind.find(':');
  const std::string core = colon2 == std::string::npos ? "0" : kind.substr(colon2 + 1);
  if (colon2 != std::string::npos) kind.resize(colon2);
  const auto number = [](const std::string& t, unsigned long long& v) {
    char* end = nullptr;
    errno = 0;
    v = t.empty() || t[0] == '-' ? 0 : std::strtoull(t.c_str(), &end, 10);
    return !t.empty() && t[0] != '-' && !*end && !errno;
  };
  unsigned long long c = 0, k = 0;
  for (const auto& [name, kd] : kInjections)
    if (kind == name) in.kind = kd;
  if (!number(num, c) || !number(core, k) || k > 255 || in.kind == Injection::Kind::None)
    throw RunError("--inject-fault '" + spec + "': expected CYCLE:KIND[:CORE] with KIND one of " +
                   injection_kinds() + ", e.g. 120:regwrite or 120:regwrite:1");
  in.cycle = c;
  in.core = unsigned(k);
  return in;
}

std::string CosimResult::summary() const {
  std::string s;
  if (mismatch.found) s += mismatch.report;
  if (!iss_problems.empty()) {
    s += "differences from the reference simulator:\n";
    for (const std::string& p : iss_problems) s += "  " + p + "\n";
  }
  return s;
}

namespace {

// The harness's checks plus the RTL's own: its verilated parameters and CORE_ID.
void validate(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
              const Options& opts) {
  check_config(cfg);
  if (opts.core_id != 0)
    throw RunError("core id " + std::to_string(opts.core_id) + ": the RTL's cores are numbered from 0");
  if (opts.inject.kind != Injection::Kind::None && opts.inject.core >= cfg.cores)
    throw RunError("--inject-fault: core " + std::to_string(opts.inject.core) +
                   " does not exist: configuration '" + cfg.name + "' has " + std::to_string(cfg.cores) +
                   " core(s)");
  harness::validate(p, cfg, nthreads, max_cycles, opts.writes, opts.domain);
}

// With --fst the bounds apply to the VCD the FST is made from; the warnings name the
// file the user asked for.
void name_fst(std::vector<std::string>& warnings, const std::string& base) {
  for (std::string& w : warnings)
    for (const char* side : {".rtl", ".systemc"}) {
      const std::string vcd = "'" + base + side + ".vcd'", fst = "'" + base + side + ".fst'";
      for (size_t at; (at = w.find(vcd)) != std::string::npos;) w.replace(at, vcd.size(), fst);
    }
}

void to_fst(const std::string& vcd, const std::string& fst) {
  const std::string cmd = "vcd2fst '" + vcd + "' '" + fst + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0)
    throw RunError("vcd2fst could not convert " + vcd + " to " + fst + " (is gtkwave installed?)");
  std::remove(vcd.c_str());
}

// Why an RTL thread faulted, in the words the ISS and the SystemC model use
// (semantics.h): the RTL's fault outputs give the cause and the pc, the program the
// word there (0 past its end, as the instruction store holds), and the RTL's own
// register writes a jalr's target.
std::string rtl_fault_reason(Fault f, uint32_t pc, unsigned core, unsigned thread, const Program& p,
                             const Config& cfg, const RtlStepper& rtl) {
  const uint64_t i = (uint64_t(pc) - p.text_base) / 4;
  const uint32_t word = pc >= p.text_base && i < p.text.size() ? p.text[i] : 0;
  if (f == Fault::IllegalInstruction) return illegal_reason(word, cfg.registers, cfg.groups);
  std::string why;
  const auto d = isa::decode(word, &why);
  if (f != Fault::BadJump || !d) return "";
  ThreadState t;
  t.pc = pc;
  for (unsigned r = 0; r < t.r.size(); ++r) t.r[r] = rtl.register_value(core, thread, r);
  jump_fault(*d, next_pc(*d, read_operands(*d, t), pc), uint64_t(cfg.imem_words) * 4, &why);
  return why;
}

// The system's fault outputs (the lowest-numbered faulting core's) and that core's
// cause.
void rtl_fault(umbra::RunResult& r, const Program& p, const Config& cfg, const RtlStepper& rtl) {
  r.status = RunResult::Status::Fault;
  const CycleSample& sys = rtl.last_sample(0);
  if (rtl.cmd_fault() && !sys.system_fault) {
    r.fault_addr = rtl.cmd_fault_addr();
    r.message = harness::command_fault_message(rtl.cmd_fault(), rtl.cmd_fault_addr());
    return;
  }
  if (!sys.system_fault || sys.fault_core >= cfg.cores) {
    r.message = "stopped: the other model faulted";
    return;
  }
  const CycleSample& s = rtl.last_sample(sys.fault_core);
  r.fault = Fault(s.fault_cause);
  r.fault_core = s.fault_core;
  r.fault_thread = s.fault_thread;
  r.fault_pc = s.fault_pc;
  const std::string why = rtl_fault_reason(r.fault, s.fault_pc, s.fault_core, s.fault_thread, p, cfg, rtl);
  r.message = umbra::thread_name(cfg.cores, s.fault_core, s.fault_thread) + ", pc " + hex8(s.fault_pc) +
              ": " + fault_name(r.fault) + (why.empty() ? "" : ": " + why) + " (cycle " +
              std::to_string(rtl.fault_cycle(s.fault_core) - 1) + ")";  // the output is registered
}

// The RTL's cache outcomes, from its C2 trace: the statistics the RTL itself shows.  Its
// replays, load latencies and queue counters are not in its trace, so they are marked
// not measured rather than taken from the SystemC model.
umbra::MemoryStats rtl_memory_stats() {
  umbra::MemoryStats m;
  m.replays_measured = false;
  return m;
}
void count_cache(umbra::MemoryStats& mem, const CycleSample& s) {
  if (const auto& k = s.events[rank(umbra::EventKind::Cache)]) {
    const auto outcome = umbra::CacheOutcome(k->value);
    mem.cache_hits += outcome == umbra::CacheOutcome::Hit;
    mem.cache_misses += outcome == umbra::CacheOutcome::Miss;
    mem.cache_merges += outcome == umbra::CacheOutcome::Merge;
  }
}

// Verilator's VCD file with its failures kept: its own open() failure is silent (the
// run went on and exited 0 with no file) and a failed write() ends the process from
// inside Verilator.  Here a failed write is remembered, the rest of the run's output
// dropped, and RtlWaveform::close() reports it.  Writes are held back in `pending_`
// until RtlWaveform says whether the cycle they belong to is kept (wave_file.h), and
// go out in large writes.
class CheckedVcdFile final : public VerilatedVcdFile {
 public:
  // The base class's descriptor is private: this class opens, writes and closes its
  // own (with the base's flags but blocking writes, so a short write is an error).
  bool open(const std::string& name) override {
    fd_ = ::open(name.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) error_ = errno;
    return fd_ >= 0;
  }
  void close() override {
    put();
    if (fd_ >= 0 && ::close(fd_) != 0 && !error_) error_ = errno;
    fd_ = -1;
  }
  ssize_t write(const char* bufp, ssize_t len) override {
    if (!error_ && fd_ >= 0) pending_.append(bufp, size_t(len));
    return len;  // a failure is reported at close, not by Verilator's fatal error
  }
  uint64_t kept() const { return kept_; }
  uint64_t pending() const { return pending_.size(); }
  void keep() {
    kept_ += pending_.size();
    out_ += pending_;
    pending_.clear();
    if (out_.size() >= kChunk) put();
  }
  void drop() { pending_.clear(); }
  int error() const { return error_; }

 private:
  static constexpr size_t kChunk = size_t(1) << 20;
  void put() {
    for (size_t done = 0; !error_ && fd_ >= 0 && done < out_.size();) {
      const ssize_t n = ::write(fd_, out_.data() + done, out_.size() - done);
      if (n > 0) {
        done += size_t(n);
      } else if (n == 0 || errno != EINTR) {
        error_ = n == 0 ? EIO : errno;
      }
    }
    out_.clear();
  }
  int fd_ = -1;
  int error_ = 0;
  std::string pending_, out_;
  uint64_t kept_ = 0;
};

// The RTL's waveform (BASE.rtl.vcd), when a path is given: dumped at both clock edges
// of every cycle of the window, 1 ns a cycle as a SystemC run's clock, times from the
// run's cycle 0 whatever the window.  cycle() is called once the cycle's inputs have
// settled after its rising edge, and lowers the model's clock (in every cycle: the
// model evaluates alike inside and outside the window).  Its every write is checked
// (CheckedVcdFile): a file that cannot be opened is a RunError before the run, one that
// could not be written whole is removed and a RunError at close().  The header is kept
// whatever the limit; each cycle is kept whole or not at all (end_cycle).
class RtlWaveform final : public WaveFile {
 public:
  RtlWaveform(RtlSide& side, const std::string& path, const umbra::WaveBounds& bounds)
      : WaveFile(path, bounds),
        rtl_(side.rtl),
        memory_(dynamic_cast<TracedMemory*>(&side.memory.model())),
        path_(path) {
    if (path.empty()) return;
    file_ = std::make_unique<CheckedVcdFile>();
    vcd_ = std::make_unique<VerilatedVcdC>(file_.get());
    if (!rtl_.trace(*vcd_, 99))  // harness/cosim/CMakeLists.txt (NO_WAVES): the suite's test configurations
      throw RunError("waveform '" + path + "': this RTL model (" + verilated_params().config_file +
                     ") was verilated without waveforms, as the suite's test configurations are; a build "
                     "configured with -DUMBRA_COSIM_CONFIG=<that file> makes umbra-cosim with them");
    if (memory_) memory_->trace(*vcd_);  // an RTL memory (the SDRAM controller) beside it
    vcd_->set_time_unit("1ns");
    vcd_->set_time_resolution("1ps");
    vcd_->open(path.c_str());
    if (!vcd_->isOpen())
      throw RunError("waveform '" + path +
                     "': cannot open: " + std::strerror(file_->error() ? file_->error() : EIO));
    vcd_->flush();
    file_->keep();  // the header
  }
  bool active() const { return vcd_ != nullptr; }
  // The cycle that began at the rising edge just taken, and that edge's time in
  // picoseconds; dumped if in the window, then end_cycle() decides.
  std::pair<uint64_t, uint64_t> cycle() {
    const uint64_t c = c_++, t = c * 1000;
    if (!vcd_) return {c, t};
    if (!dumping(c)) {
      rtl_.fall();
      return {c, t};
    }
    vcd_->dump(t);
    rtl_.fall();
    if (memory_) memory_->fall();
    vcd_->dump(t + 500);
    vcd_->flush();
    return {c, t};
  }
  uint64_t kept_bytes() const override { return file_ ? file_->kept() : 0; }
  uint64_t pending_bytes() const override { return file_ ? file_->pending() : 0; }
  void close() {
    if (!vcd_) return;
    file_->drop();  // nothing after the last cycle kept
    vcd_->close();
    struct stat st;
    const bool there = ::stat(path_.c_str(), &st) == 0;
    if (file_->error()) {
      // A regular file is removed; a device (or a link to one) the user named is left.
      const bool regular = there && S_ISREG(st.st_mode) && ::unlink(path_.c_str()) == 0;
      throw RunError("waveform '" + path_ + "': cannot write: " + std::strerror(file_->error()) +
                     (regular ? " (the partial file was removed)" : ""));
    }
    if (!there) throw RunError("waveform '" + path_ + "': not written (" + std::strerror(errno) + ")");
  }

 private:
  void keep() override { file_->keep(); }
  void drop() override { file_->drop(); }

  RtlStepper& rtl_;
  TracedMemory* memory_;  // null: the memory is C++ on this side too
  std::string path_;
  std::unique_ptr<CheckedVcdFile> file_;  // outlives vcd_, which writes through it
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t c_ = 0;
};

RunResult run_rtl_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                       EventSink* sink, const Options& opts) {
  harness::claim_process();
  std::vector<umbra::CoreStats> stats(cfg.cores);
  for (umbra::CoreStats& st : stats) {
    st.issued.assign(cfg.threads, 0);
    st.bubbles.assign(cfg.threads, {});
  }
  bool protocol_error = false;
  auto job = harness::make_job(p, nthreads, max_cycles, opts.domain, opts.doorbell);
  job.stop = [&protocol_error, sink] { return protocol_error || (sink && sink->stop_requested()); };
  const bool waveform = !opts.vcd.empty() || !opts.fst.empty();
  if (waveform) Verilated::traceEverOn(true);
  umbra::MemoryStats mem = rtl_memory_stats();
  std::unique_ptr<RtlSide> side;
  try {
    side = std::make_unique<RtlSide>(
        cfg,
        [&](const CycleSample& s) {
          if (s.protocol_error) protocol_error = true;
          count_cache(mem, s);
          const umbra::Event& e = *s.events[0];
          if (s.busy && e.thread < cfg.threads) {
            umbra::CoreStats& st = stats[s.core];
            ++st.cycles;
            if (e.kind == umbra::EventKind::Issue)
              ++st.issued[e.thread];
            else
              ++st.bubbles[e.thread][unsigned(e.reason)];
          }
          if (sink)
            for (const auto& ev : s.events)
              if (ev) sink->on_event(*ev);
        },
        opts.host_writes, waveform, opts.ncores ? opts.ncores : cfg.cores);
  } catch (const std::invalid_argument& e) {  // the memory's parameters, a host write
    throw RunError(e.what());
  }
  RtlSide& b = *side;
  harness::HostScript host(std::move(job));
  harness::load_memory(b.memory, p, opts.writes);

  const std::string base = !opts.fst.empty() ? opts.fst : opts.vcd;
  RtlWaveform trace(b, waveform ? base + ".rtl.vcd" : "", opts.waves);
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  harness::run_alone(b, host, [&] {
    const uint64_t c = trace.cycle().first;
    if (trace.active()) end_cycle(c, {&trace});
  });
  r.cpu_seconds = double(std::clock() - c0) / CLOCKS_PER_SEC;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  trace.close();
  if (trace.active()) r.warnings = trace.warnings();
  if (!opts.fst.empty()) {
    to_fst(base + ".rtl.vcd", base + ".rtl.fst");
    name_fst(r.warnings, base);
  }

  std::vector<const umbra::CoreStats*> cores;
  for (const umbra::CoreStats& st : stats) cores.push_back(&st);
  r.stats = umbra::join_stats(cores);
  r.cycles = r.stats.cycles;
  r.mem = mem;
  b.memory.model().add_stats(r.mem);
  harness::fill_status(
      r, host, b.memory, [&](RunResult& x) { rtl_fault(x, p, cfg, b.rtl); },
      protocol_error ? "RTL protocol error: mem_req_ready was low for a request (trace_protocol_error)" : "",
      max_cycles, [&](unsigned c, unsigned t) { return b.rtl.last_access(c, t); });
  return r;
}

// Perturbs the first event of the chosen kind at or after the chosen cycle on its way
// from the SystemC core to the comparator (test-only).
class InjectingSink final : public EventSink {
 public:
  InjectingSink(EventSink& next, Injection in) : next_(next), in_(in) {}
  void on_event(const Event& e) override {
    if (in_.kind == Injection::Kind::None || done_ || e.cycle < in_.cycle || e.core != in_.core)
      return next_.on_event(e);
    using K = Injection::Kind;
    using E = umbra::EventKind;
    Event x = e;
    if (in_.kind == K::RegWriteValue && e.kind == E::RegWrite)
      x.value ^= 1;
    else if (in_.kind == K::IssuePc && e.kind == E::Issue)
      x.pc += 4;
    else if (in_.kind == K::MemAddr && e.kind == E::Mem)
      x.addr += 4;
    else if (in_.kind == K::MemRespData && e.kind == E::MemResp)
      x.value ^= 1;
    else if (in_.kind == K::CacheOutcome && e.kind == E::Cache)
      x.value ^= 1;
    else if (in_.kind == K::WakeThread && e.kind == E::Wake)
      x.thread ^= 1;
    else if (in_.kind == K::DramAddr && e.kind == E::Dram)
      x.addr += 4;
    else if (in_.kind == K::StartItem && e.kind == E::Start)
      x.addr += 1;
    else if (in_.kind == K::CommandAddr && e.kind == E::Command)
      x.addr += 4;
    else
      return next_.on_event(e);
    done_ = true;
    std::fprintf(stderr, "umbra-cosim: injected fault: %s -> %s\n", umbra::format_event(e).c_str(),
                 umbra::format_event(x).c_str());
    next_.on_event(x);
  }

 private:
  EventSink& next_;
  Injection in_;
  bool done_ = false;
};

// The same for what the SystemC side's monitor sees at the ports (test-only): the memory
// port's request, the core's busy, the system's busy, a fault's cause.
class InjectingPort {
 public:
  explicit InjectingPort(Injection in) : in_(in) {}
  void operator()(CycleSample& x) {
    using K = Injection::Kind;
    if (done_ || x.cycle < in_.cycle || x.core != in_.core) return;
    auto& mem = x.events[rank(umbra::EventKind::Mem)];
    if (in_.kind == K::PortMemAddr && mem)
      mem->addr += 4;
    else if (in_.kind == K::Busy)
      x.busy = !x.busy;
    else if (in_.kind == K::SystemBusy)
      x.system_busy = !x.system_busy;
    else if (in_.kind == K::FaultCause && x.fault)
      x.fault_cause = x.fault_cause == uint32_t(Fault::IllegalInstruction)
                          ? uint32_t(Fault::BadJump)
                          : uint32_t(Fault::IllegalInstruction);
    else
      return;
    done_ = true;
    std::fprintf(stderr, "umbra-cosim: injected fault at the SystemC side's ports, cycle %llu, core %u\n",
                 static_cast<unsigned long long>(x.cycle), x.core);
  }

 private:
  Injection in_;
  bool done_ = false;
};

// The cosimulation's two sides under one host script.  At each rising edge the
// SystemC side's monitors sample their cores' ports (the RTL's are sampled inside
// rtl.edge), both systems and memories take the edge, and the host sees the OR of
// their busy and fault outputs.  Once the new cycle's inputs have settled, `check`
// compares the cycle the edge ended (a SystemC run's comparator ran at the falling
// edge); the run stops at a mismatch.  Never destroyed: its SystemC objects are
// registered with the kernel's object tree.
struct CosimBench {
  umbra::MemoryStats rtl_mem = rtl_memory_stats();  // the RTL's own, from its trace
  RtlSide rtl;
  harness::SystemcSide sc;
  std::vector<core_monitor> monitors;  // per core
  harness::HostScript host;

  CosimBench(const Config& cfg, harness::HostScript::Job job, Comparator& cmp,
             const std::vector<umbra::HostWrite>& writes, Injection inject, bool waveform, uint32_t ncore)
      : rtl(
            cfg,
            [this, &cmp](const CycleSample& s) {
              count_cache(rtl_mem, s);
              cmp.on_rtl(s);
            },
            writes, waveform, ncore),
        sc("sc_system", cfg, 0, writes, ncore),
        host(std::move(job)) {
    for (unsigned c = 0; c < cfg.cores; ++c)
      monitors.emplace_back(c, [&cmp, port = InjectingPort(inject)](CycleSample& s) mutable {
        port(s);
        cmp.on_systemc_port(s);
      });
  }

  template <class Check, class EachCycle>
  void run(Check&& check, EachCycle&& each_cycle) {
    for (;;) {
      const harness::EdgeInputs r = rtl.before_edge(), s = sc.before_edge();
      // A SystemC core has no fault-cause port: its first fault says it.
      const scm::umbra_system::Outputs out = sc.sys.outputs();
      for (unsigned c = 0; c < monitors.size(); ++c) {
        const scm::umbra_core& k = sc.sys.core(c);
        monitors[c].edge(sc.sys.core_inputs(c), k.port_values(), out, uint32_t(k.first_fault().kind));
      }
      rtl.edge(r);
      sc.edge(s);
      if (host.edge(r.busy || s.busy, r.fault || s.fault, r.mem_fault || s.mem_fault)) return;
      rtl.after_edge(host.outputs());
      sc.after_edge(host.outputs());
      each_cycle();
      if (!check()) return;
    }
  }
};

std::string stats_text(const umbra::CoreStats& s) {
  std::string t = "cycles " + std::to_string(s.cycles) + ", issued";
  for (uint64_t i : s.issued) t += " " + std::to_string(i);
  return t;
}

CosimResult run_cosim_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                           const Options& opts) {
  harness::claim_process();
  static Comparator* cmp = nullptr;  // never destroyed, like the bench
  static CosimBench* bench = nullptr;
  cmp = new Comparator(p, cfg.cores, cfg.threads, nthreads, opts.history, opts.repro, opts.domain);
  InjectingSink inject(*cmp, opts.inject);
  bool protocol_error = false;
  auto job = harness::make_job(p, nthreads, max_cycles, opts.domain, opts.doorbell);
  job.stop = [&protocol_error, &opts] {
    return protocol_error || !harness::protocol_error(bench->sc.sys).empty() || cmp->mismatch().found ||
           (opts.observer && opts.observer->stop_requested());
  };
  const bool waveform = !opts.vcd.empty() || !opts.fst.empty();
  if (waveform) Verilated::traceEverOn(true);
  try {
    bench = new CosimBench(cfg, std::move(job), *cmp, opts.host_writes, opts.inject, waveform,
                           opts.ncores ? opts.ncores : cfg.cores);
  } catch (const scm::CoreConfigError& e) {
    throw RunError(e.what());
  } catch (const scm::QueueConfigError& e) {
    throw RunError(e.what());
  } catch (const std::invalid_argument& e) {
    throw RunError(e.what());
  }
  CosimBench& b = *bench;
  struct Tee final : EventSink {
    EventSink &first, *second;
    Tee(EventSink& a, EventSink* b) : first(a), second(b) {}
    void on_event(const Event& e) override {
      first.on_event(e);
      if (second) second->on_event(e);
    }
  } tee(opts.inject.kind == Injection::Kind::None ? static_cast<EventSink&>(*cmp) : inject, opts.observer);
  b.sc.sys.set_event_sink(&tee);
  harness::load_memory(b.rtl.memory, p, opts.writes);
  harness::load_memory(b.sc.memory, p, opts.writes);

  const std::string base = !opts.fst.empty() ? opts.fst : opts.vcd;
  RtlWaveform rtl_trace(b.rtl, waveform ? base + ".rtl.vcd" : "", opts.waves);
  std::unique_ptr<SystemcWaveform> sc_trace;
  if (waveform)
    sc_trace = std::make_unique<SystemcWaveform>(base + ".systemc.vcd", b.sc.sys, cfg.threads, opts.waves);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  b.run(
      [&] {
        b.sc.sys.flush_events();
        if (b.rtl.rtl.protocol_error()) protocol_error = true;
        return cmp->check();
      },
      [&] {
        // Both sides dump the same cycles, and stop at the same one when either file
        // reaches its limit (wave_file.h).
        const auto [c, t] = rtl_trace.cycle();
        if (!sc_trace) return;
        if (sc_trace->dumping(c)) {
          sc_trace->dump(t, true);
          sc_trace->dump(t + 500, false);
        }
        end_cycle(c, {&rtl_trace, sc_trace.get()});
      });
  const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // The host stops on the rising edge that ends the last cycle; that cycle's events
  // are in but not yet compared.
  b.sc.sys.flush_events();
  cmp->finish();
  rtl_trace.close();
  std::vector<std::string> rtl_warnings, sc_warnings;
  if (sc_trace) {
    sc_trace->close();
    rtl_warnings = rtl_trace.warnings();
    sc_warnings = sc_trace->warnings();
  }
  sc_trace.reset();
  if (!opts.fst.empty()) {
    to_fst(base + ".rtl.vcd", base + ".rtl.fst");
    to_fst(base + ".systemc.vcd", base + ".systemc.fst");
    name_fst(rtl_warnings, base);
    name_fst(sc_warnings, base);
  }

  CosimResult out;
  out.rtl.warnings = std::move(rtl_warnings);
  out.systemc.warnings = std::move(sc_warnings);
  std::string stopped = cmp->mismatch().found ? "stopped at the first mismatch between SystemC and RTL" : "";
  if (protocol_error)
    stopped = "RTL protocol error: mem_req_ready was low for a request (trace_protocol_error)";
  if (!harness::protocol_error(b.sc.sys).empty()) stopped = harness::protocol_error(b.sc.sys);
  for (RunResult* r : {&out.systemc, &out.rtl}) {
    r->wall_seconds = wall;
    r->cpu_seconds = cpu;
  }
  out.systemc.stats = harness::system_stats(b.sc.sys);
  out.systemc.mem = scm::memory_stats(b.sc.sys, cfg.queue_enabled);
  b.sc.memory.model().add_stats(out.systemc.mem);
  // The RTL's own statistics: its cache outcomes from its trace, its DRAM counters from
  // its memory; nothing taken from the SystemC side.
  out.rtl.mem = b.rtl_mem;
  b.rtl.memory.model().add_stats(out.rtl.mem);
  out.systemc.cycles = out.systemc.stats.cycles;
  harness::fill_status(
      out.systemc, b.host, b.sc.memory, [&](RunResult& x) { harness::core_fault(x, b.sc.sys); }, stopped,
      max_cycles, harness::systemc_access(b.sc.sys));
  out.rtl.stats = cmp->rtl_stats();
  out.rtl.cycles = out.rtl.stats.cycles;
  harness::fill_status(
      out.rtl, b.host, b.rtl.memory, [&](RunResult& x) { rtl_fault(x, p, cfg, b.rtl.rtl); }, stopped,
      max_cycles, [&](unsigned c, unsigned t) { return b.rtl.rtl.last_access(c, t); });

  // After the last cycle: the same statistics and the same final memory.
  if (!cmp->mismatch().found) {
    const umbra::CoreStats &s = out.systemc.stats, &r = out.rtl.stats;
    if (s.cycles != r.cycles || s.core_cycles != r.core_cycles || s.issued != r.issued ||
        s.bubbles != r.bubbles)
      cmp->fail("end of run", out.rtl.end_cycle, 0, 0, "statistics", stats_text(s), stats_text(r), "");
  }
  if (!cmp->mismatch().found && out.systemc.memory != out.rtl.memory) {
    const auto& a = out.systemc.memory;
    const auto& m = out.rtl.memory;
    size_t first = 0, count = 0;
    for (size_t i = 0; i + 4 <= a.size(); i += 4)
      if (std::memcmp(&a[i], &m[i], 4) != 0 && count++ == 0) first = i;
    auto word = [](const std::vector<uint8_t>& v, size_t i) {
      return uint32_t(v[i]) | uint32_t(v[i + 1]) << 8 | uint32_t(v[i + 2]) << 16 | uint32_t(v[i + 3]) << 24;
    };
    cmp->fail("final memory", out.rtl.end_cycle, 0, 0, "word at " + hex8(uint32_t(first)),
              hex8(word(a, first)), hex8(word(m, first)), std::to_string(count) + " word(s) differ");
  }
  out.mismatch = cmp->mismatch();
  out.events_compared = cmp->events_compared();

  // A run stopped at a mismatch is cut short on purpose: holding its remains to the
  // ISS would only repeat the mismatch in other words.
  if (out.mismatch.found && b.host.reason() == harness::StopReason::Running)
    for (RunResult* r : {&out.systemc, &out.rtl}) r->end_cycle = out.mismatch.cycle;
  if (opts.check_iss && !out.mismatch.found) {
    const check::Reference ref = check::run_reference(p, cfg, nthreads, max_cycles, opts.writes,
                                                      opts.inject_iss, opts.domain, opts.doorbell);
    if (!ref.injected.empty()) std::fprintf(stderr, "umbra-cosim: injected: %s\n", ref.injected.c_str());
    check::IssVerdict v;
    check::compare_with_reference("systemc", p, ref, cmp->systemc_records(), out.systemc, v);
    check::compare_with_reference("rtl", p, ref, cmp->rtl_records(), out.rtl, v);
    out.iss_problems = std::move(v.problems);
    out.iss_notes = std::move(v.notes);
  }
  return out;
}

// ---- child-process transport: the harness's (subprocess.h), plus the comparison. ----

template <class IO, class C>
void transfer_cosim(IO& io, C& c) {
  harness::transfer(io, c.systemc);
  harness::transfer(io, c.rtl);
  io.pod(c.mismatch.found);
  io.str(c.mismatch.stage);
  io.pod(c.mismatch.cycle);
  io.pod(c.mismatch.core);
  io.pod(c.mismatch.thread);
  io.str(c.mismatch.field);
  io.str(c.mismatch.systemc);
  io.str(c.mismatch.rtl);
  io.str(c.mismatch.report);
  harness::transfer_strings(io, c.iss_problems);
  harness::transfer_strings(io, c.iss_notes);
  io.pod(c.events_compared);
}

}  // namespace

RunResult run_rtl(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                  EventSink* sink, const Options& opts) {
  validate(program, cfg, nthreads, max_cycles, opts);
  if (opts.isolation == Options::Isolation::InProcess)
    return run_rtl_here(program, cfg, nthreads, max_cycles, sink, opts);
  return harness::run_result_in_child(
      [&](EventSink* s) { return run_rtl_here(program, cfg, nthreads, max_cycles, s, opts); }, sink);
}

CosimResult run_cosim(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      const Options& opts) {
  validate(program, cfg, nthreads, max_cycles, opts);
  if (opts.check_iss && opts.ncores && opts.ncores != cfg.cores)
    throw RunError("ncores " + std::to_string(opts.ncores) + " differs from the configuration's " +
                   std::to_string(cfg.cores) +
                   ", which the reference simulator uses; run without the ISS check");
  if (opts.isolation == Options::Isolation::InProcess)
    return run_cosim_here(program, cfg, nthreads, max_cycles, opts);
  return harness::in_child<CosimResult>(
      [&](EventSink* s) {
        Options here = opts;
        here.observer = s;  // the child's pipe to opts.observer, or none
        return run_cosim_here(program, cfg, nthreads, max_cycles, here);
      },
      opts.observer, [](harness::Out& o, CosimResult& r) { transfer_cosim(o, r); },
      [](harness::In& i, CosimResult& r) { transfer_cosim(i, r); });
}

}  // namespace umbra::cosim
