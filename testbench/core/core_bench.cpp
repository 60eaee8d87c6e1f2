// core_bench: bring-up bench for rtl/umbra_core.v, Verilated as plain C++ (no SystemC;
// the cosimulation against the SystemC model is a separate testbench).  It assembles
// small programs with the umbra_asm library, loads them through the core's host port,
// launches them, and stands in for the memory with a fixed-latency model of its own
// (every access, atomics included, performed at acceptance; the first response beat
// `latency` cycles later, a line fill's beats on consecutive cycles; not ready for a
// responding request whose beats would overlap the previous response's, as
// systemc/memory/fixed_memory does).  That model is not reused here because it is a
// SystemC module and this bench runs the core without the SystemC kernel, so that RTL
// bring-up needs nothing but Verilator; the model here is the behaviour of that one,
// kept to the Bench class's accept() and the response queue step() drains.  Each run
// is checked two ways:
//
//   against the reference simulator (umbra_iss, run here through iss::Simulator; the
//   cosimulation's check, testbench/cosim/iss_check, is in umbra_cosim, which needs
//   SystemC, and compares register writes only) for meaning: per thread, the sequence
//   of register writes (pc, register, value) and of stores and atomics on the port
//   (loads are the data cache's: the port carries line fills, each checked to be a
//   line that thread loads from), the final data memory, and the fault, if any;
//
//   against docs/microarchitecture.md for timing: every slot issues its thread or a
//   bubble with the right reason, a computed result is written exactly depth - 1
//   cycles after its fetch (7 with the default 4 execute stages), a late (load's or atom's) write in a memory
//   bubble of its thread, `rdsr clock` reads the fetch cycle, a request reaches the port no earlier than 6
//   cycles after its fetch (C2 pushes it into the request FIFO), busy falls when the last thread has exited.
//   The exact timing of the memory system is the cosimulation's and systemc_timing_test's to check.
//
// The tests are directed programs (ALU, FP, control flow, special registers, memory
// and atomics, faults, partial launches), random straight-line programs over every
// non-control instruction, and every example program (examples/*.yaml) with the RTL
// as the examples harness's model, checked against the examples' own references.  The core's parameters are
// fixed at Verilation time; the CMake file builds this bench once per configuration (CORE_THREADS, CORE_REGS,
// CORE_IMEM_WORDS, CORE_EXEC_STAGES).
//
//   core_bench [--seed N] [--random N] [--no-examples] [--verbose]
//   core_bench --emit DIR [--seed N] [--random N]   writes the directed and random
//              programs as DIR/*.s (to run them on other models, e.g. umbra-cosim)
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vumbra_core.h"
#include "harness.h"
#include "reference.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/iss.h"
#include "umbra/semantics.h"
#include "verilated.h"

namespace {

using umbra::hex8;

constexpr unsigned kThreads = CORE_THREADS;
constexpr unsigned kRegs = CORE_REGS;
constexpr unsigned kImemWords = CORE_IMEM_WORDS;
constexpr uint32_t kMemBytes = 1u << 20;
constexpr unsigned kExecStages = CORE_EXEC_STAGES;                      // X1 -> W
constexpr unsigned kDepth = umbra::uarch::pipeline_depth(kExecStages);  // F D R X1 .. X<L> W
static_assert(kThreads >= kDepth, "umbra_core refuses fewer threads than stages");
// The cache line, as Verilated (rtl/umbra_core.v's CACHE_LINE_BYTES default).
constexpr uint32_t kLineBytes = 32;

// Bubble reasons on trace_issue_reason (isa/uarch.yaml).
constexpr unsigned kWhyIdle = unsigned(umbra::uarch::BubbleReason::Idle);
constexpr unsigned kWhyMemory = unsigned(umbra::uarch::BubbleReason::Memory);
constexpr unsigned kWhyExited = unsigned(umbra::uarch::BubbleReason::Exited);

bool g_verbose = false;
int g_failures = 0;
std::string g_test;

void fail(const std::string& what) {
  ++g_failures;
  std::fprintf(stderr, "FAIL [%s] %s\n", g_test.c_str(), what.c_str());
}
#define CHECK(cond, msg)      \
  do {                        \
    if (!(cond)) {            \
      std::ostringstream os_; \
      os_ << msg;             \
      fail(os_.str());        \
    }                         \
  } while (0)

// ---- events the core shows ----------------------------------------------------------------
struct Issue {
  uint64_t cycle;
  unsigned thread;
  bool valid;
  uint32_t pc;
  unsigned reason;
};
struct RegWrite {
  uint64_t cycle;
  unsigned thread;
  uint32_t pc;
  unsigned reg;
  uint32_t value;
};
struct MemReq {
  uint64_t cycle;
  unsigned op, tag;
  uint32_t addr, data, cmp;
};
struct MemResp {
  uint64_t cycle;
  unsigned tag;
  uint32_t data;
};

struct RunResult {
  std::vector<Issue> issues;
  std::vector<RegWrite> writes;
  std::vector<MemReq> reqs;
  std::vector<MemResp> resps;
  bool fault = false;
  unsigned fault_thread = 0, fault_cause = 0;
  uint32_t fault_pc = 0;
  uint64_t fault_cycle = 0;
  std::string mem_fault;  // the memory model refused a request
  bool protocol_error = false;
  bool finished = false;      // busy fell
  uint64_t busy_fell = 0;     // first cycle with busy low after the launch
  uint64_t launch_cycle = 0;  // the cycle launch_valid was high
};

// ---- the core plus a fixed-latency memory -------------------------------------------------
class Bench {
 public:
  Bench(unsigned latency) : latency_(latency), mem_(kMemBytes, 0) {
    ctx_ = std::make_unique<VerilatedContext>();
    top_ = std::make_unique<Vumbra_core>(ctx_.get());
    top_->clk = 0;
    top_->rst = 1;
    top_->mem_req_ready = 1;
    top_->ncore = 1;
    for (int i = 0; i < 3; ++i) step(nullptr);
    top_->rst = 0;
    cycle_ = 0;  // the first cycle after reset is cycle 0 (`clock` agrees)
  }

