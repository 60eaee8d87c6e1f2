// core_monitor (core_monitor.h).
#include "core_monitor.h"

namespace umbra::cosim {

void core_monitor::edge(const scm::umbra_core::Inputs& in, const scm::umbra_core::PortValues& out,
                        const scm::umbra_system::Outputs& system, uint32_t fault_cause) {
  if (in.rst) {
    started_ = true;
    next_ = 0;
    return;
  }
  if (!started_) return;  // before the first reset nothing is defined
  CycleSample s;
  s.cycle = next_++;
  s.core = core_;
  // A request transfers in a cycle with valid and ready both high.
  if (out.mem_req_valid && in.mem_req_ready) {
    umbra::Event m;
    m.cycle = s.cycle;
    m.kind = umbra::EventKind::Mem;
    m.thread = out.mem_req_tag;
    m.op = uint8_t(out.mem_req_op);
    m.addr = out.mem_req_addr;
    m.data = out.mem_req_data;
    m.cmp = out.mem_req_cmp;
    // A line port's wline shows its mask and its line's fold, as the load/store unit's
    // event does; the mask names no word past the line, so the fold needs no line size.
    if (m.op == isa::kPortOpWline) {
      m.data = out.mem_req_mask;
      m.cmp = out.mem_req_line.fold(PortLine::kMaxWords, out.mem_req_mask);
    }
    s.events[rank(umbra::EventKind::Mem)] = m;
  }
  if (in.mem_resp_valid) {
    umbra::Event r;
    r.cycle = s.cycle;
    r.kind = umbra::EventKind::MemResp;
    r.thread = in.mem_resp_tag;
    r.value = in.mem_resp_data;
    s.events[rank(umbra::EventKind::MemResp)] = r;
  }
  s.busy = out.busy;
  s.fault = out.fault;
  s.system_busy = system.busy;
  s.system_fault = system.fault;
  s.fault_core = system.fault_core;
  s.fault_thread = system.fault_thread;
  s.fault_pc = system.fault_pc;
  if (s.fault) s.fault_cause = fault_cause;
  on_cycle_(s);
}

}  // namespace umbra::cosim
