// kernels_bench: issue 35's kernels at the references' sizes, on the SystemC model,
// each beside the contract's prediction and each result checked word for word against
// its C++ reference (examples/reference.cpp), on the ISS as well as on SystemC.
//
//   sgemm      examples/sgemm.s, C = A * B of N x N matrices with 4x4 register blocks
//              (the data-parallel VM paper's 512 x 512), A and B generated here.
//              Flops 2 N^3; the peak is one fmadd a cycle a core, 2 flops.
//   fft        examples/fft.s, an N-point complex radix-2 FFT (the paper's 4K points),
//              the input generated here and the twiddle table computed here with
//              std::cos/std::sin rounded to binary32.  Flops counted the standard
//              way, 5 N log2 N, whatever the kernel issues.
//   flame      examples/flame.s (red.add into the histogram, one walk a work item of a
//              32-wide domain) against examples/flame_log.s (log, split by region,
//              bin by owner: no atomics; a thread launch of every context), the same
//              walks on the same machines: the flam3 study's proposal, measured.
//              flame_log's regions are as large as leaves every thread one to bin
//              (8 regions of 2048 cells on one core of 8 threads, 113 of 128 on eight
//              cores).
//              Both histograms must equal the reference's.
//
// The prediction is the contract's (docs/microarchitecture.md, "Threads and slots"):
// thread t issues in slot t of every round of T cycles whenever it is runnable, so
// without memory bubbles a run takes T cycles a round, as many rounds as the ISS (the
// same program with every load answered at once) needs: predicted cycles = ISS rounds
// x T.  The measured cycles above it are the memory's.  A run that fails or returns a
// wrong word makes the exit status non-zero; no figure does.
//
// Every run uses the configuration named with its memory raised to --mem-mib MiB (4
// by default: 512 x 512 needs three 1 MiB matrices, flame_log its logs), which changes
// no timing: the DRAM model maps addresses by bank and row alone.
//
// Without --sgemm, --fft or --flame it runs the defaults of all three (a few minutes);
// with any of them, only what is named.
//
//   kernels_bench [--sgemm N,...] [--fft N,...] [--flame WALKSxPOINTS,...]
//                 [--flame-configs LABEL,...] [--mem-mib N] [--csv-vm FILE]
//                 [--csv-flame FILE]
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.h"
#include "harness.h"
#include "reference.h"
#include "umbra/config.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

#ifndef UMBRA_SOURCE_DIR
#error "UMBRA_SOURCE_DIR must name the source tree (examples/*.s)"
#endif

