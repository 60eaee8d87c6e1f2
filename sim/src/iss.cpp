// The reference simulator's run loop: strict round-robin issue over the thread
// contexts, each instruction executed by umbra::execute (isa/src/semantics.cpp), so
// this file holds only what the ISA leaves to the machine: the stores, the launch,
// the issue order, the register count of the configuration and the instruction
// budget.
#include "umbra/iss.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "umbra/format.h"

namespace umbra::iss {

void FlatMemory::store32(uint32_t addr, uint32_t value) {
  for (unsigned i = 0; i < 4; ++i) bytes_[addr + i] = uint8_t(value >> (8 * i));
}

uint32_t FlatMemory::peek32(uint32_t addr) const {
  uint32_t v = 0;
  for (unsigned i = 0; i < 4; ++i) v |= uint32_t(bytes_[addr + i]) << (8 * i);
  return v;
}

const char* status_name(ThreadStatus s) {
  switch (s) {
    case ThreadStatus::Running: return "running";
    case ThreadStatus::Exited: return "exited";
    case ThreadStatus::Faulted: return "faulted";
  }
  return "?";
}

std::string FaultReport::message() const {
  std::string m = (cores > 1 ? "core " + std::to_string(core) + ", " : std::string()) + "thread " +
                  std::to_string(thread) + ", pc " + hex8(pc) + " (" + disassembly +
                  "): " + fault_name(fault);
  if (!detail.empty()) m += ": " + detail;
  return m;
}

Simulator::Simulator(const Config& cfg) : cfg_(cfg), imem_(cfg.imem_words, 0), mem_(cfg.mem_bytes) {}

void Simulator::load(const Program& p, const std::string& name) {
  const uint64_t imem_bytes = uint64_t(cfg_.imem_words) * 4;
  if (p.text_base % 4) throw LoadError(name + ": text base " + hex8(p.text_base) + " is not a multiple of 4");
  if (p.text_base + uint64_t(p.text.size()) * 4 > imem_bytes)
    throw LoadError(name + ": text (" + std::to_string(p.text.size()) + " words at " + hex8(p.text_base) +
                    ") does not fit in the instruction store of " + std::to_string(cfg_.imem_words) +
                    " words (configuration '" + cfg_.name + "')");
  if (p.entry % 4 || p.entry >= imem_bytes)
    throw LoadError(name + ": entry point " + hex8(p.entry) + " is " +
                    (p.entry % 4 ? "not a multiple of 4" : "outside the instruction store"));
  if (!p.data.empty() && uint64_t(p.data_base) + p.data.size() > mem_.size())
    throw LoadError(name + ": data (" + std::to_string(p.data.size()) + " bytes at " + hex8(p.data_base) +
                    ") does not fit in data memory of " + std::to_string(mem_.size()) + " bytes");
  std::fill(imem_.begin(), imem_.end(), 0u);
  std::copy(p.text.begin(), p.text.end(), imem_.begin() + p.text_base / 4);
  text_end_ = p.text_base / 4 + p.text.size();
  std::copy(p.data.begin(), p.data.end(), mem_.bytes().begin() + p.data_base);
  entry_ = p.entry;
  text_symbols_.clear();
  for (const Symbol& s : p.symbols)
    if (s.section == Symbol::Section::Text) text_symbols_.push_back(s);
}

isa::LabelFn Simulator::labels() const {
  return [this](uint32_t address) -> std::optional<std::string> {
    for (const Symbol& s : text_symbols_)
      if (s.value == address) return s.name;
    return std::nullopt;
  };
}

IssResult Simulator::run(unsigned n, uint64_t max_instructions, const Observer& observer) {
  const unsigned T = cfg_.threads;
  if (n < 1 || n > T)
    throw LoadError("cannot launch " + std::to_string(n) + " threads: configuration '" + cfg_.name +
                    "' has " + std::to_string(T) + " thread contexts");
  return run_contexts(n, 0, 0, entry_, max_instructions, observer);
}

IssResult Simulator::run_domain(uint32_t w, uint32_t h, uint64_t max_instructions, const Observer& observer) {
  if (uint64_t(w) * h > UINT32_MAX)
    throw LoadError("a domain of " + std::to_string(w) + " x " + std::to_string(h) +
                    " work items: at most 2^32 - 1 work items");
  return run_contexts(cfg_.threads, w, h, entry_, max_instructions, observer);
}

// A thread launch (w = 0): threads 0..n-1 of every core, context = work item.  A domain
// launch: every context of every core, each taking the next work item of the domain,
// row by row, when it starts and whenever it exits (the dispatcher's order: the first
// round's contexts take them in slot order, core after core).
IssResult Simulator::run_contexts(unsigned n, uint32_t dom_w, uint32_t dom_h, uint32_t entry,
                                  uint64_t max_instructions, const Observer& observer) {
  const unsigned T = cfg_.threads;
  const uint64_t imem_bytes = uint64_t(cfg_.imem_words) * 4;
  const isa::LabelFn label = labels();
  const bool domain = dom_w != 0 || dom_h != 0;
  const uint64_t domain_items = uint64_t(dom_w) * dom_h;

  // Thread launch: every core launches threads 0..n-1, work item w = core * n + tid,
  // its `lx`.  Domain: context core * T + tid.
  const unsigned C = cfg_.cores, items = C * n;
  IssResult res;
  res.threads.resize(items);
  for (ThreadResult& t : res.threads) t.state.pc = entry;
  SpecialRegs sr;
  sr.nthr = T;
  sr.ncore = cfg_.cores;
  sr.domw = domain ? dom_w : items;
  sr.domh = domain ? dom_h : 1;
  sr.ly = 0;
  sr.arg = arg_;
  // Domain: each context's work item (index ly * w + lx), and the next to hand out.
  std::vector<uint32_t> item_of(domain ? items : 0);
  uint64_t next_item = 0;
  unsigned running = items;
  if (domain) {
    running = 0;
    for (unsigned w0 = 0; w0 < items && next_item < domain_items; ++w0) {
      const unsigned w = (w0 % C) * n + w0 / C;
      item_of[w] = uint32_t(next_item++);
      ++running;
    }
    // Contexts the domain did not reach never start.
    for (unsigned w0 = running; w0 < items; ++w0)
      res.threads[(w0 % C) * n + w0 / C].status = ThreadStatus::Exited;
  }

  auto stop = [&](Fault f, unsigned w, uint32_t pc, std::string detail) {
    FaultReport fr;
    fr.fault = f;
    fr.core = C > 1 ? w / n : 0;
    fr.cores = C;
    fr.thread = w % n;
    fr.pc = pc;
    fr.word = pc / 4 < imem_.size() ? imem_[pc / 4] : 0;
    fr.disassembly = isa::disassemble(fr.word, pc, label);
    // An invalid word disassembles with its reason appended, which `detail` already
    // gives; keep the message from saying it twice.
    const auto comment = fr.disassembly.find("  # invalid:");
    if (!isa::decode(fr.word) && comment != std::string::npos) fr.disassembly.resize(comment);
    fr.detail = std::move(detail);
    res.fault = std::move(fr);
  };

  // Livelock watch (set_livelock_window): per thread, how many times in a row it has
  // repeated a self-jump that changed nothing, and the register write it made last
  // (writing the value a register already holds is no change).
  struct Spin {
    uint64_t repeats = 0;
    bool wrote = false;
    uint8_t reg = 0;
    uint32_t value = 0;
  };
  std::vector<Spin> spin(livelock_rounds_ ? items : 0);
  // Each word of the program decoded once, when first reached: the store does not change
  // during a run.  Sized by the program, not the store (up to 2^22 words); a pc past
  // the program's last word (a zero word) is decoded where it is reached.
  std::vector<std::optional<std::optional<isa::Decoded>>> decoded(text_end_ + 1);
  for (uint64_t round = 0; running > 0; ++round) {
    res.rounds = round + 1;
    // Contexts n..T-1 were never launched: their slots are bubbles, which is why
    // `clock` still advances by T per round.  In a slot every core issues, core 0 first
    // (as the cores' requests meet the arbiter in one cycle).
    for (unsigned w0 = 0; w0 < items; ++w0) {
      const unsigned tid = w0 / C, core = w0 % C, w = core * n + tid;
      ThreadResult& th = res.threads[w];
      if (th.status != ThreadStatus::Running) continue;
      const uint32_t pc = th.state.pc;
      if (res.retired >= max_instructions) {
        stop(Fault::InstructionLimit, w, pc,
             "the limit of " + std::to_string(max_instructions) + " instructions was reached");
        return res;
      }
      // pc is always inside the store: load() checks the entry, execute() every
      // next pc.
      const uint32_t word = imem_[pc / 4];
      sr.tid = tid;
      sr.cid = core;
      const unsigned item = domain ? item_of[w] : w;
      sr.lx = domain ? item % dom_w : w;
      sr.ly = domain ? item / dom_w : 0;
      sr.clock = round * T + tid;

      Retired r;
      auto& slot = decoded[std::min<size_t>(pc / 4, text_end_)];
      if (!slot || pc / 4 >= text_end_) slot = isa::decode(word);
      const std::optional<isa::Decoded>& d = *slot;
      // Legal words this core still refuses: an absent group's (first), a register it lacks.
      const std::string too_high = d ? illegal_reason(*d, cfg_.registers, cfg_.groups) : "";
      if (!too_high.empty()) {
        r.pc = r.next_pc = pc;
        r.word = word;
        r.fault = Fault::IllegalInstruction;
        r.fault_detail = too_high;
      } else if (d) {
        r = execute(*d, th.state, mem_, sr, imem_bytes);
      } else {
        r = execute(word, th.state, mem_, sr, imem_bytes);  // the illegal word, and why
      }
      if (observer) observer(item, r);
      if (r.fault != Fault::None) {
        th.status = ThreadStatus::Faulted;
        stop(r.fault, w, pc, r.fault_detail);
        return res;
      }
      ++th.retired;
      ++res.retired;
      if (r.exited && domain && next_item < domain_items) {
        // The context takes the next work item, with the registers it has.
        item_of[w] = uint32_t(next_item++);
        th.state.pc = entry;
        if (!spin.empty()) spin[w] = Spin{};
      } else if (r.exited) {
        // The exit's own pc stays visible in the result, like a faulting one.
        th.status = ThreadStatus::Exited;
        --running;
      } else if (!spin.empty()) {
        Spin& s = spin[w];
        const bool same_write =
            r.writes_reg == s.wrote && (!r.writes_reg || (r.reg == s.reg && r.value == s.value));
        s.repeats = r.next_pc == pc && r.mem == Retired::Mem::None && (s.repeats == 0 || same_write)
                        ? s.repeats + 1
                        : 0;
        s.wrote = r.writes_reg;
        s.reg = r.reg;
        s.value = r.value;
      }
    }
    if (!spin.empty() && running > 0) {
      uint64_t least = UINT64_MAX;
      for (unsigned w = 0; w < items; ++w)
        if (res.threads[w].status == ThreadStatus::Running) least = std::min(least, spin[w].repeats);
      if (least >= livelock_rounds_) {
        Livelock l;
        for (const ThreadResult& th : res.threads) l.pcs.push_back(th.state.pc);
        l.rounds = least;
        res.livelock = std::move(l);
        return res;
      }
    }
  }
  return res;
}

}  // namespace umbra::iss

