// core_checks: what core_bench asserts about a run of the bare core (core_driver.h).
//
// Meaning, against the reference simulator: the per-thread register writes through the
// comparison the cosimulation makes too (harness/iss_check), and, what only a bench
// on the core's own port can see, each thread's stores and atomics on the port in the
// ISS's order with its addresses and data, and each line fill for a line the thread
// loads from.
//
// Timing, against docs/microarchitecture.md: every slot issues its thread or a bubble
// with the right reason, a computed result is written depth - 1 cycles after its fetch,
// a late (load's or atom's) write in a memory bubble of its thread, a request reaches
// the port no earlier than X1 + 3 (C2 pushes it into the request FIFO), busy falls
// when the last thread has exited.  The exact timing of the memory system is the
// cosimulation's and systemc_timing_test's to check.
#pragma once
#include <sstream>
#include <string>

#include "core_driver.h"
#include "iss_check.h"

namespace corebench {

// The test being run (for messages), whether to print progress, and the failures so far.
extern std::string g_test;
extern bool g_verbose;
extern int g_failures;

void fail(const std::string& what);
#define CHECK(cond, msg)      \
  do {                        \
    if (!(cond)) {            \
      std::ostringstream os_; \
      os_ << msg;             \
      fail(os_.str());        \
    }                         \
  } while (0)

// The core's configuration, as the ISS needs it.
umbra::Config config();
umbra::check::Reference reference(const umbra::Program& p, unsigned n, uint64_t max_instructions);

void check_against_iss(const umbra::Program& p, const CoreTrace& r, const umbra::check::Reference& ref,
                       const std::vector<uint8_t>& memory, unsigned n);
void check_timing(const CoreTrace& r, unsigned n);

}  // namespace corebench
