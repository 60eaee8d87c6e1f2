// The instruction-set simulator: the first of the three levels of truth.  It runs a
// program on every core's threads with the ISA's meaning and no timing, and
// records what every thread did, so that the SystemC model and the RTL can be held
// to its per-thread results and final memory.
//
// It is shaped after the barrel core only where that changes a result: threads issue
// strictly round-robin, one instruction per launched, unfinished thread per round (the
// threads of one slot on every core in core order), so
// atomics from different threads interleave in the same order every run (and in the
// order the pipeline issues them when no thread sleeps).  Everything else that
// depends on time is approximate by design: `clock` reads round * T + slot, the issue
// slot a stall-free core would use, not a cycle count.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/commands_gen.h"
#include "umbra/config.h"
#include "umbra/program.h"
#include "umbra/semantics.h"

namespace umbra::iss {

// A program or launch the configuration cannot hold (text too big for the
// instruction store, data outside data memory, too many threads).
struct LoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Byte-addressed little-endian data memory of a fixed size, accessed in aligned words
// by the instructions; bytes so that program data at any address loads as written.
class FlatMemory final : public Memory {
 public:
  explicit FlatMemory(uint32_t bytes = 0) : bytes_(bytes, 0) {}
  uint32_t size() const { return uint32_t(bytes_.size()); }
  bool in_range(uint32_t addr) const override { return bytes_.size() >= 4 && addr <= bytes_.size() - 4; }
  uint64_t size_bytes() const override { return bytes_.size(); }
  uint32_t load32(uint32_t addr) override { return peek32(addr); }
  void store32(uint32_t addr, uint32_t value) override;
  // Reads without being an access (dumps, tests).  addr must be in range.
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

enum class ThreadStatus : uint8_t {
  Running,  // still had instructions to run when the run stopped (fault elsewhere, limit)
  Exited,   // executed `exit`
  Faulted,  // stopped by a fault of its own
};
const char* status_name(ThreadStatus s);

struct ThreadResult {
  ThreadState state;  // final registers; pc of the exit, of the fault, or of the next instruction
  uint64_t retired = 0;
  ThreadStatus status = ThreadStatus::Running;
};

// What stopped a run early: a thread's fault, or the instruction limit (then `thread`
// and `pc` are the instruction that would have issued next).
struct FaultReport {
  Fault fault = Fault::None;
  unsigned core = 0, cores = 1;  // the thread's core, of how many
  unsigned thread = 0;           // within its core
  uint32_t pc = 0, word = 0;
  std::string disassembly;
  std::string detail;
  // "thread 2, pc 0x0000001c (ldw r1, 0(r2)): misaligned access: address ..."; with
  // several cores "core 1, thread 2, ...".
  std::string message() const;
};

// A run stopped because it could make no more progress (Simulator::set_livelock_window):
// every thread still running was repeating one instruction that changed nothing.
struct Livelock {
  std::vector<uint32_t> pcs;  // per launched thread: the pc it spins on (exited: its exit)
  uint64_t rounds = 0;        // rounds every running thread had been spinning
};

struct IssResult {
  std::vector<ThreadResult> threads;  // one per launched thread, by work item (core * n + tid)
  std::optional<FaultReport> fault;
  std::optional<Livelock> livelock;  // set only with a livelock window
  uint64_t retired = 0;              // all threads
  uint64_t rounds = 0;               // issue rounds of T slots
  bool all_exited() const { return !fault && !livelock; }
};

// What stopped a command buffer (Simulator::run_commands) other than a kernel: a
// command the command processor refuses (docs/commands.md, "Faults"), or an access of
// the processor's own outside data memory (the memory's out_of_range fault, as the
// cycle models' memory raises it for the processor's request).
struct CommandFault {
  commands::Fault fault = commands::Fault::None;  // a refused command ...
  Fault memory = Fault::None;                     // ... or a memory fault (OutOfRange)
  uint32_t addr = 0;   // the command's address; a memory fault: the address accessed
  std::string detail;  // a memory fault: what was accessed
  // The cycle models' words (harness/bench.cpp): "command processor: <fault_text>
  // (command at 0x00000040)", "command processor: out_of_range: <detail>".
  std::string message() const;
};

// A block `counters` wrote: the ISS's words there are not the cycle models' (it has no
// cycles), so a comparison of final memory leaves them out.
struct CounterBlock {
  uint32_t addr = 0, words = 0;
};

struct CommandsResult {
  // Over every `run`: retired and rounds summed; threads of the last run; a kernel's
  // fault or the instruction limit (all runs together) stops the buffer there.
  IssResult run;
  std::optional<CommandFault> command_fault;
  unsigned runs = 0;
  std::vector<CounterBlock> counters;
  uint32_t end_addr = 0;  // where `end` was read (valid when the buffer ended)
  bool ended() const { return !command_fault && !run.fault && !run.livelock; }
};

// Called for every retired instruction, and once more for the instruction that
// faults (Retired::fault set; it changed nothing).  `thread` is the work item, core *
// n + tid (the tid with one core).
using Observer = std::function<void(unsigned thread, const Retired&)>;

// One line of `umbra-sim --trace` for a retired (or faulting) instruction, without the
// newline; docs/simulator.md describes the columns.  trace_header() is the comment
// line that names them.
std::string trace_line(unsigned thread, const Retired& r, const isa::LabelFn& label = nullptr);
std::string trace_header();

class Simulator {
 public:
  explicit Simulator(const Config& cfg);

