// umbra-as: assembly source to a Program, in two passes.
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
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "lex.h"
#include "umbra/asm.h"
#include "umbra/isa.h"

namespace umbra::as {

using namespace detail;
namespace fs = std::filesystem;

namespace {

// Bytes of a valid UTF-8 sequence that is printable text starting at s[i], or 0 for a
// byte that must be escaped (a control character, DEL, a C1 control, invalid UTF-8).
size_t printable_run(const std::string& s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c == '\t' || (c >= 0x20 && c < 0x7f)) return 1;
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  if (c == 0xc2 && b(i + 1) < 0xa0) return 0;                                        // C1 controls
  if ((c == 0xe0 && b(i + 1) < 0xa0) || (c == 0xf0 && b(i + 1) < 0x90)) return 0;    // overlong
  if ((c == 0xed && b(i + 1) >= 0xa0) || (c == 0xf4 && b(i + 1) >= 0x90)) return 0;  // surrogates, > U+10FFFF
  return n;
}

}  // namespace

// Binary garbage in a source file must not reach the terminal as escape sequences:
// every byte that is not printable text becomes \xNN.
std::string escape_text(const std::string& s, size_t limit, std::string* caret) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = printable_run(s, i);
    if (caret && i < limit) *caret += n == 0 ? "    " : s[i] == '\t' ? "\t" : " ";
    if (n == 0) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", unsigned(static_cast<unsigned char>(s[i])));
      out += b;
      ++i;
    } else {
      out.append(s, i, n);
      i += n;
    }
  }
  return out;
}

std::string Diagnostic::render() const {
  const char* kind = note ? "note" : "error";
  const std::string msg = escape_text(message);
  if (line <= 0) return escape_text(file) + ": " + kind + ": " + msg + "\n";
  std::string s = escape_text(file) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + kind +
                  ": " + msg + "\n";
  // The caret copies tabs from the source so it lines up however tabs are displayed,
  // and is as wide as what is printed before it (an escaped byte takes four columns).
  std::string caret;
  s += escape_text(source_line, col > 1 ? size_t(col - 1) : 0, &caret) + "\n";
  if (col - 1 > int(source_line.size())) caret.append(size_t(col - 1) - source_line.size(), ' ');
  return s + caret + "^\n";
}

namespace {

constexpr uint64_t kMaxSectionBytes = Program::kMaxSectionBytes;
constexpr size_t kMaxIncludeDepth = 64;

enum Sec { kText = 0, kData = 1 };
const char* sec_name(int s) {
  return s == kText ? ".text" : ".data";
}

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

// Damerau-Levenshtein (optimal string alignment) distance, for "did you mean".
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest(std::string word, const std::vector<std::string>& candidates) {
  for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::string best;
  size_t best_d = 3;  // suggest only within two edits, and never more edits than the word is long
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_d && d < word.size()) best = c, best_d = d;
  }
  return best;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string plural(size_t n, const char* one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

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

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> d = {".text",  ".data", ".word",    ".float",  ".space",
                                             ".align", ".equ",  ".include", ".global", ".globl"};
  return d;
}

Want want_of(isa::Kind k) {
  switch (k) {
    case isa::Kind::Reg: return Want::Reg;
    case isa::Kind::Sreg: return Want::Sreg;
    case isa::Kind::Mem: return Want::Mem;
    default: return isa::kind_info(k).pcrel ? Want::Br : Want::Imm;
  }
}

ExprPtr num_expr(int64_t v, int col) {
  auto e = std::make_unique<Expr>();
  e->op = Expr::Num;
  e->value = v;
  e->col = col;
  return e;
}

class Assembler {
 public:
  Assembler(const Options& o) : opts_(o) {}

  // `key` identifies the root file for include-cycle detection (its canonical path).
  Result run(const std::string& source, const std::string& name, const std::string& dir,
             const std::string& key) {
    root_name_ = name;
    if (opts_.registers < 1 || opts_.registers > isa::kRegisters)
      return fail_early(name, "the target register count " + std::to_string(opts_.registers) +
                                  " is not in 1.." + std::to_string(isa::kRegisters));
    if (opts_.data_base % 4 != 0)
      return fail_early(name, "the data base address " + hex(opts_.data_base) + " is not a multiple of 4");
    loc_[kText] = 0;
    loc_[kData] = opts_.data_base;
    chain_.push_back({key, name});
    process(source, name, dir);
    chain_.pop_back();
    after_pass1();
    pass2();
    finish();
    return std::move(result_);
  }

