// fixed_memory: the data memory for `memory.model: fixed` (on-chip RAM, as on an FPGA
// board), a memory_model (memory_model.h) behind the core's generic memory port (docs/microarchitecture.md,
// "The generic memory port"; docs/memory-system.md, "Fills").  Flat, little-endian; it performs every access
// when it accepts the request (so the port's order is the memory's order, atomics included, via
// umbra::atomic_update).  A request accepted in cycle m is answered from cycle m + latency: a load or
// returning atomic with one beat, a `fill` (the port op of isa.yaml's port_ops) with line_bytes / 4 beats,
// words 0, 1, ... of the line, on consecutive cycles.  Beats of two responses never overlap: since every
// response starts `latency` cycles after its acceptance, only the last one scheduled can collide with a new
// one, so mem_req_ready is low exactly when the op on the port needs a response and m + latency is not after
// the last beat already scheduled.  Stores and red.* are always accepted.  A misaligned or out-of-range
// access (for a fill: an address that is not a multiple of line_bytes, or a line beyond memory), or a request
// whose op is no memory instruction or port op, is refused: no access, no response, and the sticky `fault`
// output (a testbench signal, not part of the core's port) rises with the details kept in first_fault().
#pragma once
#include <systemc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "memory_model.h"
#include "umbra/semantics.h"

namespace umbra::tb {

class fixed_memory : public memory_model {
 public:
  SC_HAS_PROCESS(fixed_memory);
  // bytes: a multiple of 4; latency: at least 1 cycle; line_bytes: the cache line a
  // fill reads, a power of two 4..128, 4 when there is no cache (throws
  // std::invalid_argument).
  fixed_memory(sc_module_name name, uint32_t bytes, unsigned latency, unsigned line_bytes = 32);

  // Backdoor access for loading and inspecting (not timed, not on the port).  Throws
  // std::out_of_range for bytes outside the memory.
  void load(uint32_t addr, const std::vector<uint8_t>& bytes) override;
  void poke32(uint32_t addr, uint32_t value) override;
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const override { return mem_; }
  unsigned latency() const { return latency_; }
  unsigned line_bytes() const { return line_bytes_; }

  const MemFault& first_fault() const override { return fault_; }

 private:
  struct Response {
    bool valid = false;
    uint32_t data = 0, tag = 0;
  };
  void tick();
  void drive_ready();
  void accept();
  // Beats of the response the op needs (0 for stores and red.*, and for ops the
  // memory refuses, which are accepted so that they can be refused).
  unsigned beats_for(uint32_t op) const;
  bool check(uint64_t addr, size_t n) const { return addr + n <= mem_.size(); }
  uint32_t word(uint32_t addr) const;
  void set_word(uint32_t addr, uint32_t v);
  void refuse(Fault kind, std::string detail);

  std::vector<uint8_t> mem_;
  unsigned latency_;
  unsigned line_bytes_;
  // Response beats by due cycle, modulo latency + line_bytes / 4 + 1: no two beats are
  // due in one cycle (see mem_req_ready), and none is due further ahead than that.
  std::vector<Response> ring_;
  uint64_t now_ = 0;
  // The cycle of the last beat scheduled (0: none yet; cycle 0 can hold no beat).
  uint64_t last_beat_ = 0;
  // Registered: in this cycle a one-beat or fill response could start without
  // meeting a scheduled beat, i.e. now + latency > last_beat_ (the fill's later beats
  // are then after last_beat_ too).
  sc_signal<bool> free_{"free", true};
  MemFault fault_;
};

}  // namespace umbra::tb
