// Execute: stages X1..X<L>.  X1 does an instruction's work by calling the ISA's
// semantics functions (umbra/semantics.h: compute, next_pc, effective_address,
// store_data, jump_fault), so this model cannot disagree with the reference simulator
// about what an instruction means, only about when.  X1's outcome leaves on three
// registered paths: the thread's next pc and state (x2_upd_*, to fetch), the memory
// request (x2_mem_*, to the load/store unit and the port in X2) and the register
// result, which is delayed through X2 up to the stage before W (X2, X3, X4 for the
// default L = 4) and presented to writeback on w_*.  The delay line is L - 1 stages,
// L the configuration's core.execute_stages (X1 -> W, the FPU's latency), a number
// the model takes when it is built, as the RTL's execute.v takes EXEC_STAGES; the
// multiply's and the FPU's short results the RTL brings back after X2 are invisible
// here, since nothing reads a result before W.  Float instructions go through the FPU's
// pipeline registers beside the integer delay line (the FPU is umbra::fp32, reached
// through compute()); both end in the same register at the end of the stage before W.
// Illegal instructions and jumps that leave the instruction store stop the thread and
// raise the core's sticky fault output.  The cache-control instructions (dinv,
// dinvall, dflush) go to the data cache on x2_mem_* like loads and stores; dflush
// sleeps in X1 like a load and reaches writeback as w_flush (wake, no register).  A
// pushing instruction (ldw, stw, atomic, dflush) that finds lsu_room low in X1 is
// replayed: no effect at all, its pc stays, its thread issues it again next round
// (docs/memory-system.md, "The request FIFO and replay").
//
// On a line port (cache.line_port) X1 also keeps the load/store unit's combining
// buffers (one per thread, load_store_unit.h) in order with everything else, by the
// gate below, decided on the buffers as they are at the start of X1's cycle (in the
// RTL a compare of X1's line with every buffer's; here execute asks the load/store
// unit, whose state is still the cycle's start when execute ticks):
//   - an aligned stw passes without room when its thread's buffer is empty or holds
//     its line; else it needs room (at C2 it joins the buffer holding its line, or its
//     own buffer goes to the FIFO and starts anew);
//   - another memory instruction (ldw, atomic, misaligned stw) whose line C1 or C2
//     holds a request to is replayed (a store there may still enter a buffer);
//   - one whose line a buffer holds is replayed, and that buffer is closed (sent to
//     the FIFO) if there is room;
//   - an atomic, a misaligned stw, a dflush or an exit while a buffer holds a store of
//     its thread is replayed and closes that buffer: a later round finds none.
// A close is sent down C1 and C2 as a `wline` op (isa.yaml's port op) tagged with the
// buffer's thread and addressed to its line; it changes nothing else.
#pragma once
#include <systemc.h>

#include <string>
#include <vector>

#include "core_types.h"
#include "load_store_unit.h"
#include "umbra/semantics.h"
#include "wire.h"

namespace umbra::scm {

// The first fault the core raised, for messages (the ports carry thread and pc).
struct CoreFault {
  bool raised = false;
  Fault kind = Fault::None;
  uint32_t thread = 0, pc = 0, word = 0;
  uint64_t cycle = 0;  // the X1 cycle
  std::string detail;
};

SC_MODULE(execute) {
  in<bool> rst;
  in<bool> r_valid;
  in<bool> r_sleep;
  in<uint32_t> r_thread;
  in<uint32_t> r_pc;
  in<bool> r_illegal;
  in<bool> r_flush;  // dflush: sleeps in X1 but writes no register
  in<DecodedInstr> r_inst;
  in<uint32_t> rf_a;
  in<uint32_t> rf_b;
  in<uint32_t> rf_c;
  in<uint64_t> clock;
  in<uint32_t> domw;
  in<uint32_t> lx0;  // `lx` of thread 0
  in<uint32_t> domh;
  in<bool> items;  // `lx`/`ly` are the threads' work items (a domain launch)
  // From fetch: a thread started on a work item, kept here per thread.
  in<bool> item_we;
  in<uint32_t> item_thread;
  in<uint32_t> item_lx;
  in<uint32_t> item_ly;
  in<uint32_t> ncore;
  in<uint32_t> args;  // `rdsr arg`: the command processor's argument block
  in<bool> lsu_room;  // the request FIFO can take what X1 would push
  // The load/store unit whose combining buffers X1 gates (the line port), set by the
  // core; null without a line port.
  const load_store_unit* lsu = nullptr;

  // To fetch, valid in X2.
  out<bool> x2_upd_valid;
  out<uint32_t> x2_upd_thread;
  out<uint32_t> x2_upd_pc;
  out<uint32_t> x2_upd_state;
  // To the load/store unit, valid in X2.
  out<bool> x2_mem_valid;
  out<uint32_t> x2_mem_op;
  out<uint32_t> x2_mem_addr;
  out<uint32_t> x2_mem_data;
  out<uint32_t> x2_mem_cmp;
  out<uint32_t> x2_mem_tag;
  // To writeback, valid in W.
  out<bool> w_valid;
  out<bool> w_sleep;
  out<uint32_t> w_thread;
  out<uint32_t> w_pc;
  out<bool> w_we;     // write w_result to register w_rd
  out<bool> w_load;   // the result comes from the thread's return buffer
  out<bool> w_flush;  // dflush: wake from the return buffer without a register write
  out<uint32_t> w_rd;
  out<uint32_t> w_result;
  // The core's fault outputs.
  out<bool> fault;
  out<uint32_t> fault_thread;
  out<uint32_t> fault_pc;

  execute(sc_module_name name, const BlockParams& p);

  const CoreFault& first_fault() const {
    return fault_;
  }
  // Replays per thread (X1 found lsu_room low).
  const std::vector<uint64_t>& replays() const {
    return replays_;
  }

  // One rising clock edge, called by umbra_core's clocked method: reads the inputs
  // of the cycle that ends, writes the outputs of the next (the core commits them).
  void tick();

 private:
  // The instruction (or bubble) in X1: decode's R outputs, registered.
  struct X1Reg {
    bool valid = false, sleep = false, illegal = false, flush = false;
    uint32_t thread = 0, pc = 0;
    DecodedInstr inst;
  };
  // One stage of the result delay line (X2 .. the stage before W).
  struct XReg {
    bool valid = false, sleep = false, we = false, load = false, flush = false, fpu = false;
    uint32_t thread = 0, pc = 0, rd = 0, result = 0;
  };

  void reset();
  void raise(Fault kind, const X1Reg& x, std::string detail);

  BlockParams p_;
  // The line port's gate (above) for X1's instruction: whether it passes, and the
  // thread whose buffer it closes instead (threads: none).
  struct Gate {
    bool pass = true;
    unsigned close = 0;
  };
  Gate gate(const isa::Decoded& d, const RegValues& v, bool pushes) const;
  X1Reg x1_;
  // The request in C1 (X2) this cycle: what X1 sent at the last edge.
  bool c1_valid_ = false;
  uint32_t c1_addr_ = 0;
  // X2 .. X<L>: X2 is x_[0]; W reads the last.  One stage per cycle from X1 to W.
  std::vector<XReg> x_;
  // The FPU's results in flight, alongside x_; fpu_[k] belongs to stage X(k+2).
  std::vector<uint32_t> fpu_;
  CoreFault fault_;
  std::vector<uint64_t> replays_;
  struct Item {
    uint32_t lx = 0, ly = 0;
  };
  std::vector<Item> items_;  // each thread's work item (the RTL's item_ram)
};

}  // namespace umbra::scm