namespace {

using umbra::Config;
using umbra::Program;
using Writes = std::vector<std::pair<uint32_t, std::vector<uint32_t>>>;

// One run of a kernel: what to load, how to launch, which words to check.
struct Job {
  std::string kernel;  // the example's name: its source and its reference
  Program program;
  Writes writes;
  uint32_t domain_w = 0, domain_h = 0;                // 0: a thread launch of every context
  std::vector<std::pair<uint32_t, uint32_t>> checks;  // address, words
};

struct Outcome {
  uint64_t cycles = 0, predicted = 0, instructions = 0, iss_instructions = 0, memory_bubbles = 0;
  uint64_t replays = 0, dram_requests = 0;
  uint64_t hits = 0;     // the flames: the histogram's total, every point plotted inside the image
  double dram_busy = 0;  // fraction of the DRAM's cycles its data bus was busy
};

Program assemble(const std::string& kernel, const Config& cfg) {
  umbra::as::Options o;
  o.apply(cfg);
  const std::string path = std::string(UMBRA_SOURCE_DIR) + "/examples/" + kernel + ".s";
  const umbra::as::Result r = umbra::as::assemble_file(path, o);
  if (!r.ok()) {
    std::string msg = path + " does not assemble:\n";
    for (const auto& d : r.errors) msg += d.render();
    throw std::runtime_error(msg);
  }
  return r.program;
}

uint32_t sym(const Program& p, const std::string& name) {
  const auto a = p.data_symbol(name);
  if (!a) throw std::runtime_error("the program has no data symbol '" + name + "'");
  return *a;
}

// The first 4 KiB boundary past the program's data: where generated arrays go.
uint32_t free_base(const Program& p, const Config& cfg) {
  return (cfg.data_base + uint32_t(p.data.size()) + 4095u) & ~4095u;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Deterministic inputs: multiples of 1/512 in [-2, 2), from a hash of the index (the
// flame's), so every run of a size multiplies the same matrices.
std::vector<uint32_t> floats(uint32_t n, uint32_t seed) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t h = (i + seed) * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    v[i] = bits(float(int32_t(h >> 22) - 512) / 256.0f);
  }
  return v;
}

unsigned log2_exact(uint32_t n, const char* what) {
  unsigned m = 0;
  while ((1u << m) < n) ++m;
  if ((1u << m) != n)
    throw std::runtime_error(std::string(what) + " " + std::to_string(n) + " is not a power of 2");
  return m;
}

Job sgemm_job(const Config& cfg, uint32_t n) {
  if (n == 0 || n % 4)
    throw std::runtime_error("--sgemm " + std::to_string(n) + ": N must be a positive multiple of 4");
  Job j{"sgemm", assemble("sgemm", cfg), {}, 0, 0, {}};
  const uint32_t words = n * n, a = free_base(j.program, cfg), b = a + 4 * words, c = b + 4 * words;
  if (uint64_t(c) + 4 * words > cfg.mem_bytes)
    throw std::runtime_error("--sgemm " + std::to_string(n) + ": three matrices do not fit --mem-mib");
  j.writes = {{sym(j.program, "dims"), {n, n, n}},
              {sym(j.program, "ptrs"), {a, b, c}},
              {a, floats(words, 1)},
              {b, floats(words, 1 + words)}};
  j.checks = {{c, words}};
  return j;
}

Job fft_job(const Config& cfg, uint32_t n) {
  const unsigned m = log2_exact(n, "--fft");
  Job j{"fft", assemble("fft", cfg), {}, 0, 0, {}};
  const uint32_t x = free_base(j.program, cfg), y = x + 8 * n, tw = y + 8 * n;
  std::vector<uint32_t> table;
  const double pi = std::acos(-1.0);
  for (uint32_t t = 0; t < n / 2; ++t) {
    const double angle = 2 * pi * double(t) / double(n);
    const float wr = float(std::cos(angle)), wi = float(-std::sin(angle));
    table.insert(table.end(), {bits(wr), bits(wi), bits(-wi)});
  }
  j.writes = {{sym(j.program, "params"), {m, x, y, tw}}, {x, floats(2 * n, 7)}, {tw, table}};
  j.checks = {{x, 2 * n}, {y, 2 * n}, {sym(j.program, "arrived"), 1}};
  return j;
}

// flame_log's regions: the fewest (the largest, 2^rshift cells) that still give every
// thread of the machine one to bin, so that no thread idles in the bin phase.
unsigned flame_rshift(const Config& cfg) {
  const uint32_t cells = 120 * 120, threads = cfg.threads * cfg.cores;
  unsigned r = 0;
  while (((cells - 1) >> (r + 1)) + 1 >= threads) ++r;
  return r;
}

Job flame_job(const Config& cfg, const std::string& kernel, uint32_t walks, uint32_t points) {
  Job j{kernel, assemble(kernel, cfg), {}, 0, 0, {}};
  j.writes = {{sym(j.program, "nwalk"), {walks, points}}};
  j.checks = {{sym(j.program, "hist"), 120 * 120}};
  if (kernel == "flame") {  // one walk a work item, as the demo launches it
    j.domain_w = 32;
    j.domain_h = (walks + 31) / 32;
  } else {
    j.writes.push_back({sym(j.program, "rshift"), {flame_rshift(cfg)}});
    j.checks.push_back({sym(j.program, "arrived"), 1});
  }
  return j;
}

// The reference's words for the job's checks.
std::vector<std::vector<uint32_t>> expected(const Job& j, const Config& cfg) {
  const umbra::examples::Reference* ref = umbra::examples::find_reference(j.kernel);
  if (!ref) throw std::logic_error("no reference for " + j.kernel);
  umbra::examples::Image img(j.program, j.domain_w ? 0 : cfg.threads * cfg.cores);
  for (const auto& [addr, words] : j.writes)
    for (size_t i = 0; i < words.size(); ++i) img.store(addr + 4 * uint32_t(i), words[i]);
  (*ref)(img);
  std::vector<std::vector<uint32_t>> out;
  for (const auto& [addr, words] : j.checks) {
    out.emplace_back(words);
    for (uint32_t i = 0; i < words; ++i) out.back()[i] = img.load(addr + 4 * i);
  }
  return out;
}

// Throws naming the model, the first differing word and how many differ.
void check(const std::string& what, const Job& j, const std::vector<std::vector<uint32_t>>& want,
           const std::vector<uint8_t>& memory) {
  uint64_t bad = 0;
  std::string first;
  for (size_t c = 0; c < j.checks.size(); ++c)
    for (uint32_t i = 0; i < j.checks[c].second; ++i) {
      const uint32_t a = j.checks[c].first + 4 * i;
      const uint32_t got = a + 4 <= memory.size() ? umbra::bench::word(memory, a) : ~want[c][i];
      if (got != want[c][i] && bad++ == 0) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "0x%08x is 0x%08x, the reference says 0x%08x", a, got, want[c][i]);
        first = buf;
      }
    }
  if (bad)
    throw std::runtime_error(what + ": " + j.kernel + ": " + std::to_string(bad) + " wrong words; " + first);
}