namespace umbra::iss {

// Fixed-width columns so that traces of two runs (or two models) line up under diff:
// thread, pc, word, then the disassembly padded to kDisWidth, then the effects.
namespace {
constexpr int kDisWidth = 30;
}

std::string trace_header() {
  char buf[128];
  std::snprintf(buf, sizeof buf, "#thr pc       word     %-*s effects", kDisWidth, "instruction");
  return buf;
}

std::string trace_line(unsigned thread, const Retired& r, const isa::LabelFn& label) {
  char buf[256];
  const std::string dis = isa::disassemble(r.word, r.pc, label);
  std::snprintf(buf, sizeof buf, "%4u %08x %08x %-*s", thread, r.pc, r.word, kDisWidth, dis.c_str());
  std::string s = buf;
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(buf, sizeof buf, fmt, args...);
    s += ' ';
    s += buf;
  };
  if (r.fault != Fault::None) {
    add("FAULT %s: %s", fault_name(r.fault), r.fault_detail.c_str());
    return s;
  }
  if (r.writes_reg) add("r%u=%08x", unsigned(r.reg), r.value);
  switch (r.mem) {
    case Retired::Mem::None: break;
    case Retired::Mem::Load: add("ld[%08x]=%08x", r.addr, r.data); break;
    case Retired::Mem::Store: add("st[%08x]=%08x", r.addr, r.data); break;
    case Retired::Mem::Atomic: add("at[%08x]=%08x->%08x", r.addr, r.value, r.data); break;
  }
  // Trailing blanks of an effect-less line would only upset diff and editors.
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace umbra::iss
