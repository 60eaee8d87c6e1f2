// Data cache block (dcache.h).
#include "dcache.h"

#include <algorithm>

namespace umbra::scm {

dcache::dcache(sc_module_name name, const BlockParams& p)
    : sc_module(name),
      rb_valid(p.threads),
      rb_data(p.threads),
      p_(p),
      ways_(p.cache_ways),
      words_(p.cache_line_bytes / 4),
      sets_(p.cache_bytes / (p.cache_ways * p.cache_line_bytes)),  // 0: no cache
      line_bytes_(p.cache_line_bytes),
      tag_(size_t(sets_) * ways_, 0),
      valid_(size_t(sets_) * ways_, 0),
      data_(size_t(sets_) * ways_ * words_, 0),
      rr_(sets_, 0),
      fills_(p.threads),
      waits_(p.threads),
      atomic_owed_(p.threads, false),
      last_access_(p.threads),
      line_buf_(words_, 0) {}

bool dcache::line_valid(uint32_t addr, unsigned* way) const {
  if (!sets_) return false;
  const unsigned s = set_of(addr);
  for (unsigned w = 0; w < ways_; ++w)
    if (valid_[slot(s, w)] && tag_[slot(s, w)] == line_of(addr)) {
      if (way) *way = w;
      return true;
    }
  return false;
}

void dcache::protocol(const std::string& what) {
  if (protocol_error_.empty())
    protocol_error_ = "memory port protocol error in cycle " + std::to_string(clock.read()) + ": " + what;
}

void dcache::reset() {
  std::fill(valid_.begin(), valid_.end(), 0);
  std::fill(rr_.begin(), rr_.end(), 0u);
  std::fill(fills_.begin(), fills_.end(), Fill{});
  std::fill(waits_.begin(), waits_.end(), Wait{});
  std::fill(atomic_owed_.begin(), atomic_owed_.end(), false);
  recv_ = complete_ = false;
  c2_ = C2Reg{};
  for (auto& v : rb_valid) v.write(false);
  c2_push_valid.write(false);
}

void dcache::write_rb(unsigned thread, uint32_t value) {
  rb_valid[thread].write(true);
  rb_data[thread].write(value);
}

void dcache::invalidate_line(uint32_t line) {
  if (!sets_) return;
  const unsigned s = set_of(line);
  for (unsigned w = 0; w < ways_; ++w)
    if (tag_[slot(s, w)] == line) valid_[slot(s, w)] = 0;
}

void dcache::mark_no_alloc(uint32_t line, bool all) {
  for (Fill& f : fills_)
    if (f.valid && (all || f.line == line)) f.no_alloc = true;
}

// End of C2: the effects of the outcome computed at the end of C1.
void dcache::apply_c2() {
  if (inval_all.read()) {
    std::fill(valid_.begin(), valid_.end(), 0);
    mark_no_alloc(0, true);
  }
  if (!c2_.valid) return;
  const unsigned t = c2_.tag;
  if (t < last_access_.size()) last_access_[t] = Access{c2_.op, c2_.addr};
  const uint32_t line = line_of(c2_.addr);
  const isa::InstrInfo* in = isa::find_opcode(uint8_t(c2_.op));
  switch (c2_.outcome) {
    case CacheOutcome::Hit:
      ++hits_;
      write_rb(t, c2_.hit_word);
      break;
    case CacheOutcome::Merge:
      ++merges_;
      waits_[t] = Wait{true, c2_.merge_fill, offset_of(c2_.addr)};
      break;
    case CacheOutcome::Miss:
      ++misses_;
      // A misaligned load's fill is never merged into and never allocates; the
      // memory refuses it.  Without a cache no fill allocates, so none is merged into.
      fills_[t] = Fill{true, c2_.misaligned || !sets_, line};
      waits_[t] = Wait{true, t, offset_of(c2_.addr)};
      break;
    case CacheOutcome::None:
      if (in && (in->cls == isa::Class::Store || in->cls == isa::Class::Atomic)) {
        invalidate_line(line);
        mark_no_alloc(line, false);
        if (in->returns_data) atomic_owed_[t] = true;
      } else if (in && in->op == isa::Op::DINV) {
        invalidate_line(line);
        mark_no_alloc(line, false);
      } else if (in && in->op == isa::Op::DINVALL) {
        std::fill(valid_.begin(), valid_.end(), 0);
        mark_no_alloc(0, true);
      }
      break;  // dflush: its marker is in the FIFO
  }
  if (p_.events->enabled()) {
    Event e;
    e.cycle = clock.read();
    e.kind = EventKind::Cache;
    e.thread = t;
    e.op = uint8_t(c2_.op);
    e.addr = c2_.addr;
    e.value = uint32_t(c2_.outcome);
    p_.events->emit(e);
  }
}

// One response beat on the port: a fill's (its first beat picks the victim way) or a
// returning atomic's.  The completion itself waits for complete_fill(), after C2.
void dcache::beat(uint32_t tag, uint32_t data) {
  if (recv_ && tag != recv_fill_) {
    protocol("a beat for thread " + std::to_string(tag) + " in the middle of the fill of thread " +
             std::to_string(recv_fill_));
    return;
  }
  if (!recv_) {
    if (tag < p_.threads && fills_[tag].valid && !sets_) {
      recv_ = true;  // no cache: the one beat is the word, kept in the line buffer only
      recv_fill_ = tag;
      recv_beat_ = 0;
    } else if (tag < p_.threads && fills_[tag].valid) {
      // First beat: the lowest invalid way of the set, else the round-robin pointer.
      const unsigned s = set_of(fills_[tag].line);
      unsigned way = ways_;
      for (unsigned w = 0; w < ways_ && way == ways_; ++w)
        if (!valid_[slot(s, w)]) way = w;
      if (way == ways_) {
        way = rr_[s];
        rr_[s] = (rr_[s] + 1) % ways_;
      }
      recv_ = true;
      recv_fill_ = tag;
      recv_beat_ = 0;
      recv_way_ = way;
      tag_[slot(s, way)] = fills_[tag].line;
      valid_[slot(s, way)] = 0;
    } else if (tag < p_.threads && atomic_owed_[tag]) {
      atomic_owed_[tag] = false;
      write_rb(tag, data);
      return;
    } else {
      return;  // owed to nobody: the load/store unit reports it
    }
  }
  if (p_.cache_line_port) {  // the whole line in this one beat
    const PortLine& l = mem_resp_line.read();
    const size_t base = size_t(slot(set_of(fills_[recv_fill_].line), recv_way_)) * words_;
    for (unsigned i = 0; i < words_; ++i) data_[base + i] = line_buf_[i] = l.w[i];
    recv_beat_ = words_;
    complete_ = true;
    return;
  }
  if (sets_) data_[size_t(slot(set_of(fills_[recv_fill_].line), recv_way_)) * words_ + recv_beat_] = data;
  line_buf_[recv_beat_] = data;
  if (++recv_beat_ == words_) complete_ = true;
}

// End of the last beat: every thread waiting for the fill gets its word, the entries
// are freed and, unless the fill is no-allocate, the line becomes valid.
void dcache::complete_fill() {
  const unsigned p = recv_fill_;
  for (unsigned t = 0; t < p_.threads; ++t)
    if (waits_[t].valid && waits_[t].fill == p) {
      write_rb(t, line_buf_[waits_[t].offset]);
      waits_[t].valid = false;
    }
  if (!fills_[p].no_alloc) valid_[slot(set_of(fills_[p].line), recv_way_)] = 1;
  fills_[p].valid = false;
  recv_ = complete_ = false;
}

// End of C1: the outcome of the request entering C2, against the cache as it is now,
// which is the cache at the start of C2.
void dcache::compute_c1() {
  C2Reg next;
  bool push = false;
  if (x2_mem_valid.read() && x2_mem_op.read() == isa::kPortOpWline) {
    // execute's close of a combining buffer (the line port): straight to the load/store
    // unit at the end of C2; nothing in the cache, no cache event.
    push = true;
    c2_push_op.write(isa::kPortOpWline);
    c2_push_addr.write(x2_mem_addr.read());
    c2_push_data.write(0);
    c2_push_cmp.write(0);
    c2_push_tag.write(x2_mem_tag.read());
  } else if (x2_mem_valid.read()) {
    next.valid = true;
    next.op = x2_mem_op.read();
    next.addr = x2_mem_addr.read();
    next.tag = x2_mem_tag.read();
    const isa::InstrInfo* in = isa::find_opcode(uint8_t(next.op));
    uint32_t push_addr = next.addr, push_data = x2_mem_data.read(), push_cmp = x2_mem_cmp.read();
    uint32_t push_op = next.op;
    if (in && in->cls == isa::Class::Load) {
      const uint32_t line = line_of(next.addr);
      unsigned way = 0;
      next.misaligned = (next.addr & 3u) != 0;
      if (!next.misaligned && line_valid(next.addr, &way)) {
        next.outcome = CacheOutcome::Hit;
        next.hit_word = data_[size_t(slot(set_of(line), way)) * words_ + offset_of(next.addr)];
      } else {
        bool merged = false;
        for (unsigned f = 0; f < p_.threads && !merged && !next.misaligned; ++f)
          if (fills_[f].valid && !fills_[f].no_alloc && fills_[f].line == line) {
            merged = true;
            next.merge_fill = f;
          }
        if (merged) {
          next.outcome = CacheOutcome::Merge;
        } else {
          next.outcome = CacheOutcome::Miss;
          push = true;
          push_op = isa::kPortOpFill;
          push_addr = next.misaligned ? next.addr : line;
          push_data = push_cmp = 0;
        }
      }
    } else if (in &&
               (in->cls == isa::Class::Store || in->cls == isa::Class::Atomic || in->op == isa::Op::DFLUSH)) {
      push = true;
    }
    if (push) {
      c2_push_op.write(push_op);
      c2_push_addr.write(push_addr);
      c2_push_data.write(push_data);
      c2_push_cmp.write(push_cmp);
      c2_push_tag.write(next.tag);
    }
  }
  c2_push_valid.write(push);
  c2_ = next;
}

void dcache::tick() {
  if (rst.read()) {
    reset();
    return;
  }
  // Writeback took a buffer in the previous cycle.
  if (wake_valid.read()) {
    const unsigned t = wake_thread.read();
    rb_valid[t].write(false);
    if (p_.events->enabled()) {
      Event e;
      e.cycle = clock.read();
      e.kind = EventKind::Wake;
      e.thread = t;
      p_.events->emit(e);
    }
  }
  if (mem_resp_valid.read()) beat(mem_resp_tag.read(), mem_resp_data.read());
  apply_c2();
  if (complete_) complete_fill();
  if (lsu_flush_valid.read()) write_rb(lsu_flush_thread.read(), 0);
  compute_c1();
}

}  // namespace umbra::scm
