// Comparator (comparator.h).
#include "comparator.h"

#include <cstdio>

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

const char* rank_name(unsigned r) {
  static const char* names[scm::kEventRanks] = {"issue", "regwrite", "mem", "memresp",
                                                "cache", "wake",     "dram"};
  return names[r];
}

std::string outcome_name(uint32_t v) {
  return v < uarch::kCacheOutcomeCount ? scm::cache_outcome_name(scm::CacheOutcome(v))
                                       : "? (" + std::to_string(v) + ")";
}

std::string show(const std::optional<scm::Event>& e) {
  return e ? scm::format_event(*e) : std::string("-");
}

// The first field in which two events of the same rank differ: its name and both
// values, or an empty name when they agree.
struct FieldDiff {
  std::string field, a, b;
};
FieldDiff first_difference(const scm::Event& a, const scm::Event& b) {
  using scm::EventKind;
  if (a.kind != b.kind) return {"kind", scm::event_kind_name(a.kind), scm::event_kind_name(b.kind)};
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
        return {"reason", scm::bubble_reason_name(a.reason), scm::bubble_reason_name(b.reason)};
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

Comparator::Comparator(const Program& program, unsigned threads, unsigned history, std::string repro)
    : program_(program),
      threads_(threads),
      history_size_(history),
      repro_(std::move(repro)),
      last_pc_(threads, 0),
      sc_records_(threads),
      rtl_records_(threads) {
  rtl_stats_.issued.assign(threads, 0);
  rtl_stats_.bubbles.assign(threads, {});
}

void Comparator::on_event(const scm::Event& e) {
  if (sc_.empty() || sc_.back().cycle != e.cycle) sc_.push_back_new().cycle = e.cycle;
  sc_.back().events[rank(e.kind)] = e;
}

bool Comparator::check() {
  while (!mismatch_.found && !sc_.empty() && !rtl_.empty() && !sc_port_.empty()) {
    // The SystemC core emits nothing in a cycle only before its first edge out of
    // reset; both monitors count from that edge too, so the fronts share a cycle.
    compare(sc_.front(), rtl_.front(), sc_port_.front());
    sc_.pop_front();
    rtl_.pop_front();
    sc_port_.pop_front();
  }
  return !mismatch_.found;
}

void Comparator::finish() {
  check();
  if (mismatch_.found) return;
  if (!sc_.empty() || !rtl_.empty() || !sc_port_.empty()) {
    const uint64_t c = !sc_.empty()    ? sc_.front().cycle
                       : !rtl_.empty() ? rtl_.front().cycle
                                       : sc_port_.front().cycle;
    report("end of run", c, 0, "cycles observed", std::to_string(sc_.size()) + " more cycle(s) of events",
           std::to_string(rtl_.size()) + " more cycle(s) of events", 0, false, "", "");
  }
}

void Comparator::record(ThreadRecords& r, const scm::Event& e) {
  if (e.kind == scm::EventKind::Issue)
    check::record_issue(r, e.thread, e.pc);
  else if (e.kind == scm::EventKind::RegWrite)
    check::record_write(r, e.thread, e.pc, e.reg, e.value);
}

void Comparator::compare(const Pending& sc, const CycleSample& rtl, const CycleSample& port) {
  if (sc.cycle != rtl.cycle || port.cycle != rtl.cycle) {
    report("events", rtl.cycle, 0, "cycle number", std::to_string(sc.cycle), std::to_string(rtl.cycle), 0,
           false, "", "");
    return;
  }
  const uint64_t c = rtl.cycle;
  // Both sides' events of the cycle as text, made only for a report: formatting every
  // cycle would cost more than the comparison.
  const auto lines = [&sc, &rtl](std::string& sc_line, std::string& rtl_line) {
    for (unsigned r = 0; r < scm::kEventRanks; ++r) {
      if (sc.events[r]) sc_line += "\n      " + scm::format_event(*sc.events[r]);
      if (rtl.events[r]) rtl_line += "\n      " + scm::format_event(*rtl.events[r]);
    }
  };
  std::string sc_line, rtl_line;
  // The SystemC core's events against the RTL's, in the contract's order.
  for (unsigned r = 0; r < scm::kEventRanks; ++r) {
    const auto& a = sc.events[r];
    const auto& b = rtl.events[r];
    if (!a && !b) continue;
    const scm::Event& any = a ? *a : *b;
    // Issue and regwrite carry their pc; for the others the thread's last issued pc is
    // the best guess (a load's cache event or wake is its thread's last instruction).
    const bool named = any.kind != scm::EventKind::Dram && any.thread < threads_;
    const uint32_t pc = r <= 1 ? any.pc : (named ? last_pc_[any.thread] : 0);
    const bool have_pc = r <= 1 ? any.kind != scm::EventKind::Bubble : named;
    if (!a || !b) {
      lines(sc_line, rtl_line);
      report("events", c, any.thread, std::string(rank_name(r)) + " event", show(a), show(b), pc, have_pc,
             sc_line, rtl_line);
      return;
    }
    const FieldDiff d = first_difference(*a, *b);
    if (!d.field.empty()) {
      lines(sc_line, rtl_line);
      report("events", c, any.thread, d.field + " (" + rank_name(r) + ")", d.a, d.b, pc, have_pc, sc_line,
             rtl_line);
      return;
    }
  }
  // The memory side: the SystemC core's port as the memory sees it against the RTL's.
  for (unsigned r = 2; r < 4; ++r) {
    const auto& a = port.events[r];
    const auto& b = rtl.events[r];
    if (!a && !b) continue;
    const scm::Event& any = a ? *a : *b;
    const uint32_t pc = any.thread < threads_ ? last_pc_[any.thread] : 0;
    FieldDiff d;
    if (!a || !b)
      d = {std::string(rank_name(r)) + " on the port", show(a), show(b)};
    else
      d = first_difference(*a, *b);
    if (!d.field.empty()) {
      lines(sc_line, rtl_line);
      report("memory port", c, any.thread, d.field, d.a, d.b, pc, any.thread < threads_, sc_line, rtl_line);
      return;
    }
  }
  // The core's status outputs.
  if (port.busy != rtl.busy) {
    lines(sc_line, rtl_line);
    report("ports", c, 0, "busy", std::to_string(port.busy), std::to_string(rtl.busy), 0, false, sc_line,
           rtl_line);
    return;
  }
  // The system top's busy (the core's or the queue's pending DRAM traffic): it decides
  // when a run ends, so a side that would stop early or late differs here first.
  if (port.system_busy != rtl.system_busy) {
    lines(sc_line, rtl_line);
    report("ports", c, 0, "system busy", std::to_string(port.system_busy), std::to_string(rtl.system_busy), 0,
           false, sc_line, rtl_line);
    return;
  }
  // All four every cycle, not only once fault is up: the board's status reply
  // (fpga/host_link.v) sends fault_thread and fault_pc whatever fault says, so their
  // values before a fault (the reset values) are outputs a user sees too.
  if (port.fault != rtl.fault || port.fault_thread != rtl.fault_thread || port.fault_pc != rtl.fault_pc ||
      port.fault_cause != rtl.fault_cause) {
    const auto text = [](const CycleSample& s) {
      return std::to_string(s.fault) + " thread " + std::to_string(s.fault_thread) + " pc " +
             hex8(s.fault_pc) + " cause " + fault_name(Fault(s.fault_cause));
    };
    lines(sc_line, rtl_line);
    report("ports", c, rtl.fault_thread, "fault", text(port), text(rtl), rtl.fault_pc, rtl.fault, sc_line,
           rtl_line);
    return;
  }

  // Agreed: keep the history, the per-thread records and the RTL's statistics.
  for (unsigned r = 0; r < scm::kEventRanks; ++r) {
    if (!sc.events[r]) continue;
    const scm::Event& e = *sc.events[r];
    ++events_;
    if (history_size_) {
      if (history_.size() < history_size_)
        history_.push_back(e);
      else
        history_[history_next_] = e;
      if (++history_next_ == history_size_) history_next_ = 0;
    }
    if (e.kind == scm::EventKind::Issue && e.thread < threads_) last_pc_[e.thread] = e.pc;
    record(sc_records_, e);
  }
  for (unsigned r = 0; r < 2; ++r)
    if (rtl.events[r]) record(rtl_records_, *rtl.events[r]);
  if (rtl.busy && rtl.events[0] && rtl.events[0]->thread < threads_) {
    const scm::Event& e = *rtl.events[0];
    ++rtl_stats_.cycles;
    if (e.kind == scm::EventKind::Issue)
      ++rtl_stats_.issued[e.thread];
    else
      ++rtl_stats_.bubbles[e.thread][unsigned(e.reason)];
  }
  ++compared_;
}

void Comparator::report(const std::string& stage, uint64_t cycle, uint32_t thread, const std::string& field,
                        const std::string& sc_value, const std::string& rtl_value, uint32_t pc, bool have_pc,
                        const std::string& sc_cycle, const std::string& rtl_cycle) {
  mismatch_.found = true;
  mismatch_.stage = stage;
  mismatch_.cycle = cycle;
  mismatch_.thread = thread;
  mismatch_.field = field;
  mismatch_.systemc = sc_value;
  mismatch_.rtl = rtl_value;
  std::string s = "cosim MISMATCH (" + stage + ") at cycle " + std::to_string(cycle) + ", thread " +
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
    s += "      " + scm::format_event(history_[(oldest + i) % history_.size()]) + "\n";
  if (!repro_.empty()) s += "  reproduce: " + repro_ + "\n";
  mismatch_.report = s;
}

void Comparator::fail(const std::string& stage, uint64_t cycle, uint32_t thread, const std::string& field,
                      const std::string& systemc, const std::string& rtl, const std::string& detail) {
  if (mismatch_.found) return;
  report(stage, cycle, thread, field, systemc, rtl, 0, false, "", "");
  if (!detail.empty()) mismatch_.report += "  " + detail + "\n";
}

}  // namespace umbra::cosim
