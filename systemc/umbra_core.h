// umbra_core: the top of the SystemC model of one Umbra core.  It instantiates the
// blocks of docs/microarchitecture.md (fetch, decode, regfile, execute, dcache,
// load_store_unit, writeback; the last two per docs/memory-system.md), connects them with signals named as
// the document's "Inter-block signals" section names them, and has exactly the ports of the RTL's
// umbra_core.v with the C++ types a Verilated SystemC model of it has (1-bit ports
// bool, 2..32-bit ports uint32_t), so one testbench can drive either.  It is a plain
// SC_MODULE for a SystemC platform (systemc/tests/kernel_test.cpp runs it so); the
// project's own benches step it without the kernel (bind_plain).
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
#include "wire.h"
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
  sc_in<uint32_t> launch_lx0;   // `lx` of thread 0: the threads launched on the cores before
  sc_in<uint32_t> launch_domw;  // `domw`: the threads launched on every core
  // Domain launch (umbra_system's cores, which have a dispatcher in front): domain_valid
  // latches entry, domw and domh; each start_valid starts the lowest free thread on the
  // work item start_lx/start_ly; can_start says some thread is free.
  sc_in<bool> domain_valid;
  sc_in<uint32_t> domain_w, domain_h;
  sc_in<bool> start_valid;
  sc_in<uint32_t> start_lx, start_ly;
  sc_out<bool> can_start;
  sc_in<uint32_t> ncore;  // number of cores, read by `rdsr ncore`
  // From the command processor (docs/commands.md): `rdsr arg`'s value, and `invalidate`
  // (the whole data cache, as a dinvall in C2).
  sc_in<uint32_t> args;
  sc_in<bool> inval_all;
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
  sc_out<uint32_t> mem_req_mask;  // the line port (cache.line_port): a wline's words
  sc_out<PortLine> mem_req_line;  // ... and data
  sc_in<bool> mem_resp_valid;
  sc_in<uint32_t> mem_resp_data;
  sc_in<uint32_t> mem_resp_tag;
  sc_in<PortLine> mem_resp_line;  // a fill's line in one beat (line port)

  SC_HAS_PROCESS(umbra_core);
  // Who clocks the core: a method of its own on clk.pos() (a core on its own), or the
  // enclosing module's clocked method, which calls cycle() (umbra_system, so that the
  // core and the reorder queue advance in one process in a fixed order).
  enum class Clocking { OwnMethod, ByParent };
  // dispatch: the core has a dispatcher in front (the RTL's DISPATCH; umbra_system's
  // cores); without, it ignores the domain and start inputs.  Throws CoreConfigError
  // for a configuration the pipeline cannot run.
  umbra_core(sc_module_name name, const Config& cfg, unsigned core_id = 0,
             Clocking clocking = Clocking::OwnMethod, bool dispatch = false);

  // One rising clock edge: every block's tick in the order of the pipeline, the commit
  // of the wires, then the output ports (written only when they change).
  void cycle();
  // The values on the output ports from the next cycle on, as cycle() left them: what
  // an enclosing module routes further in the same edge.
  struct PortValues {
    bool busy = false, fault = false, mem_req_valid = false, can_start = false;
    uint32_t fault_thread = 0, fault_pc = 0, mem_req_op = 0, mem_req_addr = 0, mem_req_data = 0,
             mem_req_cmp = 0, mem_req_tag = 0, mem_req_mask = 0;
    PortLine mem_req_line;
  };
  const PortValues& port_values() const {
    return driven_;
  }
  // The input ports' values as plain C++, for a bench that steps the core without the
  // SystemC kernel (umbra_system::bind_plain).
  struct Inputs {
    bool rst = true, host_imem_we = false, launch_valid = false, mem_req_ready = false,
         mem_resp_valid = false, domain_valid = false, start_valid = false, inval_all = false;
    uint32_t host_imem_addr = 0, host_imem_data = 0, launch_count = 0, launch_entry = 0, launch_lx0 = 0,
             launch_domw = 0, ncore = 0, mem_resp_data = 0, mem_resp_tag = 0, domain_w = 0, domain_h = 0,
             start_lx = 0, start_ly = 0, args = 0;
    PortLine mem_resp_line;
  };
  // Instead of elaborating: the blocks read `in` where they read the input ports, and
  // cycle() leaves the output ports alone (port_values() has them).  `in` must outlive
  // the core; it is read by every cycle().
  void bind_plain(const Inputs& in);

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
  bool issued() const {  // in the cycle the last cycle() ended
    return fetch_.issued();
  }
  const Config& config() const {
    return cfg_;
  }

 private:
  void tick();
  void end_of_elaboration() override;
  // The blocks' inputs from these values (the ports' signals' or plain ones).
  void bind_inputs(const bool& rst, const bool& imem_we, const uint32_t& imem_addr, const uint32_t& imem_data,
                   const bool& launch_valid, const uint32_t& launch_count, const uint32_t& launch_entry,
                   const uint32_t& launch_lx0, const uint32_t& launch_domw, const uint32_t& ncore,
                   const bool& mem_req_ready, const bool& mem_resp_valid, const uint32_t& mem_resp_data,
                   const uint32_t& mem_resp_tag, const PortLine& mem_resp_line);
  void bind_domain_inputs(const bool& domain_valid, const uint32_t& domain_w, const uint32_t& domain_h,
                          const bool& start_valid, const uint32_t& start_lx, const uint32_t& start_ly);
  void bind_command_inputs(const uint32_t& args, const bool& inval_all);
  // The wires' storage: the fixed ones need about 300 bytes, the return buffers 5 per
  // thread.
  static constexpr size_t kWireBytes = 1280;  // 1024 before the request's line (132 bytes)
  static BlockParams checked(const Config& cfg, unsigned core_id, bool dispatch, EventOrder* events);

  Config cfg_;
  EventOrder events_;
  BlockParams p_;

  // The inter-block wires (wire.h), named as the document's "Inter-block signals"
  // section names them and grouped by the stage in which they are valid.  wires_
  // comes first: every wire registers itself in it.
  WireSet wires_{kWireBytes + 8 * size_t(cfg_.threads)};
  wire<bool> d_valid{"d_valid", wires_};
  wire<uint32_t> d_thread{"d_thread", wires_}, d_pc{"d_pc", wires_}, d_word{"d_word", wires_},
      d_reason{"d_reason", wires_};
  wire<uint64_t> clock{"clock", wires_};
  wire<uint32_t> domw{"domw", wires_}, lx0{"lx0", wires_}, domh{"domh", wires_};
  wire<bool> items{"items", wires_}, item_we{"item_we", wires_};
  wire<uint32_t> item_thread{"item_thread", wires_}, item_lx{"item_lx", wires_}, item_ly{"item_ly", wires_};
  wire<bool> f_busy{"f_busy", wires_};
  wire<bool> r_valid{"r_valid", wires_}, r_sleep{"r_sleep", wires_}, r_illegal{"r_illegal", wires_},
      r_flush{"r_flush", wires_};
  wire<uint32_t> r_thread{"r_thread", wires_}, r_pc{"r_pc", wires_};
  wire<DecodedInstr> r_inst{"r_inst", wires_};
  wire<uint32_t> r_ra{"r_ra", wires_}, r_rb{"r_rb", wires_}, r_rc{"r_rc", wires_};
  wire<uint32_t> rf_a{"rf_a", wires_}, rf_b{"rf_b", wires_}, rf_c{"rf_c", wires_};
  wire<bool> x2_upd_valid{"x2_upd_valid", wires_};
  wire<uint32_t> x2_upd_thread{"x2_upd_thread", wires_}, x2_upd_pc{"x2_upd_pc", wires_},
      x2_upd_state{"x2_upd_state", wires_};
  wire<bool> x2_mem_valid{"x2_mem_valid", wires_};
  wire<uint32_t> x2_mem_op{"x2_mem_op", wires_}, x2_mem_addr{"x2_mem_addr", wires_},
      x2_mem_data{"x2_mem_data", wires_}, x2_mem_cmp{"x2_mem_cmp", wires_}, x2_mem_tag{"x2_mem_tag", wires_};
  wire<bool> w_valid{"w_valid", wires_}, w_sleep{"w_sleep", wires_}, w_we{"w_we", wires_},
      w_load{"w_load", wires_}, w_flush{"w_flush", wires_};
  wire<bool> c2_push_valid{"c2_push_valid", wires_};
  wire<uint32_t> c2_push_op{"c2_push_op", wires_}, c2_push_addr{"c2_push_addr", wires_},
      c2_push_data{"c2_push_data", wires_}, c2_push_cmp{"c2_push_cmp", wires_},
      c2_push_tag{"c2_push_tag", wires_};
  wire<bool> lsu_room{"lsu_room", wires_}, lsu_flush_valid{"lsu_flush_valid", wires_};
  wire<uint32_t> lsu_flush_thread{"lsu_flush_thread", wires_};
  wire<uint32_t> w_thread{"w_thread", wires_}, w_pc{"w_pc", wires_}, w_rd{"w_rd", wires_},
      w_result{"w_result", wires_};
  sc_vector<wire<bool>> rb_valid;
  sc_vector<wire<uint32_t>> rb_data;
  wire<bool> lsu_busy{"lsu_busy", wires_};
  wire<bool> rf_we{"rf_we", wires_};
  wire<uint32_t> rf_wthread{"rf_wthread", wires_}, rf_wreg{"rf_wreg", wires_}, rf_wdata{"rf_wdata", wires_};
  wire<bool> wake_valid{"wake_valid", wires_};
  wire<uint32_t> wake_thread{"wake_thread", wires_};
  // The registers behind the output ports (execute's fault, the load/store unit's
  // request), driven onto the ports after the commit.
  port_reg<bool> fault_q{wires_}, mem_req_valid_q{wires_};
  port_reg<uint32_t> fault_thread_q{wires_}, fault_pc_q{wires_}, mem_req_op_q{wires_}, mem_req_addr_q{wires_},
      mem_req_data_q{wires_}, mem_req_cmp_q{wires_}, mem_req_tag_q{wires_}, mem_req_mask_q{wires_};
  port_reg<PortLine> mem_req_line_q{wires_};
  // What was last written to each output port (the signals start at false and 0).
  PortValues driven_;
  bool plain_ = false;  // bind_plain(): no SystemC kernel, no port writes

  fetch fetch_;
  decode decode_;
  regfile regfile_;
  execute execute_;
  dcache dcache_;
  load_store_unit lsu_;
  writeback writeback_;
};

}  // namespace umbra::scm
