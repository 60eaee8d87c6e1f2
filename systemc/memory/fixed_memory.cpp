// Fixed-latency data memory on the port (fixed_memory.h); the behaviour is FixedStore's.
#include "fixed_memory.h"

namespace umbra::scm {

fixed_memory::fixed_memory(sc_module_name name, uint32_t bytes, unsigned latency, unsigned line_bytes,
                           bool line_port)
    : memory_model(name), store_(bytes, latency, line_bytes, line_port) {
  mem_req_ready.initialize(true);
  mem_resp_valid.initialize(false);
  fault.initialize(false);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(drive_ready);
  sensitive << mem_req_op << free_;
}

void fixed_memory::drive_ready() {
  mem_req_ready.write(store_.ready(mem_req_op.read()));
}

void fixed_memory::edge(bool rst, const Request& r) {
  if (rst) {
    store_.reset();
    resp_.valid = false;
    just_answered_ = false;
    return;
  }
  // A request transfers only with ready high; the core waits while it is low.
  if (r.valid && store_.ready(r.op)) store_.accept({r.op, r.addr, r.data, r.cmp, r.tag, r.mask, r.line});
  const FixedStore::Beat b = store_.advance();
  if (b.valid) {
    resp_ = {true, b.data, b.tag, b.line};
  } else {
    resp_.valid = false;
    // Junk after a response, once (a change every idle cycle would wake every process
    // that reads the port): the word inverted under the same tag, which a core that
    // took it would put where the real one went.
    if (just_answered_) resp_.data = ~resp_.data;
  }
  just_answered_ = b.valid;
}

void fixed_memory::tick() {
  edge(rst.read(), {mem_req_valid.read(), mem_req_op.read(), mem_req_addr.read(), mem_req_data.read(),
                    mem_req_cmp.read(), mem_req_tag.read(), mem_req_mask.read(), mem_req_line.read()});
  // Only what changed (a write costs a call even when it changes nothing).
  mem_resp_valid.write(resp_.valid);
  if (resp_.data != mem_resp_data.read()) mem_resp_data.write(resp_.data);
  if (resp_.tag != mem_resp_tag.read()) mem_resp_tag.write(resp_.tag);
  if (resp_.line != mem_resp_line.read()) mem_resp_line.write(resp_.line);
  if (store_.first_fault().raised && !fault.read()) fault.write(true);
  free_.write(store_.free());
}

UMBRA_REGISTER_MEMORY_MODEL(fixed,
                            "on-chip RAM: every access answered memory.latency cycles after it is accepted",
                            [](sc_module_name n, const Config& c) -> std::unique_ptr<memory_model> {
                              return std::make_unique<fixed_memory>(n, c.mem_bytes, c.mem_latency,
                                                                    c.cache_line_bytes, c.cache_line_port);
                            });

}  // namespace umbra::scm