  std::vector<uint8_t>& memory() { return mem_; }
  uint64_t cycle() const { return cycle_; }

  void load(const umbra::Program& p) {
    const uint32_t base = p.text_base / 4;
    for (size_t i = 0; i < p.text.size(); ++i) write_imem(base + uint32_t(i), p.text[i]);
    std::copy(p.data.begin(), p.data.end(), mem_.begin() + p.data_base);
  }

  void write_imem(uint32_t index, uint32_t word) {
    top_->host_imem_we = 1;
    top_->host_imem_addr = index;
    top_->host_imem_data = word;
    step(nullptr);
    top_->host_imem_we = 0;
  }

  // Launches n threads at `entry` and runs until busy falls (plus a few cycles to see
  // that nothing else happens), a fault, or the cycle limit.
  // The launch is timed so that thread 0 has the first slot after it, as the ISS's
  // rounds start with thread 0 (it matters to the order of atomics between threads).
  RunResult run(unsigned n, uint32_t entry, uint64_t max_cycles, bool stop_on_fault = true) {
    RunResult r;
    while (cycle_ % kThreads != kThreads - 1) step(nullptr);
    top_->launch_valid = 1;
    top_->launch_count = n;
    top_->launch_entry = entry;
    r.launch_cycle = cycle_;
    step(&r);
    top_->launch_valid = 0;
    uint64_t after = 0;
    while (cycle_ - r.launch_cycle < max_cycles) {
      step(&r);
      if (r.finished && ++after > 2 * kThreads + kDepth) break;
      if (r.fault && stop_on_fault && cycle_ > r.fault_cycle + 2 * kDepth) break;
      if (!r.mem_fault.empty() && !r.finished && cycle_ > 64 + r.launch_cycle + latency_ * 4 && stop_on_fault)
        break;
    }
    return r;
  }

 private:
  // One clock cycle: present this cycle's inputs, settle, record this cycle's events,
  // let the memory accept a request, then the rising edge.
  void step(RunResult* r) {
    const bool resp = !responses_.empty() && responses_.front().due == cycle_;
    top_->mem_resp_valid = resp;
    top_->mem_resp_data = resp ? responses_.front().data : 0;
    top_->mem_resp_tag = resp ? responses_.front().tag : 0;
    top_->clk = 0;
    top_->mem_req_ready = 1;
    top_->eval();
    // mem_req_op is a register: the readiness that depends on it settles in one more
    // evaluation.
    if (top_->mem_req_valid && beats_for(top_->mem_req_op) > 0 && cycle_ + latency_ <= last_beat_) {
      top_->mem_req_ready = 0;
      top_->eval();
    }

    if (r) {
      Issue is{cycle_, top_->trace_issue_thread, bool(top_->trace_issue_valid), top_->trace_issue_pc,
               top_->trace_issue_reason};
      r->issues.push_back(is);
      if (top_->trace_regwrite_valid)
        r->writes.push_back({cycle_, top_->trace_regwrite_thread, top_->trace_regwrite_pc,
                             top_->trace_regwrite_reg, top_->trace_regwrite_value});
      if (resp) r->resps.push_back({cycle_, top_->mem_resp_tag, top_->mem_resp_data});
      if (top_->mem_req_valid && top_->mem_req_ready) {
        MemReq q{
            cycle_,           top_->mem_req_op, top_->mem_req_tag, top_->mem_req_addr, top_->mem_req_data,
            top_->mem_req_cmp};
        r->reqs.push_back(q);
        accept(q, r);
      }
      if (top_->fault && !r->fault) {
        r->fault = true;
        r->fault_cycle = cycle_;
        r->fault_thread = top_->fault_thread;
        r->fault_pc = top_->fault_pc;
        r->fault_cause = top_->trace_fault_cause;
      }
      if (top_->trace_protocol_error) r->protocol_error = true;
      if (!top_->busy && cycle_ > r->launch_cycle && !r->finished) {
        r->finished = true;
        r->busy_fell = cycle_;
      }
    }
    if (resp) responses_.pop_front();

    top_->clk = 1;
    top_->eval();
    ++cycle_;
  }

  uint32_t word(uint32_t a) const {
    return uint32_t(mem_[a]) | uint32_t(mem_[a + 1]) << 8 | uint32_t(mem_[a + 2]) << 16 |
           uint32_t(mem_[a + 3]) << 24;
  }
  void set_word(uint32_t a, uint32_t v) {
    for (int i = 0; i < 4; ++i) mem_[a + i] = uint8_t(v >> (8 * i));
  }

  // Response beats a request is owed: a fill's line, a returning atomic's old word.
  static unsigned beats_for(unsigned op) {
    if (op == umbra::isa::kPortOpFill) return kLineBytes / 4;
    const umbra::isa::InstrInfo* in = umbra::isa::find_opcode(uint8_t(op));
    return in && in->cls == umbra::isa::Class::Atomic && in->writes_a ? 1 : 0;
  }

