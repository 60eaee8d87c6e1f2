// Lexing and expressions for umbra-as (see lex.h).  C precedence, 64-bit two's
// complement arithmetic done in unsigned so that overflow wraps instead of being
// undefined; the only arithmetic errors are division by zero and shift counts
// outside 0..63, which C leaves undefined and which are always a mistake here.
#include "lex.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace umbra::as::detail {

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool ident_char(char c) {
  return ident_start(c) || std::isdigit(static_cast<unsigned char>(c));
}

std::string printable(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
  char b[8];
  std::snprintf(b, sizeof b, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
  return b;
}

// Integer literal: decimal, 0x hex, 0b binary.  Leading zeros are decimal, not octal.
bool parse_int(const std::string& s, int64_t* out, std::string* why) {
  unsigned base = 10;
  size_t i = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, i = 2;
  else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    base = 2, i = 2;
  if (i == s.size()) {
    *why = "bad number '" + s + "': no digits";
    return false;
  }
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const char c = char(std::tolower(static_cast<unsigned char>(s[i])));
    unsigned d = 99;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = unsigned(c - 'a' + 10);
    if (d >= base) {
      *why = "bad number '" + s + "'";
      return false;
    }
    // Expressions are 64-bit signed, so a larger literal would turn negative.
    if (v > (uint64_t(INT64_MAX) - d) / base) {
      *why = "number '" + s + "' is out of range (at most 9223372036854775807, 64-bit signed)";
      return false;
    }
    v = v * base + d;
  }
  *out = int64_t(v);
  return true;
}

// Escape after a backslash in a character or string literal.
bool unescape(const std::string& line, size_t* i, char* out) {
  const char c = line[*i];
  ++*i;
  switch (c) {
    case 'n': *out = '\n'; return true;
    case 't': *out = '\t'; return true;
    case 'r': *out = '\r'; return true;
    case '0': *out = '\0'; return true;
    case '\\': *out = '\\'; return true;
    case '\'': *out = '\''; return true;
    case '"': *out = '"'; return true;
    case 'x': {
      int v = 0, n = 0;
      while (*i < line.size() && n < 2 && std::isxdigit(static_cast<unsigned char>(line[*i]))) {
        const char d = char(std::tolower(static_cast<unsigned char>(line[*i])));
        v = v * 16 + (d <= '9' ? d - '0' : d - 'a' + 10);
        ++*i, ++n;
      }
      *out = char(v);
      return n > 0;
    }
    default: return false;
  }
}

}  // namespace

std::vector<Token> lex_line(const std::string& line, std::optional<LexError>* err) {
  std::vector<Token> out;
  size_t i = 0;
  auto fail = [&](size_t at, std::string msg) {
    *err = LexError{int(at) + 1, std::move(msg)};
    return out;
  };
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '#' || c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/')) break;
    Token t;
    t.col = int(i) + 1;
    const size_t start = i;
    if (ident_start(c)) {
      while (i < line.size() && ident_char(line[i])) ++i;
      t.type = Token::Ident;
      t.text = line.substr(start, i - start);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const bool hex = c == '0' && i + 1 < line.size() && (line[i + 1] == 'x' || line[i + 1] == 'X');
      while (i < line.size()) {
        const char d = line[i];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.') {
          ++i;
        } else if ((d == '+' || d == '-') && i > start &&
                   (hex ? (line[i - 1] == 'p' || line[i - 1] == 'P')
                        : (line[i - 1] == 'e' || line[i - 1] == 'E'))) {
          ++i;  // exponent sign of a float literal (only .float reads those)
        } else {
          break;
        }
      }
      t.type = Token::Number;
      t.text = line.substr(start, i - start);
      t.int_ok = parse_int(t.text, &t.value, &t.bad);
    } else if (c == '\'') {
      ++i;
      char v = 0;
      if (i >= line.size()) return fail(start, "unterminated character literal");
      if (line[i] == '\\') {
        ++i;
        if (i >= line.size() || !unescape(line, &i, &v))
          return fail(start, "bad escape in character literal");
      } else {
        v = line[i++];
      }
      if (i >= line.size() || line[i] != '\'')
        return fail(start, "bad character literal (one character between quotes)");
      ++i;
      t.type = Token::Char;
      t.value = static_cast<unsigned char>(v);
      t.text = line.substr(start, i - start);
    } else if (c == '"') {
      ++i;
      std::string s;
      for (;;) {
        if (i >= line.size()) return fail(start, "unterminated string");
        if (line[i] == '"') break;
        if (line[i] == '\\') {
          ++i;
          char v = 0;
          if (i >= line.size() || !unescape(line, &i, &v)) return fail(i - 1, "bad escape in string");
          s += v;
        } else {
          s += line[i++];
        }
      }
      ++i;
      t.type = Token::String;
      t.text = s;
    } else if ((c == '<' || c == '>') && i + 1 < line.size() && line[i + 1] == c) {
      i += 2;
      t.type = Token::Punct;
      t.text = line.substr(start, 2);
    } else if (std::string(",():=+-*/%&^|~").find(c) != std::string::npos) {
      ++i;
      t.type = Token::Punct;
      t.text = std::string(1, c);
    } else {
      return fail(start, "unexpected character '" + printable(c) + "'");
    }
    t.len = int(i - start);
    out.push_back(std::move(t));
  }
  return out;
}

