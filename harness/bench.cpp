// The shared pieces of the runners' benches (bench.h).
#include "bench.h"

#include <cstdio>
#include <cstdlib>

#include "command_processor.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/semantics.h"
#include "umbra_core.h"

namespace umbra::harness {

void validate(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
              const Writes& writes, const umbra::Domain& domain) {
  if (domain.launch() && (domain.w == 0 || domain.h == 0 || domain.items() > UINT32_MAX))
    throw RunError("a domain of " + std::to_string(domain.w) + " x " + std::to_string(domain.h) +
                   " work items: each side must be at least 1, and the items at most 2^32 - 1");
  if (cfg.threads < cfg.pipeline_depth())
    throw RunError("configuration '" + cfg.name + "': " + std::to_string(cfg.threads) +
                   " threads is below the pipeline depth " + std::to_string(cfg.pipeline_depth()) + " (" +
                   std::to_string(cfg.execute_stages) +
                   " execute stages): a thread's next instruction would meet its previous one in flight "
                   "(docs/microarchitecture.md)");
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
  for (const auto& [addr, words] : writes)
    if (addr % 4 || uint64_t(addr) + 4 * uint64_t(words.size()) > cfg.mem_bytes)
      throw RunError("input of " + std::to_string(words.size()) + " words at " + hex8(addr) +
                     " is misaligned or outside data memory");
}

void claim_process() {
  static bool used = false;
  if (used)
    throw RunError(
        "SystemC can elaborate one design per process and this process has already run one; use "
        "Isolation::Subprocess");
  used = true;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}

namespace {
std::string n(const std::string& prefix, const char* name) {
  return prefix + name;
}
}  // namespace

SystemWires::SystemWires(const std::string& prefix, const Config& cfg)
    : busy(n(prefix, "busy").c_str()),
      fault(n(prefix, "fault").c_str()),
      mem_req_valid(n(prefix, "mem_req_valid").c_str()),
      mem_req_ready(n(prefix, "mem_req_ready").c_str()),
      mem_resp_valid(n(prefix, "mem_resp_valid").c_str()),
      mem_fault(n(prefix, "mem_fault").c_str()),
      fault_core(n(prefix, "fault_core").c_str()),
      fault_thread(n(prefix, "fault_thread").c_str()),
      fault_pc(n(prefix, "fault_pc").c_str()),
      mem_req_op(n(prefix, "mem_req_op").c_str()),
      mem_req_addr(n(prefix, "mem_req_addr").c_str()),
      mem_req_data(n(prefix, "mem_req_data").c_str()),
      mem_req_cmp(n(prefix, "mem_req_cmp").c_str()),
      mem_req_tag(n(prefix, "mem_req_tag").c_str()),
      mem_resp_data(n(prefix, "mem_resp_data").c_str()),
      mem_resp_tag(n(prefix, "mem_resp_tag").c_str()),
      cmd_fault(n(prefix, "cmd_fault").c_str()),
      cmd_fault_addr(n(prefix, "cmd_fault_addr").c_str()),
      mem_req_mask(n(prefix, "mem_req_mask").c_str()),
      mem_req_line(n(prefix, "mem_req_line").c_str()),
      mem_resp_line(n(prefix, "mem_resp_line").c_str()),
      bypass_queue(n(prefix, "bypass_queue").c_str(), !cfg.queue_enabled) {}

void bind_host(harness::host_driver& d, sc_clock& clk, HostWires& h, sc_signal<bool>& busy,
               sc_signal<bool>& fault, sc_signal<bool>& mem_fault) {
  d.clk(clk);
  d.rst(h.rst);
  d.host_imem_we(h.host_imem_we);
  d.host_imem_addr(h.host_imem_addr);
  d.host_imem_data(h.host_imem_data);
  d.launch_valid(h.launch_valid);
  d.launch_count(h.launch_count);
  d.launch_entry(h.launch_entry);
  d.domain_valid(h.domain_valid);
  d.domain_w(h.domain_w);
  d.domain_h(h.domain_h);
  d.doorbell_valid(h.doorbell_valid);
  d.doorbell_addr(h.doorbell_addr);
  d.busy(busy);
  d.fault(fault);
  d.mem_fault(mem_fault);
}

harness::HostScript::Job make_job(const Program& p, unsigned nthreads, uint64_t max_cycles,
                                  const umbra::Domain& domain, const umbra::Doorbell& doorbell) {
  harness::HostScript::Job job;
  job.domain = domain;
  job.doorbell = doorbell;
  job.text = p.text;
  job.first_word = p.text_base / 4;
  job.entry = p.entry;
  job.threads = nthreads;
  job.max_cycles = max_cycles;
  return job;
}

std::string command_fault_message(uint32_t code, uint32_t addr) {
  if (code == 0) return "";
  return "command processor: " + std::string(commands::fault_text(commands::Fault(code))) + " (command at " +
         hex8(addr) + ")";
}

void load_memory(harness::memory_side& m, const Program& p, const Writes& writes) {
  m.model().load(p.data_base, p.data);
  for (const auto& [addr, words] : writes)
    for (size_t i = 0; i < words.size(); ++i) m.model().poke32(addr + uint32_t(4 * i), words[i]);
}

AccessOf systemc_access(const scm::umbra_system& sys) {
  return [&sys](unsigned core, unsigned thread) -> std::optional<std::pair<uint32_t, uint32_t>> {
    if (core >= sys.cores()) return std::nullopt;
    const auto a = sys.core(core).data_cache().last_access(thread);
    if (!a) return std::nullopt;
    return std::make_pair(a->op, a->addr);
  };
}

void fill_status(RunResult& r, const harness::HostScript& host, harness::memory_side& mem,
                 const std::function<void(RunResult&)>& core_fault, const std::string& stopped,
                 uint64_t max_cycles, const AccessOf& access) {
  r.launch_cycle = host.launch_cycle();
  r.end_cycle = host.end_cycle();
  mem.model().drain();
  r.memory = mem.model().bytes();
  switch (host.reason()) {
    case harness::StopReason::Done: r.status = RunResult::Status::Exited; break;
    case harness::StopReason::CoreFault: core_fault(r); break;
    case harness::StopReason::MemoryFault: {
      const scm::MemFault& f = mem.model().first_fault();
      r.status = RunResult::Status::Fault;
      if (!f.raised) {  // the other side's memory faulted (cosim): this one ran on
        r.message = "stopped: the other model's memory faulted";
        break;
      }
      // The tag is {core, thread}, or the command processor's.
      r.fault = f.kind;
      r.fault_core = f.tag >> 8 & 0xffu;
      r.fault_thread = f.tag & 0xffu;
      r.fault_addr = f.addr;
      const std::string who = f.tag == scm::CommandProcessor::kTag ? "command processor"
                              : r.fault_core ? "core " + std::to_string(r.fault_core) + ", thread " +
                                                   std::to_string(r.fault_thread)
                                             : "thread " + std::to_string(r.fault_thread);
      std::string detail = f.detail;
      // A load that missed: its line's fill was refused; name the load's own address.
      const auto a = access && f.tag != scm::CommandProcessor::kTag && detail.rfind("fill of ", 0) == 0
                         ? access(r.fault_core, r.fault_thread)
                         : std::nullopt;
      const isa::InstrInfo* in = a && a->first < 256 ? isa::find_opcode(uint8_t(a->first)) : nullptr;
      if (in && in->cls == isa::Class::Load && a->second >= f.addr && a->second - f.addr < 256)
        detail = access_fault_reason(f.kind, in->name, a->second, mem.model().bytes().size());
      r.message =
          who + ": " + fault_name(f.kind) + ": " + detail + " (cycle " + std::to_string(f.cycle) + ")";
      break;
    }
    case harness::StopReason::CycleLimit:
      r.status = RunResult::Status::CycleLimit;
      r.message = "cycle limit of " + std::to_string(max_cycles) + " cycles after launch reached";
      break;
    case harness::StopReason::External:
    case harness::StopReason::Running:
      r.status = RunResult::Status::Fault;
      r.message = stopped.empty() ? "the simulation stopped unexpectedly" : stopped;
      break;
  }
}

void core_fault(RunResult& r, const scm::umbra_system& sys) {
  r.status = RunResult::Status::Fault;
  const scm::umbra_system::Outputs o = sys.outputs();
  if (o.cmd_fault && !o.fault) {
    r.fault_addr = o.cmd_fault_addr;
    r.message = command_fault_message(o.cmd_fault, o.cmd_fault_addr);
    return;
  }
  for (unsigned c = 0; c < sys.cores(); ++c) {
    const scm::CoreFault& f = sys.core(c).first_fault();
    if (!f.raised) continue;
    r.fault = f.kind;
    r.fault_core = c;
    r.fault_thread = f.thread;
    r.fault_pc = f.pc;
    r.message = umbra::thread_name(sys.cores(), c, f.thread) + ", pc " + hex8(f.pc) + ": " +
                fault_name(f.kind) + ": " + f.detail + " (cycle " + std::to_string(f.cycle) + ")";
    return;
  }
  r.message = "stopped: the other model faulted";  // (cosim): this one ran on
}

const std::string& protocol_error(const scm::umbra_system& sys) {
  for (unsigned c = 0; c < sys.cores(); ++c)
    if (!sys.core(c).protocol_error().empty()) return sys.core(c).protocol_error();
  return sys.core(0).protocol_error();
}

umbra::CoreStats system_stats(const scm::umbra_system& sys) {
  std::vector<const umbra::CoreStats*> cores;
  for (unsigned c = 0; c < sys.cores(); ++c) cores.push_back(&sys.core(c).stats());
  return umbra::join_stats(cores);
}

}  // namespace umbra::harness
