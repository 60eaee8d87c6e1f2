// run_rtl and run_cosim (umbra/cosim_run.h): the benches, the RTL's own checks on top
// of the harness's, the monitors, the comparison and the waveform files.  The
// child-process transport is the harness's (subprocess.h) plus the comparison's fields.
//
// run_rtl steps the host's script, the Verilated system and its memory from one loop,
// without the SystemC kernel (RtlBench, below).  run_cosim needs the kernel for the
// SystemC model: there each system is wired to its memory and the host by the
// harness's bench.h, as run_systemc's is, and one clock drives everything.  The host
// driver's outputs fan out to both cores; their busy and fault outputs, and both
// memories' fault outputs, are ORed into the driver's inputs so that either side
// stopping stops the run (and the comparator, which also compares busy and fault, says
// which side it was).  The comparator runs on the falling edge: by then both sides
// have produced the cycle that the rising edge ended.
#include "umbra/cosim_run.h"

#include <systemc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

#include "Vumbra_system.h"
#include "bench.h"
#include "comparator.h"
#include "core_monitor.h"
#include "iss_check.h"
#include "rtl_system.h"
#include "subprocess.h"
#include "umbra/format.h"
#include "umbra_core.h"
#include "umbra_system.h"
#include "verilated_vcd_c.h"
#include "verilated_vcd_sc.h"

namespace umbra::cosim {

namespace {
using harness::HostWires;
using harness::SystemWires;
}  // namespace

void check_config(const Config& cfg) {
  const VerilatedParams v = verilated_params();
  std::string diff;
  auto cmp = [&](const char* key, uint64_t have, uint64_t built) {
    if (have != built)
      diff += std::string(diff.empty() ? "" : ", ") + key + " is " + std::to_string(have) +
              " but the RTL was verilated with " + std::to_string(built);
  };
  cmp("core.threads", cfg.threads, v.threads);
  cmp("core.execute_stages", cfg.execute_stages, v.execute_stages);
  cmp("core.registers", cfg.registers, v.registers);
  cmp("core.imem_words", cfg.imem_words, v.imem_words);
  cmp("cache.bytes", cfg.cache_bytes, v.cache_bytes);
  cmp("cache.ways", cfg.cache_ways, v.cache_ways);
  cmp("cache.line_bytes", cfg.cache_line_bytes, v.cache_line_bytes);
  cmp("cache.request_queue", cfg.cache_request_queue, v.cache_request_queue);
  if (cfg.queue_enabled) {
    if ((cfg.queue_mode == "reorder") != v.queue_reorder)
      diff += std::string(diff.empty() ? "" : ", ") + "queue.mode is " + cfg.queue_mode +
              " but the RTL was verilated with " + (v.queue_reorder ? "reorder" : "fcfs");
    cmp("queue.depth", cfg.queue_depth, v.queue_depth);
    cmp("queue.open_rows", cfg.queue_open_rows, v.queue_open_rows);
    cmp("queue.max_passes", cfg.queue_max_passes, v.queue_max_passes);
    cmp("dram.banks", cfg.dram_banks, v.dram_banks);
    cmp("dram.row_bytes", cfg.dram_row_bytes, v.dram_row_bytes);
  }
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
                                                               {"port-mem", Injection::Kind::PortMemAddr},
                                                               {"busy", Injection::Kind::Busy},
                                                               {"system-busy", Injection::Kind::SystemBusy},
                                                               {"fault-cause", Injection::Kind::FaultCause}};
}  // namespace

const char* injection_kinds() {
  return "regwrite, issue, mem, memresp, cache, wake, dram, port-mem, busy, system-busy, fault-cause";
}

Injection parse_injection(const std::string& spec) {
  Injection in;
  const auto colon = spec.find(':');
  const std::string num = spec.substr(0, colon);
  const std::string kind = colon == std::string::npos ? "" : spec.substr(colon + 1);
  char* end = nullptr;
  errno = 0;
  const unsigned long long c = num.empty() ? 0 : std::strtoull(num.c_str(), &end, 10);
  for (const auto& [name, k] : kInjections)
    if (kind == name) in.kind = k;
  if (num.empty() || *end || errno || in.kind == Injection::Kind::None)
    throw RunError("--inject-fault '" + spec + "': expected CYCLE:KIND with KIND one of " +
                   injection_kinds() + ", e.g. 120:regwrite");
  in.cycle = c;
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
    throw RunError("core id " + std::to_string(opts.core_id) + ": the RTL is verilated with CORE_ID 0");
  harness::validate(p, cfg, nthreads, max_cycles, opts.writes);
}

