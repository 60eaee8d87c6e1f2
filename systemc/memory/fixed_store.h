// fixed_store: the behaviour of the fixed-latency data memory (`memory.model: fixed`),
// cycle by cycle, as plain C++.  The SystemC module fixed_memory (fixed_memory.h) is
// this behind the memory_model port; testbench/core/core_bench drives the bare
// Verilated core with it directly, without the SystemC kernel, so that both see one
// memory and not two that could drift.
//
// The contract (docs/microarchitecture.md, "The generic memory port";
// docs/memory-system.md, "Fills"): flat, little-endian; every access is performed when
// the request is accepted (so the port's order is the memory's order, atomics included,
// via umbra::atomic_update).  A request accepted in cycle m is answered from cycle
// m + latency: a load or returning atomic with one beat, a `fill` (isa.yaml's port op)
// with line_bytes / 4 beats, words 0, 1, ... of the line, on consecutive cycles.  Beats
// of two responses never overlap: every response starts `latency` cycles after its
// acceptance, so only the last one scheduled can collide with a new one, and ready()
// is false exactly when the op needs a response and m + latency is not after the last
// beat already scheduled.  Stores and red.* are always accepted.  A misaligned or
// out-of-range access (for a fill: an address that is not a multiple of line_bytes, or
// a line beyond memory), or an op that is no memory instruction or port op, is refused:
// no access, no response, and the first refusal is kept (first_fault()).
// On a line port (cache.line_port, docs/memory-system.md "The line port") a fill is
// answered with one beat carrying the whole line, m + latency, and a `wline` writes
// the words its mask names and is not answered; it is refused as a fill would be.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mem_fault.h"
#include "umbra/port_line.h"

namespace umbra::scm {

class FixedStore {
 public:
  // bytes: a multiple of 4; latency: at least 1 cycle; line_bytes: the cache line a
  // fill reads, a power of two 4..128, 4 when there is no cache (throws
  // std::invalid_argument).
  // line_port: fills in one beat, wline accepted (cache.line_port).
  FixedStore(uint32_t bytes, unsigned latency, unsigned line_bytes, bool line_port = false);

  struct Request {
    uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0;
    uint32_t mask = 0;  // wline
    PortLine line;      // wline
  };
  struct Beat {
    bool valid = false;
    uint32_t data = 0, tag = 0;
    PortLine line;  // a fill's, on a line port
  };

  // In the current cycle: whether a request with this op would be accepted.
  bool ready(uint32_t op) const { return beats_for(op) == 0 || free(); }
  // In the current cycle: a response could start without meeting a scheduled beat
  // (now + latency after the last one; a fill's later beats are then after it too).
  bool free() const { return now_ + latency_ > last_beat_; }
  // Accepts a request in the current cycle (the caller has checked ready()): performs
  // the access and schedules its response, or refuses it.
  void accept(const Request& q);
  // Ends the current cycle and returns the response beat of the next one.
  Beat advance();
  // Back to cycle 0 with no response pending (the memory's contents stay).
  void reset();
  uint64_t now() const { return now_; }

  // Backdoor access for loading and inspecting (not timed, not on the port).  Throws
  // std::out_of_range for bytes outside the memory.
  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  void poke32(uint32_t addr, uint32_t value);
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const { return mem_; }
  unsigned latency() const { return latency_; }
  unsigned line_bytes() const { return line_bytes_; }
  const MemFault& first_fault() const { return fault_; }

 private:
  // Beats of the response the op needs (0 for stores and red.*, and for ops the
  // memory refuses, which are accepted so that they can be refused).
  unsigned beats_for(uint32_t op) const;
  bool check(uint64_t addr, size_t n) const { return addr + n <= mem_.size(); }
  uint32_t word(uint32_t addr) const;
  void set_word(uint32_t addr, uint32_t v);
  void refuse(const Request& q, Fault kind, std::string detail);

  std::vector<uint8_t> mem_;
  unsigned latency_;
  unsigned line_bytes_;
  bool line_port_;
  // Response beats by due cycle, modulo latency + line_bytes / 4 + 1: no two beats are
  // due in one cycle (see ready()), and none is due further ahead than that.
  std::vector<Beat> ring_;
  uint64_t now_ = 0;
  // The cycle of the last beat scheduled (0: none yet; cycle 0 can hold no beat).
  uint64_t last_beat_ = 0;
  MemFault fault_;
};

}  // namespace umbra::scm