  // The fixed-latency memory: the access happens now, the response beats (a fill's
  // line, a returning atomic's old word) come from `latency` cycles later.  Misaligned
  // (a fill: not line-aligned) or out-of-range requests are refused.
  void accept(const MemReq& q, RunResult* r) {
    if (q.op == umbra::isa::kPortOpFill) {
      if (q.addr % kLineBytes || uint64_t(q.addr) + kLineBytes > mem_.size()) {
        if (r->mem_fault.empty())
          r->mem_fault = "refused fill addr " + hex8(q.addr) + " tag " + std::to_string(q.tag);
        return;
      }
      for (uint32_t i = 0; i < kLineBytes / 4; ++i)
        responses_.push_back({cycle_ + latency_ + i, word(q.addr + 4 * i), q.tag});
      last_beat_ = cycle_ + latency_ + kLineBytes / 4 - 1;
      return;
    }
    const umbra::isa::InstrInfo* in = umbra::isa::find_opcode(uint8_t(q.op));
    if (!in || in->cls == umbra::isa::Class::Load || (q.addr & 3) || uint64_t(q.addr) + 4 > mem_.size()) {
      if (r->mem_fault.empty())
        r->mem_fault =
            "refused request op " + hex8(q.op) + " addr " + hex8(q.addr) + " tag " + std::to_string(q.tag);
      return;
    }
    const uint32_t old = word(q.addr);
    bool returns = false;
    switch (in->cls) {
      case umbra::isa::Class::Store: set_word(q.addr, q.data); break;
      case umbra::isa::Class::Atomic: {
        umbra::RegValues v;
        v.a = q.cmp;
        v.c = q.data;
        set_word(q.addr, umbra::atomic_update(in->op, old, v));
        returns = in->writes_a;
        break;
      }
      default: break;
    }
    if (returns) {
      responses_.push_back({cycle_ + latency_, old, q.tag});
      last_beat_ = cycle_ + latency_;
    }
  }

  struct Pending {
    uint64_t due;
    uint32_t data;
    unsigned tag;
  };
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vumbra_core> top_;
  unsigned latency_;
  std::vector<uint8_t> mem_;
  std::deque<Pending> responses_;
  uint64_t last_beat_ = 0;  // the cycle of the last response beat scheduled
  uint64_t cycle_ = 0;
};

// ---- reference ----------------------------------------------------------------------------
struct Reference {
  umbra::iss::RunResult result;
  std::vector<std::vector<umbra::Retired>> retired;  // per thread
  std::vector<uint8_t> memory;
};

umbra::Config config() {
  umbra::Config c;
  c.threads = kThreads;
  c.registers = kRegs;
  c.imem_words = kImemWords;
  c.mem_bytes = kMemBytes;
  return c;
}

Reference reference(const umbra::Program& p, unsigned n, uint64_t max_instructions) {
  Reference ref;
  umbra::iss::Simulator sim(config());
  sim.load(p);
  ref.retired.resize(n);
  ref.result =
      sim.run(n, max_instructions, [&](unsigned t, const umbra::Retired& r) { ref.retired[t].push_back(r); });
  ref.memory = sim.memory().bytes();
  return ref;
}

umbra::Program assemble(const std::string& src, unsigned registers = kRegs) {
  umbra::as::Options o;
  o.registers = registers;
  umbra::as::Result res = umbra::as::assemble_string(src, g_test + ".s", o);
  if (!res.ok()) {
    for (const auto& d : res.errors) std::fprintf(stderr, "%s", d.render().c_str());
    std::fprintf(stderr, "core_bench: test %s does not assemble\n", g_test.c_str());
    std::exit(2);
  }
  return res.program;
}

// ---- checks ---------------------------------------------------------------------------------

// Meaning: the RTL's per-thread register writes and memory requests against the ISS's
// retired instructions, and the final memory.  Threads that fault in the ISS are
// compared only up to the fault.
void check_against_iss(const RunResult& r, const Reference& ref, const std::vector<uint8_t>& mem, unsigned n,
                       bool compare_clock = false) {
  const uint32_t rdsr_clock = (uint32_t(umbra::isa::info(umbra::isa::Op::RDSR).opcode) << 24) |
                              (uint32_t(umbra::isa::sreg::CLOCK) << 8);
  // Threads reach memory in an order the memory system decides (a pushing instruction
  // is replayed while the request FIFO is full), the ISS in round-robin order: a load
  // or returning atomic that read another value than the ISS's saw another thread's
  // order.  Its thread is not compared further, nor is the final memory.
  bool other_order = false;
  for (unsigned t = 0; t < n; ++t) {
    std::vector<RegWrite> got;
    std::vector<MemReq> got_mem, got_fills;
    for (const RegWrite& w : r.writes)
      if (w.thread == t) got.push_back(w);
    for (const MemReq& q : r.reqs)
      if (q.tag == t) (q.op == umbra::isa::kPortOpFill ? got_fills : got_mem).push_back(q);
    std::vector<const umbra::Retired*> want, want_mem;
    std::vector<uint32_t> loaded_lines;
    for (const umbra::Retired& x : ref.retired[t]) {
      if (x.fault != umbra::Fault::None) break;
      if (x.writes_reg) want.push_back(&x);
      if (x.mem == umbra::Retired::Mem::Load)
        loaded_lines.push_back(x.addr / kLineBytes * kLineBytes);
      else if (x.mem != umbra::Retired::Mem::None)
        want_mem.push_back(&x);
    }
    // A thread's fills are for lines it loads from, at most one per load.
    CHECK(got_fills.size() <= loaded_lines.size(),
          "thread " << t << ": " << got_fills.size() << " fills for " << loaded_lines.size() << " loads");
    for (const MemReq& q : got_fills)
      CHECK(std::find(loaded_lines.begin(), loaded_lines.end(), q.addr) != loaded_lines.end(),
            "thread " << t << ": fill of line " << hex8(q.addr) << ", which it never loads from");
    CHECK(got.size() == want.size(),
          "thread " << t << ": " << got.size() << " register writes, ISS has " << want.size());
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      const RegWrite& g = got[i];
      const umbra::Retired& w = *want[i];
      // `clock` counts cycles in the core and issue slots in the ISS.
      const bool is_clock = (w.word & 0xff00ff00u) == rdsr_clock;
      const auto d = umbra::isa::decode(w.word);
      const bool reads_memory = d && (d->info->cls == umbra::isa::Class::Load ||
                                      (d->info->cls == umbra::isa::Class::Atomic && d->info->writes_a));
      if (g.pc == w.pc && g.reg == w.reg && g.value != w.value && reads_memory) {
        if (g_verbose)
          std::printf("[%s] thread %u write %zu: %s read %s, the ISS %s (another thread's order)\n",
                      g_test.c_str(), t, i, umbra::isa::disassemble(w.word, w.pc).c_str(),
                      hex8(g.value).c_str(), hex8(w.value).c_str());
        other_order = true;
        break;
      }
      if (g.pc != w.pc || g.reg != w.reg || (g.value != w.value && (compare_clock || !is_clock))) {
        CHECK(false, "thread " << t << " write " << i << ": RTL pc " << hex8(g.pc) << " r" << g.reg << " = "
                               << hex8(g.value) << ", ISS pc " << hex8(w.pc) << " r" << unsigned(w.reg)
                               << " = " << hex8(w.value) << "  (" << umbra::isa::disassemble(w.word, w.pc)
                               << ")");
        break;
      }
    }
    CHECK(got_mem.size() == want_mem.size(),
          "thread " << t << ": " << got_mem.size() << " memory requests, ISS has " << want_mem.size());
    for (size_t i = 0; i < std::min(got_mem.size(), want_mem.size()); ++i) {
      const MemReq& g = got_mem[i];
      const umbra::Retired& w = *want_mem[i];
      const bool store = w.mem == umbra::Retired::Mem::Store;
      if (g.op != (w.word >> 24) || g.addr != w.addr || (store && g.data != w.data)) {
        CHECK(false, "thread " << t << " request " << i << ": RTL op " << hex8(g.op) << " addr "
                               << hex8(g.addr) << " data " << hex8(g.data) << ", ISS "
                               << umbra::isa::disassemble(w.word, w.pc) << " addr " << hex8(w.addr)
                               << " data " << hex8(w.data));
        break;
      }
    }
  }
  if (!ref.result.fault && !other_order) {
    size_t diffs = 0;
    for (size_t a = 0; a + 4 <= mem.size() && diffs < 4; a += 4)
      if (std::memcmp(&mem[a], &ref.memory[a], 4) != 0) {
        ++diffs;
        CHECK(false, "memory " << hex8(uint32_t(a)) << " differs from the ISS's");
      }
  }
}

