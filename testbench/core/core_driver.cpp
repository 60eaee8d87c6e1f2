// The bare Verilated core on the fixed-latency memory (core_driver.h).
#include "core_driver.h"

#include <algorithm>

namespace corebench {

CoreDriver::CoreDriver(unsigned latency) : latency_(latency), mem_(kMemBytes, latency, kLineBytes) {
  ctx_ = std::make_unique<VerilatedContext>();
  top_ = std::make_unique<Vumbra_core>(ctx_.get());
  top_->clk = 0;
  top_->rst = 1;
  top_->mem_req_ready = 1;
  top_->ncore = 1;
  for (int i = 0; i < 3; ++i) step(nullptr);
  top_->rst = 0;
  cycle_ = 0;  // the first cycle after reset is cycle 0 (`clock` agrees)
  mem_.reset();
  beat_ = {};
}

void CoreDriver::load(const umbra::Program& p) {
  const uint32_t base = p.text_base / 4;
  for (size_t i = 0; i < p.text.size(); ++i) write_imem(base + uint32_t(i), p.text[i]);
  mem_.load(p.data_base, p.data);
}

void CoreDriver::write_imem(uint32_t index, uint32_t word) {
  top_->host_imem_we = 1;
  top_->host_imem_addr = index;
  top_->host_imem_data = word;
  step(nullptr);
  top_->host_imem_we = 0;
}

CoreTrace CoreDriver::run(unsigned n, uint32_t entry, uint64_t max_cycles, bool stop_on_fault) {
  CoreTrace r;
  while (cycle_ % kThreads != kThreads - 1) step(nullptr);
  top_->launch_valid = 1;
  top_->launch_count = n;
  top_->launch_entry = entry;
  top_->launch_lx0 = 0;  // the core alone is the whole domain
  top_->launch_domw = n;
  r.launch_cycle = cycle_;
  step(&r);
  top_->launch_valid = 0;
  uint64_t after = 0;
  while (cycle_ - r.launch_cycle < max_cycles) {
    step(&r);
    if (r.finished && ++after > 2 * kThreads + kDepth) break;
    if (r.fault && stop_on_fault && cycle_ > r.fault_cycle + 2 * kDepth) break;
    if (!r.mem_fault.empty() && !r.finished && cycle_ > 64 + r.launch_cycle + latency_ * 4 && stop_on_fault)
      break;
  }
  return r;
}

void CoreDriver::reset(unsigned cycles) {
  top_->launch_valid = 0;
  top_->host_imem_we = 0;
  top_->rst = 1;
  for (unsigned i = 0; i < cycles; ++i) step(nullptr);
  top_->rst = 0;
  cycle_ = 0;
  mem_.reset();
  beat_ = {};
}

CoreTrace CoreDriver::observe(uint64_t cycles) {
  CoreTrace r;
  r.launch_cycle = cycle_;
  for (uint64_t i = 0; i < cycles; ++i) step(&r);
  return r;
}

void CoreDriver::step(CoreTrace* r) {
  top_->mem_resp_valid = beat_.valid;
  top_->mem_resp_data = beat_.valid ? beat_.data : 0;
  top_->mem_resp_tag = beat_.valid ? beat_.tag : 0;
  top_->clk = 0;
  top_->mem_req_ready = 1;
  top_->eval();
  // mem_req_op is a register: the readiness that depends on it settles in one more
  // evaluation.
  if (top_->mem_req_valid && !mem_.ready(top_->mem_req_op)) {
    top_->mem_req_ready = 0;
    top_->eval();
  }

  if (r) {
    r->issues.push_back({cycle_, top_->trace_issue_thread, bool(top_->trace_issue_valid),
                         top_->trace_issue_pc, top_->trace_issue_reason});
    if (top_->trace_regwrite_valid)
      r->writes.push_back({cycle_, top_->trace_regwrite_thread, top_->trace_regwrite_pc,
                           top_->trace_regwrite_reg, top_->trace_regwrite_value});
    if (beat_.valid) r->resps.push_back({cycle_, beat_.tag, beat_.data});
    if (top_->mem_req_valid && top_->mem_req_ready) {
      const MemReq q{
          cycle_,           top_->mem_req_op, top_->mem_req_tag, top_->mem_req_addr, top_->mem_req_data,
          top_->mem_req_cmp};
      r->reqs.push_back(q);
      mem_.accept({q.op, q.addr, q.data, q.cmp, q.tag, 0, {}});  // a word port: no wline
      if (mem_.first_fault().raised && r->mem_fault.empty())
        r->mem_fault = "memory refused: " + mem_.first_fault().detail;
    }
    if (top_->fault && !r->fault) {
      r->fault = true;
      r->fault_cycle = cycle_;
      r->fault_thread = top_->fault_thread;
      r->fault_pc = top_->fault_pc;
      r->fault_cause = top_->trace_fault_cause;
    } else if (r->fault && !r->fault_dropped &&
               (!top_->fault || top_->fault_thread != r->fault_thread || top_->fault_pc != r->fault_pc ||
                top_->trace_fault_cause != r->fault_cause)) {
      r->fault_dropped = cycle_;
    }
    if (top_->trace_protocol_error) r->protocol_error = true;
    if (top_->busy) ++r->busy_cycles;
    if (!top_->busy && cycle_ > r->launch_cycle && !r->finished) {
      r->finished = true;
      r->busy_fell = cycle_;
    }
  }
  beat_ = mem_.advance();

  top_->clk = 1;
  top_->eval();
  ++cycle_;
}

}  // namespace corebench
