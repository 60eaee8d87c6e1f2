// The checks of a run of the bare core (core_checks.h).
#include "core_checks.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "umbra/format.h"
#include "umbra/isa.h"

namespace corebench {

using umbra::hex8;

std::string g_test;
bool g_verbose = false;
int g_failures = 0;

void fail(const std::string& what) {
  ++g_failures;
  std::fprintf(stderr, "FAIL [%s] %s\n", g_test.c_str(), what.c_str());
}

umbra::Config config() {
  umbra::Config c;
  c.threads = kThreads;
  c.registers = kRegs;
  c.imem_words = kImemWords;
  c.mem_bytes = kMemBytes;
  return c;
}

umbra::check::Reference reference(const umbra::Program& p, unsigned n, uint64_t max_instructions) {
  return umbra::check::run_reference(p, config(), n, max_instructions, {}, -1);
}

namespace {

// The run as the shared comparison takes it: how it ended and the final memory.
umbra::RunResult outcome(const CoreTrace& r, const std::vector<uint8_t>& memory) {
  using Status = umbra::RunResult::Status;
  umbra::RunResult run;
  run.memory = memory;
  if (r.fault) {
    run.status = Status::Fault;
    run.fault = umbra::Fault(r.fault_cause);
    run.fault_thread = r.fault_thread;
    run.fault_pc = r.fault_pc;
    run.message = "core fault: thread " + std::to_string(r.fault_thread) + " pc " + hex8(r.fault_pc);
  } else if (!r.mem_fault.empty()) {
    run.status = Status::Fault;
    run.message = r.mem_fault;
  } else if (!r.finished) {
    run.status = Status::CycleLimit;
    run.message = "busy never fell";
  }
  return run;
}

// The per-thread records of the core's issue and register-write streams, in cycle
// order (a cycle's issue before its write, the contract's order).
umbra::check::ThreadRecords records(const CoreTrace& r, unsigned n) {
  umbra::check::ThreadRecords recs(n);
  size_t w = 0;
  for (const Issue& is : r.issues) {
    for (; w < r.writes.size() && r.writes[w].cycle < is.cycle; ++w)
      umbra::check::record_write(recs, r.writes[w].thread, r.writes[w].pc, uint8_t(r.writes[w].reg),
                                 r.writes[w].value);
    if (is.valid) umbra::check::record_issue(recs, is.thread, is.pc);
  }
  for (; w < r.writes.size(); ++w)
    umbra::check::record_write(recs, r.writes[w].thread, r.writes[w].pc, uint8_t(r.writes[w].reg),
                               r.writes[w].value);
  return recs;
}

}  // namespace

void check_against_iss(const umbra::Program& p, const CoreTrace& r, const umbra::check::Reference& ref,
                       const std::vector<uint8_t>& memory, unsigned n) {
  umbra::check::IssVerdict v;
  umbra::check::compare_with_reference("rtl", p, ref, records(r, n), outcome(r, memory), v);
  for (const std::string& problem : v.problems) CHECK(false, problem);
  if (g_verbose)
    for (const std::string& note : v.notes) std::printf("[%s] %s\n", g_test.c_str(), note.c_str());
  // A thread that read another thread's word in another order may have taken another
  // path (the notes): its requests are not the ISS's to predict.
  if (!v.notes.empty()) return;

  for (unsigned t = 0; t < n; ++t) {
    std::vector<const MemReq*> got, fills;
    for (const MemReq& q : r.reqs)
      if (q.tag == t) (q.op == umbra::isa::kPortOpFill ? fills : got).push_back(&q);
    std::vector<const umbra::check::Record*> want;
    std::vector<uint32_t> loaded_lines;
    for (const umbra::check::Record& x : ref.records[t]) {
      if (x.mem == umbra::Retired::Mem::Load)
        loaded_lines.push_back(x.addr / kLineBytes * kLineBytes);
      else if (x.mem != umbra::Retired::Mem::None)
        want.push_back(&x);
    }
    // A thread's fills are for lines it loads from, at most one per load.
    CHECK(fills.size() <= loaded_lines.size(),
          "thread " << t << ": " << fills.size() << " fills for " << loaded_lines.size() << " loads");
    for (const MemReq* q : fills)
      CHECK(std::find(loaded_lines.begin(), loaded_lines.end(), q->addr) != loaded_lines.end(),
            "thread " << t << ": fill of line " << hex8(q->addr) << ", which it never loads from");
    CHECK(got.size() == want.size(), "thread " << t << ": " << got.size()
                                               << " stores and atomics on the port, the ISS has "
                                               << want.size());
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      const MemReq& g = *got[i];
      const umbra::check::Record& w = *want[i];
      const uint32_t word = p.text[(w.pc - p.text_base) / 4];
      const bool store = w.mem == umbra::Retired::Mem::Store;
      if (g.op != (word >> 24) || g.addr != w.addr || (store && g.data != w.data)) {
        CHECK(false, "thread " << t << " request " << i << ": RTL op " << hex8(g.op) << " addr "
                               << hex8(g.addr) << " data " << hex8(g.data) << ", ISS "
                               << umbra::isa::disassemble(word, w.pc) << " addr " << hex8(w.addr) << " data "
                               << hex8(w.data));
        break;
      }
    }
  }
}