// Timing: the contract's cycle-level rules, checked on the event streams.
void check_timing(const RunResult& r, unsigned n, unsigned latency) {
  // Slots: round-robin from the cycle after the launch; an issued pc is 4-aligned.
  std::vector<const Issue*> by_cycle;
  std::map<uint64_t, const Issue*> at;
  for (const Issue& is : r.issues) at[is.cycle] = &is;
  for (const Issue& is : r.issues) {
    CHECK(is.thread == is.cycle % kThreads, "cycle " << is.cycle << ": slot of thread " << is.thread);
    if (is.thread >= n && is.cycle > r.launch_cycle)
      CHECK(!is.valid && is.reason == kWhyIdle,
            "cycle " << is.cycle << ": thread " << is.thread << " was not launched but is not idle");
  }
  // Every register write of a computed result is depth - 1 cycles after its fetch; a
  // load's (or atom's) is depth - 1 + k*T cycles after, k = rounds slept, with a memory bubble in
  // each of the k slots in between.
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
  // A request reaches the port no earlier than 6 cycles after its fetch (C2 pushes it
  // into the request FIFO at the end of fetch + 5): its thread's latest slot at least
  // 6 cycles back issued a memory instruction.
  for (const MemReq& q : r.reqs) {
    uint64_t f = q.cycle - 6;
    while (f % kThreads != q.tag % kThreads && f > 0) --f;
    auto it = at.find(f);
    CHECK(it != at.end() && it->second->thread == q.tag,
          "request at cycle " << q.cycle << " has no slot of thread " << q.tag << " 6 or more cycles before");
  }
  (void)latency;
  // busy: falls when the last thread's exit has been applied (fetch writes X1's
  // outcome at the end of X2: exit fetched in e, state EXITED from e+5).
  if (r.finished && !r.fault && r.mem_fault.empty()) {
    uint64_t last_issue = 0;
    for (const Issue& is : r.issues)
      if (is.valid) last_issue = is.cycle;
    CHECK(r.busy_fell == last_issue + 5,
          "busy fell at cycle " << r.busy_fell << ", last instruction (exit) fetched at " << last_issue);
    for (const Issue& is : r.issues)
      if (is.cycle >= r.busy_fell && is.thread < n)
        CHECK(!is.valid && is.reason == kWhyExited,
              "thread " << is.thread << " not exited at cycle " << is.cycle);
  }
  CHECK(!r.protocol_error, "protocol error flagged");
}

// Runs a program on the RTL at a memory latency and checks it against the ISS.
RunResult run_program(const std::string& name, const std::string& src, unsigned n, unsigned latency,
                      uint64_t max_instructions = 200000, bool compare_clock = false) {
  g_test = name + " (T=" + std::to_string(kThreads) + ", latency " + std::to_string(latency) + ", " +
           std::to_string(n) + " threads)";
  const umbra::Program p = assemble(src);
  const Reference ref = reference(p, n, max_instructions);
  Bench b(latency);
  b.load(p);
  RunResult r = b.run(n, p.entry, 40 * max_instructions + 1000);
  if (g_verbose)
    std::printf("%s: %zu cycles, %zu writes, %zu requests\n", g_test.c_str(), r.issues.size(),
                r.writes.size(), r.reqs.size());
  if (ref.result.fault) {
    CHECK(false, "ISS faulted: " << ref.result.fault->message());
  } else {
    CHECK(r.finished, "busy never fell");
    CHECK(!r.fault, "core faulted: thread " << r.fault_thread << " pc " << hex8(r.fault_pc) << " cause "
                                            << r.fault_cause);
    CHECK(r.mem_fault.empty(), r.mem_fault);
  }
  check_against_iss(r, ref, b.memory(), n, compare_clock);
  check_timing(r, n, latency);
  return r;
}

