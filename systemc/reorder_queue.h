// reorder_queue: the memory reorder queue between the cores' generic memory ports and
// the DRAM port (docs/memory-system.md, "The reorder queue"); rtl/reorder_queue.v is
// the same block, cycle for cycle.
//
// The block is a plain C++ state machine clocked by clock(), so that it can be tested
// and benchmarked without a SystemC kernel (which elaborates once per process);
// umbra_system clocks it from its one clocked method, between the core's request of
// the cycle that ends and the core's next edge, and routes its outputs and the
// response pass-through as rtl/umbra_system.v does.  Every output except the response
// pass-through depends only on the state at the start of the cycle (a Moore machine),
// which is what lets the system, the RTL and the block-level cosimulation agree
// without delta-cycle care.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "events.h"
#include "umbra/config.h"
#include "umbra/port_line.h"

namespace umbra::scm {

struct QueueConfigError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// One request on either side of the queue.  tag is 16 bits: {core, thread}.
struct QueueRequest {
  uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0;
  uint32_t mask = 0;  // a wline's words and data (the line port), carried through
  PortLine line;
  bool operator==(const QueueRequest& o) const {
    return op == o.op && addr == o.addr && data == o.data && cmp == o.cmp && tag == o.tag && mask == o.mask &&
           line == o.line;
  }
};

struct QueueStats {
  uint64_t cycles = 0;         // cycles clocked since reset
  uint64_t occupancy_sum = 0;  // occupancy at the start of each cycle, summed
  uint64_t occupancy_max = 0;
  uint64_t accepted = 0;      // requests that joined the entries
  uint64_t sent = 0;          // requests transferred on the DRAM port
  uint64_t passed_over = 0;   // sum over sends of the older requests the send passed
  uint64_t longest_wait = 0;  // cycles from acceptance to send, the largest seen
  uint64_t wait_sum = 0;      // the same, summed over every send
  double mean_occupancy() const { return cycles ? double(occupancy_sum) / double(cycles) : 0.0; }
};

// The queue's parameters, taken from umbra::Config (queue.*, dram.banks,
// dram.row_bytes, cache.line_bytes) and checked: the address map needs powers of two.
struct QueueParams {
  bool reorder = true;             // queue.mode: reorder (true) or fcfs
  bool registered_pick = false;    // queue.registered_pick: the pick offered a cycle after its search
  bool registered_accept = false;  // queue.registered_accept: a request enters the entries a cycle late
  unsigned depth = 16, open_rows = 4, max_passes = 16;
  unsigned banks = 8;
  uint32_t row_bytes = 2048, line_bytes = 32;
  static QueueParams from(const Config& cfg);  // throws QueueConfigError
  uint32_t bank(uint32_t addr) const { return (addr / row_bytes) % banks; }
  uint32_t row(uint32_t addr) const { return addr / (row_bytes * banks); }
  uint32_t line(uint32_t addr) const { return addr / line_bytes; }
};

class ReorderQueueModel {
 public:
  explicit ReorderQueueModel(const QueueParams& p);

  // The outputs of the current cycle; they depend only on the state.  With
  // registered_accept the core side's ready is the input register's: empty, or handing
  // its request to the entries in this cycle.
  bool req_ready() const { return p_.registered_accept ? !in_valid_ || has_room() : has_room(); }
  bool dram_valid() const { return !entries_.empty() && pick_ok_; }
  // A request is held (with registered_pick, also in the cycle after a send, when none
  // is offered; with registered_accept, also in the input register): what the system's
  // busy sees.
  bool holding() const { return !entries_.empty() || in_valid_; }
  const QueueRequest& dram_req() const;  // valid only while dram_valid()
  // Index (age order, 0 = oldest) of the request presented on the DRAM port.
  unsigned selected() const { return sel_; }

  // End of the current cycle.  A request transfers on the core side when req_valid and
  // req_ready(); on the DRAM side when dram_valid() and dram_ready.  Returns whether the
  // DRAM side transferred (the request was dram_req() as read before the call).
  bool clock(bool req_valid, const QueueRequest& req, bool dram_ready);
  void reset();

  unsigned occupancy() const { return unsigned(entries_.size()); }
  unsigned passes(unsigned i) const { return entries_.at(i).passes; }
  const QueueRequest& entry(unsigned i) const { return entries_.at(i).req; }
  // The open-row table, most recently opened first: {bank, row}.
  std::vector<std::pair<uint32_t, uint32_t>> open_rows() const { return table_; }
  const QueueStats& stats() const { return stats_; }
  const QueueParams& params() const { return p_; }

 private:
  struct Entry {
    QueueRequest req;
    unsigned passes = 0;
    uint64_t since = 0;  // the cycle it was accepted
  };
  unsigned select() const;
  bool has_room() const { return entries_.size() < p_.depth; }
  bool row_open(uint32_t addr) const;
  void touch_row(uint32_t addr);

  QueueParams p_;
  std::vector<Entry> entries_;  // oldest first
  std::vector<std::pair<uint32_t, uint32_t>> table_;
  unsigned sel_ = 0;
  bool pick_ok_ = true;    // sel_ names the entries as they are (false after a registered pick's send)
  bool in_valid_ = false;  // registered_accept: the input register holds in_req_
  QueueRequest in_req_;
  uint64_t now_ = 0;
  QueueStats stats_;
};

}  // namespace umbra::scm
