// The assembler's directives (.text, .data, .word, .float, .space, .align, .equ,
// .include, .global): their operands are checked and laid out in pass 1; what is
// left for pass 2 (the values of .word) becomes a statement like an instruction's.
#include <cerrno>
#include <cmath>
#include <cstring>

#include "assembler.h"

namespace umbra::as::detail {

namespace {

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> d = {".text",  ".data", ".word",    ".float",  ".space",
                                             ".align", ".equ",  ".include", ".global", ".globl"};
  return d;
}

}  // namespace

void Assembler::directive(const std::vector<Token>& t, size_t i, const std::string& dir) {
  const Token& d = t[i];
  const std::string& name = d.text;
  std::vector<std::pair<size_t, size_t>> spans;
  if (name == ".include") {
    if (i + 2 != t.size() || t[i + 1].type != Token::String)
      return error(i + 1 < t.size() ? t[i + 1].col : d.col + d.len,
                   "expected a quoted file name after .include");
    return include(t[i + 1], dir);
  }
  if (!split_operands(t, i + 1, t.size(), &spans)) return;
  auto count = [&](size_t lo, size_t hi) {
    if (spans.size() >= lo && spans.size() <= hi) return true;
    std::string n = lo == hi ? (lo == 0 ? std::string("no operands") : plural(lo, "operand"))
                             : (hi == SIZE_MAX ? "at least " + plural(lo, "operand")
                                               : std::to_string(lo) + " or " + plural(hi, "operand"));
    error(d.col, name + " takes " + n + ", got " + std::to_string(spans.size()));
    return false;
  };
  auto aligned = [&]() {
    if (loc_[sec_] % 4 == 0) return true;
    error(d.col, name + " at " + hex(loc_[sec_]) + " is not word-aligned (add .align 4 before it)");
    return false;
  };

  if (name == ".text" || name == ".data") {
    if (count(0, 0)) sec_ = name == ".text" ? kText : kData;
  } else if (name == ".word") {
    if (!count(1, SIZE_MAX) || !aligned()) return;
    std::vector<Operand> ops(spans.size());
    bool ok = true;
    for (size_t k = 0; k < spans.size(); ++k)
      ok &= parse_operand(t, spans[k].first, spans[k].second, Want::Value, &ops[k],
                          uint32_t(loc_[sec_] + 4 * k));
    if (Stmt* s = add_stmt(Stmt::Word, d.col, name, 4 * spans.size()))
      s->ops = std::move(ops), s->failed = !ok;
  } else if (name == ".float") {
    if (!count(1, SIZE_MAX) || !aligned()) return;
    std::vector<uint32_t> words;
    bool ok = true;
    for (const auto& sp : spans) {
      std::optional<uint32_t> w = parse_float(t, sp.first, sp.second);
      ok &= bool(w);
      words.push_back(w.value_or(0));
    }
    if (Stmt* s = add_stmt(Stmt::Float, d.col, name, 4 * words.size()))
      s->words = std::move(words), s->failed = !ok;
  } else if (name == ".space") {
    if (!count(1, 2)) return;
    std::optional<ExprError> err;
    ExprPtr n = parse_expr(t, spans[0].first, spans[0].second, int64_t(loc_[sec_]), "a size", &err);
    if (err) return error(err->col, err->message);
    ExprPtr fill = spans.size() == 2 ? parse_expr(t, spans[1].first, spans[1].second, int64_t(loc_[sec_]),
                                                  "a fill byte", &err)
                                     : num_expr(0, d.col);
    if (err) return error(err->col, err->message);
    auto size = need_now(*n, ".space size");
    auto f = need_now(*fill, ".space fill byte");
    if (!size || !f) return;
    if (*size < 0)
      return error(t[spans[0].first].col, ".space size " + std::to_string(*size) + " is negative");
    if (*f < -128 || *f > 255)
      return error(t[spans[1].first].col, ".space fill " + std::to_string(*f) + " is not a byte (-128..255)");
    if (sec_ == kText && *size % 4 != 0)
      return error(t[spans[0].first].col, ".space in .text must be a whole number of words, got " +
                                              std::to_string(*size) + " bytes");
    if (uint64_t(*size) > kMaxSectionBytes)
      return error(t[spans[0].first].col, ".space size " + std::to_string(*size) + " exceeds the " +
                                              std::to_string(kMaxSectionBytes >> 20) + " MiB section limit");
    if (Stmt* s = add_stmt(Stmt::Fill, d.col, name, uint64_t(*size))) s->fill = uint8_t(*f);
  } else if (name == ".align") {
    if (!count(1, 1)) return;
    std::optional<ExprError> err;
    ExprPtr n = parse_expr(t, spans[0].first, spans[0].second, int64_t(loc_[sec_]), "an alignment", &err);
    if (err) return error(err->col, err->message);
    auto v = need_now(*n, ".align boundary");
    if (!v) return;
    if (*v > (int64_t(1) << 30))
      return error(t[spans[0].first].col, ".align " + std::to_string(*v) + " is too large (at most 2^30)");
    if (*v <= 0 || (*v & (*v - 1)) != 0)
      return error(t[spans[0].first].col,
                   ".align " + std::to_string(*v) + " is not a power of 2 (up to 2^30)");
    const uint64_t pad = (uint64_t(*v) - loc_[sec_] % uint64_t(*v)) % uint64_t(*v);
    if (Stmt* s = add_stmt(Stmt::Fill, d.col, name, pad)) s->nop_fill = sec_ == kText;
  } else if (name == ".equ") {
    if (!count(2, 2)) return;
    if (spans[0].second - spans[0].first != 1)
      return error(t[spans[0].first].col,
                   "expected a symbol name, got '" + span_text(t, spans[0].first, spans[0].second) + "'");
    std::optional<ExprError> err;
    ExprPtr e = parse_expr(t, spans[1].first, spans[1].second, int64_t(loc_[sec_]), "an expression", &err);
    if (err) return error(err->col, err->message);
    define_constant(t[spans[0].first], std::move(e));
  } else if (name == ".global" || name == ".globl") {
    if (!count(1, SIZE_MAX)) return;
    for (const auto& sp : spans) {
      if (sp.second - sp.first != 1 || t[sp.first].type != Token::Ident) {
        error(t[sp.first].col, "expected a symbol name, got '" + span_text(t, sp.first, sp.second) + "'");
        continue;
      }
      globals_.push_back({t[sp.first].text, {cur_, t[sp.first].col}});
    }
  } else {
    const std::string near = closest(name, directive_names());
    error(d.col,
          "unknown directive '" + name + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

std::optional<uint32_t> Assembler::parse_float(const std::vector<Token>& t, size_t b, size_t e) {
  std::string text;
  size_t k = b;
  while (k < e && t[k].type == Token::Punct && (t[k].text == "-" || t[k].text == "+")) text += t[k++].text;
  const std::string whole = span_text(t, b, e);
  if (k + 1 != e || text.size() > 1 || (t[k].type != Token::Number && t[k].type != Token::Ident)) {
    error(t[b].col, "expected a floating-point number, got '" + whole + "'");
    return std::nullopt;
  }
  const std::string lit = t[k].text;
  float f = 0;
  if (t[k].type == Token::Ident) {
    std::string low = lit;
    for (char& c : low) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (low == "inf" || low == "infinity") {
      f = INFINITY;
    } else if (low == "nan") {
      f = NAN;
    } else {
      error(t[k].col, "expected a floating-point number, got '" + whole + "'");
      return std::nullopt;
    }
  } else {
    errno = 0;
    char* end = nullptr;
    f = std::strtof(lit.c_str(), &end);
    if (end != lit.c_str() + lit.size()) {
      error(t[k].col, "bad floating-point number '" + lit + "'");
      return std::nullopt;
    }
    if (std::isinf(f)) {
      error(t[k].col, "floating-point number '" + lit + "' is too large for binary32");
      return std::nullopt;
    }
  }
  if (text == "-") f = -f;
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

}  // namespace umbra::as::detail
