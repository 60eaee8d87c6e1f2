// The comparison with the reference simulator (iss_check.h).
#include "iss_check.h"

#include <cstdio>

#include "umbra/format.h"
#include "umbra/isa.h"

namespace umbra::check {

namespace {

std::optional<isa::Decoded> decode_at(const Program& p, uint32_t pc) {
  if (pc < p.text_base || pc % 4) return std::nullopt;
  const uint64_t i = (uint64_t(pc) - p.text_base) / 4;
  if (i >= p.text.size()) return std::nullopt;
  return isa::decode(p.text[i]);
}

// rdsr of clock or clockh: its value is the time of the issue, which the ISS models
// only as a slot count.
bool reads_clock(const Program& p, uint32_t pc) {
  const auto d = decode_at(p, pc);
  if (!d) return false;
  const isa::InstrInfo& in = *d->info;
  for (unsigned i = 0; i < in.num_operands; ++i)
    if (in.operands[i].kind == isa::Kind::Sreg) {
      const isa::SpecialRegInfo* s = isa::find_sreg(uint8_t(d->operand(int(i))));
      return s && (std::string(s->name) == "clock" || std::string(s->name) == "clockh");
    }
  return false;
}

// A load or an atomic that returns the old word: its value is what memory held when
// the request reached it.
bool reads_memory(const Program& p, uint32_t pc) {
  const auto d = decode_at(p, pc);
  return d && (d->info->cls == isa::Class::Load || (d->info->cls == isa::Class::Atomic && d->info->writes_a));
}

// An instruction that needs a place in the request FIFO (docs/memory-system.md, "The
// request FIFO and replay"), or on a line port an exit while a combining buffer holds
// a store of its thread ("The line port"): it may be replayed, i.e. issued again at
// the same pc.
bool may_replay(const Program& p, uint32_t pc) {
  const auto d = decode_at(p, pc);
  if (!d) return false;
  const isa::Class c = d->info->cls;
  const std::string name = d->info->name;
  return c == isa::Class::Load || c == isa::Class::Store || c == isa::Class::Atomic || name == "dflush" ||
         name == "exit";
}

// A thread's issues with its replays folded away: a replayed instruction did nothing and
// its thread issues it again next, at the same pc.  None of the instructions that may be
// replayed branches, so an issue at the same pc right after one of them with no write
// can only be its replay.
std::vector<Record> without_replays(const Program& p, const std::vector<Record>& in) {
  std::vector<Record> out;
  out.reserve(in.size());
  for (const Record& r : in) {
    if (!out.empty() && out.back().pc == r.pc && !out.back().writes && may_replay(p, r.pc))
      out.back() = r;
    else
      out.push_back(r);
  }
  return out;
}

std::string show(const Program& p, const Record& r) {
  const auto d = decode_at(p, r.pc);
  std::string s = hex8(r.pc) + " (" + (d ? isa::disassemble(d->word, r.pc) : std::string("?")) + ")";
  if (r.writes) s += " r" + std::to_string(r.reg) + "=" + hex8(r.value);
  return s;
}

}  // namespace

void record_issue(ThreadRecords& r, unsigned thread, uint32_t pc) {
  if (thread >= r.size()) return;
  Record rec;
  rec.pc = pc;
  r[thread].push_back(rec);
}

void record_write(ThreadRecords& r, unsigned thread, uint32_t pc, uint8_t reg, uint32_t value) {
  if (thread >= r.size()) return;
  auto& seq = r[thread];
  if (seq.empty() || seq.back().writes || seq.back().pc != pc) record_issue(r, thread, pc);
  seq.back().writes = true;
  seq.back().reg = reg;
  seq.back().value = value;
}

Reference run_reference(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_instructions,
                        const std::vector<std::pair<uint32_t, std::vector<uint32_t>>>& writes, int64_t inject,
                        const umbra::Domain& domain, const umbra::Doorbell& doorbell) {
  Reference ref;
  iss::Simulator sim(cfg);
  sim.load(p);  // a doorbell run too: the host loads the text, then rings
  for (const auto& [addr, words] : writes)
    for (size_t i = 0; i < words.size(); ++i) sim.memory().store32(addr + uint32_t(4 * i), words[i]);
  if (doorbell.ring) {
    // Writers are still kept (every run's work items as one set), so that the
    // final-memory comparison forgives what several writers may leave differently.
    const iss::Observer observe = [&](unsigned t, const Retired& r) {
      if (r.mem == Retired::Mem::Store || r.mem == Retired::Mem::Atomic) ref.writers[r.addr & ~3u].insert(t);
    };
    iss::CommandsResult c = sim.run_commands(doorbell.addr, max_instructions, observe);
    ref.commands = true;
    ref.result = std::move(c.run);
    ref.counter_blocks = std::move(c.counters);
    ref.command_fault = std::move(c.command_fault);
    ref.memory = sim.memory().bytes();
    return ref;
  }
  // By work item, as the ISS numbers them.
  ref.records.resize(domain.launch() ? size_t(domain.items()) : size_t(nthreads) * cfg.cores);
  int64_t nwrite = 0;
  const iss::Observer observe = [&](unsigned t, const Retired& r) {
    Record rec;
    rec.pc = r.pc;
    rec.writes = r.writes_reg;
    rec.reg = r.reg;
    rec.value = r.value;
    rec.mem = r.mem;
    rec.addr = r.addr & ~3u;
    rec.data = r.data;
    if (r.mem == Retired::Mem::Store || r.mem == Retired::Mem::Atomic) ref.writers[r.addr & ~3u].insert(t);
    if (rec.writes && nwrite++ == inject) {
      ++rec.value;
      ref.injected = "ISS register write " + std::to_string(inject) + " (thread " + std::to_string(t) +
                     ", pc " + hex8(r.pc) + ", r" + std::to_string(r.reg) + ") changed from " +
                     hex8(r.value) + " to " + hex8(rec.value);
    }
    ref.records[t].push_back(rec);
  };
  ref.result = domain.launch() ? sim.run_domain(domain.w, domain.h, max_instructions, observe)
                               : sim.run(nthreads, max_instructions, observe);
  ref.memory = sim.memory().bytes();
  return ref;
}

void compare_with_reference(const std::string& model, const Program& p, const Reference& ref,
                            const ThreadRecords& records, const umbra::RunResult& run, IssVerdict& out) {
  const size_t notes_before = out.notes.size();
  // A run that stopped early (fault, limit) on either side: every thread's stream must
  // be a prefix of the other's, as far as both got.
  const bool ref_ended = ref.result.all_exited() && !ref.command_fault;
  const bool complete = run.status == umbra::RunResult::Status::Exited && ref_ended;
  // A model stopped by its cycle budget is compared as far as it got: the budget is
  // the user's, not a disagreement.
  if (run.status == umbra::RunResult::Status::CycleLimit) {
  } else if ((run.status == umbra::RunResult::Status::Exited) != ref_ended)
    out.problems.push_back(model + ": " +
                           (ref_ended ? "the ISS ran to the end, the model stopped: " + run.message
                                      : "the model ran to the end, the ISS stopped: " +
                                            (ref.command_fault  ? ref.command_fault->message()
                                             : ref.result.fault ? ref.result.fault->message()
                                                                : std::string("livelock"))));
  else if (ref.command_fault && run.status == umbra::RunResult::Status::Fault) {
    // The same refused command (its reason and address), or the same memory fault.
    const iss::CommandFault& f = *ref.command_fault;
    const std::string reason =
        "command processor: " + std::string(commands::fault_text(f.fault)) + " (command at ";
    const bool same = f.memory != Fault::None ? run.fault == f.memory
                                              : run.fault_addr == f.addr && run.message.rfind(reason, 0) == 0;
    if (!same) out.problems.push_back(model + ": stopped by " + run.message + ", the ISS by " + f.message());
  } else if (!complete && ref.result.fault && run.fault != ref.result.fault->fault &&
             ref.result.fault->fault != Fault::InstructionLimit &&
             run.status != umbra::RunResult::Status::CycleLimit)
    out.problems.push_back(model + ": stopped by " + std::string(fault_name(run.fault)) + " (" + run.message +
                           "), the ISS by " + ref.result.fault->message());

  // The words a thread stores to, in the ISS's run, after it read another thread's
  // order: its values from there on follow the value it read.
  std::set<uint32_t> after_order;
  if (ref.commands)
    out.notes.push_back(model +
                        ": a command buffer: per-work-item records not compared (its runs number "
                        "their work items from 0 each); final memory compared without the counters' blocks");
  const size_t nthreads = ref.commands ? 0 : std::max(records.size(), ref.records.size());
  for (size_t t = 0; t < nthreads; ++t) {
    static const std::vector<Record> none;
    const std::vector<Record> m = without_replays(p, t < records.size() ? records[t] : none);
    const auto& r = t < ref.records.size() ? ref.records[t] : none;
    const std::string who = model + ", thread " + std::to_string(t);
    size_t i = 0;
    bool diverged = false;
    for (; i < m.size() && i < r.size(); ++i) {
      const Record &a = m[i], &b = r[i];
      if (a.pc != b.pc) {
        out.problems.push_back(who + ", instruction " + std::to_string(i) + ": the model retired " +
                               show(p, a) + ", the ISS " + show(p, b));
        diverged = true;
        break;
      }
      // An instruction still in flight when a run was cut short has issued but not
      // yet written.
      const bool in_flight = !complete && i + 1 == m.size() && !a.writes;
      if (in_flight) break;
      if (a.writes != b.writes || (a.writes && a.reg != b.reg)) {
        out.problems.push_back(who + ", instruction " + std::to_string(i) + ": the model's write " +
                               show(p, a) + ", the ISS's " + show(p, b));
        diverged = true;
        break;
      }
      if (a.writes && a.value != b.value && !reads_clock(p, a.pc)) {
        // Another thread's order can decide a read only if another thread wrote
        // that word; with one thread, or a word only this thread wrote, a
        // different value is a wrong one.
        const auto w = ref.writers.find(b.addr);
        const bool others_wrote =
            w != ref.writers.end() && (w->second.size() > 1 || !w->second.count(unsigned(t)));
        if (reads_memory(p, a.pc) && ref.records.size() >= 2 && others_wrote) {
          out.notes.push_back(who + ", instruction " + std::to_string(i) + ": read " + hex8(a.value) +
                              " from memory where the ISS read " + hex8(b.value) + " at " + show(p, b) +
                              " (another thread's order); not compared further");
          for (size_t j = i; j < r.size(); ++j)
            if (r[j].mem == Retired::Mem::Store || r[j].mem == Retired::Mem::Atomic)
              after_order.insert(r[j].addr);
        } else
          out.problems.push_back(who + ", instruction " + std::to_string(i) + ": the model's write " +
                                 show(p, a) + ", the ISS's " + show(p, b));
        diverged = true;
        break;
      }
    }
    if (!diverged && complete && m.size() != r.size())
      out.problems.push_back(who + ": the model retired " + std::to_string(m.size()) +
                             " instructions, the ISS " + std::to_string(r.size()) +
                             "; the first extra one is " + show(p, m.size() > r.size() ? m[i] : r[i]));
  }

  // Data memory, word by word, when both ran to the end (a run stopped by a fault
  // stops the ISS at once and the cycle models a few cycles later).
  if (!complete) return;
  if (run.memory.size() != ref.memory.size()) {
    out.problems.push_back(model + ": data memory of " + std::to_string(run.memory.size()) +
                           " bytes, the ISS's " + std::to_string(ref.memory.size()));
    return;
  }
  // When threads met memory in another order than the ISS's (a note above), a word that
  // two or more threads wrote may end with another thread's value, and a word that a
  // thread wrote after its read of another thread's order may hold what followed from
  // the value it read; any other word may not.
  const bool other_order = out.notes.size() > notes_before + (ref.commands ? 1 : 0);
  auto counters_word = [&ref](uint32_t a) {
    for (const iss::CounterBlock& b : ref.counter_blocks)
      if (a >= b.addr && uint64_t(a) < uint64_t(b.addr) + 4 * uint64_t(b.words)) return true;
    return false;
  };
  size_t differing = 0, ordered = 0;
  std::string first;
  for (size_t a = 0; a + 4 <= run.memory.size(); a += 4) {
    uint32_t x = 0, y = 0;
    for (int k = 3; k >= 0; --k) {
      x = x << 8 | run.memory[a + k];
      y = y << 8 | ref.memory[a + k];
    }
    if (x == y || counters_word(uint32_t(a))) continue;
    const auto w = ref.writers.find(uint32_t(a));
    if (other_order && ((w != ref.writers.end() && w->second.size() > 1) || after_order.count(uint32_t(a)))) {
      ++ordered;
      continue;
    }
    if (differing++ < 4) first += "\n    " + hex8(uint32_t(a)) + ": model " + hex8(x) + ", ISS " + hex8(y);
  }
  if (ordered)
    out.notes.push_back(model + ": " + std::to_string(ordered) +
                        " word(s) that several threads wrote, or that a thread wrote after reading another "
                        "thread's order, end differently from the ISS's");
  if (differing)
    out.problems.push_back(model + ": final memory differs from the ISS's in " + std::to_string(differing) +
                           " word(s):" + first);
}

}  // namespace umbra::check