// ---- directed programs ------------------------------------------------------------------------

const char* kAlu = R"(
        .text
_start: rdsr    r1, tid
        li      r2, 0x80000000
        li      r3, -7
        li      r4, 0x12345678
        movi    r5, 33
        add     r6, r2, r3
        sub     r7, r3, r4
        and     r8, r4, r3
        or      r9, r4, r2
        xor     r10, r4, r3
        shl     r11, r4, r5
        shr     r12, r2, r5
        sra     r13, r2, r5
        sra     r14, r3, r1
        mul     r15, r3, r4
        mulh    r16, r3, r4
        mulhu   r17, r3, r4
        mulh    r18, r2, r2
        mulhu   r19, r2, r3
        min     r20, r2, r3
        max     r21, r2, r3
        minu    r22, r2, r3
        maxu    r23, r2, r3
        seq     r24, r3, r3
        sne     r25, r3, r4
        slt     r26, r2, r3
        sltu    r27, r2, r3
        sle     r28, r3, r3
        sleu    r29, r4, r3
        addi    r30, r4, -128
        andi    r6, r4, -16
        ori     r7, r4, 127
        xori    r8, r4, -1
        shli    r9, r4, 31
        shri    r10, r3, 1
        srai    r11, r3, 1
        slti    r12, r3, -6
        seqi    r13, r3, -7
        muli    r14, r4, -3
        movhi   r15, 0xbeef
        add     r0, r4, r4
        add     r16, r0, r0
        mov     r17, r1
        neg     r18, r4
        not     r19, r4
        mul     r20, r4, r1
        muli    r21, r1, 100
        exit
)";

const char* kFloat = R"(
        .text
_start: rdsr    r1, tid
        itof    r2, r1
        li      r3, 0x3fc00000          # 1.5
        li      r4, 0xc0200000          # -2.5
        fadd    r5, r3, r4
        fsub    r6, r3, r4
        fmul    r7, r3, r4
        mov     r8, r2
        fmadd   r8, r3, r4
        fmin    r9, r3, r4
        fmax    r10, r3, r4
        fabs    r11, r4
        fneg    r12, r3
        fseq    r13, r3, r3
        fslt    r14, r4, r3
        fsle    r15, r3, r4
        ftoi    r16, r4
        fmul    r17, r2, r3
        li      r18, 0x7f7fffff         # largest finite
        fmul    r19, r18, r18           # overflow: +inf
        fsub    r20, r19, r19           # inf - inf: canonical NaN
        li      r21, 0x00400000         # a denormal: DAZ
        fadd    r22, r21, r3
        li      r23, 0x3f000000         # 0.5
        movi    r24, 0
        pack    r24, r3, r23            # 255, 128
        pack    r24, r23, r0
        li      r25, 0x80ff4000
        unpack  r26, r25, 0
        unpack  r27, r25, 1
        unpack  r28, r25, 2
        unpack  r29, r25, 3
        exit
)";

const char* kBranch = R"(
        .text
_start: rdsr    r1, tid
        movi    r2, 0                   # loop counter
        movi    r3, 0                   # accumulator
        addi    r4, r1, 3               # iterations: tid + 3
loop:   add     r3, r3, r2
        addi    r2, r2, 1
        blt     r2, r4, loop
        movi    r5, -1
        movi    r6, 1
        bge     r5, r6, bad             # signed: -1 < 1, not taken
        bltu    r5, r6, bad             # unsigned: 0xffffffff > 1, not taken
        bgeu    r5, r6, ok1
        j       bad
ok1:    beq     r5, r5, ok2
        j       bad
ok2:    bne     r5, r5, bad
        bz      r0, ok3
        j       bad
ok3:    bnz     r0, bad
        call    sub1
        la      r9, sub2
        jalr    r10, r9
        movi    r11, 77
        exit
sub1:   addi    r7, r3, 100
        ret
sub2:   addi    r8, r3, -100
        jalr    r0, r10
bad:    movi    r12, -1
        exit
)";

const char* kSpecial = R"(
        .text
_start: rdsr    r1, tid
        rdsr    r2, cid
        rdsr    r3, nthr
        rdsr    r4, ncore
        rdsr    r5, lx
        rdsr    r6, ly
        rdsr    r7, domw
        rdsr    r8, domh
        rdsr    r9, clock
        rdsr    r10, clock
        rdsr    r11, clockh
        sub     r12, r10, r9
        nop
        dinv    8(r1)
        dinvall
        dflush
        exit
)";

// Every thread loads, stores, and accumulates with atomics into shared words.
const char* kMemory = R"(
        .text
_start: rdsr    r1, tid
        la      r2, array
        shli    r3, r1, 2
        add     r4, r2, r3              # &array[tid]
        ldw     r5, 0(r4)
        addi    r6, r5, 1
        stw     r6, 64(r4)              # out[tid] = array[tid] + 1
        ldw     r7, 64(r4)
        ldw     r8, -4(r4)
        la      r9, counter
        movi    r10, 1
        red.add r9, r10
        atom.add r11, r9, r10           # old value: order-dependent, not compared
        la      r12, maxw
        red.max r12, r5
        atom.min r13, r12, r6
        la      r14, xw
        atom.xchg r15, r14, r1
        red.xchg r14, r1
        la      r16, casw
        movi    r17, 0
        movi    r18, 1
        red.cas r17, r16, r18
        atom.cas r17, r16, r18
        ldw     r0, 0(r4)               # a load into r0 still sleeps and wakes
        ldw     r19, 0(r4)
        ldw     r20, 4(r4)
        add     r21, r19, r20
        exit

        .data
        .word   -1
