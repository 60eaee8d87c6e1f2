// sim_speed: how fast each cycle model simulates, on the same program in one process
// run: every timing model of the registry (umbra/models.h) — the SystemC model, the
// Verilated RTL and the cosimulation (both in lockstep, compared event by event).
// Absolute rates on a shared machine move with the load, so the figure that means
// something is the ratio between models measured side by side;
// with --repeat N the models take turns N times (systemc, rtl, cosim, systemc, ...) so
// that a burst of load hits all of them, and the median of each is reported.
//
//   sim_speed [--program FILE.s] [--threads N] [--repeat N]     (default: mandelbrot, 8, 1)
//
// Each run is a forked child (the runners' default isolation), so all models pay the
// same process start-up; the rates count every simulated cycle from reset (the loading
// of the instruction store included), per wall-clock second and per CPU second.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/models.h"
#include "umbra/output_file.h"

#ifndef UMBRA_SOURCE_DIR
#define UMBRA_SOURCE_DIR "."
#endif

namespace {

struct Sample {
  uint64_t cycles = 0;  // simulated, from reset to the end of the run
  double wall = 0, cpu = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sim_speed: simulated cycles per second of the SystemC model, the RTL and the cosimulation"};
  std::string program = std::string(UMBRA_SOURCE_DIR) + "/examples/mandelbrot.s";
  unsigned threads = 8, repeat = 1;
  app.add_option("--program", program, "assembly program to run (default: examples/mandelbrot.s)");
  app.add_option("--threads", threads, "threads to launch (default 8)")->check(CLI::Range(1u, 8u));
  app.add_option("--repeat", repeat, "runs per model, taken in turns; the median is reported")
      ->check(CLI::Range(1u, 100u));
  umbra::check_stdout_at_exit("sim_speed");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);

  try {
    const umbra::Config cfg;  // the RTL is verilated for configs/default.yaml
    const umbra::as::Result asr = umbra::as::assemble_file(program);
    if (!asr.ok()) {
      for (const auto& d : asr.errors) std::fputs(d.render().c_str(), stderr);
      std::fprintf(stderr, "sim_speed: %s does not assemble\n", program.c_str());
      return 1;
    }
    const umbra::Program& p = asr.program;
    const uint64_t max_cycles = 1'000'000'000;
    // Every model of the registry with timing (systemc, rtl, cosim), the first the base.
    std::vector<const umbra::models::Model*> models;
    for (const umbra::models::Model& m : umbra::models::all())
      if (m.supports.cycles) models.push_back(&m);
    std::vector<std::vector<Sample>> samples(models.size());
    umbra::models::Job job;
    job.program = &p;
    job.source = program;
    job.threads = threads;
    job.max_cycles = max_cycles;
    for (unsigned rep = 0; rep < repeat; ++rep) {
      for (size_t m = 0; m < models.size(); ++m) {
        const char* name = models[m]->name.c_str();
        std::fprintf(stderr, "sim_speed: run %u/%u: %s...\n", rep + 1, repeat, name);
        const umbra::models::Result res = models[m]->run(cfg, job);
        if (!res.agreed) throw std::runtime_error(std::string(name) + " failed:\n" + res.summary);
        const umbra::RunResult& r = res.run;
        if (r.status != umbra::RunResult::Status::Exited)
          throw std::runtime_error(std::string(name) + " did not finish: " + r.message);
        samples[m].push_back({r.end_cycle + 1, r.wall_seconds, r.cpu_seconds});
      }
    }

    std::printf("sim_speed: %s, %u threads, configuration '%s' (T=%u), %u run%s per model (median)\n",
                program.c_str(), threads, cfg.name.c_str(), cfg.threads, repeat, repeat == 1 ? "" : "s");
    std::printf("%-8s %12s %9s %9s %14s %14s %12s %12s\n", "model", "cycles", "wall s", "cpu s", "cycles/s",
                "cycles/cpu-s", "vs systemc", "(cpu)");
    double base_wall = 0, base_cpu = 0;
    for (size_t m = 0; m < models.size(); ++m) {
      std::vector<double> wall, cpu;
      for (const Sample& s : samples[m]) {
        wall.push_back(s.wall);
        cpu.push_back(s.cpu);
      }
      const uint64_t cycles = samples[m][0].cycles;
      const double w = median(wall), c = median(cpu);
      const double rate = w > 0 ? double(cycles) / w : 0, crate = c > 0 ? double(cycles) / c : 0;
      if (m == 0) {
        base_wall = rate;
        base_cpu = crate;
      }
      std::printf("%-8s %12llu %9.2f %9.2f %14.0f %14.0f %11.2fx %11.2fx\n", models[m]->name.c_str(),
                  static_cast<unsigned long long>(cycles), w, c, rate, crate,
                  base_wall > 0 ? rate / base_wall : 0, base_cpu > 0 ? crate / base_cpu : 0);
    }
    std::printf(
        "(vs systemc: the model's rate divided by the SystemC model's, in the same run; "
        "below 1 is slower)\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sim_speed: error: %s\n", e.what());
    return 1;
  }
}
