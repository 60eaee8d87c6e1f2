// reorder_queue: the memory reorder queue between the cores' generic memory ports and
// the DRAM port (docs/memory-system.md, "The reorder queue"); rtl/reorder_queue.v is
// the same block, cycle for cycle.
//
// The block is split in two so that it can be tested and benchmarked without a SystemC
// kernel (which elaborates once per process): ReorderQueueModel is the whole behaviour
// as a plain C++ state machine clocked by clock(), and the SC_MODULE reorder_queue is
// a thin wrapper that samples its input ports at the rising edge, clocks the model and
// writes the model's outputs.  Every output except the response pass-through depends
// only on the state at the start of the cycle (a Moore machine), which is what lets the
// wrapper, the RTL and the block-level cosimulation agree without delta-cycle care.
#pragma once
#include <systemc.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "events.h"
#include "umbra/config.h"

namespace umbra::scm {

struct QueueConfigError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// One request on either side of the queue.  tag is 16 bits: {core, thread}.
struct QueueRequest {
  uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0;
  bool operator==(const QueueRequest& o) const {
    return op == o.op && addr == o.addr && data == o.data && cmp == o.cmp && tag == o.tag;
  }
};

struct QueueStats {
  uint64_t cycles = 0;         // cycles clocked since reset
  uint64_t occupancy_sum = 0;  // occupancy at the start of each cycle, summed
  uint64_t occupancy_max = 0;
  uint64_t accepted = 0;      // requests taken from the core side
  uint64_t sent = 0;          // requests transferred on the DRAM port
  uint64_t passed_over = 0;   // sum over sends of the older requests the send passed
  uint64_t longest_wait = 0;  // cycles from acceptance to send, the largest seen
  uint64_t wait_sum = 0;      // the same, summed over every send
  double mean_occupancy() const { return cycles ? double(occupancy_sum) / double(cycles) : 0.0; }
};

// The queue's parameters, taken from umbra::Config (queue.*, dram.banks,
// dram.row_bytes, cache.line_bytes) and checked: the address map needs powers of two.
struct QueueParams {
  bool reorder = true;  // queue.mode: reorder (true) or fcfs
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

  // The outputs of the current cycle; they depend only on the state.
  bool req_ready() const { return entries_.size() < p_.depth; }
  bool dram_valid() const { return !entries_.empty(); }
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
  bool row_open(uint32_t addr) const;
  void touch_row(uint32_t addr);

  QueueParams p_;
  std::vector<Entry> entries_;  // oldest first
  std::vector<std::pair<uint32_t, uint32_t>> table_;
  unsigned sel_ = 0;
  uint64_t now_ = 0;
  QueueStats stats_;
};

// The SystemC block.  Port types as a Verilated model of rtl/reorder_queue.v has them.
SC_MODULE(reorder_queue) {
  sc_in<bool> clk;
  sc_in<bool> rst;  // synchronous, active high
  // Core side (the generic memory port, the tag widened to {core, thread}).
  sc_in<bool> mem_req_valid;
  sc_out<bool> mem_req_ready;
  sc_in<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  sc_out<bool> mem_resp_valid;
  sc_out<uint32_t> mem_resp_data, mem_resp_tag;
  // DRAM side.
  sc_out<bool> dram_req_valid;
  sc_in<bool> dram_req_ready;
  sc_out<uint32_t> dram_req_op, dram_req_addr, dram_req_data, dram_req_cmp, dram_req_tag;
  sc_in<bool> dram_resp_valid;
  sc_in<uint32_t> dram_resp_data, dram_resp_tag;

  SC_HAS_PROCESS(reorder_queue);
  // Throws QueueConfigError for parameters the queue cannot work with.
  reorder_queue(sc_module_name name, const Config& cfg);

  const QueueStats& stats() const {
    return model_.stats();
  }
  const ReorderQueueModel& model() const {
    return model_;
  }
  // Dram events (one per DRAM-port transfer) go to this sink (not owned), in the cycle
  // counted from reset like the core's events.
  void set_event_sink(EventSink * sink) {
    sink_ = sink;
  }

 private:
  void start_of_simulation() override;
  void tick();
  void pass_responses();
  void drive();

  ReorderQueueModel model_;
  EventSink* sink_ = nullptr;
  uint64_t cycle_ = 0;
};

}  // namespace umbra::scm
