// Directed test programs, generated from the ISA table (isa::kInstrs) so that every
// instruction the ISA has is executed, including ones added to isa/isa.yaml later.
// One program per instruction: every thread runs a few dozen cases of that
// instruction with operands drawn from pools of interesting values (integer edges,
// binary32 zeros, infinities, NaNs, denormals, ...; immediates at both ends of their
// operand kind's range), and stores each result to its own output word, so a wrong
// result shows up in the final memory as well as in the register-write events.
// Branches are run taken and not taken (bz/bnz also backward and over 260 words, where
// the offset's high byte lies in field b's place), memory operations on per-thread and
// shared words; fadd/fsub add sums halfway between two binary32 values (ties to even).  The programs are
// assembly text: they go through the real assembler.
#pragma once
#include <string>
#include <vector>

#include "umbra/isa.h"

namespace umbra::directed {

struct Program {
  std::string name;  // the instruction's mnemonic
  const isa::InstrInfo* instr = nullptr;
  std::string source;  // assembly
  unsigned cases = 0;  // executions of the instruction per thread
};

// One program per instruction of the ISA except `exit`, which ends every program,
// with output and scratch areas for up to `threads` work items (128 bytes each; a
// thread's area is its `lx`'s, so several cores need cores x T of them), sized
// for an instruction store of `imem_words`: below 512 words every program runs fewer
// cases and bz/bnz leave out the branch over 260 words.
std::vector<Program> programs(unsigned threads, unsigned imem_words = 4096);

}  // namespace umbra::directed
