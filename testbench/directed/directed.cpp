// Generator of the directed test programs (directed.h).  Each case of a program loads
// its operand registers with `li`, runs the instruction once and stores the result
// into the thread's output area; the operand text is built from the instruction's
// operand list in the ISA table, so the generator names no instruction except where
// an operand's meaning needs a set-up the table cannot tell (a jump target in a
// register, the compare value of a cas, the special registers whose value is a time).
//
// Registers: r1..r3 operands read, r10 the result, r20 lx (the work item: the thread's
// number across every core, its tid on one core), r21 the thread's output
// area, r22 tid * 128 (kAreaBytes), r23 the thread's scratch area, r24 a word all threads
// share, r25 a word of the thread's own, r26 a per-thread bit pattern.
#include "directed.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "umbra/format.h"

namespace umbra::directed {

namespace {

constexpr unsigned kCases = 24;  // per thread, plus a few directed ones
// bz/bnz run fewer pool cases: with their 260-word slide (below) the program must fit
// a 512-word instruction store.
constexpr unsigned kLongBranchCases = 16;
// A store below 512 words (the HX8K's 256) has no room for the slide, and every
// program runs fewer cases: the longest, jalr's, takes about 12 words a case.
constexpr unsigned kSlideStoreWords = 512;
constexpr unsigned kSmallStoreCases = 16;
// Each thread's output area and scratch area: 32 words each, so that 16 threads' fill
// the 4 KiB of the HX8K's data memory; the shared word is thread 0's scratch word 30
// and each thread's own word its scratch word 31, which no case loads.
constexpr unsigned kAreaBytes = 128;
constexpr unsigned kScratchWords = kAreaBytes / 4;
static_assert(kCases < kScratchWords - 2, "cases load scratch words 0..kCases-1");

// Integer edges and ordinary values.
const uint32_t kIntPool[] = {0,          1,           0xffffffffu, 2,           0x7fffffffu, 0x80000000u,
                             0x12345678, 0xdeadbeefu, 31,          32,          33,          0xffff,
                             0x10000,    0xffff8000u, 5,           0x80000001u, 0xfffffffeu, 0x00ff00ff};
// binary32: signed zeros, one, fractions, infinities, quiet and signalling NaNs,
// denormals (flushed), the largest finite, integers near 2^23 and 2^31 (conversion
// edges), values a pixel pack saturates.
const uint32_t kFloatPool[] = {0x00000000, 0x80000000u, 0x3f800000, 0xbfc00000u, 0x7f800000, 0xff800000u,
                               0x7fc00000, 0x7f800001,  0x00000001, 0x807fffffu, 0x7f7fffff, 0x4b000000,
                               0x4f000000, 0xcf000000u, 0x3eaaaaab, 0x40490fdb,  0x3f000000, 0x437f0000};

// Immediates for an operand kind: both ends of its range, around zero, and a middle.
std::vector<int64_t> immediates(isa::Kind k) {
  const isa::Range r = isa::operand_range(k);
  std::vector<int64_t> out;
  for (int64_t v : {r.lo, r.hi, int64_t(0), int64_t(1), int64_t(-1), r.lo + 1, r.hi - 1, r.hi / 2, r.lo / 2,
                    int64_t(3), int64_t(7), int64_t(-5)})
    if (v >= r.lo && v <= r.hi && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

bool named(const isa::InstrInfo& in, const char* suffix) {
  const std::string n = in.name;
  const std::string s = suffix;
  return n.size() >= s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0;
}

bool name_is(const isa::InstrInfo& in, const char* name) {
  return std::string(in.name) == name;
}

std::string case_program(const isa::InstrInfo& in, unsigned threads, unsigned imem_words,
                         unsigned& cases_out) {
  const bool small_store = imem_words < kSlideStoreWords;
  const bool is_float = in.cls == isa::Class::Float;
  const uint32_t* pool = is_float ? kFloatPool : kIntPool;
  const unsigned pool_n = is_float ? std::size(kFloatPool) : std::size(kIntPool);
  std::string s;
  s += "# directed test of `" + std::string(in.name) + "`: " + in.semantics + "\n";
  s += "        .text\n_start:\n";
  s += "        rdsr    r20, lx\n";
  s += "        shli    r22, r20, 7\n";  // kAreaBytes
  s += "        la      r21, out\n        add     r21, r21, r22\n";
  s += "        la      r23, scratch\n        add     r23, r23, r22\n";
  s += "        la      r24, scratch\n        addi    r24, r24, 120\n";  // thread 0's word 30
  s += "        addi    r25, r23, 124\n";                                // the thread's word 31
  s += "        li      r26, 0x01010101\n        mul     r26, r26, r20\n";

  unsigned cases = 0;
  const bool long_branch = !small_store && (name_is(in, "bz") || name_is(in, "bnz"));
  const unsigned pool_cases = small_store ? kSmallStoreCases : long_branch ? kLongBranchCases : kCases;
  for (unsigned k = 0; k < pool_cases; ++k) {
    const uint32_t a = pool[k % pool_n], b = pool[(k * 7 + 3) % pool_n], c = pool[(k * 5 + 1) % pool_n];
    const std::string label = "case" + std::to_string(k) + "_target";
    s += "        # case " + std::to_string(k) + "\n";
    s += "        li      r1, " + hex8(a) + "\n        li      r2, " + hex8(b) + "\n        li      r3, " +
         hex8(c) + "\n";
    // Odd cases differ per thread (thread 0 keeps the pool's values).
    if (k % 2) s += "        xor     r1, r1, r26\n";
    // Every third case has equal first operands: compares and branches see equality.
    if (k % 3 == 2) s += "        addi    r2, r1, 0\n";
    // Atomics: add/min/max alternate between the shared word (contention) and the
    // thread's own; exchanges and cas use the thread's own word, whose final value
    // would otherwise depend on the order of the threads.
    const bool atomic = in.cls == isa::Class::Atomic;
    const bool order_free = named(in, ".add") || named(in, ".min") || named(in, ".max");
    const std::string addr_reg = atomic && order_free && k % 2 == 0 ? "r24" : "r25";
    const bool cas = atomic && named(in, ".cas");
    if (cas) {
      // Compare with the word's current value (swaps) or one off (does not).
      const std::string cmp = in.writes_a ? "r10" : "r1";
      s += "        ldw     " + cmp + ", 0(r25)\n";
      if (k % 2) s += "        addi    " + cmp + ", " + cmp + ", 1\n";
    } else if (in.num_operands && in.operands[0].kind == isa::Kind::Reg &&
               in.operands[0].access == isa::Access::ReadWrite) {
      s += "        li      r10, " + hex8(c ^ 0x5a5a5a5a) + "\n";
    }
    const bool branch = in.cls == isa::Class::Branch;
    if (branch) s += "        movi    r10, 1\n";

    std::string text = std::string("        ") + in.name;
    unsigned reads = 0;
    bool stores_result = in.writes_a;
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const isa::OperandInfo& op = in.operands[i];
      std::string t;
      switch (op.kind) {
        case isa::Kind::Reg:
          if (op.access == isa::Access::Write || op.access == isa::Access::ReadWrite)
            t = "r10";
          else if (atomic && op.field == isa::Field::B)
            t = addr_reg;
          else if (cas && !in.writes_a && op.field == isa::Field::A)
            t = "r" + std::to_string(1 + reads++);  // red.cas's compare value, loaded above
          else if (in.op == isa::find_name("jalr")->op)
            t = "r1";  // the jump target, set below
          else
            t = "r" + std::to_string(1 + reads++ % 3);
          break;
        case isa::Kind::Sreg: {
          const isa::SpecialRegInfo& sr = isa::kSpecialRegs[k % isa::kNumSpecialRegs];
          t = sr.name;
          // A time: the cycle models and the ISS legitimately differ; the cosim still
          // compares the two cycle models exactly, but memory must match the ISS.
          if (std::string(sr.name) == "clock" || std::string(sr.name) == "clockh") stores_result = false;
          break;
        }
        case isa::Kind::Mem: t = std::to_string(4 * (k % kScratchWords)) + "(r23)"; break;
        case isa::Kind::Br8:
        case isa::Kind::Br16:
        case isa::Kind::Br24: t = label; break;
        default: {
          const auto imms = immediates(op.kind);
          t = std::to_string(imms[k % imms.size()]);
        }
      }
      text += (i ? ", " : " ") + t;
    }
    if (in.op == isa::find_name("jalr")->op) s += "        la      r1, " + label + "\n";
    s += text + "\n";
    if (branch) {
      // Taken: r10 keeps 1 (or the link address); not taken: the next instruction sets 2.
      s += "        movi    r10, 2\n";
      s += label + ":\n";
      stores_result = true;
    }
    if (stores_result) s += "        stw     r10, " + std::to_string(4 * k) + "(r21)\n";
    ++cases;
  }
  // fadd/fsub: sums exactly halfway between two binary32 values, which round to the
  // even one (1 + 2^-24 -> 1; (1 + 2^-23) + 2^-24 -> 1 + 2^-22; 2^23 + 1.5 -> 2^23 + 2),
  // positive and negative.  Pool pairs reach a tie only by luck.
  if (name_is(in, "fadd") || name_is(in, "fsub")) {
    static const uint32_t ties[][2] = {{0x3f800000, 0x33800000},   {0x3f800001, 0x33800000},
                                       {0xbf800000u, 0xb3800000u}, {0x4b000001, 0x3f000000},
                                       {0x4b000000, 0x3f000000},   {0xcb000003u, 0xbf000000u}};
    const uint32_t flip = name_is(in, "fsub") ? 0x80000000u : 0;  // a - (-b) = a + b
    for (const auto& t : ties) {
      s += "        # round to nearest, ties to even\n";
      s += "        li      r1, " + hex(t[0]) + "\n        li      r2, " + hex(t[1] ^ flip) + "\n";
      s += std::string("        ") + in.name + " r10, r1, r2\n";
      s += "        stw     r10, " + std::to_string(4 * cases) + "(r21)\n";
      ++cases;
    }
  }
  // bz/bnz: a backward branch (its offset's high byte, where an R-format instruction has
  // field b, is 0xff) and a forward one over 260 words (high byte 1: r1, made non-zero),
  // each taken and then not taken.  A decoder that reads field b of a branch as a register
  // must not change what the branch does.
  if (name_is(in, "bz") || name_is(in, "bnz")) {
    const bool bz = name_is(in, "bz");
    s += "        # backward, taken twice then not\n";
    s += "        movi    r13, 0\n";
    s += "back_loop:\n        addi    r13, r13, 1\n        slti    r14, r13, 3\n";
    if (bz) s += "        xori    r14, r14, 1\n";
    s += std::string("        ") + in.name + " r14, back_loop\n";
    s += "        stw     r13, " + std::to_string(4 * cases++) + "(r21)\n";
    if (long_branch) {
      // Both branches jump over the same slide, so the program stays inside a
      // 512-word instruction store: the first is not taken and stores at once, the
      // second is taken and stores behind the slide.
      s += "        # forward over 260 words, not taken and then taken\n";
      s += "        li      r1, 0x5a5a5a5a\n";
      for (int taken = 0; taken <= 1; ++taken) {
        const std::string r = taken ? "r12" : "r11";
        s += "        movi    r10, " + std::to_string(bz == bool(taken) ? 0 : 1) + "\n";
        s += "        movi    " + r + ", 7\n";
        s += std::string("        ") + in.name + " r10, long_target\n";
        s += "        movi    " + r + ", 9\n";
        if (!taken) s += "        stw     r11, " + std::to_string(4 * cases++) + "(r21)\n";
      }
      // 260 words: an offset above 255 words (high byte 1), with a margin, in 512 words.
      for (int i = 0; i < 260; ++i) s += "        nop\n";
      s += "long_target:\n";
      s += "        stw     r12, " + std::to_string(4 * cases++) + "(r21)\n";
    }
  }
  s += "        exit\n\n        .data\n";
  if (4 * cases > kAreaBytes) {
    std::fprintf(stderr, "umbra::directed: %s has %u cases, more than a thread's output area holds\n",
                 in.name, cases);
    std::abort();
  }
  s += "out:    .space " + std::to_string(threads * kAreaBytes) + "\n";
  s += "scratch:\n";
  for (unsigned t = 0; t < threads; ++t) {
    s += "        .word ";
    for (unsigned w = 0; w < kScratchWords; ++w)
      s += (w ? ", " : "") + hex8(0x9e3779b9u * (t * kScratchWords + w + 1));
    s += "\n";
  }
  cases_out = cases;
  return s;
}

}  // namespace

std::vector<Program> programs(unsigned threads, unsigned imem_words) {
  std::vector<Program> out;
  for (const isa::InstrInfo& in : isa::kInstrs) {
    if (std::string(in.name) == "exit") continue;
    Program p;
    p.name = in.name;
    p.instr = &in;
    p.source = case_program(in, threads, imem_words, p.cases);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace umbra::directed
