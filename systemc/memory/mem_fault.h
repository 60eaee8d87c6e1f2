// mem_fault: what a memory model reports when it refuses a request on the core's port.
// Plain C++ (no SystemC) so that memories without the SystemC kernel, such as the
// fixed store that core_bench drives the bare Verilated core with, report in the same
// terms as the SystemC models behind memory_model.h.
#pragma once
#include <cstdint>
#include <string>

#include "umbra/semantics.h"

namespace umbra::scm {

// A request the memory refused: no access, no response, the sticky `fault` output.
struct MemFault {
  bool raised = false;
  Fault kind = Fault::None;  // Misaligned, OutOfRange, or IllegalInstruction for a bad op
  uint32_t tag = 0, addr = 0, op = 0;
  uint64_t cycle = 0;  // the cycle the request was on the port (counted from reset)
  std::string detail;
};

}  // namespace umbra::scm
