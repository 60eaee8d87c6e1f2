// rtl_system (rtl_system.h).
#include "rtl_system.h"

#include <type_traits>
#include <utility>

#include "Vumbra_system.h"
#include "Vumbra_system___024root.h"
#include "umbra/isa.h"
#include "umbra/port_line.h"
#include "umbra/uarch_gen.h"
#include "verilated_line.h"
#include "verilated_vcd_c.h"
#include "wire.h"

// Verilator 5.006's clocked region (generated, not declared in a header); see
// eval_rising_edge.
#if defined(VERILATOR_VERSION_INTEGER) && VERILATOR_VERSION_INTEGER == 5006000
#define UMBRA_RTL_CLOCKED_ONLY 1
void Vumbra_system___024root___eval_nba(Vumbra_system___024root* vlSelf);
#endif

namespace umbra::cosim {

namespace {
// The words of a line-wide port as Verilated: a VlWide of N words, or an integer (a
// line of 4 or 8 bytes).
template <class Port>
struct PortWords {
  static constexpr unsigned value = unsigned(sizeof(Port) / 4);
};
template <std::size_t N>
struct PortWords<VlWide<N>> {
  static constexpr unsigned value = unsigned(N);
};
// The words of a line on the system's port (rtl/umbra_system.v, CACHE_LINE_BYTES).
constexpr unsigned kLineWords =
    PortWords<std::remove_reference_t<decltype(Vumbra_system::mem_req_line)>>::value;

// Whether the generated model keeps the clock's last evaluated value under the name
// Verilator 5.0xx gives it (the edge detector compares the clock with it).
template <class Root, class = void>
struct HasClockRecord : std::false_type {};
template <class Root>
struct HasClockRecord<Root, std::void_t<decltype(std::declval<Root&>().__Vtrigrprev__TOP__clk)>>
    : std::true_type {};

// Lowers the model's clock after a rising edge's evaluation as an evaluation at the
// falling edge would have, without re-evaluating the input-driven logic (rtl_system.h).
template <class Model>
void lower_clock(Model& m) {
  m.clk = 0;
  if constexpr (HasClockRecord<std::remove_pointer_t<decltype(m.rootp)>>::value)
    m.rootp->__Vtrigrprev__TOP__clk = 0;
  else
    m.eval();
}

// The rising edge's evaluation without the input-driven region.  Verilator 5.006's
// eval() runs that region first at every call, then the clocked region when the clock
// rose; at a rising edge here the inputs are those of the last settle, whose
// evaluation (or the last rising edge's clocked region, which re-runs the same logic
// after the registers change) has already settled it, so it would only recompute the
// values it holds (a tenth of an RTL cycle's instructions).  The clocked region is
// run as eval() would run it: its one trigger is the clock's rising edge, and it ends
// with no trigger pending since the clock does not change again.  The generated
// function and members used are Verilator 5.006's, so the path is compiled only for
// that version (VERILATOR_VERSION_INTEGER); any other Verilator gets eval().
template <class Model>
void eval_rising_edge(Model& m, bool settled) {
#ifdef UMBRA_RTL_CLOCKED_ONLY
  auto& root = *m.rootp;
  if (settled && root.__Vtrigrprev__TOP__clk == 0 && m.clk == 1) {
    root.__Vtrigrprev__TOP__clk = 1;
    root.__VnbaTriggered.clear();
    root.__VnbaTriggered.at(0) = true;
    Vumbra_system___024root___eval_nba(&root);
    return;
  }
#endif
  (void)settled;
  m.eval();
}
}  // namespace

RtlStepper::RtlStepper(const char* name, unsigned cores, Callback on_cycle, bool waveform)
    : model_(std::make_unique<Vumbra_system>(name)),
      on_cycle_(std::move(on_cycle)),
      waveform_(waveform),
      samples_(cores),
      fault_cycle_(cores, 0) {}

RtlStepper::~RtlStepper() = default;

void RtlStepper::rise() {
  sample();
  Vumbra_system& m = *model_;
  m.clk = 1;
  if (waveform_) {
    m.eval();
    return;
  }
  eval_rising_edge(m, settled_);
  lower_clock(m);
}

void RtlStepper::settle() {
  model_->eval();
  settled_ = true;
}

void RtlStepper::fall() {
  model_->clk = 0;
  model_->eval();
}

uint32_t RtlStepper::cmd_fault() const {
  return model_->cmd_fault;
}

uint32_t RtlStepper::cmd_fault_addr() const {
  return model_->cmd_fault_addr;
}

bool RtlStepper::trace(VerilatedVcdC& vcd, int levels) {
#if VM_TRACE
  model_->trace(&vcd, levels);
  return true;
#else
  (void)vcd;
  (void)levels;
  return false;
#endif
}

RtlSide::RtlSide(const Config& cfg, RtlStepper::Callback on_cycle, std::vector<umbra::HostWrite> writes,
                 bool waveform, uint32_t ncore)
    : memory("rtl_memory", cfg, std::move(writes), rtl_memory_factory()),
      rtl("umbra_system", cfg.cores, std::move(on_cycle), waveform) {
  Vumbra_system& m = rtl.model();
  m.ncore = ncore;
  m.bypass_queue = !cfg.queue_enabled;
  apply_inputs(harness::HostScript::Outputs{});
  m.mem_req_ready = memory.model().ready(m.mem_req_op);
  rtl.settle();
  settle(false);
}

harness::EdgeInputs RtlSide::before_edge() const {
  const Vumbra_system& m = rtl.model();
  return {bool(m.busy),
          bool(m.fault) || m.cmd_fault != 0,
          memory.model().first_fault().raised,
          bool(m.rst),
          bool(m.launch_valid) || bool(m.domain_valid) || bool(m.doorbell_valid),
          {bool(m.mem_req_valid), m.mem_req_op, m.mem_req_addr, m.mem_req_data, m.mem_req_cmp, m.mem_req_tag,
           uint32_t(m.mem_req_mask), port_line(m.mem_req_line)}};  // 0 and zeros on a word port (LINE_PORT 0)
}

void RtlSide::edge(const harness::EdgeInputs& e) {
  rtl.rise();
  memory.edge(e.rst, e.launch_valid, e.req);
}

void RtlSide::after_edge(const harness::HostScript::Outputs& host) {
  memory.end_of_cycle();
  settle(apply_inputs(host));
}

namespace {
template <class Port, class Value>
bool set(Port& port, Value v) {
  if (port == Port(v)) return false;
  port = Port(v);
  return true;
}
}  // namespace

bool RtlSide::apply_inputs(const harness::HostScript::Outputs& h) {
  Vumbra_system& m = rtl.model();
  const scm::memory_model::Response r = memory.model().response();
  bool changed = set(m.rst, h.rst);
  changed |= set(m.host_imem_we, h.imem_we);
  changed |= set(m.host_imem_addr, h.imem_addr);
  changed |= set(m.host_imem_data, h.imem_data);
  changed |= set(m.launch_valid, h.launch_valid);
  changed |= set(m.launch_count, h.launch_count);
  changed |= set(m.launch_entry, h.launch_entry);
  changed |= set(m.domain_valid, h.domain_valid);
  changed |= set(m.domain_w, h.domain_w);
  changed |= set(m.domain_h, h.domain_h);
  changed |= set(m.doorbell_valid, h.doorbell_valid);
  changed |= set(m.doorbell_addr, h.doorbell_addr);
  changed |= set(m.mem_resp_valid, r.valid);
  changed |= set(m.mem_resp_data, r.data);
  changed |= set(m.mem_resp_tag, r.tag);
  changed |= set_line(m.mem_resp_line, r.line);
  return changed;
}

// The memory's ready may follow the request's op within the cycle (the fixed memory's
// does): evaluate until they agree.
void RtlSide::settle(bool changed) {
  Vumbra_system& m = rtl.model();
  for (;;) {
    changed |= set(m.mem_req_ready, memory.model().ready(m.mem_req_op));
    if (!changed) return;
    rtl.settle();
    changed = false;
  }
}

// A field of a per-core trace output: core c's `width` bits at c * width.  Verilator
// gives a port of up to 64 bits as an integer and a wider one as VlWide (32-bit words).
namespace {
uint32_t field(uint64_t port, unsigned c, unsigned width) {
  const uint64_t mask = width >= 32 ? 0xffffffffull : (1ull << width) - 1;
  return uint32_t((port >> (c * width)) & mask);
}
template <std::size_t N>
uint32_t field(const VlWide<N>& port, unsigned c, unsigned width) {
  const unsigned lo = c * width, w = lo / 32;
  uint64_t v = port[w];
  if (w + 1 < N) v |= uint64_t(port[w + 1]) << 32;
  return field(v >> (lo % 32), 0, width);
}
// Core c's line of a per-core trace output `words` words a core (a line port's
// request line).
template <class Port>
PortLine line_field(const Port& port, unsigned c, unsigned words) {
  PortLine l;
  for (unsigned i = 0; i < words && i < PortLine::kMaxWords; ++i) l.w[i] = field(port, c * words + i, 32);
  return l;
}
}  // namespace

// The mem and dram events show a wline's mask and its line's fold in data and cmp, as
// the SystemC model's (systemc/load_store_unit.cpp, umbra_system.cpp).
namespace {
void show_wline(umbra::Event& e, uint32_t mask, const PortLine& line, unsigned words) {
  if (e.op != isa::kPortOpWline) return;
  e.data = mask;
  e.cmp = line.fold(words, mask);
}
}  // namespace

// What core_monitor reads from the SystemC side at a rising edge, read from the model
// before the edge, core by core: the trace outputs, each core's own port (trace_port_*:
// the mem and memresp events), the DRAM port (trace_dram_valid and the system's
// request: the dram event, in core 0's sample).
void RtlStepper::sample() {
  const Vumbra_system& m = *model_;
  if (m.rst) {
    started_ = true;
    next_ = 0;
    return;
  }
  if (!started_) return;  // before the first reset nothing is defined
  const uint64_t cycle = next_++;
  const unsigned rb = uarch::kBubbleReasonBits, fb = uarch::kFaultBits, ob = uarch::kCacheOutcomeBits;
  for (unsigned c = 0; c < samples_.size(); ++c) {
    CycleSample& s = samples_[c];
    s.cycle = cycle;
    s.core = c;
    for (auto& e : s.events) e.reset();
    // This core's event of `kind`, in its rank's place.
    const auto event = [&](umbra::EventKind kind) -> umbra::Event& {
      umbra::Event& e = s.events[rank(kind)].emplace();
      e.cycle = cycle;
      e.core = uint8_t(c);
      e.kind = kind;
      return e;
    };
    if (field(m.trace_issue_valid, c, 1)) {
      umbra::Event& e = event(umbra::EventKind::Issue);
      e.thread = field(m.trace_issue_thread, c, 8);
      e.pc = field(m.trace_issue_pc, c, 32);
    } else {
      umbra::Event& e = event(umbra::EventKind::Bubble);
      e.thread = field(m.trace_issue_thread, c, 8);
      e.reason = umbra::BubbleReason(field(m.trace_issue_reason, c, rb));
    }
    if (field(m.trace_regwrite_valid, c, 1)) {
      umbra::Event& w = event(umbra::EventKind::RegWrite);
      w.thread = field(m.trace_regwrite_thread, c, 8);
      w.pc = field(m.trace_regwrite_pc, c, 32);
      w.reg = uint8_t(field(m.trace_regwrite_reg, c, 8));
      w.value = field(m.trace_regwrite_value, c, 32);
      registers_[c << 8 | w.thread][w.reg] = w.value;
    }
    // A request transfers in a cycle with valid and ready both high.
    if (field(m.trace_port_req_valid, c, 1) && field(m.trace_port_req_ready, c, 1)) {
      umbra::Event& r = event(umbra::EventKind::Mem);
      r.thread = field(m.trace_port_req_tag, c, 8);
      r.op = uint8_t(field(m.trace_port_req_op, c, 8));
      r.addr = field(m.trace_port_req_addr, c, 32);
      r.data = field(m.trace_port_req_data, c, 32);
      r.cmp = field(m.trace_port_req_cmp, c, 32);
      if (r.op == isa::kPortOpWline)
        show_wline(r, field(m.trace_port_req_mask, c, kLineWords),
                   line_field(m.trace_port_req_line, c, kLineWords), kLineWords);
    }
    if (field(m.trace_port_resp_valid, c, 1)) {
      umbra::Event& r = event(umbra::EventKind::MemResp);
      r.thread = field(m.trace_port_resp_tag, c, 8);
      r.value = field(m.trace_port_resp_data, c, 32);
    }
    if (field(m.trace_cache_valid, c, 1)) {
      umbra::Event& k = event(umbra::EventKind::Cache);
      k.thread = field(m.trace_cache_thread, c, 8);
      k.op = uint8_t(field(m.trace_cache_op, c, 8));
      k.addr = field(m.trace_cache_addr, c, 32);
      k.value = field(m.trace_cache_outcome, c, ob);
      accesses_[c << 8 | k.thread] = {k.op, k.addr};
    }
    if (field(m.trace_wake_valid, c, 1))
      event(umbra::EventKind::Wake).thread = field(m.trace_wake_thread, c, 8);
    if (c == 0 && m.trace_dram_valid) {
      umbra::Event& d = event(umbra::EventKind::Dram);
      d.thread = m.mem_req_tag;
      d.op = uint8_t(m.mem_req_op);
      d.addr = m.mem_req_addr;
      d.data = m.mem_req_data;
      d.cmp = m.mem_req_cmp;
      if (d.op == isa::kPortOpWline)
        show_wline(d, uint32_t(m.mem_req_mask), port_line(m.mem_req_line), kLineWords);
    }
    if (field(m.trace_start_valid, c, 1)) {
      umbra::Event& st = event(umbra::EventKind::Start);
      st.thread = field(m.trace_start_thread, c, 8);
      st.addr = m.trace_start_lx;
      st.data = m.trace_start_ly;
    }
    if (c == 0 && m.trace_cmd_valid) {
      umbra::Event& k = event(umbra::EventKind::Command);
      k.op = uint8_t(m.trace_cmd_op);
      k.addr = m.trace_cmd_addr;
    }
    s.fault = field(m.trace_core_fault, c, 1);
    if (s.fault && !fault_cycle_[c]) fault_cycle_[c] = cycle;
    s.fault_cause = field(m.trace_fault_cause, c, fb);
    s.protocol_error = field(m.trace_protocol_error, c, 1);
    s.busy = field(m.trace_core_busy, c, 1);
    s.system_busy = m.busy;
    s.system_fault = m.fault;
    s.fault_core = m.fault_core;
    s.fault_thread = m.fault_thread;
    s.fault_pc = m.fault_pc;
    on_cycle_(s);
  }
}

}  // namespace umbra::cosim
