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
//   - `cosim`: the whole system under the cosimulation, the RTL controller driving the
//     chip's model on one side and the SystemC model on the other (harness/cosim/
//     rtl_sdram.h): every thread of every core loads the first word of consecutive
//     lines (thread i line i, then i + threads, ...), so the cores' misses, the caches'
//     fills and the queue make the stream.  Each thread reads the `clock` register
//     around its loop; the window is the first start to the last end.  Run when
//     --config is the configuration this bench's cosimulation was verilated for, at
//     its board clock.
// Refresh is in the runs (the controller refreshes every T_REFI cycles whatever is
// waiting).  A wrong word or a lost beat is an error (exit 1); the figures are printed,
// never judged: the target is the issue's, and this prints where the design stands.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "reorder_queue.h"
#include "sdram_controller.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/cosim_run.h"
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

// The `cosim` run: `bytes` of lines, one 32-bit load a line, spread over every thread.
Result run_cosim(const umbra::Config& cfg, uint32_t bytes) {
  Result res;
  const unsigned items = cfg.cores * cfg.threads, line = cfg.cache_line_bytes;
  const uint32_t per_thread = std::max<uint32_t>(1, bytes / line / items);
  const std::string src =
      "        rdsr    r1, lx\n"
      "        la      r2, buf\n"
      "        muli    r3, r1, " +
      std::to_string(line) +
      "\n"
      "        add     r2, r2, r3\n"
      "        ldw     r4, 0(r2)            # back once the SDRAM is initialized: start\n"
      "        rdsr    r5, clock\n"
      "        li      r6, " +
      std::to_string(per_thread) +
      "\n"
      "        li      r7, " +
      std::to_string(items * line) +
      "\n"
      "loop:   add     r2, r2, r7\n"
      "        ldw     r4, 0(r2)\n"
      "        addi    r6, r6, -1\n"
      "        bnz     r6, loop\n"
      "        add     r4, r4, r4           # waits for the last load\n"
      "        rdsr    r8, clock\n"
      "        la      r9, times\n"
      "        shli    r3, r1, 3\n"
      "        add     r9, r9, r3\n"
      "        stw     r5, 0(r9)\n"
      "        stw     r8, 4(r9)\n"
      "        exit\n"
      "        .data\n"
      "times:  .space  " +
      std::to_string(8 * items) +
      "\n"
      "        .align  " +
      std::to_string(line) +
      "\n"
      "buf:    .space  " +
      std::to_string((per_thread + 1) * items * line) + "\n";
  umbra::as::Options ao;
  ao.registers = cfg.registers;
  ao.data_base = cfg.data_base;
  const umbra::as::Result a = umbra::as::assemble_string(src, "sdram_bench.s", ao);
  if (!a.ok()) {
    res.error = "the bench's program does not assemble: line " + std::to_string(a.errors[0].line) + ": " +
                a.errors[0].message;
    return res;
  }
  // The stored clocks are the models' own (the ISS counts issue slots), so the
  // reference simulator's memory is not compared; SystemC and RTL still are.
  umbra::cosim::Options o;
  o.check_iss = false;
  const umbra::cosim::CosimResult r = umbra::cosim::run_cosim(a.program, cfg, cfg.threads, 50000000, o);
  if (!r.passed() || r.rtl.status != umbra::RunResult::Status::Exited) {
    res.error = "the cosimulation failed: " + r.summary() + r.rtl.message;
    return res;
  }
  const uint32_t times = *a.program.data_symbol("times");
  auto word = [&](uint32_t at) {
    const std::vector<uint8_t>& m = r.rtl.memory;
    return uint32_t(m[at]) | uint32_t(m[at + 1]) << 8 | uint32_t(m[at + 2]) << 16 | uint32_t(m[at + 3]) << 24;
  };
  uint32_t first = ~0u, last = 0;
  for (unsigned t = 0; t < items; ++t) {
    first = std::min(first, word(times + 8 * t));
    last = std::max(last, word(times + 8 * t + 4));
  }
  res.cycles = last - first;
  res.bytes = uint64_t(per_thread) * items * line;
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
  namespace fs = std::filesystem;
  const std::string built = umbra::cosim::verilated_params().config_file;
  std::error_code ec;
  if (mhz != umbra::sdram_clock_mhz(cfg) || !fs::equivalent(built, config, ec)) {
    std::printf("cosim    not run: this bench's cosimulation is verilated for %s at its board clock\n",
                built.c_str());
    return rc;
  }
  const Result r = run_cosim(cfg, bytes);
  if (!r.error.empty()) {
    std::fprintf(stderr, "sdram_bench: cosim: %s\n", r.error.c_str());
    return 1;
  }
  const double bpc = double(r.bytes) / double(r.cycles);
  std::printf("%-8s %10llu %10llu %12.3f %9.1f%%  (%u cores x %u threads: caches, queue, RTL controller)\n",
              "cosim", (unsigned long long)r.cycles, (unsigned long long)r.bytes, bpc, 100.0 * bpc / 2.0,
              cfg.cores, cfg.threads);
  return rc;
}