array:  .word   10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160
out:    .space  256
counter: .word  0
maxw:   .word   0
xw:     .word   0
casw:   .word   0
)";

// A load-heavy loop: sums 32 words per thread.
const char* kLoadLoop = R"(
        .text
_start: rdsr    r1, tid
        la      r2, data
        shli    r3, r1, 7
        add     r2, r2, r3
        movi    r4, 32
        movi    r5, 0
loop:   ldw     r6, 0(r2)
        add     r5, r5, r6
        addi    r2, r2, 4
        addi    r4, r4, -1
        bnz     r4, loop
        la      r7, sums
        shli    r8, r1, 2
        add     r7, r7, r8
        stw     r5, 0(r7)
        exit
        .data
sums:   .space  1024
data:   .word   1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
        .word   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
        .space  32768
)";

// Threads run different lengths: early exits give exited bubbles while others run.
const char* kRagged = R"(
        .text
_start: rdsr    r1, tid
        addi    r2, r1, 1
        muli    r2, r2, 3
loop:   addi    r2, r2, -1
        addi    r3, r3, 5
        bnz     r2, loop
        bz      r1, t0
        exit
t0:     movi    r4, 4
        exit
)";

void directed(unsigned latency) {
  run_program("alu", kAlu, kThreads, latency);
  run_program("float", kFloat, kThreads, latency);
  run_program("branch", kBranch, kThreads, latency);
  run_program("memory", kMemory, kThreads, latency);
  run_program("loadloop", kLoadLoop, kThreads, latency);
  run_program("ragged", kRagged, kThreads, latency);
  run_program("ragged", kRagged, 3, latency);
  run_program("loadloop", kLoadLoop, 1, latency);
}

// Special registers, checked against the contract rather than the ISS for `clock`.
void special_registers() {
  for (unsigned n : {1u, 5u, kThreads}) {
    RunResult r = run_program("special", kSpecial, n, 2);
    for (const RegWrite& w : r.writes) {
      const uint64_t f = w.cycle - (kDepth - 1);  // the fetch cycle
      if (w.reg == 9 || w.reg == 10)
        CHECK(w.value == uint32_t(f),
              "rdsr clock in thread " << w.thread << " read " << w.value << ", fetched in cycle " << f);
      if (w.reg == 11) CHECK(w.value == uint32_t(f >> 32), "rdsr clockh read " << w.value);
      if (w.reg == 12) CHECK(w.value == kThreads, "back-to-back rdsr clock differ by " << w.value);
    }
  }
}

// A launch_count above T starts every thread; domw still reads the count given.
void launch_beyond_threads() {
  g_test = "launch 1000 threads";
  const umbra::Program p = assemble(kSpecial);
  Bench b(2);
  b.load(p);
  const RunResult r = b.run(1000, p.entry, 5000);
  CHECK(r.finished && !r.fault, "did not run to completion");
  std::vector<bool> ran(kThreads, false);
  for (const RegWrite& w : r.writes) {
    ran[w.thread] = true;
    if (w.reg == 7) CHECK(w.value == 1000, "domw read " << w.value);
    if (w.reg == 1) CHECK(w.value == w.thread, "tid read " << w.value);
  }
  for (unsigned t = 0; t < kThreads; ++t) CHECK(ran[t], "thread " << t << " did not run");
}

// ---- faults ---------------------------------------------------------------------------------

struct FaultCase {
  std::string name, src;
  unsigned threads, thread;
  std::string label;  // where the fault is (or pc, when label is empty)
  uint32_t pc = 0;
  unsigned cause;                                     // umbra::Fault
  unsigned registers = kRegs;                         // to assemble for (above kRegs: the ISS cannot run it)
  std::vector<std::pair<uint32_t, uint32_t>> imem{};  // extra instruction-store words
  bool iss = true;                                    // the ISS sees the same fault
};

void expect_fault(const FaultCase& c) {
  g_test = "fault: " + c.name;
  const umbra::Program p = assemble(c.src, c.registers);
  Bench b(2);
  b.load(p);
  for (const auto& [index, word] : c.imem) b.write_imem(index, word);
  RunResult r = b.run(c.threads, p.entry, 20000);
  const uint32_t pc = c.label.empty() ? c.pc : *p.symbol(c.label);
  CHECK(r.fault, "no fault");
  CHECK(r.fault_thread == c.thread && r.fault_pc == pc && r.fault_cause == c.cause,
        "fault thread " << r.fault_thread << " pc " << hex8(r.fault_pc) << " cause " << r.fault_cause
                        << ", expected thread " << c.thread << " pc " << hex8(pc) << " cause " << c.cause);
  // The fault is on the port from X2 of the faulting instruction (fetch + 4).
  for (const Issue& is : r.issues)
    if (is.valid && is.thread == c.thread && is.pc == pc) {
      CHECK(r.fault_cycle == is.cycle + umbra::uarch::kFetchToX1 + 1,
            "fault raised in cycle " << r.fault_cycle << ", fetched in " << is.cycle);
      break;
    }
  // The faulting thread issues no more and writes nothing for the faulting instruction.
  for (const Issue& is : r.issues)
    CHECK(!(is.cycle > r.fault_cycle && is.thread == c.thread && is.valid), "faulted thread issued again");
  for (const RegWrite& w : r.writes)
    CHECK(!(w.thread == c.thread && w.pc == pc), "faulting instruction wrote");
  if (c.iss) {
    const Reference ref = reference(p, c.threads, 100000);
    CHECK(ref.result.fault && ref.result.fault->thread == c.thread && ref.result.fault->pc == pc &&
              unsigned(ref.result.fault->fault) == c.cause,
          "the ISS disagrees: " << (ref.result.fault ? ref.result.fault->message() : "no fault"));
  }
}