std::optional<long> register_number(const std::string& s) {
  if (s == "zero") return 0;
  if (s.size() < 2 || s[0] != 'r') return std::nullopt;
  long v = 0;
  for (size_t i = 1; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    v = v < 100000 ? v * 10 + (s[i] - '0') : v;
  }
  return v;
}

namespace {

struct Parser {
  const std::vector<Token>& t;
  size_t pos, end;
  int64_t dot;
  const std::string& what;
  std::optional<ExprError>* err;

  bool failed() const { return err->has_value(); }
  ExprPtr fail(int col, std::string msg) {
    if (!failed()) *err = ExprError{col, std::move(msg)};
    return nullptr;
  }
  bool at(const char* p) const { return pos < end && t[pos].type == Token::Punct && t[pos].text == p; }
  int here_col() const { return pos < end ? t[pos].col : (end > 0 ? t[end - 1].col + t[end - 1].len : 1); }

  // Parsing, evaluating and freeing a tree all recurse, so a pathological line (a
  // megabyte of "1+1+...") must be refused rather than overflow the stack.
  static constexpr int kMaxDepth = 1000;
  int nest = 0;

  ExprPtr node(Expr::Op op, int col, ExprPtr l = nullptr, ExprPtr r = nullptr) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->col = col;
    e->depth = 1 + std::max(l ? l->depth : 0, r ? r->depth : 0);
    e->lhs = std::move(l);
    e->rhs = std::move(r);
    if (e->depth > kMaxDepth) return fail(col, "expression is too complex (more than 1000 levels)");
    return e;
  }

  ExprPtr primary() {
    if (pos >= end) return fail(here_col(), "expected " + what + ", got the end of the operand");
    const Token& k = t[pos];
    if (k.type == Token::Number) {
      if (!k.int_ok) return fail(k.col, k.bad);
      ++pos;
      auto e = node(Expr::Num, k.col);
      e->value = k.value;
      return e;
    }
    if (k.type == Token::Char) {
      ++pos;
      auto e = node(Expr::Num, k.col);
      e->value = k.value;
      return e;
    }
    if (k.type == Token::Ident) {
      if (register_number(k.text)) return fail(k.col, "expected " + what + ", got register '" + k.text + "'");
      ++pos;
      if (k.text == ".") {
        auto e = node(Expr::Num, k.col);
        e->value = dot;
        return e;
      }
      auto e = node(Expr::Sym, k.col);
      e->name = k.text;
      return e;
    }
    if ((at("(") || at("-") || at("~") || at("+")) && ++nest > kMaxDepth)
      return fail(k.col, "expression is too complex (more than 1000 levels)");
    if (at("(")) {
      const int col = k.col;
      ++pos;
      ExprPtr e = binary(1);
      --nest;
      if (failed()) return nullptr;
      if (!at(")")) return fail(here_col(), "expected ')' to close the '(' at column " + std::to_string(col));
      ++pos;
      return e;
    }
    if (at("-") || at("~") || at("+")) {
      const Expr::Op op = at("-") ? Expr::Neg : at("~") ? Expr::Not : Expr::Pos;
      ++pos;
      ExprPtr operand = primary();
      --nest;
      if (failed()) return nullptr;
      return node(op, k.col, std::move(operand));
    }
    if (k.type == Token::String) return fail(k.col, "expected " + what + ", got a string");
    return fail(k.col, "expected " + what + ", got '" + k.text + "'");
  }