Outcome run(const Job& j, const Config& cfg, const std::string& label) {
  const auto want = expected(j, cfg);
  Outcome o;
  if (j.kernel.rfind("flame", 0) == 0)
    for (uint32_t v : want[0]) o.hits += v;
  // The ISS: the result once more, and the rounds a memory without latency needs.
  {
    umbra::iss::Simulator sim(cfg);
    sim.load(j.program, j.kernel);
    for (const auto& [addr, words] : j.writes)
      for (size_t i = 0; i < words.size(); ++i) sim.memory().store32(addr + 4 * uint32_t(i), words[i]);
    const uint64_t limit = uint64_t(1) << 40;
    const auto r = j.domain_w ? sim.run_domain(j.domain_w, j.domain_h, limit) : sim.run(cfg.threads, limit);
    if (!r.all_exited())
      throw std::runtime_error(label + ": " + j.kernel +
                               " on the ISS: " + (r.fault ? r.fault->message() : std::string("livelock")));
    check(label + " (ISS)", j, want, sim.memory().bytes());
    o.iss_instructions = r.retired;
    o.predicted = r.rounds * cfg.threads;
  }
  umbra::harness::RunOptions opts;
  opts.writes = j.writes;
  opts.domain = {j.domain_w, j.domain_h};
  const umbra::RunResult r =
      umbra::harness::run_systemc(j.program, cfg, cfg.threads, uint64_t(1) << 34, nullptr, opts);
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error(label + ": " + j.kernel + " on SystemC: " + r.message);
  check(label + " (SystemC)", j, want, r.memory);
  o.cycles = r.cycles;
  o.instructions = r.stats.total_issued();
  o.memory_bubbles = r.stats.total_bubbles(umbra::BubbleReason::Memory);
  o.replays = r.mem.replays;
  o.dram_requests = r.mem.dram_requests;
  o.dram_busy =
      r.mem.dram && r.mem.dram_cycles ? double(r.mem.bus_busy_cycles) / double(r.mem.dram_cycles) : 0;
  return o;
}

std::vector<uint32_t> numbers(const std::vector<std::string>& items, const char* option) {
  std::vector<uint32_t> v;
  for (const auto& s : items) {
    try {
      size_t used = 0;
      const unsigned long n = std::stoul(s, &used, 0);
      if (used != s.size() || n == 0 || n > 0xffffffffu) throw std::invalid_argument(s);
      v.push_back(uint32_t(n));
    } catch (const std::exception&) {
      throw std::runtime_error(std::string(option) + " '" + s + "': not a positive number");
    }
  }
  return v;
}

