// Event names, text form and the per-cycle ordering of events (events.h).
#include "events.h"

#include <algorithm>
#include <cinttypes>
#include <stdexcept>

#include "run_result.h"
#include "umbra/commands_gen.h"

namespace umbra {

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
    case EventKind::Start: return "start";
    case EventKind::Command: return "command";
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
         core == o.core && thread == o.thread && pc == o.pc && value == o.value && addr == o.addr &&
         data == o.data && cmp == o.cmp;
}

std::string thread_name(unsigned cores, unsigned core, unsigned thread) {
  return (cores > 1 ? "core " + std::to_string(core) + ", " : std::string()) + "thread " +
         std::to_string(thread);
}

std::string format_event(const Event& e) {
  char buf[176];
  char t[24];  // the thread, "t3" or "c1.t3"
  if (e.core)
    std::snprintf(t, sizeof t, "c%u.t%u", unsigned(e.core), e.thread);
  else
    std::snprintf(t, sizeof t, "t%u", e.thread);
  const unsigned long long c = e.cycle;
  switch (e.kind) {
    case EventKind::Issue: std::snprintf(buf, sizeof buf, "%llu issue %s pc=0x%08x", c, t, e.pc); break;
    case EventKind::Bubble:
      std::snprintf(buf, sizeof buf, "%llu bubble %s %s", c, t, bubble_reason_name(e.reason));
      break;
    case EventKind::RegWrite:
      std::snprintf(buf, sizeof buf, "%llu regwrite %s pc=0x%08x r%u=0x%08x", c, t, e.pc, unsigned(e.reg),
                    e.value);
      break;
    case EventKind::Mem:
      std::snprintf(buf, sizeof buf, "%llu mem %s op=0x%02x addr=0x%08x data=0x%08x cmp=0x%08x", c, t,
                    unsigned(e.op), e.addr, e.data, e.cmp);
      break;
    case EventKind::MemResp:
      std::snprintf(buf, sizeof buf, "%llu memresp %s data=0x%08x", c, t, e.value);
      break;
    case EventKind::Cache:
      std::snprintf(buf, sizeof buf, "%llu cache %s op=0x%02x addr=0x%08x %s", c, t, unsigned(e.op), e.addr,
                    e.value < 4 ? cache_outcome_name(CacheOutcome(e.value)) : "?");
      break;
    case EventKind::Wake: std::snprintf(buf, sizeof buf, "%llu wake %s", c, t); break;
    case EventKind::Dram:
      std::snprintf(buf, sizeof buf, "%llu dram tag=0x%04x op=0x%02x addr=0x%08x data=0x%08x cmp=0x%08x", c,
                    e.thread, unsigned(e.op), e.addr, e.data, e.cmp);
      break;
    case EventKind::Start:
      std::snprintf(buf, sizeof buf, "%llu start %s lx=%u ly=%u", c, t, e.addr, e.data);
      break;
    case EventKind::Command: {
      const commands::CommandDef* def = commands::find(e.op);
      std::snprintf(buf, sizeof buf, "%llu command %s at=0x%08x", c, def ? def->name : "?", e.addr);
      break;
    }
  }
  return buf;
}

void TextEventSink::on_event(const Event& e) {
  if (stopped_) return;
  if (!limit_) {
    std::fputs(format_event(e).c_str(), out_);
    std::fputc('\n', out_);
    return;
  }
  if (e.cycle != cycle_) put();
  if (stopped_) return;
  cycle_ = e.cycle;
  held_ += format_event(e);
  held_ += '\n';
}

void TextEventSink::put() {
  if (held_.empty() || stopped_) return;
  if (written_ + held_.size() > limit_) {
    stopped_ = true;
    stopped_at_ = cycle_;
  } else {
    std::fwrite(held_.data(), 1, held_.size(), out_);
    written_ += held_.size();
  }
  held_.clear();
}

void TextEventSink::finish() {
  put();
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
  pending_[r].core = core_;
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

double CoreStats::core_ipc(unsigned c) const {
  const size_t per = issued.size() / cores();
  uint64_t n = 0;
  for (size_t t = c * per; t < (c + 1) * per; ++t) n += issued[t];
  const uint64_t cyc = cycles_of(c);
  return cyc ? double(n) / double(cyc) : 0.0;
}

CoreStats join_stats(const std::vector<const CoreStats*>& cores) {
  if (cores.size() == 1) return *cores[0];
  CoreStats s;
  for (const CoreStats* c : cores) {
    s.cycles = std::max(s.cycles, c->cycles);
    s.core_cycles.push_back(c->cycles);
    s.issued.insert(s.issued.end(), c->issued.begin(), c->issued.end());
    s.bubbles.insert(s.bubbles.end(), c->bubbles.begin(), c->bubbles.end());
  }
  return s;
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

const char* status_name(RunResult::Status s) {
  switch (s) {
    case RunResult::Status::Exited: return "exited";
    case RunResult::Status::Fault: return "fault";
    case RunResult::Status::CycleLimit: return "cycle limit";
  }
  return "?";
}

}  // namespace umbra
