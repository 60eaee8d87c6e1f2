// command_processor (command_processor.h).
#include "command_processor.h"

#include <algorithm>

#include "umbra/isa.h"

namespace umbra::scm {

using commands::Fault;
using commands::Opcode;

CommandProcessor::CommandProcessor(unsigned cores, unsigned line_bytes, unsigned imem_words, bool line_port)
    : cores_(cores),
      line_bytes_(line_bytes),
      imem_words_(imem_words),
      line_port_(line_port),
      line_(line_bytes / 4, 0),
      instructions_(cores, 0) {}

// The RTL keeps the line compare in a flip-flop (in_line) and the store's address in a
// register (store_addr), for timing alone: the values are these, cycle for cycle.
bool CommandProcessor::word_ready() const {
  return line_have_ && rd_ - rd_ % line_bytes_ == line_base_ && (rd_ % line_bytes_) / 4 < line_got_;
}

bool CommandProcessor::want_fill() const {
  return (state_ == State::Fetch || state_ == State::Copy) && !word_ready() && !filling_;
}

CommandProcessor::Outputs CommandProcessor::outputs(bool system_busy, bool dispatch_busy) const {
  Outputs o;
  o.args = args_;
  o.busy = busy();
  o.fault = fault_;
  o.fault_addr = cmd_addr_;
  o.inval_all = inval_q_;
  if (fill_q_) {
    o.req_valid = true;
    o.req_op = isa::kPortOpFill;
    o.req_addr = rd_ - rd_ % line_bytes_;
  }
  if (state_ == State::Copy && word_ready()) {
    o.imem_we = true;
    o.imem_addr = dest_;
    o.imem_data = word();
  }
  if (state_ == State::Start) {
    const commands::CommandDef* def = commands::find(op_);
    const bool go = !(def->idle && system_busy) && !(Opcode(op_) == Opcode::Run && dispatch_busy);
    if (go) {
      o.started = true;
      o.cmd_op = op_;
      o.cmd_addr = cmd_addr_;
      if (Opcode(op_) == Opcode::Run && dom_w_ && dom_h_ && a_[0] % 4 == 0 && a_[0] / 4 < imem_words_) {
        o.domain_valid = true;
        o.domain_w = dom_w_;
        o.domain_h = dom_h_;
        o.entry = a_[0];
      }
    }
  }
  if (state_ == State::Store) {
    o.req_valid = true;
    o.req_op = isa::info(isa::Op::STW).opcode;
    o.req_addr = a_[0] + 4 * store_;
    if (Opcode(op_) == Opcode::Fence)
      o.req_data = a_[1];
    else if (store_ == unsigned(commands::Counter::Cycles))
      o.req_data = snap_cycles_;
    else if (store_ == unsigned(commands::Counter::BusyCycles))
      o.req_data = snap_busy_;
    else
      o.req_data = instructions_[store_ - commands::kCounterFixedWords];
  }
  return o;
}

void CommandProcessor::fault(Fault f) {
  fault_ = f;
  state_ = State::Fault;
}

void CommandProcessor::clock(bool rst, bool doorbell_valid, uint32_t doorbell_addr, bool system_busy,
                             bool dispatch_busy, bool granted, bool resp_valid, uint32_t resp_data,
                             uint32_t resp_tag, const PortLine& resp_line, const std::vector<bool>& issued) {
  if (rst) {
    *this = CommandProcessor(cores_, line_bytes_, imem_words_, line_port_);
    return;
  }
  // Everything below reads the registers as they were in the cycle that ends.
  const Outputs o = outputs(system_busy, dispatch_busy);
  const bool ready = word_ready();
  const uint32_t w = ready ? word() : 0;
  const uint32_t cycles = cycles_, busy_cycles = busy_cycles_;  // as at the start of the cycle
  ++cycles_;
  if (system_busy) ++busy_cycles_;
  for (unsigned c = 0; c < cores_; ++c) instructions_[c] += issued[c];
  inval_q_ = o.started && Opcode(op_) == Opcode::Invalidate;
  fill_q_ = want_fill() && !(o.req_valid && granted && o.req_op == isa::kPortOpFill);

  // The line buffer: a beat of the fill in flight, or a fill taken.
  if (resp_valid && (resp_tag & 0xff00u) == kTag && line_port_) {
    std::copy(resp_line.w, resp_line.w + line_.size(), line_.begin());
    line_got_ = unsigned(line_.size());
    filling_ = false;
  } else if (resp_valid && (resp_tag & 0xff00u) == kTag) {
    line_[line_got_++] = resp_data;
    if (line_got_ == line_.size()) filling_ = false;
  }
  if (o.req_valid && granted && o.req_op == isa::kPortOpFill) {
    filling_ = line_have_ = true;
    line_base_ = o.req_addr;
    line_got_ = 0;
  }

  switch (state_) {
    case State::Idle:
    case State::Fault:
      if (doorbell_valid) {
        cmd_addr_ = doorbell_addr;
        fault_ = Fault::None;
        line_have_ = false;  // the host may have rewritten memory since
        argi_ = 0;
        rd_ = doorbell_addr;
        state_ = State::Fetch;
        if (doorbell_addr % 4) fault(Fault::Misaligned);
      }
      break;
    case State::Fetch:
      if (!ready) break;
      if (argi_ == 0) {
        cmd_addr_ = rd_;
        const commands::CommandDef* def = commands::find(w);
        if (!def) {
          fault(Fault::BadOpcode);
          break;
        }
        op_ = w;
        nargs_ = def->nargs;
      } else {
        a_[argi_ - 1] = w;
      }
      rd_ += 4;
      if (argi_ == nargs_) {
        argi_ = 0;
        state_ = State::Start;
      } else {
        ++argi_;
      }
      break;
    case State::Start:
      if (!o.started) break;
      state_ = State::Fetch;
      switch (Opcode(op_)) {
        case Opcode::End: state_ = State::Idle; break;
        case Opcode::Program:
          if (a_[0] % 4 || a_[2] % 4)
            fault(Fault::Misaligned);
          else if (uint64_t(a_[2] / 4) + a_[1] > imem_words_)
            fault(Fault::BadProgram);
          else if (a_[1]) {
            ret_ = rd_;
            rd_ = a_[0];
            left_ = a_[1];
            dest_ = a_[2] / 4;
            state_ = State::Copy;
          }
          break;
        case Opcode::Args: args_ = a_[0]; break;
        case Opcode::Domain:
          dom_w_ = a_[0];
          dom_h_ = a_[1];
          break;
        case Opcode::Run:
          if (!dom_w_ || !dom_h_)
            fault(Fault::BadDomain);
          else if (a_[0] % 4)
            fault(Fault::Misaligned);
          else if (a_[0] / 4 >= imem_words_)
            fault(Fault::BadEntry);
          break;
        case Opcode::Invalidate:
        case Opcode::Wait: break;
        case Opcode::Fence:
        case Opcode::Counters:
          if (a_[0] % 4) {
            fault(Fault::Misaligned);
            break;
          }
          store_ = 0;
          snap_cycles_ = cycles;
          snap_busy_ = busy_cycles;
          state_ = State::Store;
          break;
        case Opcode::CountersReset:
          cycles_ = busy_cycles_ = 0;
          std::fill(instructions_.begin(), instructions_.end(), 0);
          break;
      }
      break;
    case State::Copy:
      if (!ready) break;
      rd_ += 4;
      ++dest_;
      if (--left_ == 0) {
        rd_ = ret_;
        state_ = State::Fetch;
      }
      break;
    case State::Store:
      if (!granted) break;
      ++store_;
      if (Opcode(op_) == Opcode::Fence || store_ == commands::counter_words(cores_)) state_ = State::Fetch;
      break;
  }
}

}  // namespace umbra::scm