// Combinational OR of two flags (the host driver watches one busy and one fault).
SC_MODULE(or_gate) {
  sc_in<bool> a, b;
  sc_out<bool> y;
  SC_CTOR(or_gate) {
    SC_METHOD(eval);
    sensitive << a << b;
  }
  void eval() {
    y.write(a.read() || b.read());
  }
};

// The comparator's falling-edge step.  `step` flushes the SystemC core's events of the
// cycle that ended at the rising edge and compares; it pauses the run at a mismatch.
SC_MODULE(negedge_step) {
  sc_in<bool> clk;
  std::function<void()> step;
  SC_CTOR(negedge_step) {
    SC_METHOD(run);
    sensitive << clk.neg();
    dont_initialize();
  }
  void run() {
    step();
  }
};

// The RTL and its memory on its wires; rtl_system is also its monitor.
struct RtlSide {
  SystemWires w;
  tb::memory_side memory;
  rtl_system core;

  RtlSide(sc_clock& clk, HostWires& h, const Config& cfg, rtl_system::Callback cb,
          std::vector<scm::HostWrite> writes, bool waveform)
      : w("rtl_", cfg),
        memory("rtl_memory", cfg, std::move(writes)),
        core("umbra_system", std::move(cb), waveform) {
    harness::bind_system(core, clk, h, w, memory);
  }
  // The last cycle the monitor saw (fault cause, protocol error).
  const CycleSample& last() const { return core.last_sample(); }
};

// The SystemC model, its memory, its wires and the monitor of its memory port (the core's
// own port inside the system top, which the mem and memresp events describe).
struct ScSide {
  SystemWires w;
  scm::umbra_system sys;
  scm::umbra_core& core;
  tb::memory_side memory;
  core_monitor monitor;

  ScSide(sc_clock& clk, HostWires& h, const Config& cfg, core_monitor::Callback cb,
         std::vector<scm::HostWrite> writes)
      : w("sc_", cfg),
        sys("sc_system", cfg, 0),
        core(sys.core()),
        memory("sc_memory", cfg, std::move(writes)),
        monitor("sc_monitor", [this, cb](const CycleSample& s) {
          // The SystemC core has no fault-cause port: its first fault says it.
          if (!s.fault) return cb(s);
          CycleSample x = s;
          x.fault_cause = uint32_t(core.first_fault().kind);
          cb(x);
        }) {
    harness::bind_system(sys, clk, h, w, memory);
    monitor.clk(clk);
    monitor.rst(h.rst);
    monitor.mem_req_valid(sys.c_req_valid);
    monitor.mem_req_ready(sys.c_req_ready);
    monitor.mem_resp_valid(sys.c_resp_valid);
    monitor.busy(sys.core_busy);
    monitor.system_busy(w.busy);
    monitor.fault(w.fault);
    monitor.mem_req_op(sys.c_req_op);
    monitor.mem_req_addr(sys.c_req_addr);
    monitor.mem_req_data(sys.c_req_data);
    monitor.mem_req_cmp(sys.c_req_cmp);
    monitor.mem_req_tag(sys.c_req_tag);
    monitor.mem_resp_data(sys.c_resp_data);
    monitor.mem_resp_tag(sys.c_resp_tag);
    monitor.fault_thread(w.fault_thread);
    monitor.fault_pc(w.fault_pc);
  }
};

