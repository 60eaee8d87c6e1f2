// run_systemc (umbra/systemc_run.h): the bench of one SystemC system (system top, its
// memory, the host's script, stepped without the SystemC kernel) and the run itself.
// The checks, the status and the child-process transport are the harness's shared
// ones (bench.h, subprocess.h).
#include "umbra/systemc_run.h"

#include <systemc.h>

#include <chrono>
#include <ctime>
#include <memory>

#include "bench.h"
#include "subprocess.h"
#include "system_side.h"
#include "umbra/format.h"
#include "umbra_core.h"
#include "umbra_system.h"

namespace umbra::harness {

namespace {

// The bench of one run, without the SystemC kernel: the host's script and one
// SystemcSide (system_side.h).  Never destroyed: its modules are SystemC objects
// (elaborated never, but registered with the kernel's object tree).
struct Bench {
  harness::SystemcSide side;
  HostScript host;
  scm::umbra_system& sys = side.sys;
  harness::memory_side& memory = side.memory;

  Bench(const Config& cfg, unsigned core_id, HostScript::Job job, std::vector<HostWrite> writes,
        uint32_t ncore)
      : side("system", cfg, core_id, std::move(writes), ncore), host(std::move(job)) {}

  void run() {
    harness::run_alone(side, host, [] {});
  }
};

RunResult run_here(const Program& p, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                   EventSink* sink, const RunOptions& opts) {
  harness::claim_process();
  HostScript::Job job = harness::make_job(p, nthreads, max_cycles, opts.domain, opts.doorbell);
  static Bench* bench = nullptr;  // reachable for leak checkers; see Bench
  // A port protocol error loses a request; nothing after it would mean anything.
  job.stop = [sink] {
    return (bench && !harness::protocol_error(bench->sys).empty()) || (sink && sink->stop_requested());
  };
  try {
    bench =
        new Bench(cfg, opts.core_id, std::move(job), opts.host_writes, opts.ncores ? opts.ncores : cfg.cores);
  } catch (const scm::CoreConfigError& e) {
    throw RunError(e.what());
  } catch (const scm::QueueConfigError& e) {
    throw RunError(e.what());
  } catch (const std::invalid_argument& e) {
    throw RunError(e.what());
  }
  Bench& b = *bench;
  b.sys.set_event_sink(sink);
  harness::load_memory(b.memory, p, opts.writes);

  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  b.run();
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  b.sys.flush_events();

  RunResult r;
  r.wall_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.cpu_seconds = double(c1 - c0) / CLOCKS_PER_SEC;
  r.stats = harness::system_stats(b.sys);
  r.mem = memory_stats(b.sys, cfg.queue_enabled);
  b.memory.model().add_stats(r.mem);
  r.cycles = r.stats.cycles;
  harness::fill_status(
      r, b.host, b.memory, [&](RunResult& x) { harness::core_fault(x, b.sys); },
      harness::protocol_error(b.sys), max_cycles, harness::systemc_access(b.sys));
  if (opts.capture_registers) {
    r.registers.assign(size_t(nthreads) * b.sys.cores(), std::vector<uint32_t>(cfg.registers));
    for (unsigned c = 0; c < b.sys.cores(); ++c)
      for (unsigned t = 0; t < nthreads; ++t)
        for (unsigned reg = 0; reg < cfg.registers; ++reg)
          r.registers[size_t(c) * nthreads + t][reg] = b.sys.core(c).reg(t, reg);
  }
  return r;
}

}  // namespace

RunResult run_systemc(const Program& program, const Config& cfg, unsigned nthreads, uint64_t max_cycles,
                      EventSink* sink, const RunOptions& opts) {
  harness::validate(program, cfg, nthreads, max_cycles, opts.writes, opts.domain);
  if (opts.isolation == RunOptions::Isolation::InProcess)
    return run_here(program, cfg, nthreads, max_cycles, sink, opts);
  return harness::run_result_in_child(
      [&](EventSink* s) {
        RunOptions here = opts;
        here.isolation = RunOptions::Isolation::InProcess;
        return run_here(program, cfg, nthreads, max_cycles, s, here);
      },
      sink);
}

}  // namespace umbra::harness
