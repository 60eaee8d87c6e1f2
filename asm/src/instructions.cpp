// Instructions: their operands are parsed in pass 1 (registers checked against the
// target, expressions kept as trees), pseudo-instructions rewritten into real ones,
// and in pass 2 every statement is evaluated, range-checked and encoded through the
// generated ISA tables (isa::encode, operand_range) into the program image.
#include "assembler.h"

namespace umbra::as::detail {

namespace {

// Pseudo-instructions (isa.yaml pseudo_instructions).  Each is rewritten into real
// instructions by name; the encodings still come from the tables.
struct PseudoDef {
  const char* name;
  std::vector<Want> wants;
};
const std::vector<PseudoDef>& pseudos() {
  static const std::vector<PseudoDef> p = {{"li", {Want::Reg, Want::Value}},
                                           {"la", {Want::Reg, Want::Value}},
                                           {"mov", {Want::Reg, Want::Reg}},
                                           {"not", {Want::Reg, Want::Reg}},
                                           {"neg", {Want::Reg, Want::Reg}},
                                           {"b", {Want::Br}},
                                           {"ret", {}},
                                           {"call", {Want::Br}}};
  return p;
}
const PseudoDef* find_pseudo(const std::string& name) {
  for (const PseudoDef& p : pseudos())
    if (name == p.name) return &p;
  return nullptr;
}

Want want_of(isa::Kind k) {
  switch (k) {
    case isa::Kind::Reg: return Want::Reg;
    case isa::Kind::Sreg: return Want::Sreg;
    case isa::Kind::Mem: return Want::Mem;
    default: return isa::kind_info(k).pcrel ? Want::Br : Want::Imm;
  }
}

}  // namespace

bool Assembler::check_reg(long n, int col, const std::string& text) {
  if (n >= long(isa::kRegisters)) {
    error(col, "register '" + text + "' does not exist (the ISA has r0..r" +
                   std::to_string(isa::kRegisters - 1) + ")");
    return false;
  }
  if (n >= long(opts_.registers)) {
    error(col, "register '" + text + "' is beyond this target's " + std::to_string(opts_.registers) +
                   " registers (r0..r" + std::to_string(opts_.registers - 1) + ")");
    return false;
  }
  return true;
}

bool Assembler::parse_operand(const std::vector<Token>& t, size_t b, size_t e, Want want, Operand* op,
                              uint32_t dot) {
  op->col = t[b].col;
  op->want = want;
  const std::string text = span_text(t, b, e);
  std::optional<ExprError> err;
  auto expr = [&](const char* what) {
    op->expr = parse_expr(t, b, e, dot, what, &err);
    if (err) error(err->col, err->message);
    return !err;
  };
  switch (want) {
    case Want::Reg: {
      std::optional<long> n;
      if (e - b == 1 && t[b].type == Token::Ident) n = register_number(t[b].text);
      if (!n) {
        error(op->col, "expected a register, got '" + text + "'");
        return false;
      }
      op->reg = *n;
      return check_reg(*n, op->col, text);
    }
    case Want::Sreg:
      if (e - b == 1 && t[b].type == Token::Ident) {
        if (register_number(t[b].text)) {
          error(op->col, "expected a special register, got '" + text + "'");
          return false;
        }
        if (const isa::SpecialRegInfo* s = isa::find_sreg(t[b].text)) {
          op->expr = num_expr(s->number, op->col);
          return true;
        }
      }
      return expr("a special register");
    case Want::Imm: return expr("an immediate");
    case Want::Value: return expr("a value");
    case Want::Br: return expr("a branch target");
    case Want::Mem: {
      // OFFSET(rB) or (rB): the last parenthesised group holds the base register.
      size_t open = e;
      if (t[e - 1].type == Token::Punct && t[e - 1].text == ")") {
        int depth = 0;
        for (size_t k = e; k-- > b;) {
          if (t[k].type == Token::Punct && t[k].text == ")") ++depth;
          if (t[k].type == Token::Punct && t[k].text == "(" && --depth == 0) {
            open = k;
            break;
          }
        }
      }
      if (open == e) {
        error(op->col, "expected a memory operand OFFSET(rB), got '" + text + "'");
        return false;
      }
      std::optional<long> n;
      if (e - open == 3 && t[open + 1].type == Token::Ident) n = register_number(t[open + 1].text);
      if (!n) {
        error(t[open + 1 < e - 1 ? open + 1 : open].col,
              "expected a base register inside the parentheses, got '" + span_text(t, open + 1, e - 1) + "'");
        return false;
      }
      op->reg = *n;
      if (!check_reg(*n, t[open + 1].col, t[open + 1].text)) return false;
      if (open == b) {
        op->expr = num_expr(0, op->col);
        return true;
      }
      op->expr = parse_expr(t, b, open, dot, "a memory offset", &err);
      if (err) error(err->col, err->message);
      return !err;
    }
  }
  return false;
}

void Assembler::instruction(const std::vector<Token>& t, size_t i) {
  const Token& m = t[i];
  const isa::InstrInfo* in = isa::find_name(m.text);
  const PseudoDef* pseudo = in ? nullptr : find_pseudo(m.text);
  if (!in && !pseudo) {
    std::vector<std::string> names;
    for (const isa::InstrInfo& x : isa::kInstrs) names.push_back(x.name);
    for (const PseudoDef& p : pseudos()) names.push_back(p.name);
    const std::string near = closest(m.text, names);
    return error(
        m.col, "unknown mnemonic '" + m.text + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  if (sec_ != kText)
    return error(m.col, "instruction '" + m.text + "' in .data (instructions belong in .text)");
  // Pseudo-instructions expand to base instructions only, which every target has.
  if (in && !isa::in_groups(*in, opts_.groups)) {
    error(m.col, "'" + m.text + "' is in extension group '" + isa::kGroups[in->group].name +
                     "', which configuration " + opts_.config +
                     " does not have (core.groups: " + group_names(opts_.groups) + ")");
    diags_.back().group = in->group;
    return;
  }
  std::vector<Want> wants;
  if (in)
    for (unsigned k = 0; k < in->num_operands; ++k) wants.push_back(want_of(in->operands[k].kind));
  else
    wants = pseudo->wants;

  std::vector<std::pair<size_t, size_t>> spans;
  bool ok = split_operands(t, i + 1, t.size(), &spans);
  if (ok && spans.size() != wants.size()) {
    error(m.col, m.text + " takes " +
                     (wants.empty() ? std::string("no operands") : plural(wants.size(), "operand")) +
                     ", got " + std::to_string(spans.size()));
    ok = false;
  }
  std::vector<Operand> ops(wants.size());
  const uint32_t dot = uint32_t(loc_[kText]);
  if (ok)
    for (size_t k = 0; k < wants.size(); ++k) {
      if (in) ops[k].kind = in->operands[k].kind;
      if (!parse_operand(t, spans[k].first, spans[k].second, wants[k], &ops[k], dot)) ok = false;
    }

  Stmt::Kind kind = Stmt::Instr;
  uint64_t size = 4;
  if (pseudo) {
    const std::string p = pseudo->name;
    auto reg = [&](long n) {
      Operand o;
      o.reg = n, o.col = m.col, o.want = Want::Reg;
      return o;
    };
    auto with_kind = [](Operand o, isa::Kind k) {
      o.kind = k;
      return o;
    };
    // call and ret use r31, the link register by convention; the target must have it.
    if ((p == "call" || p == "ret") && !check_reg(31, m.col, "r31")) ok = false;
    if (p == "li" || p == "la") {
      kind = Stmt::Li;
      size = 8;
      if (ok && p == "li") {
        bool failed = false;
        const Expr* unknown = nullptr;
        auto v = eval_early(*ops[1].expr, &failed, &unknown);
        if (failed) ok = false;
        if (v && *v >= -32768 && *v <= 32767) size = 4;
      }
    } else if (ok) {
      std::vector<Operand> x;
      if (p == "mov" || p == "not") {
        in = isa::find_name(p == "mov" ? "addi" : "xori");
        x.push_back(std::move(ops[0]));
        x.push_back(std::move(ops[1]));
        Operand imm;
        imm.col = m.col, imm.want = Want::Imm, imm.expr = num_expr(p == "mov" ? 0 : -1, m.col);
        x.push_back(std::move(imm));
      } else if (p == "neg") {
        in = isa::find_name("sub");
        x.push_back(std::move(ops[0]));
        x.push_back(reg(0));
        x.push_back(std::move(ops[1]));
      } else if (p == "b") {
        in = isa::find_name("j");
        x.push_back(std::move(ops[0]));
      } else if (p == "call") {
        in = isa::find_name("jal");
        x.push_back(reg(31));
        x.push_back(std::move(ops[0]));
      } else if (p == "ret") {
        in = isa::find_name("jalr");
        x.push_back(reg(0));
        x.push_back(reg(31));
      }
      for (unsigned k = 0; k < in->num_operands; ++k) x[k] = with_kind(std::move(x[k]), in->operands[k].kind);
      ops = std::move(x);
    }
  }
  Stmt* s = add_stmt(kind, m.col, m.text, size);
  if (!s) return;
  s->in = in;
  s->ops = std::move(ops);
  s->failed = !ok;
}

std::optional<int32_t> Assembler::operand_value(const Stmt& s, const Operand& op) {
  const auto range_error = [&](const std::string& what, int64_t v, isa::Range r, const char* unit) {
    error(s.loc, op.col,
          what + " " + std::to_string(v) + " is out of range " + std::to_string(r.lo) + ".." +
              std::to_string(r.hi) + unit);
    return std::nullopt;
  };
  switch (op.want) {
    case Want::Reg: return int32_t(op.reg);
    case Want::Sreg: {
      if (op.expr->op == Expr::Sym && !find_sym(op.expr->name)) {
        std::string names;
        for (const isa::SpecialRegInfo& r : isa::kSpecialRegs)
          names += (names.empty() ? "" : ", ") + std::string(r.name);
        error(s.loc, op.col, "unknown special register '" + op.expr->name + "' (one of " + names + ")");
        return std::nullopt;
      }
      auto v = eval_final(s.loc, *op.expr);
      if (!v) return std::nullopt;
      if (*v < 0 || *v > 255 || !isa::find_sreg(uint8_t(*v))) {
        error(s.loc, op.col, "special register " + std::to_string(*v) + " does not exist");
        return std::nullopt;
      }
      return int32_t(*v);
    }
    case Want::Imm: {
      auto v = eval_final(s.loc, *op.expr);
      if (!v) return std::nullopt;
      const isa::Range r = isa::operand_range(op.kind);
      if (*v < r.lo || *v > r.hi) return range_error("immediate", *v, r, "");
      return int32_t(*v);
    }
    case Want::Br: {
      if (op.expr->op == Expr::Sym)
        if (const SymDef* d = find_sym(op.expr->name); d && d->is_label && d->sec == kData) {
          error(s.loc, op.col, "branch target '" + d->name + "' is a .data label, not code");
          return std::nullopt;
        }
      auto v = eval_final(s.loc, *op.expr);
      if (!v) return std::nullopt;
      // A branch operand is an address; a small negative number here is almost
      // always someone writing a relative offset by hand.
      if (*v < 0 || *v > int64_t(UINT32_MAX)) {
        error(s.loc, op.col, "branch target " + std::to_string(*v) + " is not an address (0..0xffffffff)");
        return std::nullopt;
      }
      if (*v % 4 != 0) {
        error(s.loc, op.col, "branch target " + hex(uint64_t(*v)) + " is not a multiple of 4");
        return std::nullopt;
      }
      const int64_t off = (*v - int64_t(s.addr)) / 4;
      const isa::Range r = isa::operand_range(op.kind);
      if (off < r.lo || off > r.hi) {
        error(s.loc, op.col,
              "branch target out of range: offset " + std::to_string(off) + " words, " + s.mnemonic +
                  " reaches " + std::to_string(r.lo) + ".." + std::to_string(r.hi) + " words");
        return std::nullopt;
      }
      return int32_t(off);
    }
    case Want::Mem: {
      auto v = eval_final(s.loc, *op.expr);
      if (!v) return std::nullopt;
      const isa::KindInfo& ki = isa::kind_info(op.kind);
      if (*v % ki.scale != 0) {
        error(s.loc, op.col,
              "memory offset " + std::to_string(*v) + " is not a multiple of " + std::to_string(ki.scale));
        return std::nullopt;
      }
      const isa::Range r = isa::operand_range(op.kind);
      if (*v < r.lo || *v > r.hi) return range_error("memory offset", *v, r, "");
      return int32_t(*v);
    }
    case Want::Value: {
      auto v = eval_final(s.loc, *op.expr);
      if (!v) return std::nullopt;
      if (*v < INT32_MIN || *v > int64_t(UINT32_MAX)) {
        error(s.loc, op.col, "value " + std::to_string(*v) + " does not fit in 32 bits");
        return std::nullopt;
      }
      return int32_t(uint32_t(*v));
    }
  }
  return std::nullopt;
}

std::optional<uint32_t> Assembler::encode(const Stmt& s, const isa::InstrInfo& in, const int32_t* values,
                                          uint8_t base) {
  std::string why;
  auto w = isa::encode(in, values, base, &why);
  if (!w) error(s.loc, s.col, why);
  return w;
}

std::vector<uint32_t> Assembler::emit(const Stmt& s, bool* ok) {
  std::vector<uint32_t> words;
  *ok = false;
  switch (s.kind) {
    case Stmt::Instr: {
      int32_t values[3] = {0, 0, 0};
      uint8_t base = 0;
      bool good = true;
      for (size_t k = 0; k < s.ops.size(); ++k) {
        auto v = operand_value(s, s.ops[k]);
        good &= bool(v);
        values[k] = v.value_or(0);
        if (s.ops[k].want == Want::Mem) base = uint8_t(s.ops[k].reg);
      }
      if (!good) return words;
      auto w = encode(s, *s.in, values, base);
      if (!w) return words;
      words.push_back(*w);
      break;
    }
    case Stmt::Li: {
      auto v = operand_value(s, s.ops[1]);
      if (!v) return words;
      const uint32_t u = uint32_t(*v);
      const isa::InstrInfo& movi = *isa::find_name("movi");
      int32_t vals[2] = {int32_t(s.ops[0].reg), int32_t(int16_t(uint16_t(u & 0xffff)))};
      auto w = encode(s, movi, vals, 0);
      if (!w) return words;
      words.push_back(*w);
      if (s.size == 8) {
        int32_t hi[2] = {int32_t(s.ops[0].reg), int32_t(u >> 16)};
        auto w2 = encode(s, *isa::find_name("movhi"), hi, 0);
        if (!w2) return words;
        words.push_back(*w2);
      }
      break;
    }
    case Stmt::Word: {
      bool good = true;
      for (const Operand& op : s.ops) {
        auto v = operand_value(s, op);
        good &= bool(v);
        words.push_back(uint32_t(v.value_or(0)));
      }
      if (!good) return words;
      break;
    }
    case Stmt::Float: words = s.words; break;
    case Stmt::Fill: break;
  }
  *ok = true;
  return words;
}

void Assembler::pass2() {
  Program& p = result_.program;
  p.text_base = 0;
  p.data_base = opts_.data_base;
  p.text.assign(size_t(loc_[kText] / 4), 0);
  p.data.assign(size_t(loc_[kData] - opts_.data_base), 0);
  uint32_t nop = 0;
  {
    const int32_t none[1] = {0};
    nop = *isa::encode(*isa::find_name("nop"), none);
  }
  for (const Stmt& s : stmts_) {
    if (s.failed) continue;
    bool ok = false;
    std::vector<uint32_t> words = emit(s, &ok);
    if (!ok) continue;
    std::vector<uint8_t> bytes;
    if (s.kind == Stmt::Fill) {
      if (s.sec == kText) {
        const uint32_t fill = s.nop_fill ? nop : s.fill * 0x01010101u;
        words.assign(s.size / 4, fill);
      } else {
        bytes.assign(s.size, s.fill);
      }
    }
    if (s.sec == kText) {
      std::copy(words.begin(), words.end(), p.text.begin() + s.addr / 4);
    } else {
      if (bytes.empty())
        for (uint32_t w : words)
          for (int k = 0; k < 4; ++k) bytes.push_back(uint8_t(w >> (8 * k)));
      std::copy(bytes.begin(), bytes.end(), p.data.begin() + (s.addr - opts_.data_base));
    }
    if (s.listing >= 0) {
      ListingLine& l = p.listing[size_t(s.listing)];
      if (s.sec == kText || !bytes.size()) {
        l.words.insert(l.words.end(), words.begin(), words.end());
      } else {
        for (size_t k = 0; k < bytes.size(); k += 4) {
          uint32_t w = 0;
          for (size_t j = 0; j < 4 && k + j < bytes.size(); ++j) w |= uint32_t(bytes[k + j]) << (8 * j);
          l.words.push_back(w);
        }
      }
    }
  }
}

}  // namespace umbra::as::detail
