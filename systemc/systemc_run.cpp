// run_systemc (umbra/systemc_run.h): the bench (clock, core, fixed-latency memory,
// host driver), the checks that turn an impossible run into a RunError before any
// SystemC object exists, and the child-process plumbing that lets one process make
// many runs although SystemC elaborates only once per process.  The child streams
// tagged binary records through a pipe: 'E' events as they happen, then one 'R'
// (result) or 'X' (error message).  Both ends are the same binary, so the records are
// raw copies of the structs.
#include "umbra/systemc_run.h"

#include <sys/wait.h>
#include <systemc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

#include "host_driver.h"
#include "memory_side.h"
#include "umbra_core.h"
#include "umbra_system.h"

namespace umbra::scm {

const char* status_name(RunResult::Status s) {
  switch (s) {
    case RunResult::Status::Exited: return "exited";
    case RunResult::Status::Fault: return "fault";
    case RunResult::Status::CycleLimit: return "cycle limit";
  }
  return "?";
}

namespace {

std::string hex8(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// Everything that can be checked without SystemC, so that a bad run fails the same
// way in and out of a child process, with the caller's stack intact.
void validate(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
              const RunOptions& opts) {
  if (cfg.threads < kPipelineDepth)
    throw RunError(
        "configuration '" + cfg.name + "': " + std::to_string(cfg.threads) +
        " threads is below the pipeline depth " + std::to_string(kPipelineDepth) +
        ": a thread's next instruction would meet its previous one in flight (docs/microarchitecture.md)");
  if (nthreads < 1 || nthreads > cfg.threads)
    throw RunError("cannot launch " + std::to_string(nthreads) + " threads on a core with " +
                   std::to_string(cfg.threads) + " (1.." + std::to_string(cfg.threads) + ")");
  if (max_cycles == 0) throw RunError("the cycle budget must be at least 1");
  if (cfg.mem_latency < 1) throw RunError("memory latency must be at least 1 cycle");
  if (cfg.mem_bytes % 4) throw RunError("data memory size must be a multiple of 4 bytes");
  if (p.text.empty()) throw RunError("the program has no text");
  const uint64_t imem_bytes = uint64_t(cfg.imem_words) * 4;
  if (p.text_base % 4) throw RunError("text base " + hex8(p.text_base) + " is not a multiple of 4");
  if (p.text_base + uint64_t(p.text.size()) * 4 > imem_bytes)
    throw RunError("text (" + std::to_string(p.text.size()) + " words at " + hex8(p.text_base) +
                   ") does not fit in the instruction store of " + std::to_string(cfg.imem_words) + " words");
  if (p.entry % 4 || p.entry >= imem_bytes)
    throw RunError("entry point " + hex8(p.entry) + " is " +
                   (p.entry % 4 ? "not a multiple of 4" : "outside the instruction store"));
  if (uint64_t(p.data_base) + p.data.size() > cfg.mem_bytes)
    throw RunError("data (" + std::to_string(p.data.size()) + " bytes at " + hex8(p.data_base) +
                   ") does not fit in data memory of " + std::to_string(cfg.mem_bytes) + " bytes");
  for (const auto& [addr, words] : opts.writes)
    if (addr % 4 || uint64_t(addr) + 4 * uint64_t(words.size()) > cfg.mem_bytes)
      throw RunError("input of " + std::to_string(words.size()) + " words at " + hex8(addr) +
                     " is misaligned or outside data memory");
}

// The design of one run.  Never destroyed: SystemC objects outlive the simulation in
// the kernel's tables, and a process makes at most one of these.
struct Bench {
  sc_clock clk{"clk", 1, SC_NS};
  sc_signal<bool> rst{"rst"}, host_imem_we{"host_imem_we"}, launch_valid{"launch_valid"}, busy{"busy"},
      fault{"fault"}, mem_req_valid{"mem_req_valid"}, mem_req_ready{"mem_req_ready"},
      mem_resp_valid{"mem_resp_valid"}, mem_fault{"mem_fault"}, bypass_queue{"bypass_queue"};
  sc_signal<uint32_t> host_imem_addr{"host_imem_addr"}, host_imem_data{"host_imem_data"},
      launch_count{"launch_count"}, launch_entry{"launch_entry"}, ncore{"ncore"},
      fault_thread{"fault_thread"}, fault_pc{"fault_pc"}, mem_req_op{"mem_req_op"},
      mem_req_addr{"mem_req_addr"}, mem_req_data{"mem_req_data"}, mem_req_cmp{"mem_req_cmp"},
      mem_req_tag{"mem_req_tag"}, mem_resp_data{"mem_resp_data"}, mem_resp_tag{"mem_resp_tag"};
  umbra_system sys;
  tb::memory_side memory;
  host_driver host;

  Bench(const Config& cfg, unsigned core_id, host_driver::Job job, std::vector<HostWrite> writes)
      : sys("system", cfg, core_id), memory("memory", cfg, std::move(writes)), host("host", std::move(job)) {
    sys.clk(clk);
    sys.rst(rst);
    sys.bypass_queue(bypass_queue);
    sys.host_imem_we(host_imem_we);
    sys.host_imem_addr(host_imem_addr);
    sys.host_imem_data(host_imem_data);
    sys.launch_valid(launch_valid);
    sys.launch_count(launch_count);
    sys.launch_entry(launch_entry);
    sys.ncore(ncore);
    sys.busy(busy);
    sys.fault(fault);
    sys.fault_thread(fault_thread);
    sys.fault_pc(fault_pc);
    sys.mem_req_valid(mem_req_valid);
    sys.mem_req_ready(mem_req_ready);
    sys.mem_req_op(mem_req_op);
    sys.mem_req_addr(mem_req_addr);
    sys.mem_req_data(mem_req_data);
    sys.mem_req_cmp(mem_req_cmp);
    sys.mem_req_tag(mem_req_tag);
    sys.mem_resp_valid(mem_resp_valid);
    sys.mem_resp_data(mem_resp_data);
    sys.mem_resp_tag(mem_resp_tag);

    memory.clk(clk);
    memory.rst(rst);
    memory.launch_valid(launch_valid);
    memory.bypass_queue(bypass_queue);
    memory.mem_req_valid(mem_req_valid);
    memory.mem_req_ready(mem_req_ready);
    memory.mem_req_op(mem_req_op);
    memory.mem_req_addr(mem_req_addr);
    memory.mem_req_data(mem_req_data);
    memory.mem_req_cmp(mem_req_cmp);
    memory.mem_req_tag(mem_req_tag);
    memory.mem_resp_valid(mem_resp_valid);
    memory.mem_resp_data(mem_resp_data);
    memory.mem_resp_tag(mem_resp_tag);
    memory.fault(mem_fault);

    host.clk(clk);
    host.rst(rst);
    host.host_imem_we(host_imem_we);
    host.host_imem_addr(host_imem_addr);
    host.host_imem_data(host_imem_data);
    host.launch_valid(launch_valid);
    host.launch_count(launch_count);
    host.launch_entry(launch_entry);
    host.busy(busy);
    host.fault(fault);
    host.mem_fault(mem_fault);
  }
};

RunResult run_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                   EventSink* sink, const RunOptions& opts) {
  static bool used = false;
  if (used)
    throw RunError(
        "SystemC can elaborate one design per process and this process has already run one; use "
        "RunOptions::Isolation::Subprocess");
  used = true;
  // The banner would land in the middle of a tool's output.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

  host_driver::Job job;
  job.text = p.text;
  job.first_word = p.text_base / 4;
  job.entry = p.entry;
  job.threads = nthreads;
  job.max_cycles = max_cycles;
  static Bench* bench = nullptr;  // reachable for leak checkers; see Bench
  // A port protocol error loses a request; nothing after it would mean anything.
  job.stop = [] { return bench && !bench->sys.core().protocol_error().empty(); };
  try {
    bench = new Bench(cfg, opts.core_id, std::move(job), opts.host_writes);
  } catch (const CoreConfigError& e) {
    throw RunError(e.what());
  } catch (const QueueConfigError& e) {
    throw RunError(e.what());
  } catch (const std::invalid_argument& e) {
    throw RunError(e.what());
  }
  Bench& b = *bench;
  b.ncore.write(opts.ncores ? opts.ncores : cfg.cores);
  b.sys.set_event_sink(sink);
  b.memory.load(p.data_base, p.data);
  for (const auto& [addr, words] : opts.writes)
    for (size_t i = 0; i < words.size(); ++i) b.memory.poke32(addr + uint32_t(4 * i), words[i]);

  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_start();
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  b.sys.core().flush_events();

  RunResult r;
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.cpu_seconds = double(c1 - c0) / CLOCKS_PER_SEC;
  r.launch_cycle = b.host.launch_cycle();
  r.end_cycle = b.host.end_cycle();
  r.stats = b.sys.core().stats();
  r.mem = memory_stats(b.sys.core().mem_stats(), cfg.mem_model == "dram" ? &b.sys.queue_stats() : nullptr);
  b.memory.add_stats(r.mem);
  r.cycles = r.stats.cycles;
  r.memory = b.memory.bytes();
  switch (b.host.reason()) {
    case StopReason::Done: r.status = RunResult::Status::Exited; break;
    case StopReason::CoreFault: {
      const CoreFault& f = b.sys.core().first_fault();
      r.status = RunResult::Status::Fault;
      r.fault = f.kind;
      r.fault_thread = f.thread;
      r.fault_pc = f.pc;
      r.message = "thread " + std::to_string(f.thread) + ", pc " + hex8(f.pc) + ": " + fault_name(f.kind) +
                  ": " + f.detail + " (cycle " + std::to_string(f.cycle) + ")";
      break;
    }
    case StopReason::MemoryFault: {
      const tb::MemFault& f = b.memory.first_fault();
      r.status = RunResult::Status::Fault;
      r.fault = f.kind;
      r.fault_thread = f.tag;
      r.fault_addr = f.addr;
      r.message = "thread " + std::to_string(f.tag) + ": " + fault_name(f.kind) + ": " + f.detail +
                  " (cycle " + std::to_string(f.cycle) + ")";
      break;
    }
    case StopReason::CycleLimit:
      r.status = RunResult::Status::CycleLimit;
      r.message = "cycle limit of " + std::to_string(max_cycles) + " cycles after launch reached";
      break;
    case StopReason::External:
    case StopReason::Running:
      r.status = RunResult::Status::Fault;
      r.message = b.sys.core().protocol_error().empty() ? "the simulation stopped unexpectedly"
                                                        : b.sys.core().protocol_error();
      break;
  }
  if (opts.capture_registers) {
    r.registers.assign(nthreads, std::vector<uint32_t>(cfg.registers));
    for (unsigned t = 0; t < nthreads; ++t)
      for (unsigned reg = 0; reg < cfg.registers; ++reg) r.registers[t][reg] = b.sys.core().reg(t, reg);
  }
  return r;
}

// ---- child-process transport ---------------------------------------------------------

class Writer {
 public:
  explicit Writer(std::FILE* f) : f_(f) {}
  void raw(const void* p, size_t n) { std::fwrite(p, 1, n, f_); }
  template <class T>
  void pod(const T& v) {
    raw(&v, sizeof v);
  }
  void str(const std::string& s) {
    pod(uint64_t(s.size()));
    raw(s.data(), s.size());
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(uint64_t(v.size()));
    raw(v.data(), v.size() * sizeof(T));
  }

