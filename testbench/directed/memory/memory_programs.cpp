// The `#@` specification lines of the directed memory programs (memory_programs.h).
#include "memory_programs.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "umbra/asm.h"
#include "umbra/format.h"

namespace umbra::memdirected {

namespace {

[[noreturn]] void fail(const std::string& path, unsigned line, const std::string& what) {
  throw SpecError(path + ":" + std::to_string(line) + ": " + what);
}

uint32_t number(const std::string& path, unsigned line, const std::string& tok) {
  const char* p = tok.c_str();
  const bool neg = *p == '-';
  if (neg) ++p;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(p, &end, 0);
  if (tok.empty() || *p == '\0' || *end != '\0' || errno == ERANGE || v > 0xffffffffull)
    fail(path, line, "'" + tok + "' is not a 32-bit number");
  return neg ? uint32_t(-int64_t(v)) : uint32_t(v);
}

// "sym" or "sym+off"
void symbol_offset(const std::string& path, unsigned line, const std::string& tok, std::string& sym,
                   uint32_t& off) {
  const auto plus = tok.find('+');
  sym = tok.substr(0, plus);
  off = plus == std::string::npos ? 0 : number(path, line, tok.substr(plus + 1));
  if (sym.empty()) fail(path, line, "missing symbol in '" + tok + "'");
  if (off % 4) fail(path, line, "offset " + std::to_string(off) + " is not a multiple of 4");
}

}  // namespace

Spec load_spec(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw SpecError(path + ": cannot read");
  Spec s;
  s.path = path;
  s.name = std::filesystem::path(path).stem().string();
  std::string text;
  unsigned n = 0;
  while (std::getline(f, text)) {
    ++n;
    if (text.rfind("#@", 0) != 0) continue;
    std::istringstream in(text.substr(2));
    std::string key;
    in >> key;
    if (key == "threads:") {
      std::string v;
      in >> v;
      s.threads = number(path, n, v);
      if (s.threads == 0) fail(path, n, "threads must be at least 1");
    } else if (key == "expect") {
      Expect e;
      e.line = n;
      std::string where;
      in >> where;
      if (where.empty() || where.back() != ':') fail(path, n, "expected 'expect SYMBOL[+OFFSET]: VALUES'");
      where.pop_back();
      symbol_offset(path, n, where, e.symbol, e.offset);
      for (std::string v; in >> v;) e.words.push_back(number(path, n, v));
      if (e.words.empty()) fail(path, n, "expect lists no values");
      s.expects.push_back(e);
    } else if (key == "host-write:") {
      HostWrite w;
      std::string cyc, where, val;
      in >> cyc >> where >> val;
      if (val.empty()) fail(path, n, "expected 'host-write: CYCLE SYMBOL[+OFFSET] VALUE'");
      w.cycle = number(path, n, cyc);
      symbol_offset(path, n, where, w.symbol, w.offset);
      w.value = number(path, n, val);
      s.host_writes.push_back(w);
    } else {
      fail(path, n, "unknown directive '" + key + "' (threads:, expect, host-write:)");
    }
  }
  if (!s.threads) throw SpecError(path + ": no '#@ threads: N' line");
  if (s.expects.empty()) throw SpecError(path + ": no '#@ expect' line: nothing would be checked");
  return s;
}

std::vector<Spec> all_specs() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(UMBRA_MEMORY_DIRECTED_DIR))
    if (e.path().extension() == ".s") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<Spec> out;
  for (const auto& p : paths) out.push_back(load_spec(p));
  return out;
}

Program assemble(const Spec& s, unsigned registers) {
  as::Options o;
  o.registers = registers;
  const as::Result r = as::assemble_file(s.path, o);
  if (!r.ok()) {
    std::string d;
    for (const auto& e : r.errors) d += e.render();
    throw SpecError(s.path + " does not assemble:\n" + d);
  }
  return r.program;
}

uint32_t address_of(const Spec& s, const Program& p, const std::string& symbol, uint32_t offset) {
  const auto a = p.symbol(symbol);
  if (!a) throw SpecError(s.path + ": the program has no symbol '" + symbol + "'");
  return *a + offset;
}

std::vector<std::string> check(const Spec& s, const Program& p, const std::vector<uint8_t>& memory) {
  std::vector<std::string> out;
  const std::string file = std::filesystem::path(s.path).filename().string();
  for (const Expect& e : s.expects) {
    const uint32_t base = address_of(s, p, e.symbol, e.offset);
    for (size_t i = 0; i < e.words.size(); ++i) {
      const uint64_t a = base + 4 * uint64_t(i);
      const std::string where =
          file + ":" + std::to_string(e.line) + ": " + e.symbol + "+" + hex(e.offset + 4 * i);
      if (a + 4 > memory.size()) {
        out.push_back(where + ": outside the " + std::to_string(memory.size()) + "-byte memory");
        continue;
      }
      const uint32_t got = uint32_t(memory[a]) | uint32_t(memory[a + 1]) << 8 |
                           uint32_t(memory[a + 2]) << 16 | uint32_t(memory[a + 3]) << 24;
      if (got != e.words[i]) out.push_back(where + ": expected " + hex(e.words[i]) + ", got " + hex(got));
    }
  }
  return out;
}

}  // namespace umbra::memdirected
