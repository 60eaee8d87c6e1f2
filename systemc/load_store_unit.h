// Load/store unit: the request FIFO between the data cache and the generic memory port
// (docs/memory-system.md, "The request FIFO and replay").  It takes the request the
// cache pushes at the end of C2 (c2_push_*: a fill, store, atomic or flush marker),
// holds up to cache.request_queue of them, and drives the port from the head:
// mem_req_* are registers showing the head as it is at the start of the cycle, valid
// while the head is a request; the head leaves in the cycle mem_req_ready is high.  A
// flush marker at the head is no request: it leaves in that cycle, and lsu_flush_*
// (also the head, registered) tells the cache to write its thread's return buffer at
// the end of the cycle.  lsu_room (occupancy at the start of the cycle <= F - 3) lets
// execute pass a pushing instruction only when the two requests ahead of it in C1 and
// C2 cannot take the last places.  It also counts the response beats the port still
// owes (a fill's line_bytes / 4, a returning atomic's one), for `busy` and for the
// protocol check on responses, and emits the mem and memresp events.
//
// On a line port (cache.line_port; docs/memory-system.md, "The line port") a fill is
// answered with one beat, and stores are combined: each thread has one combining
// buffer (a line, a word mask, the words, the threads whose stores it holds), outside
// the FIFO, and no two hold one line.  An aligned stw at C2 joins its thread's buffer
// when that holds its line, else the buffer that does; else its thread's buffer, if
// it holds another line, is pushed as a `wline` and the store starts it anew.  A buffer also
// leaves for the FIFO when execute sends its `close` (a wline op on c2_push_* whose tag
// names the thread: X1 replays an instruction that must not pass a buffered store and
// closes the buffer instead, execute.h), and, one a cycle, when the FIFO was empty at
// the start of the cycle and C2 pushes nothing (the lowest-numbered thread's first),
// so that a store never waits in a buffer while the port idles.  A misaligned stw
// stays a stw, for the memory to refuse.
#pragma once
#include <systemc.h>

#include <string>
#include <vector>

#include "core_types.h"
#include "wire.h"

namespace umbra::scm {

SC_MODULE(load_store_unit) {
  in<bool> rst;
  // From the cache, valid in C2: the request to push at the end of this cycle.
  in<bool> c2_push_valid;
  in<uint32_t> c2_push_op;
  in<uint32_t> c2_push_addr;
  in<uint32_t> c2_push_data;
  in<uint32_t> c2_push_cmp;
  in<uint32_t> c2_push_tag;

  // The generic memory port (the core's ports).
  out<bool> mem_req_valid;
  in<bool> mem_req_ready;
  out<uint32_t> mem_req_op;
  out<uint32_t> mem_req_addr;
  out<uint32_t> mem_req_data;
  out<uint32_t> mem_req_cmp;
  out<uint32_t> mem_req_tag;
  out<uint32_t> mem_req_mask;  // the line port: a wline's words
  out<PortLine> mem_req_line;  // ... and data
  in<bool> mem_resp_valid;
  in<uint32_t> mem_resp_data;
  in<uint32_t> mem_resp_tag;
  in<PortLine> mem_resp_line;  // for the memresp event

  out<bool> lsu_room;         // to execute: a pushing instruction may pass X1
  out<bool> lsu_flush_valid;  // to the cache: the head is a flush marker, leaving
  out<uint32_t> lsu_flush_thread;
  out<bool> lsu_busy;  // a request is queued or a response beat is owed
  in<uint64_t> clock;  // event time stamps

  load_store_unit(sc_module_name name, const BlockParams& p);

  // Empty when the port was used correctly; else what went wrong first.
  const std::string& protocol_error() const {
    return protocol_error_;
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  struct Entry {
    bool marker = false;
    uint32_t op = 0, addr = 0, data = 0, cmp = 0, tag = 0;
    uint32_t mask = 0;  // wline
    PortLine line;      // wline
  };
  // A thread's combining buffer (the line port).
  struct Combining {
    bool valid = false;
    uint32_t line = 0, mask = 0;
    PortLine words;
    uint64_t writers[4] = {};  // the threads whose stores it holds (up to 256)
    bool has(unsigned t) const { return writers[t / 64] >> (t % 64) & 1u; }
  };

 public:
  // The combining buffers as they are at the start of the cycle (call before this
  // cycle's tick): whether thread t's holds a line, and which.  In the RTL these are
  // registers execute's X1 compares its address with.
  bool buffer_valid(unsigned t) const {
    return wc_[t].valid;
  }
  uint32_t buffer_line(unsigned t) const {
    return wc_[t].line;
  }
  // Whether C2 pushes a request to `line` at the end of this cycle (a store to a
  // buffer included).
  bool c2_touches(uint32_t line) const {
    return c2_push_valid.read() && (c2_push_addr.read() & ~(p_.cache_line_bytes - 1)) == line;
  }
  // The thread whose buffer holds `line` (at most one does), or threads for none.
  unsigned buffer_holder(uint32_t line) const;
  // The lowest-numbered thread whose buffer holds a store of thread `t`, or threads.
  unsigned buffer_of_writer(unsigned t) const;
  // Stores that joined a buffer already holding their line.
  uint64_t combined() const {
    return combined_;
  }

 private:
  void drive_head();
  void protocol(const std::string& what);
  unsigned beats_for(uint32_t op) const;

  BlockParams p_;
  // The FIFO as a ring of cache.request_queue entries.
  std::vector<Entry> fifo_;
  unsigned head_ = 0, count_ = 0;
  uint64_t owed_ = 0;          // response beats the port owes
  std::vector<Combining> wc_;  // per thread (line port)
  unsigned buffered_ = 0;      // valid buffers
  uint64_t combined_ = 0;
  std::string protocol_error_;
  void push(const Entry& e, uint64_t now);
  void push_buffer(unsigned t, uint64_t now);
};

}  // namespace umbra::scm
