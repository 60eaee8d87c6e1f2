// dram: the DRAM timing model (`memory.model: dram`, a memory_model, memory_model.h)
// usually behind the reorder queue (docs/memory-system.md, "The DRAM timing model"),
// with the data.  SystemC only: in
// cosimulation each side has its own instance.  Like fixed_memory it performs every
// access when it accepts the request, so the queue's order is the memory's order
// (atomics with umbra::atomic_update), and refuses a bad request with a sticky fault.
// As with the reorder queue, the behaviour is a plain C++ class (DramModel, clocked by
// clock(); tests and the queue benchmark use it without a SystemC kernel) and the
// SC_MODULE dram wraps it.
//
// Timing, exactly (all in memory cycles, 1:1 with the core clock, cycle 0 = the first
// after reset; address map as the queue's: bank = (addr / row_bytes) mod banks,
// row = addr / (row_bytes * banks)):
//
//   ready in cycle c   iff  c >= next_cmd  and  in_flight(c) < inflight, where
//                      in_flight(c) counts the accepted requests whose done cycle >= c
//                      (done = the last response beat for a request that is answered,
//                      the last data-bus cycle of its burst(s) for one that is not).
//   accepting at c a request to bank b, row r:
//     row hit      (b has r open):          data_start = max(c + CL, bus_free)
//                                           next_cmd   = c + 1
//     row miss     (b closed):              a = c
//                                           data_start = max(a + tRCD + CL, bus_free)
//                                           next_cmd   = a + tRCD
//     row conflict (b has another row open): p = max(c, act[b] + tRAS), a = p + tRP
//                                           data_start = max(a + tRCD + CL, bus_free)
//                                           next_cmd   = a + tRCD
//     (miss and conflict: act[b] = a, b has r open.)  The command slot is held until the
//     new row is open: there is no bank-level parallelism in this model.  Banks start
//     closed and are never closed again (open-page policy), so a miss is a bank's first
//     access.
//   data bus: every access holds it for burst/2 cycles (a DDR bus moves two transfers
//     a cycle; BL8 on an 8-byte bus is 4 cycles and 64 bytes, a 32-byte line using
//     half); an atomic reads then writes, two bursts: bus_free = data_start + burst/2
//     (atomics: + burst).
//   responses: 32-bit beats, one per cycle.  A fill gets line_bytes/4 beats on
//     consecutive cycles, ldw and returning atomics one beat, stores and red.* none.
//     A response's first beat is in cycle max(data_start, resp_free), where resp_free
//     is the cycle after the previous response's last beat: responses never interleave
//     and come in acceptance order.
//   line port (cache.line_port, docs/memory-system.md "The line port"): a fill is
//     answered with one beat carrying the line, in cycle max(data_start + burst/2 - 1,
//     resp_free), when its burst's last data have arrived; a wline (the words its mask
//     names) holds the bus for one burst, like a word store, and is not answered.  A
//     burst moves burst * bus_bytes bytes: a line of that size or less is one burst.
//   refused requests (unknown op, misaligned — a fill not on a line, a word access not
//     on a word — or out of range) do nothing but raise the sticky fault.
//
// Counters: row hits, misses, conflicts, data-bus busy cycles, requests accepted and
// bytes moved (a fill line_bytes, a word access 4, an atomic 8: read and write, a wline
// 4 for each word its mask names).
#pragma once
#include <systemc.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "memory_model.h"
#include "umbra/config.h"
#include "umbra/semantics.h"

namespace umbra::scm {

struct DramStats {
  uint64_t cycles = 0;
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  uint64_t bus_busy_cycles = 0;
  uint64_t requests = 0, bytes = 0;
  double bus_utilisation() const { return cycles ? double(bus_busy_cycles) / double(cycles) : 0.0; }
};

struct DramParams {
  unsigned banks = 8;
  uint32_t row_bytes = 2048;
  unsigned tRCD = 11, tRP = 11, CL = 11, tRAS = 28;
  unsigned bus_bytes = 8, burst = 8, inflight = 8;
  uint32_t line_bytes = 32;
  bool line_port = false;                     // cache.line_port
  static DramParams from(const Config& cfg);  // throws std::invalid_argument
};

// The timing rules above alone, without the data, the responses or the in-flight limit:
// the command slot, each bank's open row and the data bus.  DramModel passes every
// request it accepts through it; the benches replay a list of requests through it as
// if each had been waiting when the DRAM could take it, which is the DRAM's bound for
// that order (bench/README.md).
class DramTiming {
 public:
  enum class Row { Hit, Miss, Conflict };
  explicit DramTiming(const DramParams& p) : p_(p), banks_(p.banks) {}
  // A request to `addr` whose command is taken in cycle c (c >= next_cmd()) and holds
  // the data bus `bus` cycles: its data_start.  `row` says what the bank held.
  uint64_t access(uint64_t c, uint32_t addr, uint64_t bus, Row* row = nullptr);
  // A replay's request, taken as soon as the command slot is free: the cycle after its
  // last data-bus cycle.
  uint64_t add(uint32_t addr, uint64_t bus) {
    access(next_cmd_, addr, bus);
    return bus_free_;
  }
  uint64_t next_cmd() const { return next_cmd_; }
  uint64_t bus_free() const { return bus_free_; }
  // Data-bus cycles of a request moving `bytes`: whole bursts of burst * bus_bytes, at
  // least one, burst/2 cycles each; an atomic reads and writes, two bursts.
  static uint64_t bus_cycles(const DramParams& p, uint32_t bytes, bool atomic);

