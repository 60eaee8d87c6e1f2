// The assembler's tokens and expressions, private to umbra_asm.  A line is lexed
// once into tokens that keep their column, so every later error (a bad operand, an
// undefined symbol deep inside an expression) can point its caret at the exact spot.
// Expressions are parsed into trees in the first pass and evaluated when their
// symbols are known; evaluation is 64-bit and checked against the operand's range by
// the caller.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace umbra::as::detail {

struct Token {
  enum Type { Ident, Number, Char, String, Punct } type;
  std::string text;   // as written (String: the unescaped contents)
  int col = 0;        // 1-based column of the first character
  int len = 0;        // characters in the source
  int64_t value = 0;  // Number (when int_ok) and Char
  bool int_ok = false;
  std::string bad;  // Number that is not an integer: why (used if read as one)
};

struct LexError {
  int col;
  std::string message;
};

// Splits one source line into tokens, stopping at a comment (#, ; or //).
std::vector<Token> lex_line(const std::string& line, std::optional<LexError>* err);

// r0..r255 (any digits) and `zero`: the register number, or nullopt for other names.
// Numbers past 255 come back as they are so the caller can name the limit.
std::optional<long> register_number(const std::string& ident);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Expr {
  enum Op { Num, Sym, Neg, Not, Pos, Mul, Div, Mod, Add, Sub, Shl, Shr, And, Xor, Or } op;
  int64_t value = 0;  // Num
  std::string name;   // Sym
  int col = 0;        // where to point errors about this node
  int depth = 1;      // of the tree below; bounded so evaluation cannot exhaust the stack
  ExprPtr lhs, rhs;
};

struct ExprError {
  int col;
  std::string message;
};

// Parses tokens [begin, end) as one whole expression.  `dot` is the value of `.`
// there; `what` names what was expected ("an immediate", "a branch target") for the
// "expected X, got Y" message.
ExprPtr parse_expr(const std::vector<Token>& toks, size_t begin, size_t end, int64_t dot,
                   const std::string& what, std::optional<ExprError>* err);

// Symbol lookup for evaluation: the value, nullopt when not (yet) known; may set
// *err (e.g. a circular definition).
using SymbolFn =
    std::function<std::optional<int64_t>(const std::string& name, int col, std::optional<ExprError>* err)>;

// Evaluates; nullopt with *err unset means "some symbol is not known yet"
// (*unknown points at the first such symbol's node), nullopt with *err set is an
// error such as division by zero.
std::optional<int64_t> eval(const Expr& e, const SymbolFn& sym, std::optional<ExprError>* err,
                            const Expr** unknown);

}  // namespace umbra::as::detail
