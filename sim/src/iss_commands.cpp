// The reference simulator's command processor (Simulator::run_commands, iss.h): the
// command stream of docs/commands.md with its meaning and no timing, so that a buffer
// the host API builds has one reference result to hold the cycle models' final memory
// to.  Commands are decoded through the generated table (umbra/commands_gen.h), so an
// opcode the table gains is refused here until it is given a meaning, never misread.
#include <algorithm>

#include "umbra/format.h"
#include "umbra/iss.h"

namespace umbra::iss {

std::string CommandFault::message() const {
  if (memory != Fault::None) return "command processor: " + std::string(fault_name(memory)) + ": " + detail;
  std::string m =
      "command processor: " + std::string(commands::fault_text(fault)) + " (command at " + hex8(addr) + ")";
  if (!detail.empty()) m += ": " + detail;
  return m;
}

void Simulator::load_data(const Program& p, const std::string& name) {
  if (!p.data.empty() && uint64_t(p.data_base) + p.data.size() > mem_.size())
    throw LoadError(name + ": data (" + std::to_string(p.data.size()) + " bytes at " + hex8(p.data_base) +
                    ") does not fit in data memory of " + std::to_string(mem_.size()) + " bytes");
  std::fill(imem_.begin(), imem_.end(), 0u);
  text_end_ = 0;
  std::copy(p.data.begin(), p.data.end(), mem_.bytes().begin() + p.data_base);
  entry_ = p.entry;
  text_symbols_.clear();
  for (const Symbol& s : p.symbols)
    if (s.section == Symbol::Section::Text) text_symbols_.push_back(s);
}

CommandsResult Simulator::run_commands(uint32_t addr, uint64_t max_instructions, const Observer& observer) {
  using commands::Opcode;
  using CF = commands::Fault;
  const unsigned C = cfg_.cores, T = cfg_.threads;
  CommandsResult out;
  // The counters: instructions per core and issue slots since the last counters_reset.
  std::vector<uint64_t> instructions(C, 0);
  uint64_t slots = 0;
  uint32_t dom_w = 0, dom_h = 0;  // as the command processor's registers: 0 until `domain`

  auto refuse = [&](CF f, uint32_t at, std::string detail = {}) {
    CommandFault cf;
    cf.fault = f;
    cf.addr = at;
    cf.detail = std::move(detail);
    out.command_fault = std::move(cf);
    return out;
  };
  // words at a: inside data memory?  Otherwise the memory's fault, naming the access.
  auto outside = [&](uint32_t a, uint64_t words, const std::string& what) {
    if (uint64_t(a) + 4 * words <= mem_.size()) return false;
    CommandFault cf;
    cf.memory = Fault::OutOfRange;
    cf.addr = uint32_t(std::max<uint64_t>(a, mem_.size()));
    cf.detail = what + " at " + hex8(a) + " (" + std::to_string(words) + " word" + (words == 1 ? "" : "s") +
                ") is outside data memory of " + std::to_string(mem_.size()) + " bytes";
    out.command_fault = std::move(cf);
    return true;
  };

  if (addr % 4) return refuse(CF::Misaligned, addr);
  uint32_t rd = addr;
  for (;;) {
    const uint32_t at = rd;
    if (outside(rd, 1, "the command")) return out;
    const uint32_t op = mem_.peek32(rd);
    const commands::CommandDef* def = commands::find(op);
    if (!def) return refuse(CF::BadOpcode, at);
    uint32_t a[commands::kMaxArgs] = {};
    if (outside(rd, 1 + uint64_t(def->nargs), std::string("`") + def->name + "`")) return out;
    for (unsigned i = 0; i < def->nargs; ++i) a[i] = mem_.peek32(rd + 4 * (i + 1));
    rd += 4 * (1 + def->nargs);

    switch (Opcode(op)) {
      case Opcode::End: out.end_addr = at; return out;
      case Opcode::Program: {
        const uint32_t src = a[0], words = a[1], dest = a[2];
        if (src % 4 || dest % 4) return refuse(CF::Misaligned, at);
        if (uint64_t(dest / 4) + words > cfg_.imem_words) return refuse(CF::BadProgram, at);
        if (words == 0) break;
        if (outside(src, words, "`program`'s text")) return out;
        for (uint32_t i = 0; i < words; ++i) imem_[dest / 4 + i] = mem_.peek32(src + 4 * i);
        text_end_ = std::max<size_t>(text_end_, size_t(dest / 4) + words);
        break;
      }
      case Opcode::Args: arg_ = a[0]; break;
      case Opcode::Domain:
        dom_w = a[0];
        dom_h = a[1];
        break;
      case Opcode::Run: {
        const uint32_t entry = a[0];
        if (!dom_w || !dom_h) return refuse(CF::BadDomain, at);
        if (uint64_t(dom_w) * dom_h > UINT32_MAX)
          return refuse(
              CF::BadDomain, at,
              std::to_string(dom_w) + " x " + std::to_string(dom_h) + " work items: at most 2^32 - 1");
        if (entry % 4) return refuse(CF::Misaligned, at, "entry " + hex8(entry));
        if (uint64_t(entry) >= uint64_t(cfg_.imem_words) * 4)
          return refuse(CF::BadEntry, at,
                        "entry " + hex8(entry) + " is outside the instruction store of " +
                            std::to_string(cfg_.imem_words) + " words");
        const uint64_t left = max_instructions - std::min(max_instructions, out.run.retired);
        IssResult r = run_contexts(T, dom_w, dom_h, entry, left, observer);
        ++out.runs;
        for (size_t i = 0; i < r.threads.size(); ++i) instructions[i / T] += r.threads[i].retired;
        slots += r.rounds * T;
        out.run.retired += r.retired;
        out.run.rounds += r.rounds;
        out.run.threads = std::move(r.threads);
        if (r.fault && r.fault->fault == Fault::InstructionLimit)
          r.fault->detail = "the limit of " + std::to_string(max_instructions) +
                            " instructions (every run together) was reached";
        out.run.fault = std::move(r.fault);
        out.run.livelock = std::move(r.livelock);
        if (out.run.fault || out.run.livelock) return out;
        break;
      }
      case Opcode::Invalidate:
      case Opcode::Wait: break;
      case Opcode::Fence:
        if (a[0] % 4) return refuse(CF::Misaligned, at);
        if (outside(a[0], 1, "`fence`'s word")) return out;
        mem_.store32(a[0], a[1]);
        break;
      case Opcode::CountersReset:
        std::fill(instructions.begin(), instructions.end(), 0);
        slots = 0;
        break;
      case Opcode::Counters: {
        const unsigned n = commands::counter_words(C);
        if (a[0] % 4) return refuse(CF::Misaligned, at);
        if (outside(a[0], n, "`counters`' block")) return out;
        std::vector<uint32_t> w(n, 0);
        w[unsigned(commands::Counter::Cycles)] = uint32_t(slots);
        w[unsigned(commands::Counter::BusyCycles)] = uint32_t(slots);
        for (unsigned c = 0; c < C; ++c) w[commands::kCounterFixedWords + c] = uint32_t(instructions[c]);
        for (unsigned i = 0; i < n; ++i) mem_.store32(a[0] + 4 * i, w[i]);
        out.counters.push_back({a[0], n});
        break;
      }
    }
  }
}

}  // namespace umbra::iss
