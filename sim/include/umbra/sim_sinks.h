// Event sinks umbra-sim hangs on the cycle-accurate models (SystemC, RTL): a tee, the
// terminal progress line, and a tracker that rebuilds each thread's final registers
// and state from the events.  They use only the event stream every cycle model emits
// (contracts/events.h), so the runners need no hooks for them: the runners hand events
// over as they happen, which makes the event stream a progress callback for free.
#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "events.h"

namespace umbra::simtools {

// Hands every event to each of its sinks in turn.
class TeeSink final : public umbra::EventSink {
 public:
  void add(umbra::EventSink* s) {
    if (s) sinks_.push_back(s);
  }
  bool empty() const { return sinks_.empty(); }
  // The sink to give a runner: nullptr when nothing listens (the runner then skips
  // producing events), the only sink when there is one.
  umbra::EventSink* get() { return sinks_.empty() ? nullptr : sinks_.size() == 1 ? sinks_[0] : this; }
  void on_event(const umbra::Event& e) override {
    for (auto* s : sinks_) s->on_event(e);
  }
  bool stop_requested() const override {
    for (auto* s : sinks_)
      if (s->stop_requested()) return true;
    return false;
  }

 private:
  std::vector<umbra::EventSink*> sinks_;
};

// "label: cycle N, R cycles/s" on stderr, rewritten in place about every 0.5 s; only
// meant for a terminal (the caller decides: umbra-sim enables it when stderr is a tty).
// The clock is read once every 4096 events so the check costs nothing measurable.
class ProgressSink final : public umbra::EventSink {
 public:
  explicit ProgressSink(std::string label);
  void on_event(const umbra::Event& e) override;
  void finish();  // erases the line, if one was printed
  ~ProgressSink() override { finish(); }

 private:
  std::string label_;
  uint64_t events_ = 0, cycle_ = 0, last_cycle_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
  bool shown_ = false;
};

// Rebuilds what a cycle model does not return by itself: every launched thread's
// registers (from the regwrite events; the register file starts at zero,
// docs/microarchitecture.md), the pc of its last issued instruction, and whether it
// exited (its slot issues `exited` bubbles after its last instruction).
class ThreadTracker final : public umbra::EventSink {
 public:
  ThreadTracker(unsigned threads, unsigned registers)
      : regs_(threads, std::vector<uint32_t>(registers)), last_pc_(threads), exited_(threads) {}
  void on_event(const umbra::Event& e) override;
  const std::vector<std::vector<uint32_t>>& registers() const { return regs_; }
  uint32_t last_pc(unsigned t) const { return last_pc_[t]; }
  bool exited(unsigned t) const { return exited_[t]; }

 private:
  std::vector<std::vector<uint32_t>> regs_;
  std::vector<uint32_t> last_pc_;
  std::vector<bool> exited_;
};

// Which instruction made a thread's recent memory requests, so that a fault the
// memory raises (it knows only the thread, the op and the address) can name the pc
// and the instruction as the reference simulator does.  A thread has one memory
// instruction between issue and its request (X1), so a request or cache access is
// the thread's last issued memory instruction's; a posted store may reach the memory
// (through the reorder queue and DRAM) after its thread has issued more, which is why
// the requests are remembered by address rather than taken as the latest issue.
class RequestOrigins final : public umbra::EventSink {
 public:
  // is_memory(pc): the instruction at pc is a load, store or atomic.
  RequestOrigins(unsigned threads, std::function<bool(uint32_t)> is_memory)
      : is_memory_(std::move(is_memory)), issued_(threads), recent_(threads) {}
  void on_event(const umbra::Event& e) override;
  // The pc of thread's most recent request or cache access at addr (or, failing that,
  // in addr's 32-byte line, for a fill); none if it was not seen.
  std::optional<uint32_t> pc_of(unsigned thread, uint32_t addr) const;

 private:
  struct Request {
    uint32_t addr, pc;
  };
  static constexpr size_t kRemembered = 32;
  std::function<bool(uint32_t)> is_memory_;
  std::vector<std::optional<uint32_t>> issued_;  // per thread: its last memory instruction
  std::vector<std::deque<Request>> recent_;      // per thread, newest last
};

// Asks a cycle model's run to stop once it can make no more progress: every launched
// thread that has not exited has issued the same pc `window` times in a row, with no
// memory traffic of its own (request, response, cache, wake; any DRAM transfer counts
// for all) and no register write that changed a value.  Such a thread's state repeats
// exactly, so it would spin until the cycle limit.  The window only keeps the watcher
// slow to accuse; a thread asleep on memory issues bubbles, not its pc.
class LivelockWatch final : public umbra::EventSink {
 public:
  LivelockWatch(unsigned threads, unsigned registers, uint64_t window)
      : threads_(threads), regs_(threads, std::vector<uint32_t>(registers)), window_(window) {}
  void on_event(const umbra::Event& e) override;
  bool stop_requested() const override { return detected_; }
  bool detected() const { return detected_; }
  // "every thread has been at pc 0x... for N cycles with no register or memory change"
  std::string message() const;

 private:
  struct Thread {
    uint32_t pc = 0;
    uint64_t repeats = 0;  // issues of pc in a row with nothing changed
    uint64_t since = 0;    // the cycle of the first of them
    bool exited = false;
  };
  void check(uint64_t cycle);
  std::vector<Thread> threads_;
  std::vector<std::vector<uint32_t>> regs_;
  uint64_t window_;
  bool detected_ = false;
  uint64_t cycle_ = 0;
};

}  // namespace umbra::simtools