  // Copies the text into the instruction store (config.imem_words words from
  // address 0; unused words stay 0, which is not an instruction) and the data into
  // data memory at data_base.  Throws LoadError naming what does not fit; `name` is
  // the program's file for the message.
  void load(const Program& p, const std::string& name = "program");
  // Runs threads 0..n-1 of every core (the configuration's `cores`) from the entry
  // point until all exit, one faults, or max_instructions (all threads together) have
  // retired.  Core c's thread t is work item c * n + t, its `lx`; in each issue slot the
  // cores' threads of that slot run in core order.  n must be 1..T, as the core's launch
  // port allows; a run starts from fresh registers every time, and
  // data memory keeps what earlier runs wrote.
  IssResult run(unsigned n, uint64_t max_instructions, const Observer& observer = nullptr);
  // Runs a domain launch of w x h work items (umbra_system's dispatcher): every thread
  // context of every core takes the next work item, row by row, when the run starts
  // (in slot order, the cores of a slot in core order) and again each time it exits,
  // until none is left; `lx`/`ly` are its item's coordinates, `domw`/`domh` w and h.
  // A context keeps its registers from one item to the next (so does the hardware): a
  // kernel must not read a register it has not written.  The observer's thread is the
  // work item, ly * w + lx; IssResult::threads has one entry per context, core * T +
  // tid.  Throws LoadError for more than 2^32 - 1 work items.
  IssResult run_domain(uint32_t w, uint32_t h, uint64_t max_instructions, const Observer& observer = nullptr);
  // Loads only the program's data (and its symbols, for disassembly): the instruction
  // store stays empty until a `program` command fills it (a host that ships its text
  // in the command buffer).  Throws LoadError.
  void load_data(const Program& p, const std::string& name = "program");
  // Runs the command buffer at byte address `addr` of data memory (docs/commands.md)
  // functionally, command after command, until `end`: `program` copies words from data
  // memory into the instruction store; `args` sets `rdsr arg` for every thread;
  // `domain` then `run entry` makes a whole run_domain() from pc `entry` before the next
  // command is read (the cycle models may overlap two runs; a buffer whose runs depend
  // on each other needs `wait` between them there, and means the same here);
  // `invalidate` and `wait` do nothing (the ISS has no caches and no time); `fence`
  // stores its value; `counters_reset` and `counters` keep, per core, the instructions
  // retired since the reset, and `counters` writes [issue slots (rounds * T), the same
  // again for busy_cycles, then one instruction count per core]: the ISS has no cycles,
  // so those words are its own (CommandsResult::counters says where they went).  A bad
  // command stops the buffer with a CommandFault, as the command processor's fault
  // output does.  max_instructions counts every run's instructions together; the
  // observer's thread is the work item within its run.
  CommandsResult run_commands(uint32_t addr, uint64_t max_instructions, const Observer& observer = nullptr);
  // With rounds > 0, run() also stops (IssResult::livelock) once every running thread
  // has executed the same instruction `rounds` times in a row, each time jumping back
  // to itself with no memory access and no register value changed: its state then
  // repeats exactly, so only the instruction limit would end it.  Off (0) by default:
  // the models compared with each other must all run to the same limit.
  void set_livelock_window(uint64_t rounds) { livelock_rounds_ = rounds; }

  const Config& config() const { return cfg_; }
  FlatMemory& memory() { return mem_; }
  const FlatMemory& memory() const { return mem_; }
  const std::vector<uint32_t>& imem() const { return imem_; }
  // The loaded program's text label at an address, for disassembly; the function
  // refers to this simulator and must not outlive it.
  isa::LabelFn labels() const;

 private:
  IssResult run_contexts(unsigned n, uint32_t dom_w, uint32_t dom_h, uint32_t entry,
                         uint64_t max_instructions, const Observer& observer);

  Config cfg_;
  std::vector<uint32_t> imem_;
  FlatMemory mem_;
  uint32_t entry_ = 0;
  size_t text_end_ = 0;  // one past the last word load() wrote: the rest of the store is zero
  std::vector<Symbol> text_symbols_;
  uint64_t livelock_rounds_ = 0;
  uint32_t arg_ = 0;  // `rdsr arg`: the argument block an `args` command set
};

}  // namespace umbra::iss
