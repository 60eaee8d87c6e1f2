// DRAM timing model (dram.h): the formulas there, applied at acceptance.
#include "dram.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/semantics.h"

namespace umbra::scm {

namespace {
bool pow2(uint64_t v) {
  return v && !(v & (v - 1));
}
}  // namespace

DramParams DramParams::from(const Config& cfg) {
  DramParams p;
  p.banks = cfg.dram_banks;
  p.row_bytes = cfg.dram_row_bytes;
  p.tRCD = cfg.dram_tRCD;
  p.tRP = cfg.dram_tRP;
  p.CL = cfg.dram_CL;
  p.tRAS = cfg.dram_tRAS;
  p.bus_bytes = cfg.dram_bus_bytes;
  p.burst = cfg.dram_burst;
  p.inflight = cfg.dram_inflight;
  p.line_bytes = cfg.cache_line_bytes;
  p.line_port = cfg.cache_line_port;
  if (!pow2(p.banks) || !pow2(p.row_bytes) || !pow2(p.line_bytes) || p.line_bytes < 4)
    throw std::invalid_argument(
        "dram: dram.banks, dram.row_bytes and cache.line_bytes must be powers of two");
  if (p.burst < 1 || p.inflight < 1 || p.bus_bytes < 1)
    throw std::invalid_argument("dram: dram.burst, dram.inflight and dram.bus_bytes must be at least 1");
  return p;
}

uint64_t DramTiming::access(uint64_t c, uint32_t addr, uint64_t bus, Row* row) {
  Bank& b = banks_[(addr / p_.row_bytes) % p_.banks];
  const uint32_t r = addr / (p_.row_bytes * p_.banks);
  uint64_t data_start;
  if (b.open && b.row == r) {
    if (row) *row = Row::Hit;
    data_start = std::max(c + p_.CL, bus_free_);
    next_cmd_ = c + 1;
  } else {
    uint64_t a = c;
    if (b.open) a = std::max(c, b.act + p_.tRAS) + p_.tRP;
    if (row) *row = b.open ? Row::Conflict : Row::Miss;
    data_start = std::max(a + p_.tRCD + p_.CL, bus_free_);
    next_cmd_ = a + p_.tRCD;
    b.open = true;
    b.row = r;
    b.act = a;
  }
  bus_free_ = data_start + bus;
  return data_start;
}

uint64_t DramTiming::bus_cycles(const DramParams& p, uint32_t bytes, bool atomic) {
  const uint64_t per_burst = uint64_t(p.burst) * p.bus_bytes;
  const uint64_t bursts = atomic ? 2 : std::max<uint64_t>(1, (bytes + per_burst - 1) / per_burst);
  return bursts * ((p.burst + 1) / 2);
}

DramModel::DramModel(const DramParams& p, uint32_t bytes) : p_(p), mem_(bytes, 0), timing_(p) {
  if (bytes % 4)
    throw std::invalid_argument("dram: size " + std::to_string(bytes) + " is not a multiple of 4");
  reset();
}

void DramModel::reset() {
  timing_ = DramTiming(p_);
  now_ = resp_free_ = last_data_start_ = 0;
  done_.clear();
  resp_.clear();
  stats_ = DramStats{};
  update_outputs();
}

void DramModel::load(uint32_t addr, const std::vector<uint8_t>& bytes) {
  if (uint64_t(addr) + bytes.size() > mem_.size())
    throw std::out_of_range("dram: " + std::to_string(bytes.size()) + " bytes at " + hex8(addr) +
                            " do not fit in " + std::to_string(mem_.size()) + " bytes of memory");
  std::copy(bytes.begin(), bytes.end(), mem_.begin() + addr);
}

void DramModel::poke32(uint32_t addr, uint32_t value) {
  if (uint64_t(addr) + 4 > mem_.size())
    throw std::out_of_range("dram: word at " + hex8(addr) + " is outside memory");
  set_word(addr, value);
}

uint32_t DramModel::peek32(uint32_t addr) const {
  if (uint64_t(addr) + 4 > mem_.size())
    throw std::out_of_range("dram: word at " + hex8(addr) + " is outside memory");
  return word(addr);
}

uint32_t DramModel::word(uint32_t a) const {
  return uint32_t(mem_[a]) | uint32_t(mem_[a + 1]) << 8 | uint32_t(mem_[a + 2]) << 16 |
         uint32_t(mem_[a + 3]) << 24;
}

void DramModel::set_word(uint32_t a, uint32_t v) {
  mem_[a] = uint8_t(v);
  mem_[a + 1] = uint8_t(v >> 8);
  mem_[a + 2] = uint8_t(v >> 16);
  mem_[a + 3] = uint8_t(v >> 24);
}

void DramModel::refuse(Fault kind, uint32_t op, uint32_t addr, uint32_t tag, std::string detail) {
  if (fault_.raised) return;
  fault_.raised = true;
  fault_.kind = kind;
  fault_.tag = tag;
  fault_.addr = addr;
  fault_.op = op;
  fault_.cycle = now_;
  fault_.detail = std::move(detail);
}

void DramModel::accept(uint32_t op, uint32_t addr, uint32_t data, uint32_t cmp, uint32_t tag, uint32_t mask,
                       const PortLine* line) {
  const bool wline = op == isa::kPortOpWline && p_.line_port;
  const bool fill = op == isa::kPortOpFill || wline;  // both a whole line's request
  const isa::InstrInfo* in = !fill && op < 256 ? isa::find_opcode(uint8_t(op)) : nullptr;
  if (!fill && (!in || (in->cls != isa::Class::Load && in->cls != isa::Class::Store &&
                        in->cls != isa::Class::Atomic))) {
    refuse(Fault::IllegalInstruction, op, addr, tag,
           "request op " + hex8(op) + " is no memory instruction or port op");
    return;
  }
  // A fill's address is its line's; a misaligned ldw's fill carries the load's own
  // address, which is refused under the load's name and rule (4), as fixed_memory does.
  const bool ldw_fill = fill && (addr & 3u);
  const std::string name = ldw_fill ? "ldw" : wline ? "wline" : fill ? "fill" : in->name;
  const uint32_t n = fill && !ldw_fill ? p_.line_bytes : 4;
  // A word access is refused in the words every model uses (semantics.h); a line's own
  // request (a fill, a wline) names its line.
  const bool whole_line = n != 4;
  if (addr % n) {
    refuse(Fault::Misaligned, op, addr, tag,
           whole_line
               ? name + " address " + hex8(addr) + " is not a multiple of the line size " + std::to_string(n)
               : access_fault_reason(Fault::Misaligned, name.c_str(), addr, mem_.size()));
    return;
  }
  if (uint64_t(addr) + n > mem_.size()) {
    refuse(Fault::OutOfRange, op, addr, tag,
           whole_line ? name + " of the " + std::to_string(n) + "-byte line at " + hex8(addr) +
                            " is beyond data memory (" + std::to_string(mem_.size()) + " bytes)"
                      : access_fault_reason(Fault::OutOfRange, name.c_str(), addr, mem_.size()));
    return;
  }

  // Timing (dram.h).
  const bool atomic = !fill && in->cls == isa::Class::Atomic;
  const uint64_t bus_cycles = DramTiming::bus_cycles(p_, n, atomic);
  DramTiming::Row row;
  const uint64_t data_start = timing_.access(now_, addr, bus_cycles, &row);
  ++(row == DramTiming::Row::Hit    ? stats_.row_hits
     : row == DramTiming::Row::Miss ? stats_.row_misses
                                    : stats_.row_conflicts);
  const uint64_t bus_free = timing_.bus_free();
  stats_.bus_busy_cycles += bus_cycles;
  last_data_start_ = data_start;
  ++stats_.requests;
  stats_.bytes += atomic ? 8 : wline ? 4 * uint64_t(__builtin_popcount(mask)) : n;

  // The access itself.
  Response r{0, tag, {}, false, {}};
  if (wline) {
    for (uint32_t i = 0; i < n / 4; ++i)
      if (mask >> i & 1u) set_word(addr + 4 * i, line ? line->w[i] : 0);
  } else if (fill && p_.line_port && !ldw_fill) {
    r.is_line = true;
    r.beats.push_back(word(addr));
    for (uint32_t i = 0; i < n / 4; ++i) r.line.w[i] = word(addr + 4 * i);
  } else if (fill) {
    for (uint32_t i = 0; i < n; i += 4) r.beats.push_back(word(addr + i));
  } else if (in->cls == isa::Class::Load) {
    r.beats.push_back(word(addr));
  } else if (in->cls == isa::Class::Store) {
    set_word(addr, data);
  } else {
    // Operands as atomic_update takes them: field c's register carries the operand
    // (the port's data), field a's the comparand (cmp).
    RegValues v;
    v.a = cmp;
    v.b = addr;
    v.c = data;
    const uint32_t old = word(addr);
    set_word(addr, atomic_update(in->op, old, v));
    if (in->writes_a) r.beats.push_back(old);
  }
  if (!r.beats.empty()) {
    // A line beat waits for its burst's last data; word beats stream from the first.
    r.start = std::max(r.is_line ? bus_free - 1 : data_start, resp_free_);
    resp_free_ = r.start + r.beats.size();
    done_.push_back(resp_free_ - 1);
    resp_.push_back(std::move(r));
  } else {
    done_.push_back(bus_free - 1);
  }
}

void DramModel::update_outputs() {
  done_.erase(std::remove_if(done_.begin(), done_.end(), [&](uint64_t d) { return d < now_; }), done_.end());
  ready_ = now_ >= timing_.next_cmd() && done_.size() < p_.inflight;
  while (!resp_.empty() && resp_.front().start + resp_.front().beats.size() <= now_) resp_.pop_front();
  resp_valid_ = !resp_.empty() && resp_.front().start <= now_;
  resp_data_ = resp_valid_ ? resp_.front().beats[now_ - resp_.front().start] : 0;
  resp_tag_ = resp_valid_ ? resp_.front().tag : 0;
  resp_line_ = resp_valid_ && resp_.front().is_line ? resp_.front().line : PortLine{};
}

void DramModel::clock(bool req_valid, uint32_t op, uint32_t addr, uint32_t data, uint32_t cmp, uint32_t tag,
                      uint32_t mask, const PortLine* line) {
  if (req_valid && ready_) accept(op, addr, data, cmp, tag, mask, line);
  ++stats_.cycles;
  ++now_;
  update_outputs();
}

dram::dram(sc_module_name name, const Config& cfg, uint32_t bytes)
    : memory_model(name), model_(DramParams::from(cfg), bytes) {
  fault.initialize(false);
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

// The inputs are read by reference to the bound signals' current values (sc_signal's
// read() returns it; the kernel changes it only in the update phase): the clocked
// method reads them as through the ports, without a virtual call per read.
void dram::end_of_elaboration() {
  in_ = {&rst.read(),          &mem_req_valid.read(), &mem_req_op.read(),
         &mem_req_addr.read(), &mem_req_data.read(),  &mem_req_cmp.read(),
         &mem_req_tag.read(),  &mem_req_mask.read(),  &mem_req_line.read()};
}

// Outputs are written once the ports are bound; from then on only when they change.
void dram::start_of_simulation() {
  drive(true);
}

namespace {
template <class T>
void drive_port(sc_out<T>& port, T& driven, const T& value, bool always) {
  if (!always && value == driven) return;
  driven = value;
  port.write(value);
}
}  // namespace

void dram::drive(bool always) {
  drive_port(mem_req_ready, driven_.ready, model_.req_ready(), always);
  drive_port(mem_resp_valid, driven_.resp_valid, model_.resp_valid(), always);
  drive_port(mem_resp_data, driven_.resp_data, model_.resp_data(), always);
  drive_port(mem_resp_tag, driven_.resp_tag, model_.resp_tag(), always);
  drive_port(mem_resp_line, driven_.resp_line, model_.resp_line(), always);
  drive_port(fault, driven_.fault, model_.first_fault().raised, always);
}

void dram::edge(bool rst, const Request& r) {
  if (rst)
    model_.reset();
  else
    model_.clock(r.valid, r.op, r.addr, r.data, r.cmp, r.tag, r.mask, &r.line);
}

void dram::tick() {
  edge(*in_.rst, {*in_.valid, *in_.op, *in_.addr, *in_.data, *in_.cmp, *in_.tag, *in_.mask, *in_.line});
  drive(false);
}

void dram::add_stats(umbra::MemoryStats& m) const {
  const DramStats& d = model_.stats();
  m.dram = true;
  m.dram_cycles = d.cycles;
  m.row_hits = d.row_hits;
  m.row_misses = d.row_misses;
  m.row_conflicts = d.row_conflicts;
  m.bus_busy_cycles = d.bus_busy_cycles;
  m.dram_requests = d.requests;
  m.dram_bytes = d.bytes;
}

UMBRA_REGISTER_MEMORY_MODEL(dram, "the DRAM timing model (section dram:), open-page, one command at a time",
                            [](sc_module_name n, const Config& c) -> std::unique_ptr<memory_model> {
                              return std::make_unique<dram>(n, c, c.mem_bytes);
                            });

}  // namespace umbra::scm

// libsystemc calls sc_main; programs that only clock the plain model have none.  Weak,
// as umbra_core.cpp's and reorder_queue.cpp's, so a real one wins.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "umbra: this program has no sc_main of its own\n");
  return 1;
}
