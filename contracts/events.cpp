// Event names, text form and the per-cycle ordering of events (events.h).
#include "events.h"

#include <cinttypes>
#include <stdexcept>

namespace umbra::scm {

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::Issue: return "issue";
    case EventKind::Bubble: return "bubble";
    case EventKind::RegWrite: return "regwrite";
    case EventKind::Mem: return "mem";
    case EventKind::MemResp: return "memresp";
    case EventKind::Cache: return "cache";
    case EventKind::Wake: return "wake";
    case EventKind::Dram: return "dram";
  }
  return "?";
}

const char* cache_outcome_name(CacheOutcome o) {
  switch (o) {
    case CacheOutcome::None: return "none";
    case CacheOutcome::Hit: return "hit";
    case CacheOutcome::Miss: return "miss";
    case CacheOutcome::Merge: return "merge";
  }
  return "?";
}

const char* bubble_reason_name(BubbleReason r) {
  switch (r) {
    case BubbleReason::Idle: return "idle";
    case BubbleReason::Memory: return "memory";
    case BubbleReason::Exited: return "exited";
  }
  return "?";
}

bool Event::operator==(const Event& o) const {
  return cycle == o.cycle && kind == o.kind && reason == o.reason && reg == o.reg && op == o.op &&
         thread == o.thread && pc == o.pc && value == o.value && addr == o.addr && data == o.data &&
         cmp == o.cmp;
}

std::string format_event(const Event& e) {
  char buf[160];
  const unsigned long long c = e.cycle;
  switch (e.kind) {
    case EventKind::Issue:
      std::snprintf(buf, sizeof buf, "%llu issue t%u pc=0x%08x", c, e.thread, e.pc);
      break;
    case EventKind::Bubble:
      std::snprintf(buf, sizeof buf, "%llu bubble t%u %s", c, e.thread, bubble_reason_name(e.reason));
      break;
    case EventKind::RegWrite:
      std::snprintf(buf, sizeof buf, "%llu regwrite t%u pc=0x%08x r%u=0x%08x", c, e.thread, e.pc,
                    unsigned(e.reg), e.value);
      break;
    case EventKind::Mem:
      std::snprintf(buf, sizeof buf, "%llu mem t%u op=0x%02x addr=0x%08x data=0x%08x cmp=0x%08x", c, e.thread,
                    unsigned(e.op), e.addr, e.data, e.cmp);
      break;
    case EventKind::MemResp:
      std::snprintf(buf, sizeof buf, "%llu memresp t%u data=0x%08x", c, e.thread, e.value);
      break;
    case EventKind::Cache:
      std::snprintf(buf, sizeof buf, "%llu cache t%u op=0x%02x addr=0x%08x %s", c, e.thread, unsigned(e.op),
                    e.addr, e.value < 4 ? cache_outcome_name(CacheOutcome(e.value)) : "?");
      break;
    case EventKind::Wake: std::snprintf(buf, sizeof buf, "%llu wake t%u", c, e.thread); break;
    case EventKind::Dram:
      std::snprintf(buf, sizeof buf, "%llu dram tag=0x%04x op=0x%02x addr=0x%08x data=0x%08x cmp=0x%08x", c,
                    e.thread, unsigned(e.op), e.addr, e.data, e.cmp);
      break;
  }
  return buf;
}

void TextEventSink::on_event(const Event& e) {
  std::fputs(format_event(e).c_str(), out_);
  std::fputc('\n', out_);
}

unsigned EventOrder::rank(EventKind k) {
  // Issue and Bubble share a place; every later kind follows in enum order.
  return k == EventKind::Issue ? 0 : unsigned(k) - 1;
}

void EventOrder::emit(const Event& e) {
  if (!sink_) return;
  if (e.cycle != cycle_) {
    flush();
    cycle_ = e.cycle;
  }
  const unsigned r = rank(e.kind);
  // Two events of one kind in one cycle would mean two fetches or two writebacks in a
  // cycle: a bug in the model, not something a program can cause.
  if (has_[r])
    throw std::logic_error("umbra SystemC model: two " + std::string(event_kind_name(e.kind)) +
                           " events in cycle " + std::to_string(e.cycle));
  pending_[r] = e;
  has_[r] = true;
}

void EventOrder::flush() {
  if (!sink_) return;
  for (unsigned r = 0; r < pending_.size(); ++r)
    if (has_[r]) {
      has_[r] = false;
      sink_->on_event(pending_[r]);
    }
}

uint64_t CoreStats::total_issued() const {
  uint64_t n = 0;
  for (uint64_t i : issued) n += i;
  return n;
}

uint64_t CoreStats::total_bubbles(BubbleReason r) const {
  uint64_t n = 0;
  for (const auto& b : bubbles) n += b[unsigned(r)];
  return n;
}

void LatencyHistogram::add(uint64_t latency) {
  ++count;
  sum += latency;
  if (latency > max) max = latency;
  const size_t b = size_t(latency / (bucket_width ? bucket_width : 1));
  if (b >= buckets.size()) buckets.resize(b + 1, 0);
  ++buckets[b];
}

uint64_t MemStats::total_replays() const {
  uint64_t n = 0;
  for (uint64_t r : replays) n += r;
  return n;
}

}  // namespace umbra::scm
