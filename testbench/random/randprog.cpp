// The constrained-random program generator (randprog.h).
//
// All threads run the same text; what differs is the data, reached through registers
// set from `lx` at the start (the work item: with several cores, core c's thread t is
// c * T + t, so every core's threads have cells of their own while the read-only table
// and the shared words are shared across cores), so a program stays small enough for the instruction
// store whatever T is.  The generator tracks just enough state to keep every access
// legal by construction (the base register of the private chunk and whether it still
// points at a chunk start), and the reference-simulator run in generate() confirms it.
//
// Only instructions of the configuration's extension groups (core.groups) are drawn:
// the arithmetic from its groups' instructions, and without the atomic group the
// accesses an atomic would have made are plain loads.  With every group (the default)
// the draws, and so the programs, are the same as before groups existed.
//
// Registers (all below min(core.registers, 48)):
//   r1 lx, r2 the thread's chunk in a cell (lx * chunk_bytes, Layout::cell_address),
//   r3 read-only table, r4 shared words,
//   r5 private pointer (a chunk of the current cell), r6 loop counter,
//   r7 address temporary (atomics, jalr), r8 dump pointer, r9.. data.
#include "randprog.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <random>
#include <sstream>

#include "umbra/asm.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/iss.h"

namespace umbra::randprog {

namespace {

constexpr unsigned kRoWords = 64;
constexpr unsigned kSharedWords = 16;  // word i takes ops of kind i % 3: add, min, max
constexpr unsigned kFirstData = 9;
constexpr unsigned kMaxRegs = 48;
constexpr unsigned kMaxLoop = 8;  // iterations of a bounded loop, at most

bool has_group_named(const Config& cfg, const char* name) {
  const isa::GroupInfo* g = isa::find_group(name);
  return g && cfg.has_group(unsigned(g - isa::kGroups));
}

uint32_t align_up(uint32_t v, uint32_t a) {
  return (v + a - 1) / a * a;
}

// A mnemonic padded to the operand column (at least one space).
std::string pad(const std::string& op) {
  return op + std::string(op.size() < 8 ? 8 - op.size() : 1, ' ');
}

// Floats worth computing with: small integers, fractions, signs, an infinity, a NaN,
// and a denormal (flushed to zero by the FP rules).
const uint32_t kFloats[] = {0x3f800000, 0x40000000, 0xbf000000, 0x3e800000, 0x42c80000, 0xc1200000,
                            0x00000000, 0x80000000, 0x7f800000, 0x7fc00000, 0x00000010, 0x3eaaaaab,
                            0x4b000000, 0xcf000000, 0x3f7fffff, 0x47c35000};

class Gen {
 public:
  Gen(const Config& cfg, const Options& opts, unsigned attempt)
      : cfg_(cfg),
        L_(layout_for(cfg)),
        rng_(opts.seed * 0x9e3779b97f4a7c15ull + attempt * 0x632be59bd9b4e019ull + 1) {
    nregs_ = std::min(cfg.registers, kMaxRegs);
    if (nregs_ < kFirstData + 4)
      throw GenError("configuration '" + cfg.name + "': core.registers = " + std::to_string(cfg.registers) +
                     " is too few for random programs (at least " + std::to_string(kFirstData + 4) + ")");
    line_ = cfg.cache_line_bytes;
    // Offsets within one line, used where r5 walks a chunk.
    line_off_ = std::min<uint32_t>(line_, L_.chunk_bytes / 2);
    has_atomic_ = has_group_named(cfg, "atomic");
    seed_ = opts.seed;
    attempt_ = attempt;
    length_ = opts.length;
  }

  std::string run() {
    header();
    prologue();
    for (unsigned i = 0; i < length_; ++i) statement(true);
    epilogue();
    data();
    return out_.str();
  }

 private:
  uint32_t rnd(uint32_t n) { return n ? uint32_t(rng_() % n) : 0; }
  bool chance(unsigned percent) { return rnd(100) < percent; }
  std::string reg(unsigned r) { return "r" + std::to_string(r); }
  std::string data_reg() { return reg(kFirstData + rnd(nregs_ - kFirstData)); }
  // A register to read: mostly data, sometimes r0 or tid (per-thread values).
  std::string src_reg() {
    const uint32_t k = rnd(20);
    if (k == 0) return "r0";
    if (k == 1) return "r1";
    return data_reg();
  }
  std::string label() { return "L" + std::to_string(labels_++); }
  void emit(const std::string& s) { out_ << "        " << s << "\n"; }

