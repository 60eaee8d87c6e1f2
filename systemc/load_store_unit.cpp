// Load/store unit block (load_store_unit.h).
#include "load_store_unit.h"

#include <algorithm>

namespace umbra::scm {

load_store_unit::load_store_unit(sc_module_name name, const BlockParams& p)
    : sc_module(name),
      rb_valid("rb_valid", p.threads),
      rb_data("rb_data", p.threads),
      p_(p),
      rb_full_(p.threads) {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  // The pass-through: `assign mem_req_* = x2_mem_*` in the RTL.
  SC_METHOD(pass_request);
  sensitive << x2_mem_valid << x2_mem_op << x2_mem_addr << x2_mem_data << x2_mem_cmp << x2_mem_tag;
}

void load_store_unit::pass_request() {
  mem_req_valid.write(x2_mem_valid.read());
  mem_req_op.write(x2_mem_op.read());
  mem_req_addr.write(x2_mem_addr.read());
  mem_req_data.write(x2_mem_data.read());
  mem_req_cmp.write(x2_mem_cmp.read());
  mem_req_tag.write(x2_mem_tag.read());
}

void load_store_unit::protocol(const std::string& what) {
  if (protocol_error_.empty())
    protocol_error_ = "memory port protocol error in cycle " + std::to_string(clock.read()) + ": " + what;
}

void load_store_unit::tick() {
  if (rst.read()) {
    std::fill(rb_full_.begin(), rb_full_.end(), false);
    for (auto& v : rb_valid) v.write(false);
    outstanding_ = 0;
    lsu_busy.write(false);
    return;
  }
  const uint64_t now = clock.read();
  EventOrder& events = *p_.events;

  // Writeback consumed a buffer in the previous cycle.
  if (wake_valid.read()) {
    const unsigned t = wake_thread.read();
    rb_full_[t] = false;
    rb_valid[t].write(false);
  }

  // A request transfers when valid and ready are both high.
  if (x2_mem_valid.read()) {
    const uint32_t op = x2_mem_op.read();
    if (!mem_req_ready.read()) {
      protocol("mem_req_ready was low for a request (thread " + std::to_string(x2_mem_tag.read()) +
               "); this core version has no request queue");
    } else {
      const isa::InstrInfo* in = isa::find_opcode(uint8_t(op));
      if (in && returns_data(*in)) ++outstanding_;
      if (events.enabled()) {
        Event e;
        e.cycle = now;
        e.kind = EventKind::Mem;
        e.thread = x2_mem_tag.read();
        e.op = uint8_t(op);
        e.addr = x2_mem_addr.read();
        e.data = x2_mem_data.read();
        e.cmp = x2_mem_cmp.read();
        events.emit(e);
      }
    }
  }

  // A response is in its thread's buffer from the next cycle.
  if (mem_resp_valid.read()) {
    const uint32_t t = mem_resp_tag.read();
    const uint32_t data = mem_resp_data.read();
    if (t >= p_.threads) {
      protocol("response tag " + std::to_string(t) + " names no thread");
    } else if (rb_full_[t] || outstanding_ == 0) {
      protocol("response for thread " + std::to_string(t) + " that has no request outstanding");
    } else {
      --outstanding_;
      rb_full_[t] = true;
      rb_valid[t].write(true);
      rb_data[t].write(data);
    }
    if (events.enabled()) {
      Event e;
      e.cycle = now;
      e.kind = EventKind::MemResp;
      e.thread = t;
      e.value = data;
      events.emit(e);
    }
  }
  lsu_busy.write(outstanding_ > 0);
}

}  // namespace umbra::scm
