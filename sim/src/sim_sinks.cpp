// The sinks of umbra/sim_sinks.h.  The progress line is written with a carriage
// return and an erase-to-end-of-line so it never scrolls, and erased at the end so
// the summary that follows starts on a clean line.
#include "umbra/sim_sinks.h"

#include <cstdio>

namespace umbra::simtools {

namespace {
constexpr auto kInterval = std::chrono::milliseconds(500);

std::string rate_text(double r) {
  char b[32];
  if (r >= 1e6)
    std::snprintf(b, sizeof b, "%.2f M", r / 1e6);
  else if (r >= 1e3)
    std::snprintf(b, sizeof b, "%.1f k", r / 1e3);
  else
    std::snprintf(b, sizeof b, "%.0f ", r);
  return b;
}
}  // namespace

ProgressSink::ProgressSink(std::string label)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressSink::on_event(const scm::Event& e) {
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

void ThreadTracker::on_event(const scm::Event& e) {
  if (e.thread >= last_pc_.size()) return;
  switch (e.kind) {
    case scm::EventKind::Issue:
      last_pc_[e.thread] = e.pc;
      exited_[e.thread] = false;
      break;
    case scm::EventKind::Bubble:
      if (e.reason == scm::BubbleReason::Exited) exited_[e.thread] = true;
      break;
    case scm::EventKind::RegWrite:
      if (e.reg < regs_[e.thread].size()) regs_[e.thread][e.reg] = e.value;
      break;
    default: break;
  }
}

}  // namespace umbra::simtools
