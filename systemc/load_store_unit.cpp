// Load/store unit block (load_store_unit.h).
#include "load_store_unit.h"

#include <stdexcept>

namespace umbra::scm {

load_store_unit::load_store_unit(sc_module_name name, const BlockParams& p)
    : sc_module(name), p_(p), fifo_(p.cache_request_queue) {}

void load_store_unit::protocol(const std::string& what) {
  if (protocol_error_.empty())
    protocol_error_ = "memory port protocol error in cycle " + std::to_string(clock.read()) + ": " + what;
}

unsigned load_store_unit::beats_for(uint32_t op) const {
  if (op == isa::kPortOpFill) return p_.cache_line_bytes / 4;
  const isa::InstrInfo* in = isa::find_opcode(uint8_t(op));
  return in && in->returns_data ? 1 : 0;
}

// The registered outputs for the next cycle: the head and the room.
void load_store_unit::drive_head() {
  const Entry* h = count_ ? &fifo_[head_] : nullptr;
  mem_req_valid.write(h && !h->marker);
  lsu_flush_valid.write(h && h->marker);
  if (h) {
    mem_req_op.write(h->op);
    mem_req_addr.write(h->addr);
    mem_req_data.write(h->data);
    mem_req_cmp.write(h->cmp);
    mem_req_tag.write(h->tag);
    lsu_flush_thread.write(h->tag);
  }
  lsu_room.write(count_ + 3 <= p_.cache_request_queue);
  lsu_busy.write(count_ > 0 || owed_ > 0);
}

void load_store_unit::tick() {
  if (rst.read()) {
    head_ = count_ = 0;
    owed_ = 0;
    drive_head();
    return;
  }
  const uint64_t now = clock.read();
  EventOrder& events = *p_.events;

  // The head of this cycle leaves: a marker always, a request when ready is high.
  if (count_) {
    const Entry& h = fifo_[head_];
    bool leaves = h.marker;
    if (!h.marker && mem_req_ready.read()) {
      leaves = true;
      owed_ += beats_for(h.op);
      if (events.enabled()) {
        Event e;
        e.cycle = now;
        e.kind = EventKind::Mem;
        e.thread = h.tag;
        e.op = uint8_t(h.op);
        e.addr = h.addr;
        e.data = h.data;
        e.cmp = h.cmp;
        events.emit(e);
      }
    }
    if (leaves) {
      head_ = (head_ + 1) % fifo_.size();
      --count_;
    }
  }

  if (mem_resp_valid.read()) {
    const uint32_t t = mem_resp_tag.read();
    if (t >= p_.threads)
      protocol("response tag " + std::to_string(t) + " names no thread");
    else if (owed_ == 0)
      protocol("response for thread " + std::to_string(t) + " while no response is owed");
    else
      --owed_;
    if (events.enabled()) {
      Event e;
      e.cycle = now;
      e.kind = EventKind::MemResp;
      e.thread = t;
      e.value = mem_resp_data.read();
      events.emit(e);
    }
  }

  // The push at the end of C2.  lsu_room makes an overflow impossible, so one is a
  // bug in the model.
  if (c2_push_valid.read()) {
    if (count_ == fifo_.size())
      throw std::logic_error("umbra SystemC model: request FIFO overflow in cycle " + std::to_string(now));
    Entry& e = fifo_[(head_ + count_) % fifo_.size()];
    e.op = c2_push_op.read();
    e.marker = e.op == isa::info(isa::Op::DFLUSH).opcode;
    e.addr = c2_push_addr.read();
    e.data = c2_push_data.read();
    e.cmp = c2_push_cmp.read();
    e.tag = c2_push_tag.read();
    ++count_;
  }
  drive_head();
}

}  // namespace umbra::scm
