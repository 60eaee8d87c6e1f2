// What the SystemC model tells the outside world about a run, cycle by cycle: the
// event stream that the cosimulation compares with the RTL's (docs/microarchitecture.md,
// "Events"), and the per-run statistics.  Events are plain structs handed to a virtual
// sink so that a run without a sink pays nothing and a sink can be a file, a diff
// against the RTL or a pipe to another process.  The blocks emit events in whatever
// order SystemC happens to run them; EventOrder puts one cycle's events into the
// contract's order before the sink sees them.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "umbra/uarch_gen.h"

namespace umbra {

// The values are also the contract's order of kinds within one cycle (Issue and Bubble
// share the first place: a cycle has one of them).
enum class EventKind : uint8_t { Issue, Bubble, RegWrite, Mem, MemResp, Cache, Wake, Dram, Start, Command };
constexpr unsigned kEventRanks =
    9;  // Issue/Bubble, RegWrite, Mem, MemResp, Cache, Wake, Dram, Start, Command
// Why a fetch slot issued a bubble, and the outcome a cache event carries in `value`:
// the codes of isa/uarch.yaml, which the RTL's d_reason and trace_cache_outcome carry.
using BubbleReason = uarch::BubbleReason;
constexpr unsigned kBubbleReasons = uarch::kBubbleReasonCount;
using CacheOutcome = uarch::CacheOutcome;

const char* event_kind_name(EventKind k);
const char* bubble_reason_name(BubbleReason r);
const char* cache_outcome_name(CacheOutcome o);

// One event.  Which fields mean something depends on the kind:
//   Issue     thread (the slot), pc
//   Bubble    thread (the slot), reason
//   RegWrite  thread, pc (of the writing instruction; a late load's own pc), reg, value
//   Mem       thread (= the tag), op (opcode), addr, data, cmp
//   MemResp   thread (= the tag), value (the data)
//   Cache     thread, op (opcode), addr (effective address), value (CacheOutcome), in C2
//   Wake      thread (the cycle writeback's wake_valid is high, W+1)
//   Dram      thread (= the 16-bit DRAM-port tag {core, thread}), op, addr, data, cmp
//   Start     thread (started by the dispatcher at the end of the cycle), addr (its
//             work item's `lx`), data (its `ly`)
//   Command   op (the command processor's opcode, docs/commands.md), addr (the
//             command's address): the command executes in this cycle
// `core` is the core whose event it is (Dram and Command events ride with core 0's).  Unused
// fields are zero, so two streams compare field by field.
struct Event {
  uint64_t cycle = 0;
  EventKind kind = EventKind::Issue;
  BubbleReason reason = BubbleReason::Idle;
  uint8_t reg = 0;
  uint8_t op = 0;
  uint8_t core = 0;
  uint32_t thread = 0;
  uint32_t pc = 0;
  uint32_t value = 0;
  uint32_t addr = 0, data = 0, cmp = 0;

  bool operator==(const Event& o) const;
  bool operator!=(const Event& o) const { return !(*this == o); }
};

// "<cycle> <kind> ..." on one line, without a newline; the format the cosimulation's
// mismatch reports and `umbra-systemc-run --events` use.  A thread of core 0 is "t3",
// of another core "c1.t3".
std::string format_event(const Event& e);

// "thread 3" in a one-core machine, "core 1, thread 3" in one of several cores: how
// every message names a thread.
std::string thread_name(unsigned cores, unsigned core, unsigned thread);

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void on_event(const Event& e) = 0;
  // A sink that has seen enough (umbra-sim's livelock watcher) asks for the run to end;
  // the runners poll it once a cycle, with their other stop conditions, and end the
  // run as stopped from outside (host_driver's StopReason::External).
  virtual bool stop_requested() const { return false; }
};