void check_timing(const CoreTrace& r, unsigned n) {
  // Slots: round-robin from the cycle after the launch; an issued pc is 4-aligned.
  const unsigned kWhyIdle = unsigned(umbra::uarch::BubbleReason::Idle);
  const unsigned kWhyMemory = unsigned(umbra::uarch::BubbleReason::Memory);
  const unsigned kWhyExited = unsigned(umbra::uarch::BubbleReason::Exited);
  std::map<uint64_t, const Issue*> at;
  for (const Issue& is : r.issues) at[is.cycle] = &is;
  for (const Issue& is : r.issues) {
    CHECK(is.thread == is.cycle % kThreads, "cycle " << is.cycle << ": slot of thread " << is.thread);
    if (is.thread >= n && is.cycle > r.launch_cycle)
      CHECK(!is.valid && is.reason == kWhyIdle,
            "cycle " << is.cycle << ": thread " << is.thread << " was not launched but is not idle");
  }
  // Every register write of a computed result is depth - 1 cycles after its fetch; a
  // load's (or atom's) is depth - 1 + k*T cycles after, k = rounds slept, with a memory
  // bubble in each of the k slots in between.
  for (const RegWrite& w : r.writes) {
    auto it = at.find(w.cycle - (kDepth - 1));
    if (it == at.end()) {
      CHECK(false, "write at cycle " << w.cycle << " has no fetch " << kDepth - 1 << " cycles before");
      continue;
    }
    const Issue& f = *it->second;
    if (f.valid) {
      CHECK(f.thread == w.thread && f.pc == w.pc,
            "write at cycle " << w.cycle << " (thread " << w.thread << " pc " << hex8(w.pc) << ") is not "
                              << kDepth - 1 << " cycles after its fetch");
    } else {
      CHECK(f.thread == w.thread && f.reason == kWhyMemory,
            "late write at cycle " << w.cycle << " not in a memory bubble of its thread");
    }
  }
  // A request reaches the port no earlier than X1 + 3 (C1 in X1 + 1, C2 pushes it into
  // the request FIFO at the end of X1 + 2; fetch + 6): its thread's latest slot at least
  // that far back issued a memory instruction.
  constexpr unsigned kFetchToPort = umbra::uarch::kFetchToX1 + 3;
  for (const MemReq& q : r.reqs) {
    uint64_t f = q.cycle - kFetchToPort;
    while (f % kThreads != q.tag % kThreads && f > 0) --f;
    auto it = at.find(f);
    CHECK(it != at.end() && it->second->thread == q.tag,
          "request at cycle " << q.cycle << " has no slot of thread " << q.tag << " " << kFetchToPort
                              << " or more cycles before");
  }
  // busy: falls when the last thread's exit has been applied (fetch writes X1's
  // outcome at the end of X2: exit fetched in e, state EXITED from X1 + 2, e + 5).
  if (r.finished && !r.fault && r.mem_fault.empty()) {
    uint64_t last_issue = 0;
    for (const Issue& is : r.issues)
      if (is.valid) last_issue = is.cycle;
    CHECK(r.busy_fell == last_issue + umbra::uarch::kFetchToX1 + 2,
          "busy fell at cycle " << r.busy_fell << ", last instruction (exit) fetched at " << last_issue);
    for (const Issue& is : r.issues)
      if (is.cycle >= r.busy_fell && is.thread < n)
        CHECK(!is.valid && is.reason == kWhyExited,
              "thread " << is.thread << " not exited at cycle " << is.cycle);
  }
  CHECK(!r.protocol_error, "protocol error flagged");
}

}  // namespace corebench
