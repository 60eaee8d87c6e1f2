// run_rtl and run_cosim (umbra/cosim_run.h): the benches, the checks that refuse a run
// before any SystemC object exists, the waveform files and the child-process transport
// that lets one process make many runs although SystemC elaborates only once.
//
// One clock drives everything.  The host driver's outputs fan out to both cores; their
// busy and fault outputs, and both memories' fault outputs, are ORed into the driver's
// inputs so that either side stopping stops the run (and the comparator, which also
// compares busy and fault, says which side it was).  The comparator runs on the
// falling edge: by then both sides have produced the cycle that the rising edge ended.
#include "umbra/cosim_run.h"

#include <sys/wait.h>
#include <systemc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>

#include "Vumbra_system.h"
#include "comparator.h"
#include "host_driver.h"
#include "iss_check.h"
#include "memory_side.h"
#include "rtl_monitor.h"
#include "umbra_core.h"
#include "umbra_system.h"
#include "verilated_vcd_sc.h"

namespace umbra::cosim {

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

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
  cmp("core.registers", cfg.registers, v.registers);
  cmp("core.imem_words", cfg.imem_words, v.imem_words);
  cmp("cache.bytes", cfg.cache_bytes, v.cache_bytes);
  cmp("cache.ways", cfg.cache_ways, v.cache_ways);
  cmp("cache.line_bytes", cfg.cache_line_bytes, v.cache_line_bytes);
  cmp("cache.request_queue", cfg.cache_request_queue, v.cache_request_queue);
  if (cfg.mem_model == "dram") {
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

Injection parse_injection(const std::string& spec) {
  Injection in;
  const auto colon = spec.find(':');
  const std::string num = spec.substr(0, colon);
  const std::string kind = colon == std::string::npos ? "" : spec.substr(colon + 1);
  char* end = nullptr;
  errno = 0;
  const unsigned long long c = num.empty() ? 0 : std::strtoull(num.c_str(), &end, 10);
  if (num.empty() || *end || errno || (kind != "regwrite" && kind != "issue"))
    throw RunError("--inject-fault '" + spec +
                   "': expected CYCLE:regwrite or CYCLE:issue, e.g. 120:regwrite");
  in.cycle = c;
  in.kind = kind == "regwrite" ? Injection::Kind::RegWriteValue : Injection::Kind::IssuePc;
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

// Everything that can be checked without SystemC, so a bad run fails alike in and out
// of a child process.
void validate(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
              const Options& opts) {
  check_config(cfg);
  if (opts.core_id != 0)
    throw RunError("core id " + std::to_string(opts.core_id) + ": the RTL is verilated with CORE_ID 0");
  if (nthreads < 1 || nthreads > cfg.threads)
    throw RunError("cannot launch " + std::to_string(nthreads) + " threads on a core with " +
                   std::to_string(cfg.threads) + " (1.." + std::to_string(cfg.threads) + ")");
  if (max_cycles == 0) throw RunError("the cycle budget must be at least 1");
  if (cfg.mem_latency < 1) throw RunError("memory latency must be at least 1 cycle");
  if (cfg.mem_bytes % 4) throw RunError("data memory size must be a multiple of 4 bytes");
  if (p.text.empty()) throw RunError("the program has no text");
  const uint64_t imem_bytes = uint64_t(cfg.imem_words) * 4;
  if (p.text_base % 4 || p.text_base + uint64_t(p.text.size()) * 4 > imem_bytes)
    throw RunError("text (" + std::to_string(p.text.size()) + " words at " + hex(p.text_base) +
                   ") does not fit in the instruction store of " + std::to_string(cfg.imem_words) + " words");
  if (p.entry % 4 || p.entry >= imem_bytes)
    throw RunError("entry point " + hex(p.entry) + " is " +
                   (p.entry % 4 ? "not a multiple of 4" : "outside the instruction store"));
  if (uint64_t(p.data_base) + p.data.size() > cfg.mem_bytes)
    throw RunError("data (" + std::to_string(p.data.size()) + " bytes at " + hex(p.data_base) +
                   ") does not fit in data memory of " + std::to_string(cfg.mem_bytes) + " bytes");
  for (const auto& [addr, words] : opts.writes)
    if (addr % 4 || uint64_t(addr) + 4 * uint64_t(words.size()) > cfg.mem_bytes)
      throw RunError("input of " + std::to_string(words.size()) + " words at " + hex(addr) +
                     " is misaligned or outside data memory");
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

// One core's outputs and the memory's, as signals; `prefix` keeps the two sides' names
// apart in the SystemC object tree.
struct CoreWires {
  explicit CoreWires(const std::string& prefix)
      : busy(n(prefix, "busy").c_str()),
        fault(n(prefix, "fault").c_str()),
        mem_req_valid(n(prefix, "mem_req_valid").c_str()),
        mem_req_ready(n(prefix, "mem_req_ready").c_str()),
        mem_resp_valid(n(prefix, "mem_resp_valid").c_str()),
        mem_fault(n(prefix, "mem_fault").c_str()),
        fault_thread(n(prefix, "fault_thread").c_str()),
        fault_pc(n(prefix, "fault_pc").c_str()),
        mem_req_op(n(prefix, "mem_req_op").c_str()),
        mem_req_addr(n(prefix, "mem_req_addr").c_str()),
        mem_req_data(n(prefix, "mem_req_data").c_str()),
        mem_req_cmp(n(prefix, "mem_req_cmp").c_str()),
        mem_req_tag(n(prefix, "mem_req_tag").c_str()),
        mem_resp_data(n(prefix, "mem_resp_data").c_str()),
        mem_resp_tag(n(prefix, "mem_resp_tag").c_str()),
        bypass_queue(n(prefix, "bypass_queue").c_str()) {}
  static std::string n(const std::string& prefix, const char* name) { return prefix + name; }
  sc_signal<bool> busy, fault, mem_req_valid, mem_req_ready, mem_resp_valid, mem_fault;
  sc_signal<uint32_t> fault_thread, fault_pc, mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp,
      mem_req_tag, mem_resp_data, mem_resp_tag;
  sc_signal<bool> bypass_queue;
};

// The inputs every core gets from the host.
struct HostWires {
  sc_signal<bool> rst{"rst"}, host_imem_we{"host_imem_we"}, launch_valid{"launch_valid"};
  sc_signal<uint32_t> host_imem_addr{"host_imem_addr"}, host_imem_data{"host_imem_data"},
      launch_count{"launch_count"}, launch_entry{"launch_entry"}, ncore{"ncore"};
};

template <class Core>
void bind_core(Core& c, sc_clock& clk, HostWires& h, CoreWires& w) {
  c.clk(clk);
  c.rst(h.rst);
  c.bypass_queue(w.bypass_queue);
  c.host_imem_we(h.host_imem_we);
  c.host_imem_addr(h.host_imem_addr);
  c.host_imem_data(h.host_imem_data);
  c.launch_valid(h.launch_valid);
  c.launch_count(h.launch_count);
  c.launch_entry(h.launch_entry);
  c.ncore(h.ncore);
  c.busy(w.busy);
  c.fault(w.fault);
  c.fault_thread(w.fault_thread);
  c.fault_pc(w.fault_pc);
  c.mem_req_valid(w.mem_req_valid);
  c.mem_req_ready(w.mem_req_ready);
  c.mem_req_op(w.mem_req_op);
  c.mem_req_addr(w.mem_req_addr);
  c.mem_req_data(w.mem_req_data);
  c.mem_req_cmp(w.mem_req_cmp);
  c.mem_req_tag(w.mem_req_tag);
  c.mem_resp_valid(w.mem_resp_valid);
  c.mem_resp_data(w.mem_resp_data);
  c.mem_resp_tag(w.mem_resp_tag);
}

void bind_memory(tb::memory_side& m, sc_clock& clk, HostWires& h, CoreWires& w) {
  m.clk(clk);
  m.rst(h.rst);
  m.launch_valid(h.launch_valid);
  m.bypass_queue(w.bypass_queue);
  m.mem_req_valid(w.mem_req_valid);
  m.mem_req_ready(w.mem_req_ready);
  m.mem_req_op(w.mem_req_op);
  m.mem_req_addr(w.mem_req_addr);
  m.mem_req_data(w.mem_req_data);
  m.mem_req_cmp(w.mem_req_cmp);
  m.mem_req_tag(w.mem_req_tag);
  m.mem_resp_valid(w.mem_resp_valid);
  m.mem_resp_data(w.mem_resp_data);
  m.mem_resp_tag(w.mem_resp_tag);
  m.fault(w.mem_fault);
}

// The core's own memory port (inside the system top), which the mem and memresp events
// describe.
struct PortSignals {
  sc_signal<bool>&req_valid, &req_ready, &resp_valid, &core_busy;
  sc_signal<uint32_t>&req_op, &req_addr, &req_data, &req_cmp, &req_tag, &resp_data, &resp_tag;
};

void bind_monitor(core_monitor& m, sc_clock& clk, HostWires& h, CoreWires& w, const PortSignals& p) {
  m.clk(clk);
  m.rst(h.rst);
  m.mem_req_valid(p.req_valid);
  m.mem_req_ready(p.req_ready);
  m.mem_resp_valid(p.resp_valid);
  m.busy(p.core_busy);
  m.fault(w.fault);
  m.mem_req_op(p.req_op);
  m.mem_req_addr(p.req_addr);
  m.mem_req_data(p.req_data);
  m.mem_req_cmp(p.req_cmp);
  m.mem_req_tag(p.req_tag);
  m.mem_resp_data(p.resp_data);
  m.mem_resp_tag(p.resp_tag);
  m.fault_thread(w.fault_thread);
  m.fault_pc(w.fault_pc);
}

void bind_host(scm::host_driver& d, sc_clock& clk, HostWires& h, sc_signal<bool>& busy,
               sc_signal<bool>& fault, sc_signal<bool>& mem_fault) {
  d.clk(clk);
  d.rst(h.rst);
  d.host_imem_we(h.host_imem_we);
  d.host_imem_addr(h.host_imem_addr);
  d.host_imem_data(h.host_imem_data);
  d.launch_valid(h.launch_valid);
  d.launch_count(h.launch_count);
  d.launch_entry(h.launch_entry);
  d.busy(busy);
  d.fault(fault);
  d.mem_fault(mem_fault);
}

// The RTL, its memory, its wires and its monitor.
struct RtlSide {
  CoreWires w{"rtl_"};
  sc_signal<bool> trace_issue_valid{"trace_issue_valid"}, trace_regwrite_valid{"trace_regwrite_valid"},
      trace_protocol_error{"trace_protocol_error"}, trace_cache_valid{"trace_cache_valid"},
      trace_wake_valid{"trace_wake_valid"};
  sc_signal<uint32_t> trace_issue_thread{"trace_issue_thread"}, trace_issue_pc{"trace_issue_pc"},
      trace_issue_reason{"trace_issue_reason"}, trace_regwrite_thread{"trace_regwrite_thread"},
      trace_regwrite_pc{"trace_regwrite_pc"}, trace_regwrite_reg{"trace_regwrite_reg"},
      trace_regwrite_value{"trace_regwrite_value"}, trace_fault_cause{"trace_fault_cause"},
      trace_cache_thread{"trace_cache_thread"}, trace_cache_op{"trace_cache_op"},
      trace_cache_addr{"trace_cache_addr"}, trace_cache_outcome{"trace_cache_outcome"},
      trace_wake_thread{"trace_wake_thread"};
  sc_signal<bool> trace_dram_valid{"trace_dram_valid"}, trace_core_busy{"trace_core_busy"},
      port_req_valid{"port_req_valid"}, port_req_ready{"port_req_ready"}, port_resp_valid{"port_resp_valid"};
  sc_signal<uint32_t> port_req_op{"port_req_op"}, port_req_addr{"port_req_addr"},
      port_req_data{"port_req_data"}, port_req_cmp{"port_req_cmp"}, port_req_tag{"port_req_tag"},
      port_resp_data{"port_resp_data"}, port_resp_tag{"port_resp_tag"};
  Vumbra_system core{"umbra_system"};
  tb::memory_side memory;
  core_monitor monitor;
  CycleSample last;  // the last cycle the monitor saw (fault cause, protocol error)

  RtlSide(sc_clock& clk, HostWires& h, const Config& cfg, core_monitor::Callback cb,
          std::vector<scm::HostWrite> writes)
      : memory("rtl_memory", cfg, std::move(writes)),
        monitor("rtl_monitor", true, [this, cb](const CycleSample& s) {
          last = s;
          cb(s);
        }) {
    bind_core(core, clk, h, w);
    core.trace_dram_valid(trace_dram_valid);
    core.trace_core_busy(trace_core_busy);
    core.trace_port_req_valid(port_req_valid);
    core.trace_port_req_ready(port_req_ready);
    core.trace_port_req_op(port_req_op);
    core.trace_port_req_addr(port_req_addr);
    core.trace_port_req_data(port_req_data);
    core.trace_port_req_cmp(port_req_cmp);
    core.trace_port_req_tag(port_req_tag);
    core.trace_port_resp_valid(port_resp_valid);
    core.trace_port_resp_data(port_resp_data);
    core.trace_port_resp_tag(port_resp_tag);
    core.trace_issue_valid(trace_issue_valid);
    core.trace_issue_thread(trace_issue_thread);
    core.trace_issue_pc(trace_issue_pc);
    core.trace_issue_reason(trace_issue_reason);
    core.trace_regwrite_valid(trace_regwrite_valid);
    core.trace_regwrite_thread(trace_regwrite_thread);
    core.trace_regwrite_pc(trace_regwrite_pc);
    core.trace_regwrite_reg(trace_regwrite_reg);
    core.trace_regwrite_value(trace_regwrite_value);
    core.trace_fault_cause(trace_fault_cause);
    core.trace_protocol_error(trace_protocol_error);
    core.trace_cache_valid(trace_cache_valid);
    core.trace_cache_thread(trace_cache_thread);
    core.trace_cache_op(trace_cache_op);
    core.trace_cache_addr(trace_cache_addr);
    core.trace_cache_outcome(trace_cache_outcome);
    core.trace_wake_valid(trace_wake_valid);
    core.trace_wake_thread(trace_wake_thread);
    bind_memory(memory, clk, h, w);
    bind_monitor(
        monitor, clk, h, w,
        PortSignals{port_req_valid, port_req_ready, port_resp_valid, trace_core_busy, port_req_op,
                    port_req_addr, port_req_data, port_req_cmp, port_req_tag, port_resp_data, port_resp_tag});
    monitor.trace_dram_valid(trace_dram_valid);
    monitor.dram_req_op(w.mem_req_op);
    monitor.dram_req_addr(w.mem_req_addr);
    monitor.dram_req_data(w.mem_req_data);
    monitor.dram_req_cmp(w.mem_req_cmp);
    monitor.dram_req_tag(w.mem_req_tag);
    monitor.trace_issue_valid(trace_issue_valid);
    monitor.trace_issue_thread(trace_issue_thread);
    monitor.trace_issue_pc(trace_issue_pc);
    monitor.trace_issue_reason(trace_issue_reason);
    monitor.trace_regwrite_valid(trace_regwrite_valid);
    monitor.trace_regwrite_thread(trace_regwrite_thread);
    monitor.trace_regwrite_pc(trace_regwrite_pc);
    monitor.trace_regwrite_reg(trace_regwrite_reg);
    monitor.trace_regwrite_value(trace_regwrite_value);
    monitor.trace_fault_cause(trace_fault_cause);
    monitor.trace_protocol_error(trace_protocol_error);
    monitor.trace_cache_valid(trace_cache_valid);
    monitor.trace_cache_thread(trace_cache_thread);
    monitor.trace_cache_op(trace_cache_op);
    monitor.trace_cache_addr(trace_cache_addr);
    monitor.trace_cache_outcome(trace_cache_outcome);
    monitor.trace_wake_valid(trace_wake_valid);
    monitor.trace_wake_thread(trace_wake_thread);
  }
};

// The SystemC model, its memory, its wires and the monitor of its memory port.
struct ScSide {
  CoreWires w{"sc_"};
  scm::umbra_system sys;
  scm::umbra_core& core;
  tb::memory_side memory;
  core_monitor monitor;

  ScSide(sc_clock& clk, HostWires& h, const Config& cfg, core_monitor::Callback cb,
         std::vector<scm::HostWrite> writes)
      : sys("sc_system", cfg, 0),
        core(sys.core()),
        memory("sc_memory", cfg, std::move(writes)),
        monitor("sc_monitor", false, cb) {
    bind_core(sys, clk, h, w);
    bind_memory(memory, clk, h, w);
    bind_monitor(monitor, clk, h, w,
                 PortSignals{sys.c_req_valid, sys.c_req_ready, sys.c_resp_valid, sys.core_busy, sys.c_req_op,
                             sys.c_req_addr, sys.c_req_data, sys.c_req_cmp, sys.c_req_tag, sys.c_resp_data,
                             sys.c_resp_tag});
    monitor.tie_off_trace();
  }
};

void load_memory(tb::memory_side& m, const Program& p, const Options& opts) {
  m.load(p.data_base, p.data);
  for (const auto& [addr, words] : opts.writes)
    for (size_t i = 0; i < words.size(); ++i) m.poke32(addr + uint32_t(4 * i), words[i]);
}

scm::host_driver::Job make_job(const Program& p, unsigned nthreads, uint64_t max_cycles) {
  scm::host_driver::Job job;
  job.text = p.text;
  job.first_word = p.text_base / 4;
  job.entry = p.entry;
  job.threads = nthreads;
  job.max_cycles = max_cycles;
  return job;
}

// Waveforms of the SystemC side under the names and widths the RTL uses, in a scope
// "u_core" (the RTL's core instance in umbra_system): the inter-block signals of the model's umbra_core
// (found by name in its object tree, so the model needs no hooks; r_inst as the RTL's r_word) and the core's
// ports, traced as the bench signals they are bound to (the model's ports have no names of their own).
// SystemC pcs are byte addresses where the RTL's inside signals are word indices; testbench/cosim/README.md
// says so.
void trace_systemc(sc_trace_file* tf, sc_module& core, unsigned threads, HostWires& h, CoreWires& w,
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

void to_fst(const std::string& vcd, const std::string& fst) {
  const std::string cmd = "vcd2fst '" + vcd + "' '" + fst + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0)
    throw RunError("vcd2fst could not convert " + vcd + " to " + fst + " (is gtkwave installed?)");
  std::remove(vcd.c_str());
}

// Fills the parts of a RunResult the host driver decides.  `fault_of` gives the
// core's fault, `mem` the memory's.
void fill_status(scm::RunResult& r, const scm::host_driver& host, const tb::memory_side& mem,
                 const std::function<void(scm::RunResult&)>& core_fault, const std::string& stopped,
                 uint64_t max_cycles) {
  r.launch_cycle = host.launch_cycle();
  r.end_cycle = host.end_cycle();
  r.memory = mem.bytes();
  switch (host.reason()) {
    case scm::StopReason::Done: r.status = RunResult::Status::Exited; break;
    case scm::StopReason::CoreFault: core_fault(r); break;
    case scm::StopReason::MemoryFault: {
      const tb::MemFault& f = mem.first_fault();
      if (!f.raised) {  // the other side's memory faulted (cosim): this one ran on
        r.status = RunResult::Status::Fault;
        r.message = "stopped: the other model's memory faulted";
        break;
      }
      r.status = RunResult::Status::Fault;
      r.fault = f.kind;
      r.fault_thread = f.tag;
      r.fault_addr = f.addr;
      r.message = "thread " + std::to_string(f.tag) + ": " + fault_name(f.kind) + ": " + f.detail +
                  " (cycle " + std::to_string(f.cycle) + ")";
      break;
    }
    case scm::StopReason::CycleLimit:
      r.status = RunResult::Status::CycleLimit;
      r.message = "cycle limit of " + std::to_string(max_cycles) + " cycles after launch reached";
      break;
    case scm::StopReason::External:
    case scm::StopReason::Running:
      r.status = RunResult::Status::Fault;
      r.message = stopped.empty() ? "the simulation stopped unexpectedly" : stopped;
      break;
  }
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
  r.message = "thread " + std::to_string(s.fault_thread) + ", pc " + hex(s.fault_pc) + ": " +
              fault_name(Fault(s.fault_cause)) + " (RTL fault outputs, cycle " + std::to_string(s.cycle) +
              ")";
}

void sc_fault(scm::RunResult& r, const scm::umbra_core& core) {
  const scm::CoreFault& f = core.first_fault();
  r.status = RunResult::Status::Fault;
  if (!f.raised) {
    r.message = "stopped: the other model faulted";
    return;
  }
  r.fault = f.kind;
  r.fault_thread = f.thread;
  r.fault_pc = f.pc;
  r.message = "thread " + std::to_string(f.thread) + ", pc " + hex(f.pc) + ": " + fault_name(f.kind) + ": " +
              f.detail + " (cycle " + std::to_string(f.cycle) + ")";
}

bool& elaborated() {
  static bool used = false;
  return used;
}

void claim_process() {
  if (elaborated())
    throw RunError(
        "SystemC can elaborate one design per process and this process has already run one; use "
        "Options::Isolation::Subprocess");
  elaborated() = true;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

// The RTL-only bench.
struct RtlBench {
  sc_clock clk{"clk", 1, SC_NS};
  HostWires h;
  RtlSide rtl;
  scm::host_driver host;
  RtlBench(const Config& cfg, scm::host_driver::Job job, core_monitor::Callback cb,
           std::vector<scm::HostWrite> writes)
      : rtl(clk, h, cfg, std::move(cb), std::move(writes)), host("host", std::move(job)) {
    bind_host(host, clk, h, rtl.w.busy, rtl.w.fault, rtl.w.mem_fault);
  }
};

RunResult run_rtl_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                       EventSink* sink, const Options& opts) {
  claim_process();
  scm::CoreStats stats;
  stats.issued.assign(cfg.threads, 0);
  stats.bubbles.assign(cfg.threads, {});
  static RtlBench* bench = nullptr;  // never destroyed: SystemC keeps pointers into it
  bool protocol_error = false;
  auto job = make_job(p, nthreads, max_cycles);
  job.stop = [&protocol_error] { return protocol_error; };
  if (!opts.vcd.empty() || !opts.fst.empty()) Verilated::traceEverOn(true);
  // The RTL's cache outcomes, from its C2 trace (the queue's counters are the SystemC
  // model's only).
  scm::MemoryStats mem;
  mem.replays_measured = false;
  try {
    bench = new RtlBench(
        cfg, std::move(job),
        [&](const CycleSample& s) {
          if (s.protocol_error) protocol_error = true;
          if (const auto& k = s.events[rank(scm::EventKind::Cache)]) {
            const auto outcome = scm::CacheOutcome(k->value);
            mem.cache_hits += outcome == scm::CacheOutcome::Hit;
            mem.cache_misses += outcome == scm::CacheOutcome::Miss;
            mem.cache_merges += outcome == scm::CacheOutcome::Merge;
          }
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
        opts.host_writes);
  } catch (const std::invalid_argument& e) {  // the memory's parameters, a host write
    throw RunError(e.what());
  }
  RtlBench& b = *bench;
  b.h.ncore.write(opts.ncores ? opts.ncores : cfg.cores);
  load_memory(b.rtl.memory, p, opts);

  const std::string base = !opts.fst.empty() ? opts.fst : opts.vcd;
  std::unique_ptr<VerilatedVcdSc> tfp;
  sc_start(SC_ZERO_TIME);
  if (!base.empty()) {
    tfp = std::make_unique<VerilatedVcdSc>();
    b.rtl.core.trace(tfp.get(), 99);
    tfp->open((base + ".rtl.vcd").c_str());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_start();
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  if (tfp) tfp->close();
  if (!opts.fst.empty()) to_fst(base + ".rtl.vcd", base + ".rtl.fst");

  RunResult r;
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.cpu_seconds = double(c1 - c0) / CLOCKS_PER_SEC;
  r.stats = stats;
  r.cycles = stats.cycles;
  r.mem = mem;
  b.rtl.memory.add_stats(r.mem);
  fill_status(
      r, b.host, b.rtl.memory, [&](RunResult& x) { rtl_fault(x, b.rtl.last); },
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
    Event x = e;
    if (in_.kind == Injection::Kind::RegWriteValue && e.kind == scm::EventKind::RegWrite) {
      x.value ^= 1;
    } else if (in_.kind == Injection::Kind::IssuePc && e.kind == scm::EventKind::Issue) {
      x.pc += 4;
    } else {
      return next_.on_event(e);
    }
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

struct CosimBench {
  sc_clock clk{"clk", 1, SC_NS};
  HostWires h;
  sc_signal<bool> busy{"any_busy"}, fault{"any_fault"}, mem_fault{"any_mem_fault"};
  RtlSide rtl;
  ScSide sc;
  or_gate busy_or{"busy_or"}, fault_or{"fault_or"}, mem_fault_or{"mem_fault_or"};
  scm::host_driver host;
  negedge_step step{"compare"};
  CosimBench(const Config& cfg, scm::host_driver::Job job, Comparator& cmp,
             const std::vector<scm::HostWrite>& writes)
      : rtl(
            clk, h, cfg, [&cmp](const CycleSample& s) { cmp.on_rtl(s); }, writes),
        sc(
            clk, h, cfg, [&cmp](const CycleSample& s) { cmp.on_systemc_port(s); }, writes),
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
    bind_host(host, clk, h, busy, fault, mem_fault);
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
  claim_process();
  static Comparator* cmp = nullptr;  // never destroyed, like the bench
  static CosimBench* bench = nullptr;
  cmp = new Comparator(p, cfg.threads, opts.history, opts.repro);
  InjectingSink inject(*cmp, opts.inject);
  bool protocol_error = false;
  auto job = make_job(p, nthreads, max_cycles);
  job.stop = [&protocol_error] {
    return protocol_error || !bench->sc.core.protocol_error().empty() || cmp->mismatch().found;
  };
  if (!opts.vcd.empty() || !opts.fst.empty()) Verilated::traceEverOn(true);
  try {
    bench = new CosimBench(cfg, std::move(job), *cmp, opts.host_writes);
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
    if (b.rtl.last.protocol_error) protocol_error = true;
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
  load_memory(b.rtl.memory, p, opts);
  load_memory(b.sc.memory, p, opts);

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
  std::unique_ptr<VerilatedVcdSc> tfp;
  sc_start(SC_ZERO_TIME);
  if (!base.empty()) {
    tfp = std::make_unique<VerilatedVcdSc>();
    b.rtl.core.trace(tfp.get(), 99);
    tfp->open((base + ".rtl.vcd").c_str());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  sc_start();
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  // The host driver stops on the rising edge that ends the last cycle; that cycle's
  // events are in but not yet compared.
  b.sc.core.flush_events();
  cmp->finish();
  if (tfp) tfp->close();
  if (sc_tf) sc_close_vcd_trace_file(sc_tf);
  if (!opts.fst.empty()) {
    to_fst(base + ".rtl.vcd", base + ".rtl.fst");
    to_fst(base + ".systemc.vcd", base + ".systemc.fst");
  }

  CosimResult out;
  const double wall = std::chrono::duration<double>(t1 - t0).count();
  const double cpu = double(c1 - c0) / CLOCKS_PER_SEC;
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
      scm::memory_stats(b.sc.core.mem_stats(), cfg.mem_model == "dram" ? &b.sc.sys.queue_stats() : nullptr);
  b.sc.memory.add_stats(out.systemc.mem);
  // The RTL's cache and queue behaved as the model's, event for event, as far as the
  // comparison got; its DRAM counters are its own memory's.
  out.rtl.mem = out.systemc.mem;
  b.rtl.memory.add_stats(out.rtl.mem);
  out.systemc.cycles = out.systemc.stats.cycles;
  fill_status(
      out.systemc, b.host, b.sc.memory, [&](RunResult& x) { sc_fault(x, b.sc.core); }, stopped, max_cycles);
  out.rtl.stats = cmp->rtl_stats();
  out.rtl.cycles = out.rtl.stats.cycles;
  fill_status(
      out.rtl, b.host, b.rtl.memory, [&](RunResult& x) { rtl_fault(x, b.rtl.last); }, stopped, max_cycles);

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
    cmp->fail("final memory", out.rtl.end_cycle, 0, "word at " + hex(uint32_t(first)), hex(word(a, first)),
              hex(word(m, first)), std::to_string(count) + " word(s) differ");
  }
  out.mismatch = cmp->mismatch();
  out.events_compared = cmp->events_compared();

  // A run stopped at a mismatch is cut short on purpose: holding its remains to the
  // ISS would only repeat the mismatch in other words.
  if (out.mismatch.found && b.host.reason() == scm::StopReason::Running)
    for (RunResult* r : {&out.systemc, &out.rtl}) r->end_cycle = out.mismatch.cycle;
  if (opts.check_iss && !out.mismatch.found) {
    const Reference ref = run_reference(p, cfg, nthreads, max_cycles, opts.writes, opts.inject_iss);
    if (!ref.injected.empty()) std::fprintf(stderr, "umbra-cosim: injected: %s\n", ref.injected.c_str());
    IssVerdict v;
    compare_with_reference("systemc", p, ref, cmp->systemc_records(), out.systemc, v);
    compare_with_reference("rtl", p, ref, cmp->rtl_records(), out.rtl, v);
    out.iss_problems = std::move(v.problems);
    out.iss_notes = std::move(v.notes);
  }
  return out;
}

// ---- child-process transport -----------------------------------------------------------
// The child writes one record: 'R' and the result, or 'X' and an error message; both
// ends are the same binary, so plain values are copied as bytes.

struct Out {
  std::FILE* f;
  void raw(const void* p, size_t n) { std::fwrite(p, 1, n, f); }
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
};

struct In {
  std::FILE* f;
  void raw(void* p, size_t n) {
    if (std::fread(p, 1, n, f) != n)
      throw RunError("the cosimulation process ended in the middle of its result");
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
};

// One function for both directions keeps writer and reader in step.
template <class IO, class R>
void transfer(IO& io, R& r) {
  io.pod(r.status);
  io.str(r.message);
  io.pod(r.fault);
  io.pod(r.fault_thread);
  io.pod(r.fault_pc);
  io.pod(r.fault_addr);
  io.pod(r.launch_cycle);
  io.pod(r.end_cycle);
  io.pod(r.cycles);
  io.pod(r.stats.cycles);
  io.vec(r.stats.issued);
  io.vec(r.stats.bubbles);
  for_each_memory_field(r.mem, [&](auto& x) { io.pod(x); });
  io.vec(r.mem.load_buckets);
  io.vec(r.memory);
  io.pod(r.wall_seconds);
  io.pod(r.cpu_seconds);
}

template <class IO, class C>
void transfer_cosim(IO& io, C& c) {
  transfer(io, c.systemc);
  transfer(io, c.rtl);
  io.pod(c.mismatch.found);
  io.str(c.mismatch.stage);
  io.pod(c.mismatch.cycle);
  io.pod(c.mismatch.thread);
  io.str(c.mismatch.field);
  io.str(c.mismatch.systemc);
  io.str(c.mismatch.rtl);
  io.str(c.mismatch.report);
  for (auto* v : {&c.iss_problems, &c.iss_notes}) {
    uint64_t n = v->size();
    io.pod(n);
    v->resize(n);
    for (auto& s : *v) io.str(s);
  }
  io.pod(c.events_compared);
}

// Runs `body` in a child; it returns the result through `send`, events go through
// 'E' records to `sink`.
template <class Result>
Result in_child(const std::function<Result(EventSink*)>& body, EventSink* sink,
                const std::function<void(Out&, Result&)>& send,
                const std::function<void(In&, Result&)>& receive) {
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
    std::FILE* f = fdopen(fds[1], "wb");
    static char buffer[1 << 16];
    std::setvbuf(f, buffer, _IOFBF, sizeof buffer);
    Out out{f};
    struct Pipe final : EventSink {
      Out& o;
      explicit Pipe(Out& x) : o(x) {}
      void on_event(const Event& e) override {
        o.pod('E');
        o.pod(e);
      }
    } pipe_sink(out);
    int code = 0;
    try {
      Result r = body(sink ? &pipe_sink : nullptr);
      out.pod('R');
      send(out, r);
    } catch (const std::exception& e) {
      out.pod('X');
      out.str(e.what());
      code = 1;
    }
    std::fclose(f);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);
  }
  close(fds[1]);
  std::FILE* f = fdopen(fds[0], "rb");
  In in{f};
  Result r{};
  std::string error;
  bool have = false;
  try {
    for (int tag; (tag = std::fgetc(f)) != EOF;) {
      if (tag == 'E') {
        Event e;
        in.pod(e);
        if (sink) sink->on_event(e);
      } else if (tag == 'R') {
        receive(in, r);
        have = true;
      } else if (tag == 'X') {
        in.str(error);
      } else {
        error = "the cosimulation process sent garbage";
        break;
      }
    }
  } catch (...) {
    std::fclose(f);
    int st = 0;
    waitpid(pid, &st, 0);
    throw;
  }
  std::fclose(f);
  int st = 0;
  waitpid(pid, &st, 0);
  if (!error.empty()) throw RunError(error);
  if (!have) {
    if (WIFSIGNALED(st))
      throw RunError("the cosimulation process died of signal " + std::to_string(WTERMSIG(st)));
    throw RunError("the cosimulation process exited (status " + std::to_string(WEXITSTATUS(st)) +
                   ") without a result");
  }
  return r;
}

}  // namespace

RunResult run_rtl(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                  EventSink* sink, const Options& opts) {
  validate(program, cfg, nthreads, max_cycles, opts);
  if (opts.isolation == Options::Isolation::InProcess)
    return run_rtl_here(program, cfg, nthreads, max_cycles, sink, opts);
  return in_child<RunResult>(
      [&](EventSink* s) { return run_rtl_here(program, cfg, nthreads, max_cycles, s, opts); }, sink,
      [](Out& o, RunResult& r) { transfer(o, r); }, [](In& i, RunResult& r) { transfer(i, r); });
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
  return in_child<CosimResult>(
      [&](EventSink* s) {
        Options here = opts;
        here.observer = s;  // the child's pipe to opts.observer, or none
        return run_cosim_here(program, cfg, nthreads, max_cycles, here);
      },
      opts.observer, [](Out& o, CosimResult& r) { transfer_cosim(o, r); },
      [](In& i, CosimResult& r) { transfer_cosim(i, r); });
}

}  // namespace umbra::cosim
