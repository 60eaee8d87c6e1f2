// sdram_bench: sequential reads through the reorder queue and the SDR SDRAM controller,
// against the SDRAM's peak (issue 36: at least 80%).  The two cycle models the SystemC
// side runs, each held cycle-exact with its RTL by its own tests (ReorderQueueModel:
// testbench/memsys; SdramController: testbench/sdram), clocked together as
// umbra_system and its memory are: the queue's choice goes to the controller when it is
// ready, one request at a time.  The queue and the SDRAM are a configuration's (default
// configs/ecp5-ulx3s.yaml), its sdram.* times rounded to clocks at the board's clock
// (SdramControllerParams::from, as fpga/ulx3s_system.v rounds them) or at --mhz.
//
// The peak of a 16-bit SDR SDRAM is one 16-bit transfer a clock: 2 bytes a cycle.  Each
// run starts once the controller has finished its power-up and initialization, and
// reads `--bytes` of consecutive lines (line fills, the cache's misses):
//   - `stream`: the queue is kept full of the next lines (the best a sequential stream
//     can do: the controller is never left waiting for a request);
//   - `one`: one fill at a time, the next issued when the last beat of the previous
//     one is back (a single thread's sequential misses, latency-bound).
// Refresh is in the runs (the controller refreshes every T_REFI cycles whatever is
// waiting).  A wrong word or a lost beat is an error (exit 1); the figures are printed,
// never judged: the target is the issue's, and this prints where the design stands.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "reorder_queue.h"
#include "sdram_controller.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/output_file.h"
#include "umbra/rtl_params.h"

namespace {

using umbra::scm::QueueParams;
using umbra::scm::QueueRequest;
using umbra::scm::ReorderQueueModel;
using umbra::scm::SdramController;
using umbra::scm::SdramControllerParams;

uint32_t initial(uint32_t addr) {
  return addr * 2654435761u ^ 0x5bd1e995u;
}

struct Result {
  uint64_t cycles = 0, bytes = 0, refreshes_approx = 0;
  std::string error;
};

Result run(const QueueParams& qp, const SdramControllerParams& sp, uint32_t bytes, bool stream) {
  ReorderQueueModel queue(qp);
  SdramController sdram(sp, bytes + qp.line_bytes);
  for (uint32_t a = 0; a + 4 <= bytes; a += 4) sdram.poke32(a, initial(a));
  Result res;
  // Power-up and initialization first: nothing may be asked before it is done.
  for (uint64_t c = 0; !sdram.init_done(); ++c) {
    if (c > 100u * sp.INIT_WAIT + 100000) {
      res.error = "the controller never finished its initialization";
      return res;
    }
    sdram.clock(false, {});
  }
  const uint32_t lines = bytes / qp.line_bytes, beats = qp.line_bytes / 4;
  uint32_t issued = 0, done = 0, beat = 0;
  uint64_t c = 0;
  const uint64_t limit = 1000 + uint64_t(lines) * beats * 64;
  for (; done < lines && c < limit; ++c) {
    if (sdram.dram_resp_valid()) {
      const uint32_t addr = done * qp.line_bytes + 4 * beat;
      if (sdram.dram_resp_data() != initial(addr)) {
        res.error = "the word at " + std::to_string(addr) + " came back wrong";
        return res;
      }
      res.bytes += 4;
      if (++beat == beats) {
        beat = 0;
        ++done;
      }
    }
    const bool may_issue = issued < lines && (stream || issued == done);
    QueueRequest r;
    r.op = umbra::isa::kPortOpFill;
    r.addr = issued * qp.line_bytes;
    r.tag = issued & 0xff;
    const bool push = may_issue && queue.req_ready();
    const bool send = queue.dram_valid() && sdram.dram_req_ready();
    SdramController::Request out;
    if (send) {
      const QueueRequest& q = queue.dram_req();
      out = {true, q.op, q.addr, q.data, q.cmp, q.tag, q.mask, &q.line};
    }
    queue.clock(push, r, sdram.dram_req_ready());
    sdram.clock(false, out);
    if (push) ++issued;
    if (sdram.first_fault().raised) {
      res.error = "the controller refused a request: " + sdram.first_fault().detail;
      return res;
    }
  }
  if (done < lines) res.error = "did not finish in " + std::to_string(limit) + " cycles";
  res.cycles = c;
  res.refreshes_approx = sp.T_REFI ? c / sp.T_REFI : 0;
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sdram_bench: sequential reads through the reorder queue and the SDRAM controller"};
  std::string config = std::string(UMBRA_SOURCE_DIR) + "/configs/ecp5-ulx3s.yaml";
  unsigned mhz = 0;
  uint32_t bytes = 256 * 1024;
  app.add_option("--config", config, "the configuration (queue, dram.banks/row_bytes, sdram.*, cache line)");
  app.add_option("--mhz", mhz, "the controller's clock (default: fpga.board_clock_mhz, else 100)")
      ->check(CLI::Range(1u, 1000u));
  app.add_option("--bytes", bytes, "bytes read per run (lines from address 0)")
      ->check(CLI::Range(64u, 16u << 20));
  umbra::check_stdout_at_exit("sdram_bench");  // its figures are standard output
  CLI11_PARSE(app, argc, argv);
  umbra::Config cfg;
  try {
    cfg = umbra::load_config(config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  if (!mhz) mhz = umbra::sdram_clock_mhz(cfg);
  SdramControllerParams sp;
  QueueParams qp;
  try {
    sp = SdramControllerParams::from(cfg, mhz);
    sp.check();  // a clock so fast that a time exceeds the controller's counters
    qp = QueueParams::from(cfg);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sdram_bench: %s at %u MHz: %s\n", config.c_str(), mhz, e.what());
    return 1;
  }
  std::printf(
      "sdram_bench: %s at %u MHz: CL %u, tRCD %u, tRP %u, tRAS %u, tRC %u, tWR %u, tRFC %u, "
      "a refresh every %u cycles; queue %s depth %u; %u-byte lines; %u bytes a run\n",
      config.c_str(), mhz, sp.CL, sp.T_RCD, sp.T_RP, sp.T_RAS, sp.T_RC, sp.T_WR, sp.T_RFC, sp.T_REFI,
      qp.reorder ? "reorder" : "fcfs", qp.depth, qp.line_bytes, bytes);
  std::printf("%-8s %10s %10s %12s %10s\n", "run", "cycles", "bytes", "bytes/cycle", "of peak");
  int rc = 0;
  for (bool stream : {true, false}) {
    const Result r = run(qp, sp, bytes / qp.line_bytes * qp.line_bytes, stream);
    if (!r.error.empty()) {
      std::fprintf(stderr, "sdram_bench: %s: %s\n", stream ? "stream" : "one", r.error.c_str());
      rc = 1;
      continue;
    }
    const double bpc = double(r.bytes) / double(r.cycles);
    std::printf("%-8s %10llu %10llu %12.3f %9.1f%%\n", stream ? "stream" : "one",
                (unsigned long long)r.cycles, (unsigned long long)r.bytes, bpc, 100.0 * bpc / 2.0);
  }
  return rc;
}
