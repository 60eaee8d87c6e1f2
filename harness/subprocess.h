// The child-process transport every runner uses (run_systemc, run_rtl, run_cosim):
// SystemC elaborates one design per process, so a caller that makes many runs gets
// each one in a forked child, which streams tagged binary records back through a
// pipe — 'E' and an event as it happens, then one 'R' and the result, or 'X' and an
// error message.  Both ends are the same binary, so plain values travel as raw bytes;
// one transfer() per result type serves both directions, which keeps writer and reader
// in step.  A RunResult travels whole: status, statistics, memory and registers.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "run_result.h"

namespace umbra::harness {

using umbra::Event;
using umbra::EventSink;
using umbra::RunError;
using umbra::RunResult;

struct Out {
  std::FILE* f;
  // An empty vector's data() may be null, which fwrite and fread must not be given
  // even for no bytes (UBSan, scripts/sanitize.sh).
  void raw(const void* p, size_t n) {
    if (n != 0) std::fwrite(p, 1, n, f);
  }
  template <class T>
  void pod(const T& v) {
    raw(&v, sizeof v);
  }
  void str(const std::string& s) {
    pod(uint64_t(s.size()));
    raw(s.data(), s.size());
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(uint64_t(v.size()));
    raw(v.data(), v.size() * sizeof(T));
  }
};

struct In {
  std::FILE* f;
  void raw(void* p, size_t n) {
    if (n != 0 && std::fread(p, 1, n, f) != n)
      throw RunError("the simulation process ended in the middle of its result");
  }
  template <class T>
  void pod(T& v) {
    raw(&v, sizeof v);
  }
  void str(std::string& s) {
    uint64_t n = 0;
    pod(n);
    s.resize(n);
    raw(s.data(), n);
  }
  template <class T>
  void vec(std::vector<T>& v) {
    uint64_t n = 0;
    pod(n);
    v.resize(n);
    raw(v.data(), n * sizeof(T));
  }
};

// A list of strings, both directions.
template <class IO, class V>
void transfer_strings(IO& io, V& v) {
  uint64_t n = v.size();
  io.pod(n);
  if constexpr (std::is_same_v<IO, In>) v.resize(n);
  for (auto& s : v) io.str(s);
}

// Both directions of a RunResult (IO is Out with const members or In).
template <class IO, class R>
void transfer(IO& io, R& r) {
  io.pod(r.status);
  io.str(r.message);
  io.pod(r.fault);
  io.pod(r.fault_core);
  io.pod(r.fault_thread);
  io.pod(r.fault_pc);
  io.pod(r.fault_addr);
  io.pod(r.launch_cycle);
  io.pod(r.end_cycle);
  io.pod(r.cycles);
  io.pod(r.stats.cycles);
  io.vec(r.stats.core_cycles);
  io.vec(r.stats.issued);
  io.vec(r.stats.bubbles);
  umbra::for_each_memory_field(r.mem, [&](auto& x) { io.pod(x); });
  io.vec(r.mem.load_buckets);
  io.vec(r.memory);
  uint64_t n = r.registers.size();
  io.pod(n);
  if constexpr (std::is_same_v<IO, In>) r.registers.resize(n);
  for (auto& regs : r.registers) io.vec(regs);
  io.pod(r.wall_seconds);
  io.pod(r.cpu_seconds);
  transfer_strings(io, r.warnings);
}

// Runs `body` in a forked child and returns what it returned.  body gets the sink to
// report events to (a pipe to `sink`, or none when sink is null); `send` and
// `receive` move the result.  An exception in the child comes back as RunError with
// its message; a child that dies is a RunError too.
template <class Result>
Result in_child(const std::function<Result(EventSink*)>& body, EventSink* sink,
                const std::function<void(Out&, Result&)>& send,
                const std::function<void(In&, Result&)>& receive);

// The non-template part: fork, pipe, the child's records and the parent's loop.
// `child` writes the 'R' record; `on_result` reads it.
void run_in_child(const std::function<void(Out&, EventSink*)>& child, EventSink* sink,
                  const std::function<void(In&)>& on_result);

template <class Result>
Result in_child(const std::function<Result(EventSink*)>& body, EventSink* sink,
                const std::function<void(Out&, Result&)>& send,
                const std::function<void(In&, Result&)>& receive) {
  Result r{};
  run_in_child(
      [&](Out& out, EventSink* s) {
        Result mine = body(s);
        out.pod('R');
        send(out, mine);
      },
      sink, [&](In& in) { receive(in, r); });
  return r;
}

// The usual case: a RunResult and its events.
inline RunResult run_result_in_child(const std::function<RunResult(EventSink*)>& body, EventSink* sink) {
  return in_child<RunResult>(
      body, sink, [](Out& o, RunResult& r) { transfer(o, r); }, [](In& i, RunResult& r) { transfer(i, r); });
}

}  // namespace umbra::harness
