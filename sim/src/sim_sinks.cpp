// The sinks of umbra/sim_sinks.h.  The progress line is written with a carriage
// return and an erase-to-end-of-line so it never scrolls, and erased at the end so
// the summary that follows starts on a clean line.
#include "umbra/sim_sinks.h"

#include <algorithm>
#include <cstdio>

#include "umbra/format.h"

namespace umbra::simtools {

namespace {
constexpr auto kInterval = std::chrono::milliseconds(500);

using umbra::rate_text;
}  // namespace

ProgressSink::ProgressSink(std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressSink::on_event(const umbra::Event& e) {
  cycle_ = e.cycle;
  if (++events_ % 4096) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < kInterval) return;
  const double dt = std::chrono::duration<double>(now - last_).count();
  const double rate = double(cycle_ - last_cycle_) / dt;
  const double total = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r%s: cycle %llu, %scycles/s, %.1f s\x1b[K", label_.c_str(),
               static_cast<unsigned long long>(cycle_), rate_text(rate).c_str(), total);
  std::fflush(stderr);
  last_ = now;
  last_cycle_ = cycle_;
  shown_ = true;
}

void ProgressSink::finish() {
  if (!shown_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

void ThreadTracker::on_event(const umbra::Event& e) {
  if (e.thread >= last_pc_.size()) return;
  switch (e.kind) {
    case umbra::EventKind::Issue:
      last_pc_[e.thread] = e.pc;
      exited_[e.thread] = false;
      break;
    case umbra::EventKind::Bubble:
      if (e.reason == umbra::BubbleReason::Exited) exited_[e.thread] = true;
      break;
    case umbra::EventKind::RegWrite:
      if (e.reg < regs_[e.thread].size()) regs_[e.thread][e.reg] = e.value;
      break;
    default: break;
  }
}

void RequestOrigins::on_event(const umbra::Event& e) {
  if (e.thread >= issued_.size()) return;
  if (e.kind == umbra::EventKind::Issue) {
    if (is_memory_(e.pc)) issued_[e.thread] = e.pc;
  } else if ((e.kind == umbra::EventKind::Mem || e.kind == umbra::EventKind::Cache) && issued_[e.thread]) {
    auto& r = recent_[e.thread];
    r.push_back({e.addr, *issued_[e.thread]});
    if (r.size() > kRemembered) r.pop_front();
  }
}

std::optional<uint32_t> RequestOrigins::pc_of(unsigned thread, uint32_t addr) const {
  if (thread >= recent_.size()) return std::nullopt;
  const auto& r = recent_[thread];
  for (auto it = r.rbegin(); it != r.rend(); ++it)
    if (it->addr == addr) return it->pc;
  for (auto it = r.rbegin(); it != r.rend(); ++it)
    if (it->addr / 32 == addr / 32) return it->pc;
  return std::nullopt;
}

void LivelockWatch::on_event(const umbra::Event& e) {
  if (detected_) return;
  if (e.kind == umbra::EventKind::Dram) {  // the tag is {core, thread}: count it for everyone
    for (Thread& t : threads_) t.repeats = 0;
    return;
  }
  if (e.thread >= threads_.size()) return;
  Thread& t = threads_[e.thread];
  switch (e.kind) {
    case umbra::EventKind::Issue:
      t.exited = false;
      if (t.repeats && e.pc == t.pc) {
        if (++t.repeats >= window_) check(e.cycle);
      } else {
        t.pc = e.pc;
        t.repeats = 1;
        t.since = e.cycle;
      }
      break;
    case umbra::EventKind::Bubble:
      if (e.reason == umbra::BubbleReason::Exited) {
        t.exited = true;
        check(e.cycle);  // the last thread still working may already be spinning
      }
      break;
    case umbra::EventKind::RegWrite:
      if (e.reg < regs_[e.thread].size() && regs_[e.thread][e.reg] != e.value) {
        regs_[e.thread][e.reg] = e.value;
        t.repeats = 0;
      }
      break;
    default: t.repeats = 0; break;  // memory traffic: a request, a response, the cache, a wake
  }
}

void LivelockWatch::check(uint64_t cycle) {
  bool any = false;
  for (const Thread& t : threads_) {
    if (t.exited) continue;
    if (t.repeats < window_) return;
    any = true;
  }
  detected_ = any;
  cycle_ = cycle;
}

std::string LivelockWatch::message() const {
  auto hex = [](uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return std::string(b);
  };
  uint64_t first = cycle_;
  std::vector<std::string> where;
  bool one_pc = true;
  const Thread* spinning = nullptr;
  for (size_t i = 0; i < threads_.size(); ++i) {
    const Thread& t = threads_[i];
    if (t.exited) continue;
    first = std::min(first, t.since);
    if (spinning && spinning->pc != t.pc) one_pc = false;
    spinning = spinning ? spinning : &t;
    where.push_back("thread " + std::to_string(i) + " at pc " + hex(t.pc));
  }
  std::string who;
  if (where.size() == 1)
    who = where[0];
  else if (one_pc && spinning)
    who = "every running thread at pc " + hex(spinning->pc);
  else
    for (const std::string& w : where) who += (who.empty() ? "" : ", ") + w;
  return "livelock: " + who + " for " + std::to_string(cycle_ - first) +
         " cycles with no register or memory change; did the program forget `exit`?";
}

}  // namespace umbra::simtools