void faults() {
  const uint32_t nop = uint32_t(umbra::isa::info(umbra::isa::Op::NOP).opcode) << 24;
  const uint32_t last = (kImemWords - 1) * 4;
  expect_fault({"illegal opcode", R"(
        .text
_start: rdsr r1, tid
        bnz r1, done
        nop
bad:    .word 0xff000000
done:   exit
)",
                kThreads, 0, "bad", 0, 1});
  expect_fault({"reserved bits", R"(
        .text
_start: rdsr r1, tid
        movi r2, 2
        bne r1, r2, done
bad:    .word 0x02000001
done:   exit
)",
                kThreads, 2, "bad", 0, 1});
  expect_fault({"jalr misaligned", R"(
        .text
_start: rdsr r1, tid
        movi r2, 1
        bne r1, r2, done
        movi r3, 6
bad:    jalr r4, r3
done:   exit
)",
                kThreads, 1, "bad", 0, 4});
  expect_fault({"branch out of the store",
                R"(
        .text
_start: j done
bad:    bz r0, )" + std::to_string(kImemWords * 4) +
                    R"(
done:   j bad
)",
                1, 0, "bad", 0, 4});
  // The last word of the store is a nop: its sequential next pc is outside.
  expect_fault({"fall off the end",
                R"(
        .text
_start: rdsr r1, tid
        movi r2, 3
        bne r1, r2, done
        li   r3, )" +
                    std::to_string(last) + R"(
        jalr r0, r3
done:   exit
)",
                kThreads,
                3,
                "",
                last,
                4,
                kRegs,
                {{kImemWords - 1, nop}},
                false});
  if (kRegs < 256)
    expect_fault({"register beyond REGS",
                  R"(
        .text
_start: nop
bad:    add r1, r2, r)" +
                      std::to_string(kRegs) + R"(
        exit
)",
                  1,
                  0,
                  "bad",
                  0,
                  1,
                  256,
                  {},
                  false});

  // A misaligned data address is the memory's to refuse, not a core fault.
  g_test = "misaligned load";
  const umbra::Program p = assemble(R"(
        .text
_start: movi r1, 2
        ldw  r2, 0(r1)
        exit
)");
  Bench b(2);
  b.load(p);
  RunResult r = b.run(1, p.entry, 200);
  CHECK(!r.fault, "core fault on a misaligned address");
  CHECK(!r.mem_fault.empty(), "the misaligned request did not reach memory");
}

// ---- random straight-line programs ---------------------------------------------------------

std::string random_program(std::mt19937& rng) {
  using namespace umbra::isa;
  std::ostringstream s;
  const unsigned nregs = std::min(kRegs, 64u);
  auto reg = [&](bool nonzero) {
    return "r" + std::to_string(nonzero ? 1 + rng() % (nregs - 1) : rng() % nregs);
  };
  // r1 = tid, then random values in every register.
  s << "        .text\n_start: rdsr r1, tid\n        la r2, buf\n        shli r3, r1, 8\n        add r2, r2, "
       "r3\n";
  const unsigned first = 4;
  for (unsigned i = first; i < nregs; ++i) {
    uint32_t v = rng();
    switch (rng() % 6) {
      case 0: v &= 0xff; break;
      case 1: v = 0x3f800000u ^ (v & 0x81ffffffu); break;  // floats near 1
      case 2: v = (v & 0x80000000u) | (rng() % 2 ? 0 : 0x7f800000u) | (v & 0x7fffff); break;
      default: break;
    }
    s << "        li r" << i << ", " << int32_t(v) << "\n";
  }
  std::vector<const InstrInfo*> pool;
  for (unsigned i = 0; i < kNumOps; ++i) {
    const InstrInfo& in = kInstrs[i];
    if (in.cls == Class::Branch || in.op == Op::EXIT) continue;
    pool.push_back(&in);
  }
  const unsigned len = 40 + rng() % 80;
  for (unsigned k = 0; k < len; ++k) {
    const InstrInfo& in = *pool[rng() % pool.size()];
    s << "        " << in.name;
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const OperandInfo& op = in.operands[i];
      s << (i ? ", " : " ");
      switch (op.kind) {
        case Kind::Reg:
          // Keep r2 (the buffer pointer) intact; atomics address it.
          if (in.cls == Class::Atomic && op.field == Field::B)
            s << "r2";
          else if (op.access == Access::Write || op.access == Access::ReadWrite) {
            std::string r;
            do r = reg(false);
            while (r == "r2");
            s << r;
          } else {
            s << reg(false);
          }
          break;
        case Kind::Sreg: {
          // clock is compared by the special-register test, not here.
          static const char* names[] = {"tid", "cid", "nthr", "ncore", "lx", "ly", "domw", "domh"};
          s << names[rng() % 8];
          break;
        }
        case Kind::Mem: s << 4 * (rng() % 64) << "(r2)"; break;
        case Kind::Uimm5: s << rng() % 32; break;
        case Kind::Lane: s << rng() % 4; break;
        case Kind::Simm8: s << int(rng() % 256) - 128; break;
        case Kind::Simm16: s << int(rng() % 65536) - 32768; break;
        case Kind::Uimm16: s << rng() % 65536; break;
        default: s << 0; break;
      }
    }
    s << "\n";
  }
  s << "        exit\n        .data\nbuf:    .space " << 256 * kThreads << "\n";
  return s.str();
}

void random_programs(unsigned count, uint32_t seed) {
  std::mt19937 rng(seed);
  const unsigned latencies[] = {1, 2, 3, 7, 12, 25};
  for (unsigned i = 0; i < count; ++i) {
    const std::string src = random_program(rng);
    const unsigned latency = latencies[rng() % 6];
    run_program("random#" + std::to_string(i) + " seed " + std::to_string(seed), src, kThreads, latency);
    if (g_failures) {
      std::fprintf(stderr, "--- program ---\n%s", src.c_str());
      return;
    }
  }
}

// ---- the example programs -------------------------------------------------------------------

