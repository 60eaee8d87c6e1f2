// issue_rate: the issue-rate experiments of the Intel Gen ISA microbenchmarks
// (reference/intel-gen-isa-microbenchmarks-2015.txt: adds writing 1..N registers in
// turn, the same read as dependent chains, the rate of each operation) and the
// divergent-branch experiments of the G80 study (reference/g80-behavior-crassin-
// neyret-2008.txt, E1.3/E1.4: neighbouring fragments on different long branches) on
// Umbra's SystemC model.  Every active thread runs, between two `rdsr clock` reads,
//
//     loop: BODY                32 instructions of the kind under test
//           addi r9, r9, -1
//           bnz  r9, loop       16 times
//
// and the bench prints a thread's cycles per instruction and the core's IPC:
//
//   reuse       BODY = OP r(16 + i mod N), r11, r12 for N registers cycled (OP add,
//               fadd): back-to-back writes to one register against N apart
//   chains      every OP of the list as a dependent chain (OP r10, r10, r11: each
//               reads the previous result; fmadd, which reads rd, as fmadd r10, r11,
//               r12) and as independent instructions (OP r(16 + i mod 16), r11, r12)
//   threads     add and fmadd, dependent and independent, at 1..T active threads
//   divergence  thread t jumps (jalr, through a table of equal paths) to path t mod W
//               each iteration, a 32-instruction dependent chain of a different
//               operation per path, W = 1 (all on one branch), 2, 4, 8 (a table
//               rather than compares and branches, so that every thread issues the
//               same instructions whatever its path, and a difference is the branch's)
//
// The contract (docs/microarchitecture.md, "The pipeline" and "Threads and slots")
// predicts the same figure for all of them: T >= the pipeline's depth, so a thread's
// next instruction is fetched after its previous one has written back, with no
// forwarding, interlock or scoreboard to wait for; each thread owns one slot in T and
// has its own pc.  A thread therefore issues one instruction every T cycles whatever
// the operation, the register it writes or reads, the branch it takes and the number
// of threads active, and the core's IPC is (active threads) / T.  The bench measures
// from the program's own clock reads, not from statistics; it exits non-zero when a
// run fails or a thread's registers differ from the reference simulator's (the ISS,
// which has no timing), never on a timing.  `--csv FILE` writes every point with its
// prediction for bench/report.sh.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_common.h"
#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/isa.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace {

namespace harness = umbra::harness;
using umbra::Config;
using umbra::bench::word;

constexpr unsigned kBody = 32;  // instructions under test per iteration
constexpr unsigned kIterations = 16;
constexpr unsigned kLoop = 2;  // addi, bnz
// The independent form's destinations: r16 .. r16 + kSpread - 1.
constexpr unsigned kFirstDest = 16, kSpread = 16;

const std::vector<std::string> kAllOps{"add",  "mul",  "fadd", "fsub", "fmul", "fmadd", "fmin",
                                       "fmax", "fseq", "fslt", "fsle", "itof", "ftoi"};
// One operation per divergent path: neighbouring threads run different instructions
// (those the configuration implements, in this order).
const char* const kPathOps[] = {"fmadd", "fmul", "add", "xor", "fadd", "mul", "sub", "fsub"};

const umbra::isa::InstrInfo& op_info(const std::string& op) {
  const umbra::isa::InstrInfo* in = umbra::isa::find_name(op);
  if (!in) throw std::runtime_error("'" + op + "' is not an instruction of isa/isa.yaml");
  // Register operands only, rd written: OP rd, ra[, rb].
  bool ok = in->writes_a && in->num_operands >= 2 && !in->memory && !in->cond_branch;
  for (unsigned i = 0; ok && i < in->num_operands; ++i)
    ok = std::string(umbra::isa::kind_info(in->operands[i].kind).name) == "reg";
  if (!ok)
    throw std::runtime_error("'" + op + "' is not a register-to-register instruction (OP rd, ra[, rb])");
  return *in;
}

// OP rd, ra[, rb].
std::string instr(const std::string& op, unsigned rd, unsigned ra, unsigned rb) {
  const umbra::isa::InstrInfo& in = op_info(op);
  std::string s = op + " r" + std::to_string(rd) + ", r" + std::to_string(ra);
  if (in.num_operands == 3) s += ", r" + std::to_string(rb);
  return s;
}