  void header() {
    out_ << "# umbra-randprog: seed " << seed_ << ", variant " << attempt_ << ", length " << length_
         << ", configuration '" << cfg_.name << "' (" << cfg_.threads << " threads, " << cfg_.registers
         << " registers" << (cfg_.groups == isa::kAllGroups ? "" : ", groups " + group_names(cfg_.groups))
         << ")\n";
    out_ << "# replay: umbra-randprog --seed " << seed_ << " --length " << length_
         << " [--config <the same configuration>] -o prog.s\n";
    out_ << "# data: ro " << hex8(L_.ro) << " (" << L_.ro_words << " words, read only), shared "
         << hex8(L_.shared) << " (" << L_.shared_words << " words, atomics add/min/max by word % 3), dump "
         << hex8(L_.dump) << " (" << L_.dump_words << " words per thread), private cells from "
         << hex8(L_.priv) << " (" << L_.rows << " rows x " << L_.banks << " banks, " << L_.chunk_bytes
         << " bytes per thread"
         << (L_.row_groups > 1 ? ", " + std::to_string(L_.per_row) + " threads a DRAM row, " +
                                     std::to_string(L_.row_groups) + " rows a cell"
                               : "")
         << ")\n";
  }

  void prologue() {
    out_ << "        .text\n        .global _start\n_start:\n";
    emit("rdsr    r1, lx");
    emit("li      r2, " + std::to_string(L_.chunk_bytes));
    if (L_.row_groups == 1) {
      emit("mul     r2, r2, r1");
    } else {  // r2 = (lx % per_row) * chunk + (lx / per_row) * row_stride
      unsigned shift = 0;
      while ((1u << shift) < L_.per_row) ++shift;
      emit("andi    r7, r1, " + std::to_string(L_.per_row - 1));
      emit("mul     r2, r2, r7");
      emit("shri    r7, r1, " + std::to_string(shift));
      emit("li      r6, " + std::to_string(L_.row_stride));
      emit("mul     r7, r7, r6");
      emit("add     r2, r2, r7");
    }
    emit("la      r3, ro");
    emit("la      r4, shared");
    emit("li      r8, " + std::to_string(L_.dump_words * 4));
    emit("mul     r8, r8, r1");
    emit("la      r7, dump");
    emit("add     r8, r8, r7");
    // Per-thread starting values: a mix of the thread number and constants.
    for (unsigned r = kFirstData; r < nregs_; ++r) {
      if (chance(40)) {
        emit("li      " + reg(r) + ", " + hex8(kFloats[rnd(std::size(kFloats))]));
      } else {
        emit("li      " + reg(r) + ", " + hex8(uint32_t(rng_())));
        if (chance(50)) emit("add     " + reg(r) + ", " + reg(r) + ", r1");
      }
    }
    point_r5(rnd(L_.rows), rnd(L_.banks));
  }

  // r5 = this thread's chunk of cell (row, bank).
  void point_r5(unsigned row, unsigned bank) {
    emit("li      r5, " + hex8(L_.cell_address(row, bank, 0)) + "   # cell row " + std::to_string(row) +
         " bank " + std::to_string(bank));
    emit("add     r5, r5, r2");
    r5_valid_ = true;
    r5_row_ = row;
    r5_bank_ = bank;
  }
  void ensure_r5() {
    if (!r5_valid_) point_r5(rnd(L_.rows), rnd(L_.banks));
  }
  uint32_t chunk_off() { return 4 * rnd(L_.chunk_bytes / 4); }

  void arith(isa::Class cls) {
    std::vector<const isa::InstrInfo*> pool;
    for (const isa::InstrInfo& in : isa::kInstrs)
      if (in.cls == cls && cfg_.has(in)) pool.push_back(&in);
    // No float group: an integer instruction instead (base is in every configuration).
    if (pool.empty()) return arith(isa::Class::Integer);
    const isa::InstrInfo& in = *pool[rnd(uint32_t(pool.size()))];
    std::string text = in.name;
    for (unsigned i = 0; i < in.num_operands; ++i) {
      const isa::OperandInfo& op = in.operands[i];
      std::string t;
      if (op.kind == isa::Kind::Reg) {
        t = (op.access == isa::Access::Write || op.access == isa::Access::ReadWrite) ? data_reg() : src_reg();
      } else {
        const isa::Range r = isa::operand_range(op.kind);
        t = std::to_string(r.lo + int64_t(rnd(uint32_t(r.hi - r.lo + 1))));
      }
      text = i ? text + ", " + t : pad(text) + t;
    }
    emit(text);
  }

