// umbra-as's driver: the entry points, the source files and .include, the dispatch
// of each line to a label, constant, directive or instruction, the layout of both
// sections (every statement's address, the target's store limits), and the end of a
// run: the symbol table and the diagnostics in source order.  The passes themselves
// are described in assembler.h.
#include "assembler.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace umbra::as {

namespace fs = std::filesystem;

namespace detail {

namespace {

const char* sec_name(int s) {
  return s == kText ? ".text" : ".data";
}

}  // namespace

// `key` identifies the root file for include-cycle detection (its canonical path).
Result Assembler::run(const std::string& source, const std::string& name, const std::string& dir,
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

Result Assembler::fail_early(const std::string& file, const std::string& msg) {
  result_.errors.push_back({file, 0, 0, msg, "", false});
  return std::move(result_);
}

void Assembler::error(const Loc& loc, int col, std::string msg) {
  diags_.push_back({loc, col, std::move(msg), diags_.size()});
}

std::string Assembler::span_text(const std::vector<Token>& t, size_t b, size_t e) const {
  if (b >= e) return "";
  const size_t from = size_t(t[b].col - 1), to = size_t(t[e - 1].col - 1 + t[e - 1].len);
  return cur_line_->substr(from, to - from);
}

void Assembler::process(const std::string& source, const std::string& display, const std::string& dir) {
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

void Assembler::include(const Token& t, const std::string& dir) {
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

void Assembler::do_line(const std::string& line, const std::string& dir) {
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

bool Assembler::split_operands(const std::vector<Token>& t, size_t b, size_t e,
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

Stmt* Assembler::add_stmt(Stmt::Kind kind, int col, const std::string& mnemonic, uint64_t size) {
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
      error(col, sec_ == kText ? "the program grows past the target's instruction store of " +
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

void Assembler::finish() {
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
    out.absent_group = d.group;
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

}  // namespace detail

const Diagnostic* absent_group_error(const Result& r) {
  for (const Diagnostic& d : r.errors)
    if (d.absent_group >= 0) return &d;
  return nullptr;
}

Result assemble_string(const std::string& source, const std::string& name, const Options& opts) {
  return detail::Assembler(opts).run(source, name, "", name);
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
  Result r = detail::Assembler(opts).run(ss.str(), path, fs::path(path).parent_path().string(),
                                         ec ? path : canon.string());
  r.sources.insert(r.sources.begin(), path);
  r.program.sources = r.sources;
  return r;
}

void Options::apply(const Config& c) {
  registers = c.registers;
  data_base = c.data_base;
  imem_words = c.imem_words;
  mem_bytes = c.mem_bytes;
  groups = c.groups;
  config = "'" + c.name + "'";
}

}  // namespace umbra::as
