// queue_bench: the memory reorder queue against FCFS (docs/memory-system.md, "The
// reorder queue"), after the design thread's row queues and the first-ready scheduling
// result it cites (about 1.4x over in-order).  The same request streams run through
// the queue model (ReorderQueueModel, systemc/reorder_queue.h) in front of the DRAM
// timing model (DramModel, testbench/dram.h) twice in one process — queue.mode fcfs,
// then reorder — and the bench prints, per stream and mode, the bandwidth (bytes the
// requests asked for per cycle, and as a fraction of the DRAM's peak of two bus
// transfers a cycle), the row-hit rate, the longest wait in the queue (cycles, and the
// most times a request was passed over against queue.max_passes), and the
// reorder/FCFS bandwidth ratio.
//
// The streams come from emulated shader threads of one core, shaped like the core's
// memory traffic without simulating its pipeline:
//   - a thread issues only in its barrel slot (cycle mod T);
//   - reads are line fills and a thread has at most one outstanding (a load sleeps its
//     thread until the fill's last beat); its next read issues in its first slot from
//     two cycles after that beat (the return buffer, then the wake at W);
//   - writes are word stores, fire-and-forget, so a writing thread issues one every
//     slot while the core's request FIFO (cache.request_queue) has room;
//   - an issued request enters that FIFO six cycles after its slot (X1, C1, C2) and
//     the FIFO's head moves to the queue when the queue is ready.
// Left out: the cache itself (every read here misses, every line is read once per
// pattern), instruction work between accesses, other cores.  The programs' own
// figures, cache included, are bench/latency_hiding and bench/access_patterns.
//
// Streams, each thread t (T threads), request i:
//   sequential     its own region (1 MiB apart, starting in bank t mod banks), line
//                  after line (reads) or word after word (writes)
//   strided        its own region, a stride of row_bytes + line_bytes: every access in
//                  another row of the next bank
//   random         uniformly random lines (reads) or words (writes) of 32 MiB, seeded
//   same-bank      bank 0, row t: every thread streams through its own row of one bank,
//                  the case that makes FCFS reopen a row for nearly every request
//   bank-4rows     bank 0, row t mod 4: the same with several threads sharing each row,
//                  taking turns along it (neighbouring threads, neighbouring lines)
//
// Then the same comparison on whole programs on the SystemC model of the system (core,
// data cache, request FIFO, reorder queue, DRAM model), queue.mode fcfs against
// reorder: every thread storing a stream of words to its own row of bank 0, and every
// thread loading lines of one of four rows of bank 0 (neighbouring threads,
// neighbouring lines).  Figures from the run's statistics (RunResult::mem): cycles,
// DRAM bytes per cycle, row-hit rate, longest wait in the queue.
//
// The exit status is non-zero only on a correctness failure: a read answered with the
// wrong data or beats, a store not in memory at the end, a request passed over more
// than queue.max_passes times, a stream that did not finish.  Never on a figure.
//
//   queue_bench [--config FILE] [--threads 8,32] [--reads N] [--writes N] [--seed S] [--json FILE] [--csv
//   FILE]
//
// --csv writes one row per stream and mode with the design's ceiling beside the
// bandwidth (bench/report.sh draws from it): a read stream can move at most one
// response beat (4 bytes) a cycle through the core's port; a write stream one word
// per burst/2 data-bus cycles of the DRAM (a word store holds the bus for a burst).
// And the DRAM's bound for the order the queue chose: the DRAM timing of dram.h over
// the requests in the order they were sent, as if each had been waiting when the
// DRAM could take it (umbra::scm::DramTiming, systemc/memory/dram.h); the stream can be no faster than the
// lower of the two.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "dram.h"
#include "dram_timing.h"
#include "reorder_queue.h"
#include "umbra/asm.h"
#include "umbra/cli_numbers.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/systemc_run.h"

