// Execute block (execute.h).
#include "execute.h"

#include <algorithm>
#include <stdexcept>

namespace umbra::scm {

execute::execute(sc_module_name name, const BlockParams& p)
    : sc_module(name),
      p_(p),
      x_(p.execute_stages - 1),
      fpu_(p.execute_stages - 1),
      replays_(p.threads, 0),
      items_(p.threads) {
  // umbra_core::checked() refuses these; a block built alone must not index past x_.
  if (p.execute_stages < uarch::kMinExecuteStages || p.execute_stages > uarch::kMaxExecuteStages)
    throw std::invalid_argument("execute: " + std::to_string(p.execute_stages) +
                                " execute stages is outside " + std::to_string(uarch::kMinExecuteStages) +
                                ".." + std::to_string(uarch::kMaxExecuteStages));
}

void execute::reset() {
  x1_ = X1Reg{};
  std::fill(x_.begin(), x_.end(), XReg{});
  fault_ = CoreFault{};
  c1_valid_ = false;
  x2_upd_valid.write(false);
  x2_mem_valid.write(false);
  w_valid.write(false);
  w_sleep.write(false);
  fault.write(false);
  fault_thread.write(0);
  fault_pc.write(0);
}

void execute::raise(Fault kind, const X1Reg& x, std::string detail) {
  if (fault_.raised) return;  // the ports keep the first fault until reset
  fault_.raised = true;
  fault_.kind = kind;
  fault_.thread = x.thread;
  fault_.pc = x.pc;
  fault_.word = x.inst.d.word;
  fault_.cycle = clock.read();
  fault_.detail = std::move(detail);
  fault.write(true);
  fault_thread.write(x.thread);
  fault_pc.write(x.pc);
}

execute::Gate execute::gate(const isa::Decoded& d, const RegValues& v, bool pushes) const {
  const bool room = lsu_room.read();
  const unsigned t = x1_.thread, none = p_.threads;
  const isa::Op op = d.op();
  if (!lsu) return {!pushes || room, none};
  auto close = [&](unsigned u) { return Gate{false, room ? u : none}; };
  if (op == isa::Op::EXIT || x1_.flush) {
    const unsigned u = lsu->buffer_of_writer(t);
    return u < none ? close(u) : Gate{room || !pushes, none};
  }
  if (!pushes || !d.info->memory) return {!pushes || room, none};
  const uint32_t a = effective_address(d, v), mask = ~(p_.cache_line_bytes - 1), line = a & mask;
  if (op == isa::Op::STW && !(a & 3u))
    return {!lsu->buffer_valid(t) || lsu->buffer_line(t) == line || room, none};
  if ((c1_valid_ && (c1_addr_ & mask) == line) || lsu->c2_touches(line)) return {false, none};
  const unsigned holder = lsu->buffer_holder(line);
  if (holder < none) return close(holder);
  if (op == isa::Op::LDW) return {room, none};
  const unsigned u = lsu->buffer_of_writer(t);  // an atomic or a misaligned stw
  return u < none ? close(u) : Gate{room, none};
}

void execute::tick() {
  uint32_t c1_next_addr = 0;  // what x2_mem_addr gets (C1 next cycle)
  if (rst.read()) {
    reset();
    return;
  }
  if (item_we.read()) items_[item_thread.read()] = {item_lx.read(), item_ly.read()};

  // End of the stage before W: the result register writeback reads in W.
  const XReg& last = x_.back();
  w_valid.write(last.valid);
  w_sleep.write(last.sleep);
  w_thread.write(last.thread);
  if (last.valid) {
    w_pc.write(last.pc);
    w_we.write(last.we);
    w_load.write(last.load);
    w_flush.write(last.flush);
    w_rd.write(last.rd);
    w_result.write(last.fpu ? fpu_.back() : last.result);
  }
  for (size_t k = x_.size() - 1; k > 0; --k) {
    x_[k] = x_[k - 1];
    fpu_[k] = fpu_[k - 1];
  }

  // X1.
  XReg next;
  next.thread = x1_.thread;
  next.sleep = x1_.sleep;
  bool upd = false, mem = false;
  ThreadStateCode upd_state = ThreadStateCode::Run;
  uint32_t upd_pc = 0;
  if (x1_.valid) {
    const uint32_t pc = x1_.pc;
    upd = true;
    upd_pc = pc;
    if (x1_.illegal) {
      raise(Fault::IllegalInstruction, x1_, illegal_reason(x1_.inst.d.word, p_.registers, p_.groups));
      upd_state = ThreadStateCode::Exited;
    } else {
      const isa::Decoded& d = x1_.inst.d;
      const isa::InstrInfo& in = *d.info;
      const RegValues v{rf_a.read(), rf_b.read(), rf_c.read()};
      const isa::Op op = d.op();
      const bool cache_ctl = op == isa::Op::DINV || op == isa::Op::DINVALL || x1_.flush;
      const bool pushes = in.memory || x1_.flush;
      const Gate g = gate(d, v, pushes);
      // Replay: nothing happens; the pc stays (upd_pc is the instruction's own).  On a
      // line port it may close a combining buffer instead (execute.h).
      auto replay = [&] {
        ++replays_[x1_.thread];
        if (g.close < p_.threads) {
          mem = true;
          c1_next_addr = lsu->buffer_line(g.close);
          x2_mem_op.write(isa::kPortOpWline);
          x2_mem_addr.write(c1_next_addr);
          x2_mem_data.write(0);
          x2_mem_cmp.write(0);
          x2_mem_tag.write(g.close);
        }
      };
      if (op == isa::Op::EXIT) {
        if (g.pass)
          upd_state = ThreadStateCode::Exited;
        else
          replay();
      } else {
        const uint32_t npc = next_pc(d, v, pc);
        const uint64_t imem_bytes = uint64_t(p_.imem_words) * 4;
        if (jump_fault(d, npc, imem_bytes) != Fault::None) {
          std::string why;
          jump_fault(d, npc, imem_bytes, &why);
          raise(Fault::BadJump, x1_, why);
          upd_state = ThreadStateCode::Exited;
        } else if (!g.pass) {
          replay();
        } else if (cache_ctl) {
          upd_pc = npc;
          mem = true;
          x2_mem_op.write(in.opcode);
          c1_next_addr = op == isa::Op::DINV ? effective_address(d, v) : 0u;
          x2_mem_addr.write(c1_next_addr);
          x2_mem_data.write(0);
          x2_mem_cmp.write(v.a);
          x2_mem_tag.write(x1_.thread);
          if (x1_.flush) {
            next.valid = true;
            next.pc = pc;
            next.flush = true;
            upd_state = ThreadStateCode::Sleep;
          }
        } else {
          upd_pc = npc;
          const bool returns = in.returns_data;
          next.valid = true;
          next.pc = pc;
          next.rd = d.a;
          next.load = returns;
          next.we = in.writes_result;
          if (in.memory) {
            mem = true;
            x2_mem_op.write(in.opcode);
            c1_next_addr = effective_address(d, v);
            x2_mem_addr.write(c1_next_addr);
            x2_mem_data.write(store_data(d, v));
            // The comparand of cas is field a's register; for other instructions this
            // is whatever field a read (0 when it is not a register read).
            x2_mem_cmp.write(v.a);
            x2_mem_tag.write(x1_.thread);
            if (returns) upd_state = ThreadStateCode::Sleep;
          } else if (next.we) {
            SpecialRegs sr;
            sr.tid = x1_.thread;
            sr.cid = p_.core_id;
            sr.nthr = p_.threads;
            sr.ncore = ncore.read();
            sr.clock = clock.read() - uarch::kFetchToX1;  // the instruction's F cycle
            const bool item = items.read();
            sr.lx = item ? items_[x1_.thread].lx : lx0.read() + x1_.thread;
            sr.ly = item ? items_[x1_.thread].ly : 0;
            sr.domw = domw.read();
            sr.domh = domh.read();
            sr.arg = args.read();
            const uint32_t result = compute(d, v, pc, sr);
            next.fpu = in.fpu;
            if (next.fpu)
              fpu_[0] = result;
            else
              next.result = result;
          }
        }
      }
    }
  }
  x_[0] = next;
  x2_upd_valid.write(upd);
  if (upd) {
    x2_upd_thread.write(x1_.thread);
    x2_upd_pc.write(upd_pc);
    x2_upd_state.write(uint32_t(upd_state));
  }
  x2_mem_valid.write(mem);
  c1_valid_ = mem;
  c1_addr_ = c1_next_addr;

  // End of R: the next instruction enters X1.
  x1_.valid = r_valid.read();
  x1_.sleep = r_sleep.read();
  x1_.thread = r_thread.read();
  if (x1_.valid) {
    x1_.pc = r_pc.read();
    x1_.illegal = r_illegal.read();
    x1_.flush = r_flush.read();
    x1_.inst = r_inst.read();
  }
}

}  // namespace umbra::scm
