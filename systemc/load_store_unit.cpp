// Load/store unit block (load_store_unit.h).
#include "load_store_unit.h"

#include <stdexcept>

namespace umbra::scm {

load_store_unit::load_store_unit(sc_module_name name, const BlockParams& p)
    : sc_module(name), p_(p), fifo_(p.cache_request_queue), wc_(p.cache_line_port ? p.threads : 0) {}

void load_store_unit::protocol(const std::string& what) {
  if (protocol_error_.empty())
    protocol_error_ = "memory port protocol error in cycle " + std::to_string(clock.read()) + ": " + what;
}

unsigned load_store_unit::beats_for(uint32_t op) const {
  if (op == isa::kPortOpFill) return p_.cache_line_port ? 1 : p_.cache_line_bytes / 4;
  if (op == isa::kPortOpWline) return 0;
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
    mem_req_mask.write(h->mask);
    mem_req_line.write(h->line);
    lsu_flush_thread.write(h->tag);
  }
  lsu_room.write(count_ + 3 <= p_.cache_request_queue);
  lsu_busy.write(count_ > 0 || owed_ > 0 || buffered_ > 0);
}

unsigned load_store_unit::buffer_holder(uint32_t line) const {
  for (unsigned u = 0; u < wc_.size(); ++u)
    if (wc_[u].valid && wc_[u].line == line) return u;
  return p_.threads;
}

unsigned load_store_unit::buffer_of_writer(unsigned t) const {
  for (unsigned u = 0; u < wc_.size(); ++u)
    if (wc_[u].valid && wc_[u].has(t)) return u;
  return p_.threads;
}

// A push at the end of C2.  lsu_room makes an overflow impossible, so one is a bug in
// the model.
void load_store_unit::push(const Entry& e, uint64_t now) {
  if (count_ == fifo_.size())
    throw std::logic_error("umbra SystemC model: request FIFO overflow in cycle " + std::to_string(now));
  fifo_[(head_ + count_) % fifo_.size()] = e;
  ++count_;
}

// Thread t's combining buffer into the FIFO as a wline.
void load_store_unit::push_buffer(unsigned t, uint64_t now) {
  Combining& b = wc_[t];
  Entry e;
  e.op = isa::kPortOpWline;
  e.addr = b.line;
  e.tag = t;
  e.mask = b.mask;
  e.line = b.words;
  push(e, now);
  b.valid = false;
  --buffered_;
}

void load_store_unit::tick() {
  if (rst.read()) {
    head_ = count_ = 0;
    owed_ = 0;
    std::fill(wc_.begin(), wc_.end(), Combining{});
    buffered_ = 0;
    drive_head();
    return;
  }
  const uint64_t now = clock.read();
  EventOrder& events = *p_.events;
  const unsigned words = p_.cache_line_bytes / 4;
  const bool fifo_was_empty = count_ == 0;

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
        if (h.op == isa::kPortOpWline) {
          e.data = h.mask;
          e.cmp = h.line.fold(words, h.mask);
        }
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
      if (p_.cache_line_port) e.data = mem_resp_line.read().fold(words);  // all zero for a word beat
      events.emit(e);
    }
  }

  // The push at the end of C2.  lsu_room makes an overflow impossible, so one is a
  // bug in the model.
  if (c2_push_valid.read()) {
    const uint32_t op = c2_push_op.read(), addr = c2_push_addr.read(), t = c2_push_tag.read();
    const uint32_t line = addr & ~(p_.cache_line_bytes - 1);
    const unsigned off = (addr / 4) & (words - 1);
    if (p_.cache_line_port && op == isa::kPortOpWline) {
      // execute's close of thread t's buffer (it may have left already, below).
      if (t < wc_.size() && wc_[t].valid) push_buffer(t, now);
    } else if (p_.cache_line_port && op == isa::info(isa::Op::STW).opcode && (addr & 3u) == 0) {
      // Its own buffer if that holds the line, else whichever holds it (at most one
      // does), else its own, anew (what it held goes to the FIFO: X1 saw room).
      const unsigned holder = wc_[t].valid && wc_[t].line == line ? t : buffer_holder(line);
      if (holder < wc_.size()) {
        ++combined_;
      } else {
        if (wc_[t].valid) push_buffer(t, now);
        wc_[t] = Combining{true, line, 0, PortLine{}, {}};
        ++buffered_;
      }
      Combining& b = wc_[holder < wc_.size() ? holder : t];
      b.mask |= 1u << off;
      b.words.w[off] = c2_push_data.read();
      b.writers[t / 64] |= uint64_t(1) << (t % 64);
    } else {
      Entry e;
      e.op = op;
      e.marker = op == isa::info(isa::Op::DFLUSH).opcode;
      e.addr = addr;
      e.data = c2_push_data.read();
      e.cmp = c2_push_cmp.read();
      e.tag = t;
      push(e, now);
    }
  } else if (buffered_ && fifo_was_empty) {
    // The port idles: the lowest-numbered thread's buffer goes.
    for (unsigned t = 0; t < wc_.size(); ++t)
      if (wc_[t].valid) {
        push_buffer(t, now);
        break;
      }
  }
  drive_head();
}

}  // namespace umbra::scm
