// The fixed-latency memory's behaviour (fixed_store.h).
#include "fixed_store.h"

#include <algorithm>
#include <stdexcept>

#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/semantics.h"

namespace umbra::scm {

FixedStore::FixedStore(uint32_t bytes, unsigned latency, unsigned line_bytes, bool line_port)
    : mem_(bytes, 0),
      latency_(latency),
      line_bytes_(line_bytes),
      line_port_(line_port),
      ring_(latency + line_bytes / 4 + 1) {
  if (bytes % 4)
    throw std::invalid_argument("fixed_memory: size " + std::to_string(bytes) + " is not a multiple of 4");
  if (latency < 1) throw std::invalid_argument("fixed_memory: latency must be at least 1 cycle");
  if (line_bytes < 4 || line_bytes > 128 || (line_bytes & (line_bytes - 1)))
    throw std::invalid_argument("fixed_memory: line size " + std::to_string(line_bytes) +
                                " is not a power of two in 4..128");
}

unsigned FixedStore::beats_for(uint32_t op) const {
  if (op == isa::kPortOpFill) return line_port_ ? 1 : line_bytes_ / 4;
  if (op == isa::kPortOpWline) return 0;
  const isa::InstrInfo* in = op < 256 ? isa::find_opcode(uint8_t(op)) : nullptr;
  if (!in) return 0;
  if (in->cls == isa::Class::Load) return 1;
  if (in->cls == isa::Class::Atomic && in->writes_a) return 1;
  return 0;
}

void FixedStore::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (!check(addr, bytes.size()))
    throw std::out_of_range("fixed_memory: " + std::to_string(bytes.size()) + " bytes at " + hex8(addr) +
                            " do not fit in " + std::to_string(mem_.size()) + " bytes of memory");
  std::copy(bytes.begin(), bytes.end(), mem_.begin() + addr);
}

void FixedStore::poke32(uint32_t addr, uint32_t value) {
  if (!check(addr, 4)) throw std::out_of_range("fixed_memory: word at " + hex8(addr) + " is outside memory");
  set_word(addr, value);
}

uint32_t FixedStore::peek32(uint32_t addr) const {
  if (!check(addr, 4)) throw std::out_of_range("fixed_memory: word at " + hex8(addr) + " is outside memory");
  return word(addr);
}

uint32_t FixedStore::word(uint32_t a) const {
  return uint32_t(mem_[a]) | uint32_t(mem_[a + 1]) << 8 | uint32_t(mem_[a + 2]) << 16 |
         uint32_t(mem_[a + 3]) << 24;
}

void FixedStore::set_word(uint32_t a, uint32_t v) {
  for (int i = 0; i < 4; ++i) mem_[a + i] = uint8_t(v >> (8 * i));
}

void FixedStore::refuse(const Request& q, Fault kind, std::string detail) {
  if (fault_.raised) return;
  fault_.raised = true;
  fault_.kind = kind;
  fault_.tag = q.tag;
  fault_.addr = q.addr;
  fault_.op = q.op;
  fault_.cycle = now_;
  fault_.detail = std::move(detail);
}

void FixedStore::accept(const Request& q) {
  if (q.op == isa::kPortOpWline && line_port_) {
    if (q.addr % line_bytes_) {
      refuse(q, Fault::Misaligned,
             "wline address " + hex8(q.addr) + " is not a multiple of the line size " +
                 std::to_string(line_bytes_));
      return;
    }
    if (!check(q.addr, line_bytes_)) {
      refuse(q, Fault::OutOfRange,
             "wline of the " + std::to_string(line_bytes_) + "-byte line at " + hex8(q.addr) +
                 " is beyond data memory (" + std::to_string(mem_.size()) + " bytes)");
      return;
    }
    for (unsigned i = 0; i < line_bytes_ / 4; ++i)
      if (q.mask >> i & 1u) set_word(q.addr + 4 * i, q.line.w[i]);
    return;
  }
  if (q.op == isa::kPortOpFill) {
    // A fill's address is its line's; a misaligned ldw's fill carries the load's own
    // address, which is refused here as the load would have been.
    if (q.addr & 3u) {
      refuse(q, Fault::Misaligned, access_fault_reason(Fault::Misaligned, "ldw", q.addr, mem_.size()));
      return;
    }
    if (q.addr % line_bytes_) {
      refuse(q, Fault::Misaligned,
             "fill address " + hex8(q.addr) + " is not a multiple of the line size " +
                 std::to_string(line_bytes_));
      return;
    }
    if (!check(q.addr, line_bytes_)) {
      refuse(q, Fault::OutOfRange,
             "fill of the " + std::to_string(line_bytes_) + "-byte line at " + hex8(q.addr) +
                 " is beyond data memory (" + std::to_string(mem_.size()) + " bytes)");
      return;
    }
    if (line_port_) {
      Beat& b = ring_[(now_ + latency_) % ring_.size()];
      b = Beat{true, word(q.addr), q.tag, {}};
      for (unsigned i = 0; i < line_bytes_ / 4; ++i) b.line.w[i] = word(q.addr + 4 * i);
      last_beat_ = now_ + latency_;
      return;
    }
    const unsigned beats = line_bytes_ / 4;
    for (unsigned i = 0; i < beats; ++i)
      ring_[(now_ + latency_ + i) % ring_.size()] = Beat{true, word(q.addr + 4 * i), q.tag, {}};
    last_beat_ = now_ + latency_ + beats - 1;
    return;
  }
  const isa::InstrInfo* in = q.op < 256 ? isa::find_opcode(uint8_t(q.op)) : nullptr;
  if (!in || (in->cls != isa::Class::Load && in->cls != isa::Class::Store && in->cls != isa::Class::Atomic)) {
    refuse(q, Fault::IllegalInstruction, "request op " + hex8(q.op) + " is no memory instruction");
    return;
  }
  if (q.addr & 3u) {
    refuse(q, Fault::Misaligned, access_fault_reason(Fault::Misaligned, in->name, q.addr, mem_.size()));
    return;
  }
  if (!check(q.addr, 4)) {
    refuse(q, Fault::OutOfRange, access_fault_reason(Fault::OutOfRange, in->name, q.addr, mem_.size()));
    return;
  }
  bool respond = false;
  uint32_t data = 0;
  switch (in->cls) {
    case isa::Class::Load:
      data = word(q.addr);
      respond = true;
      break;
    case isa::Class::Store: set_word(q.addr, q.data); break;
    default: {
      // Operands as atomic_update takes them: field c's register carries the operand
      // (the port's data), field a's the comparand (cmp).
      RegValues v;
      v.a = q.cmp;
      v.b = q.addr;
      v.c = q.data;
      data = word(q.addr);
      set_word(q.addr, atomic_update(in->op, data, v));
      respond = in->writes_a;
      break;
    }
  }
  if (respond) {
    ring_[(now_ + latency_) % ring_.size()] = Beat{true, data, q.tag, {}};
    last_beat_ = now_ + latency_;
  }
}

FixedStore::Beat FixedStore::advance() {
  Beat& slot = ring_[(now_ + 1) % ring_.size()];
  const Beat b = slot;
  slot.valid = false;
  ++now_;
  return b;
}

void FixedStore::reset() {
  for (Beat& b : ring_) b.valid = false;
  now_ = 0;
  last_beat_ = 0;
}

}  // namespace umbra::scm
