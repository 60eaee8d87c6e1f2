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
  in<bool> mem_resp_valid;
  in<uint32_t> mem_resp_data;
  in<uint32_t> mem_resp_tag;

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
  };
  void drive_head();
  void protocol(const std::string& what);
  unsigned beats_for(uint32_t op) const;

  BlockParams p_;
  // The FIFO as a ring of cache.request_queue entries.
  std::vector<Entry> fifo_;
  unsigned head_ = 0, count_ = 0;
  uint64_t owed_ = 0;  // response beats the port owes
  std::string protocol_error_;
};

}  // namespace umbra::scm
