// umbra-as: assembly source to a Program, in two passes (private to umbra_asm).
//
// Pass 1 reads every line (following .include), defines labels, parses operands into
// expression trees and lays out both sections, so every statement's size is fixed
// before any forward reference is resolved.  The only size that depends on a value
// is `li` (one word when the value is already known and fits simm16, else two); a
// value known in pass 1 cannot change, so pass 2 never moves anything.  Pass 2
// evaluates the expressions and encodes through the generated ISA tables
// (isa::encode, operand_range): no opcode or field position appears in this file.
//
// Errors are collected, not thrown: each statement that fails is skipped and the
// rest of the file is still checked, so one run reports every mistake (sorted into
// source order, capped at Options::max_errors).
//
// The work is split by job: assembler.cpp (files, lines, layout, the end of a run),
// symbols.cpp (the symbol table, evaluation), directives.cpp, instructions.cpp
// (operands, pseudo-instructions, encoding in pass 2), diagnostics.cpp (messages);
// lex.cpp has the tokens and expressions.  They share the Assembler below.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lex.h"
#include "umbra/asm.h"
#include "umbra/format.h"
#include "umbra/isa.h"

namespace umbra::as::detail {

constexpr uint64_t kMaxSectionBytes = Program::kMaxSectionBytes;
constexpr size_t kMaxIncludeDepth = 64;

enum Sec { kText = 0, kData = 1 };

// What an operand position accepts.
enum class Want { Reg, Sreg, Imm, Br, Mem, Value };

struct Loc {
  int file = 0, line = 0, order = 0;
};

struct Operand {
  long reg = 0;  // Reg, and the base of Mem
  ExprPtr expr;  // Sreg, Imm, Br, Value, and the offset of Mem
  int col = 0;
  isa::Kind kind = isa::Kind::Reg;  // for ranges; Value has none
  Want want = Want::Reg;
};

struct Stmt {
  enum Kind { Instr, Li, Word, Float, Fill } kind = Instr;
  Loc loc;
  int col = 0;           // of the mnemonic or directive
  std::string mnemonic;  // as written, for messages
  int sec = kText;
  uint32_t addr = 0, size = 0;
  const isa::InstrInfo* in = nullptr;
  std::vector<Operand> ops;     // Instr, Li (rd, value), Word (one per word)
  std::vector<uint32_t> words;  // Float: the values
  uint8_t fill = 0;             // Fill
  bool nop_fill = false;        // Fill: pad .text with nop rather than bytes
  bool failed = false;
  int listing = -1;
};

struct SymDef {
  std::string name;
  bool is_label = false;
  int sec = kText;  // labels
  bool known = false, broken = false, resolving = false, global = false;
  int64_t value = 0;
  ExprPtr expr;  // a constant not known when defined
  Loc loc;
  int col = 0;
};

struct SourceFile {
  std::string path;
  std::vector<std::string> lines;
};

// Message helpers (diagnostics.cpp).
std::string closest(std::string word, const std::vector<std::string>& candidates);
std::string plural(size_t n, const char* one);
// A number node, for operands the assembler supplies itself (symbols.cpp).
ExprPtr num_expr(int64_t v, int col);

class Assembler {
 public:
  Assembler(const Options& o) : opts_(o) {}

  // `key` identifies the root file for include-cycle detection (its canonical path).
  Result run(const std::string& source, const std::string& name, const std::string& dir,
             const std::string& key);
  Result fail_early(const std::string& file, const std::string& msg);

 private:
  struct Pending {
    Loc loc;
    int col;
    std::string sym, what;
  };
  struct Diag {
    Loc loc;
    int col;
    std::string msg;
    size_t seq;
    int group = -1;  // Diagnostic::absent_group
  };

