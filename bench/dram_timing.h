// dram_timing.h: the DRAM timing of systemc/memory/dram.h (its header states the
// rules) replayed over a list of requests as if each had been waiting when the DRAM
// could take it, for the benches' predictions.  access_patterns gives it the
// round-robin order the contract assumes and, after a run, the order the DRAM actually
// accepted; queue_bench the order the queue sent.  The model's own DramModel cannot do
// this: it takes requests as the run offers them, idle cycles and all, and a replay
// over a fixed order is the DRAM bound of that order.
//
// Header-only, like bench_common.h: a few lines two benches share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dram.h"
#include "umbra/isa.h"

namespace umbra::bench {

// A row hit holds the command slot one cycle, a miss or conflict until the row is open
// (tRAS, tRP, tRCD; no bank-level parallelism); the data bus is held `bus` cycles from
// data_start.
class DramTiming {
 public:
  explicit DramTiming(const tb::DramParams& p) : p_(p), banks_(p.banks) {}
  // One request; returns the cycle after its last data-bus cycle.
  uint64_t add(uint32_t addr, unsigned bus) {
    const uint64_t c = next_cmd_;
    Bank& b = banks_[(addr / p_.row_bytes) % p_.banks];
    const uint64_t row = addr / (uint64_t(p_.row_bytes) * p_.banks);
    uint64_t data_start;
    if (b.open && b.row == row) {
      data_start = std::max<uint64_t>(c + p_.CL, bus_free_);
      next_cmd_ = c + 1;
    } else {
      const uint64_t a = b.open ? std::max<uint64_t>(c, b.act + p_.tRAS) + p_.tRP : c;
      data_start = std::max<uint64_t>(a + p_.tRCD + p_.CL, bus_free_);
      next_cmd_ = a + p_.tRCD;
      b = {true, row, a};
    }
    return bus_free_ = data_start + bus;
  }
  uint64_t bus_free() const { return bus_free_; }

  // Data-bus cycles of a request (dram.h): one burst (burst/2 cycles) per burst *
  // bus_bytes bytes moved, at least one; an atomic reads and writes, two.
  static unsigned bus_cycles(uint8_t op, const tb::DramParams& p) {
    const unsigned burst = (p.burst + 1) / 2;
    if (op == isa::kPortOpFill) {
      const unsigned per_burst = p.burst * p.bus_bytes;
      return burst * std::max(1u, (p.line_bytes + per_burst - 1) / per_burst);
    }
    const isa::InstrInfo* in = isa::find_opcode(op);
    return in && in->cls == isa::Class::Atomic ? 2 * burst : burst;
  }

 private:
  struct Bank {
    bool open = false;
    uint64_t row = 0, act = 0;
  };
  tb::DramParams p_;
  std::vector<Bank> banks_;
  uint64_t next_cmd_ = 0, bus_free_ = 0;
};

}  // namespace umbra::bench
