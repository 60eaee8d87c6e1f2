// umbra_system: `cores` cores sharing one memory reorder queue in front of the DRAM
// port (docs/memory-system.md, "Blocks and names"), with exactly the ports of
// rtl/umbra_system.v and the C++ types a Verilated SystemC model of it has, so one
// testbench drives either.  The outside sees the generic memory port with a 16-bit
// {core, thread} tag.  The cores' ports meet at a round-robin arbiter (the first core
// with a request, counting from the one after the last served, goes next); responses go
// to the core their tag's high byte names.  The host's writes and launch reach every
// core, and a launch is one domain over all of them (core c's thread t has `lx`
// c * launch_count + t).  A domain launch (domain_valid, at launch_entry) is domain_w x
// domain_h work items that the dispatcher (dispatcher.h) hands to free threads of any
// core, one a cycle, refilling threads as they exit.  The command processor
// (command_processor.h) reads a command buffer from memory when the host rings the
// doorbell (doorbell_valid, doorbell_addr) and drives the same launch, the instruction
// stores, `rdsr arg` and the caches' invalidation; its memory requests go ahead of the
// cores' (tag 0xFF00).  bypass_queue (static) connects the arbiter straight to the
// outside, for memory that answers in a fixed time (memory.model fixed).  busy covers
// the requests still in the queue; the queue's dram events join core 0's events in its
// per-cycle order.
//
// With memory.request_register each core's requests pass a two-entry register before
// the arbiter (rtl/umbra_system.v, REQ_REGISTER): a core sees ready while its register
// has room, and the arbiter grants among the registers' heads.
//
// One clocked method advances the whole system: the queue's edge (with the request
// the arbiter granted in the cycle that ends), the request registers', every core's
// edge in core order, then the DRAM port's registered outputs.  What
// rtl/umbra_system.v routes combinationally from outside inputs and the cores'
// registered requests to the cores (ready, the responses, the launch's domain) is one
// small method on those inputs, as before.
#pragma once
#include <systemc.h>

#include <vector>

#include "command_processor.h"
#include "dispatcher.h"
#include "reorder_queue.h"
#include "run_result.h"
#include "umbra_core.h"

