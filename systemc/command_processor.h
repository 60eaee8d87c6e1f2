// command_processor: reads the host's command buffer from memory and drives the system
// with it (docs/commands.md; docs/microarchitecture.md, "Command processor");
// rtl/command_processor.v is the same block, cycle for cycle.  The host rings the
// doorbell with the buffer's address; the processor reads the buffer a line at a time
// through the memory system (it is one more requester in front of the reorder queue,
// ahead of the cores, with the DRAM-port tag 0xFF00), and for each command sets the
// argument block, the domain, starts the dispatcher, copies a program into the
// instruction stores, invalidates the caches, waits for idle, or writes a fence or its
// performance counters to memory.
//
// Why a line at a time: a command is a few words, and a word read holds the DRAM's bus
// for a whole burst, so reading the stream as fills (one request, a line's beats on
// consecutive cycles) puts a small command buffer's first commands in the processor
// one DRAM access after the doorbell; `program` streams its text the same way, a word
// a cycle into the instruction stores.  One line buffer is enough: the processor
// consumes a word a cycle at most, and reads ahead only within the line.
//
// A plain C++ state machine clocked by umbra_system like the dispatcher: outputs()
// depends only on the state at the start of the cycle (and the dispatcher's busy, a
// register), clock() is the edge.  `invalidate` and the line buffer's fill request
// leave a cycle after the processor decides them, from registers, as in the RTL (whose
// header says why).
#pragma once
#include <cstdint>
#include <vector>

#include "umbra/commands_gen.h"
#include "umbra/port_line.h"

namespace umbra::scm {

class CommandProcessor {
 public:
  static constexpr uint32_t kTag = commands::kPortTag << 8;  // the DRAM-port tag of its requests

  // line_port: the memory port is a line wide (cache.line_port): a fill's line comes in
  // one beat, on the response's line.
  CommandProcessor(unsigned cores, unsigned line_bytes, unsigned imem_words, bool line_port = false);

  // What it drives in the current cycle.
  struct Outputs {
    bool req_valid = false;  // a request to the memory system (ahead of the cores)
    uint32_t req_op = 0, req_addr = 0, req_data = 0;
    bool imem_we = false;  // a word of `program` into every core's instruction store
    uint32_t imem_addr = 0, imem_data = 0;
    bool domain_valid = false;  // `run`: the domain launch
    uint32_t domain_w = 0, domain_h = 0, entry = 0;
    bool inval_all = false;  // `invalidate`, the cycle after it started: every core's whole data cache
    uint32_t args = 0;       // `rdsr arg`
    bool busy = false;       // reading or executing a buffer
    commands::Fault fault = commands::Fault::None;
    uint32_t fault_addr = 0;            // the offending command's address
    bool started = false;               // a command executes in this cycle (the cmd event)...
    uint32_t cmd_op = 0, cmd_addr = 0;  // ... this one, at this address
  };
  // system_busy: cores, dispatcher or queue busy (registers); dispatch_busy: the
  // dispatcher still has items.
  Outputs outputs(bool system_busy, bool dispatch_busy) const;

  // The edge ending the cycle.  granted: its request was taken; resp_*: a response
  // beat with its tag (and, line port, its line); issued[c]: core c issued an
  // instruction in the cycle.
  void clock(bool rst, bool doorbell_valid, uint32_t doorbell_addr, bool system_busy, bool dispatch_busy,
             bool granted, bool resp_valid, uint32_t resp_data, uint32_t resp_tag, const PortLine& resp_line,
             const std::vector<bool>& issued);

  bool busy() const { return state_ != State::Idle && state_ != State::Fault; }

 private:
  enum class State : uint8_t { Idle, Fetch, Start, Copy, Store, Fault };
  bool word_ready() const;  // the word at rd_ is in the line buffer
  uint32_t word() const { return line_[(rd_ % line_bytes_) / 4]; }
  bool want_fill() const;
  void fault(commands::Fault f);

  unsigned cores_, line_bytes_, imem_words_;
  bool line_port_;
  State state_ = State::Idle;
  uint32_t rd_ = 0;        // the next word of the stream (or of `program`'s text)
  uint32_t cmd_addr_ = 0;  // the current command's opcode word
  uint32_t op_ = 0;
  unsigned nargs_ = 0, argi_ = 0;  // argi_: words of the command read (0: the opcode next)
  uint32_t a_[commands::kMaxArgs] = {};
  // The line buffer: line_base_'s first line_got_ words, a fill in flight.
  std::vector<uint32_t> line_;
  uint32_t line_base_ = 0;
  unsigned line_got_ = 0;
  bool line_have_ = false, filling_ = false;
  // `program`: words left, the next instruction-store index, the stream to return to.
  uint32_t left_ = 0, dest_ = 0, ret_ = 0;
  unsigned store_ = 0;  // `counters`: the next word to write
  uint32_t args_ = 0, dom_w_ = 0, dom_h_ = 0;
  uint32_t cycles_ = 0, busy_cycles_ = 0, snap_cycles_ = 0, snap_busy_ = 0;
  std::vector<uint32_t> instructions_;
  commands::Fault fault_ = commands::Fault::None;
  bool inval_q_ = false;  // `invalidate` started in the cycle that ended (rtl's inval_q)
  bool fill_q_ = false;   // asking for rd_'s line: want_fill() a cycle later (rtl's fill_q)
};

}  // namespace umbra::scm
