// memory_side (memory_side.h).
#include "memory_side.h"

#include <string>

namespace umbra::harness {

memory_side::memory_side(sc_module_name name, const Config& cfg, std::vector<umbra::HostWrite> writes,
                         const scm::MemoryFactory& make)
    : sc_module(name),
      model_(make ? make("model", cfg) : scm::make_memory("model", cfg)),
      writes_(std::move(writes)) {
  scm::memory_model& m = *model_;
  m.clk(clk);
  m.rst(rst);
  m.mem_req_valid(mem_req_valid);
  m.mem_req_ready(mem_req_ready);
  m.mem_req_op(mem_req_op);
  m.mem_req_addr(mem_req_addr);
  m.mem_req_data(mem_req_data);
  m.mem_req_cmp(mem_req_cmp);
  m.mem_req_tag(mem_req_tag);
  m.mem_req_mask(mem_req_mask);
  m.mem_req_line(mem_req_line);
  m.mem_resp_valid(mem_resp_valid);
  m.mem_resp_data(mem_resp_data);
  m.mem_resp_tag(mem_resp_tag);
  m.mem_resp_line(mem_resp_line);
  m.fault(fault);
  for (const umbra::HostWrite& w : writes_)
    if (w.addr % 4 || uint64_t(w.addr) + 4 > cfg.mem_bytes)
      throw std::invalid_argument("host write at " + std::to_string(w.addr) +
                                  " is misaligned or outside data memory");
  // Without host writes nothing here needs the clock: no process, so no wake-up per
  // edge (most runs have none).
  if (writes_.empty()) return;
  SC_METHOD(count_process);
  sensitive << clk.pos();
  dont_initialize();
  // A write at the end of cycle c lands after every request accepted in c (the memory
  // takes them at the rising edge that ends c) and before any accepted in c + 1.
  SC_METHOD(host_write);
  sensitive << clk.neg();
  dont_initialize();
}

void memory_side::count(bool rst, bool launch_valid) {
  if (rst) {
    cycle_ = 0;
    launched_ = false;
    return;
  }
  if (launch_valid && !launched_) {
    launched_ = true;
    launch_ = cycle_;
  }
  ++cycle_;
}

void memory_side::host_write() {
  if (!launched_ || cycle_ == 0) return;
  const uint64_t ended = cycle_ - 1;
  for (const umbra::HostWrite& w : writes_)
    if (launch_ + w.cycle == ended) model_->poke32(w.addr, w.value);
}

}  // namespace umbra::harness
