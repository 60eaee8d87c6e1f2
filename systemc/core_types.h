// Types that more than one block of the SystemC core uses: the thread state codes
// carried on `x2_upd_state`, the decoded-instruction bundle that travels from decode to
// execute as one signal, and the parameters every block is built with.  The numeric
// encodings are generated from isa/uarch.yaml for both models (umbra/uarch_gen.h here,
// rtl/umbra_uarch.vh there), so a waveform of either model reads the same.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <ostream>
#include <string>

#include "events.h"
#include "umbra/isa.h"
#include "umbra/port_line_sc.h"

namespace umbra::scm {

// Thread state (docs/microarchitecture.md, "Threads and slots"): the codes of
// isa/uarch.yaml, carried on x2_upd_state as the RTL's are.
using ThreadStateCode = uarch::ThreadStateCode;

// Decode's output bundle as one signal.  In the RTL this is r_word plus the control
// bits decode.v derives from it; execute is its only reader, so how the bundle is
// split into wires is each model's own business.  info == nullptr means no (valid)
// instruction.
struct DecodedInstr {
  isa::Decoded d;
  // The word and the table entry determine every other field.
  bool operator==(const DecodedInstr& o) const { return d.info == o.d.info && d.word == o.d.word; }
};
inline std::ostream& operator<<(std::ostream& os, const DecodedInstr& v) {
  return os << (v.d.info ? v.d.info->name : "-") << " 0x" << std::hex << v.d.word << std::dec;
}
inline void sc_trace(sc_core::sc_trace_file* tf, const DecodedInstr& v, const std::string& name) {
  sc_core::sc_trace(tf, v.d.word, name);
}

// What every block is built with.  `events` is shared by the blocks of one core.
struct BlockParams {
  unsigned threads = 8;
  // X1 -> W (Config's execute_stages): execute's delay line; the depth follows.
  unsigned execute_stages = uarch::kDefaultExecuteStages;
  unsigned registers = 256;
  // Config's groups (core.groups): decode makes an instruction of another group
  // illegal, as the RTL's GROUPS parameter does.
  uint32_t groups = isa::kAllGroups;
  uint32_t imem_words = 4096;
  unsigned core_id = 0;
  // The data cache and the request FIFO (docs/memory-system.md), from Config's
  // cache_* keys: powers of two, bytes >= ways * line_bytes.
  uint32_t cache_bytes = 4096;
  unsigned cache_ways = 2;
  unsigned cache_line_bytes = 32;
  unsigned cache_request_queue = 8;
  // cache.line_port (docs/memory-system.md, "The line port"): fills in one beat, stores
  // combined into line writes in the request FIFO.
  bool cache_line_port = false;
  // The core has a dispatcher in front (umbra_system's cores; rtl DISPATCH): domain
  // launches and starts, and per-thread work items.
  bool dispatch = false;
  EventOrder* events = nullptr;
};

}  // namespace umbra::scm
