// cores_bench: what several cores sharing one memory system do (docs/memory-system.md,
// "Many cores"), on the SystemC model of the whole system (cores, data caches, request
// FIFOs, the arbiter, the reorder queue, the DRAM model; the cosimulation holds the RTL
// to the same cycles).  For each core count (--cores, default 1,2,4,8), the
// configuration with `cores` set to it, every core launching all T threads:
//
//   compute    examples/mandelbrot.s: IPC per core against one core's.  Predicted: the
//              same (the cores share only the memory, which mandelbrot barely uses),
//              less what the static split of the domain leaves idle at the end.
//   read       every work item loads `--lines` lines, one word a line, so every load
//              is a fill.  --layout interleaved (the default): load k of item w is at
//              line w + k * items, so the machine's items together sweep memory in
//              order, as a GPU kernel's coalesced loads do; chunked: each item its own
//              run.  DRAM bytes a cycle and % of the DRAM's peak.  Predicted:
//              min(cores x one core's figure, the ceiling): on a word port at most one
//              4-byte response beat a cycle reaches the cores (the system's one
//              response port), 4 B/cycle; on a line port (cache.line_port) a line a
//              burst, at most the DRAM's peak.
//   write      every work item stores `--words` words, a line's worth of stores
//              (unrolled) an iteration so that a core can issue them faster than one
//              word in four cycles, interleaved by line (item w's k-th line is line
//              w + k * items) or chunked.  Predicted: on a word port at most one word
//              per burst/2 data-bus cycles (a word store holds the bus for a burst); on
//              a line port, stores combined into line writes, a line a burst, at most
//              the peak.  Bytes are the words written (4 for each word a wline's mask
//              names), not the bursts' width.
//   atomics    every thread of every core adds to one word with atom.add: cycles per
//              atomic; predicted burst cycles each (an atomic reads and writes: two
//              bursts on the data bus, one word, one open row).
//   domain     examples/mandelbrot2d.s, the same image as a 96x72 domain launch (one work
//              item a pixel, the dispatcher refilling threads): IPC per core against one
//              core's.  Predicted: 1 (no static split to leave threads idle at the end).
//   occupancy  a 16-instruction kernel over a --occupancy domain (1024x1024) on
//              --occupancy-cores cores (4): the fraction of thread slots that issue.
//              Predicted: 1 but for the first round (one item a cycle fills the
//              machine) and the last.
//   launch     an empty kernel (`exit`) over one work item: cycles from the domain
//              launch to its first issue, and from the exit's issue to the system's
//              busy low.  Predicted: 2 + the thread's wait for its slot (< T), and the
//              exit's X2 (4 cycles) plus a cycle for busy.
//   kernels    the Intel Gen study's dispatch experiment: K independent addi and an
//              exit over 32 work items a thread slot, K + 1 = 1, 3, ..., 127: IPC per
//              core, and the cycles a thread slot spends per item beyond its K + 1
//              issue rounds (its start/stop cost).  Predicted: min(1, (K + 1) / cores),
//              the dispatcher handing out one item a cycle, a thread losing no slot
//              between items; the first and last rounds cost a little more.
//   doorbell   the same kernel through the command processor (docs/commands.md): a
//              buffer `domain 1 1; run; fence; end` with the program already in the
//              instruction stores, and one that also copies it (`program` first):
//              cycles from the doorbell to the first issue, and from the exit's issue
//              to the fence's store on the DRAM port.  Predicted: one DRAM read of the
//              buffer's line, a cycle a word, then the launch's 2 + slot wait (the
//              copy adds a read of the text's line and a second read of the buffer's);
//              the fence once busy falls (the exit's 5) plus the store's trip through
//              the queue.
//   counters   examples/mandelbrot2d.s over its first 32x24 work items through a
//              buffer `counters_reset; domain; run; counters; end`, the counters read
//              back from memory as the data-parallel VM reads its own: cycles, busy
//              cycles and each core's instructions.  The instructions must add up to
//              the run's (a wrong total fails the bench).
//
// read and write run under queue.mode reorder and fcfs; the ratio is the queue's gain
// with several cores streaming at once; B/req is the bytes a DRAM request moved on
// average (the line port's combining shows there).  --only runs some experiments.  Exit status non-zero only
// on a failed run or a wrong result (a lost atomic), never on a figure.
//
//   cores_bench [--config FILE] [--cores 1,2,4,8] [--lines N] [--words N] [--atomics N]
//               [--occupancy WxH] [--occupancy-cores N] [--only LIST] [--csv FILE]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.h"
#include "command_processor.h"
#include "umbra/cli_numbers.h"
#include "umbra/commands_gen.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/systemc_run.h"