// The flame's machines: the demo's (docs/demos.md), each a configuration and a change.
struct Machine {
  const char* label;
  const char* config;  // configs/NAME.yaml
  const char* queue;   // "" keeps the configuration's queue.mode
};
const Machine kMachines[] = {
    {"1core", "default", ""},
    {"2cores", "test-cores2", ""},
    {"4cores", "test-cores4", ""},
    {"8cores", "test-cores8", ""},
    {"1core-fcfs", "default", "fcfs"},
    {"8cores-fcfs", "test-cores8", "fcfs"},
    {"1core-fixed", "fixed-memory", ""},
};

Config machine_config(const Machine& m, uint32_t mem_bytes) {
  Config cfg = umbra::load_config(std::string(UMBRA_SOURCE_DIR) + "/configs/" + m.config + ".yaml");
  if (*m.queue) cfg.queue_mode = m.queue;
  cfg.mem_bytes = mem_bytes;
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "issue 35's kernels (sgemm, fft, flame against flame_log) on the SystemC model, each checked "
      "against its reference, beside the contract's prediction"};
  std::vector<std::string> sgemm_sizes{"32", "64", "128"}, fft_sizes{"64", "256", "1024", "4096"};
  std::vector<std::string> flame_sizes{"128x128"}, flame_machines;
  unsigned mem_mib = 4;
  std::string csv_vm, csv_flame;
  app.add_option("--sgemm", sgemm_sizes, "matrix sizes N (N x N times N x N; multiples of 4)")
      ->delimiter(',');
  app.add_option("--fft", fft_sizes, "FFT sizes N (powers of 2)")->delimiter(',');
  app.add_option("--flame", flame_sizes, "flame runs, WALKSxPOINTS (walks of that many plotted points)")
      ->delimiter(',');
  std::string machine_help = "the flame's machines (default: all):";
  for (const Machine& m : kMachines) machine_help += std::string(" ") + m.label;
  app.add_option("--flame-configs", flame_machines, machine_help)->delimiter(',');
  app.add_option("--mem-mib", mem_mib, "data memory of every machine, MiB")->check(CLI::Range(1u, 4095u));
  app.add_option("--csv-vm", csv_vm, "write sgemm's and fft's rows as CSV (bench/report.sh)");
  app.add_option("--csv-flame", csv_flame, "write the flame's rows as CSV (bench/report.sh)");
  umbra::check_stdout_at_exit("kernels_bench");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  if (app.count("--sgemm") + app.count("--fft") + app.count("--flame") > 0) {
    if (!app.count("--sgemm")) sgemm_sizes.clear();
    if (!app.count("--fft")) fft_sizes.clear();
    if (!app.count("--flame")) flame_sizes.clear();
  }

  try {
    const uint64_t mem = uint64_t(mem_mib) << 20;
    std::vector<const Machine*> machines;
    for (const auto& name : flame_machines) {
      const Machine* found = nullptr;
      for (const Machine& m : kMachines)
        if (name == m.label) found = &m;
      if (!found) throw std::runtime_error("--flame-configs '" + name + "': no such machine (see --help)");
      machines.push_back(found);
    }
    if (machines.empty())
      for (const Machine& m : kMachines) machines.push_back(&m);
    std::vector<std::pair<uint32_t, uint32_t>> flames;
    for (const auto& s : flame_sizes) {
      const auto x = s.find('x');
      if (x == std::string::npos) throw std::runtime_error("--flame '" + s + "': not WALKSxPOINTS");
      const auto v = numbers({s.substr(0, x), s.substr(x + 1)}, "--flame");
      flames.emplace_back(v[0], v[1]);
    }
    const auto sg = numbers(sgemm_sizes, "--sgemm"), ff = numbers(fft_sizes, "--fft");
    for (uint32_t n : sg)
      if (n % 4) throw std::runtime_error("--sgemm " + std::to_string(n) + ": N must be a multiple of 4");
    for (uint32_t n : ff) log2_exact(n, "--fft");
    umbra::bench::check_output_paths({}, {{"--csv-vm", csv_vm}, {"--csv-flame", csv_flame}});

    const Config vm = machine_config(kMachines[0], uint32_t(mem));
    umbra::bench::describe(vm);
    std::printf("memory raised to %u MiB (--mem-mib); predicted = ISS rounds x T (no memory bubbles)\n\n",
                mem_mib);
    umbra::bench::Csv vcsv;
    if (!csv_vm.empty())
      vcsv = umbra::bench::Csv(csv_vm, {"kernel", "size", "T", "cycles", "predicted_cycles", "instructions",
                                        "iss_instructions", "memory_bubbles", "flops", "flops_per_cycle",
                                        "percent_of_peak", "predicted_percent_of_peak"});
    if (!sg.empty() || !ff.empty())
      std::printf("%-6s %6s %12s %12s %12s %10s %8s %8s\n", "kernel", "N", "cycles", "predicted",
                  "instructions", "flop/cyc", "%peak", "%pred");
    auto vm_row = [&](const char* kernel, uint32_t n, double flops, const Outcome& o) {
      const double fpc = flops / double(o.cycles), pct = 100 * fpc / 2,
                   pred = 100 * flops / double(o.predicted) / 2;
      std::printf("%-6s %6u %12llu %12llu %12llu %10.4f %8.2f %8.2f\n", kernel, n,
                  (unsigned long long)o.cycles, (unsigned long long)o.predicted,
                  (unsigned long long)o.instructions, fpc, pct, pred);
      std::fflush(stdout);
      vcsv.row(kernel, n, vm.threads, o.cycles, o.predicted, o.instructions, o.iss_instructions,
               o.memory_bubbles, uint64_t(flops), fpc, pct, pred);
    };
    for (uint32_t n : sg) vm_row("sgemm", n, 2.0 * n * n * n, run(sgemm_job(vm, n), vm, "sgemm"));
    for (uint32_t n : ff) vm_row("fft", n, 5.0 * n * log2_exact(n, "--fft"), run(fft_job(vm, n), vm, "fft"));
    vcsv.close();

    umbra::bench::Csv fcsv;
    if (!csv_flame.empty())
      fcsv = umbra::bench::Csv(csv_flame,
                               {"machine", "walks", "points", "kernel", "cores", "regions", "cycles",
                                "predicted_cycles", "instructions", "memory_bubbles", "replays", "hits",
                                "dram_requests_per_hit", "dram_busy_percent", "cycles_vs_atomics"});
    if (!flames.empty())
      std::printf("\n%-12s %10s %-9s %12s %12s %12s %9s %8s %8s\n", "machine", "walks", "kernel", "cycles",
                  "predicted", "instructions", "replays", "DRAM/hit", "vs red");
    for (const auto& [walks, points] : flames)
      for (const Machine* m : machines) {
        const Config cfg = machine_config(*m, uint32_t(mem));
        std::map<std::string, Outcome> got;
        for (const char* k : {"flame", "flame_log"}) {
          got[k] = run(flame_job(cfg, k, walks, points), cfg, m->label);
          const Outcome& o = got[k];
          const double vs = double(o.cycles) / double(got["flame"].cycles);
          std::printf("%-12s %6ux%-3u %-9s %12llu %12llu %12llu %9llu %8.2f %8.3f\n", m->label, walks, points,
                      k, (unsigned long long)o.cycles, (unsigned long long)o.predicted,
                      (unsigned long long)o.instructions, (unsigned long long)o.replays,
                      o.hits ? double(o.dram_requests) / double(o.hits) : 0.0, vs);
          std::fflush(stdout);
          const unsigned regions = std::string(k) == "flame" ? 0 : ((120 * 120 - 1) >> flame_rshift(cfg)) + 1;
          fcsv.row(m->label, walks, points, k, cfg.cores, regions, o.cycles, o.predicted, o.instructions,
                   o.memory_bubbles, o.replays, o.hits,
                   o.hits ? double(o.dram_requests) / double(o.hits) : 0.0, 100 * o.dram_busy, vs);
        }
      }
    fcsv.close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kernels_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
