// The host API: how a program drives Umbra as the data-parallel VM's host drives its
// GPU (docs/commands.md).  A CommandBuffer is built from the generated command table
// (umbra/commands_gen.h, from isa/commands.yaml), so its words are the ones the command
// processor decodes; a Device owns device memory (a bump allocator and the host's
// staged copies) and submits a buffer by ringing the doorbell with its address.
//
// What runs the buffer is a Backend, so the Device never touches a model or a board
// directly: a model of the registry (ModelBackend, umbra/model_backend.h; Device::open)
// or a board over umbra-load's serial link (board::BoardBackend, fpga/host/
// board_device.h: the staged words written, DOORBELL rung, the run waited for).  Device
// memory lasts from run to run as a board's does: each submit() sends the words the
// host wrote since the previous run, and read() after a run asks the backend for just
// the words it wants (a model keeps its final memory; a board reads them over the
// UART), the host's own later writes on top.
//
// This header and its library (umbra_host_api) need no model: umbra-load links them
// without the Verilated RTL.  ModelBackend and Device::open live in umbra_host, which
// links the model registry.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model_run.h"
#include "umbra/commands_gen.h"
#include "umbra/config.h"
#include "umbra/program.h"

namespace umbra::host {

// A request the device cannot meet (memory that does not fit, a copy outside it, a
// command with the wrong arguments); the message names the sizes and addresses.
struct DeviceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A command buffer: 32-bit words, each command its opcode then its arguments, in the
// order commands.yaml lists them.
class CommandBuffer {
 public:
  CommandBuffer& program(uint32_t src, uint32_t words, uint32_t dest);
  CommandBuffer& args(uint32_t addr);
  CommandBuffer& domain(uint32_t w, uint32_t h = 1);
  CommandBuffer& run(uint32_t entry);
  CommandBuffer& invalidate();
  CommandBuffer& wait();
  CommandBuffer& fence(uint32_t addr, uint32_t value);
  CommandBuffer& counters_reset();
  CommandBuffer& counters(uint32_t addr);
  CommandBuffer& end();
  // Any command of the table by opcode; throws DeviceError when the argument count is
  // not the table's.
  CommandBuffer& append(commands::Opcode op, std::initializer_list<uint32_t> args);
  CommandBuffer& append(commands::Opcode op, const std::vector<uint32_t>& args);

  const std::vector<uint32_t>& words() const { return words_; }
  uint32_t bytes() const { return uint32_t(4 * words_.size()); }
  // Whether the last command is `end` (submit() appends one otherwise).
  bool ended() const { return last_ && *last_ == commands::Opcode::End; }

 private:
  std::vector<uint32_t> words_;
  std::optional<commands::Opcode> last_;
};

// Where Device::load() put a program: the arguments of its `program` command, and
// the entry point for `run`.
struct ProgramImage {
  uint32_t src = 0;    // device address of the text's first word
  uint32_t words = 0;  // text words
  uint32_t dest = 0;   // pc of the first word (the program's text base)
  uint32_t entry = 0;  // the program's entry point
};

// What a Backend needs for one run: the words the host wrote since the previous run
// (at the first, every word it wrote) and the doorbell.  Device memory lasts from run
// to run: the program's data image is in it from the first run on (a backend puts it
// there), and whatever a run left stays until the host or a later run changes it.
struct Submission {
  const Program* program = nullptr;  // data image, symbols, and the text the host loads before ringing
  std::string source;                // for messages
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> writes;
  umbra::Doorbell doorbell;
};

// Limits and observers of a run, passed to the model as models::Job has them (a board
// has its own timeout: board::BoardBackend).
struct RunOptions {
  uint64_t max_instructions = 100'000'000, max_cycles = 0;  // 0: models::cycle_budget
  umbra::EventSink* sink = nullptr;
  umbra::Isolation isolation = umbra::Isolation::Subprocess;
  std::string vcd, fst, repro;
  umbra::WaveBounds waves;  // the waveforms' window and size limit (run_result.h)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // The device memory the host may use, from address 0 (the allocator's limit): a
  // model's configured memory, a board's host window.
  virtual uint32_t mem_bytes() const = 0;
  // Runs one submission to its end.  A fault, a limit or a timeout is the result's
  // run.status and run.message, as a model reports it; run.memory is the final memory
  // where the backend has it whole (a model; empty for a board).  Throws umbra::RunError
  // for a run that cannot be made.
  virtual models::Result run(const Submission& s, const RunOptions& o) = 0;
  // `n` words of device memory at `addr` (word-aligned, inside mem_bytes()) as the last
  // run left them; only called after a run.
  virtual std::vector<uint32_t> read(uint32_t addr, uint32_t n) = 0;
};

class Device {
 public:
  // A model by its registry name (throws std::invalid_argument naming the known ones).
  // Defined in umbra_host (src/model_backend.cpp), which links the registry.
  static Device open(const std::string& model, const Config& cfg, RunOptions options = {});
  // Any backend (a board's: board::BoardBackend).  Device memory is the backend's
  // mem_bytes(); `cfg` is what config() reports.
  Device(std::unique_ptr<Backend> backend, const Config& cfg, RunOptions options = {});

  const Config& config() const { return cfg_; }
  std::string backend_name() const { return backend_->name(); }
  RunOptions& options() { return options_; }

  // Device memory: `bytes` at an address that is a multiple of `align` (a power of two),
  // above every earlier allocation and outside the loaded program's data image.
  // Throws DeviceError naming the request and what is left when it does not fit.
  uint32_t alloc(uint32_t bytes, uint32_t align = 4);
  // Host copies, word-aligned and inside memory (or DeviceError).  A write is staged
  // for the next run; a read sees the host's writes and, after a run, what the run
  // left, read from the backend (only the words asked for).
  void write(uint32_t addr, const std::vector<uint32_t>& words);
  std::vector<uint32_t> read(uint32_t addr, uint32_t n) const;
  // Places the program's data image at its base (reserving it from the allocator;
  // load before allocating there) and its text in newly allocated device memory; the
  // result is what a `program` command needs.  One program a device.
  ProgramImage load(const Program& p, const std::string& name = "program");

  // Writes the buffer (with `end` appended when it has none) into newly allocated
  // device memory and makes one run that rings the doorbell with its address; wait()
  // returns that run's result.  Throws DeviceError for a second submit before wait().
  void submit(const CommandBuffer& cb);
  const models::Result& wait();
  // Address of the last submitted buffer.
  uint32_t last_buffer() const { return buffer_addr_; }

 private:
  std::unique_ptr<Backend> backend_;
  Config cfg_;
  RunOptions options_;
  uint32_t mem_bytes_ = 0;       // the backend's
  std::vector<uint32_t> image_;  // the words the host wrote (the data image before the first run)
  std::vector<bool> dirty_;      // words written since the last run: the next submission's
  bool ran_ = false;             // after a run, unwritten words are the backend's
  Program program_;              // data image and symbols; empty until load()
  std::string program_name_ = "program";
  bool loaded_ = false;
  uint32_t bump_ = 0;                                    // first free byte
  std::vector<std::pair<uint32_t, uint32_t>> reserved_;  // [begin, end) the allocator skips
  bool pending_ = false;
  uint32_t buffer_addr_ = 0;
  models::Result result_;
  void check_span(const char* what, uint32_t addr, uint64_t words) const;
};

}  // namespace umbra::host
