// Host driver (host_driver.h).
#include "host_driver.h"

namespace umbra::scm {

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

host_driver::host_driver(sc_module_name name, Job job) : sc_module(name), job_(std::move(job)) {
  rst.initialize(true);
  host_imem_we.initialize(false);
  launch_valid.initialize(false);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

void host_driver::present(uint64_t cycle) {
  const uint64_t words = job_.text.size();
  if (cycle < words) {
    host_imem_we.write(true);
    host_imem_addr.write(job_.first_word + uint32_t(cycle));
    host_imem_data.write(job_.text[cycle]);
  } else if (cycle == words) {
    host_imem_we.write(false);
    launch_valid.write(true);
    launch_count.write(job_.threads);
    launch_entry.write(job_.entry);
  } else {
    launch_valid.write(false);
    // Only the launch cycle's count and entry count: a real host moves on (the board's
    // argument register shifts with its next command), so after it they are junk here
    // too, and a model that kept reading them would differ from the ISS.
    if (cycle == words + 1) {
      launch_count.write(~job_.threads);
      launch_entry.write(~job_.entry);
    }
  }
}

void host_driver::stop(StopReason r, uint64_t cycle) {
  reason_ = r;
  end_ = cycle;
  sc_pause();
}

void host_driver::tick() {
  if (!started_) {
    // The edge that samples reset; the cycle after it is cycle 0.
    started_ = true;
    rst.write(false);
    present(0);
    return;
  }
  const uint64_t c = next_++;
  if (reason_ == StopReason::Running && c > launch_cycle()) {
    if (fault.read())
      stop(StopReason::CoreFault, c);
    else if (mem_fault.read())
      stop(StopReason::MemoryFault, c);
    else if (job_.stop && job_.stop())
      stop(StopReason::External, c);
    else if (!busy.read())
      stop(StopReason::Done, c);
    else if (c - launch_cycle() >= job_.max_cycles)
      stop(StopReason::CycleLimit, c);
  }
  present(c + 1);
}

}  // namespace umbra::scm
