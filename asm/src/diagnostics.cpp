// The assembler's messages: how a Diagnostic is printed (escaped, with the source
// line and a caret under the column), and the helpers messages are made with (the
// "did you mean" suggestion for an unknown mnemonic or directive, hex, plurals).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>
#include <vector>

#include "assembler.h"

namespace umbra::as {

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

namespace detail {

// Damerau-Levenshtein (optimal string alignment) distance, for "did you mean".  Three
// rows of one buffer rather than a table: it runs for every candidate of every unknown
// mnemonic or directive, which a file of garbage has on every line.
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = b.size() + 1;
  std::vector<size_t> rows(3 * n);
  size_t *before = rows.data(), *prev = before + n, *cur = prev + n;  // rows i-2, i-1, i
  for (size_t j = 0; j < n; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j < n; ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);  // the old i-2 row is overwritten next
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest(std::string word, const std::vector<std::string>& candidates) {
  for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::string best;
  size_t best_d = 3;  // suggest only within two edits, and never more edits than the word is long
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length, so such a candidate cannot win.
    if ((word.size() > c.size() ? word.size() - c.size() : c.size() - word.size()) >= best_d) continue;
    const size_t d = edit_distance(word, c);
    if (d < best_d && d < word.size()) best = c, best_d = d;
  }
  return best;
}

std::string plural(size_t n, const char* one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

}  // namespace detail

}  // namespace umbra::as