// The dependent form reads the previous instruction's result: through ra, or through
// rd for an instruction that reads it (fmadd), whose ra and rb then stay constants.
std::string dependent(const std::string& op) {
  return op_info(op).reads_a ? instr(op, 10, 11, 12) : instr(op, 10, 10, 11);
}

struct Point {
  double thread_cpi = 0;  // cycles per instruction of a thread, mean over the active threads
  double core_ipc = 0;    // the sum over the active threads of their instructions per cycle
  double lost_slots = 0;  // issue slots per thread in the loop that issued nothing
  double iteration_cycles = 0;
};

// Registers that hold clock reads (r2, r3): the ISS counts slots, not cycles.
bool clock_register(unsigned r) {
  return r == 2 || r == 3;
}

// The program: setup, the clock read, the loop of `body` lines (or `paths`, each
// `body` long, entered through the jump table), the timed end.  The result register
// r10 is stored for each thread; the registers are compared with the ISS's.
std::string program_text(const std::vector<std::string>& body, unsigned ways, const Config& cfg) {
  std::string s;
  auto line = [&s](const std::string& l) { s += "        " + l + "\n"; };
  s += "        .text\n_start:\n";
  line("rdsr r1, tid");
  line("li r10, 0x3fc00000");  // 1.5, 1.0, 0.5: the chains stay finite
  line("li r11, 0x3f800000");
  line("li r12, 0x3f000000");
  for (unsigned r = kFirstDest; r < kFirstDest + kSpread; ++r) line("mov r" + std::to_string(r) + ", r10");
  if (ways) {
    // Thread t's path: path0 + (t mod W) * (its length in bytes).
    line("andi r15, r1, " + std::to_string(ways - 1));
    line("li r14, " + std::to_string(4 * (kBody + 1)));
    line("mul r15, r15, r14");
    line("la r13, path0");
    line("add r13, r13, r15");
  }
  line("li r9, " + std::to_string(kIterations));
  line("rdsr r2, clock");
  s += "loop:\n";
  if (ways) {
    line("jalr r0, r13");
    std::vector<std::string> path_ops;
    for (const char* op : kPathOps)
      if (cfg.has(op_info(op))) path_ops.push_back(op);
    for (unsigned p = 0; p < ways; ++p) {
      s += "path" + std::to_string(p) + ":\n";
      for (unsigned i = 0; i < kBody; ++i) line(dependent(path_ops[p % path_ops.size()]));
      line("j join");
    }
    s += "join:\n";
  } else {
    for (const std::string& l : body) line(l);
  }
  line("addi r9, r9, -1");
  line("bnz r9, loop");
  return s + umbra::bench::timed_loop_end("r10", cfg.threads);
}

// Instructions a thread issues per iteration.
unsigned per_iteration(unsigned ways) {
  return ways ? 1 + kBody + 1 + kLoop : kBody + kLoop;
}

Point measure(const std::vector<std::string>& body, unsigned ways, unsigned active, const Config& cfg,
              const std::string& where) {
  const umbra::Program p = umbra::bench::assemble(program_text(body, ways, cfg), cfg, "issue_rate.s");
  harness::RunOptions opts;
  opts.capture_registers = true;
  const umbra::RunResult r = harness::run_systemc(p, cfg, active, 1000000, nullptr, opts);
  if (r.status != umbra::RunResult::Status::Exited)
    throw std::runtime_error(where + ": the run did not exit: " + r.message);
  umbra::iss::Simulator iss(cfg);
  iss.load(p, "issue_rate.s");
  const umbra::iss::IssResult ref = iss.run(active, 10000000);
  if (!ref.all_exited()) throw std::runtime_error(where + ": the reference simulator's run did not exit");
  for (unsigned t = 0; t < active; ++t)
    for (unsigned reg = 0; reg < cfg.registers; ++reg)
      if (!clock_register(reg) && r.registers.at(t).at(reg) != ref.threads.at(t).state.r[reg])
        throw std::runtime_error(where + ": thread " + std::to_string(t) + " ends with r" +
                                 std::to_string(reg) + " = " + std::to_string(r.registers[t][reg]) +
                                 ", the reference simulator with " +
                                 std::to_string(ref.threads[t].state.r[reg]));
  const uint32_t out = *p.symbol("out");
  const unsigned T = cfg.threads;
  const double M = double(kIterations) * per_iteration(ways);
  Point pt;
  for (unsigned t = 0; t < active; ++t) {
    const uint32_t d = word(r.memory, out + 16 * t + 4) - word(r.memory, out + 16 * t);
    // Between the reads: the first read's slot, then M instructions and any lost slots.
    pt.thread_cpi += double(d - T) / M;
    pt.core_ipc += M / double(d - T);
    pt.lost_slots += double(d) / T - 1 - M;
    pt.iteration_cycles += double(d - T) / kIterations;
  }
  pt.thread_cpi /= active;
  pt.lost_slots /= active;
  pt.iteration_cycles /= active;
  return pt;
}

