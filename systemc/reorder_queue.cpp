// The memory reorder queue (reorder_queue.h).  The selection below is written as the
// RTL computes it (rtl/reorder_queue.v), so the two can be read side by side.
#include "reorder_queue.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace umbra::scm {

namespace {
bool pow2(uint64_t v) {
  return v && !(v & (v - 1));
}
}  // namespace

QueueParams QueueParams::from(const Config& cfg) {
  QueueParams p;
  if (cfg.queue_mode == "reorder")
    p.reorder = true;
  else if (cfg.queue_mode == "fcfs")
    p.reorder = false;
  else
    throw QueueConfigError("reorder_queue: queue.mode '" + cfg.queue_mode + "' is neither reorder nor fcfs");
  p.depth = cfg.queue_depth;
  p.open_rows = cfg.queue_open_rows;
  p.max_passes = cfg.queue_max_passes;
  p.banks = cfg.dram_banks;
  p.row_bytes = cfg.dram_row_bytes;
  p.line_bytes = cfg.cache_line_bytes;
  p.registered_pick = cfg.queue_registered_pick;
  p.registered_accept = cfg.queue_registered_accept;
  if (p.depth < 1) throw QueueConfigError("reorder_queue: queue.depth must be at least 1");
  if (p.open_rows < 1) throw QueueConfigError("reorder_queue: queue.open_rows must be at least 1");
  if (!pow2(p.banks) || !pow2(p.row_bytes) || !pow2(p.line_bytes))
    throw QueueConfigError(
        "reorder_queue: dram.banks, dram.row_bytes and cache.line_bytes must be powers of two");
  if (p.line_bytes > p.row_bytes)
    throw QueueConfigError("reorder_queue: cache.line_bytes is larger than dram.row_bytes");
  return p;
}

ReorderQueueModel::ReorderQueueModel(const QueueParams& p) : p_(p) {
  entries_.reserve(p_.depth);
  reset();
}

void ReorderQueueModel::reset() {
  entries_.clear();
  table_.clear();
  sel_ = 0;
  pick_ok_ = true;
  in_valid_ = false;
  in_req_ = QueueRequest{};
  now_ = 0;
  stats_ = QueueStats{};
}

const QueueRequest& ReorderQueueModel::dram_req() const {
  static const QueueRequest none{};
  return entries_.empty() ? none : entries_[sel_].req;
}

bool ReorderQueueModel::row_open(uint32_t addr) const {
  for (auto& t : table_)
    if (t.first == p_.bank(addr) && t.second == p_.row(addr)) return true;
  return false;
}

// The table is kept most recently opened first.  The sent request's pair moves to the
// front, taking the place of (in this order) the same pair, its bank's entry, a free
// slot, or the least recently opened entry; the entries in front of that place shift
// back by one.  This keeps at most one entry per bank.
void ReorderQueueModel::touch_row(uint32_t addr) {
  const std::pair<uint32_t, uint32_t> pr{p_.bank(addr), p_.row(addr)};
  size_t at = table_.size();
  for (size_t i = 0; i < table_.size() && at == table_.size(); ++i)
    if (table_[i].first == pr.first) at = i;
  if (at == table_.size()) {
    if (table_.size() < p_.open_rows) table_.push_back(pr);
    at = table_.size() - 1;
  }
  for (size_t i = at; i > 0; --i) table_[i] = table_[i - 1];
  table_[0] = pr;
}

// The oldest request is the head.  Any request older than another has been passed over
// at least as often (it was in the queue, and older than the one sent, each time the
// younger was passed over), so "the oldest request passed over max_passes times" is the
// head whenever there is one.  "No older request to its line precedes it" needs no
// comparators: a line lies inside one row, so an older request to the same line is an
// older request to an open row too, and the scan below meets it first.
unsigned ReorderQueueModel::select() const {
  if (!p_.reorder || entries_.empty()) return 0;
  if (entries_[0].passes >= p_.max_passes) return 0;
  for (unsigned i = 0; i < entries_.size(); ++i)
    if (row_open(entries_[i].req.addr)) return i;
  return 0;
}

bool ReorderQueueModel::clock(bool req_valid, const QueueRequest& req, bool dram_ready) {
  const uint64_t occ = entries_.size();
  ++stats_.cycles;
  stats_.occupancy_sum += occ;
  stats_.occupancy_max = std::max(stats_.occupancy_max, occ);
  // take: the core side transfers; accept: a request joins the entries, the one taken
  // or, with registered_accept, the one the input register took in the cycle before.
  const bool take = req_valid && req_ready();
  const bool accept = p_.registered_accept ? in_valid_ && has_room() : take;
  const QueueRequest& joining = p_.registered_accept ? in_req_ : req;
  const bool send = dram_valid() && dram_ready;
  // registered_pick: the search is made on the entries as the cycle starts and offered
  // in the next one, unless a send has moved them (rtl/reorder_queue.v, "selection").
  const unsigned searched = p_.registered_pick ? select() : 0;
  if (send) {
    const unsigned k = sel_;
    for (unsigned i = 0; i < k; ++i) ++entries_[i].passes;
    stats_.passed_over += k;
    const uint64_t wait = now_ - entries_[k].since;
    stats_.longest_wait = std::max(stats_.longest_wait, wait);
    stats_.wait_sum += wait;
    ++stats_.sent;
    touch_row(entries_[k].req.addr);
    entries_.erase(entries_.begin() + k);
  }
  if (accept) {
    entries_.push_back(Entry{joining, 0, now_});
    ++stats_.accepted;
  }
  if (p_.registered_accept && (take || accept)) {
    in_valid_ = take;
    if (take) in_req_ = req;
  }
  ++now_;
  if (p_.registered_pick) {
    sel_ = searched;
    pick_ok_ = !send;
  } else {
    sel_ = select();
  }
  return send;
}

}  // namespace umbra::scm

// libsystemc calls sc_main; programs that only clock the plain models (unit tests,
// bench/queue_bench) have none.  Weak, as umbra_core.cpp's, so a real one wins.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
  std::fprintf(stderr, "umbra: this program has no sc_main of its own\n");
  return 1;
}
