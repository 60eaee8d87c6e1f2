// core_bench: bring-up bench for rtl/umbra_core.v, Verilated as plain C++ (no SystemC;
// the cosimulation against the SystemC model is a separate testbench).  It assembles
// small programs with the umbra_asm library and runs them on the bare core with the
// fixed-latency memory (core_driver.h), each run checked against the reference
// simulator for meaning and against docs/microarchitecture.md for timing
// (core_checks.h).
//
// The tests are directed programs (ALU, FP, control flow, special registers, memory
// and atomics, faults, partial launches, resets mid-run), random straight-line programs over every
// non-control instruction, and every example program (examples/*.yaml) with the RTL
// as the examples harness's model, checked against the examples' own references.  The
// core's parameters are fixed at Verilation time; the CMake file builds this bench once
// per configuration (core_driver.h).
//
//   core_bench [--seed N] [--random N] [--no-examples] [--verbose]
//   core_bench --emit DIR [--seed N] [--random N]   writes the directed and random
//              programs as DIR/*.s (to run them on other models, e.g. umbra-cosim)
//   core_bench --reset-only   only the resets in the middle of a run
// The mutation campaign's full stage runs `--no-examples --random 0`: everything but
// the long parts, about a second.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core_checks.h"
#include "core_driver.h"
#include "harness.h"
#include "reference.h"
#include "umbra/asm.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "verilated.h"