struct Runner {
  const Config& cfg;
  umbra::bench::Csv& csv;

  void point(const char* experiment, const std::string& op, const char* form, unsigned regs, unsigned ways,
             unsigned active, const std::vector<std::string>& body) {
    const std::string where = std::string(experiment) + " " + op + " " + form + ", " +
                              std::to_string(active) + " threads, configuration '" + cfg.name + "'";
    const Point p = measure(body, ways, active, cfg, where);
    const unsigned T = cfg.threads;
    // A warp of T threads that ran its W paths one after the other: the paths' length
    // W times over (the G80's behaviour, for contrast; not Umbra's prediction).
    const double simd = ways ? double(per_iteration(ways) + (ways - 1) * (kBody + 1)) * T : 0;
    csv.row(experiment, op, form, regs, ways, active, T, cfg.execute_stages, per_iteration(ways),
            p.thread_cpi, double(T), p.core_ipc, double(active) / T, p.lost_slots, p.iteration_cycles,
            double(per_iteration(ways)) * T, simd);
    std::printf("%-10s %-6s %-11s %4u %4u %4u | %8.3f %8.3f | %7.4f %7.4f | %6.2f | %9.1f %9.1f\n",
                experiment, op.c_str(), form, regs, ways, active, p.thread_cpi, double(T), p.core_ipc,
                double(active) / T, p.lost_slots, p.iteration_cycles, double(per_iteration(ways)) * T);
  }

  std::vector<std::string> reuse_body(const std::string& op, unsigned n) {
    std::vector<std::string> b;
    for (unsigned i = 0; i < kBody; ++i) b.push_back(instr(op, kFirstDest + i % n, 11, 12));
    return b;
  }
  std::vector<std::string> chain_body(const std::string& op, bool dep) {
    std::vector<std::string> b;
    for (unsigned i = 0; i < kBody; ++i)
      b.push_back(dep ? dependent(op) : instr(op, kFirstDest + i % kSpread, 11, 12));
    return b;
  }
};

