// reorder_queue_cosim: rtl/reorder_queue.v (Verilated as plain C++) against the SystemC
// model's behaviour (systemc/reorder_queue.h, ReorderQueueModel, which the SC_MODULE
// reorder_queue clocks unchanged), cycle by cycle.  Both get the same random request
// stream (valid, op, address, data, tag) and the same random DRAM-side ready and
// responses; every cycle mem_req_ready, dram_req_valid, the DRAM request's fields (while
// valid) and the response pass-through must agree.  Addresses come from a few pages so
// that row hits, conflicts, same-line runs and the max_passes rule all happen; the
// bench fails if they did not (a stream that never reorders proves nothing).
//
// The queue's parameters are fixed when Verilating (RQ_* definitions, one executable per
// configuration); the model gets the same ones through umbra::Config.
//   reorder_queue_cosim [--seed N] [--cycles N]
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "Vreorder_queue.h"
#include "reorder_queue.h"
#include "umbra/isa.h"
#include "verilated.h"

using umbra::scm::QueueParams;
using umbra::scm::QueueRequest;
using umbra::scm::ReorderQueueModel;

namespace {

unsigned long arg_value(int& i, int argc, char** argv) {
  if (i + 1 >= argc) {
    std::fprintf(stderr, "reorder_queue_cosim: %s needs a value\n", argv[i]);
    std::exit(2);
  }
  char* end = nullptr;
  const unsigned long v = std::strtoul(argv[++i], &end, 0);
  if (!end || *end) {
    std::fprintf(stderr, "reorder_queue_cosim: %s: '%s' is not a number\n", argv[i - 1], argv[i]);
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long seed = 1, cycles = 200000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed"))
      seed = arg_value(i, argc, argv);
    else if (!std::strcmp(argv[i], "--cycles"))
      cycles = arg_value(i, argc, argv);
    else {
      std::fprintf(stderr, "usage: reorder_queue_cosim [--seed N] [--cycles N]\n");
      return 2;
    }
  }

  umbra::Config cfg;
  cfg.queue_mode = RQ_MODE_REORDER ? "reorder" : "fcfs";
  cfg.queue_depth = RQ_DEPTH;
  cfg.queue_open_rows = RQ_OPEN_ROWS;
  cfg.queue_max_passes = RQ_MAX_PASSES;
  cfg.dram_banks = RQ_BANKS;
  cfg.dram_row_bytes = RQ_ROW_BYTES;
  cfg.cache_line_bytes = RQ_LINE_BYTES;
  cfg.queue_registered_pick = RQ_REGISTERED_PICK != 0;
  cfg.queue_registered_accept = RQ_REGISTERED_ACCEPT != 0;
  ReorderQueueModel model(QueueParams::from(cfg));

  auto ctx = std::make_unique<VerilatedContext>();
  auto rtl = std::make_unique<Vreorder_queue>(ctx.get());
  std::mt19937 rng{uint32_t(seed)};
  const uint32_t ops[] = {uint32_t(umbra::isa::kPortOpFill), umbra::isa::find_name("stw")->opcode,
                          umbra::isa::find_name("atom.add")->opcode,
                          umbra::isa::find_name("red.add")->opcode};
  // A few pages ({row, bank}) in play, re-drawn now and then, so that hits and
  // conflicts on one bank both happen often.
  const uint32_t pages = 4u * RQ_BANKS;
  auto page_addr = [&](uint32_t page) { return page * RQ_ROW_BYTES; };

  auto edge = [&](bool rst) {
    rtl->rst = rst;
    rtl->clk = 1;
    rtl->eval();
    rtl->clk = 0;
    rtl->eval();
  };
  rtl->clk = 0;
  rtl->mem_req_valid = 0;
  rtl->dram_req_ready = 0;
  rtl->dram_resp_valid = 0;
  edge(true);
  edge(true);
  model.reset();

  // How often each way of choosing fired, to fail a run that exercised too little.
  uint64_t sent = 0, reordered = 0, forced = 0, full_cycles = 0;
  uint64_t withheld = 0;  // cycles holding requests but offering none (registered pick)
  // Requests the input register took while the entries were full, so that it held
  // them over the next cycle (registered accept).
  uint64_t parked = 0;
  uint32_t serial = 0;
  // Bursty offered load: phases of heavy and light traffic, and of a slow DRAM side,
  // so that the queue both fills up and drains.
  // In a hot phase nearly every request goes to one row, so a request to any other
  // row is passed over again and again until max_passes forces it out.
  unsigned p_valid = 2, p_ready = 2;
  bool hot = false;
  uint32_t hot_page = 0;
  for (unsigned long c = 0; c < cycles; ++c) {
    if (c % 97 == 0) {
      p_valid = rng() % 4;
      p_ready = rng() % 4;
      hot = rng() % 4 == 0;
      hot_page = rng() % pages;
    }
    QueueRequest r;
    bool valid = rng() % 4 <= p_valid;
    r.op = ops[rng() % 4];
    uint32_t page = (rng() % 8 == 0) ? rng() % (1024u * RQ_BANKS) : rng() % pages;
    if (hot && rng() % 16 != 0) page = hot_page;
    // The first choice is made before any row was opened: two requests wait while the
    // DRAM side is not ready, the older to page 1, the younger to page 0 ({row 0, bank
    // 0}), and the older must go first.  A queue that counted its never-written
    // open-row entries (page 0 after reset) as open rows would send the younger
    // (mutation campaign survivor 5a9173266bcc).
    const bool prologue = c < 3;
    if (prologue) {
      valid = c < 2;
      page = c == 0 ? 1 : 0;
    }
    const uint32_t col = (rng() % (RQ_ROW_BYTES / 4)) * 4;
    r.addr = page_addr(page) + (r.op == ops[0] ? col & ~uint32_t(RQ_LINE_BYTES - 1) : col);
    r.data = rng();
    r.cmp = rng();
    r.tag = serial++ & 0xffffu;
    const bool ready = !prologue && rng() % 4 <= p_ready;
    const bool resp_valid = rng() % 2;
    const uint32_t resp_data = rng(), resp_tag = rng() & 0xffffu;

    rtl->mem_req_valid = valid;
    rtl->mem_req_op = uint8_t(r.op);
    rtl->mem_req_addr = r.addr;
    rtl->mem_req_data = r.data;
    rtl->mem_req_cmp = r.cmp;
    rtl->mem_req_tag = uint16_t(r.tag);
    rtl->dram_req_ready = ready;
    rtl->dram_resp_valid = resp_valid;
    rtl->dram_resp_data = resp_data;
    rtl->dram_resp_tag = uint16_t(resp_tag);
    rtl->eval();

    std::string diff;
    auto check = [&](const char* name, uint64_t got, uint64_t want) {
      if (got != want) {
        char b[128];
        std::snprintf(b, sizeof b, " %s rtl=0x%" PRIx64 " model=0x%" PRIx64, name, got, want);
        diff += b;
      }
    };
    check("mem_req_ready", rtl->mem_req_ready, model.req_ready());
    check("dram_req_valid", rtl->dram_req_valid, model.dram_valid());
    check("holding", rtl->holding, model.holding());
    if (model.dram_valid()) {
      const QueueRequest& q = model.dram_req();
      check("dram_req_op", rtl->dram_req_op, q.op);
      check("dram_req_addr", rtl->dram_req_addr, q.addr);
      check("dram_req_data", rtl->dram_req_data, q.data);
      check("dram_req_cmp", rtl->dram_req_cmp, q.cmp);
      check("dram_req_tag", rtl->dram_req_tag, q.tag);
    }
    check("mem_resp_valid", rtl->mem_resp_valid, resp_valid);
    if (resp_valid) {
      check("mem_resp_data", rtl->mem_resp_data, resp_data);
      check("mem_resp_tag", rtl->mem_resp_tag, resp_tag);
    }
    if (!diff.empty()) {
      std::fprintf(stderr,
                   "reorder_queue_cosim: MISMATCH in cycle %lu (seed %lu, occupancy %u, selected %u):%s\n", c,
                   seed, model.occupancy(), model.selected(), diff.c_str());
      return 1;
    }
    if (model.dram_valid() && ready) {
      ++sent;
      if (model.selected() != 0) ++reordered;
      if (model.occupancy() > 1 && model.passes(0) >= QueueParams::from(cfg).max_passes) ++forced;
    }
    if (!model.req_ready()) ++full_cycles;
    if (model.holding() && !model.dram_valid()) ++withheld;
    if (RQ_REGISTERED_ACCEPT && valid && model.req_ready() && model.occupancy() == RQ_DEPTH) ++parked;
    model.clock(valid, r, ready);
    edge(false);
  }

  const auto& s = model.stats();
  std::printf(
      "reorder_queue_cosim (%s%s%s, depth %u, open_rows %u, max_passes %u, banks %u, row %u): %lu cycles "
      "agree; "
      "sent %" PRIu64 ", reordered %" PRIu64 ", forced by max_passes %" PRIu64 ", cycles full %" PRIu64
      ", cycles withheld %" PRIu64 ", taken while full %" PRIu64
      ", mean occupancy %.2f, longest wait %" PRIu64 "\n",
      RQ_MODE_REORDER ? "reorder" : "fcfs", RQ_REGISTERED_PICK ? ", registered pick" : "",
      RQ_REGISTERED_ACCEPT ? ", registered accept" : "", RQ_DEPTH, RQ_OPEN_ROWS, RQ_MAX_PASSES, RQ_BANKS,
      RQ_ROW_BYTES, cycles, sent, reordered, forced, full_cycles, withheld, parked, s.mean_occupancy(),
      s.longest_wait);
  // A run that never filled the queue, or (reorder mode) never reordered or never hit
  // the bound, did not test what it is for.
  bool weak = sent == 0 || full_cycles == 0;
  if (RQ_MODE_REORDER) weak = weak || reordered == 0 || forced == 0;
  if (RQ_REGISTERED_PICK) weak = weak || withheld == 0;
  if (RQ_REGISTERED_ACCEPT) weak = weak || parked == 0;
  if (weak && cycles >= 10000) {
    std::fprintf(stderr, "reorder_queue_cosim: the stream exercised too little (see the counts above)\n");
    return 1;
  }
  rtl->final();
  return 0;
}
