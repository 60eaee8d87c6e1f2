// Data cache: stages C1 (= X2) and C2 of docs/memory-system.md ("The cache pipeline
// inside the core", "Fills and the line buffer").  Tags, valid bits, data, the miss
// table (one entry per thread), the line buffer, and — in this model — the per-thread
// return buffers (rb_valid/rb_data), because every writer of a return buffer but one
// is the cache: a hit (end of C2), a fill's completion (all of its waiting threads in
// one cycle), a returning atomic's beat.  The one other writer, a flush marker leaving
// the request FIFO, arrives from the load/store unit on lsu_flush_* (the head of this
// cycle is a marker).
//
// Timing.  C2 sees the cache as it is at the start of its cycle, so the outcome of a
// request is fully determined at the end of C1: this block computes it then, after
// applying that edge's updates, and registers it.  The push into the request FIFO
// (c2_push_*) is therefore a register valid in C2, which the load/store unit takes at
// the end of C2 exactly as the contract says; the outcome's own effects (return
// buffer, miss table, invalidations, the cache event) are applied at the end of C2.
// Within one clock edge the order is: a fill beat's victim choice and RAM writes (they
// read the valid bits and round-robin pointers as at the start of the cycle), then
// C2's effects, then the fill's completion — so a C2 merge in the completion cycle is
// answered with the fill, and a C2 store, atomic, dinv or dinvall in that cycle marks
// the fill no-allocate in time to keep the line invalid.
//
// On a line port (cache.line_port) a fill's one beat is its first and its last: it
// picks the victim, writes the whole line and completes the fill in that cycle; and a
// `wline` op from execute (the close of a combining buffer, execute.h) passes C1 and
// C2 untouched to the load/store unit.
//
// cache_bytes 0 (no cache, docs/memory-system.md "No cache"): there are no sets, every
// ldw is a miss whose one-word fill never allocates, so nothing hits or merges; the
// miss table, line buffer and return buffers work as with a cache.
#pragma once
#include <systemc.h>

#include <optional>
#include <string>
#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(dcache) {
  in<bool> rst;
  // C1: the request execute registered in X1 (loads, stores, atomics, dinv, dinvall,
  // dflush).
  in<bool> x2_mem_valid;
  in<uint32_t> x2_mem_op;
  in<uint32_t> x2_mem_addr;
  in<uint32_t> x2_mem_data;
  in<uint32_t> x2_mem_cmp;
  in<uint32_t> x2_mem_tag;
  // Response beats on the core's port (fills and returning atomics).
  in<bool> mem_resp_valid;
  in<uint32_t> mem_resp_data;
  in<uint32_t> mem_resp_tag;
  in<PortLine> mem_resp_line;  // a fill's whole line in one beat (cache.line_port)
  // Writeback consumed a return buffer (W+1).
  in<bool> wake_valid;
  in<uint32_t> wake_thread;
  // From the load/store unit: this cycle's FIFO head is a flush marker and leaves.
  in<bool> inval_all;  // the command processor's `invalidate`: as a dinvall in C2
  in<bool> lsu_flush_valid;
  in<uint32_t> lsu_flush_thread;
  in<uint64_t> clock;  // event time stamps

  // To the load/store unit, valid in C2: the request to push at the end of C2 (a
  // fill, store, atomic, or a flush marker: op = dflush's opcode).
  out<bool> c2_push_valid;
  out<uint32_t> c2_push_op;
  out<uint32_t> c2_push_addr;
  out<uint32_t> c2_push_data;
  out<uint32_t> c2_push_cmp;
  out<uint32_t> c2_push_tag;
  // The return buffers, to writeback.
  std::vector<out<bool>> rb_valid;
  std::vector<out<uint32_t>> rb_data;

  dcache(sc_module_name name, const BlockParams& p);

  uint64_t hits() const {
    return hits_;
  }
  uint64_t misses() const {
    return misses_;
  }
  uint64_t merges() const {
    return merges_;
  }
  // Empty while the responses made sense; else the first that did not (a beat of
  // another response in the middle of a fill).
  const std::string& protocol_error() const {
    return protocol_error_;
  }

  // Inspection for tests: whether the line holding addr is valid, and in which way.
  bool line_valid(uint32_t addr, unsigned* way = nullptr) const;
  // A thread's last access in C2, {opcode, its own address}: the memory refuses a
  // missed load as its line's fill, and a fault names the load by this (harness).
  struct Access {
    uint32_t op = 0, addr = 0;
  };
  std::optional<Access> last_access(unsigned thread) const {
    return thread < last_access_.size() ? last_access_[thread] : std::nullopt;
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  // The request in C2 with the outcome computed at the end of C1.
  struct C2Reg {
    bool valid = false;
    uint32_t op = 0, addr = 0, tag = 0;
    CacheOutcome outcome = CacheOutcome::None;
    uint32_t hit_word = 0;
    unsigned merge_fill = 0;  // the primary of the fill a merge joins
    bool misaligned = false;  // an ldw whose address is no multiple of 4
  };
  // A fill in flight, indexed by its primary thread (its tag).
  struct Fill {
    bool valid = false, no_alloc = false;
    uint32_t line = 0;
  };
  // A miss-table entry, indexed by thread.
  struct Wait {
    bool valid = false;
    unsigned fill = 0;    // the primary of the fill this thread waits for
    unsigned offset = 0;  // word within the line
  };

  void reset();
  void apply_c2();
  void beat(uint32_t tag, uint32_t data);
  void complete_fill();
  void compute_c1();
  void write_rb(unsigned thread, uint32_t value);
  void invalidate_line(uint32_t line);
  void mark_no_alloc(uint32_t line, bool all);
  void protocol(const std::string& what);

  uint32_t line_of(uint32_t addr) const {
    return addr & ~(line_bytes_ - 1);
  }
  unsigned set_of(uint32_t addr) const {
    return (addr / line_bytes_) & (sets_ - 1);
  }
  unsigned offset_of(uint32_t addr) const {
    return (addr / 4) & (words_ - 1);
  }
  unsigned slot(unsigned set, unsigned way) const {
    return set * ways_ + way;
  }

  BlockParams p_;
  unsigned ways_, words_, sets_;
  uint32_t line_bytes_;
  std::vector<uint32_t> tag_;   // per (set, way): the line address it holds
  std::vector<uint8_t> valid_;  // per (set, way)
  std::vector<uint32_t> data_;  // per (set, way, word)
  std::vector<unsigned> rr_;    // per set: the round-robin victim pointer
  std::vector<Fill> fills_;
  std::vector<Wait> waits_;
  std::vector<bool> atomic_owed_;                   // per thread: a returning atomic's beat is due
  std::vector<std::optional<Access>> last_access_;  // per thread
  std::vector<uint32_t> line_buf_;
  // The fill receiving beats (beats of two responses never interleave).
  bool recv_ = false;
  unsigned recv_fill_ = 0, recv_beat_ = 0, recv_way_ = 0;
  bool complete_ = false;  // this edge's beat was the last of recv_fill_
  C2Reg c2_;
  uint64_t hits_ = 0, misses_ = 0, merges_ = 0;
  std::string protocol_error_;
};

}  // namespace umbra::scm
