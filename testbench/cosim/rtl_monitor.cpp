// core_monitor (rtl_monitor.h).
#include "rtl_monitor.h"

#include <utility>

namespace umbra::cosim {

core_monitor::core_monitor(sc_module_name name, bool with_trace, Callback on_cycle)
    : sc_module(name), with_trace_(with_trace), on_cycle_(std::move(on_cycle)) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void core_monitor::tie_off_trace() {
  trace_issue_valid(zero_bit_);
  trace_regwrite_valid(zero_bit_);
  trace_protocol_error(zero_bit_);
  trace_cache_valid(zero_bit_);
  trace_wake_valid(zero_bit_);
  trace_issue_thread(zero_word_);
  trace_issue_pc(zero_word_);
  trace_issue_reason(zero_word_);
  trace_regwrite_thread(zero_word_);
  trace_regwrite_pc(zero_word_);
  trace_regwrite_reg(zero_word_);
  trace_regwrite_value(zero_word_);
  trace_fault_cause(zero_word_);
  trace_cache_thread(zero_word_);
  trace_cache_op(zero_word_);
  trace_cache_addr(zero_word_);
  trace_cache_outcome(zero_word_);
  trace_wake_thread(zero_word_);
  trace_dram_valid(zero_bit_);
  dram_req_op(zero_word_);
  dram_req_addr(zero_word_);
  dram_req_data(zero_word_);
  dram_req_cmp(zero_word_);
  dram_req_tag(zero_word_);
}

void core_monitor::tick() {
  if (rst.read()) {
    started_ = true;
    next_ = 0;
    return;
  }
  if (!started_) return;  // before the first reset nothing is defined
  CycleSample s;
  s.cycle = next_++;
  if (with_trace_) {
    scm::Event e;
    e.cycle = s.cycle;
    e.thread = trace_issue_thread.read();
    if (trace_issue_valid.read()) {
      e.kind = scm::EventKind::Issue;
      e.pc = trace_issue_pc.read();
    } else {
      e.kind = scm::EventKind::Bubble;
      e.reason = scm::BubbleReason(trace_issue_reason.read());
    }
    s.events[rank(scm::EventKind::Issue)] = e;
    if (trace_regwrite_valid.read()) {
      scm::Event w;
      w.cycle = s.cycle;
      w.kind = scm::EventKind::RegWrite;
      w.thread = trace_regwrite_thread.read();
      w.pc = trace_regwrite_pc.read();
      w.reg = uint8_t(trace_regwrite_reg.read());
      w.value = trace_regwrite_value.read();
      s.events[rank(scm::EventKind::RegWrite)] = w;
    }
    if (trace_cache_valid.read()) {
      scm::Event k;
      k.cycle = s.cycle;
      k.kind = scm::EventKind::Cache;
      k.thread = trace_cache_thread.read();
      k.op = uint8_t(trace_cache_op.read());
      k.addr = trace_cache_addr.read();
      k.value = trace_cache_outcome.read();
      s.events[rank(scm::EventKind::Cache)] = k;
    }
    if (trace_wake_valid.read()) {
      scm::Event k;
      k.cycle = s.cycle;
      k.kind = scm::EventKind::Wake;
      k.thread = trace_wake_thread.read();
      s.events[rank(scm::EventKind::Wake)] = k;
    }
    if (trace_dram_valid.read()) {
      scm::Event d;
      d.cycle = s.cycle;
      d.kind = scm::EventKind::Dram;
      d.thread = dram_req_tag.read();
      d.op = uint8_t(dram_req_op.read());
      d.addr = dram_req_addr.read();
      d.data = dram_req_data.read();
      d.cmp = dram_req_cmp.read();
      s.events[rank(scm::EventKind::Dram)] = d;
    }
    s.fault_cause = trace_fault_cause.read();
    s.protocol_error = trace_protocol_error.read();
  }
  // A request transfers in a cycle with valid and ready both high.
  if (mem_req_valid.read() && mem_req_ready.read()) {
    scm::Event m;
    m.cycle = s.cycle;
    m.kind = scm::EventKind::Mem;
    m.thread = mem_req_tag.read();
    m.op = uint8_t(mem_req_op.read());
    m.addr = mem_req_addr.read();
    m.data = mem_req_data.read();
    m.cmp = mem_req_cmp.read();
    s.events[rank(scm::EventKind::Mem)] = m;
  }
  if (mem_resp_valid.read()) {
    scm::Event r;
    r.cycle = s.cycle;
    r.kind = scm::EventKind::MemResp;
    r.thread = mem_resp_tag.read();
    r.value = mem_resp_data.read();
    s.events[rank(scm::EventKind::MemResp)] = r;
  }
  s.busy = busy.read();
  s.system_busy = system_busy.read();
  s.fault = fault.read();
  s.fault_thread = fault_thread.read();
  s.fault_pc = fault_pc.read();
  on_cycle_(s);
}

}  // namespace umbra::cosim
