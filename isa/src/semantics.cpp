// What every instruction means, with no notion of time.  The pieces (read_operands,
// compute, next_pc, effective_address, atomic_update, store_data) are pure functions
// of the decoded word and the values read, so the SystemC pipeline can call each from
// the stage that does that work and still agree bit for bit with execute(), which
// the reference simulator uses to run one whole instruction.  Every switch is over
// the generated isa::Op enum; no opcode number appears here.
#include "umbra/semantics.h"

#include <algorithm>
#include <cstdio>

#include "umbra/format.h"
#include "umbra/fp32.h"

namespace umbra {

using isa::Op;

namespace {

// Field a holds the destination in every instruction that writes a register; the
// two-register forms (fabs, itof, ...) read field b only, so field c is ignored.
inline uint32_t reg(const ThreadState& t, uint8_t n) {
  return n == isa::kZeroRegister ? 0 : t.r[n];
}

inline int32_t s32(uint32_t v) {
  return int32_t(v);
}
inline uint32_t b2u(bool b) {
  return b ? 1u : 0u;
}

// The immediate of a register-immediate form, sign-extended as its kind says.
int32_t imm_operand(const isa::Decoded& d) {
  for (unsigned i = 0; i < d.info->num_operands; ++i) {
    const isa::Kind k = d.info->operands[i].kind;
    if (k != isa::Kind::Reg && k != isa::Kind::Sreg && k != isa::Kind::Mem && !isa::kind_info(k).pcrel)
      return d.operand(int(i));
  }
  return 0;
}

}  // namespace

uint32_t SpecialRegs::read(uint8_t number) const {
  switch (number) {
    case isa::sreg::TID: return tid;
    case isa::sreg::CID: return cid;
    case isa::sreg::NTHR: return nthr;
    case isa::sreg::NCORE: return ncore;
    case isa::sreg::CLOCK: return uint32_t(clock);
    case isa::sreg::CLOCKH: return uint32_t(clock >> 32);
    case isa::sreg::LX: return lx;
    case isa::sreg::LY: return ly;
    case isa::sreg::DOMW: return domw;
    case isa::sreg::DOMH: return domh;
    case isa::sreg::ARG: return arg;
    default: return 0;  // decode rejects numbers no special register has
  }
}

RegValues read_operands(const isa::Decoded& d, const ThreadState& t) {
  RegValues v;
  if (d.info->reads_a) v.a = reg(t, d.a);
  if (d.info->reads_b) v.b = reg(t, d.b);
  if (d.info->reads_c) v.c = reg(t, d.c);
  return v;
}

uint32_t compute(const isa::Decoded& d, const RegValues& v, uint32_t pc, const SpecialRegs& sr) {
  const uint32_t a = v.a, b = v.b, c = v.c;
  switch (d.op()) {
    case Op::RDSR: return sr.read(d.b);
    case Op::MOVI: return uint32_t(imm_operand(d));
    case Op::MOVHI: return (uint32_t(imm_operand(d)) << 16) | (a & 0xffffu);

    case Op::ADD: return b + c;
    case Op::SUB: return b - c;
    case Op::AND: return b & c;
    case Op::OR: return b | c;
    case Op::XOR: return b ^ c;
    case Op::SHL: return b << (c & 31);
    case Op::SHR: return b >> (c & 31);
    case Op::SRA: return uint32_t(s32(b) >> (c & 31));
    case Op::MUL: return b * c;
    case Op::MULH: return uint32_t(uint64_t(int64_t(s32(b)) * int64_t(s32(c))) >> 32);
    case Op::MULHU: return uint32_t((uint64_t(b) * uint64_t(c)) >> 32);
    case Op::MIN: return s32(b) < s32(c) ? b : c;
    case Op::MAX: return s32(b) > s32(c) ? b : c;
    case Op::MINU: return b < c ? b : c;
    case Op::MAXU: return b > c ? b : c;

    case Op::SEQ: return b2u(b == c);
    case Op::SNE: return b2u(b != c);
    case Op::SLT: return b2u(s32(b) < s32(c));
    case Op::SLTU: return b2u(b < c);
    case Op::SLE: return b2u(s32(b) <= s32(c));
    case Op::SLEU: return b2u(b <= c);

    case Op::ADDI: return b + uint32_t(imm_operand(d));
    case Op::ANDI: return b & uint32_t(imm_operand(d));
    case Op::ORI: return b | uint32_t(imm_operand(d));
    case Op::XORI: return b ^ uint32_t(imm_operand(d));
    // uimm5: decode has already rejected amounts above 31.
    case Op::SHLI: return b << (imm_operand(d) & 31);
    case Op::SHRI: return b >> (imm_operand(d) & 31);
    case Op::SRAI: return uint32_t(s32(b) >> (imm_operand(d) & 31));
    case Op::SLTI: return b2u(s32(b) < imm_operand(d));
    case Op::SEQI: return b2u(b == uint32_t(imm_operand(d)));
    case Op::MULI: return b * uint32_t(imm_operand(d));

    case Op::FADD: return fp32::add(b, c);
    case Op::FSUB: return fp32::sub(b, c);
    case Op::FMUL: return fp32::mul(b, c);
    case Op::FMADD: return fp32::madd(b, c, a);
    case Op::FMIN: return fp32::min(b, c);
    case Op::FMAX: return fp32::max(b, c);
    case Op::FABS: return fp32::abs(b);
    case Op::FNEG: return fp32::neg(b);
    case Op::FSEQ: return b2u(fp32::eq(b, c));
    case Op::FSLT: return b2u(fp32::lt(b, c));
    case Op::FSLE: return b2u(fp32::le(b, c));
    case Op::ITOF: return fp32::itof(s32(b));
    case Op::FTOI: return uint32_t(fp32::ftoi(b));
    case Op::PACK: return (a << 16) | (fp32::to_unorm8(b) << 8) | fp32::to_unorm8(c);
    case Op::UNPACK: return fp32::from_unorm8((b >> (8 * (imm_operand(d) & 3))) & 0xffu);

    case Op::JAL:
    case Op::JALR: return pc + 4;

    // No register result: special, memory, atomic and branch instructions that do
    // not link.  Loads and atom.* results come from memory, not from here.
    case Op::NOP:
    case Op::EXIT:
    case Op::DINV:
    case Op::DINVALL:
    case Op::DFLUSH:
    case Op::LDW:
    case Op::STW:
    case Op::RED_ADD:
    case Op::RED_MIN:
    case Op::RED_MAX:
    case Op::RED_XCHG:
    case Op::RED_CAS:
    case Op::ATOM_ADD:
    case Op::ATOM_MIN:
    case Op::ATOM_MAX:
    case Op::ATOM_XCHG:
    case Op::ATOM_CAS:
    case Op::J:
    case Op::BZ:
    case Op::BNZ:
    case Op::BEQ:
    case Op::BNE:
    case Op::BLT:
    case Op::BGE:
    case Op::BLTU:
    case Op::BGEU: return 0;
  }
  return 0;
}

uint32_t next_pc(const isa::Decoded& d, const RegValues& v, uint32_t pc) {
  const uint32_t seq = pc + 4;
  const uint32_t a = v.a, b = v.b;
  auto taken = [&](bool cond) { return cond ? d.target(pc) : seq; };
  switch (d.op()) {
    case Op::J:
    case Op::JAL: return d.target(pc);
    case Op::JALR: return b;  // alignment is checked by jump_fault / execute
    case Op::BZ: return taken(a == 0);
    case Op::BNZ: return taken(a != 0);
    case Op::BEQ: return taken(a == b);
    case Op::BNE: return taken(a != b);
    case Op::BLT: return taken(s32(a) < s32(b));
    case Op::BGE: return taken(s32(a) >= s32(b));
    case Op::BLTU: return taken(a < b);
    case Op::BGEU: return taken(a >= b);
    default: return seq;
  }
}

uint32_t effective_address(const isa::Decoded& d, const RegValues& v) {
  switch (d.info->cls) {
    // Atomics address memory through ra (field b) with no offset.
    case isa::Class::Atomic: return v.b;
    default:
      for (unsigned i = 0; i < d.info->num_operands; ++i)
        if (d.info->operands[i].kind == isa::Kind::Mem) return v.b + uint32_t(d.operand(int(i)));
      return 0;
  }
}

uint32_t atomic_update(isa::Op op, uint32_t old, const RegValues& v) {
  const uint32_t val = v.c;  // rb, the operand every atomic carries to memory
  switch (op) {
    case Op::RED_ADD:
    case Op::ATOM_ADD: return old + val;
    case Op::RED_MIN:
    case Op::ATOM_MIN: return s32(old) < s32(val) ? old : val;
    case Op::RED_MAX:
    case Op::ATOM_MAX: return s32(old) > s32(val) ? old : val;
    case Op::RED_XCHG:
    case Op::ATOM_XCHG: return val;
    // The comparand is rc (red.cas) or rd (atom.cas), both in field a.
    case Op::RED_CAS:
    case Op::ATOM_CAS: return old == v.a ? val : old;
    default: return old;
  }
}

uint32_t store_data(const isa::Decoded& d, const RegValues& v) {
  if (d.info->cls == isa::Class::Store) return v.a;
  if (d.info->cls == isa::Class::Atomic) return v.c;
  return 0;
}

bool is_memory_op(const isa::Decoded& d) {
  const isa::Class c = d.info->cls;
  return c == isa::Class::Load || c == isa::Class::Store || c == isa::Class::Atomic;
}

Fault jump_fault(const isa::Decoded& d, uint32_t target, uint64_t imem_bytes, std::string* why) {
  if (d.op() == Op::JALR && (target & 3u) != 0) {
    if (why) *why = "jump target " + hex8(target) + " is not a multiple of 4";
    return Fault::BadJump;
  }
  if (uint64_t(target) + 4 > imem_bytes) {
    if (why) {
      const bool is_jump = d.info->cls == isa::Class::Branch;
      *why = std::string(is_jump ? "target " : "next pc ") + hex8(target) +
             " is outside the instruction store (" + std::to_string(imem_bytes / 4) + " words)";
    }
    return Fault::BadJump;
  }
  return Fault::None;
}

namespace {

int highest_register(const isa::Decoded& d) {
  int hi = -1;
  for (unsigned i = 0; i < d.info->num_operands; ++i) {
    const isa::OperandInfo& op = d.info->operands[i];
    if (op.kind == isa::Kind::Reg) hi = std::max(hi, d.operand(int(i)));
    if (op.kind == isa::Kind::Mem) hi = std::max(hi, int(d.mem_base()));
  }
  return hi;
}

}  // namespace

std::string illegal_reason(const isa::Decoded& d, unsigned registers, uint32_t groups) {
  if (!isa::in_groups(*d.info, groups))
    return std::string(d.info->name) + " is in extension group " + isa::kGroups[d.info->group].name +
           ", which this core does not have";
  const int hi = highest_register(d);
  if (hi < int(registers)) return "";
  return "r" + std::to_string(hi) + " does not exist: the core has " + std::to_string(registers) +
         " registers";
}

std::string illegal_reason(uint32_t word, unsigned registers, uint32_t groups) {
  std::string why;
  const auto d = isa::decode(word, &why);
  return d ? illegal_reason(*d, registers, groups) : why;
}

std::string access_fault_reason(Fault f, const char* mnemonic, uint32_t addr, uint64_t mem_bytes) {
  const std::string a = std::string(mnemonic) + " address " + hex8(addr);
  if (f == Fault::Misaligned) return a + " is not a multiple of 4";
  return a + " is beyond data memory (" + std::to_string(mem_bytes) + " bytes)";
}

const char* fault_name(Fault f) {
  switch (f) {
    case Fault::None: return "none";
    case Fault::IllegalInstruction: return "illegal instruction";
    case Fault::Misaligned: return "misaligned access";
    case Fault::OutOfRange: return "out-of-range access";
    case Fault::BadJump: return "bad jump";
    case Fault::InstructionLimit: return "instruction limit";
  }
  return "?";
}

Retired execute(uint32_t word, ThreadState& t, Memory& mem, const SpecialRegs& sr, uint64_t imem_bytes) {
  std::string why;
  const auto dec = isa::decode(word, &why);
  if (!dec) {
    Retired r;
    r.pc = r.next_pc = t.pc;  // a faulting instruction leaves the thread where it was
    r.word = word;
    r.fault = Fault::IllegalInstruction;
    r.fault_detail = why;
    return r;
  }
  return execute(*dec, t, mem, sr, imem_bytes);
}

Retired execute(const isa::Decoded& d, ThreadState& t, Memory& mem, const SpecialRegs& sr,
                uint64_t imem_bytes) {
  Retired r;
  r.pc = t.pc;
  r.word = d.word;
  r.next_pc = t.pc;  // a faulting instruction leaves the thread where it was
  std::string why;
  const RegValues v = read_operands(d, t);

  if (d.op() == Op::EXIT) {
    r.exited = true;  // the thread stays on its exit, which is where results show it
    return r;
  }

  const uint32_t npc = next_pc(d, v, t.pc);
  const Fault jf = jump_fault(d, npc, imem_bytes, &why);
  if (jf != Fault::None) {
    r.fault = jf;
    r.fault_detail = why;
    return r;
  }

  uint32_t result = 0;
  if (is_memory_op(d)) {
    const uint32_t addr = effective_address(d, v);
    r.addr = addr;
    if (addr & 3u) {
      r.fault = Fault::Misaligned;
      r.fault_detail = access_fault_reason(r.fault, d.info->name, addr, mem.size_bytes());
      return r;
    }
    if (!mem.in_range(addr)) {
      r.fault = Fault::OutOfRange;
      r.fault_detail = access_fault_reason(r.fault, d.info->name, addr, mem.size_bytes());
      return r;
    }
    switch (d.info->cls) {
      case isa::Class::Load:
        r.mem = Retired::Mem::Load;
        result = mem.load32(addr);
        r.data = result;
        break;
      case isa::Class::Store:
        r.mem = Retired::Mem::Store;
        r.data = store_data(d, v);
        mem.store32(addr, r.data);
        break;
      default: {  // atomic: read, modify and write in one step
        r.mem = Retired::Mem::Atomic;
        const uint32_t old = mem.load32(addr);
        r.data = atomic_update(d.op(), old, v);
        mem.store32(addr, r.data);
        result = old;
        break;
      }
    }
  } else {
    // dinv, dinvall and dflush act on the cache and the store path, which the
    // reference simulator does not have: architecturally they do nothing.
    result = compute(d, v, t.pc, sr);
  }

  r.value = result;
  if (d.info->writes_a && d.a != isa::kZeroRegister) {
    r.writes_reg = true;
    r.reg = d.a;
    t.r[d.a] = result;
  }
  r.next_pc = npc;
  t.pc = npc;
  return r;
}

}  // namespace umbra