namespace umbra::scm {

SC_MODULE(umbra_system) {
  sc_in<bool> clk;
  sc_in<bool> rst;
  sc_in<bool> bypass_queue;
  sc_in<bool> host_imem_we;
  sc_in<uint32_t> host_imem_addr, host_imem_data;
  sc_in<bool> launch_valid;
  sc_in<uint32_t> launch_count, launch_entry, ncore;
  sc_in<bool> domain_valid;
  sc_in<uint32_t> domain_w, domain_h;
  sc_in<bool> doorbell_valid;
  sc_in<uint32_t> doorbell_addr;
  sc_out<bool> busy, fault;
  sc_out<uint32_t> fault_core, fault_thread, fault_pc;
  sc_out<uint32_t> cmd_fault, cmd_fault_addr;  // the command processor's (docs/commands.md)
  // The DRAM port.
  sc_out<bool> mem_req_valid;
  sc_in<bool> mem_req_ready;
  sc_out<uint32_t> mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp, mem_req_tag;
  sc_out<uint32_t> mem_req_mask;  // the line port (cache.line_port)
  sc_out<PortLine> mem_req_line;
  sc_in<bool> mem_resp_valid;
  sc_in<uint32_t> mem_resp_data, mem_resp_tag;
  sc_in<PortLine> mem_resp_line;

  // Each core's own port (the RTL's trace_port_*), its busy (trace_core_busy), its fault
  // outputs and its launch domain, under the kernel; stepped without it, core_inputs(c)
  // and core(c).port_values() have their values.
  sc_vector<sc_signal<bool>> c_req_valid, c_req_ready, c_resp_valid, c_busy, c_fault, c_can_start, c_start;
  sc_vector<sc_signal<uint32_t>> c_req_op, c_req_addr, c_req_data, c_req_cmp, c_req_tag, c_resp_data,
      c_resp_tag, c_fault_thread, c_fault_pc, c_lx0, c_req_mask;
  sc_vector<sc_signal<PortLine>> c_req_line, c_resp_line;
  sc_signal<uint32_t> c_domw{"c_domw"}, start_lx{"start_lx"}, start_ly{"start_ly"};
  // What every core sees of the host's and the command processor's writes and launches.
  sc_signal<bool> k_imem_we{"k_imem_we"}, k_domain_valid{"k_domain_valid"}, k_inval{"k_inval"};
  sc_signal<uint32_t> k_imem_addr{"k_imem_addr"}, k_imem_data{"k_imem_data"}, k_entry{"k_entry"},
      k_domain_w{"k_domain_w"}, k_domain_h{"k_domain_h"}, k_args{"k_args"};

  SC_HAS_PROCESS(umbra_system);
  // Throws CoreConfigError or QueueConfigError for parameters the blocks cannot take.
  // first_core_id: core 0's `cid` and tag byte (a test's one core standing for core k).
  umbra_system(sc_module_name name, const Config& cfg, unsigned first_core_id = 0);

  unsigned cores() const {
    return unsigned(cores_.size());
  }
  umbra_core& core(unsigned c) {
    return cores_[c];
  }
  const umbra_core& core(unsigned c) const {
    return cores_[c];
  }
  const QueueStats& queue_stats() const {
    return queue_.stats();
  }
  // Every core's events go to `sink`, each cycle core by core (an event's `core` says
  // whose); flush_events() delivers the last cycle's once the simulation stops.
  void set_event_sink(EventSink * sink);
  void flush_events();
  // The lowest-numbered core with a fault, or cores() when none has one (the fault_*
  // outputs are its).
  unsigned faulting_core() const;

  // Stepped without the SystemC kernel (harness/system_side.h): the input ports as plain
  // values, set by the bench; edge() is the rising edge (the clocked method without its
  // port writes), settle() routes the inputs to the cores as route_responses does, and
  // outputs() are the output ports' values after the last edge.  Call bind_plain()
  // once, before the first settle(), instead of elaborating.
  struct Inputs : umbra_core::Inputs {
    bool bypass_queue = false, doorbell_valid = false;
    uint32_t doorbell_addr = 0;
  };
  struct Outputs : umbra_core::PortValues {  // the core's ports, routed, and whose fault
    uint32_t fault_core = 0, cmd_fault = 0, cmd_fault_addr = 0;
  };
  void bind_plain();
  Inputs& inputs() {
    return in_;
  }
  const Inputs& inputs() const {
    return in_;
  }
  // Core c's inputs as settle() routed them (what its own port sees).
  const umbra_core::Inputs& core_inputs(unsigned c) const {
    return core_in_[c];
  }
  void edge() {
    tick();
  }
  void settle();
  Outputs outputs() const;

 private:
  struct Grant {
    bool any = false;  // some core (or the command processor) has a request
    bool cp = false;   // the command processor's, which goes first
    unsigned core = 0;
  };
  // From the command processor's and the cores' registered requests and first_.
  Grant arbitrate(const CommandProcessor::Outputs& cp) const;
  // Some core busy, items left or requests in the queue (registers): what the command
  // processor's idle commands wait for.
  bool system_busy(bool bypass) const;
  CommandProcessor::Outputs command_outputs(bool bypass) const;
  Dispatcher::Grant dispatch() const;  // the start the cores see (Dispatcher::start)
  void tick();
  void route_responses();
  void end_of_elaboration() override;

  sc_signal<bool> q_req_ready;           // the queue's registered ready, for route_responses
  sc_signal<uint32_t> first_signal_;     // first_, for route_responses
  sc_signal<uint64_t> dispatch_signal_;  // changes with the dispatcher's or command processor's state
  // The values of the signals on the input ports tick() reads (see umbra_core.cpp).
  const bool *bypass_ = nullptr, *rst_ = nullptr, *mem_req_ready_ = nullptr, *mem_resp_valid_ = nullptr,
             *doorbell_valid_ = nullptr;
  const uint32_t *mem_resp_data_ = nullptr, *mem_resp_tag_ = nullptr, *doorbell_addr_ = nullptr;
  const PortLine* mem_resp_line_ = nullptr;
  unsigned first_id_;
  sc_vector<umbra_core> cores_;
  ReorderQueueModel queue_;
  Dispatcher dispatcher_;
  CommandProcessor cp_;
  std::vector<bool> can_start_;  // the cores' can_start after the last edge
  std::vector<bool> issued_;     // the cores' issue in the cycle the last edge ended
  const bool* domain_valid_ = nullptr;
  const uint32_t *domain_w_ = nullptr, *domain_h_ = nullptr;
  uint64_t dispatch_changes_ = 0;
  unsigned first_ = 0;        // the arbiter's first claim: the core after the last served
  bool events_ = false;       // a sink is set: the queue's dram events go to core 0's order
  uint64_t queue_cycle_ = 0;  // cycles since reset, the dram events' time stamps
  // memory.response_register: each core's response register (rtl/umbra_system.v's
  // g_resp_reg), what the core sees this cycle.  Its data are taken only with a
  // response, since a core reads them only then.
  struct Response {
    bool valid = false;
    uint32_t data = 0, tag = 0;
    PortLine line;
  };
  Response routed_response(unsigned c) const;
  Response core_response(unsigned c) const;
  const bool resp_register_;
  std::vector<Response> resp_q_;
  // memory.request_register: each core's two-entry request register (rtl/umbra_system.v's
  // g_req), entry 0 its head; an entry is the core's port values when it was handed over.
  struct RequestRegister {
    static constexpr unsigned kDepth = 2;
    unsigned count = 0;
    umbra_core::PortValues entry[kDepth];
  };
  const bool req_register_;
  std::vector<RequestRegister> req_q_;
  // What core c offers the arbiter: its port, or its register's head (mem_req_valid
  // false when it has none).
  const umbra_core::PortValues& offered(unsigned c) const;
  // Core c's ready: its register's room, or the grant itself (g, from this cycle's
  // offers).
  bool core_ready(unsigned c, const Grant& g, bool down_ready) const;
  bool req_waiting() const;         // a request register holds a request
  uint64_t reg_changes_ = 0;        // counts the response and request registers' changes ...
  sc_signal<uint64_t> reg_signal_;  // ... for route_responses
  // What was last written to each DRAM-port output, busy and the fault outputs (the
  // signals start at 0).
  Outputs driven_;
  // bind_plain(): the inputs, the cores' (what route_responses writes), no port writes.
  bool plain_ = false;
  Inputs in_;
  std::vector<umbra_core::Inputs> core_in_;
};

// The cores' memory counters (summed) and, when the queue is in use, the queue's, as a
// run reports them (the DRAM's come from the testbench's memory).
MemoryStats memory_stats(const std::vector<MemStats>& cores, const QueueStats* queue);
MemoryStats memory_stats(const umbra_system& sys, bool queue);

}  // namespace umbra::scm