 private:
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    uint64_t act = 0;
  };
  DramParams p_;
  std::vector<Bank> banks_;
  uint64_t next_cmd_ = 0, bus_free_ = 0;
};

class DramModel {
 public:
  // bytes: a multiple of 4 (throws std::invalid_argument).
  DramModel(const DramParams& p, uint32_t bytes);

  // Outputs of the current cycle (they depend only on the state).
  bool req_ready() const { return ready_; }
  bool resp_valid() const { return resp_valid_; }
  uint32_t resp_data() const { return resp_data_; }
  uint32_t resp_tag() const { return resp_tag_; }
  const PortLine& resp_line() const { return resp_line_; }

  // End of the current cycle; a request transfers when req_valid and req_ready().
  // mask and line: a wline's (line port).
  void clock(bool req_valid, uint32_t op, uint32_t addr, uint32_t data, uint32_t cmp, uint32_t tag,
             uint32_t mask = 0, const PortLine* line = nullptr);
  void reset();  // timing state and counters; the data stay

  void load(uint32_t addr, const std::vector<uint8_t>& bytes);
  void poke32(uint32_t addr, uint32_t value);
  uint32_t peek32(uint32_t addr) const;
  const std::vector<uint8_t>& bytes() const { return mem_; }

  const DramStats& stats() const { return stats_; }
  const MemFault& first_fault() const { return fault_; }
  const DramParams& params() const { return p_; }
  uint64_t now() const { return now_; }
  // The data_start of the last accepted request (for tests of the formulas).
  uint64_t last_data_start() const { return last_data_start_; }
  // Bytes per cycle the bus can move at most (two transfers a cycle).
  double peak_bytes_per_cycle() const { return 2.0 * p_.bus_bytes; }

 private:
  struct Response {
    uint64_t start;
    uint32_t tag;
    std::vector<uint32_t> beats;
    bool is_line = false;  // one beat carrying `line` (a fill on a line port)
    PortLine line;
  };
  void accept(uint32_t op, uint32_t addr, uint32_t data, uint32_t cmp, uint32_t tag, uint32_t mask,
              const PortLine* line);
  void refuse(Fault kind, uint32_t op, uint32_t addr, uint32_t tag, std::string detail);
  void update_outputs();
  uint32_t word(uint32_t a) const;
  void set_word(uint32_t a, uint32_t v);

  DramParams p_;
  std::vector<uint8_t> mem_;
  DramTiming timing_;
  uint64_t now_ = 0, resp_free_ = 0, last_data_start_ = 0;
  std::vector<uint64_t> done_;  // done cycles of requests still in flight
  std::deque<Response> resp_;
  bool ready_ = true, resp_valid_ = false;
  uint32_t resp_data_ = 0, resp_tag_ = 0;
  PortLine resp_line_;
  DramStats stats_;
  MemFault fault_;
};

class dram final : public memory_model {
 public:
  SC_HAS_PROCESS(dram);
  dram(sc_module_name name, const Config& cfg, uint32_t bytes);

  void load(uint32_t addr, const std::vector<uint8_t>& bytes) override { model_.load(addr, bytes); }
  void poke32(uint32_t addr, uint32_t value) override { model_.poke32(addr, value); }
  uint32_t peek32(uint32_t addr) const { return model_.peek32(addr); }
  const std::vector<uint8_t>& bytes() const override { return model_.bytes(); }
  const DramStats& stats() const { return model_.stats(); }
  const MemFault& first_fault() const override { return model_.first_fault(); }
  void add_stats(umbra::MemoryStats& m) const override;
  const DramModel& model() const { return model_; }

  bool ready(uint32_t) const override { return model_.req_ready(); }
  void edge(bool rst, const Request& r) override;
  Response response() const override {
    return {model_.resp_valid(), model_.resp_data(), model_.resp_tag(), model_.resp_line()};
  }

 private:
  void end_of_elaboration() override;
  void start_of_simulation() override;
  void tick();
  void drive(bool always);
  DramModel model_;
  struct Inputs {
    const bool *rst, *valid;
    const uint32_t *op, *addr, *data, *cmp, *tag, *mask;
    const PortLine* line;
  } in_{};
  // What was last written to each output.
  struct Driven {
    bool ready = false, resp_valid = false, fault = false;
    uint32_t resp_data = 0, resp_tag = 0;
    PortLine resp_line;
  } driven_;
};

}  // namespace umbra::scm
