// memory_side (memory_side.h).
#include "memory_side.h"

namespace umbra::tb {

memory_side::memory_side(sc_module_name name, const Config& cfg, std::vector<scm::HostWrite> writes)
    : sc_module(name), writes_(std::move(writes)) {
  if (cfg.mem_model == "dram") {
    dram_ = std::make_unique<dram>("dram", cfg, cfg.mem_bytes);
    dram_->clk(clk);
    dram_->rst(rst);
    dram_->dram_req_valid(mem_req_valid);
    dram_->dram_req_ready(mem_req_ready);
    dram_->dram_req_op(mem_req_op);
    dram_->dram_req_addr(mem_req_addr);
    dram_->dram_req_data(mem_req_data);
    dram_->dram_req_cmp(mem_req_cmp);
    dram_->dram_req_tag(mem_req_tag);
    dram_->dram_resp_valid(mem_resp_valid);
    dram_->dram_resp_data(mem_resp_data);
    dram_->dram_resp_tag(mem_resp_tag);
    dram_->fault(fault);
  } else if (cfg.mem_model == "fixed") {
    fixed_ = std::make_unique<fixed_memory>("fixed", cfg.mem_bytes, cfg.mem_latency, cfg.cache_line_bytes);
    fixed_->clk(clk);
    fixed_->rst(rst);
    fixed_->mem_req_valid(mem_req_valid);
    fixed_->mem_req_ready(mem_req_ready);
    fixed_->mem_req_op(mem_req_op);
    fixed_->mem_req_addr(mem_req_addr);
    fixed_->mem_req_data(mem_req_data);
    fixed_->mem_req_cmp(mem_req_cmp);
    fixed_->mem_req_tag(mem_req_tag);
    fixed_->mem_resp_valid(mem_resp_valid);
    fixed_->mem_resp_data(mem_resp_data);
    fixed_->mem_resp_tag(mem_resp_tag);
    fixed_->fault(fault);
  } else {
    throw std::invalid_argument("memory.model '" + cfg.mem_model + "' is neither dram nor fixed");
  }
  for (const scm::HostWrite& w : writes_)
    if (w.addr % 4 || uint64_t(w.addr) + 4 > cfg.mem_bytes)
      throw std::invalid_argument("host write at " + std::to_string(w.addr) +
                                  " is misaligned or outside data memory");
  bypass_queue.initialize(!dram_);
  SC_METHOD(count);
  sensitive << clk.pos();
  dont_initialize();
  // A write at the end of cycle c lands after every request accepted in c (the memory
  // takes them at the rising edge that ends c) and before any accepted in c + 1.
  SC_METHOD(host_write);
  sensitive << clk.neg();
  dont_initialize();
}

void memory_side::count() {
  if (rst.read()) {
    cycle_ = 0;
    launched_ = false;
    return;
  }
  if (launch_valid.read() && !launched_) {
    launched_ = true;
    launch_ = cycle_;
  }
  ++cycle_;
}

void memory_side::host_write() {
  if (!launched_ || cycle_ == 0) return;
  const uint64_t ended = cycle_ - 1;
  for (const scm::HostWrite& w : writes_)
    if (launch_ + w.cycle == ended) poke32(w.addr, w.value);
}

void memory_side::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (dram_)
    dram_->load(addr, bytes);
  else
    fixed_->load(addr, bytes);
}

void memory_side::poke32(uint32_t addr, uint32_t value) {
  if (dram_)
    dram_->poke32(addr, value);
  else
    fixed_->poke32(addr, value);
}

const std::vector<uint8_t>& memory_side::bytes() const {
  return dram_ ? dram_->bytes() : fixed_->bytes();
}

const MemFault& memory_side::first_fault() const {
  return dram_ ? dram_->first_fault() : fixed_->first_fault();
}

void memory_side::add_stats(scm::MemoryStats& m) const {
  if (!dram_) return;
  const DramStats& d = dram_->stats();
  m.dram = true;
  m.dram_cycles = d.cycles;
  m.row_hits = d.row_hits;
  m.row_misses = d.row_misses;
  m.row_conflicts = d.row_conflicts;
  m.bus_busy_cycles = d.bus_busy_cycles;
  m.dram_requests = d.requests;
  m.dram_bytes = d.bytes;
}

}  // namespace umbra::tb