  const Options& opts_;
  Result result_;
  std::string root_name_;
  std::vector<SourceFile> files_;
  std::vector<std::pair<std::string, std::string>> chain_;  // (identity, display) of open files
  int order_ = 0;
  // Constants resolve recursively (A = B + 1, B = C + 1, ...); the chain is bounded so
  // that no input can exhaust the stack.
  static constexpr int kMaxChain = 1000;
  int depth_ = 0;
  int sec_ = kText;
  uint64_t loc_[2] = {0, 0};
  bool over_target_[2] = {false, false};
  std::vector<Stmt> stmts_;
  std::vector<SymDef> syms_;
  std::map<std::string, size_t> sym_index_;
  std::vector<Pending> pending_;
  std::vector<std::pair<std::string, std::pair<Loc, int>>> globals_;
  std::vector<Diag> diags_;

  // Per-line state while in pass 1.
  int cur_file_ = 0;
  Loc cur_;
  const std::string* cur_line_ = nullptr;

  // ---- diagnostics, files, lines and layout (assembler.cpp) --------------------
  void error(const Loc& loc, int col, std::string msg);
  void error(int col, std::string msg) { error(cur_, col, std::move(msg)); }
  // The source text of tokens [b, e) as written.
  std::string span_text(const std::vector<Token>& t, size_t b, size_t e) const;
  void process(const std::string& source, const std::string& display, const std::string& dir);
  void include(const Token& t, const std::string& dir);
  void do_line(const std::string& line, const std::string& dir);
  // Splits tokens [b, e) at top-level commas.  An empty piece is an error.
  bool split_operands(const std::vector<Token>& t, size_t b, size_t e,
                      std::vector<std::pair<size_t, size_t>>* out);
  // Reserves `size` bytes in the current section for a new statement.
  Stmt* add_stmt(Stmt::Kind kind, int col, const std::string& mnemonic, uint64_t size);
  void finish();

  // ---- symbols and evaluation (symbols.cpp) ------------------------------------
  SymDef* find_sym(const std::string& name);
  bool check_symbol_name(const Token& t);
  SymDef* define(const Token& t, bool is_label);
  // Pass-1 lookup: labels defined so far and constants that can be evaluated now.
  std::optional<int64_t> lookup_early(const std::string& name);
  SymbolFn early_fn();
  // Pass-2 lookup: everything is defined or it is an error.  An error inside a
  // constant's own definition is reported there, once; users of the constant then
  // fail silently (col -1) instead of repeating it.
  std::optional<int64_t> lookup_final(const std::string& name, int col, std::optional<ExprError>* err);
  SymbolFn final_fn();
  void resolve(SymDef& s);
  // Evaluates in pass 1.  Unknown symbols are not errors yet: the caller decides
  // (li takes the long form; .space/.align record a Pending that names the symbol).
  std::optional<int64_t> eval_early(const Expr& e, bool* failed, const Expr** unknown);
  // A value pass 1 must know (a .space size, an .align boundary).
  std::optional<int64_t> need_now(const Expr& e, const std::string& what);
  std::optional<int64_t> eval_final(const Loc& loc, const Expr& e);
  void constant(const Token& name, const std::vector<Token>& t, size_t b, int col);
  void define_constant(const Token& name, ExprPtr e);
  void after_pass1();

  // ---- directives (directives.cpp) ---------------------------------------------
  void directive(const std::vector<Token>& t, size_t i, const std::string& dir);
  // A .float operand: an optional sign, then a decimal or hex float literal, an
  // integer, or inf / nan.  Rounded to nearest binary32 by strtof.
  std::optional<uint32_t> parse_float(const std::vector<Token>& t, size_t b, size_t e);

  // ---- instructions, pass 2 (instructions.cpp) ---------------------------------
  bool check_reg(long n, int col, const std::string& text);
  bool parse_operand(const std::vector<Token>& t, size_t b, size_t e, Want want, Operand* op, uint32_t dot);
  void instruction(const std::vector<Token>& t, size_t i);
  // Checks and converts one operand to the value isa::encode takes.
  std::optional<int32_t> operand_value(const Stmt& s, const Operand& op);
  std::optional<uint32_t> encode(const Stmt& s, const isa::InstrInfo& in, const int32_t* values,
                                 uint8_t base);
  std::vector<uint32_t> emit(const Stmt& s, bool* ok);
  void pass2();
};

}  // namespace umbra::as::detail
