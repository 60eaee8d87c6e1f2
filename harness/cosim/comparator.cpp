// Comparator (comparator.h).
#include "comparator.h"

#include <cstdio>
#include <vector>

#include "umbra/commands_gen.h"
#include "umbra/format.h"
#include "umbra/isa.h"

namespace umbra::cosim {

namespace {

std::string opname(uint8_t op) {
  const isa::InstrInfo* in = isa::find_opcode(op);
  char b[48];
  std::snprintf(b, sizeof b, "0x%02x (%s)", unsigned(op), in ? in->name : "no instruction");
  return b;
}

std::string command_name(uint32_t op) {
  const commands::CommandDef* def = commands::find(op);
  return def ? def->name : "? (" + std::to_string(op) + ")";
}

const char* rank_name(unsigned r) {
  static const char* names[umbra::kEventRanks] = {"issue", "regwrite", "mem",   "memresp", "cache",
                                                  "wake",  "dram",     "start", "command"};
  return names[r];
}

std::string outcome_name(uint32_t v) {
  return v < uarch::kCacheOutcomeCount ? umbra::cache_outcome_name(umbra::CacheOutcome(v))
                                       : "? (" + std::to_string(v) + ")";
}

std::string show(const std::optional<umbra::Event>& e) {
  return e ? umbra::format_event(*e) : std::string("-");
}

// The first field in which two events of the same rank differ: its name and both
// values, or an empty name when they agree.
struct FieldDiff {
  std::string field, a, b;
};
FieldDiff first_difference(const umbra::Event& a, const umbra::Event& b) {
  using umbra::EventKind;
  if (a.kind != b.kind) return {"kind", umbra::event_kind_name(a.kind), umbra::event_kind_name(b.kind)};
  if (a.thread != b.thread)
    return {a.kind == EventKind::Mem || a.kind == EventKind::MemResp || a.kind == EventKind::Dram ? "tag"
                                                                                                  : "thread",
            std::to_string(a.thread), std::to_string(b.thread)};
  switch (a.kind) {
    case EventKind::Issue:
      if (a.pc != b.pc) return {"pc", hex8(a.pc), hex8(b.pc)};
      break;
    case EventKind::Bubble:
      if (a.reason != b.reason)
        return {"reason", umbra::bubble_reason_name(a.reason), umbra::bubble_reason_name(b.reason)};
      break;
    case EventKind::RegWrite:
      if (a.pc != b.pc) return {"pc", hex8(a.pc), hex8(b.pc)};
      if (a.reg != b.reg) return {"reg", "r" + std::to_string(a.reg), "r" + std::to_string(b.reg)};
      if (a.value != b.value) return {"value", hex8(a.value), hex8(b.value)};
      break;
    case EventKind::Cache:
      if (a.op != b.op) return {"op", opname(a.op), opname(b.op)};
      if (a.addr != b.addr) return {"addr", hex8(a.addr), hex8(b.addr)};
      if (a.value != b.value) return {"outcome", outcome_name(a.value), outcome_name(b.value)};
      break;
    case EventKind::Wake: break;
    case EventKind::Mem:
    case EventKind::Dram:
      if (a.op != b.op) return {"op", opname(a.op), opname(b.op)};
      if (a.addr != b.addr) return {"addr", hex8(a.addr), hex8(b.addr)};
      if (a.data != b.data) return {"data", hex8(a.data), hex8(b.data)};
      if (a.cmp != b.cmp) return {"cmp", hex8(a.cmp), hex8(b.cmp)};
      break;
    case EventKind::MemResp:
      if (a.value != b.value) return {"data", hex8(a.value), hex8(b.value)};
      break;
    case EventKind::Start:
      if (a.addr != b.addr) return {"lx", std::to_string(a.addr), std::to_string(b.addr)};
      if (a.data != b.data) return {"ly", std::to_string(a.data), std::to_string(b.data)};
      break;
    case EventKind::Command:
      if (a.op != b.op) return {"command", command_name(a.op), command_name(b.op)};
      if (a.addr != b.addr) return {"at", hex8(a.addr), hex8(b.addr)};
      break;
  }
  return {};
}

}  // namespace

std::string describe_instruction(const Program& p, uint32_t pc) {
  const uint64_t index = (uint64_t(pc) - p.text_base) / 4;
  if (pc < p.text_base || pc % 4 || index >= p.text.size())
    return "pc " + hex8(pc) + ": (outside the program's text)";
  const auto label = [&p](uint32_t a) { return p.text_label(a); };
  return "pc " + hex8(pc) + ": " + isa::disassemble(p.text[index], pc, label);
}

Comparator::Comparator(const Program& program, unsigned cores, unsigned threads, unsigned launched,
                       unsigned history, std::string repro, umbra::Domain domain)
    : program_(program),
      threads_(threads),
      launched_(launched),
      domain_(domain),
      history_size_(history),
      repro_(std::move(repro)),
      cores_(cores),
      sc_records_(domain.launch() ? size_t(domain.items()) : size_t(cores) * launched),
      rtl_records_(sc_records_.size()) {
  for (Core& k : cores_) {
    k.last_pc.assign(threads, 0);
    k.item.assign(domain.launch() ? threads : 0, 0);
    k.rtl_stats.issued.assign(threads, 0);
    k.rtl_stats.bubbles.assign(threads, {});
  }
}

void Comparator::on_event(const umbra::Event& e) {
  RingQueue<Pending>& q = cores_[e.core].sc;
  if (q.empty() || q.back().cycle != e.cycle) q.push_back_new().cycle = e.cycle;
  q.back().events[rank(e.kind)] = e;
}

// Every core's three inputs have delivered their oldest cycle.
bool Comparator::ready() const {
  for (const Core& k : cores_)
    if (k.sc.empty() || k.rtl.empty() || k.sc_port.empty()) return false;
  return true;
}

bool Comparator::check() {
  while (!mismatch_.found && ready()) {
    // A SystemC core emits nothing in a cycle only before its first edge out of reset;
    // the monitors count from that edge too, so the fronts share a cycle.
    for (unsigned c = 0; c < cores_.size() && !mismatch_.found; ++c) {
      Core& k = cores_[c];
      compare(c, k.sc.front(), k.rtl.front(), k.sc_port.front());
    }
    for (Core& k : cores_) {
      k.sc.pop_front();
      k.rtl.pop_front();
      k.sc_port.pop_front();
    }
  }
  return !mismatch_.found;
}

void Comparator::finish() {
  check();
  if (mismatch_.found) return;
  for (unsigned n = 0; n < cores_.size(); ++n) {
    const Core& k = cores_[n];
    if (k.sc.empty() && k.rtl.empty() && k.sc_port.empty()) continue;
    const uint64_t c = !k.sc.empty()    ? k.sc.front().cycle
                       : !k.rtl.empty() ? k.rtl.front().cycle
                                        : k.sc_port.front().cycle;
    report("end of run", c, n, 0, "cycles observed", std::to_string(k.sc.size()) + " more cycle(s) of events",
           std::to_string(k.rtl.size()) + " more cycle(s) of events", 0, false, "", "");
    return;
  }
}

// Core c's thread t is work item c * launched + t; a thread never launched has no
// records (both sides' events of it were compared already).
void Comparator::record(ThreadRecords& r, const umbra::Event& e) {
  if (e.thread >= launched_) return;
  const unsigned item = domain_.launch() ? cores_[e.core].item[e.thread] : e.core * launched_ + e.thread;
  if (e.kind == umbra::EventKind::Issue)
    check::record_issue(r, item, e.pc);
  else if (e.kind == umbra::EventKind::RegWrite)
    check::record_write(r, item, e.pc, e.reg, e.value);
}

umbra::CoreStats Comparator::rtl_stats() const {
  std::vector<const umbra::CoreStats*> cores;
  for (const Core& k : cores_) cores.push_back(&k.rtl_stats);
  return umbra::join_stats(cores);
}

void Comparator::compare(unsigned core, const Pending& sc, const CycleSample& rtl, const CycleSample& port) {
  if (sc.cycle != rtl.cycle || port.cycle != rtl.cycle) {
    report("events", rtl.cycle, core, 0, "cycle number", std::to_string(sc.cycle), std::to_string(rtl.cycle),
           0, false, "", "");
    return;
  }
  std::vector<uint32_t>& last_pc = cores_[core].last_pc;
  const uint64_t c = rtl.cycle;
  // Both sides' events of the cycle as text, made only for a report: formatting every
  // cycle would cost more than the comparison.
  const auto lines = [&sc, &rtl](std::string& sc_line, std::string& rtl_line) {
    for (unsigned r = 0; r < umbra::kEventRanks; ++r) {
      if (sc.events[r]) sc_line += "\n      " + umbra::format_event(*sc.events[r]);
      if (rtl.events[r]) rtl_line += "\n      " + umbra::format_event(*rtl.events[r]);
    }
  };
  std::string sc_line, rtl_line;
  // The SystemC core's events against the RTL's, in the contract's order.
  for (unsigned r = 0; r < umbra::kEventRanks; ++r) {
    const auto& a = sc.events[r];
    const auto& b = rtl.events[r];
    if (!a && !b) continue;
    const umbra::Event& any = a ? *a : *b;
    // Issue and regwrite carry their pc; for the others the thread's last issued pc is
    // the best guess (a load's cache event or wake is its thread's last instruction).
    const bool named = any.kind != umbra::EventKind::Dram && any.thread < threads_;
    const uint32_t pc = r <= 1 ? any.pc : (named ? last_pc[any.thread] : 0);
    const bool have_pc = r <= 1 ? any.kind != umbra::EventKind::Bubble : named;
    if (!a || !b) {
      lines(sc_line, rtl_line);
      report("events", c, core, any.thread, std::string(rank_name(r)) + " event", show(a), show(b), pc,
             have_pc, sc_line, rtl_line);
      return;
    }
    const FieldDiff d = first_difference(*a, *b);
    if (!d.field.empty()) {
      lines(sc_line, rtl_line);
      report("events", c, core, any.thread, d.field + " (" + rank_name(r) + ")", d.a, d.b, pc, have_pc,
             sc_line, rtl_line);
      return;
    }
  }
  // The memory side: the SystemC core's port as the memory sees it against the RTL's.
  for (unsigned r = 2; r < 4; ++r) {
    const auto& a = port.events[r];
    const auto& b = rtl.events[r];
    if (!a && !b) continue;
    const umbra::Event& any = a ? *a : *b;
    const uint32_t pc = any.thread < threads_ ? last_pc[any.thread] : 0;
    FieldDiff d;
    if (!a || !b)
      d = {std::string(rank_name(r)) + " on the port", show(a), show(b)};
    else
      d = first_difference(*a, *b);
    if (!d.field.empty()) {
      lines(sc_line, rtl_line);
      report("memory port", c, core, any.thread, d.field, d.a, d.b, pc, any.thread < threads_, sc_line,
             rtl_line);
      return;
    }
  }
  // The core's status outputs.
  if (port.busy != rtl.busy) {
    lines(sc_line, rtl_line);
    report("ports", c, core, 0, "busy", std::to_string(port.busy), std::to_string(rtl.busy), 0, false,
           sc_line, rtl_line);
    return;
  }
  // The system top's busy (the core's or the queue's pending DRAM traffic): it decides
  // when a run ends, so a side that would stop early or late differs here first.
  if (port.system_busy != rtl.system_busy) {
    lines(sc_line, rtl_line);
    report("ports", c, core, 0, "system busy", std::to_string(port.system_busy),
           std::to_string(rtl.system_busy), 0, false, sc_line, rtl_line);
    return;
  }
  // All four every cycle, not only once fault is up: the board's status reply
  // (fpga/host_link.v) sends fault_thread and fault_pc whatever fault says, so their
  // values before a fault (the reset values) are outputs a user sees too.
  // The core's own fault and its cause; then the system's fault outputs, which are the
  // lowest-numbered faulting core's.
  if (port.fault != rtl.fault || port.fault_cause != rtl.fault_cause) {
    const auto text = [](const CycleSample& s) {
      return std::to_string(s.fault) + " cause " + fault_name(Fault(s.fault_cause));
    };
    lines(sc_line, rtl_line);
    report("ports", c, core, rtl.fault_thread, "fault", text(port), text(rtl), 0, false, sc_line, rtl_line);
    return;
  }
  if (port.system_fault != rtl.system_fault || port.fault_core != rtl.fault_core ||
      port.fault_thread != rtl.fault_thread || port.fault_pc != rtl.fault_pc) {
    const auto text = [](const CycleSample& s) {
      return std::to_string(s.system_fault) + " core " + std::to_string(s.fault_core) + " thread " +
             std::to_string(s.fault_thread) + " pc " + hex8(s.fault_pc);
    };
    lines(sc_line, rtl_line);
    report("ports", c, rtl.fault_core, rtl.fault_thread, "system fault", text(port), text(rtl), rtl.fault_pc,
           rtl.system_fault, sc_line, rtl_line);
    return;
  }

  // Agreed: keep the history, the per-thread records and the RTL's statistics.
  for (unsigned r = 0; r < umbra::kEventRanks; ++r) {
    if (!sc.events[r]) continue;
    const umbra::Event& e = *sc.events[r];
    ++events_;
    if (history_size_) {
      if (history_.size() < history_size_)
        history_.push_back(e);
      else
        history_[history_next_] = e;
      if (++history_next_ == history_size_) history_next_ = 0;
    }
    if (e.kind == umbra::EventKind::Issue && e.thread < threads_) last_pc[e.thread] = e.pc;
    record(sc_records_, e);
  }
  for (unsigned r = 0; r < 2; ++r)
    if (rtl.events[r]) record(rtl_records_, *rtl.events[r]);
  // A start (agreed by now) names the thread's work item from the next cycle on.
  const auto& start = sc.events[rank(umbra::EventKind::Start)];
  if (start && domain_.launch() && start->thread < threads_)
    cores_[core].item[start->thread] = start->data * domain_.w + start->addr;
  if (rtl.busy && rtl.events[0] && rtl.events[0]->thread < threads_) {
    const umbra::Event& e = *rtl.events[0];
    umbra::CoreStats& st = cores_[core].rtl_stats;
    ++st.cycles;
    if (e.kind == umbra::EventKind::Issue)
      ++st.issued[e.thread];
    else
      ++st.bubbles[e.thread][unsigned(e.reason)];
  }
  if (core == 0) ++compared_;
}

void Comparator::report(const std::string& stage, uint64_t cycle, unsigned core, uint32_t thread,
                        const std::string& field, const std::string& sc_value, const std::string& rtl_value,
                        uint32_t pc, bool have_pc, const std::string& sc_cycle,
                        const std::string& rtl_cycle) {
  mismatch_.found = true;
  mismatch_.stage = stage;
  mismatch_.cycle = cycle;
  mismatch_.core = core;
  mismatch_.thread = thread;
  mismatch_.field = field;
  mismatch_.systemc = sc_value;
  mismatch_.rtl = rtl_value;
  const std::string where = cores_.size() > 1 ? ", core " + std::to_string(core) : "";
  std::string s = "cosim MISMATCH (" + stage + ") at cycle " + std::to_string(cycle) + where + ", thread " +
                  std::to_string(thread) + ", field " + field + "\n";
  s += "  systemc: " + sc_value + "\n";
  s += "  rtl:     " + rtl_value + "\n";
  if (have_pc) s += "  instruction: " + describe_instruction(program_, pc) + "\n";
  if (!sc_cycle.empty() || !rtl_cycle.empty()) {
    s += "  systemc events in cycle " + std::to_string(cycle) + ":" +
         (sc_cycle.empty() ? " none" : sc_cycle) + "\n";
    s += "  rtl events in cycle " + std::to_string(cycle) + ":" + (rtl_cycle.empty() ? " none" : rtl_cycle) +
         "\n";
  }
  s += "  last " + std::to_string(history_.size()) + " events both models agreed on:\n";
  const size_t oldest = history_.size() < history_size_ ? 0 : history_next_;
  for (size_t i = 0; i < history_.size(); ++i)
    s += "      " + umbra::format_event(history_[(oldest + i) % history_.size()]) + "\n";
  if (!repro_.empty()) s += "  reproduce: " + repro_ + "\n";
  mismatch_.report = s;
}

void Comparator::fail(const std::string& stage, uint64_t cycle, unsigned core, uint32_t thread,
                      const std::string& field, const std::string& systemc, const std::string& rtl,
                      const std::string& detail) {
  if (mismatch_.found) return;
  report(stage, cycle, core, thread, field, systemc, rtl, 0, false, "", "");
  if (!detail.empty()) mismatch_.report += "  " + detail + "\n";
}

}  // namespace umbra::cosim