// Writes format_event lines to a stdio stream (not owned).  With a limit (bytes; 0:
// none), whole cycles only: a cycle's lines are held until the next cycle begins (or
// finish()), and the first cycle whose lines would take the stream past `limit` ends
// the text there, for good (issue 37: a trace of a long run grows by gigabytes).
class TextEventSink final : public EventSink {
 public:
  explicit TextEventSink(std::FILE* out, uint64_t limit = 0, uint64_t written = 0)
      : out_(out), limit_(limit), written_(written) {}
  void on_event(const Event& e) override;
  // Writes the held cycle, if it fits.  To be called once the run is over, before the
  // stream is closed.
  void finish();
  // Whether the limit stopped the text, at which cycle (the first not written), and
  // the bytes written (with `written` given at construction: what the stream held).
  bool stopped() const { return stopped_; }
  uint64_t stopped_at() const { return stopped_at_; }
  uint64_t bytes() const { return written_; }

 private:
  void put();
  std::FILE* out_;
  uint64_t limit_, written_;
  std::string held_;
  uint64_t cycle_ = 0;
  bool stopped_ = false;
  uint64_t stopped_at_ = 0;
};

// Keeps every event, for tests and small runs.
class VectorEventSink final : public EventSink {
 public:
  void on_event(const Event& e) override { events.push_back(e); }
  std::vector<Event> events;
};

// Buffers the events of the current cycle and hands them to the sink in the
// contract's order (issue, regwrite, mem, memresp, cache, wake, dram, start, command) once a later
// cycle's event arrives or flush() is called.  Each kind happens at most once per
// cycle (one fetch slot, one writeback, one request, one response, one request in C2,
// one wake, one DRAM transfer, one start, one command), so a fixed slot per kind suffices and nothing is
// allocated per cycle.
class EventOrder {
 public:
  void set_sink(EventSink* sink) { sink_ = sink; }
  // The core every event emitted here belongs to (Event::core).
  void set_core(uint8_t core) { core_ = core; }
  bool enabled() const { return sink_ != nullptr; }
  void emit(const Event& e);
  void flush();

 private:
  static unsigned rank(EventKind k);
  EventSink* sink_ = nullptr;
  uint8_t core_ = 0;
  uint64_t cycle_ = 0;
  std::array<Event, kEventRanks> pending_{};
  std::array<bool, kEventRanks> has_{};
};

// Per-run statistics, counted by the fetch block over the cycles in which the core's
// `busy` output is high (from the first cycle a launched thread may issue to the last
// cycle before `busy` falls), so that issued + bubbles = cycles for every thread slot.
// With several cores a run's statistics are the cores' joined (join_stats): the thread
// slots core after core (core c's thread t at c * T + t), each core's own cycles in
// core_cycles, and `cycles` the longest of them.
struct CoreStats {
  uint64_t cycles = 0;
  std::vector<uint64_t> core_cycles;                          // per core (empty: one core, `cycles`)
  std::vector<uint64_t> issued;                               // per thread
  std::vector<std::array<uint64_t, kBubbleReasons>> bubbles;  // per thread, by BubbleReason
  uint64_t total_issued() const;
  uint64_t total_bubbles(BubbleReason r) const;
  double ipc() const { return cycles ? double(total_issued()) / double(cycles) : 0.0; }
  unsigned cores() const { return core_cycles.empty() ? 1 : unsigned(core_cycles.size()); }
  // Core c's cycles, and its instructions per cycle (T thread slots a core).
  uint64_t cycles_of(unsigned c) const { return core_cycles.empty() ? cycles : core_cycles[c]; }
  double core_ipc(unsigned c) const;
};
CoreStats join_stats(const std::vector<const CoreStats*>& cores);

// The memory system's counters of one core (docs/memory-system.md, "Events and
// statistics"): cache outcomes counted in C2, replays counted in X1, and the latency
// of every load and returning atomic from its X1 cycle to the cycle its thread is
// woken (wake_valid high, W+1), so a hit's latency is 5.
struct LatencyHistogram {
  uint64_t count = 0, sum = 0, max = 0;
  unsigned bucket_width = 1;      // T: bucket i counts latencies in [i*T, (i+1)*T)
  std::vector<uint64_t> buckets;  // grows to the largest bucket used
  void add(uint64_t latency);
  double mean() const { return count ? double(sum) / double(count) : 0.0; }
};

struct MemStats {
  uint64_t cache_hits = 0, cache_misses = 0, cache_merges = 0;
  std::vector<uint64_t> replays;  // per thread
  LatencyHistogram load_latency;
  uint64_t total_replays() const;
};

}  // namespace umbra
