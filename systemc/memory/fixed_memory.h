// fixed_memory: the data memory for `memory.model: fixed` (on-chip RAM, as on an FPGA
// board), a memory_model (memory_model.h) behind the core's generic memory port.  Its
// behaviour (latency, fills, the ready rule, refusals) is FixedStore's (fixed_store.h),
// plain C++ shared with the RTL bring-up bench; this module only moves it onto the
// port's signals.  A refusal also raises the sticky `fault` output (a testbench signal,
// not part of the core's port).  Between responses the data are not held: the cycle
// after a response drives junk on them, as a RAM's output on a board may show
// whatever it read last, so a core that takes a response without `mem_resp_valid` is
// caught (the mutation campaign's survivor 912c6c2f217c, load_store_unit.v's return
// buffer written every cycle, docs/verification.md).
#pragma once
#include <systemc.h>

#include <cstdint>
#include <vector>

#include "fixed_store.h"
#include "memory_model.h"

namespace umbra::scm {

class fixed_memory : public memory_model {
 public:
  SC_HAS_PROCESS(fixed_memory);
  // See FixedStore (throws std::invalid_argument for a bad size, latency or line).
  fixed_memory(sc_module_name name, uint32_t bytes, unsigned latency, unsigned line_bytes = 32,
               bool line_port = false);

  void load(uint32_t addr, const std::vector<uint8_t>& bytes) override { store_.load(addr, bytes); }
  void poke32(uint32_t addr, uint32_t value) override { store_.poke32(addr, value); }
  uint32_t peek32(uint32_t addr) const { return store_.peek32(addr); }
  const std::vector<uint8_t>& bytes() const override { return store_.bytes(); }
  unsigned latency() const { return store_.latency(); }
  unsigned line_bytes() const { return store_.line_bytes(); }
  const MemFault& first_fault() const override { return store_.first_fault(); }

  bool ready(uint32_t op) const override { return store_.ready(op); }
  void edge(bool rst, const Request& r) override;
  Response response() const override { return resp_; }

 private:
  void tick();
  void drive_ready();

  FixedStore store_;
  // Registered FixedStore::free(): mem_req_ready depends on it and on the op on the
  // port (a store never waits), so it is combinational from mem_req_op and this.
  sc_signal<bool> free_{"free", true};
  Response resp_;
  bool just_answered_ = false;  // the last cycle drove a response
};

}  // namespace umbra::scm
