// dram_timing.h: what the benches' DRAM predictions add to the DRAM model's own timing
// (umbra::scm::DramTiming, systemc/memory/dram.h): a core port request's data-bus cycles
// from its op.  access_patterns replays the round-robin order the contract assumes
// and, after a run, the order the DRAM accepted; queue_bench the order the queue sent.
//
// Header-only, like bench_common.h: a few lines two benches share.
#pragma once

#include <cstdint>

#include "dram.h"
#include "umbra/isa.h"

namespace umbra::bench {

// A fill moves a line, an atomic reads and writes a word, anything else moves a word.
inline unsigned port_bus_cycles(uint8_t op, const scm::DramParams& p) {
  if (op == isa::kPortOpFill) return unsigned(umbra::scm::DramTiming::bus_cycles(p, p.line_bytes, false));
  const isa::InstrInfo* in = isa::find_opcode(op);
  return unsigned(umbra::scm::DramTiming::bus_cycles(p, 4, in && in->cls == isa::Class::Atomic));
}

}  // namespace umbra::bench
