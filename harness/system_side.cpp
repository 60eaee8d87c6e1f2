// SystemcSide (system_side.h).
#include "system_side.h"

#include <utility>

namespace umbra::harness {

SystemcSide::SystemcSide(const char* name, const Config& cfg, unsigned core_id,
                         std::vector<umbra::HostWrite> writes, uint32_t ncore)
    : sys(name, cfg, core_id), memory((std::string(name) + "_memory").c_str(), cfg, std::move(writes)) {
  sys.bind_plain();
  scm::umbra_system::Inputs& in = sys.inputs();
  in.bypass_queue = !cfg.queue_enabled;
  in.ncore = ncore;
  apply(harness::HostScript::Outputs{});
}

EdgeInputs SystemcSide::before_edge() const {
  const scm::umbra_system::Outputs o = sys.outputs();
  const scm::umbra_system::Inputs& in = sys.inputs();
  return {o.busy,
          o.fault || o.cmd_fault != 0,
          memory.model().first_fault().raised,
          in.rst,
          in.launch_valid || in.domain_valid || in.doorbell_valid,
          {o.mem_req_valid, o.mem_req_op, o.mem_req_addr, o.mem_req_data, o.mem_req_cmp, o.mem_req_tag,
           o.mem_req_mask, o.mem_req_line}};
}

void SystemcSide::edge(const EdgeInputs& e) {
  sys.edge();
  memory.edge(e.rst, e.launch_valid, e.req);
}

void SystemcSide::after_edge(const harness::HostScript::Outputs& host) {
  memory.end_of_cycle();
  apply(host);
}

// The system's outputs are all registered, so one pass settles a cycle: the memory's
// ready follows the system's request op, and the system routes it to the core.
void SystemcSide::apply(const harness::HostScript::Outputs& h) {
  scm::umbra_system::Inputs& in = sys.inputs();
  const scm::memory_model& mem = memory.model();
  const scm::memory_model::Response r = mem.response();
  in.rst = h.rst;
  in.host_imem_we = h.imem_we;
  in.host_imem_addr = h.imem_addr;
  in.host_imem_data = h.imem_data;
  in.launch_valid = h.launch_valid;
  in.launch_count = h.launch_count;
  in.launch_entry = h.launch_entry;
  in.domain_valid = h.domain_valid;
  in.domain_w = h.domain_w;
  in.domain_h = h.domain_h;
  in.doorbell_valid = h.doorbell_valid;
  in.doorbell_addr = h.doorbell_addr;
  in.mem_resp_valid = r.valid;
  in.mem_resp_data = r.data;
  in.mem_resp_tag = r.tag;
  in.mem_resp_line = r.line;
  in.mem_req_ready = mem.ready(sys.outputs().mem_req_op);
  sys.settle();
}

}  // namespace umbra::harness
