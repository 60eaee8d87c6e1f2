// ideal_memory (`memory.model: ideal`): every access answered in the cycle after it is
// accepted — the bound no real memory beats, for asking how much of a program's time
// is the memory's.  It is the fixed-latency memory (fixed_memory.h) at latency 1,
// whatever memory.latency says, so it performs accesses, atomics, fills and refusals
// exactly as that one does; only the wait is gone.  A fill still takes line_bytes / 4
// consecutive beats: the port moves one word a cycle (one line on a line port).
#include "fixed_memory.h"

namespace umbra::scm {
namespace {

class ideal_memory final : public fixed_memory {
 public:
  ideal_memory(sc_module_name name, const Config& cfg)
      : fixed_memory(name, cfg.mem_bytes, 1, cfg.cache_line_bytes, cfg.cache_line_port) {}
};

}  // namespace

UMBRA_REGISTER_MEMORY_MODEL(ideal, "every access answered the cycle after it is accepted (no wait)",
                            [](sc_module_name n, const Config& c) -> std::unique_ptr<memory_model> {
                              return std::make_unique<ideal_memory>(n, c);
                            });

}  // namespace umbra::scm
