// Fixed-latency data memory (fixed_memory.h).
#include "fixed_memory.h"

#include <cstdio>
#include <stdexcept>

#include "umbra/format.h"
#include "umbra/isa.h"

namespace umbra::tb {

namespace {}  // namespace

fixed_memory::fixed_memory(sc_module_name name, uint32_t bytes, unsigned latency, unsigned line_bytes)
    : memory_model(name),
      mem_(bytes, 0),
      latency_(latency),
      line_bytes_(line_bytes),
      ring_(latency + line_bytes / 4 + 1) {
  if (bytes % 4)
    throw std::invalid_argument("fixed_memory: size " + std::to_string(bytes) + " is not a multiple of 4");
  if (latency < 1) throw std::invalid_argument("fixed_memory: latency must be at least 1 cycle");
  if (line_bytes < 4 || line_bytes > 128 || (line_bytes & (line_bytes - 1)))
    throw std::invalid_argument("fixed_memory: line size " + std::to_string(line_bytes) +
                                " is not a power of two in 4..128");
  mem_req_ready.initialize(true);
  mem_resp_valid.initialize(false);
  fault.initialize(false);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
  // mem_req_ready depends on the op on the port (a store never waits), so it is
  // combinational from mem_req_op and the registered free_.
  SC_METHOD(drive_ready);
  sensitive << mem_req_op << free_;
}

unsigned fixed_memory::beats_for(uint32_t op) const {
  if (op == isa::kPortOpFill) return line_bytes_ / 4;
  const isa::InstrInfo* in = op < 256 ? isa::find_opcode(uint8_t(op)) : nullptr;
  if (!in) return 0;
  if (in->cls == isa::Class::Load) return 1;
  if (in->cls == isa::Class::Atomic && in->writes_a) return 1;
  return 0;
}

void fixed_memory::drive_ready() {
  mem_req_ready.write(beats_for(mem_req_op.read()) == 0 || free_.read());
}

void fixed_memory::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (!check(addr, bytes.size()))
    throw std::out_of_range("fixed_memory: " + std::to_string(bytes.size()) + " bytes at " + hex8(addr) +
                            " do not fit in " + std::to_string(mem_.size()) + " bytes of memory");
  std::copy(bytes.begin(), bytes.end(), mem_.begin() + addr);
}

void fixed_memory::poke32(uint32_t addr, uint32_t value) {
  if (!check(addr, 4)) throw std::out_of_range("fixed_memory: word at " + hex8(addr) + " is outside memory");
  set_word(addr, value);
}

uint32_t fixed_memory::peek32(uint32_t addr) const {
  if (!check(addr, 4)) throw std::out_of_range("fixed_memory: word at " + hex8(addr) + " is outside memory");
  return word(addr);
}

uint32_t fixed_memory::word(uint32_t a) const {
  return uint32_t(mem_[a]) | uint32_t(mem_[a + 1]) << 8 | uint32_t(mem_[a + 2]) << 16 |
         uint32_t(mem_[a + 3]) << 24;
}

void fixed_memory::set_word(uint32_t a, uint32_t v) {
  mem_[a] = uint8_t(v);
  mem_[a + 1] = uint8_t(v >> 8);
  mem_[a + 2] = uint8_t(v >> 16);
  mem_[a + 3] = uint8_t(v >> 24);
}

void fixed_memory::refuse(Fault kind, std::string detail) {
  if (fault_.raised) return;
  fault_.raised = true;
  fault_.kind = kind;
  fault_.tag = mem_req_tag.read();
  fault_.addr = mem_req_addr.read();
  fault_.op = mem_req_op.read();
  fault_.cycle = now_;
  fault_.detail = std::move(detail);
  fault.write(true);
}

void fixed_memory::accept() {
  const uint32_t op = mem_req_op.read();
  const uint32_t addr = mem_req_addr.read();
  if (op == isa::kPortOpFill) {
    // A fill's address is its line's; a misaligned ldw's fill carries the load's own
    // address, which is refused here as the load would have been.
    if (addr & 3u) {
      refuse(Fault::Misaligned, "ldw address " + hex8(addr) + " is not a multiple of 4");
      return;
    }
    if (addr % line_bytes_) {
      refuse(Fault::Misaligned, "fill address " + hex8(addr) + " is not a multiple of the line size " +
                                    std::to_string(line_bytes_));
      return;
    }
    if (!check(addr, line_bytes_)) {
      refuse(Fault::OutOfRange, "fill of the " + std::to_string(line_bytes_) + "-byte line at " + hex8(addr) +
                                    " is beyond data memory (" + std::to_string(mem_.size()) + " bytes)");
      return;
    }
    const unsigned beats = line_bytes_ / 4;
    for (unsigned i = 0; i < beats; ++i)
      ring_[(now_ + latency_ + i) % ring_.size()] = Response{true, word(addr + 4 * i), mem_req_tag.read()};
    last_beat_ = now_ + latency_ + beats - 1;
    return;
  }
  const isa::InstrInfo* in = op < 256 ? isa::find_opcode(uint8_t(op)) : nullptr;
  if (!in || (in->cls != isa::Class::Load && in->cls != isa::Class::Store && in->cls != isa::Class::Atomic)) {
    refuse(Fault::IllegalInstruction, "request op " + hex8(op) + " is no memory instruction");
    return;
  }
  if (addr & 3u) {
    refuse(Fault::Misaligned, std::string(in->name) + " address " + hex8(addr) + " is not a multiple of 4");
    return;
  }
  if (!check(addr, 4)) {
    refuse(Fault::OutOfRange, std::string(in->name) + " address " + hex8(addr) + " is beyond data memory (" +
                                  std::to_string(mem_.size()) + " bytes)");
    return;
  }
  bool respond = false;
  uint32_t data = 0;
  switch (in->cls) {
    case isa::Class::Load:
      data = word(addr);
      respond = true;
      break;
    case isa::Class::Store: set_word(addr, mem_req_data.read()); break;
    default: {
      // Operands as atomic_update takes them: field c's register carries the operand
      // (mem_req_data), field a's the comparand (mem_req_cmp).
      RegValues v;
      v.a = mem_req_cmp.read();
      v.b = addr;
      v.c = mem_req_data.read();
      data = word(addr);
      set_word(addr, atomic_update(in->op, data, v));
      respond = in->writes_a;
      break;
    }
  }
  if (respond) {
    ring_[(now_ + latency_) % ring_.size()] = Response{true, data, mem_req_tag.read()};
    last_beat_ = now_ + latency_;
  }
}

void fixed_memory::tick() {
  if (rst.read()) {
    for (auto& r : ring_) r.valid = false;
    now_ = 0;
    last_beat_ = 0;
    free_.write(true);
    mem_resp_valid.write(false);
    return;
  }
  // A request transfers only with ready high; the core waits while it is low.
  if (mem_req_valid.read() && mem_req_ready.read()) accept();
  Response& r = ring_[(now_ + 1) % ring_.size()];
  mem_resp_valid.write(r.valid);
  if (r.valid) {
    mem_resp_data.write(r.data);
    mem_resp_tag.write(r.tag);
    r.valid = false;
  }
  ++now_;
  free_.write(now_ + latency_ > last_beat_);
}

UMBRA_REGISTER_MEMORY_MODEL(fixed,
                            "on-chip RAM: every access answered memory.latency cycles after it is accepted",
                            [](sc_module_name n, const Config& c) -> std::unique_ptr<memory_model> {
                              return std::make_unique<fixed_memory>(n, c.mem_bytes, c.mem_latency,
                                                                    c.cache_line_bytes);
                            });

}  // namespace umbra::tb