bool implemented(const std::string& op, const Config& cfg) {
  return cfg.has(op_info(op));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "issue_rate: a thread's issue rate against register reuse, dependences, operations, active threads "
      "and divergent branches, on the SystemC model"};
  std::string config_path, csv_path;
  std::vector<std::string> experiments{"reuse", "chains", "threads", "divergence"};
  std::vector<std::string> ops = kAllOps;
  std::vector<unsigned> regs{1, 2, 3, 4, 6, 8, 12, 16};
  std::vector<unsigned> active;
  std::vector<unsigned> ways{1, 2, 4, 8};
  app.add_option("--config", config_path, "machine configuration (YAML); default: the built-in default");
  app.add_option("--experiments", experiments, "experiments to run (reuse, chains, threads, divergence)")
      ->check(CLI::IsMember({"reuse", "chains", "threads", "divergence"}));
  app.add_option("--ops", ops, "operations of the chains experiment (register-to-register instructions)");
  app.add_option("--regs", regs, "destination registers cycled in the reuse experiment (1..16)")
      ->check(CLI::Range(1u, kSpread));
  app.add_option("--active", active, "active thread counts of the threads experiment (default 1..T)")
      ->check(CLI::Range(1u, 256u));
  app.add_option("--ways", ways, "paths of the divergence experiment (powers of two, 1..8, at most T)")
      ->check(CLI::Range(1u, unsigned(std::size(kPathOps))));
  app.add_option(
      "--csv", csv_path,
      "also write every point to this CSV file (experiment, op, form, registers cycled, paths, active, "
      "T, L, instructions per iteration, a thread's cycles per instruction and the contract's T, the "
      "core's IPC and the contract's active/T, lost slots, cycles per iteration, predicted and as a "
      "SIMD warp would take them)");
  umbra::check_stdout_at_exit("issue_rate");  // every printed table, and --help
  CLI11_PARSE(app, argc, argv);
  try {
    Config cfg;
    if (!config_path.empty()) cfg = umbra::load_config(config_path);
    const unsigned T = cfg.threads;
    if (active.empty())
      for (unsigned a = 1; a <= T; ++a) active.push_back(a);
    for (unsigned a : active)
      if (a > T)
        throw std::runtime_error("--active " + std::to_string(a) + ": the configuration has " +
                                 std::to_string(T) + " threads");
    for (unsigned w : ways)
      if (w & (w - 1))
        throw std::runtime_error("--ways " + std::to_string(w) +
                                 ": not a power of two (a thread's path is its "
                                 "number masked)");
    for (unsigned w : ways)
      if (w > T)
        throw std::runtime_error("--ways " + std::to_string(w) + ": more paths than the configuration's " +
                                 std::to_string(T) + " threads");
    if (cfg.registers < kFirstDest + kSpread)
      throw std::runtime_error("the configuration has " + std::to_string(cfg.registers) +
                               " registers; the bench "
                               "uses r0..r" +
                               std::to_string(kFirstDest + kSpread - 1));
    for (const std::string& op : ops) op_info(op);  // a bad name fails before anything runs
    umbra::bench::check_output_paths({{"the configuration", config_path}}, {{"--csv", csv_path}});
    umbra::bench::Csv csv;
    if (!csv_path.empty())
      csv = umbra::bench::Csv(csv_path,
                              {"experiment", "op", "form", "regs", "ways", "active", "T", "L", "instructions",
                               "thread_cpi", "predicted_cpi", "core_ipc", "predicted_core_ipc", "lost_slots",
                               "iteration_cycles", "predicted_iteration_cycles", "simd_iteration_cycles"});
    std::printf(
        "issue_rate: after the issue tests of reference/intel-gen-isa-microbenchmarks-2015.txt and E1.3/E1.4 "
        "of\nreference/g80-behavior-crassin-neyret-2008.txt; %u iterations of %u instructions under test "
        "per thread\n",
        kIterations, kBody);
    std::printf("configuration '%s': T = %u threads, L = %u execute stages (pipeline depth %u)\n",
                cfg.name.c_str(), T, cfg.execute_stages, cfg.pipeline_depth());
    std::printf(
        "contract: a thread issues once every T cycles whatever it runs (T >= the depth: no interlock, "
        "no forwarding);\n  the core's IPC = active / T; a divergent branch costs nothing (every thread "
        "its own pc)\n\n");
    std::printf("%-10s %-6s %-11s %4s %4s %4s | %8s %8s | %7s %7s | %6s | %9s %9s\n", "experiment", "op",
                "form", "regs", "ways", "thr", "cyc/inst", "pred", "IPC", "pred", "lost", "cyc/iter", "pred");
    Runner run{cfg, csv};
    const auto want = [&](const char* e) {
      return std::find(experiments.begin(), experiments.end(), e) != experiments.end();
    };
    if (want("reuse"))
      for (const char* op : {"add", "fadd"})
        if (implemented(op, cfg))
          for (unsigned n : regs) run.point("reuse", op, "independent", n, 0, T, run.reuse_body(op, n));
    if (want("chains"))
      for (const std::string& op : ops)
        if (implemented(op, cfg))
          for (bool dep : {true, false})
            run.point("chains", op, dep ? "dependent" : "independent", dep ? 1 : kSpread, 0, T,
                      run.chain_body(op, dep));
    if (want("threads"))
      for (const char* op : {"add", "fmadd"})
        if (implemented(op, cfg))
          for (bool dep : {true, false})
            for (unsigned a : active)
              run.point("threads", op, dep ? "dependent" : "independent", dep ? 1 : kSpread, 0, a,
                        run.chain_body(op, dep));
    if (want("divergence"))
      for (unsigned w : ways) run.point("divergence", "paths", w == 1 ? "uniform" : "divergent", 1, w, T, {});
    csv.close();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "issue_rate: error: %s\n", e.what());
    return 1;
  }
}