// Waveforms of the SystemC side under the names and widths the RTL uses, in a scope
// "u_core" (the RTL's core instance in umbra_system): the inter-block signals of the model's umbra_core
// (found by name in its object tree, so the model needs no hooks; r_inst as the RTL's r_word) and the core's
// ports, traced as the bench signals they are bound to (the model's ports have no names of their own).
// SystemC pcs are byte addresses where the RTL's inside signals are word indices; testbench/cosim/README.md
// says so.
void trace_systemc(sc_trace_file* tf, sc_module& core, unsigned threads, HostWires& h, SystemWires& w,
                   sc_clock& clk) {
  int tw = 1;
  while ((1u << tw) < threads) ++tw;
  const std::map<std::string, int> widths = {
      {"d_thread", tw},    {"r_thread", tw},  {"x2_upd_thread", tw}, {"w_thread", tw},   {"rf_wthread", tw},
      {"wake_thread", tw}, {"d_reason", 2},   {"x2_upd_state", 2},   {"r_ra", 8},        {"r_rb", 8},
      {"r_rc", 8},         {"rf_wreg", 8},    {"w_rd", 8},           {"x2_mem_op", 8},   {"x2_mem_tag", 8},
      {"fault_thread", 8}, {"mem_req_op", 8}, {"mem_req_tag", 8},    {"mem_resp_tag", 8}};
  const auto word = [&](const sc_signal<uint32_t>& s, const std::string& base) {
    const auto it = widths.find(base);
    sc_trace(tf, s.read(), "u_core." + base, it == widths.end() ? 32 : it->second);
  };
  for (sc_object* o : core.get_child_objects()) {
    const std::string base = o->basename();
    if (auto* s = dynamic_cast<sc_signal<bool>*>(o))
      sc_trace(tf, *s, "u_core." + base);
    else if (auto* s32 = dynamic_cast<sc_signal<uint32_t>*>(o))
      word(*s32, base);
    else if (auto* s64 = dynamic_cast<sc_signal<uint64_t>*>(o))
      sc_trace(tf, *s64, "u_core." + base);
    else if (auto* si = dynamic_cast<sc_signal<scm::DecodedInstr>*>(o))
      sc_trace(tf, si->read().d.word, "u_core.r_word");
  }
  sc_trace(tf, static_cast<sc_signal<bool>&>(clk), "u_core.clk");
  sc_trace(tf, h.rst, "u_core.rst");
  sc_trace(tf, h.host_imem_we, "u_core.host_imem_we");
  sc_trace(tf, h.launch_valid, "u_core.launch_valid");
  for (auto* b : {&w.busy, &w.fault, &w.mem_req_valid, &w.mem_req_ready, &w.mem_resp_valid}) {
    const std::string n = b->basename();
    sc_trace(tf, *b, "u_core." + n.substr(n.find('_') + 1));
  }
  for (auto* s : {&h.host_imem_addr, &h.host_imem_data, &h.launch_count, &h.launch_entry, &h.ncore})
    word(*s, s->basename());
  for (auto* s : {&w.fault_thread, &w.fault_pc, &w.mem_req_op, &w.mem_req_addr, &w.mem_req_data,
                  &w.mem_req_cmp, &w.mem_req_tag, &w.mem_resp_data, &w.mem_resp_tag}) {
    const std::string n = s->basename();
    word(*s, n.substr(n.find('_') + 1));
  }
}

// Starts the elaborated design and runs it until the host driver stops it, with the
// RTL's waveform in BASE.rtl.vcd when BASE is set; wall and cpu get the run's seconds.
void run_to_end(rtl_system& core, const std::string& base, double& wall, double& cpu) {
  std::unique_ptr<VerilatedVcdSc> tfp;
  sc_start(SC_ZERO_TIME);
  if (!base.empty()) {
    tfp = std::make_unique<VerilatedVcdSc>();
    core.model().trace(tfp.get(), 99);
    tfp->open((base + ".rtl.vcd").c_str());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_start();
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  if (tfp) tfp->close();
  wall = std::chrono::duration<double>(t1 - t0).count();
  cpu = double(c1 - c0) / CLOCKS_PER_SEC;
}

void to_fst(const std::string& vcd, const std::string& fst) {
  const std::string cmd = "vcd2fst '" + vcd + "' '" + fst + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0)
    throw RunError("vcd2fst could not convert " + vcd + " to " + fst + " (is gtkwave installed?)");
  std::remove(vcd.c_str());
}