  void constant() {
    const std::string d = data_reg();
    switch (rnd(4)) {
      case 0: emit("li      " + d + ", " + hex8(kFloats[rnd(std::size(kFloats))])); break;
      case 1: emit("movi    " + d + ", " + std::to_string(int(rnd(65536)) - 32768)); break;
      case 2: emit("movhi   " + d + ", " + std::to_string(rnd(65536))); break;
      default: {
        static const char* const sregs[] = {"tid", "cid", "nthr", "ncore"};
        emit("rdsr    " + d + ", " + sregs[rnd(4)]);
      }
    }
  }

  // A load, store or atomic on this thread's current chunk, at `off` (or anywhere).
  void private_access(bool in_loop) {
    ensure_r5();
    const uint32_t off = in_loop ? 4 * rnd(line_off_ / 4) : chunk_off();
    const std::string o = std::to_string(off) + "(r5)";
    const uint32_t k = rnd(10);
    if (k < 4) {
      emit("ldw     " + data_reg() + ", " + o);
    } else if (k < 8) {
      emit("stw     " + src_reg() + ", " + o);
    } else if (!has_atomic_) {
      emit("ldw     " + data_reg() + ", " + o);
    } else {
      // Any atomic on a private word: its order is the thread's own program order.
      static const char* const ops[] = {"red.add",  "red.min",  "red.max",  "red.xchg",  "red.cas",
                                        "atom.add", "atom.min", "atom.max", "atom.xchg", "atom.cas"};
      const std::string op = ops[rnd(std::size(ops))];
      emit("addi    r7, r5, " + std::to_string(std::min<uint32_t>(off, 127) & ~3u));
      const std::string w = std::to_string(std::min<uint32_t>(off, 127) & ~3u) + "(r5)";
      if (op == "red.cas" || op == "atom.cas") {
        // Compare with the word's value (swaps) or something else (does not).
        const std::string c = data_reg();
        emit("ldw     " + c + ", " + w);
        if (chance(40)) emit("addi    " + c + ", " + c + ", 1");
        emit(pad(op) + c + ", r7, " + src_reg());
      } else if (op.rfind("atom.", 0) == 0) {
        emit(pad(op) + data_reg() + ", r7, " + src_reg());
      } else {
        emit(pad(op) + "r7, " + src_reg());
      }
    }
  }

  void ro_load() { emit("ldw     " + data_reg() + ", " + std::to_string(4 * rnd(L_.ro_words)) + "(r3)"); }

  // An order-free atomic on a shared word; a returning one's value is discarded.
  void shared_atomic() {
    if (!has_atomic_) return shared_peek();
    const uint32_t w = rnd(L_.shared_words);
    static const char* const kinds[] = {"add", "min", "max"};
    const std::string kind = kinds[w % 3];
    emit("addi    r7, r4, " + std::to_string(4 * w));
    if (chance(50)) {
      emit(pad("red." + kind) + "r7, " + src_reg());
    } else {
      const std::string d = data_reg();
      emit(pad("atom." + kind) + d + ", r7, " + src_reg());
      emit("movi    " + d + ", " + std::to_string(int(rnd(256)) - 128) +
           "   # discard the timing-dependent old value");
    }
  }

  // Several threads read one shared word; its value depends on timing, so it is dropped.
  void shared_peek() {
    const std::string d = data_reg();
    emit("ldw     " + d + ", " + std::to_string(4 * rnd(L_.shared_words)) + "(r4)");
    emit("movi    " + d + ", " + std::to_string(rnd(100)) + "   # discard the timing-dependent value");
  }

