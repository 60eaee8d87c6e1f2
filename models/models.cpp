// The model registry (umbra/models.h): each entry adapts one runner (iss::Simulator,
// run_systemc, run_rtl, run_cosim) to the one Job/Result signature.
#include "umbra/models.h"

#include <optional>
#include <stdexcept>

#include "umbra/cosim_run.h"
#include "umbra/format.h"
#include "umbra/iss.h"
#include "umbra/systemc_run.h"

namespace umbra::models {

namespace {

uint64_t cycles_for(const Config& cfg, const Job& job) {
  return job.max_cycles ? job.max_cycles : cycle_budget(cfg, job.max_instructions);
}

// A write that leaves data memory is the caller's mistake, named, not a crash.
void write_words(iss::Simulator& sim, const Job& job) {
  for (const auto& [addr, words] : job.writes) {
    if (addr % 4 || uint64_t(addr) + 4 * uint64_t(words.size()) > sim.memory().size())
      throw umbra::RunError(
          job.source + ": a host write of " + std::to_string(words.size()) + " words at " + hex8(addr) +
          (addr % 4 ? " is not word-aligned"
                    : " leaves data memory of " + std::to_string(sim.memory().size()) + " bytes"));
    for (size_t i = 0; i < words.size(); ++i) sim.memory().store32(addr + uint32_t(4 * i), words[i]);
  }
}

Result run_iss(const Config& cfg, const Job& job) {
  iss::Simulator sim(cfg);
  try {
    sim.load(*job.program, job.source);  // a doorbell run too: the host loads the text, then rings
  } catch (const iss::LoadError& e) {
    throw umbra::RunError(e.what());
  }
  write_words(sim, job);
  iss::IssResult r;
  std::optional<iss::CommandFault> command_fault;
  try {
    if (job.doorbell.ring) {
      iss::CommandsResult c = sim.run_commands(job.doorbell.addr, job.max_instructions);
      r = std::move(c.run);
      command_fault = std::move(c.command_fault);
    } else {
      r = job.domain.launch() ? sim.run_domain(job.domain.w, job.domain.h, job.max_instructions)
                              : sim.run(job.threads, job.max_instructions);
    }
  } catch (const iss::LoadError& e) {
    throw umbra::RunError(e.what());
  }
  Result out;
  out.instructions = r.retired;
  out.iss_rounds = r.rounds;
  if (r.fault) {
    out.run.status = r.fault->fault == Fault::InstructionLimit ? umbra::RunResult::Status::CycleLimit
                                                               : umbra::RunResult::Status::Fault;
    out.run.message = r.fault->message();
    out.run.fault = r.fault->fault;
    out.run.fault_core = r.fault->core;
    out.run.fault_thread = r.fault->thread;
    out.run.fault_pc = r.fault->pc;
  } else if (command_fault) {  // as the cycle models report it (harness/bench.cpp)
    out.run.status = umbra::RunResult::Status::Fault;
    out.run.message = command_fault->message();
    out.run.fault = command_fault->memory;
    out.run.fault_addr = command_fault->addr;
  }
  out.run.memory = sim.memory().bytes();
  if (job.capture_registers)
    for (const iss::ThreadResult& t : r.threads)
      out.run.registers.emplace_back(std::begin(t.state.r), std::begin(t.state.r) + cfg.registers);
  return out;
}

Result run_systemc(const Config& cfg, const Job& job) {
  harness::RunOptions o;
  o.writes = job.writes;
  o.host_writes = job.host_writes;
  o.capture_registers = job.capture_registers;
  o.isolation = job.isolation;
  o.domain = job.domain;
  o.doorbell = job.doorbell;
  Result out;
  out.run = harness::run_systemc(*job.program, cfg, job.threads, cycles_for(cfg, job), job.sink, o);
  out.instructions = out.run.stats.total_issued();
  return out;
}

cosim::Options cosim_options(const Job& job) {
  cosim::Options o;
  o.writes = job.writes;
  o.host_writes = job.host_writes;
  o.isolation = job.isolation;
  o.domain = job.domain;
  o.doorbell = job.doorbell;
  o.vcd = job.vcd;
  o.fst = job.fst;
  o.waves = job.waves;
  o.program_name = job.source;
  o.repro = job.repro;
  return o;
}

Result run_rtl(const Config& cfg, const Job& job) {
  Result out;
  out.run =
      cosim::run_rtl(*job.program, cfg, job.threads, cycles_for(cfg, job), job.sink, cosim_options(job));
  out.instructions = out.run.stats.total_issued();
  return out;
}

Result run_cosim(const Config& cfg, const Job& job) {
  cosim::Options o = cosim_options(job);
  o.observer = job.sink;  // the SystemC side's events, which the comparison holds equal to the RTL's
  return from_cosim(cosim::run_cosim(*job.program, cfg, job.threads, cycles_for(cfg, job), o));
}

}  // namespace

Result from_cosim(const cosim::CosimResult& c) {
  Result out;
  out.run = c.rtl;
  // The RTL alone measures no queue, replay or load-latency counters (its result marks
  // them not measured); in a cosimulation the SystemC side's are the run's, since the
  // comparison held every cache, memory and DRAM event of the two sides equal.
  out.run.mem = c.systemc.mem;
  out.compared = true;
  out.other = c.systemc;
  // Both sides' waveform warnings, where a tool that prints run.warnings sees them.
  out.run.warnings.insert(out.run.warnings.end(), c.systemc.warnings.begin(), c.systemc.warnings.end());
  out.instructions = c.rtl.stats.total_issued();
  out.agreed = c.passed();
  if (c.mismatch.found) out.mismatch_report = c.mismatch.report;
  out.summary = c.summary();
  out.iss_problems = c.iss_problems;
  out.iss_notes = c.iss_notes;
  out.events_compared = c.events_compared;
  return out;
}

namespace {

Supports supports(bool cycles, bool waveforms, bool compares, bool registers, bool host_writes,
                  bool instruction_trace) {
  Supports s;
  s.cycles = cycles;
  s.waveforms = waveforms;
  s.compares = compares;
  s.registers = registers;
  s.host_writes = host_writes;
  s.instruction_trace = instruction_trace;
  return s;
}

}  // namespace

const std::vector<Model>& all() {
  //                                        cycles waves  compares regs   host_w trace
  static const std::vector<Model> models = {
      {"iss", "reference simulator", supports(false, false, false, true, false, true), run_iss},
      {"systemc", "cycle-accurate model", supports(true, false, false, true, true, false), run_systemc},
      {"rtl", "Verilated RTL", supports(true, true, false, false, true, false), run_rtl},
      {"cosim", "SystemC and RTL in lockstep, compared event by event",
       supports(true, true, true, false, true, false), run_cosim},
  };
  return models;
}

std::vector<std::string> names() {
  std::vector<std::string> v;
  for (const Model& m : all()) v.push_back(m.name);
  return v;
}

const Model& find(const std::string& name) {
  for (const Model& m : all())
    if (m.name == name) return m;
  std::string known;
  for (const Model& m : all()) known += (known.empty() ? "" : ", ") + m.name;
  throw std::invalid_argument("no model '" + name + "' (models: " + known + ")");
}

uint64_t cycle_budget(const Config& cfg, uint64_t max_instructions) {
  const uint64_t t = cfg.threads;
  const uint64_t rounds_per_instruction = 1 + (cfg.mem_latency + t - 1) / t;
  return (max_instructions + 1) * t * rounds_per_instruction + 64;
}

umbra::Domain parse_domain(const std::string& text) {
  const auto bad = [&text](const std::string& why) {
    return std::invalid_argument("--domain '" + text + "': " + why);
  };
  const auto side = [&](const std::string& s, const char* name) -> uint32_t {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
      throw bad(std::string("the ") + name + " must be a decimal number (W or WxH, e.g. 256x256)");
    if (s.size() > 10 || std::stoull(s) > UINT32_MAX || std::stoull(s) == 0)
      throw bad(std::string("the ") + name + " must be 1..4294967295");
    return uint32_t(std::stoull(s));
  };
  const size_t x = text.find('x');
  umbra::Domain d;
  d.w = side(text.substr(0, x), "width");
  d.h = x == std::string::npos ? 1 : side(text.substr(x + 1), "height");
  if (d.items() > UINT32_MAX) throw bad("more than 2^32 - 1 work items");
  return d;
}

bool read_words(const std::vector<uint8_t>& memory, uint32_t address, uint32_t words,
                std::vector<uint32_t>& out) {
  out.clear();
  if (uint64_t(address) + 4 * uint64_t(words) > memory.size()) return false;
  for (uint32_t i = 0; i < words; ++i) {
    const uint8_t* b = &memory[size_t(address) + 4 * i];
    out.push_back(uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24);
  }
  return true;
}

}  // namespace umbra::models