void rtl_fault(scm::RunResult& r, const CycleSample& s) {
  r.status = RunResult::Status::Fault;
  if (!s.fault) {
    r.message = "stopped: the other model faulted";
    return;
  }
  r.fault = Fault(s.fault_cause);
  r.fault_thread = s.fault_thread;
  r.fault_pc = s.fault_pc;
  r.message = "thread " + std::to_string(s.fault_thread) + ", pc " + hex8(s.fault_pc) + ": " +
              fault_name(Fault(s.fault_cause)) + " (RTL fault outputs, cycle " + std::to_string(s.cycle) +
              ")";
}

// The RTL's cache outcomes, from its C2 trace: the statistics the RTL itself shows.  Its
// replays, load latencies and queue counters are not in its trace, so they are marked
// not measured rather than taken from the SystemC model.
scm::MemoryStats rtl_memory_stats() {
  scm::MemoryStats m;
  m.replays_measured = false;
  return m;
}
void count_cache(scm::MemoryStats& mem, const CycleSample& s) {
  if (const auto& k = s.events[rank(scm::EventKind::Cache)]) {
    const auto outcome = scm::CacheOutcome(k->value);
    mem.cache_hits += outcome == scm::CacheOutcome::Hit;
    mem.cache_misses += outcome == scm::CacheOutcome::Miss;
    mem.cache_merges += outcome == scm::CacheOutcome::Merge;
  }
}

// The RTL-only bench, without the SystemC kernel: the host script, the Verilated system
// and its memory stepped by one loop.  The loop keeps a SystemC run's order, which is
// what the cosimulation runs the same RTL in: at a rising edge every block reads what
// the cycle it ends left on its inputs (the host the system's busy and faults, the
// memory the request and reset, the RTL its inputs), then the new outputs reach the
// RTL's inputs and are settled to a fixed point (the memory's ready may follow the
// request's op combinationally).  The host writes due at the end of a cycle land after
// the memory's edge, as memory_side's falling-edge process puts them.
class RtlBench {
 public:
  RtlBench(const Config& cfg, scm::HostScript::Job job, RtlStepper::Callback cb,
           std::vector<scm::HostWrite> writes, bool waveform, uint32_t ncore)
      : memory("rtl_memory", cfg, std::move(writes)),
        rtl("umbra_system", std::move(cb), waveform),
        host(std::move(job)) {
    Vumbra_system& m = rtl.model();
    m.ncore = ncore;
    m.bypass_queue = !cfg.queue_enabled;
    apply_inputs();
    m.mem_req_ready = memory.model().ready(m.mem_req_op);
    rtl.settle();
    settle(false);
  }

  // Runs until the host stops the run; with `trace`, dumps the RTL's waveform at both
  // clock edges (1 ns a cycle, as a SystemC run's clock).
  void run(VerilatedVcdC* trace) {
    Vumbra_system& m = rtl.model();
    tb::memory_model& mem = memory.model();
    for (uint64_t t = 0;; t += 1000) {
      const bool busy = m.busy, fault = m.fault, mem_fault = mem.first_fault().raised;
      const bool rst = m.rst, launch = m.launch_valid;
      const tb::memory_model::Request req{bool(m.mem_req_valid), m.mem_req_op,  m.mem_req_addr,
                                          m.mem_req_data,        m.mem_req_cmp, m.mem_req_tag};
      rtl.rise();
      const bool stop = host.edge(busy, fault, mem_fault);
      mem.edge(rst, req);
      memory.count(rst, launch);
      if (stop) return;
      if (memory.has_host_writes()) memory.host_write();
      settle(apply_inputs());
      if (trace) {
        trace->dump(t);
        rtl.fall();
        trace->dump(t + 500);
      }
    }
  }

  tb::memory_side memory;
  RtlStepper rtl;
  scm::HostScript host;