#ifndef UMBRA_SOURCE_DIR
#error "UMBRA_SOURCE_DIR must name the source tree (examples/mandelbrot.s)"
#endif

namespace {

using umbra::Config;
using umbra::Program;
using umbra::RunResult;

struct Measured {
  RunResult run;
  uint64_t span = 0;  // launch to the system's idle (busy low: the queue drained too)
};

Measured run(const Program& p, const Config& cfg, umbra::Domain domain = {},
             umbra::EventSink* sink = nullptr) {
  Measured m;
  umbra::harness::RunOptions o;
  o.domain = domain;
  m.run = umbra::harness::run_systemc(p, cfg, cfg.threads, 200'000'000, sink, o);
  if (m.run.status != RunResult::Status::Exited)
    throw std::runtime_error("configuration with " + std::to_string(cfg.cores) + " cores: " + m.run.message);
  m.span = m.run.end_cycle - m.run.launch_cycle;
  return m;
}

// `count` accesses by each work item, `step` bytes apart in runs of `unroll` (one
// iteration, a unit of unroll * step bytes; count a multiple of unroll): `op` is
// "ldw r5" or "stw r1".  Chunked: item w's units are its own run, count * step bytes
// from item w - 1's.  Interleaved: item w's unit k is unit w + k * items of the region,
// so in every round the machine's items together sweep the next items units in order
// (as a GPU kernel's coalesced accesses do).
std::string stream(const Config& cfg, const std::string& op, unsigned count, unsigned step, unsigned unroll,
                   bool interleaved) {
  const unsigned items = cfg.cores * cfg.threads, chunk = count * step, unit = unroll * step;
  const unsigned stride = interleaved ? items * unit : unit;  // from one iteration to the next
  std::ostringstream s;
  std::ostringstream body;
  for (unsigned k = 0; k < unroll; ++k) body << (k ? "        " : "") << op << ", " << k * step << "(r3)\n";
  s << "        .text\n"
    << "        rdsr    r1, lx\n"
    << "        li      r2, " << (interleaved ? unit : chunk) << "\n"
    << "        mul     r2, r2, r1\n"
    << "        la      r3, region\n"
    << "        add     r3, r3, r2\n"
    << "        li      r4, " << count / unroll << "\n"
    << "loop:   " << body.str() << "        li      r6, " << stride << "\n"
    << "        add     r3, r3, r6\n"
    << "        addi    r4, r4, -1\n"
    << "        bnz     r4, loop\n"
    << "        exit\n"
    << "        .data\n"
    << "        .align  " << cfg.dram_row_bytes << "\n"
    << "region: .space  " << chunk * items << "\n";
  return s.str();
}

std::string atomics(unsigned count) {
  std::ostringstream s;
  s << "        .text\n"
    << "        la      r1, sum\n"
    << "        movi    r2, 1\n"
    << "        li      r3, " << count << "\n"
    << "loop:   atom.add r4, r1, r2\n"
    << "        addi    r3, r3, -1\n"
    << "        bnz     r3, loop\n"
    << "        exit\n"
    << "        .data\n"
    << "sum:    .word   0\n";
  return s.str();
}

// The domain kernel of the occupancy run: out[ly * domw + lx] = (ly << 16) | lx, the
// address wrapped into data memory (MASK) since the domain may be larger.
const char* kGrid = R"(
        .text
        rdsr    r1, lx
        rdsr    r2, ly
        rdsr    r3, domw
        mul     r4, r2, r3
        add     r4, r4, r1
        shli    r4, r4, 2
        la      r5, out
        add     r5, r5, r4
        shli    r6, r2, 16
        or      r6, r6, r1
        li      r7, MASK
        and     r5, r5, r7
        stw     r6, 0(r5)
        exit
        .data
out:    .word   0
)";

