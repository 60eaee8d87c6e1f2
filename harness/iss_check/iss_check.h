// iss_check: a cycle model's run against the reference simulator (the first level of
// truth), as plain C++ over per-thread records, so that the cosimulation (both sides)
// and core_bench (the bare Verilated core) make one comparison, not two.  The
// ISS interleaves threads differently in time, so what is compared is per thread:
// the pcs each thread retired, in order, each with the register write it made, and at
// the end the whole data memory.  Two kinds of write legitimately differ:
//   - `rdsr clock` / `rdsr clockh`: the ISS's clock is an issue-slot count, the
//     cycle models' the real cycle; these writes (found by decoding the instruction at
//     the write's pc) are left out on both sides, and nothing else is.
//   - a value a thread read from memory (a load or a returning atomic) of a word that
//     another thread wrote (in the ISS's run, so only with two or more threads): it
//     depends on the order in which threads reach memory, which the ISS cannot know.  A thread whose first
//     difference is such a value has legitimately taken another path (a spin lock that spun a different
//     number of times); that thread is not compared further, and the fact is kept as a note.  Then, too, a
//     word of the final memory that two or more threads wrote may end with another thread's value, and a
//     word the thread stored to after that read may hold what followed from it (the old value of a contended
//     `atom.add`, stored to the thread's own word) (a note).
//     Any other first difference, and any other difference in the final memory, is a problem.
// A command buffer (a doorbell run, docs/commands.md) may make several runs, each
// numbering its work items from 0, so its records cannot be matched thread by thread:
// only the outcome and the final memory are compared, leaving out the blocks `counters`
// wrote (the ISS has no cycles; iss.h, Simulator::run_commands).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "run_result.h"
#include "umbra/config.h"
#include "umbra/iss.h"
#include "umbra/program.h"
#include "umbra/semantics.h"

namespace umbra::check {

// One retired instruction of one thread: its pc and the register it wrote, if any.
struct Record {
  uint32_t pc = 0;
  bool writes = false;
  uint8_t reg = 0;
  uint32_t value = 0;
  // The ISS's records only: the memory access, its word address and a store's or
  // atomic's data (what the port carries, for benches that watch the port).
  Retired::Mem mem = Retired::Mem::None;
  uint32_t addr = 0, data = 0;
};
using ThreadRecords = std::vector<std::vector<Record>>;  // [thread][retire order]

// A model's records, built from its event streams as they come: an issue starts a
// record; a register write belongs to its thread's last issued instruction (the next
// one is not fetched before it, as T >= the depth, and a late load keeps its thread
// asleep until then).  A write with no matching issue becomes a record of its own, so
// that the comparison flags it.  Threads beyond the records' size are ignored (the
// caller reports a wrong thread number).
void record_issue(ThreadRecords& r, unsigned thread, uint32_t pc);
void record_write(ThreadRecords& r, unsigned thread, uint32_t pc, uint8_t reg, uint32_t value);

struct Reference {
  iss::IssResult result;
  ThreadRecords records;
  std::vector<uint8_t> memory;
  // Every word a store or an atomic wrote in the ISS's run, with the threads that wrote
  // it: a read of one that another thread wrote may legitimately differ.
  std::map<uint32_t, std::set<unsigned>> writers;
  std::string injected;  // what Options::inject_iss changed, for the log
  // A doorbell run: the ISS ran the command buffer (records left empty, not compared),
  // and these words of the final memory are the counters' (not compared).
  bool commands = false;
  std::vector<iss::CounterBlock> counter_blocks;
  std::optional<iss::CommandFault> command_fault;
};

// Runs the ISS on the same program, threads (or domain) and input words.  inject >= 0
// adds 1 to the value of its inject-th register write (test-only, to show the check
// works).  The records are by work item (a domain's: ly * w + lx).  With
// doorbell.ring the ISS loads only the program's data and runs the command buffer at
// doorbell.addr (the text reaches the instruction store only through `program`), as the
// cycle models' host does; inject is then ignored (there are no records).
Reference run_reference(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_instructions,
                        const std::vector<std::pair<uint32_t, std::vector<uint32_t>>>& writes, int64_t inject,
                        const umbra::Domain& domain = {}, const umbra::Doorbell& doorbell = {});

struct IssVerdict {
  std::vector<std::string> problems, notes;
};

// Compares one cycle model's run (its per-thread records, final memory and outcome)
// with the reference; `model` names it in the messages.
void compare_with_reference(const std::string& model, const Program& p, const Reference& ref,
                            const ThreadRecords& records, const umbra::RunResult& run, IssVerdict& out);

}  // namespace umbra::check
