// The pieces of a run's bench that the runners share (run_systemc here, run_rtl and
// run_cosim in harness/cosim): the checks that refuse a run before any SystemC
// object exists, the loading of memory, the reading of the host's verdict into a
// RunResult.  The runners step their systems without the SystemC kernel
// (system_side.h); for a bench under the kernel (a SystemC platform, and
// systemc/tests/kernel_test.cpp, which holds the two to each other) there are the
// host's and a system's wires and the wiring of a system top to its memory and the
// host driver.  The queue bypass is driven from the configuration's queue.enabled.
#pragma once
#include <systemc.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host_driver.h"
#include "memory_side.h"
#include "run_result.h"
#include "umbra/config.h"
#include "umbra/program.h"
#include "umbra_system.h"

namespace umbra::scm {
struct umbra_core;
}

namespace umbra::harness {

using umbra::RunError;
using umbra::RunResult;
using Writes = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;

// Everything that can be checked without SystemC, so that a bad run fails the same way
// in and out of a child process, with the caller's stack intact.  Throws RunError.  A
// domain launch (domain.launch()) needs both sides at least 1 and at most 2^32 - 1 work
// items; nthreads is then the configuration's threads (every context may run).
void validate(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
              const Writes& writes, const umbra::Domain& domain = {});

// SystemC elaborates one design per process: the first call claims it, a second
// throws RunError.  Also keeps SystemC's banner out of the tools' output.
void claim_process();

// The inputs every system gets from the host.
struct HostWires {
  sc_signal<bool> rst{"rst"}, host_imem_we{"host_imem_we"}, launch_valid{"launch_valid"},
      domain_valid{"domain_valid"}, doorbell_valid{"doorbell_valid"};
  sc_signal<uint32_t> host_imem_addr{"host_imem_addr"}, host_imem_data{"host_imem_data"},
      launch_count{"launch_count"}, launch_entry{"launch_entry"}, ncore{"ncore"}, domain_w{"domain_w"},
      domain_h{"domain_h"}, doorbell_addr{"doorbell_addr"};
};

// One system's outputs, its memory port and its memory's fault, as signals; `prefix`
// keeps two systems' names apart in the SystemC object tree.  bypass_queue is the
// constant !cfg.queue_enabled.
struct SystemWires {
  SystemWires(const std::string& prefix, const Config& cfg);
  sc_signal<bool> busy, fault, mem_req_valid, mem_req_ready, mem_resp_valid, mem_fault;
  sc_signal<uint32_t> fault_core, fault_thread, fault_pc, mem_req_op, mem_req_addr, mem_req_data, mem_req_cmp,
      mem_req_tag, mem_resp_data, mem_resp_tag, cmd_fault, cmd_fault_addr, mem_req_mask;
  sc_signal<PortLine> mem_req_line, mem_resp_line;
  sc_signal<bool> bypass_queue;
};

// A system top and its memory on their wires.
template <class System>
void bind_system(System& s, sc_clock& clk, HostWires& h, SystemWires& w, harness::memory_side& m) {
  s.clk(clk);
  s.rst(h.rst);
  s.bypass_queue(w.bypass_queue);
  s.host_imem_we(h.host_imem_we);
  s.host_imem_addr(h.host_imem_addr);
  s.host_imem_data(h.host_imem_data);
  s.launch_valid(h.launch_valid);
  s.launch_count(h.launch_count);
  s.launch_entry(h.launch_entry);
  s.domain_valid(h.domain_valid);
  s.domain_w(h.domain_w);
  s.domain_h(h.domain_h);
  s.doorbell_valid(h.doorbell_valid);
  s.doorbell_addr(h.doorbell_addr);
  s.ncore(h.ncore);
  s.busy(w.busy);
  s.fault(w.fault);
  s.fault_core(w.fault_core);
  s.fault_thread(w.fault_thread);
  s.fault_pc(w.fault_pc);
  s.cmd_fault(w.cmd_fault);
  s.cmd_fault_addr(w.cmd_fault_addr);
  s.mem_req_valid(w.mem_req_valid);
  s.mem_req_ready(w.mem_req_ready);
  s.mem_req_op(w.mem_req_op);
  s.mem_req_addr(w.mem_req_addr);
  s.mem_req_data(w.mem_req_data);
  s.mem_req_cmp(w.mem_req_cmp);
  s.mem_req_tag(w.mem_req_tag);
  s.mem_req_mask(w.mem_req_mask);
  s.mem_req_line(w.mem_req_line);
  s.mem_resp_valid(w.mem_resp_valid);
  s.mem_resp_data(w.mem_resp_data);
  s.mem_resp_tag(w.mem_resp_tag);
  s.mem_resp_line(w.mem_resp_line);
  m.clk(clk);
  m.rst(h.rst);
  m.launch_valid(h.launch_valid);  // a thread launch: what the kernel benches run
  m.mem_req_valid(w.mem_req_valid);
  m.mem_req_ready(w.mem_req_ready);
  m.mem_req_op(w.mem_req_op);
  m.mem_req_addr(w.mem_req_addr);
  m.mem_req_data(w.mem_req_data);
  m.mem_req_cmp(w.mem_req_cmp);
  m.mem_req_tag(w.mem_req_tag);
  m.mem_req_mask(w.mem_req_mask);
  m.mem_req_line(w.mem_req_line);
  m.mem_resp_valid(w.mem_resp_valid);
  m.mem_resp_data(w.mem_resp_data);
  m.mem_resp_tag(w.mem_resp_tag);
  m.mem_resp_line(w.mem_resp_line);
  m.fault(w.mem_fault);
}

// The host driver on the host's wires, watching one busy, one fault and one memory
// fault.
void bind_host(harness::host_driver& d, sc_clock& clk, HostWires& h, sc_signal<bool>& busy,
               sc_signal<bool>& fault, sc_signal<bool>& mem_fault);

// The host's job for a program: its text through the host port, then a launch of
// nthreads a core, or of the domain, or (the doorbell rung) a command buffer.
harness::HostScript::Job make_job(const Program& p, unsigned nthreads, uint64_t max_cycles,
                                  const umbra::Domain& domain = {}, const umbra::Doorbell& doorbell = {});

// "command processor: <what> (command at 0x...)" for a fault code of cmd_fault, or ""
// for none.
std::string command_fault_message(uint32_t code, uint32_t addr);

// The program's data, then `writes`, into the memory's storage.
void load_memory(harness::memory_side& m, const Program& p, const Writes& writes);

// A thread's last access in C2, {opcode, address}, or none: the memory refuses a
// load that missed as its line's fill, and the fault names the load by this instead,
// in the words every model uses (semantics.h access_fault_reason).
using AccessOf = std::function<std::optional<std::pair<uint32_t, uint32_t>>(unsigned core, unsigned thread)>;
// A SystemC system's (its cores' data caches).
AccessOf systemc_access(const scm::umbra_system& sys);

// Fills the parts of a RunResult the host driver decides: launch and end cycles, the
// final memory (once the memory has done what it took: memory_model::drain), the
// status and its message.  `core_fault` fills a core fault;
// `stopped` is the message for a run stopped from outside (a protocol error, a
// mismatch); `access` names a refused fill by its load.
void fill_status(RunResult& r, const harness::HostScript& host, harness::memory_side& mem,
                 const std::function<void(RunResult&)>& core_fault, const std::string& stopped,
                 uint64_t max_cycles, const AccessOf& access = {});

// The first fault of a SystemC system's cores into r: the lowest-numbered core with
// one, as the system's fault_* outputs (no core faulted: "stopped: the other model
// faulted", as in a cosimulation where the RTL stopped the run).
void core_fault(RunResult& r, const scm::umbra_system& sys);
// The first of the cores' port protocol errors (empty: none).
const std::string& protocol_error(const scm::umbra_system& sys);
// The cores' statistics joined (events.h, join_stats).
umbra::CoreStats system_stats(const scm::umbra_system& sys);

}  // namespace umbra::harness
