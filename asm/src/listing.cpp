// The assembler listing: what each source line became.  Rows are
// "<t|d>:ADDRESS  WORDS  LINE  SOURCE", at most four words to a row; a line that
// produced many words (a large .space) shows the first rows and a count of the rest,
// so a listing stays readable next to its source.
#include <cstdio>

#include "umbra/asm.h"

namespace umbra::as {

std::string render_listing(const Program& p) {
  constexpr size_t kPerRow = 4, kMaxRows = 4;
  std::string out;
  std::string file;
  char buf[64];
  for (const ListingLine& l : p.listing) {
    if (l.file != file) {
      file = l.file;
      out += "# " + file + "\n";
    }
    const size_t rows = l.words.empty() ? 1 : (l.words.size() + kPerRow - 1) / kPerRow;
    for (size_t r = 0; r < rows && r < kMaxRows; ++r) {
      std::snprintf(buf, sizeof buf, "%c:%08x ", l.in_text ? 't' : 'd', unsigned(l.address + 16 * r));
      std::string row = buf;
      for (size_t k = r * kPerRow; k < (r + 1) * kPerRow; ++k) {
        if (k < l.words.size()) {
          std::snprintf(buf, sizeof buf, " %08x", l.words[k]);
          row += buf;
        } else {
          row += "         ";
        }
      }
      if (r == 0) {
        std::snprintf(buf, sizeof buf, " %5d  ", l.line);
        row += buf + l.source;
      }
      while (!row.empty() && row.back() == ' ') row.pop_back();
      out += row + "\n";
    }
    if (rows > kMaxRows) {
      std::snprintf(buf, sizeof buf, "           ... %zu more words\n", l.words.size() - kMaxRows * kPerRow);
      out += buf;
    }
  }
  return out;
}

}  // namespace umbra::as
