// Comparator: holds the SystemC model's event stream and the RTL's side by side, cycle
// by cycle and core by core, as they are produced, and stops at the first difference.
// Three inputs per core and cycle: the SystemC core's own events (its event sink), the
// RTL's events rebuilt from its trace and memory ports (rtl_system.h), and the SystemC
// core's memory port as core_monitor sees it.  check() compares every cycle that all
// three have delivered for every core, so a difference is reported in the cycle it
// happens, naming the core, with the instruction involved and the events that led up
// to it, not at the end of a long run.
//
// It also cuts the agreed stream into per-thread records (issued pc plus the register
// write it made) for the comparison with the reference simulator (iss_check.h): core c's
// thread t is record c * launched + t, the work item the ISS numbers so (its `lx`); in a
// domain launch the record is the work item the thread's last start event named,
// ly * w + lx.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core_monitor.h"
#include "events.h"
#include "iss_check.h"
#include "umbra/cosim_run.h"
#include "umbra/program.h"

namespace umbra::cosim {

using check::Record;
using check::ThreadRecords;

// A FIFO that reuses its slots: the comparator's queues hold a cycle or two at a time but
// see a push and a pop every cycle, which std::deque pays for with an allocation each
// time once an element fills one of its blocks (a CycleSample does).
template <typename T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& back() { return slots_[(head_ + size_ - 1) & (slots_.size() - 1)]; }
  void push_back(const T& v) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = v;
    ++size_;
  }
  // A new last element, value-initialised, without building a temporary.
  T& push_back_new() {
    if (size_ == slots_.size()) grow();
    T& slot = slots_[(head_ + size_) & (slots_.size() - 1)];
    slot = T{};
    ++size_;
    return slot;
  }
  void pop_front() {
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

 private:
  void grow() {  // to the next power of two, oldest first
    std::vector<T> bigger(slots_.empty() ? 4 : 2 * slots_.size());
    for (size_t i = 0; i < size_; ++i) bigger[i] = slots_[(head_ + i) & (slots_.size() - 1)];
    slots_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0;
};

// Text of the instruction at pc in the program ("pc 0x0000001c: add r5, r1, r2").
std::string describe_instruction(const Program& p, uint32_t pc);

class Comparator final : public umbra::EventSink {
 public:
  // threads: per core (T); launched: threads launched on each core.
  Comparator(const Program& program, unsigned cores, unsigned threads, unsigned launched, unsigned history,
             std::string repro, umbra::Domain domain = {});

  // The SystemC cores' events (contract order within a core's cycle).
  void on_event(const umbra::Event& e) override;
  void on_rtl(const CycleSample& s) { cores_[s.core].rtl.push_back(s); }
  void on_systemc_port(const CycleSample& s) { cores_[s.core].sc_port.push_back(s); }

  // Compares every cycle all inputs have delivered; false once a mismatch is found.
  bool check();
  // At the end of the run: every input must have delivered the same cycles.
  void finish();
  // A difference found outside the event streams (end of run, final memory).
  void fail(const std::string& stage, uint64_t cycle, unsigned core, uint32_t thread,
            const std::string& field, const std::string& systemc, const std::string& rtl,
            const std::string& detail);

  const Mismatch& mismatch() const { return mismatch_; }
  uint64_t cycles_compared() const { return compared_; }
  uint64_t events_compared() const { return events_; }
  const ThreadRecords& systemc_records() const { return sc_records_; }
  const ThreadRecords& rtl_records() const { return rtl_records_; }
  // The RTL's statistics, counted the way the SystemC fetch block counts them (the
  // cores' joined, as umbra_system's).
  umbra::CoreStats rtl_stats() const;

 private:
  struct Pending {
    uint64_t cycle = 0;
    std::array<std::optional<umbra::Event>, umbra::kEventRanks> events;
  };
  // What one core's three inputs hold, and its share of the bookkeeping.
  struct Core {
    RingQueue<Pending> sc;
    RingQueue<CycleSample> rtl, sc_port;
    std::vector<uint32_t> last_pc;  // per thread: the last pc issued (for mem and memresp)
    std::vector<uint32_t> item;     // per thread, a domain launch: its work item
    umbra::CoreStats rtl_stats;
  };
  bool ready() const;
  void compare(unsigned core, const Pending& sc, const CycleSample& rtl, const CycleSample& port);
  void report(const std::string& stage, uint64_t cycle, unsigned core, uint32_t thread,
              const std::string& field, const std::string& sc_value, const std::string& rtl_value,
              uint32_t pc, bool have_pc, const std::string& sc_cycle, const std::string& rtl_cycle);
  void record(ThreadRecords& r, const umbra::Event& e);

  const Program& program_;
  unsigned threads_, launched_;
  umbra::Domain domain_;
  unsigned history_size_;
  std::string repro_;
  std::vector<Core> cores_;
  std::vector<umbra::Event> history_;  // a ring: the oldest at history_next_ once full
  size_t history_next_ = 0;
  ThreadRecords sc_records_, rtl_records_;
  Mismatch mismatch_;
  uint64_t compared_ = 0, events_ = 0;
};

}  // namespace umbra::cosim
