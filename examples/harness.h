// How an example program is run and checked, independent of which model runs it.
//
// An example is a program (examples/<name>.s) plus a manifest (examples/<name>.yaml,
// format in docs/examples.md): the runs to make (thread count, extra input words),
// the instruction budget, and the memory regions whose final contents are checked.
// The expected contents come from a reference (reference.h): C++ that computes them
// from the same initial memory.  A model (the ISS today; the SystemC model, the RTL
// and the cosimulation later) is only a callback that takes a ModelJob and returns
// a ModelOutcome, so every model is held to exactly the same manifests and checks.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "umbra/config.h"
#include "umbra/program.h"

namespace umbra::examples {

// A manifest that cannot be used: the message names the file and the problem.
struct ManifestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A stretch of data memory as a manifest names it: a symbol of the program plus a byte
// offset, or (symbol empty) an absolute byte address in `offset`.
struct Region {
  std::string symbol;
  uint32_t offset = 0;
  uint32_t words = 0;
};

// Words written into data memory after the program's .data is loaded, before launch.
struct Input {
  Region at;  // at.words == values.size()
  std::vector<uint32_t> values;
};

struct RunSpec {
  std::string name;  // for messages: "threads=8" (or "domain=96x72") unless the manifest names it
  unsigned threads = 1;
  // `domain: [W, H]` (or [W]) instead of `threads`: a domain launch of W x H work items
  // through the dispatcher (docs/microarchitecture.md, "Domain launch"); 0: none.
  uint32_t domain_w = 0, domain_h = 0;
  // `commands: [...]` instead of either: a command buffer in the command-file form
  // (docs/simulator.md, "Command buffers"), run through the host API (umbra/device.h)
  // by ringing the command processor's doorbell; the list's nodes keep their lines in
  // the manifest for messages.
  YAML::Node commands;
  std::vector<Input> inputs;
  bool domain() const { return domain_w != 0; }
  bool command_run() const { return commands.IsSequence(); }
};

struct Manifest {
  std::string name;               // the example's name; also selects its reference
  std::string path;               // the manifest file
  std::string source;             // the program, resolved against the manifest's directory
  std::string description;        // one line
  uint64_t max_instructions = 0;  // per run, all threads together
  std::vector<RunSpec> runs;
  std::vector<Region> checks;
};

Manifest load_manifest(const std::string& path);
// Every *.yaml directly in `dir`, sorted by name.
std::vector<std::string> find_manifests(const std::string& dir);

// Assembles the manifest's source (.include resolves against its directory).  Throws
// std::runtime_error carrying the rendered diagnostics when it does not assemble.
Program assemble(const Manifest& m);

// Why the example cannot run on `cfg`: it uses an instruction of an extension group the
// configuration lacks (core.groups), as the assembler words it -- the source line, the
// instruction, its group and the configuration.  Empty when it has every group the
// program needs.  A runner over several configurations skips such an example, saying
// this, rather than failing it.
std::string absent_group(const Manifest& m, const Config& cfg);

// A region resolved against an assembled program.
struct Span {
  std::string label;  // "sorted" or "sorted+0x40" or "0x00010000"
  uint32_t address = 0;
  uint32_t words = 0;
};
// Throws ManifestError when the symbol is not in the program.
Span resolve(const Region& r, const Program& p, const std::string& manifest_path);

// What a model is asked to do: load the program, write `writes` into data memory,
// launch `threads` threads at the entry point on each core, run until they all exit, a thread
// faults, or max_instructions have retired, then report the words of each `reads`.
struct ModelJob {
  const Program* program = nullptr;
  std::string source;  // the program's file, for models that take a path
  unsigned threads = 1;
  uint32_t domain_w = 0, domain_h = 0;  // a domain launch (RunSpec); threads is then 0
  YAML::Node commands;                  // a command buffer (RunSpec), a sequence; threads is then 0
  std::string manifest;                 // the manifest's path, for the commands' messages
  uint64_t max_instructions = 0;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;  // address, words
  std::vector<Span> reads;
};

struct ModelOutcome {
  bool all_exited = false;  // every launched thread executed `exit`
  std::string fault;        // empty when no thread faulted; else the model's message
  uint64_t instructions = 0;
  std::vector<std::vector<uint32_t>> reads;  // one per ModelJob::reads, same length
};

// A machine the examples run on.  A thread launch starts ModelJob::threads threads on
// each of its cores (`lx` runs over all of them, `domw` counts them all: isa/isa.yaml),
// so the reference's result, and the run's instruction budget, are for `cores` times
// the run's threads.  A domain launch's work does not depend on the cores.
struct Model {
  std::function<ModelOutcome(const ModelJob&)> run;
  unsigned cores = 1;
};

// Data memory as the program starts with it (its .data, then the run's inputs; every
// other word 0), which a reference reads and updates into the memory the program must
// leave behind.  Symbols are looked up in the assembled program.
class Image {
 public:
  // threads: the threads the run launched, on all the cores together (0 for a domain
  // launch or a command buffer, whose result must not depend on which thread ran what).
  Image(const Program& p, unsigned threads);
  unsigned threads() const { return threads_; }
  // Address of a symbol; throws std::runtime_error if the program lacks it.
  uint32_t sym(const std::string& name) const;
  uint32_t load(uint32_t addr) const;
  void store(uint32_t addr, uint32_t value);
  // Word i of the array at symbol `name`.
  uint32_t at(const std::string& name, uint32_t i) const { return load(sym(name) + 4 * i); }
  void set(const std::string& name, uint32_t i, uint32_t v) { store(sym(name) + 4 * i, v); }

 private:
  const Program* program_;
  unsigned threads_;
  std::map<uint32_t, uint32_t> words_;
};

// Fills an Image (initial memory) with the memory the program must leave behind.
using Reference = std::function<void(Image&)>;

struct Verdict {
  bool passed = false;
  std::vector<std::string> problems;  // empty when passed
  uint64_t instructions = 0;
  std::string summary() const;  // the problems, one per line
};

// Runs one run of an example on a model and checks it: the model must report that
// every thread exited, no fault, no more than max_instructions (times the cores for a
// thread launch), and every checked word equal to the reference's.  At most
// `max_mismatches` differing words are listed.
Verdict run_and_check(const Manifest& m, const RunSpec& run, const Program& p, const Model& model,
                      const Reference& reference, unsigned max_mismatches = 8);

}  // namespace umbra::examples
