// Fetch block (fetch.h).  One clocked method; everything it keeps is plain members,
// its outputs are the registers the RTL's fetch.v has.
#include "fetch.h"

#include <algorithm>

namespace umbra::scm {

fetch::fetch(sc_module_name name, const BlockParams& p)
    : sc_module(name),
      p_(p),
      imem_(p.imem_words, 0u),  // a zero word is no instruction: running into it faults
      pc_(p.threads, 0u),
      state_(p.threads, ThreadStateCode::Idle),
      free_count_(p.threads) {
  stats_.issued.assign(p.threads, 0);
  stats_.bubbles.assign(p.threads, {});
}

namespace {
bool is_free(ThreadStateCode s) {
  return s == ThreadStateCode::Idle || s == ThreadStateCode::Exited;
}
}  // namespace

void fetch::set_state(unsigned t, ThreadStateCode s) {
  const bool was = state_[t] == ThreadStateCode::Run || state_[t] == ThreadStateCode::Sleep;
  const bool now = s == ThreadStateCode::Run || s == ThreadStateCode::Sleep;
  active_ = active_ + (now ? 1 : 0) - (was ? 1 : 0);
  free_count_ = free_count_ + (is_free(s) ? 1 : 0) - (is_free(state_[t]) ? 1 : 0);
  state_[t] = s;
}

void fetch::reset() {
  std::fill(pc_.begin(), pc_.end(), 0u);
  std::fill(state_.begin(), state_.end(), ThreadStateCode::Idle);
  entry_ = 0;
  slot_ = 0;
  clock_ = 0;
  active_ = 0;
  free_count_ = p_.threads;
  busy_q_ = false;
  issued_ = false;
  stats_.cycles = 0;
  std::fill(stats_.issued.begin(), stats_.issued.end(), 0);
  std::fill(stats_.bubbles.begin(), stats_.bubbles.end(), std::array<uint64_t, kBubbleReasons>{});
  d_valid.write(false);
  d_reason.write(uint32_t(BubbleReason::Idle));
  clock.write(0);
  domw.write(0);
  lx0.write(0);
  domh.write(1);
  items.write(false);
  item_we.write(false);
  f_busy.write(false);
}

void fetch::tick() {
  if (rst.read()) {
    reset();
    return;
  }

  // A start takes the lowest thread free at the start of the cycle (a free thread gets
  // no update below: it has nothing in flight).
  unsigned started = p_.threads;
  if (p_.dispatch && start_valid.read())
    for (unsigned u = 0; u < p_.threads && started == p_.threads; ++u)
      if (is_free(state_[u])) started = u;

  // Updates X1 and W registered at the end of the previous cycle.
  if (x2_upd_valid.read()) {
    const unsigned t = x2_upd_thread.read();
    set_state(t, ThreadStateCode(x2_upd_state.read()));
    pc_[t] = x2_upd_pc.read();
  }
  if (wake_valid.read()) {
    const unsigned t = wake_thread.read();
    if (state_[t] == ThreadStateCode::Sleep) set_state(t, ThreadStateCode::Run);
  }

  // The slot.
  const unsigned t = slot_;
  const bool counted = busy_q_ || lsu_busy.read();
  if (counted) ++stats_.cycles;
  Event ev;
  ev.cycle = clock_;
  ev.thread = t;
  issued_ = state_[t] == ThreadStateCode::Run;
  if (issued_) {
    const uint32_t pc = pc_[t];
    const uint32_t index = pc >> 2;
    d_valid.write(true);
    d_pc.write(pc);
    d_word.write(index < p_.imem_words ? imem_[index] : 0u);
    if (counted) ++stats_.issued[t];
    ev.kind = EventKind::Issue;
    ev.pc = pc;
  } else {
    const BubbleReason why = state_[t] == ThreadStateCode::Sleep    ? BubbleReason::Memory
                             : state_[t] == ThreadStateCode::Exited ? BubbleReason::Exited
                                                                    : BubbleReason::Idle;
    d_valid.write(false);
    d_reason.write(uint32_t(why));
    if (counted) ++stats_.bubbles[t][unsigned(why)];
    ev.kind = EventKind::Bubble;
    ev.reason = why;
  }
  d_thread.write(t);
  if (p_.events->enabled()) p_.events->emit(ev);

  // Host writes and launch take effect from the next cycle.
  if (host_imem_we.read()) {
    const uint32_t a = host_imem_addr.read();
    if (a < p_.imem_words) imem_[a] = host_imem_data.read();
  }
  if (launch_valid.read()) {
    const uint32_t n = launch_count.read();
    const uint32_t entry = launch_entry.read();
    for (unsigned u = 0; u < std::min<uint32_t>(n, p_.threads); ++u) {
      pc_[u] = entry;
      set_state(u, ThreadStateCode::Run);
    }
    domw.write(launch_domw.read());
    lx0.write(launch_lx0.read());
    domh.write(1);
    items.write(false);
  } else if (p_.dispatch && domain_valid.read()) {
    entry_ = launch_entry.read();  // every started thread's first pc
    domw.write(domain_w.read());
    lx0.write(0);
    domh.write(domain_h.read());
    items.write(true);
  }
  item_we.write(started < p_.threads);
  if (started < p_.threads) {
    set_state(started, ThreadStateCode::Run);
    pc_[started] = entry_;
    item_thread.write(started);
    item_lx.write(start_lx.read());
    item_ly.write(start_ly.read());
    if (p_.events->enabled()) {
      Event s;
      s.cycle = clock_;
      s.kind = EventKind::Start;
      s.thread = started;
      s.addr = start_lx.read();
      s.data = start_ly.read();
      p_.events->emit(s);
    }
  }

  slot_ = slot_ + 1 == p_.threads ? 0 : slot_ + 1;
  ++clock_;
  clock.write(clock_);
  busy_q_ = active_ > 0;
  f_busy.write(busy_q_);
}

}  // namespace umbra::scm
