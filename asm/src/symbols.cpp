// The assembler's symbol table and the evaluation of expressions against it: labels
// and constants are defined in pass 1; a constant whose value is not yet known keeps
// its expression and is resolved on first use or after pass 1, in definition order,
// so a circular or too deep chain of definitions is reported at the definition.
#include "assembler.h"

namespace umbra::as::detail {

ExprPtr num_expr(int64_t v, int col) {
  auto e = std::make_unique<Expr>();
  e->op = Expr::Num;
  e->value = v;
  e->col = col;
  return e;
}

SymDef* Assembler::find_sym(const std::string& name) {
  auto it = sym_index_.find(name);
  return it == sym_index_.end() ? nullptr : &syms_[it->second];
}

bool Assembler::check_symbol_name(const Token& t) {
  if (t.type != Token::Ident) {
    error(t.col, "expected a symbol name, got '" + t.text + "'");
    return false;
  }
  if (t.text == ".") {
    error(t.col, "'.' (the current address) cannot be defined");
    return false;
  }
  if (register_number(t.text)) {
    error(t.col, "'" + t.text + "' is a register name and cannot be a symbol");
    return false;
  }
  return true;
}

SymDef* Assembler::define(const Token& t, bool is_label) {
  if (!check_symbol_name(t)) return nullptr;
  if (SymDef* old = find_sym(t.text)) {
    error(t.col, std::string(is_label ? "duplicate label '" : "duplicate symbol '") + t.text +
                     "' (first defined at " + files_[old->loc.file].path + ":" +
                     std::to_string(old->loc.line) + ":" + std::to_string(old->col) + ")");
    return nullptr;
  }
  sym_index_[t.text] = syms_.size();
  syms_.push_back(SymDef{});
  SymDef& s = syms_.back();
  s.name = t.text;
  s.is_label = is_label;
  s.loc = cur_;
  s.col = t.col;
  return &s;
}

std::optional<int64_t> Assembler::lookup_early(const std::string& name) {
  SymDef* s = find_sym(name);
  if (!s || s->broken) return std::nullopt;
  if (s->known) return s->value;
  if (!s->expr || s->resolving || depth_ >= kMaxChain) return std::nullopt;
  s->resolving = true;
  ++depth_;
  std::optional<ExprError> err;
  const Expr* unknown = nullptr;
  auto v = eval(*s->expr, early_fn(), &err, &unknown);
  --depth_;
  s->resolving = false;
  if (v) s->known = true, s->value = *v;
  return v;
}

SymbolFn Assembler::early_fn() {
  return [this](const std::string& n, int, std::optional<ExprError>*) { return lookup_early(n); };
}

std::optional<int64_t> Assembler::lookup_final(const std::string& name, int col,
                                               std::optional<ExprError>* err) {
  SymDef* s = find_sym(name);
  if (!s) {
    *err = ExprError{col, "undefined symbol '" + name + "'"};
    return std::nullopt;
  }
  if (s->known) return s->value;
  if (s->resolving) {
    *err = ExprError{col, "circular definition: '" + name + "' depends on itself"};
    return std::nullopt;
  }
  if (!s->broken && depth_ >= kMaxChain) {
    *err = ExprError{col, "constant definitions nested too deeply (a chain of more than " +
                              std::to_string(kMaxChain) + ")"};
    return std::nullopt;
  }
  if (!s->broken) resolve(*s);
  if (s->known) return s->value;
  *err = ExprError{-1, ""};
  return std::nullopt;
}

SymbolFn Assembler::final_fn() {
  return [this](const std::string& n, int col, std::optional<ExprError>* err) {
    return lookup_final(n, col, err);
  };
}

void Assembler::resolve(SymDef& s) {
  s.resolving = true;
  ++depth_;
  std::optional<ExprError> err;
  const Expr* unknown = nullptr;
  auto v = eval(*s.expr, final_fn(), &err, &unknown);
  --depth_;
  s.resolving = false;
  if (v) {
    s.known = true, s.value = *v;
    return;
  }
  s.broken = true;
  if (err && err->col >= 0) error(s.loc, err->col, err->message);
}

std::optional<int64_t> Assembler::eval_early(const Expr& e, bool* failed, const Expr** unknown) {
  std::optional<ExprError> err;
  *unknown = nullptr;
  auto v = eval(e, early_fn(), &err, unknown);
  if (err) {
    error(err->col, err->message);
    *failed = true;
  }
  return v;
}

std::optional<int64_t> Assembler::need_now(const Expr& e, const std::string& what) {
  bool failed = false;
  const Expr* unknown = nullptr;
  auto v = eval_early(e, &failed, &unknown);
  if (!v && !failed && unknown) pending_.push_back({cur_, unknown->col, unknown->name, what});
  return v;
}

std::optional<int64_t> Assembler::eval_final(const Loc& loc, const Expr& e) {
  std::optional<ExprError> err;
  const Expr* unknown = nullptr;
  auto v = eval(e, final_fn(), &err, &unknown);
  if (err && err->col >= 0) error(loc, err->col, err->message);
  return v;
}

void Assembler::constant(const Token& name, const std::vector<Token>& t, size_t b, int col) {
  if (b >= t.size()) return error(col, "expected an expression after '='");
  std::optional<ExprError> err;
  ExprPtr e = parse_expr(t, b, t.size(), int64_t(loc_[sec_]), "an expression", &err);
  if (err) return error(err->col, err->message);
  define_constant(name, std::move(e));
}

void Assembler::define_constant(const Token& name, ExprPtr e) {
  bool failed = false;
  const Expr* unknown = nullptr;
  auto v = eval_early(*e, &failed, &unknown);
  SymDef* s = define(name, false);
  if (!s) return;
  if (failed) {
    s->broken = true;
  } else if (v) {
    s->known = true, s->value = *v;
  } else {
    s->expr = std::move(e);
  }
}

void Assembler::after_pass1() {
  for (const Pending& p : pending_) {
    const SymDef* s = find_sym(p.sym);
    if (!s)
      error(p.loc, p.col, "undefined symbol '" + p.sym + "'");
    else if (!s->broken)
      error(p.loc, p.col,
            "'" + p.sym + "' must be defined before this line (the " + p.what + " must be known here)");
  }
  for (const auto& g : globals_) {
    SymDef* s = find_sym(g.first);
    if (!s)
      error(g.second.first, g.second.second, "undefined symbol '" + g.first + "' declared .global");
    else
      s->global = true;
  }
  // Constants are resolved in definition order so an error inside one is reported
  // at its own line.
  for (SymDef& s : syms_)
    if (!s.known && !s.broken && s.expr) resolve(s);
}

}  // namespace umbra::as::detail