// The first issue and the command processor's first store on the DRAM port (the
// doorbell experiment's fence).
struct IssueAndFence final : umbra::EventSink {
  void on_event(const umbra::Event& e) override {
    if (e.kind == umbra::EventKind::Issue) {
      if (!issued) first = e.cycle;
      issued = true;
      last = e.cycle;
    }
    if (e.kind == umbra::EventKind::Dram && e.thread == umbra::scm::CommandProcessor::kTag &&
        e.op == umbra::isa::info(umbra::isa::Op::STW).opcode && !fenced) {
      fenced = true;
      fence = e.cycle;
    }
  }
  bool issued = false, fenced = false;
  uint64_t first = 0, last = 0, fence = 0;
};

// The first issue and the last exit's issue of a run (the launch experiment).
struct FirstAndLast final : umbra::EventSink {
  void on_event(const umbra::Event& e) override {
    if (e.kind != umbra::EventKind::Issue) return;
    if (!seen) first = e.cycle;
    seen = true;
    last = e.cycle;
  }
  bool seen = false;
  uint64_t first = 0, last = 0;
};

// The kernels experiment's prediction (docs/microarchitecture.md, "Domain launch"): the
// dispatcher hands out one item a cycle, so the machine runs at most `issues`
// instructions a cycle; a thread that exits takes the next item without losing its
// slot (T >= the pipeline's depth), so nothing else bounds a core below 1.
double kernel_ipc(unsigned issues, unsigned cores) {
  return std::min(1.0, double(issues) / cores);
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<unsigned> parse_list(const std::string& text) {
  const auto v = umbra::parse_number_list(text, 1, umbra::uarch::kMaxCores);
  if (!v)
    throw std::runtime_error("--cores '" + text + "': expected a list of core counts 1.." +
                             std::to_string(umbra::uarch::kMaxCores) + ", e.g. 1,2,4,8");
  return std::vector<unsigned>(v->begin(), v->end());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cores_bench: several cores sharing one memory system (SystemC model)"};
  std::string config_file, cores_text = "1,2,4,8", csv_path;
  unsigned lines = 32, words = 64, atomic_count = 16;
  app.add_option("--config", config_file, "the machine (default: configs/default.yaml's values)")
      ->type_name("FILE");  // the loader says why a file cannot be read
  app.add_option("--cores", cores_text, "the core counts to measure, e.g. 1,2,4,8");
  app.add_option("--lines", lines, "lines each work item reads")->check(CLI::Range(1u, 4096u));
  app.add_option("--words", words, "words each work item stores")->check(CLI::Range(1u, 65536u));
  app.add_option("--atomics", atomic_count, "atom.add each thread makes")->check(CLI::Range(1u, 65536u));
  std::string occupancy_text = "1024x1024";
  unsigned occupancy_cores = 4;
  app.add_option("--occupancy", occupancy_text, "the occupancy run's domain, WxH")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            return umbra::parse_extent(v, 65536) ? "" : "'" + v + "' is not WxH, each from 1 to 65536";
          },
          "WxH"));
  app.add_option("--occupancy-cores", occupancy_cores, "the occupancy run's cores")
      ->check(CLI::Range(1u, 64u));
  app.add_option("--csv", csv_path, "write the figures as CSV to FILE");
  std::string layout = "interleaved";
  app.add_option("--layout", layout,
                 "the streams' layout: interleaved (item w's access k at w + k * items) "
                 "or chunked (each item its own run)")
      ->check(CLI::IsMember({"interleaved", "chunked"}));
  const std::string all = "compute,read,write,atomics,domain,occupancy,launch,kernels,doorbell,counters";
  std::string only_text = all;
  app.add_option("--only", only_text, "the experiments to run, e.g. read,write (default: all)")
      ->check([&all](const std::string& list) {
        std::stringstream in(list);
        std::string item;
        while (std::getline(in, item, ','))
          if (("," + all + ",").find("," + item + ",") == std::string::npos || item.empty())
            return "'" + item + "' is not an experiment (" + all + ")";
        return std::string();
      });
  umbra::check_stdout_at_exit("cores_bench");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  auto wanted = [&](const char* name) {
    return ("," + only_text + ",").find(std::string(",") + name + ",") != std::string::npos;
  };

  try {
    const std::vector<unsigned> counts = parse_list(cores_text);
    Config base = config_file.empty() ? Config{} : umbra::load_config(config_file);
    if (base.mem_model != "dram")
      throw std::runtime_error("cores_bench measures the DRAM: memory.model dram");
    umbra::bench::describe(base);
    const double peak = 2.0 * base.dram_bus_bytes;
    umbra::bench::check_output_paths({{"the configuration", config_file}}, {{"--csv", csv_path}});
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(csv_path,
                              {"experiment", "cores", "mode", "cycles", "value", "predicted", "unit"});

    // compute: mandelbrot's IPC per core.
    const std::string examples = std::string(UMBRA_SOURCE_DIR) + "/examples";
    const std::string mandelbrot = examples + "/mandelbrot.s";
    std::stringstream src;
    src << file_text(mandelbrot);
    if (wanted("compute"))
      std::printf("\ncompute (examples/mandelbrot.s, %u threads a core): IPC per core\n", base.threads);
    if (wanted("compute"))
      std::printf("%6s %10s %10s %10s %12s\n", "cores", "cycles", "IPC", "per core", "vs 1 core");
    double one = 0;
    for (unsigned n : wanted("compute") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      const Program p = umbra::bench::assemble(src.str(), cfg, "mandelbrot.s", examples);
      const Measured m = run(p, cfg);
      double per_core = 0;
      for (unsigned c = 0; c < n; ++c) per_core += m.run.stats.core_ipc(c) / n;
      if (n == 1) one = per_core;
      std::printf("%6u %10llu %10.3f %10.3f %12s\n", n, static_cast<unsigned long long>(m.run.cycles),
                  m.run.stats.ipc(), per_core,
                  one > 0 ? std::to_string(per_core / one).substr(0, 5).c_str() : "-");
      csv.row("compute", n, "reorder", m.run.cycles, per_core, one > 0 ? one : per_core, "ipc_per_core");
    }

    // read and write streams, both queue modes.
    // A burst moves at most burst * bus_bytes in burst/2 cycles; a line that fits is one
    // burst (dram.h), so a line a burst is line_bytes / (burst/2) B/cycle at most.
    const double burst_cycles = double((base.dram_burst + 1) / 2);
    const double line_rate = std::min(peak, base.cache_line_bytes / burst_cycles);
    // Word port: one response beat (4 B) a cycle; a word store a burst.  Line port: a
    // line a burst both ways.
    const double read_ceiling = base.cache_line_port ? line_rate : std::min(4.0, line_rate);
    const double write_ceiling = base.cache_line_port ? line_rate : 4.0 / burst_cycles;
    const unsigned unroll = std::max(1u, std::min(words, base.cache_line_bytes / 4));
    words = words / unroll * unroll;
    for (const bool reads : {true, false}) {
      if (!wanted(reads ? "read" : "write")) continue;
      std::printf(
          "\n%s stream (%s; each work item %u %s): DRAM bytes a cycle, %% of the %.0f B/cycle peak\n",
          reads ? "read" : "write", layout.c_str(), reads ? lines : words,
          reads
              ? "lines, one load a line"
              : (std::string("words, one store a word, ") + std::to_string(unroll) + " an iteration").c_str(),
          peak);
      std::printf("%6s %10s %10s %8s %10s %8s %10s %9s %8s\n", "cores", "reorder", "B/cycle", "%peak", "fcfs",
                  "B/cycle", "predicted", "reord/fcfs", "B/req");
      double first = 0;
      for (unsigned n : counts) {
        double bw[2] = {0, 0}, per_req = 0;
        uint64_t cyc[2] = {0, 0};
        for (const bool fcfs : {false, true}) {
          Config cfg = base;
          cfg.cores = n;
          cfg.queue_mode = fcfs ? "fcfs" : "reorder";
          const bool il = layout == "interleaved";
          const std::string text = reads ? stream(cfg, "ldw     r5", lines, cfg.cache_line_bytes, 1, il)
                                         : stream(cfg, "stw     r1", words, 4, unroll, il);
          const Measured m = run(umbra::bench::assemble(text, cfg, "stream.s"), cfg);
          cyc[fcfs] = m.span;
          bw[fcfs] = double(m.run.mem.dram_bytes) / double(m.span);
          if (!fcfs)
            per_req = double(m.run.mem.dram_bytes) / double(std::max<uint64_t>(1, m.run.mem.dram_requests));
        }
        if (n == 1) first = bw[0];
        const double ceiling = reads ? read_ceiling : write_ceiling;
        const double predicted = first > 0 ? std::min(first * n, ceiling) : ceiling;
        std::printf("%6u %10llu %10.3f %7.1f%% %10llu %8.3f %10.3f %9.2f %8.1f\n", n,
                    static_cast<unsigned long long>(cyc[0]), bw[0], 100 * bw[0] / peak,
                    static_cast<unsigned long long>(cyc[1]), bw[1], predicted, bw[0] / bw[1], per_req);
        csv.row(reads ? "read" : "write", n, "reorder", cyc[0], bw[0], predicted, "bytes_per_cycle");
        csv.row(reads ? "read" : "write", n, "fcfs", cyc[1], bw[1], predicted, "bytes_per_cycle");
      }
    }

    // atomics on one word from every thread of every core.
    if (wanted("atomics")) {
      std::printf(
          "\natomics (every thread of every core, %u atom.add each, on one word): cycles per atomic\n",
          atomic_count);
      std::printf("%6s %10s %10s %10s %10s\n", "cores", "atomics", "cycles", "per atomic", "predicted");
    }
    int failures = 0;
    for (unsigned n : wanted("atomics") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      const Program p = umbra::bench::assemble(atomics(atomic_count), cfg, "atomics.s");
      const Measured m = run(p, cfg);
      const uint64_t total = uint64_t(n) * cfg.threads * atomic_count;
      uint32_t sum = 0;
      for (const auto& s : p.symbols)
        if (s.name == "sum") sum = umbra::bench::word(m.run.memory, s.value);
      if (sum != total) {
        std::fprintf(stderr, "cores_bench: %u cores: the word holds %u, not %llu: an atomic was lost\n", n,
                     sum, static_cast<unsigned long long>(total));
        ++failures;
      }
      const double per = double(m.span) / double(total);
      std::printf("%6u %10llu %10llu %10.2f %10u\n", n, static_cast<unsigned long long>(total),
                  static_cast<unsigned long long>(m.span), per, cfg.dram_burst);
      csv.row("atomics", n, "reorder", m.span, per, cfg.dram_burst, "cycles_per_atomic");
    }
    // domain: mandelbrot2d's 96x72 work items.
    const std::string mandelbrot2d = examples + "/mandelbrot2d.s";
    const std::string text2d = file_text(mandelbrot2d);
    if (wanted("domain")) {
      std::printf(
          "\ndomain (examples/mandelbrot2d.s, a 96x72 domain launch, %u threads a core): IPC per core\n",
          base.threads);
      std::printf("%6s %10s %10s %10s %12s\n", "cores", "cycles", "IPC", "per core", "vs 1 core");
    }
    double one2d = 0;
    for (unsigned n : wanted("domain") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      const Measured m = run(umbra::bench::assemble(text2d, cfg, "mandelbrot2d.s", examples), cfg, {96, 72});
      double per_core = 0;
      for (unsigned c = 0; c < n; ++c) per_core += m.run.stats.core_ipc(c) / n;
      if (n == 1) one2d = per_core;
      std::printf("%6u %10llu %10.3f %10.3f %12s\n", n, static_cast<unsigned long long>(m.run.cycles),
                  m.run.stats.ipc(), per_core,
                  one2d > 0 ? std::to_string(per_core / one2d).substr(0, 5).c_str() : "-");
      csv.row("domain", n, "reorder", m.run.cycles, per_core, one2d > 0 ? one2d : per_core, "ipc_per_core");
    }

    // occupancy: a short kernel over a large domain.
    if (wanted("occupancy")) {
      const auto extent = *umbra::parse_extent(occupancy_text, 65536);
      const umbra::Domain d{uint32_t(extent.first), uint32_t(extent.second)};
      Config cfg = base;
      cfg.cores = occupancy_cores;
      std::string grid = kGrid;
      grid.replace(grid.find("MASK"), 4, std::to_string((cfg.mem_bytes - 1) & ~3u));
      const Measured m = run(umbra::bench::assemble(grid, cfg, "grid.s"), cfg, d);
      const double slots = double(m.run.cycles) * cfg.cores * cfg.threads;
      const double issuing = double(m.run.stats.total_issued()) * cfg.threads / slots;
      std::printf("\noccupancy (a %.0f-instruction kernel over %ux%u work items, %u cores x %u threads)\n",
                  double(m.run.stats.total_issued()) / double(d.items()), d.w, d.h, cfg.cores, cfg.threads);
      std::printf("  %llu cycles, %llu instructions: %.4f of the thread slots issue (IPC per core %.4f)\n",
                  static_cast<unsigned long long>(m.run.cycles),
                  static_cast<unsigned long long>(m.run.stats.total_issued()), issuing,
                  m.run.stats.ipc() / cfg.cores);
      csv.row("occupancy", cfg.cores, "reorder", m.run.cycles, issuing, 1.0, "slot_fraction");
    }

    // launch: an empty kernel over one work item.
    if (wanted("launch")) {
      std::printf("\nlaunch (`exit` over one work item): cycles\n");
      std::printf("%6s %22s %22s\n", "cores", "launch -> first issue", "exit issue -> idle");
    }
    for (unsigned n : wanted("launch") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      FirstAndLast fl;
      const Measured m = run(umbra::bench::assemble("        exit\n", cfg, "empty.s"), cfg, {1, 1}, &fl);
      const uint64_t start = fl.first - m.run.launch_cycle, stop = m.run.end_cycle - fl.last;
      std::printf("%6u %22llu %22llu\n", n, static_cast<unsigned long long>(start),
                  static_cast<unsigned long long>(stop));
      csv.row("launch_to_issue", n, "reorder", start, double(start), 2.0, "cycles");
      csv.row("exit_to_idle", n, "reorder", stop, double(stop), 5.0, "cycles");
    }
    // kernels: short and long kernels under the dispatcher, the Intel Gen study's
    // dispatch experiment.  A kernel of K independent addi and an exit over 32 items
    // a thread slot; IPC per core and, per item, the cycles a thread is not running it.
    if (wanted("kernels")) {
      std::printf("\nkernels (K addi + exit over 32 work items a thread slot): IPC per core\n");
      std::printf("%6s %6s %10s %10s %10s %22s\n", "cores", "K", "cycles", "per core", "predicted",
                  "start/stop per item");
    }
    for (unsigned n : wanted("kernels") ? counts : std::vector<unsigned>{}) {
      for (const unsigned k : {0u, 2u, 6u, 14u, 30u, 62u, 126u}) {
        Config cfg = base;
        cfg.cores = n;
        std::ostringstream text;
        for (unsigned i = 0; i < k; ++i)
          text << "        addi    r" << 1 + i % 8 << ", r" << 1 + i % 8 << ", 1\n";
        text << "        exit\n";
        const uint32_t items = 32 * n * cfg.threads;
        const Measured m = run(umbra::bench::assemble(text.str(), cfg, "kernel.s"), cfg, {items, 1});
        const double per_core = m.run.stats.ipc() / n;
        // A thread slot's cycles per item, less the K + 1 issues (one a round of T).
        const double stop_start =
            double(m.run.cycles) * n * cfg.threads / items - double(k + 1) * cfg.threads;
        const double predicted = kernel_ipc(k + 1, n);
        std::printf("%6u %6u %10llu %10.4f %10.4f %22.2f\n", n, k + 1,
                    static_cast<unsigned long long>(m.run.cycles), per_core, predicted, stop_start);
        csv.row("kernel_" + std::to_string(k + 1), n, "reorder", m.run.cycles, per_core, predicted,
                "ipc_per_core");
        csv.row("kernel_stop_start_" + std::to_string(k + 1), n, "reorder", m.run.cycles, stop_start, 0.0,
                "cycles_per_item");
      }
    }
    // doorbell: the empty kernel through a command buffer.
    if (wanted("doorbell")) {
      std::printf("\ndoorbell (`exit` over one work item through the command processor): cycles\n");
      std::printf("%6s %-24s %24s %20s\n", "cores", "buffer", "doorbell -> first issue",
                  "exit issue -> fence");
    }
    for (unsigned n : wanted("doorbell") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      const Program p = umbra::bench::assemble("        exit\n", cfg, "empty.s");
      for (const bool copy : {false, true}) {
        using umbra::commands::Opcode;
        constexpr uint32_t kText = 0x8000, kBuffer = 0x9000, kFence = 0xa000;
        std::vector<uint32_t> b;
        if (copy) b = {uint32_t(Opcode::Program), kText, uint32_t(p.text.size()), p.text_base};
        for (uint32_t w : {uint32_t(Opcode::Domain), 1u, 1u, uint32_t(Opcode::Run), p.entry,
                           uint32_t(Opcode::Fence), kFence, 1u, uint32_t(Opcode::End)})
          b.push_back(w);
        umbra::harness::RunOptions o;
        o.doorbell = {true, kBuffer};
        o.writes = {{kText, p.text}, {kBuffer, b}};
        IssueAndFence f;
        const RunResult r = umbra::harness::run_systemc(p, cfg, cfg.threads, 1'000'000, &f, o);
        if (r.status != RunResult::Status::Exited || !f.issued || !f.fenced)
          throw std::runtime_error("doorbell run on " + std::to_string(n) + " cores: " + r.message);
        const uint64_t start = f.first - r.launch_cycle, stop = f.fence - f.last;
        std::printf("%6u %-24s %24llu %20llu\n", n, copy ? "program domain run" : "domain run (resident)",
                    static_cast<unsigned long long>(start), static_cast<unsigned long long>(stop));
        csv.row(copy ? "doorbell_to_issue_program" : "doorbell_to_issue", n, "reorder", start, double(start),
                64.0, "cycles");
        csv.row(copy ? "exit_to_fence_program" : "exit_to_fence", n, "reorder", stop, double(stop), 32.0,
                "cycles");
      }
    }
    // counters: the command processor's counters after a run, read from memory.
    if (wanted("counters")) {
      std::printf("\ncounters (examples/mandelbrot2d.s, 32x24 work items, read back by `counters`)\n");
      std::printf("%6s %10s %12s   %s\n", "cores", "cycles", "busy cycles", "instructions per core");
    }
    uint32_t one_busy = 0;
    for (unsigned n : wanted("counters") ? counts : std::vector<unsigned>{}) {
      Config cfg = base;
      cfg.cores = n;
      using umbra::commands::Opcode;
      const Program p = umbra::bench::assemble(text2d, cfg, "mandelbrot2d.s", examples);
      constexpr uint32_t kBuffer = 0x70000, kCounters = 0x71000;
      const std::vector<uint32_t> b = {uint32_t(Opcode::CountersReset),
                                       uint32_t(Opcode::Domain),
                                       32,
                                       24,
                                       uint32_t(Opcode::Run),
                                       p.entry,
                                       uint32_t(Opcode::Counters),
                                       kCounters,
                                       uint32_t(Opcode::End)};
      umbra::harness::RunOptions o;
      o.doorbell = {true, kBuffer};
      o.writes = {{kBuffer, b}};
      const RunResult r = umbra::harness::run_systemc(p, cfg, cfg.threads, 200'000'000, nullptr, o);
      if (r.status != RunResult::Status::Exited)
        throw std::runtime_error("counters run on " + std::to_string(n) + " cores: " + r.message);
      const auto word = [&r](uint32_t a) {
        return uint32_t(r.memory[a]) | uint32_t(r.memory[a + 1]) << 8 | uint32_t(r.memory[a + 2]) << 16 |
               uint32_t(r.memory[a + 3]) << 24;
      };
      std::string per_core;
      uint64_t total = 0;
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t i = word(kCounters + 4 * (umbra::commands::kCounterFixedWords + c));
        total += i;
        per_core += (c ? " " : "") + std::to_string(i);
      }
      std::printf("%6u %10u %12u   %s\n", n, word(kCounters), word(kCounters + 4), per_core.c_str());
      if (total != r.stats.total_issued()) {
        std::printf("  WRONG: the counters add up to %llu instructions, the run issued %llu\n",
                    static_cast<unsigned long long>(total),
                    static_cast<unsigned long long>(r.stats.total_issued()));
        ++failures;
      }
      // Predicted: one core's busy cycles shared out (mandelbrot2d's cores share only
      // the memory, which it barely uses).
      if (n == 1) one_busy = word(kCounters + 4);
      csv.row("counters", n, "reorder", word(kCounters), word(kCounters + 4),
              one_busy > 0 ? double(one_busy) / n : double(word(kCounters + 4)), "busy_cycles");
      csv.row("counters_busy", n, "reorder", word(kCounters + 4), double(total) / word(kCounters + 4), 0.0,
              "instructions_per_busy_cycle");
    }
    csv.close();
    return failures ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cores_bench: %s\n", e.what());
    return 1;
  }
}
