// core_monitor (core_monitor.h).
#include "core_monitor.h"

#include <utility>

namespace umbra::cosim {

core_monitor::core_monitor(sc_module_name name, Callback on_cycle)
    : sc_module(name), on_cycle_(std::move(on_cycle)) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
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