  void maintenance(bool in_loop) {
    const uint32_t k = rnd(6);
    if (k < 3) {
      static const char* const bases[] = {"r3", "r4", "r5"};
      const std::string b = bases[k];
      if (b == "r5") ensure_r5();
      // In a loop r5 walks its chunk: stay within the first line's reach.
      const uint32_t lim = b == "r3"   ? L_.ro_words * 4
                           : b == "r4" ? L_.shared_words * 4
                           : in_loop   ? line_off_
                                       : L_.chunk_bytes;
      emit("dinv    " + std::to_string(4 * rnd(lim / 4)) + "(" + b + ")");
    } else if (k == 3) {
      emit("dinvall");
    } else {
      emit("dflush");
    }
  }

  // Alternate between two rows of one bank (row conflicts), or stride across the lines
  // of a chunk (misses), or re-read one line (hits).
  void pattern() {
    const uint32_t k = rnd(3);
    if (k == 0 && L_.rows >= 2) {
      const unsigned bank = rnd(L_.banks);
      const unsigned n = 2 + rnd(3);
      for (unsigned i = 0; i < n; ++i) {
        point_r5(i % 2 ? (r5_row_ + 1) % L_.rows : r5_row_, bank);
        const uint32_t off = chunk_off();
        if (chance(50))
          emit("stw     " + src_reg() + ", " + std::to_string(off) + "(r5)");
        else
          emit("ldw     " + data_reg() + ", " + std::to_string(off) + "(r5)");
      }
    } else if (k == 1) {
      ensure_r5();
      const uint32_t word = 4 * rnd(line_ / 4);
      for (uint32_t off = word; off + 4 <= L_.chunk_bytes && off < word + 4 * line_; off += line_)
        emit("ldw     " + data_reg() + ", " + std::to_string(off) + "(r5)");
    } else {
      ensure_r5();
      const uint32_t base = chunk_off() / line_ * line_;
      for (unsigned i = 0; i < 3; ++i)
        emit("ldw     " + data_reg() + ", " + std::to_string(base + 4 * rnd(line_off_ / 4)) + "(r5)");
    }
  }

  // One instruction or a short fixed sequence that does not branch and keeps r5.
  void simple(bool in_loop) {
    const uint32_t k = rnd(100);
    if (k < 25)
      arith(isa::Class::Integer);
    else if (k < 42)
      arith(isa::Class::Float);
    else if (k < 47)
      constant();
    else if (k < 70)
      private_access(in_loop);
    else if (k < 80)
      ro_load();
    else if (k < 90)
      shared_atomic();
    else if (k < 94)
      shared_peek();
    else
      maintenance(in_loop);
  }

