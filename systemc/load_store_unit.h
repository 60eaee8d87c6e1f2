// Load/store unit: in this version a pass-through from X1's registered request to the
// generic memory port, plus one return buffer per thread (docs/microarchitecture.md,
// "The generic memory port").  The request wires are combinational (mem_req_* = the
// x2_mem_* registers), so a request is on the port in X2; everything else is clocked:
// a response sampled at the end of cycle m is in rb_valid/rb_data from cycle m+1, and
// a buffer is emptied the cycle after writeback consumed it (wake_*).  It also counts
// the requests still owed a response, for `busy`, and emits the mem and memresp
// events.  A low mem_req_ready while a request is valid is a protocol error here
// (until the memory-system issue adds queueing): the request is lost and the error is
// recorded for the testbench to stop the run.
#pragma once
#include <systemc.h>

#include <string>
#include <vector>

#include "core_types.h"

namespace umbra::scm {

SC_MODULE(load_store_unit) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> x2_mem_valid;
  sc_in<uint32_t> x2_mem_op;
  sc_in<uint32_t> x2_mem_addr;
  sc_in<uint32_t> x2_mem_data;
  sc_in<uint32_t> x2_mem_cmp;
  sc_in<uint32_t> x2_mem_tag;
  sc_in<bool> wake_valid;
  sc_in<uint32_t> wake_thread;

  // The generic memory port (the core's ports, passed through).
  sc_out<bool> mem_req_valid;
  sc_in<bool> mem_req_ready;
  sc_out<uint32_t> mem_req_op;
  sc_out<uint32_t> mem_req_addr;
  sc_out<uint32_t> mem_req_data;
  sc_out<uint32_t> mem_req_cmp;
  sc_out<uint32_t> mem_req_tag;
  sc_in<bool> mem_resp_valid;
  sc_in<uint32_t> mem_resp_data;
  sc_in<uint32_t> mem_resp_tag;

  // Return buffers, one per thread, to writeback.
  sc_vector<sc_out<bool>> rb_valid;
  sc_vector<sc_out<uint32_t>> rb_data;
  sc_out<bool> lsu_busy;  // a response is still owed
  sc_in<uint64_t> clock;  // event time stamps

  SC_HAS_PROCESS(load_store_unit);
  load_store_unit(sc_module_name name, const BlockParams& p);

  // Empty when the port was used correctly; else what went wrong first.
  const std::string& protocol_error() const {
    return protocol_error_;
  }

 private:
  void tick();
  void pass_request();
  void protocol(const std::string& what);

  BlockParams p_;
  std::vector<bool> rb_full_;
  unsigned outstanding_ = 0;
  std::string protocol_error_;
};

}  // namespace umbra::scm