namespace {

using umbra::Config;
using umbra::scm::DramModel;
using umbra::scm::DramParams;
using umbra::scm::QueueParams;
using umbra::scm::QueueRequest;
using umbra::scm::ReorderQueueModel;

constexpr uint32_t kMemBytes = 48u << 20;  // the thread regions (32 x 1 MiB) and the random span
constexpr uint32_t kRandomSpan = 32u << 20;
constexpr unsigned kIssueToFifo = 6;  // slot (F) to the end of C2
constexpr unsigned kWake = 2;         // last beat to the first cycle the thread may issue

enum class Kind { Read, Write };
enum class Stream { Sequential, Strided, Random, SameBank, SameBank4 };
const char* stream_name(Stream s) {
  switch (s) {
    case Stream::Sequential: return "sequential";
    case Stream::Strided: return "strided";
    case Stream::Random: return "random";
    case Stream::SameBank: return "same-bank";
    case Stream::SameBank4: return "bank-4rows";
  }
  return "?";
}

// The initial content of every word: a function of its address, so a read's beats
// can be checked without a copy of memory.
uint32_t initial(uint32_t addr) {
  return addr * 2654435761u ^ 0x5bd1e995u;
}

struct Setup {
  QueueParams q;
  DramParams d;
  unsigned fifo = 8;  // cache.request_queue
};

// Address of thread t's request i.
struct AddressGen {
  Stream s;
  Kind k;
  const Setup& st;
  std::vector<std::mt19937> rng;
  unsigned threads_;
  AddressGen(Stream s_, Kind k_, const Setup& st_, unsigned threads, unsigned seed)
      : s(s_), k(k_), st(st_), threads_(threads) {
    for (unsigned t = 0; t < threads; ++t) rng.emplace_back(seed * 1000003u + t);
  }
  uint32_t operator()(unsigned t, uint32_t i) {
    const uint32_t unit = k == Kind::Read ? st.q.line_bytes : 4;
    const uint32_t region = (1u << 20) * t + st.q.row_bytes * (t % st.q.banks);
    switch (s) {
      case Stream::Sequential: return region + i * unit;
      case Stream::Strided: return region + i * (st.q.row_bytes + st.q.line_bytes) % (1u << 20) / unit * unit;
      case Stream::Random: return uint32_t(rng[t]() % (kRandomSpan / unit)) * unit;
      case Stream::SameBank: {
        const uint32_t row_span = st.q.row_bytes * st.q.banks;
        return t * row_span + (i * unit) % st.q.row_bytes;
      }
      case Stream::SameBank4: {
        // Thread t in row t mod 4 of bank 0; the threads of a row take turns along it.
        const uint32_t row_span = st.q.row_bytes * st.q.banks;
        const uint32_t per_row = (threads_ + 3) / 4;
        return (t % 4) * row_span + ((t / 4 + i * per_row) * unit) % st.q.row_bytes;
      }
    }
    return 0;
  }
};

struct Result {
  uint64_t cycles = 0, bytes = 0;
  double row_hit_rate = 0, peak = 0;
  uint64_t longest_wait = 0;
  unsigned most_passes = 0;
  // The DRAM's cycles for the requests in the order the queue sent them, each as if it
  // had been waiting when the DRAM could take it (umbra::scm::DramTiming): the DRAM bound of
  // that order.
  uint64_t dram_cycles = 0;
  std::vector<std::string> errors;
  double bandwidth() const { return cycles ? double(bytes) / double(cycles) : 0; }
};

Result run(Stream s, Kind k, const Setup& base, bool reorder, unsigned threads, unsigned per_thread,
           unsigned seed) {
  Setup st = base;
  st.q.reorder = reorder;
  ReorderQueueModel queue(st.q);
  DramModel dram(st.d, kMemBytes);
  umbra::scm::DramTiming replay(st.d);
  const auto sent = [&](const QueueRequest& q) {
    replay.add(q.addr, umbra::bench::port_bus_cycles(q.op, st.d));
  };
  for (uint32_t a = 0; a < kMemBytes; a += 4) dram.poke32(a, initial(a));
  AddressGen gen(s, k, st, threads, seed);

  struct Thread {
    uint32_t issued = 0, done = 0;
    bool waiting = false;
    uint64_t ready_at = 0;
    uint32_t fill_addr = 0;
    unsigned beat = 0;
  };
  std::vector<Thread> th(threads);
  struct Pending {
    uint64_t at;
    QueueRequest r;
  };
  std::deque<Pending> fifo;  // the core's request FIFO, with each entry's arrival cycle
  std::vector<std::pair<uint32_t, uint32_t>> stores;
  Result res;
  const unsigned beats = st.q.line_bytes / 4;
  const uint64_t total = uint64_t(threads) * per_thread;
  uint64_t finished = 0;
  const uint64_t limit = 2000 + total * 400;
  uint64_t c = 0;
  for (; c < limit && finished < total; ++c) {
    // The thread of this slot issues its next request if it may.
    Thread& t = th[c % threads];
    const unsigned tid = unsigned(c % threads);
    if (t.issued < per_thread && !t.waiting && t.ready_at <= c && fifo.size() < st.fifo) {
      QueueRequest r;
      r.addr = gen(tid, t.issued);
      r.tag = tid;
      if (k == Kind::Read) {
        r.op = umbra::isa::kPortOpFill;
        t.waiting = true;
        t.fill_addr = r.addr;
        t.beat = 0;
      } else {
        r.op = umbra::isa::info(umbra::isa::Op::STW).opcode;
        r.data = (tid << 20) ^ t.issued ^ 0xa5000000u;
        stores.push_back({r.addr, r.data});
        ++finished;
      }
      ++t.issued;
      fifo.push_back({c + kIssueToFifo, r});
    }
    // The DRAM's response beats go back to the reading threads.
    if (dram.resp_valid()) {
      const uint32_t tag = dram.resp_tag();
      if (tag >= threads || !th[tag].waiting) {
        res.errors.push_back("a response beat for thread " + std::to_string(tag) + ", which waits for none");
      } else {
        Thread& r = th[tag];
        const uint32_t want = initial(r.fill_addr + 4 * r.beat);
        if (dram.resp_data() != want && res.errors.size() < 4)
          res.errors.push_back("thread " + std::to_string(tag) + " read the wrong word at " +
                               std::to_string(r.fill_addr + 4 * r.beat));
        if (++r.beat == beats) {
          r.waiting = false;
          r.ready_at = c + kWake;
          ++r.done;
          ++finished;
        }
      }
    }
    for (unsigned i = 0; i < queue.occupancy(); ++i)
      res.most_passes = std::max(res.most_passes, queue.passes(i));
    // One request from the FIFO's head into the queue; the queue's choice to the DRAM.
    const bool push = !fifo.empty() && fifo.front().at <= c && queue.req_ready();
    const QueueRequest head = push ? fifo.front().r : QueueRequest{};
    const bool send = queue.dram_valid() && dram.req_ready();
    const QueueRequest out = send ? queue.dram_req() : QueueRequest{};
    if (send) sent(out);
    queue.clock(push, head, dram.req_ready());
    dram.clock(send, out.op, out.addr, out.data, out.cmp, out.tag);
    if (push) fifo.pop_front();
    if (dram.first_fault().kind != umbra::Fault::None) {
      res.errors.push_back("the DRAM refused a request: " + dram.first_fault().detail);
      break;
    }
  }
  if (finished < total)
    res.errors.push_back("did not finish in " + std::to_string(limit) + " cycles (" +
                         std::to_string(finished) + " of " + std::to_string(total) + ")");
  // Writes: the last store to each word is in memory (a stream may revisit a word).
  if (k == Kind::Write && res.errors.empty()) {
    // Drain: the queue still holds stores accepted before the last slot.
    for (uint64_t n = 0; (queue.occupancy() > 0 || !fifo.empty()) && n < 100000; ++n, ++c) {
      const bool push = !fifo.empty() && queue.req_ready();
      const QueueRequest head = push ? fifo.front().r : QueueRequest{};
      const bool send = queue.dram_valid() && dram.req_ready();
      const QueueRequest out = send ? queue.dram_req() : QueueRequest{};
      if (send) sent(out);
      queue.clock(push, head, dram.req_ready());
      dram.clock(send, out.op, out.addr, out.data, out.cmp, out.tag);
      if (push) fifo.pop_front();
    }
    std::vector<std::pair<uint32_t, uint32_t>> last;
    for (size_t i = stores.size(); i-- > 0;) {
      if (std::none_of(last.begin(), last.end(), [&](auto& p) { return p.first == stores[i].first; }) &&
          last.size() < 4096)
        last.push_back(stores[i]);
    }
    for (const auto& [a, v] : last)
      if (dram.peek32(a) != v) {
        res.errors.push_back("the store to " + std::to_string(a) + " is not in memory");
        break;
      }
  }
  if (res.most_passes > st.q.max_passes)
    res.errors.push_back("a request was passed over " + std::to_string(res.most_passes) + " times, above " +
                         std::to_string(st.q.max_passes));
  const auto& ds = dram.stats();
  res.cycles = c;
  res.bytes = k == Kind::Read ? uint64_t(total) * st.q.line_bytes : uint64_t(total) * 4;
  const uint64_t acc = ds.row_hits + ds.row_misses + ds.row_conflicts;
  res.row_hit_rate = acc ? double(ds.row_hits) / double(acc) : 0;
  res.peak = dram.peak_bytes_per_cycle();
  res.longest_wait = queue.stats().longest_wait;
  res.dram_cycles = replay.bus_free();
  return res;
}

// Whole programs on the SystemC system.  ROWSPAN (row_bytes * banks) apart are rows of
// one bank; BASE is clear of the program's data.
const char* kStoreRows = R"(
        rdsr    r1, tid
        li      r2, ROWSPAN
        mul     r2, r2, r1
        li      r3, BASE
        add     r2, r2, r3              # row tid of bank 0
        li      r4, COUNT
loop:   stw     r4, 0(r2)
        addi    r2, r2, 4
        addi    r4, r4, -1
        bnz     r4, loop
        exit
)";
const char* kLoadRows = R"(
        rdsr    r1, tid
        andi    r5, r1, 3
        li      r2, ROWSPAN
        mul     r2, r2, r5
        li      r3, BASE
        add     r2, r2, r3              # row tid mod 4 of bank 0
        shri    r6, r1, 2
        shli    r6, r6, 5
        add     r2, r2, r6              # line tid / 4 of it
        rdsr    r7, domw
        shri    r7, r7, 2
        shli    r7, r7, 5               # the row's threads take turns along it
        li      r4, COUNT