// The RTL as a model for the examples harness (examples/harness.h).
umbra::examples::Model rtl_model(unsigned latency) {
  return [latency](const umbra::examples::ModelJob& job) {
    umbra::examples::ModelOutcome out;
    Bench b(latency);
    b.load(*job.program);
    for (const auto& [addr, words] : job.writes)
      for (size_t i = 0; i < words.size(); ++i)
        for (int k = 0; k < 4; ++k) b.memory()[addr + 4 * i + k] = uint8_t(words[i] >> (8 * k));
    // A thread slot issues at most once per T cycles, plus what memory stalls cost.
    const RunResult r = b.run(job.threads, job.program->entry,
                              (job.max_instructions + 64) * kThreads * (2 + latency / kThreads) + 1000);
    for (const Issue& is : r.issues) out.instructions += is.valid;
    out.all_exited = r.finished && !r.fault;
    if (r.fault)
      out.fault = "core fault: thread " + std::to_string(r.fault_thread) + " pc " + hex8(r.fault_pc) +
                  " cause " + std::to_string(r.fault_cause);
    if (!r.mem_fault.empty()) out.fault += (out.fault.empty() ? "" : "; ") + r.mem_fault;
    if (r.protocol_error) out.fault += (out.fault.empty() ? "" : "; ") + std::string("protocol error");
    for (const umbra::examples::Span& sp : job.reads) {
      std::vector<uint32_t> words;
      for (uint32_t i = 0; i < sp.words; ++i) {
        const uint32_t a = sp.address + 4 * i;
        uint32_t w = 0;
        for (int k = 0; k < 4; ++k) w |= uint32_t(b.memory()[a + k]) << (8 * k);
        words.push_back(w);
      }
      out.reads.push_back(std::move(words));
    }
    return out;
  };
}

// Whether every register the program names exists in this core.
bool fits(const umbra::Program& p) {
  for (uint32_t w : p.text) {
    const auto d = umbra::isa::decode(w);
    if (!d) continue;
    for (unsigned i = 0; i < d->info->num_operands; ++i) {
      const umbra::isa::OperandInfo& op = d->info->operands[i];
      if (op.kind == umbra::isa::Kind::Reg && unsigned(d->operand(int(i))) >= kRegs) return false;
      if (op.kind == umbra::isa::Kind::Mem && d->mem_base() >= kRegs) return false;
    }
  }
  return true;
}

void examples(unsigned latency) {
  using namespace umbra::examples;
  const Model model = rtl_model(latency);
  for (const std::string& path : find_manifests(UMBRA_EXAMPLES_DIR)) {
    const Manifest m = load_manifest(path);
    g_test = "example " + m.name + " (T=" + std::to_string(kThreads) + ", latency " +
             std::to_string(latency) + ")";
    const umbra::examples::Reference* ref = find_reference(m.name);
    CHECK(ref, "no reference");
    if (!ref) continue;
    const umbra::Program p = assemble(m);
    if (!fits(p)) {
      if (g_verbose) std::printf("%s: skipped, it names registers beyond r%u\n", g_test.c_str(), kRegs - 1);
      continue;
    }
    for (const RunSpec& run : m.runs) {
      if (run.threads > kThreads) continue;
      const Verdict v = run_and_check(m, run, p, model, *ref);
      if (g_verbose)
        std::printf("%s %s: %" PRIu64 " instructions %s\n", g_test.c_str(), run.name.c_str(), v.instructions,
                    v.passed ? "ok" : "FAILED");
      CHECK(v.passed, run.name << ":\n" << v.summary());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t seed = 1;
  unsigned randoms = 200;
  bool with_examples = true;
  std::string emit_dir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = uint32_t(std::strtoul(argv[++i], nullptr, 0));
    else if (!std::strcmp(argv[i], "--random") && i + 1 < argc)
      randoms = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (!std::strcmp(argv[i], "--verbose"))
      g_verbose = true;
    else if (!std::strcmp(argv[i], "--no-examples"))
      with_examples = false;
    else if (!std::strcmp(argv[i], "--emit") && i + 1 < argc)
      emit_dir = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--seed N] [--random N] [--no-examples] [--verbose] [--emit DIR]\n",
                   argv[0]);
      return 2;
    }
  }
  Verilated::commandArgs(argc, argv);

  if (!emit_dir.empty()) {
    auto emit = [&](const std::string& name, const std::string& src) {
      const std::string path = emit_dir + "/" + name + ".s";
      std::FILE* f = std::fopen(path.c_str(), "w");
      if (!f || std::fputs(src.c_str(), f) < 0 || std::fclose(f) != 0) {
        std::fprintf(stderr, "core_bench: cannot write %s\n", path.c_str());
        std::exit(2);
      }
    };
    const std::pair<const char*, const char*> directed[] = {
        {"alu", kAlu},       {"float", kFloat},       {"branch", kBranch}, {"special", kSpecial},
        {"memory", kMemory}, {"loadloop", kLoadLoop}, {"ragged", kRagged}};
    for (const auto& [name, src] : directed) emit(name, src);
    std::mt19937 rng(seed);
    for (unsigned i = 0; i < randoms; ++i) emit("random" + std::to_string(i), random_program(rng));
    return 0;
  }

  for (unsigned latency : {1u, 2u, 3u, 10u, 12u, 30u}) directed(latency);
  special_registers();
  launch_beyond_threads();
  faults();
  if (!g_failures) random_programs(randoms, seed);
  if (with_examples)
    for (unsigned latency : {2u, 12u}) examples(latency);

  if (g_failures) {
    std::fprintf(stderr, "core_bench (T=%u, REGS=%u): %d failure(s)\n", kThreads, kRegs, g_failures);
    return 1;
  }
  std::printf("core_bench (T=%u, REGS=%u, IMEM_WORDS=%u): all checks passed\n", kThreads, kRegs, kImemWords);
  return 0;
}