 private:
  template <class Port, class Value>
  static bool set(Port& port, Value v) {
    if (port == Port(v)) return false;
    port = Port(v);
    return true;
  }
  // The host's outputs and the memory's response onto the RTL's inputs; whether any changed.
  bool apply_inputs() {
    Vumbra_system& m = rtl.model();
    const scm::HostScript::Outputs& h = host.outputs();
    const tb::memory_model::Response r = memory.model().response();
    bool changed = set(m.rst, h.rst);
    changed |= set(m.host_imem_we, h.imem_we);
    changed |= set(m.host_imem_addr, h.imem_addr);
    changed |= set(m.host_imem_data, h.imem_data);
    changed |= set(m.launch_valid, h.launch_valid);
    changed |= set(m.launch_count, h.launch_count);
    changed |= set(m.launch_entry, h.launch_entry);
    changed |= set(m.mem_resp_valid, r.valid);
    changed |= set(m.mem_resp_data, r.data);
    changed |= set(m.mem_resp_tag, r.tag);
    return changed;
  }
  // Evaluates until the memory's ready agrees with the request it answers.
  void settle(bool changed) {
    Vumbra_system& m = rtl.model();
    for (;;) {
      changed |= set(m.mem_req_ready, memory.model().ready(m.mem_req_op));
      if (!changed) return;
      rtl.settle();
      changed = false;
    }
  }
};

RunResult run_rtl_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                       EventSink* sink, const Options& opts) {
  harness::claim_process();
  scm::CoreStats stats;
  stats.issued.assign(cfg.threads, 0);
  stats.bubbles.assign(cfg.threads, {});
  bool protocol_error = false;
  auto job = harness::make_job(p, nthreads, max_cycles);
  job.stop = [&protocol_error, sink] { return protocol_error || (sink && sink->stop_requested()); };
  const bool waveform = !opts.vcd.empty() || !opts.fst.empty();
  if (waveform) Verilated::traceEverOn(true);
  scm::MemoryStats mem = rtl_memory_stats();
  std::unique_ptr<RtlBench> bench;
  try {
    bench = std::make_unique<RtlBench>(
        cfg, std::move(job),
        [&](const CycleSample& s) {
          if (s.protocol_error) protocol_error = true;
          count_cache(mem, s);
          const scm::Event& e = *s.events[0];
          if (s.busy && e.thread < cfg.threads) {
            ++stats.cycles;
            if (e.kind == scm::EventKind::Issue)
              ++stats.issued[e.thread];
            else
              ++stats.bubbles[e.thread][unsigned(e.reason)];
          }
          if (sink)
            for (const auto& ev : s.events)
              if (ev) sink->on_event(*ev);
        },
        opts.host_writes, waveform, opts.ncores ? opts.ncores : cfg.cores);
  } catch (const std::invalid_argument& e) {  // the memory's parameters, a host write
    throw RunError(e.what());
  }
  RtlBench& b = *bench;
  harness::load_memory(b.memory, p, opts.writes);

  const std::string base = !opts.fst.empty() ? opts.fst : opts.vcd;
  std::unique_ptr<VerilatedVcdC> trace;
  if (waveform) {
    trace = std::make_unique<VerilatedVcdC>();
    b.rtl.model().trace(trace.get(), 99);
    trace->set_time_unit("1ns");
    trace->set_time_resolution("1ps");
    trace->open((base + ".rtl.vcd").c_str());
  }
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  b.run(trace.get());
  r.cpu_seconds = double(std::clock() - c0) / CLOCKS_PER_SEC;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (trace) trace->close();
  if (!opts.fst.empty()) to_fst(base + ".rtl.vcd", base + ".rtl.fst");

  r.stats = stats;
  r.cycles = stats.cycles;
  r.mem = mem;
  b.memory.model().add_stats(r.mem);
  harness::fill_status(
      r, b.host, b.memory, [&](RunResult& x) { rtl_fault(x, b.rtl.last_sample()); },
      protocol_error ? "RTL protocol error: mem_req_ready was low for a request (trace_protocol_error)" : "",
      max_cycles);
  return r;
}