namespace {

using namespace corebench;
using umbra::hex8;

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

// Runs a program on the RTL at a memory latency and checks it against the ISS.
CoreTrace run_program(const std::string& name, const std::string& src, unsigned n, unsigned latency,
                      uint64_t max_instructions = 200000) {
  g_test = name + " (T=" + std::to_string(kThreads) + ", latency " + std::to_string(latency) + ", " +
           std::to_string(n) + " threads)";
  const umbra::Program p = assemble(src);
  const umbra::check::Reference ref = reference(p, n, max_instructions);
  CoreDriver b(latency);
  b.load(p);
  CoreTrace r = b.run(n, p.entry, 40 * max_instructions + 1000);
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
  check_against_iss(p, r, ref, b.memory().bytes(), n);
  check_timing(r, n);
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
    CoreTrace r = run_program("special", kSpecial, n, 2);
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
  CoreDriver b(2);
  b.load(p);
  const CoreTrace r = b.run(1000, p.entry, 5000);
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
  CoreDriver b(2);
  b.load(p);
  for (const auto& [index, word] : c.imem) b.write_imem(index, word);
  CoreTrace r = b.run(c.threads, p.entry, 20000);
  const uint32_t pc = c.label.empty() ? c.pc : *p.symbol(c.label);
  CHECK(r.fault, "no fault");
  CHECK(r.fault_thread == c.thread && r.fault_pc == pc && r.fault_cause == c.cause,
        "fault thread " << r.fault_thread << " pc " << hex8(r.fault_pc) << " cause " << r.fault_cause
                        << ", expected thread " << c.thread << " pc " << hex8(pc) << " cause " << c.cause);
  // Held until reset, whatever the other threads do (the run goes on 2 x depth cycles).
  CHECK(!r.fault_dropped, "the fault outputs changed in cycle "
                              << r.fault_dropped << ", after the fault in cycle " << r.fault_cycle);
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
    const umbra::check::Reference ref = reference(p, c.threads, 100000);
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
  CoreDriver b(2);
  b.load(p);
  CoreTrace r = b.run(1, p.entry, 200);
  CHECK(!r.fault, "core fault on a misaligned address");
  CHECK(!r.mem_fault.empty(), "the misaligned request did not reach memory");
}

// ---- reset in the middle of a run --------------------------------------------------------------
// The board's RESET command (fpga/host_link.v) resets the core wherever it is: with
// instructions in every stage, loads in flight and threads asleep.  The contract
// (docs/microarchitecture.md, "Reset and cycle numbers") is then the same as at power-up:
// from cycle 0 the stream is idle bubbles until a launch, with no register write, no
// memory request, busy and fault low; and a program launched after it runs exactly as
// on a fresh core (the register file is not cleared, so the programs here write every
// register before reading it).  The power-up reset cannot show a flag reset to the wrong
// value, as the pipeline holds nothing then; a reset mid-run can (issue 15's reset-value
// mutants), so this resets at every cycle of a run's first few pipeline fills, and at
// a few later points, for 1 cycle (as the cosimulation does) and 4 (the board).

bool same_events(const CoreTrace& a, const CoreTrace& b, std::string* what) {
  const auto rel = [](const CoreTrace& r, uint64_t c) { return c - r.launch_cycle; };
  if (a.issues.size() != b.issues.size() || a.writes.size() != b.writes.size() ||
      a.reqs.size() != b.reqs.size() || a.resps.size() != b.resps.size()) {
    *what = "event counts differ: issues " + std::to_string(a.issues.size()) + "/" +
            std::to_string(b.issues.size()) + ", writes " + std::to_string(a.writes.size()) + "/" +
            std::to_string(b.writes.size()) + ", requests " + std::to_string(a.reqs.size()) + "/" +
            std::to_string(b.reqs.size());
    return false;
  }
  for (size_t i = 0; i < a.issues.size(); ++i) {
    const Issue &x = a.issues[i], &y = b.issues[i];
    if (rel(a, x.cycle) != rel(b, y.cycle) || x.thread != y.thread || x.valid != y.valid || x.pc != y.pc ||
        x.reason != y.reason) {
      *what = "issue slot " + std::to_string(i) + " differs";
      return false;
    }
  }
  for (size_t i = 0; i < a.writes.size(); ++i) {
    const RegWrite &x = a.writes[i], &y = b.writes[i];
    if (rel(a, x.cycle) != rel(b, y.cycle) || x.thread != y.thread || x.pc != y.pc || x.reg != y.reg ||
        x.value != y.value) {
      *what = "register write " + std::to_string(i) + " differs";
      return false;
    }
  }
  for (size_t i = 0; i < a.reqs.size(); ++i) {
    const MemReq &x = a.reqs[i], &y = b.reqs[i];
    if (rel(a, x.cycle) != rel(b, y.cycle) || x.op != y.op || x.tag != y.tag || x.addr != y.addr ||
        x.data != y.data || x.cmp != y.cmp) {
      *what = "memory request " + std::to_string(i) + " differs";
      return false;
    }
  }
  if (a.fault != b.fault || a.finished != b.finished || rel(a, a.busy_fell) != rel(b, b.busy_fell)) {
    *what = "fault or end differs";
    return false;
  }
  return true;
}

unsigned reset_mid_run() {  // returns the resets it made
  unsigned resets = 0;
  const unsigned latency = 3;
  const std::pair<const char*, const char*> programs[] = {{"memory", kMemory}, {"loadloop", kLoadLoop}};
  for (const auto& [name, src] : programs) {
    g_test = std::string("reset mid-run: ") + name;
    const umbra::Program p = assemble(src);
    CoreDriver fresh(latency);
    fresh.load(p);
    const CoreTrace want = fresh.run(kThreads, p.entry, 200000);
    CHECK(want.finished && !want.fault, "the fresh run did not finish");
    std::vector<uint64_t> points;
    for (uint64_t k = 1; k <= 3 * kDepth; ++k) points.push_back(k);
    for (uint64_t k : {40u, 77u, 150u, 301u}) points.push_back(k);
    for (unsigned hold : {1u, 4u}) {
      for (uint64_t k : points) {
        g_test = std::string("reset mid-run: ") + name + ", rst for " + std::to_string(hold) +
                 " at launch + " + std::to_string(k);
        CoreDriver b(latency);
        b.load(p);
        b.run(kThreads, p.entry, k);  // stopped after k cycles, mid-run
        b.reset(hold);
        ++resets;
        const CoreTrace quiet = b.observe(2 * kThreads + 4 * kDepth + 4 * latency);
        size_t issued = 0;
        for (const Issue& is : quiet.issues)
          issued += is.valid || is.reason != unsigned(umbra::uarch::BubbleReason::Idle);
        CHECK(issued == 0, issued << " slots after the reset were not idle bubbles");
        CHECK(quiet.writes.empty(), quiet.writes.size()
                                        << " register write(s) after the reset, the first to r"
                                        << quiet.writes[0].reg << " of thread " << quiet.writes[0].thread
                                        << " in cycle " << quiet.writes[0].cycle);
        CHECK(quiet.reqs.empty(), quiet.reqs.size() << " memory request(s) after the reset");
        CHECK(!quiet.fault,
              "fault after the reset: thread " << quiet.fault_thread << " pc " << hex8(quiet.fault_pc));
        CHECK(quiet.busy_cycles == 0, "busy in " << quiet.busy_cycles << " cycles after the reset");
        CHECK(!quiet.protocol_error, "protocol error after the reset");
        // The same program again, data reloaded (the first run changed it): the fresh run.
        b.load(p);
        const CoreTrace again = b.run(kThreads, p.entry, 200000);
        std::string what;
        CHECK(same_events(again, want, &what), "the run after the reset differs from a fresh one: " << what);
        CHECK(b.memory().bytes() == fresh.memory().bytes(), "memory after the relaunched run differs");
      }
    }
  }
  return resets;
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
  return {[latency](const umbra::examples::ModelJob& job) {
    umbra::examples::ModelOutcome out;
    CoreDriver b(latency);
    b.load(*job.program);
    for (const auto& [addr, words] : job.writes)
      for (size_t i = 0; i < words.size(); ++i) b.memory().poke32(addr + uint32_t(4 * i), words[i]);
    // A thread slot issues at most once per T cycles, plus what memory stalls cost.
    const CoreTrace r = b.run(job.threads, job.program->entry,
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
        words.push_back(b.memory().peek32(a));
      }
      out.reads.push_back(std::move(words));
    }
    return out;
  }};  // one core
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
      if (run.domain() || run.command_run()) {  // a lone core has no dispatcher (umbra_system's)
        if (g_verbose)
          std::printf("%s %s: skipped, a domain launch needs the system top\n", g_test.c_str(),
                      run.name.c_str());
        continue;
      }
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
  bool reset_only = false;
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
    else if (!std::strcmp(argv[i], "--reset-only"))
      reset_only = true;
    else {
      std::fprintf(
          stderr,
          "usage: %s [--seed N] [--random N] [--no-examples] [--verbose] [--emit DIR] [--reset-only]\n",
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

  if (reset_only) {
    const unsigned resets = reset_mid_run();
    std::printf("core_bench --reset-only (T=%u, L=%u): %u resets mid-run, %d failure(s)\n", kThreads,
                kExecStages, resets, g_failures);
    return g_failures ? 1 : 0;
  }
  for (unsigned latency : {1u, 2u, 3u, 10u, 12u, 30u}) directed(latency);
  special_registers();
  launch_beyond_threads();
  faults();
  reset_mid_run();
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
