// Host driver (host_driver.h).
#include "host_driver.h"

#include "wire.h"

namespace umbra::harness {

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Running: return "running";
    case StopReason::Done: return "done";
    case StopReason::CoreFault: return "core fault";
    case StopReason::MemoryFault: return "memory fault";
    case StopReason::CycleLimit: return "cycle limit";
    case StopReason::External: return "stopped";
  }
  return "?";
}

void HostScript::present(uint64_t cycle) {
  const uint64_t words = job_.text.size();
  if (cycle < words) {
    out_.imem_we = true;
    out_.imem_addr = job_.first_word + uint32_t(cycle);
    out_.imem_data = job_.text[cycle];
  } else if (cycle == words) {
    out_.imem_we = false;
    out_.doorbell_valid = job_.doorbell.ring;
    out_.doorbell_addr = job_.doorbell.addr;
    out_.launch_valid = !job_.domain.launch() && !job_.doorbell.ring;
    out_.domain_valid = job_.domain.launch() && !job_.doorbell.ring;
    out_.launch_count = job_.threads;
    out_.launch_entry = job_.entry;
    out_.domain_w = job_.domain.w;
    out_.domain_h = job_.domain.h;
  } else {
    out_.launch_valid = false;
    out_.domain_valid = false;
    out_.doorbell_valid = false;
    // Only the launch cycle's count, entry and domain count: a real host moves on (the
    // board's argument register shifts with its next command), so after it they are
    // junk here too, and a model that kept reading them would differ from the ISS.
    if (cycle == words + 1) {
      out_.launch_count = ~job_.threads;
      out_.launch_entry = ~job_.entry;
      out_.domain_w = ~job_.domain.w;
      out_.domain_h = ~job_.domain.h;
      out_.doorbell_addr = ~job_.doorbell.addr;
    }
  }
}

bool HostScript::edge(bool busy, bool fault, bool mem_fault) {
  if (!started_) {
    // The edge that samples reset; the cycle after it is cycle 0.
    started_ = true;
    out_.rst = false;
    present(0);
    return false;
  }
  const uint64_t c = next_++;
  bool stopped = false;
  if (reason_ == StopReason::Running && c > launch_cycle()) {
    if (fault)
      reason_ = StopReason::CoreFault;
    else if (mem_fault)
      reason_ = StopReason::MemoryFault;
    else if (job_.stop && job_.stop())
      reason_ = StopReason::External;
    else if (!busy)
      reason_ = StopReason::Done;
    else if (c - launch_cycle() >= job_.max_cycles)
      reason_ = StopReason::CycleLimit;
    stopped = reason_ != StopReason::Running;
    if (stopped) end_ = c;
  }
  present(c + 1);
  return stopped;
}

host_driver::host_driver(sc_module_name name, Job job) : sc_module(name), script_(std::move(job)) {
  const HostScript::Outputs& o = script_.outputs();
  rst.initialize(o.rst);
  host_imem_we.initialize(o.imem_we);
  launch_valid.initialize(o.launch_valid);
  domain_valid.initialize(o.domain_valid);
  doorbell_valid.initialize(o.doorbell_valid);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void host_driver::tick() {
  const bool stop = script_.edge(busy.read(), fault.read(), mem_fault.read());
  // Only what changed: an sc_signal write costs a call even when it changes nothing, and
  // after the launch nothing here changes.
  const HostScript::Outputs& o = script_.outputs();
  HostScript::Outputs& d = driven_;
  scm::drive(rst, d.rst, o.rst);
  scm::drive(host_imem_we, d.imem_we, o.imem_we);
  scm::drive(host_imem_addr, d.imem_addr, o.imem_addr);
  scm::drive(host_imem_data, d.imem_data, o.imem_data);
  scm::drive(launch_valid, d.launch_valid, o.launch_valid);
  scm::drive(launch_count, d.launch_count, o.launch_count);
  scm::drive(launch_entry, d.launch_entry, o.launch_entry);
  scm::drive(domain_valid, d.domain_valid, o.domain_valid);
  scm::drive(domain_w, d.domain_w, o.domain_w);
  scm::drive(domain_h, d.domain_h, o.domain_h);
  scm::drive(doorbell_valid, d.doorbell_valid, o.doorbell_valid);
  scm::drive(doorbell_addr, d.doorbell_addr, o.doorbell_addr);
  if (stop) sc_pause();
}

}  // namespace umbra::harness