  Result fail_early(const std::string& file, const std::string& msg) {
    result_.errors.push_back({file, 0, 0, msg, "", false});
    return std::move(result_);
  }

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

  // ---- diagnostics -------------------------------------------------------------
  void error(const Loc& loc, int col, std::string msg) {
    diags_.push_back({loc, col, std::move(msg), diags_.size()});
  }
  void error(int col, std::string msg) { error(cur_, col, std::move(msg)); }

  // The source text of tokens [b, e) as written.
  std::string span_text(const std::vector<Token>& t, size_t b, size_t e) const {
    if (b >= e) return "";
    const size_t from = size_t(t[b].col - 1), to = size_t(t[e - 1].col - 1 + t[e - 1].len);
    return cur_line_->substr(from, to - from);
  }

  // ---- files -------------------------------------------------------------------
  void process(const std::string& source, const std::string& display, const std::string& dir) {
    files_.push_back({display, {}});
    const int file = int(files_.size()) - 1;
    std::vector<std::string> lines;
    std::istringstream in(source);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(line);
    }
    files_[file].lines = lines;  // a copy: files_ may reallocate during .include
    for (size_t i = 0; i < lines.size(); ++i) {
      cur_file_ = file;
      cur_ = Loc{file, int(i) + 1, ++order_};
      cur_line_ = &lines[i];
      do_line(lines[i], dir);
    }
  }

  void include(const Token& t, const std::string& dir) {
    const fs::path name(t.text);
    std::vector<fs::path> candidates;
    if (name.is_absolute()) {
      candidates.push_back(name);
    } else {
      candidates.push_back((fs::path(dir) / name).lexically_normal());
      for (const std::string& d : opts_.include_dirs)
        candidates.push_back((fs::path(d) / name).lexically_normal());
    }
    std::error_code ec;
    const fs::path* found = nullptr;
    for (const fs::path& c : candidates)
      if (fs::exists(c, ec)) {
        found = &c;
        break;
      }
    if (!found) {
      std::string searched;
      for (const fs::path& c : candidates) searched += (searched.empty() ? "" : ", ") + c.string();
      return error(t.col, "include file '" + t.text + "' not found (searched: " + searched + ")");
    }
    // The first file of that name is the one meant; reading a directory or a device
    // (/dev/zero never ends) instead would hide the mistake.
    if (fs::is_directory(*found, ec))
      return error(t.col, "include file '" + found->string() + "' is a directory");
    if (!fs::is_regular_file(*found, ec))
      return error(t.col, "include file '" + found->string() + "' is not a regular file");
    const std::string display = found->string();
    const fs::path canon = fs::weakly_canonical(*found, ec);
    const std::string key = ec ? display : canon.string();
    for (const auto& open : chain_)
      if (open.first == key) {
        std::string msg = "include cycle: ";
        for (const auto& c : chain_) msg += c.second + " -> ";
        return error(t.col, msg + display);
      }
    if (chain_.size() >= kMaxIncludeDepth)
      return error(t.col, ".include nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    std::ifstream f(*found, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    if (!f && !f.eof()) return error(t.col, "cannot read include file '" + display + "'");
    const Loc saved = cur_;
    const std::string* saved_line = cur_line_;
    const int saved_file = cur_file_;
    chain_.push_back({key, display});
    result_.sources.push_back(display);
    process(ss.str(), display, found->parent_path().string());
    chain_.pop_back();
    cur_ = saved, cur_line_ = saved_line, cur_file_ = saved_file;
  }

  // ---- symbols -----------------------------------------------------------------
  SymDef* find_sym(const std::string& name) {
    auto it = sym_index_.find(name);
    return it == sym_index_.end() ? nullptr : &syms_[it->second];
  }

  bool check_symbol_name(const Token& t) {
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

  SymDef* define(const Token& t, bool is_label) {
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

  // Pass-1 lookup: labels defined so far and constants that can be evaluated now.
  std::optional<int64_t> lookup_early(const std::string& name) {
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
  SymbolFn early_fn() {
    return [this](const std::string& n, int, std::optional<ExprError>*) { return lookup_early(n); };
  }

  // Pass-2 lookup: everything is defined or it is an error.  An error inside a
  // constant's own definition is reported there, once; users of the constant then
  // fail silently (col -1) instead of repeating it.
  std::optional<int64_t> lookup_final(const std::string& name, int col, std::optional<ExprError>* err) {
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
  SymbolFn final_fn() {
    return [this](const std::string& n, int col, std::optional<ExprError>* err) {
      return lookup_final(n, col, err);
    };
  }
  void resolve(SymDef& s) {
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

  // Evaluates in pass 1.  Unknown symbols are not errors yet: the caller decides
  // (li takes the long form; .space/.align record a Pending that names the symbol).
  std::optional<int64_t> eval_early(const Expr& e, bool* failed, const Expr** unknown) {
    std::optional<ExprError> err;
    *unknown = nullptr;
    auto v = eval(e, early_fn(), &err, unknown);
    if (err) {
      error(err->col, err->message);
      *failed = true;
    }
    return v;
  }

  // A value pass 1 must know (a .space size, an .align boundary).
  std::optional<int64_t> need_now(const Expr& e, const std::string& what) {
    bool failed = false;
    const Expr* unknown = nullptr;
    auto v = eval_early(e, &failed, &unknown);
    if (!v && !failed && unknown) pending_.push_back({cur_, unknown->col, unknown->name, what});
    return v;
  }

  std::optional<int64_t> eval_final(const Loc& loc, const Expr& e) {
    std::optional<ExprError> err;
    const Expr* unknown = nullptr;
    auto v = eval(e, final_fn(), &err, &unknown);
    if (err && err->col >= 0) error(loc, err->col, err->message);
    return v;
  }

  // ---- pass 1 ------------------------------------------------------------------
  void do_line(const std::string& line, const std::string& dir) {
    int listing = -1;
    if (opts_.listing) {
      ListingLine l;
      l.file = files_[cur_file_].path;
      l.line = cur_.line;
      l.in_text = sec_ == kText;
      l.address = uint32_t(loc_[sec_]);
      l.source = line;
      result_.program.listing.push_back(std::move(l));
      listing = int(result_.program.listing.size()) - 1;
    }
    std::optional<LexError> lerr;
    const std::vector<Token> t = lex_line(line, &lerr);
    if (lerr) return error(lerr->col, lerr->message);
    size_t i = 0;
    while (i + 1 < t.size() && t[i].type == Token::Ident && t[i + 1].type == Token::Punct &&
           t[i + 1].text == ":") {
      if (SymDef* s = define(t[i], true)) {
        s->known = true;
        s->sec = sec_;
        s->value = int64_t(loc_[sec_]);
      }
      i += 2;
    }
    if (i == t.size()) return;
    const size_t before = stmts_.size();
    const Token& head = t[i];
    if (head.type == Token::Ident && i + 1 < t.size() && t[i + 1].type == Token::Punct &&
        t[i + 1].text == "=") {
      constant(t[i], t, i + 2, head.col);
    } else if (head.type == Token::Ident && head.text.size() > 1 && head.text[0] == '.') {
      directive(t, i, dir);
    } else if (head.type == Token::Ident && head.text != ".") {
      instruction(t, i);
    } else {
      error(head.col, "expected a label, directive or instruction, got '" + head.text + "'");
    }
    if (listing >= 0 && stmts_.size() > before) {
      ListingLine& l = result_.program.listing[size_t(listing)];
      l.in_text = stmts_[before].sec == kText;
      l.address = stmts_[before].addr;
      for (size_t k = before; k < stmts_.size(); ++k) stmts_[k].listing = listing;
    }
  }

  // Splits tokens [b, e) at top-level commas.  An empty piece is an error.
  bool split_operands(const std::vector<Token>& t, size_t b, size_t e,
                      std::vector<std::pair<size_t, size_t>>* out) {
    out->clear();
    if (b >= e) return true;
    int depth = 0;
    size_t start = b;
    for (size_t k = b; k <= e; ++k) {
      const bool end = k == e;
      if (!end && t[k].type == Token::Punct) {
        if (t[k].text == "(") ++depth;
        if (t[k].text == ")") --depth;
      }
      if (end || (depth == 0 && t[k].type == Token::Punct && t[k].text == ",")) {
        if (start == k) {
          error(end ? t[k - 1].col + t[k - 1].len : t[k].col, "missing operand");
          return false;
        }
        out->push_back({start, k});
        start = k + 1;
      }
    }
    return true;
  }

  // Reserves `size` bytes in the current section for a new statement.
  Stmt* add_stmt(Stmt::Kind kind, int col, const std::string& mnemonic, uint64_t size) {
    const uint64_t base = sec_ == kText ? 0 : opts_.data_base;
    if (loc_[sec_] - base + size > kMaxSectionBytes) {
      error(col, std::string("section ") + sec_name(sec_) + " would grow past the assembler's " +
                     std::to_string(kMaxSectionBytes >> 20) + " MiB limit");
      return nullptr;
    }
    if (loc_[sec_] + size > (uint64_t(1) << 32)) {
      error(col, std::string("section ") + sec_name(sec_) + " would extend past address 0xffffffff");
      return nullptr;
    }
    // The target's stores (--config): said once per section, at the line that crosses.
    const uint64_t end = sec_ == kText ? uint64_t(opts_.imem_words) * 4 : opts_.mem_bytes;
    if (end && loc_[sec_] + size > end) {
      if (!over_target_[sec_])
        error(col, sec_ == kText
                       ? "the program grows past the target's instruction store of " +
                             plural(opts_.imem_words, "word") + " (core.imem_words)"
                       : "section .data would extend past the target's data memory, which ends at " +
                             hex(opts_.mem_bytes) + " (memory.bytes)");
      over_target_[sec_] = true;
      return nullptr;
    }
    Stmt s;
    s.kind = kind;
    s.loc = cur_;
    s.col = col;
    s.mnemonic = mnemonic;
    s.sec = sec_;
    s.addr = uint32_t(loc_[sec_]);
    s.size = uint32_t(size);
    loc_[sec_] += size;
    stmts_.push_back(std::move(s));
    return &stmts_.back();
  }

  void constant(const Token& name, const std::vector<Token>& t, size_t b, int col) {
    if (b >= t.size()) return error(col, "expected an expression after '='");
    std::optional<ExprError> err;
    ExprPtr e = parse_expr(t, b, t.size(), int64_t(loc_[sec_]), "an expression", &err);
    if (err) return error(err->col, err->message);
    define_constant(name, std::move(e));
  }

  void define_constant(const Token& name, ExprPtr e) {
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

  bool check_reg(long n, int col, const std::string& text) {
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

  bool parse_operand(const std::vector<Token>& t, size_t b, size_t e, Want want, Operand* op, uint32_t dot) {
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
          error(
              t[open + 1 < e - 1 ? open + 1 : open].col,
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

  void instruction(const std::vector<Token>& t, size_t i) {
    const Token& m = t[i];
    const isa::InstrInfo* in = isa::find_name(m.text);
    const PseudoDef* pseudo = in ? nullptr : find_pseudo(m.text);
    if (!in && !pseudo) {
      std::vector<std::string> names;
      for (const isa::InstrInfo& x : isa::kInstrs) names.push_back(x.name);
      for (const PseudoDef& p : pseudos()) names.push_back(p.name);
      const std::string near = closest(m.text, names);
      return error(m.col, "unknown mnemonic '" + m.text + "'" +
                              (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    if (sec_ != kText)
      return error(m.col, "instruction '" + m.text + "' in .data (instructions belong in .text)");
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
        for (unsigned k = 0; k < in->num_operands; ++k)
          x[k] = with_kind(std::move(x[k]), in->operands[k].kind);
        ops = std::move(x);
      }
    }
    Stmt* s = add_stmt(kind, m.col, m.text, size);
    if (!s) return;
    s->in = in;
    s->ops = std::move(ops);
    s->failed = !ok;
  }

  void directive(const std::vector<Token>& t, size_t i, const std::string& dir) {
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
        return error(t[spans[1].first].col,
                     ".space fill " + std::to_string(*f) + " is not a byte (-128..255)");
      if (sec_ == kText && *size % 4 != 0)
        return error(t[spans[0].first].col, ".space in .text must be a whole number of words, got " +
                                                std::to_string(*size) + " bytes");
      if (uint64_t(*size) > kMaxSectionBytes)
        return error(t[spans[0].first].col, ".space size " + std::to_string(*size) + " exceeds the " +
                                                std::to_string(kMaxSectionBytes >> 20) +
                                                " MiB section limit");
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

  // A .float operand: an optional sign, then a decimal or hex float literal, an
  // integer, or inf / nan.  Rounded to nearest binary32 by strtof.
  std::optional<uint32_t> parse_float(const std::vector<Token>& t, size_t b, size_t e) {
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

  void after_pass1() {
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

  // ---- pass 2 ------------------------------------------------------------------
  // Checks and converts one operand to the value isa::encode takes.
  std::optional<int32_t> operand_value(const Stmt& s, const Operand& op) {
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

  std::optional<uint32_t> encode(const Stmt& s, const isa::InstrInfo& in, const int32_t* values,
                                 uint8_t base) {
    std::string why;
    auto w = isa::encode(in, values, base, &why);
    if (!w) error(s.loc, s.col, why);
    return w;
  }

  std::vector<uint32_t> emit(const Stmt& s, bool* ok) {
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

  void pass2() {
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

  void finish() {
    Program& p = result_.program;
    p.entry = p.text_base;
    if (SymDef* s = find_sym("_start")) {
      if (!s->is_label || s->sec != kText)
        error(s->loc, s->col, "_start (the entry point) must be a label in .text");
      else
        p.entry = uint32_t(s->value);
    }
    // Locals first, then globals, each in definition order: the order an ELF symbol
    // table needs, so that write_elf/read_elf give back exactly this list.
    for (int pass = 0; pass < 2; ++pass)
      for (const SymDef& s : syms_) {
        if (s.global != (pass == 1) || !s.known) continue;
        Symbol out;
        out.name = s.name;
        out.value = uint32_t(s.value);
        out.section = !s.is_label      ? Symbol::Section::Abs
                      : s.sec == kText ? Symbol::Section::Text
                                       : Symbol::Section::Data;
        out.global = s.global;
        p.symbols.push_back(std::move(out));
      }

    std::stable_sort(diags_.begin(), diags_.end(), [](const Diag& a, const Diag& b) {
      return a.loc.order != b.loc.order ? a.loc.order < b.loc.order : a.col < b.col;
    });
    const size_t total = diags_.size();
    const size_t shown = opts_.max_errors ? std::min<size_t>(total, opts_.max_errors) : total;
    for (size_t k = 0; k < shown; ++k) {
      const Diag& d = diags_[k];
      const SourceFile& f = files_[size_t(d.loc.file)];
      Diagnostic out;
      out.file = f.path;
      out.line = d.loc.line;
      out.col = d.col;
      out.message = d.msg;
      out.source_line = size_t(d.loc.line - 1) < f.lines.size() ? f.lines[size_t(d.loc.line - 1)] : "";
      result_.errors.push_back(std::move(out));
    }
    if (shown < total) {
      Diagnostic note;
      note.file = root_name_;
      note.note = true;
      note.message = std::to_string(total - shown) + " more error" + (total - shown == 1 ? "" : "s") +
                     " not shown (the limit is " + std::to_string(opts_.max_errors) + ")";
      result_.errors.push_back(std::move(note));
    }
  }
};

}  // namespace

Result assemble_string(const std::string& source, const std::string& name, const Options& opts) {
  return Assembler(opts).run(source, name, "", name);
}

Result assemble_file(const std::string& path, const Options& opts) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    Result r;
    r.errors.push_back({path, 0, 0,
                        fs::is_directory(path, ec) ? "is a directory, not an assembly source file"
                        : fs::exists(path, ec)     ? "not a regular file"
                                                   : "cannot open: no such file",
                        "", false});
    return r;
  }
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  if (!f) {
    Result r;
    r.errors.push_back({path, 0, 0, std::string("cannot read: ") + std::strerror(errno), "", false});
    return r;
  }
  const fs::path canon = fs::weakly_canonical(path, ec);
  Result r =
      Assembler(opts).run(ss.str(), path, fs::path(path).parent_path().string(), ec ? path : canon.string());
  r.sources.insert(r.sources.begin(), path);
  return r;
}

void Options::apply(const Config& c) {
  registers = c.registers;
  data_base = c.data_base;
  imem_words = c.imem_words;
  mem_bytes = c.mem_bytes;
}

}  // namespace umbra::as