  void forward_branch() {
    ensure_r5();  // a pointer set inside the skipped block would be skipped too
    const std::string target = label();
    const uint32_t k = rnd(10);
    static const char* const two[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
    if (k < 6) {
      const std::string op = two[rnd(6)];
      emit(pad(op) + src_reg() + ", " + src_reg() + ", " + target);
    } else if (k < 8) {
      emit(std::string(k == 6 ? "bz      " : "bnz     ") + src_reg() + ", " + target);
    } else if (k == 8) {
      emit("jal     " + data_reg() + ", " + target);
    } else {
      emit("la      r7, " + target);
      emit("jalr    " + data_reg() + ", r7");
    }
    const unsigned n = 1 + rnd(5);
    for (unsigned i = 0; i < n; ++i) simple(false);
    out_ << target << ":\n";
  }

  void loop() {
    const std::string top = label();
    if (chance(50)) {
      emit("li      r6, " + std::to_string(1 + rnd(kMaxLoop)));
    } else {
      // A data-dependent trip count, 1..8, different per thread.
      emit("andi    r6, " + data_reg() + ", " + std::to_string(kMaxLoop - 1));
      emit("addi    r6, r6, 1");
    }
    // Walk r5 through the chunk a word or a line per iteration: misses across lines.
    uint32_t stride = 0;
    if (chance(60)) {
      point_r5(rnd(L_.rows), rnd(L_.banks));
      stride = line_;
      if ((kMaxLoop - 1) * stride + line_off_ > L_.chunk_bytes || chance(30)) stride = 4;
    } else {
      ensure_r5();
    }
    out_ << top << ":\n";
    const unsigned n = 2 + rnd(5);
    for (unsigned i = 0; i < n; ++i) simple(true);
    if (stride) {
      emit("addi    r5, r5, " + std::to_string(stride));
      r5_valid_ = false;  // no longer at a chunk start after the loop
    }
    emit("addi    r6, r6, -1");
    emit("bnz     r6, " + top);
  }

  void statement(bool top_level) {
    const uint32_t k = rnd(100);
    if (top_level && k < 8)
      forward_branch();
    else if (top_level && k < 14)
      loop();
    else if (top_level && k < 20)
      pattern();
    else
      simple(false);
  }

  void epilogue() {
    out_ << "# every register a thread computed goes to memory, where the check sees it\n";
    for (unsigned r = kFirstData; r < nregs_; ++r)
      emit("stw     " + reg(r) + ", " + std::to_string(4 * (r - kFirstData)) + "(r8)");
    emit("exit");
  }

  void data() {
    out_ << "\n        .data\n";
    out_ << "ro:     # " << L_.ro_words << " words every thread reads\n";
    for (unsigned i = 0; i < L_.ro_words; i += 8) {
      out_ << "        .word ";
      for (unsigned j = i; j < i + 8 && j < L_.ro_words; ++j)
        out_ << (j > i ? ", " : "") << hex8(chance(30) ? kFloats[rnd(std::size(kFloats))] : uint32_t(rng_()));
      out_ << "\n";
    }
    out_ << "        .space " << (L_.shared - L_.ro - 4 * L_.ro_words) << "\n";
    out_ << "shared: # atomics from every thread: word i takes add (i%3==0), min (1), max (2)\n";
    for (unsigned i = 0; i < L_.shared_words; ++i)
      out_ << "        .word " << hex8(i % 3 == 0 ? rnd(1000) : uint32_t(rng_())) << "\n";
    out_ << "        .space " << (L_.dump - L_.shared - 4 * L_.shared_words) << "\n";
    out_ << "dump:   # per thread, its final r" << kFirstData << "..r" << nregs_ - 1 << "\n";
    out_ << "        .space " << L_.dump_words * 4 * cfg_.threads * cfg_.cores << "\n";
    out_ << "priv = " << hex8(L_.priv) << "   # private cells (not initialized: memory starts at 0)\n";
  }

  const Config& cfg_;
  Layout L_;
  std::mt19937_64 rng_;
  std::ostringstream out_;
  unsigned nregs_ = 0;
  bool has_atomic_ = true;  // core.groups has atomic
  uint32_t line_ = 32, line_off_ = 32;
  uint64_t seed_ = 0;
  unsigned attempt_ = 0, length_ = 0;
  unsigned labels_ = 0;
  bool r5_valid_ = false;
  unsigned r5_row_ = 0, r5_bank_ = 0;
};

}  // namespace

Layout layout_for(const Config& cfg) {
  Layout L;
  const uint32_t base = cfg.data_base;
  const std::string where = "configuration '" + cfg.name + "': ";
  const unsigned items = cfg.cores * cfg.threads;  // every core's threads: a cell each
  // A fixed-latency memory has no rows or banks: the cells keep the DRAM's shape at the
  // smallest size that gives each thread a 64-byte chunk, so that they fit a small
  // on-chip memory (the HX8K's 4 KiB).
  const bool dram = cfg.mem_model != "fixed";
  const uint32_t row_bytes = dram ? cfg.dram_row_bytes : align_up(64 * items, cfg.cache_line_bytes);
  const unsigned banks = dram ? cfg.dram_banks : 2;
  L.ro = base;
  L.ro_words = kRoWords;
  L.shared = align_up(L.ro + 4 * kRoWords, 2 * cfg.cache_line_bytes);
  L.shared_words = kSharedWords;
  L.dump = align_up(L.shared + 4 * kSharedWords, cfg.cache_line_bytes);
  L.dump_words = std::min(cfg.registers, kMaxRegs) - kFirstData;
  L.row_bytes = row_bytes;
  L.row_stride = row_bytes * banks;
  L.priv = align_up(L.dump + 4 * L.dump_words * items, L.row_stride);
  // A chunk: up to 256 bytes, whole lines, T of them in one DRAM row; where a row
  // cannot hold T chunks of 64 bytes, 64-byte chunks in as many rows of the cell's bank
  // as they need (a power of two of threads a row, so that the prologue finds a
  // thread's row and place with a shift and a mask).
  L.chunk_bytes = std::min<uint32_t>(256, row_bytes / items / cfg.cache_line_bytes * cfg.cache_line_bytes);
  L.per_row = items;
  if (L.chunk_bytes < 64) {
    L.chunk_bytes = align_up(64, cfg.cache_line_bytes);
    L.per_row = 1;
    while (2 * L.per_row * L.chunk_bytes <= row_bytes) L.per_row *= 2;
    if (L.per_row * L.chunk_bytes > row_bytes)
      throw GenError(where + "a DRAM row (" + std::to_string(row_bytes) +
                     " bytes) cannot hold one thread's " + std::to_string(L.chunk_bytes) + "-byte chunk");
    L.row_groups = (items + L.per_row - 1) / L.per_row;
  }
  L.banks = std::min(banks, 4u);
  if (cfg.mem_bytes <= L.priv)
    throw GenError(where + "memory.bytes = " + std::to_string(cfg.mem_bytes) +
                   " ends before the private cells at " + hex8(L.priv) + " (data starts at " + hex8(base) +
                   ")");
  L.rows = std::min<uint32_t>(4, (cfg.mem_bytes - L.priv) / (L.row_stride * L.row_groups));
  if (L.rows < 1 ||
      (L.rows == 1 && L.cell_address(0, L.banks - 1, items - 1) + L.chunk_bytes > cfg.mem_bytes))
    throw GenError(where + "memory.bytes = " + std::to_string(cfg.mem_bytes) +
                   " leaves no room for one row of private cells at " + hex8(L.priv));
  L.end = L.cell_address(L.rows - 1, L.banks - 1, items - 1) + L.chunk_bytes;
  return L;
}

std::string generate_source(const Config& cfg, const Options& opts, unsigned attempt) {
  return Gen(cfg, opts, attempt).run();
}

uint64_t instruction_bound(const Config& cfg, unsigned length) {
  // A statement is at most a loop of kMaxLoop iterations of 6 sequences of ~4 words.
  return uint64_t(cfg.threads) * cfg.cores * (uint64_t(length) * kMaxLoop * 30 + 2000);
}

Generated generate(const Config& cfg, const Options& opts) {
  std::string last;
  for (unsigned attempt = 0; attempt < opts.max_attempts; ++attempt) {
    Generated g;
    g.source = generate_source(cfg, opts, attempt);
    g.attempt = attempt;
    as::Options ao;
    ao.registers = cfg.registers;
    ao.data_base = cfg.data_base;
    ao.groups = cfg.groups;  // an instruction outside core.groups is a generator bug
    ao.config = "'" + cfg.name + "'";
    ao.max_errors = 5;
    const as::Result r = as::assemble_string(g.source, "seed" + std::to_string(opts.seed) + ".s", ao);
    if (!r.ok()) {
      // The generator emitted bad assembly: a bug, not bad luck; say exactly what.
      std::string diags;
      for (const auto& d : r.errors) diags += d.render();
      throw GenError("seed " + std::to_string(opts.seed) + " variant " + std::to_string(attempt) +
                     ": the generated program does not assemble:\n" + diags);
    }
    g.program = r.program;
    // A statement is one to a few words, so a length near the store's size (the
    // default, imem_words / 4) now and then draws a program a little too long: another
    // variant of the seed, like one the reference simulator refuses.
    if (g.program.text.size() > cfg.imem_words) {
      last = "text of " + std::to_string(g.program.text.size()) +
             " words exceeds core.imem_words = " + std::to_string(cfg.imem_words) +
             " (use a smaller --length)";
      continue;
    }
    iss::Simulator sim(cfg);
    sim.load(g.program, "seed" + std::to_string(opts.seed) + ".s");
    g.max_instructions = instruction_bound(cfg, opts.length);
    const iss::IssResult res = sim.run(cfg.threads, g.max_instructions);
    if (res.fault) {
      last = res.fault->message();
      continue;
    }
    bool exited = true;
    for (const auto& t : res.threads) exited = exited && t.status == iss::ThreadStatus::Exited;
    if (!exited) {
      last = "not every thread exited";
      continue;
    }
    g.iss_instructions = res.retired;
    g.iss_memory = sim.memory().bytes();
    return g;
  }
  throw GenError("seed " + std::to_string(opts.seed) + ": no variant of " +
                 std::to_string(opts.max_attempts) +
                 " fitted the store and passed the reference-simulator check; the last: " + last);
}

}  // namespace umbra::randprog
