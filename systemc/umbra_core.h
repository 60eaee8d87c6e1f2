// umbra_core: the top of the SystemC model of one Umbra core.  It instantiates the
// blocks of docs/microarchitecture.md (fetch, decode, regfile, execute, dcache,
// load_store_unit, writeback; the last two per docs/memory-system.md), connects them with signals named as
// the document's "Inter-block signals" section names them, and has exactly the ports of the RTL's
// umbra_core.v with the C++ types a Verilated SystemC model of it has (1-bit ports
// bool, 2..32-bit ports uint32_t), so one testbench can drive either.  It is a plain
// SC_MODULE: a cosimulation builds it next to the Verilated RTL from its own sc_main.
#pragma once
#include <systemc.h>

#include <stdexcept>
#include <string>

#include "core_types.h"
#include "dcache.h"
#include "decode.h"
#include "events.h"
#include "execute.h"
#include "fetch.h"
#include "load_store_unit.h"
#include "regfile.h"
#include "umbra/config.h"
#include "writeback.h"

namespace umbra::scm {

// A configuration the core cannot be built with (fewer threads than pipeline stages,
// more threads than an 8-bit tag names, an empty register file or instruction store,
// a cache geometry that is not powers of two, a request FIFO below 4).
struct CoreConfigError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

SC_MODULE(umbra_core) {
  sc_in<bool> clk;
  sc_in<bool> rst;  // synchronous, active high
  sc_in<bool> host_imem_we;
  sc_in<uint32_t> host_imem_addr;  // word index
  sc_in<uint32_t> host_imem_data;
  sc_in<bool> launch_valid;
  sc_in<uint32_t> launch_count;
  sc_in<uint32_t> launch_entry;
  sc_in<uint32_t> ncore;  // number of cores, read by `rdsr ncore`
  sc_out<bool> busy;
  sc_out<bool> fault;
  sc_out<uint32_t> fault_thread;
  sc_out<uint32_t> fault_pc;
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

  SC_HAS_PROCESS(umbra_core);
  // Throws CoreConfigError for a configuration the pipeline cannot run.
  umbra_core(sc_module_name name, const Config& cfg, unsigned core_id = 0);

  // Observability.  The sink (not owned) sees every cycle's events in the contract's
  // order; call flush_events() after the simulation stops to deliver the last cycle.
  void set_event_sink(EventSink * sink) {
    events_.set_sink(sink);
  }
  void flush_events() {
    events_.flush();
  }
  // An event of a block outside the core in this core's cycle order (the reorder
  // queue's dram events, umbra_system).
  void emit_event(const Event& e) {
    events_.emit(e);
  }
  const CoreStats& stats() const {
    return fetch_.stats();
  }
  const CoreFault& first_fault() const {
    return execute_.first_fault();
  }
  const std::string& protocol_error() const {
    return lsu_.protocol_error().empty() ? dcache_.protocol_error() : lsu_.protocol_error();
  }
  // The memory system's counters (cache outcomes, replays, load latency).
  MemStats mem_stats() const;
  const dcache& data_cache() const {
    return dcache_;
  }
  uint32_t reg(unsigned thread, unsigned r) const {
    return regfile_.peek(thread, r);
  }
  ThreadStateCode thread_state(unsigned thread) const {
    return fetch_.thread_state(thread);
  }
  const Config& config() const {
    return cfg_;
  }

 private:
  void drive_busy();
  static BlockParams checked(const Config& cfg, unsigned core_id, EventOrder* events);

  Config cfg_;
  EventOrder events_;
  BlockParams p_;

  // Inter-block signals, grouped by the stage in which they are valid.
  sc_signal<bool> d_valid{"d_valid"};
  sc_signal<uint32_t> d_thread{"d_thread"}, d_pc{"d_pc"}, d_word{"d_word"}, d_reason{"d_reason"};
  sc_signal<uint64_t> clock{"clock"};
  sc_signal<uint32_t> domw{"domw"};
  sc_signal<bool> f_busy{"f_busy"};
  sc_signal<bool> r_valid{"r_valid"}, r_sleep{"r_sleep"}, r_illegal{"r_illegal"}, r_flush{"r_flush"};
  sc_signal<uint32_t> r_thread{"r_thread"}, r_pc{"r_pc"};
  sc_signal<DecodedInstr> r_inst{"r_inst"};
  sc_signal<uint32_t> r_ra{"r_ra"}, r_rb{"r_rb"}, r_rc{"r_rc"};
  sc_signal<uint32_t> rf_a{"rf_a"}, rf_b{"rf_b"}, rf_c{"rf_c"};
  sc_signal<bool> x2_upd_valid{"x2_upd_valid"};
  sc_signal<uint32_t> x2_upd_thread{"x2_upd_thread"}, x2_upd_pc{"x2_upd_pc"}, x2_upd_state{"x2_upd_state"};
  sc_signal<bool> x2_mem_valid{"x2_mem_valid"};
  sc_signal<uint32_t> x2_mem_op{"x2_mem_op"}, x2_mem_addr{"x2_mem_addr"}, x2_mem_data{"x2_mem_data"},
      x2_mem_cmp{"x2_mem_cmp"}, x2_mem_tag{"x2_mem_tag"};
  sc_signal<bool> w_valid{"w_valid"}, w_sleep{"w_sleep"}, w_we{"w_we"}, w_load{"w_load"}, w_flush{"w_flush"};
  sc_signal<bool> c2_push_valid{"c2_push_valid"};
  sc_signal<uint32_t> c2_push_op{"c2_push_op"}, c2_push_addr{"c2_push_addr"}, c2_push_data{"c2_push_data"},
      c2_push_cmp{"c2_push_cmp"}, c2_push_tag{"c2_push_tag"};
  sc_signal<bool> lsu_room{"lsu_room"}, lsu_flush_valid{"lsu_flush_valid"};
  sc_signal<uint32_t> lsu_flush_thread{"lsu_flush_thread"};
  sc_signal<uint32_t> w_thread{"w_thread"}, w_pc{"w_pc"}, w_rd{"w_rd"}, w_result{"w_result"};
  sc_vector<sc_signal<bool>> rb_valid;
  sc_vector<sc_signal<uint32_t>> rb_data;
  sc_signal<bool> lsu_busy{"lsu_busy"};
  sc_signal<bool> rf_we{"rf_we"};
  sc_signal<uint32_t> rf_wthread{"rf_wthread"}, rf_wreg{"rf_wreg"}, rf_wdata{"rf_wdata"};
  sc_signal<bool> wake_valid{"wake_valid"};
  sc_signal<uint32_t> wake_thread{"wake_thread"};

  fetch fetch_;
  decode decode_;
  regfile regfile_;
  execute execute_;
  dcache dcache_;
  load_store_unit lsu_;
  writeback writeback_;
};

}  // namespace umbra::scm