 private:
  std::FILE* f_;
};

class Reader {
 public:
  explicit Reader(std::FILE* f) : f_(f) {}
  void raw(void* p, size_t n) {
    if (std::fread(p, 1, n, f_) != n)
      throw RunError("the SystemC run process ended in the middle of its result");
  }
  template <class T>
  void pod(T& v) {
    raw(&v, sizeof v);
  }
  void str(std::string& s) {
    uint64_t n = 0;
    pod(n);
    s.resize(n);
    raw(s.data(), n);
  }
  template <class T>
  void vec(std::vector<T>& v) {
    uint64_t n = 0;
    pod(n);
    v.resize(n);
    raw(v.data(), n * sizeof(T));
  }

 private:
  std::FILE* f_;
};

class PipeSink final : public EventSink {
 public:
  explicit PipeSink(Writer& w) : w_(w) {}
  void on_event(const Event& e) override {
    w_.pod('E');
    w_.pod(e);
  }

 private:
  Writer& w_;
};

void write_result(Writer& w, const RunResult& r) {
  w.pod('R');
  w.pod(r.status);
  w.str(r.message);
  w.pod(r.fault);
  w.pod(r.fault_thread);
  w.pod(r.fault_pc);
  w.pod(r.fault_addr);
  w.pod(r.launch_cycle);
  w.pod(r.end_cycle);
  w.pod(r.cycles);
  w.pod(r.stats.cycles);
  w.vec(r.stats.issued);
  w.vec(r.stats.bubbles);
  for_each_memory_field(r.mem, [&](const auto& x) { w.pod(x); });
  w.vec(r.mem.load_buckets);
  w.vec(r.memory);
  w.pod(uint64_t(r.registers.size()));
  for (const auto& regs : r.registers) w.vec(regs);
  w.pod(r.wall_seconds);
  w.pod(r.cpu_seconds);
}

void read_result(Reader& in, RunResult& r) {
  in.pod(r.status);
  in.str(r.message);
  in.pod(r.fault);
  in.pod(r.fault_thread);
  in.pod(r.fault_pc);
  in.pod(r.fault_addr);
  in.pod(r.launch_cycle);
  in.pod(r.end_cycle);
  in.pod(r.cycles);
  in.pod(r.stats.cycles);
  in.vec(r.stats.issued);
  in.vec(r.stats.bubbles);
  for_each_memory_field(r.mem, [&](auto& x) { in.pod(x); });
  in.vec(r.mem.load_buckets);
  in.vec(r.memory);
  uint64_t n = 0;
  in.pod(n);
  r.registers.resize(n);
  for (auto& regs : r.registers) in.vec(regs);
  in.pod(r.wall_seconds);
  in.pod(r.cpu_seconds);
}

RunResult run_child(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                    EventSink* sink, const RunOptions& opts) {
  int fds[2];
  if (pipe(fds) != 0) throw RunError(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw RunError(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    std::FILE* out = fdopen(fds[1], "wb");
    static char buffer[1 << 16];
    std::setvbuf(out, buffer, _IOFBF, sizeof buffer);
    Writer w(out);
    int code = 0;
    try {
      PipeSink pipe_sink(w);
      RunOptions here = opts;
      here.isolation = RunOptions::Isolation::InProcess;
      const RunResult r = run_here(p, cfg, nthreads, max_cycles, sink ? &pipe_sink : nullptr, here);
      write_result(w, r);
    } catch (const std::exception& e) {
      w.pod('X');
      w.str(e.what());
      code = 1;
    }
    std::fclose(out);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);  // no atexit handlers or destructors of the parent's objects
  }

  close(fds[1]);
  std::FILE* in = fdopen(fds[0], "rb");
  RunResult r;
  std::string error;
  bool have_result = false;
  try {
    Reader rd(in);
    for (int tag; (tag = std::fgetc(in)) != EOF;) {
      if (tag == 'E') {
        Event e;
        rd.pod(e);
        if (sink) sink->on_event(e);
      } else if (tag == 'R') {
        read_result(rd, r);
        have_result = true;
      } else if (tag == 'X') {
        rd.str(error);
      } else {
        error = "the SystemC run process sent garbage";
        break;
      }
    }
  } catch (...) {
    std::fclose(in);
    int status = 0;
    waitpid(pid, &status, 0);
    throw;
  }
  std::fclose(in);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!error.empty()) throw RunError(error);
  if (!have_result) {
    if (WIFSIGNALED(status))
      throw RunError("the SystemC run process died of signal " + std::to_string(WTERMSIG(status)));
    throw RunError("the SystemC run process exited (status " + std::to_string(WEXITSTATUS(status)) +
                   ") without a result");
  }
  return r;
}

}  // namespace

RunResult run_systemc(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      EventSink* sink, const RunOptions& opts) {
  validate(program, cfg, nthreads, max_cycles, opts);
  if (opts.isolation == RunOptions::Isolation::InProcess)
    return run_here(program, cfg, nthreads, max_cycles, sink, opts);
  return run_child(program, cfg, nthreads, max_cycles, sink, opts);
}

}  // namespace umbra::scm