  // Binary operators by C precedence: 1 |, 2 ^, 3 &, 4 << >>, 5 + -, 6 * / %.
  static int prec(const Token& k, Expr::Op* op) {
    if (k.type != Token::Punct) return 0;
    static const struct {
      const char* s;
      Expr::Op op;
      int p;
    } table[] = {{"|", Expr::Or, 1},   {"^", Expr::Xor, 2}, {"&", Expr::And, 3}, {"<<", Expr::Shl, 4},
                 {">>", Expr::Shr, 4}, {"+", Expr::Add, 5}, {"-", Expr::Sub, 5}, {"*", Expr::Mul, 6},
                 {"/", Expr::Div, 6},  {"%", Expr::Mod, 6}};
    for (const auto& e : table)
      if (k.text == e.s) {
        *op = e.op;
        return e.p;
      }
    return 0;
  }

  ExprPtr binary(int min_prec) {
    ExprPtr lhs = primary();
    while (!failed() && pos < end) {
      Expr::Op op;
      const int p = prec(t[pos], &op);
      if (p == 0 || p < min_prec) break;
      const int col = t[pos].col;
      ++pos;
      ExprPtr rhs = binary(p + 1);
      if (failed()) return nullptr;
      lhs = node(op, col, std::move(lhs), std::move(rhs));
    }
    return failed() ? nullptr : std::move(lhs);
  }
};

}  // namespace

ExprPtr parse_expr(const std::vector<Token>& toks, size_t begin, size_t end, int64_t dot,
                   const std::string& what, std::optional<ExprError>* err) {
  Parser p{toks, begin, end, dot, what, err};
  ExprPtr e = p.binary(1);
  if (p.failed()) return nullptr;
  if (p.pos < end) {
    const Token& k = toks[p.pos];
    if (k.type == Token::Punct && k.text == ")")
      *err = ExprError{k.col, "unbalanced ')' in expression"};
    else
      *err = ExprError{k.col, "expected an operator or the end of the operand, got '" + k.text + "'"};
    return nullptr;
  }
  return e;
}

std::optional<int64_t> eval(const Expr& e, const SymbolFn& sym, std::optional<ExprError>* err,
                            const Expr** unknown) {
  switch (e.op) {
    case Expr::Num: return e.value;
    case Expr::Sym: {
      auto v = sym(e.name, e.col, err);
      if (!v && !*err && !*unknown) *unknown = &e;
      return v;
    }
    default: break;
  }
  const auto l = eval(*e.lhs, sym, err, unknown);
  if (*err) return std::nullopt;
  if (!e.rhs) {
    if (!l) return std::nullopt;
    const uint64_t u = uint64_t(*l);
    return e.op == Expr::Neg ? int64_t(0 - u) : e.op == Expr::Not ? int64_t(~u) : *l;
  }
  const auto r = eval(*e.rhs, sym, err, unknown);
  if (*err || !l || !r) return std::nullopt;
  const uint64_t a = uint64_t(*l), b = uint64_t(*r);
  switch (e.op) {
    case Expr::Mul: return int64_t(a * b);
    case Expr::Div:
    case Expr::Mod:
      if (*r == 0) {
        *err = ExprError{e.col, "division by zero"};
        return std::nullopt;
      }
      if (*l == INT64_MIN && *r == -1) return e.op == Expr::Div ? INT64_MIN : 0;
      return e.op == Expr::Div ? *l / *r : *l % *r;
    case Expr::Add: return int64_t(a + b);
    case Expr::Sub: return int64_t(a - b);
    case Expr::Shl:
    case Expr::Shr:
      if (*r < 0 || *r > 63) {
        *err = ExprError{e.col, "shift count " + std::to_string(*r) + " is out of range 0..63"};
        return std::nullopt;
      }
      // >> is arithmetic on the signed 64-bit value, as in C on every target we know.
      return e.op == Expr::Shl ? int64_t(a << *r) : (*l >> *r);
    case Expr::And: return int64_t(a & b);
    case Expr::Xor: return int64_t(a ^ b);
    case Expr::Or: return int64_t(a | b);
    default: return std::nullopt;
  }
}

}  // namespace umbra::as::detail
