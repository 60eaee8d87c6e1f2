// The meaning of every instruction, with no timing: the reference simulator calls
// execute() for one instruction at a time; the SystemC model calls the pieces
// (compute, next_pc, effective_address, atomic_update) from the pipeline stages that
// do that work, so both run the same code and cannot disagree on a result.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "umbra/isa.h"
#include "umbra/uarch_gen.h"

namespace umbra {

// One thread's architectural state.
struct ThreadState {
  uint32_t pc = 0;
  std::array<uint32_t, 256> r{};
};

// Values of the special registers as the issuing hardware sees them this cycle.
struct SpecialRegs {
  uint32_t tid = 0, cid = 0, nthr = 1, ncore = 1;
  uint64_t clock = 0;
  uint32_t lx = 0, ly = 0, domw = 1, domh = 1, arg = 0;
  uint32_t read(uint8_t number) const;
};

// Values of the registers named by fields a, b and c (zero for a field the
// instruction does not read as a register; r0 reads zero).  A memory operand's
// base register is field b.
struct RegValues {
  uint32_t a = 0, b = 0, c = 0;
};
RegValues read_operands(const isa::Decoded& d, const ThreadState& t);

// Value written to field a's register by an instruction that is not a load or an
// atomic (arithmetic, float, rdsr, movi/movhi, jal/jalr's link address); 0 for an
// instruction with no register result.
uint32_t compute(const isa::Decoded& d, const RegValues& v, uint32_t pc, const SpecialRegs& sr);
// Address of the next instruction of this thread (exit: pc + 4, never fetched).
// jalr returns ra as it is; jump_fault says whether control may go there.
uint32_t next_pc(const isa::Decoded& d, const RegValues& v, uint32_t pc);
// Byte address of a load, store, atomic (ra, no offset) or dinv (rB + offset).
uint32_t effective_address(const isa::Decoded& d, const RegValues& v);
// New memory word of an atomic given the old one (red.* and atom.*).
uint32_t atomic_update(isa::Op op, uint32_t old, const RegValues& v);
// Data a store (rs) or an atomic (rb) carries to memory; 0 for anything else.
uint32_t store_data(const isa::Decoded& d, const RegValues& v);
// Loads, stores and atomics: the instructions that access data memory (dinv,
// dinvall and dflush act on the cache only and are not).
bool is_memory_op(const isa::Decoded& d);

// Data memory as the reference simulator sees it.
class Memory {
 public:
  virtual ~Memory() = default;
  virtual bool in_range(uint32_t addr) const = 0;  // addr..addr+3 exist
  virtual uint64_t size_bytes() const = 0;         // for a fault's reason
  virtual uint32_t load32(uint32_t addr) = 0;
  virtual void store32(uint32_t addr, uint32_t value) = 0;
};

// Why a thread stopped other than by `exit`, with the values the RTL's
// trace_fault_cause carries (isa/uarch.yaml, `fault`).  InstructionLimit is never
// produced by execute(); simulators use it when a run exceeds its instruction budget.
using Fault = uarch::Fault;
const char* fault_name(Fault f);

// Whether control may pass to `target` after instruction d in an instruction store
// of imem_bytes bytes (addresses 0..imem_bytes-1): jalr to a non-multiple of 4, and
// any next pc (taken or not) outside the store, give BadJump and a reason in *why.
Fault jump_fault(const isa::Decoded& d, uint32_t target, uint64_t imem_bytes, std::string* why = nullptr);

// The reasons every model gives for a fault, in one wording (issue 37): the ISS, the
// SystemC model and the RTL's bench (which derives them from the RTL's fault outputs,
// its register writes and the program) call these, so a fault reads the same on each.
// Why d is illegal on a core of `registers` registers whose extension groups are the
// mask `groups`, or empty when the core runs it: an absent group first (a binary made
// for more groups must not run an instruction the core has no logic for), then a
// register beyond `registers` (a binary made for 256 must not silently run on fewer).
// The configuration's name is not in it: the SystemC model and the RTL know only
// their parameters, and every model words a fault alike.
std::string illegal_reason(const isa::Decoded& d, unsigned registers, uint32_t groups);
// The same for a word, which may be no instruction at all (isa::decode's reason).
std::string illegal_reason(uint32_t word, unsigned registers, uint32_t groups);
// Why a load, store or atomic (`mnemonic`) at data address addr faults (Misaligned or
// OutOfRange) in a data memory of mem_bytes bytes.
std::string access_fault_reason(Fault f, const char* mnemonic, uint32_t addr, uint64_t mem_bytes);

// What one instruction did: for traces, for the cosimulation's checks, and to stop
// the run on a fault.
struct Retired {
  uint32_t pc = 0, word = 0, next_pc = 0;
  bool writes_reg = false;
  uint8_t reg = 0;
  uint32_t value = 0;
  enum class Mem : uint8_t { None, Load, Store, Atomic } mem = Mem::None;
  // store/atomic: data written; load: data read; load/atomic: `value` is the data
  // read (the old word for an atomic), even when no register is written.
  uint32_t addr = 0, data = 0;
  bool exited = false;
  Fault fault = Fault::None;
  std::string fault_detail;
};

// Executes the instruction at t.pc on thread state t.  A faulting instruction (fault
// != None) changes nothing: no register, no memory, and t.pc stays on it.  Faults are
// checked in this order: decode, jump target (imem_bytes is the instruction store's
// size; the default admits any target), data address alignment, address range.
// `exit` sets exited and changes nothing else (next_pc is its own pc).  Writes to r0 are discarded
// (writes_reg is false).  dinv, dinvall and dflush have no architectural effect:
// there is no cache here, and every store is in memory when execute returns.
Retired execute(uint32_t word, ThreadState& t, Memory& mem, const SpecialRegs& sr,
                uint64_t imem_bytes = uint64_t(1) << 32);
// The same for an instruction already decoded (d.word is the instruction), for a
// simulator that decodes each word of its store once.
Retired execute(const isa::Decoded& d, ThreadState& t, Memory& mem, const SpecialRegs& sr,
                uint64_t imem_bytes = uint64_t(1) << 32);

}  // namespace umbra