loop:   ldw     r8, 0(r2)
        add     r9, r9, r8
        add     r2, r2, r7
        addi    r4, r4, -1
        bnz     r4, loop
        exit
)";

struct ProgramFigures {
  uint64_t cycles = 0, bytes = 0, longest_wait = 0;
  double row_hit_rate = 0;
};

ProgramFigures run_program(const char* body, const Config& base, bool reorder, unsigned count,
                           std::vector<std::string>& errors) {
  Config cfg = base;
  cfg.mem_model = "dram";
  cfg.queue_mode = reorder ? "reorder" : "fcfs";
  const uint32_t span = cfg.dram_row_bytes * cfg.dram_banks;
  const uint32_t kBase = 0x40000;
  if (kBase + uint64_t(span) * 4 > cfg.mem_bytes)
    throw std::invalid_argument("memory.bytes is too small for the program benchmarks");
  const std::string src = "ROWSPAN = " + std::to_string(span) + "\nBASE = " + std::to_string(kBase) +
                          "\nCOUNT = " + std::to_string(count) + "\n        .text\n" + body;
  umbra::as::Options o;
  o.registers = cfg.registers;
  const umbra::as::Result a = umbra::as::assemble_string(src, "queue_bench.s", o);
  if (!a.ok()) throw std::runtime_error("a program does not assemble: " + a.errors[0].render());
  const auto r = umbra::harness::run_systemc(a.program, cfg, cfg.threads, 50'000'000);
  if (r.status != umbra::RunResult::Status::Exited) errors.push_back(r.message);
  ProgramFigures f;
  f.cycles = r.cycles;
  f.bytes = r.mem.dram_bytes;
  f.longest_wait = r.mem.queue_longest_wait;
  const uint64_t acc = r.mem.row_hits + r.mem.row_misses + r.mem.row_conflicts;
  f.row_hit_rate = acc ? double(r.mem.row_hits) / double(acc) : 0;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"queue_bench: the reorder queue against FCFS on the same request streams"};
  std::string config_path, threads_text = "8,32", json_path;
  unsigned reads = 64, writes = 256, seed = 1;
  app.add_option("--config", config_path,
                 "machine configuration (configs/*.yaml); default: the built-in one");
  app.add_option("--threads", threads_text, "comma-separated thread counts (default 8,32)");
  umbra::add_number(app, "--reads", reads, "line reads per thread in a read stream (default 64)", 1, 100000);
  umbra::add_number(app, "--writes", writes, "word stores per thread in a write stream (default 256)", 1,
                    100000);
  umbra::add_number(app, "--seed", seed, "seed of the random streams (default 1)", 0, UINT32_MAX);
  app.add_option("--json", json_path, "also write the figures as JSON to this file");
  std::string csv_path;
  app.add_option(
      "--csv", csv_path,
      "also write the stream figures as CSV to this file (threads, kind, stream, mode, bytes per cycle, "
      "% of peak, the design's ceiling in % of peak, row-hit rate, longest wait, most passes, max_passes, "
      "the DRAM timing's bound in % of peak for the requests in the order the queue sent them)");
  umbra::check_stdout_at_exit("queue_bench");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);

  try {
    const Config cfg = config_path.empty() ? Config{} : umbra::load_config(config_path);
    Setup st;
    st.q = QueueParams::from(cfg);
    st.d = DramParams::from(cfg);
    st.fifo = cfg.cache_request_queue;
    const auto thread_counts = umbra::parse_number_list(threads_text, 1, 32);
    if (!thread_counts)
      throw std::invalid_argument("--threads: '" + threads_text +
                                  "' is not a comma-separated list of thread counts from 1 to 32");

    std::printf(
        "queue_bench: configuration '%s': queue depth %u, %u open rows, max_passes %u; DRAM %u banks of "
        "%u-byte rows, tRCD/tRP/CL %u/%u/%u, tRAS %u, %u-byte bus (peak %.0f bytes/cycle); "
        "request FIFO %u; seed %u\n",
        cfg.name.c_str(), st.q.depth, st.q.open_rows, st.q.max_passes, st.d.banks, st.d.row_bytes, st.d.tRCD,
        st.d.tRP, st.d.CL, st.d.tRAS, st.d.bus_bytes, 2.0 * st.d.bus_bytes, st.fifo, seed);
    std::printf("bandwidth: bytes the requests asked for (a fill %u, a store 4) per cycle; %% of peak\n\n",
                st.q.line_bytes);
    std::printf("%-7s %-5s %-11s | %-30s | %-30s | %s\n", "threads", "kind", "stream",
                "FCFS  B/cyc  %peak  hits  wait", "reorder B/cyc  %peak  hits  wait(passes)", "ratio");
    nlohmann::json j = nlohmann::json::array();
    umbra::bench::check_output_paths({{"the configuration", config_path}},
                                     {{"--csv", csv_path}, {"--json", json_path}});
    // Opened before the runs, so that a path that cannot be written costs nothing.
    umbra::OutputFile json_out;
    if (!json_path.empty()) json_out = umbra::OutputFile(json_path, "--json");
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(csv_path, {"threads", "kind", "stream", "mode", "bytes_per_cycle",
                                         "percent_of_peak", "ceiling_percent", "row_hit_rate", "longest_wait",
                                         "most_passes", "max_passes", "dram_bound_percent", "wait_bound"});
    bool ok = true;
    for (const uint64_t T : *thread_counts)
      for (Kind k : {Kind::Read, Kind::Write})
        for (Stream s :
             {Stream::Sequential, Stream::Strided, Stream::Random, Stream::SameBank, Stream::SameBank4}) {
          const unsigned n = k == Kind::Read ? reads : writes;
          const Result f = run(s, k, st, false, T, n, seed);
          const Result r = run(s, k, st, true, T, n, seed);
          const double ratio = f.bandwidth() > 0 ? r.bandwidth() / f.bandwidth() : 0;
          std::printf("%-7u %-5s %-11s | %5.2f %5.1f%% %4.0f%% %6" PRIu64 " | %5.2f %5.1f%% %4.0f%% %6" PRIu64
                      " (%2u)  | %5.2fx\n",
                      T, k == Kind::Read ? "read" : "write", stream_name(s), f.bandwidth(),
                      100 * f.bandwidth() / f.peak, 100 * f.row_hit_rate, f.longest_wait, r.bandwidth(),
                      100 * r.bandwidth() / r.peak, 100 * r.row_hit_rate, r.longest_wait, r.most_passes,
                      ratio);
          for (const Result* x : {&f, &r})
            for (const std::string& e : x->errors) {
              std::fprintf(stderr, "queue_bench: %u threads, %s %s, %s: %s\n", T,
                           k == Kind::Read ? "read" : "write", stream_name(s), x == &f ? "fcfs" : "reorder",
                           e.c_str());
              ok = false;
            }
          auto fig = [](const Result& x) {
            return nlohmann::json{{"cycles", x.cycles},
                                  {"bytes", x.bytes},
                                  {"bytes_per_cycle", x.bandwidth()},
                                  {"fraction_of_peak", x.bandwidth() / x.peak},
                                  {"row_hit_rate", x.row_hit_rate},
                                  {"longest_wait", x.longest_wait},
                                  {"most_passes", x.most_passes}};
          };
          // The design's ceiling: reads one 4-byte beat a cycle on the port; writes one
          // word per burst/2 data-bus cycles.
          const double ceiling = k == Kind::Read ? 4.0 : 4.0 / ((st.d.burst + 1) / 2);
          // The longest wait's bound: a request finds at most depth - 1 ahead of it and
          // (row-aware) is passed over at most max_passes times, and the DRAM takes a
          // command at least every `slot` cycles: a row conflict in one bank
          // (DramTiming: max(tRAS, tRCD) + tRP between activates), or the port's beats
          // of a line when the in-flight responses are full.
          const uint64_t slot =
              std::max<uint64_t>(std::max(st.d.tRAS, st.d.tRCD) + st.d.tRP, st.q.line_bytes / 4);
          for (const Result* x : {&f, &r})
            csv.row(T, k == Kind::Read ? "read" : "write", stream_name(s), x == &f ? "fcfs" : "reorder",
                    x->bandwidth(), 100 * x->bandwidth() / x->peak, 100 * ceiling / x->peak, x->row_hit_rate,
                    x->longest_wait, x->most_passes, st.q.max_passes,
                    100 * double(x->bytes) / double(std::max<uint64_t>(x->dram_cycles, 1)) / x->peak,
                    (st.q.depth + (x == &r ? st.q.max_passes : 0)) * slot);
          j.push_back({{"threads", T},
                       {"kind", k == Kind::Read ? "read" : "write"},
                       {"stream", stream_name(s)},
                       {"fcfs", fig(f)},
                       {"reorder", fig(r)},
                       {"ratio", ratio}});
        }
    std::printf(
        "\nwait: the longest a request stayed in the queue, in cycles; passes: the most times one was "
        "passed over (bound: queue.max_passes = %u)\n",
        st.q.max_passes);

    // Whole programs on the SystemC system, all T threads.
    std::printf("\nprograms on the SystemC system (%u threads, data cache, reorder queue, DRAM model):\n",
                cfg.threads);
    std::printf("%-32s | %-28s | %-28s | %s\n", "program", "FCFS  cycles  B/cyc hits wait",
                "reorder cycles B/cyc hits wait", "speed-up");
    const struct {
      const char* name;
      const char* body;
      unsigned count;
    } programs[] = {{"stores, own row of bank 0", kStoreRows, writes},
                    {"loads, 4 shared rows of bank 0", kLoadRows, reads}};
    for (const auto& pr : programs) {
      std::vector<std::string> errors;
      const ProgramFigures f = run_program(pr.body, cfg, false, pr.count, errors);
      const ProgramFigures r = run_program(pr.body, cfg, true, pr.count, errors);
      const double speedup = r.cycles ? double(f.cycles) / double(r.cycles) : 0;
      std::printf("%-32s | %8" PRIu64 " %6.2f %3.0f%% %5" PRIu64 " | %8" PRIu64 " %6.2f %3.0f%% %5" PRIu64
                  " | %5.2fx\n",
                  pr.name, f.cycles, f.cycles ? double(f.bytes) / double(f.cycles) : 0, 100 * f.row_hit_rate,
                  f.longest_wait, r.cycles, r.cycles ? double(r.bytes) / double(r.cycles) : 0,
                  100 * r.row_hit_rate, r.longest_wait, speedup);
      for (const std::string& e : errors) {
        std::fprintf(stderr, "queue_bench: %s: %s\n", pr.name, e.c_str());
        ok = false;
      }
      j.push_back({{"program", pr.name},
                   {"fcfs",
                    {{"cycles", f.cycles},
                     {"bytes", f.bytes},
                     {"row_hit_rate", f.row_hit_rate},
                     {"longest_wait", f.longest_wait}}},
                   {"reorder",
                    {{"cycles", r.cycles},
                     {"bytes", r.bytes},
                     {"row_hit_rate", r.row_hit_rate},
                     {"longest_wait", r.longest_wait}}},
                   {"speedup", speedup}});
    }

    csv.close();
    if (json_out.is_open()) {
      json_out.stream()
          << nlohmann::json{{"config", cfg.name}, {"max_passes", st.q.max_passes}, {"results", j}}.dump(2)
          << "\n";
      json_out.close();
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "queue_bench: error: %s\n", e.what());
    return 1;
  }
}
