// Verilog $readmemh images of a program, for RTL simulation and FPGA block-RAM
// initialisation.  One 32-bit word per line as `reg [31:0] mem [...]` wants it; an
// @ line gives the *word* index (byte address / 4), which is what $readmemh counts
// in.  The text image starts at word text_base/4; the data image (bytes packed
// little-endian into words, the last word zero-padded) at word data_base/4.  The
// reader accepts what $readmemh accepts for such files: comments, @ lines, x/z-free
// hex words of at most 32 bits.
#include <cctype>
#include <cstdio>
#include <string>

#include "umbra/program.h"

namespace umbra::obj {

namespace {

std::string image(const char* what, uint32_t word_base, const std::vector<uint32_t>& words) {
  std::string s = std::string("// Umbra ") + what + " image: $readmemh, one 32-bit word per line\n";
  char buf[32];
  std::snprintf(buf, sizeof buf, "@%08x\n", word_base);
  s += buf;
  for (uint32_t w : words) {
    std::snprintf(buf, sizeof buf, "%08x\n", w);
    s += buf;
  }
  return s;
}

// Parses $readmemh text into words starting at the first @ address (or 0); gaps
// between @ ranges are zero.  Returns the base word index through *base.
std::vector<uint32_t> parse(const std::string& text, const std::string& name, uint32_t* base) {
  std::vector<uint32_t> words;
  bool have_base = false;
  uint64_t cursor = 0;  // next word index
  *base = 0;
  int line = 1;
  auto fail = [&](const std::string& what) -> void {
    throw ObjectError(name + ":" + std::to_string(line) + ": error: " + what);
  };
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      if (end == std::string::npos) fail("unterminated /* comment");
      for (size_t k = i; k < end; ++k) line += text[k] == '\n';
      i = end + 2;
    } else {
      const bool at = c == '@';
      if (at) ++i;
      const size_t start = i;
      uint64_t v = 0;
      while (i < text.size() && (std::isxdigit(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
        if (text[i] != '_') {
          const char d = char(std::tolower(static_cast<unsigned char>(text[i])));
          v = v * 16 + uint64_t(d <= '9' ? d - '0' : d - 'a' + 10);
          if (v > 0xffffffffu)
            fail("value '" + text.substr(start, i + 1 - start) + "...' does not fit in 32 bits");
        }
        ++i;
      }
      if (at && i == start) fail("'@' must be followed by a hex word address");
      if (i == start ||
          (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '/'))
        fail(std::string("'") + text[i] + "' is not a hex digit");
      if (at) {
        if (!have_base) {
          *base = uint32_t(v);
          have_base = true;
        } else if (v < *base + uint64_t(words.size())) {
          fail("@" + text.substr(start, i - start) + " goes back over words already given");
        }
        cursor = v;
      } else {
        if (!have_base) have_base = true;  // data without an @ line starts at word 0
        // An @ line costs a few bytes but could ask for gigabytes of zero fill.
        if (cursor - *base >= (1u << 24)) fail("image larger than 2^24 words (64 MiB)");
        words.resize(size_t(cursor - *base), 0);
        words.push_back(uint32_t(v));
        ++cursor;
      }
    }
  }
  return words;
}

}  // namespace

std::string write_hex_text(const Program& p) {
  return image("text", p.text_base / 4, p.text);
}

std::string write_hex_data(const Program& p) {
  std::vector<uint32_t> words((p.data.size() + 3) / 4, 0);
  for (size_t i = 0; i < p.data.size(); ++i) words[i / 4] |= uint32_t(p.data[i]) << (8 * (i % 4));
  return image("data", p.data_base / 4, words);
}

Program read_hex_text(const std::string& text, const std::string& name) {
  Program p;
  uint32_t base = 0;
  p.text = parse(text, name, &base);
  if (base > 0x3fffffffu)
    throw ObjectError(name + ": error: text address @" + std::to_string(base) + " beyond 2^32 bytes");
  p.text_base = base * 4;
  p.entry = p.text_base;
  return p;
}

void read_hex_data(Program& p, const std::string& text, const std::string& name) {
  uint32_t base = 0;
  const std::vector<uint32_t> words = parse(text, name, &base);
  if (base > 0x3fffffffu)
    throw ObjectError(name + ": error: data address @" + std::to_string(base) + " beyond 2^32 bytes");
  p.data_base = base * 4;
  // A word at a time: an @ gap can make this 64 MiB.
  p.data.resize(words.size() * 4);
  for (size_t w = 0; w < words.size(); ++w)
    for (unsigned k = 0; k < 4; ++k) p.data[4 * w + k] = uint8_t(words[w] >> (8 * k));
}

}  // namespace umbra::obj