// Perturbs the first event of the chosen kind at or after the chosen cycle on its way
// from the SystemC core to the comparator (test-only).
class InjectingSink final : public EventSink {
 public:
  InjectingSink(EventSink& next, Injection in) : next_(next), in_(in) {}
  void on_event(const Event& e) override {
    if (in_.kind == Injection::Kind::None || done_ || e.cycle < in_.cycle) return next_.on_event(e);
    using K = Injection::Kind;
    using E = scm::EventKind;
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
    else
      return next_.on_event(e);
    done_ = true;
    std::fprintf(stderr, "umbra-cosim: injected fault: %s -> %s\n", scm::format_event(e).c_str(),
                 scm::format_event(x).c_str());
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
  CycleSample operator()(const CycleSample& s) {
    using K = Injection::Kind;
    if (done_ || s.cycle < in_.cycle) return s;
    CycleSample x = s;
    auto& mem = x.events[rank(scm::EventKind::Mem)];
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
      return s;
    done_ = true;
    std::fprintf(stderr, "umbra-cosim: injected fault at the SystemC side's ports, cycle %llu\n",
                 static_cast<unsigned long long>(s.cycle));
    return x;
  }

 private:
  Injection in_;
  bool done_ = false;
};

struct CosimBench {
  sc_clock clk{"clk", 1, SC_NS};
  HostWires h;
  sc_signal<bool> busy{"any_busy"}, fault{"any_fault"}, mem_fault{"any_mem_fault"};
  scm::MemoryStats rtl_mem = rtl_memory_stats();  // the RTL's own, from its trace
  RtlSide rtl;
  ScSide sc;
  or_gate busy_or{"busy_or"}, fault_or{"fault_or"}, mem_fault_or{"mem_fault_or"};
  scm::host_driver host;
  negedge_step step{"compare"};
  CosimBench(const Config& cfg, scm::host_driver::Job job, Comparator& cmp,
             const std::vector<scm::HostWrite>& writes, Injection inject, bool waveform)
      : rtl(
            clk, h, cfg,
            [this, &cmp](const CycleSample& s) {
              count_cache(rtl_mem, s);
              cmp.on_rtl(s);
            },
            writes, waveform),
        sc(
            clk, h, cfg,
            [&cmp, port = InjectingPort(inject)](const CycleSample& s) mutable {
              cmp.on_systemc_port(port(s));
            },
            writes),
        host("host", std::move(job)) {
    busy_or.a(rtl.w.busy);
    busy_or.b(sc.w.busy);
    busy_or.y(busy);
    fault_or.a(rtl.w.fault);
    fault_or.b(sc.w.fault);
    fault_or.y(fault);
    mem_fault_or.a(rtl.w.mem_fault);
    mem_fault_or.b(sc.w.mem_fault);
    mem_fault_or.y(mem_fault);
    harness::bind_host(host, clk, h, busy, fault, mem_fault);
    step.clk(clk);
  }
};

std::string stats_text(const scm::CoreStats& s) {
  std::string t = "cycles " + std::to_string(s.cycles) + ", issued";
  for (uint64_t i : s.issued) t += " " + std::to_string(i);
  return t;
}

CosimResult run_cosim_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                           const Options& opts) {
  harness::claim_process();
  static Comparator* cmp = nullptr;  // never destroyed, like the bench
  static CosimBench* bench = nullptr;
  cmp = new Comparator(p, cfg.threads, opts.history, opts.repro);
  InjectingSink inject(*cmp, opts.inject);
  bool protocol_error = false;
  auto job = harness::make_job(p, nthreads, max_cycles);
  job.stop = [&protocol_error, &opts] {
    return protocol_error || !bench->sc.core.protocol_error().empty() || cmp->mismatch().found ||
           (opts.observer && opts.observer->stop_requested());
  };
  const bool waveform = !opts.vcd.empty() || !opts.fst.empty();
  if (waveform) Verilated::traceEverOn(true);
  try {
    bench = new CosimBench(cfg, std::move(job), *cmp, opts.host_writes, opts.inject, waveform);
  } catch (const scm::CoreConfigError& e) {
    throw RunError(e.what());
  } catch (const scm::QueueConfigError& e) {
    throw RunError(e.what());
  } catch (const std::invalid_argument& e) {
    throw RunError(e.what());
  }
  CosimBench& b = *bench;
  b.step.step = [&] {
    b.sc.core.flush_events();
    if (b.rtl.last().protocol_error) protocol_error = true;
    if (!cmp->check()) sc_pause();
  };
  struct Tee final : EventSink {
    EventSink &first, *second;
    Tee(EventSink& a, EventSink* b) : first(a), second(b) {}
    void on_event(const Event& e) override {
      first.on_event(e);
      if (second) second->on_event(e);
    }
  } tee(inject, opts.observer);
  b.sc.sys.set_event_sink(&tee);
  b.h.ncore.write(opts.ncores ? opts.ncores : cfg.cores);
  harness::load_memory(b.rtl.memory, p, opts.writes);
  harness::load_memory(b.sc.memory, p, opts.writes);

  const std::string base = !opts.fst.empty() ? opts.fst : opts.vcd;
  sc_trace_file* sc_tf = nullptr;
  if (!base.empty()) {
    sc_tf = sc_create_vcd_trace_file((base + ".systemc").c_str());
    // The RTL's file counts picoseconds; SystemC says so in an info line otherwise.
    const sc_actions info = sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    sc_tf->set_time_unit(1, SC_PS);
    sc_report_handler::set_actions(SC_INFO, info);
    trace_systemc(sc_tf, b.sc.core, cfg.threads, b.h, b.sc.w, b.clk);
  }
  double wall = 0, cpu = 0;
  run_to_end(b.rtl.core, base, wall, cpu);
  // The host driver stops on the rising edge that ends the last cycle; that cycle's
  // events are in but not yet compared.
  b.sc.core.flush_events();
  cmp->finish();
  if (sc_tf) sc_close_vcd_trace_file(sc_tf);
  if (!opts.fst.empty()) {
    to_fst(base + ".rtl.vcd", base + ".rtl.fst");
    to_fst(base + ".systemc.vcd", base + ".systemc.fst");
  }

  CosimResult out;
  std::string stopped = cmp->mismatch().found ? "stopped at the first mismatch between SystemC and RTL" : "";
  if (protocol_error)
    stopped = "RTL protocol error: mem_req_ready was low for a request (trace_protocol_error)";
  if (!b.sc.core.protocol_error().empty()) stopped = b.sc.core.protocol_error();
  for (RunResult* r : {&out.systemc, &out.rtl}) {
    r->wall_seconds = wall;
    r->cpu_seconds = cpu;
  }
  out.systemc.stats = b.sc.core.stats();
  out.systemc.mem =
      scm::memory_stats(b.sc.core.mem_stats(), cfg.queue_enabled ? &b.sc.sys.queue_stats() : nullptr);
  b.sc.memory.model().add_stats(out.systemc.mem);
  // The RTL's own statistics: its cache outcomes from its trace, its DRAM counters from
  // its memory; nothing taken from the SystemC side.
  out.rtl.mem = b.rtl_mem;
  b.rtl.memory.model().add_stats(out.rtl.mem);
  out.systemc.cycles = out.systemc.stats.cycles;
  harness::fill_status(
      out.systemc, b.host.script(), b.sc.memory, [&](RunResult& x) { harness::core_fault(x, b.sc.core); },
      stopped, max_cycles);
  out.rtl.stats = cmp->rtl_stats();
  out.rtl.cycles = out.rtl.stats.cycles;
  harness::fill_status(
      out.rtl, b.host.script(), b.rtl.memory, [&](RunResult& x) { rtl_fault(x, b.rtl.last()); }, stopped,
      max_cycles);

  // After the last cycle: the same statistics and the same final memory.
  if (!cmp->mismatch().found) {
    const scm::CoreStats &s = out.systemc.stats, &r = out.rtl.stats;
    if (s.cycles != r.cycles || s.issued != r.issued || s.bubbles != r.bubbles)
      cmp->fail("end of run", out.rtl.end_cycle, 0, "statistics", stats_text(s), stats_text(r), "");
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
    cmp->fail("final memory", out.rtl.end_cycle, 0, "word at " + hex8(uint32_t(first)), hex8(word(a, first)),
              hex8(word(m, first)), std::to_string(count) + " word(s) differ");
  }
  out.mismatch = cmp->mismatch();
  out.events_compared = cmp->events_compared();

  // A run stopped at a mismatch is cut short on purpose: holding its remains to the
  // ISS would only repeat the mismatch in other words.
  if (out.mismatch.found && b.host.script().reason() == scm::StopReason::Running)
    for (RunResult* r : {&out.systemc, &out.rtl}) r->end_cycle = out.mismatch.cycle;
  if (opts.check_iss && !out.mismatch.found) {
    const check::Reference ref =
        check::run_reference(p, cfg, nthreads, max_cycles, opts.writes, opts.inject_iss);
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
