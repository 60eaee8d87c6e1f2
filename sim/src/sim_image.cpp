// --dump-image / --show-image (umbra/sim_image.h): the specification parser, the PNG
// writer (libpng, RGBA so that nothing of the word is lost) and the terminal renderer.
// The renderer uses ANSI 24-bit colour and U+2580 (upper half block): the foreground
// paints the top pixel and the background the bottom one, which doubles the vertical
// resolution of a terminal and keeps the pixels roughly square.
#include "umbra/sim_image.h"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "umbra/format.h"

namespace umbra::simtools {

namespace {

// Decimal or 0x hex, at most 32 bits.
std::optional<uint64_t> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const std::string digits = hex ? s.substr(2) : s;
  if (digits.empty() || digits.size() > (hex ? 8u : 10u)) return std::nullopt;
  uint64_t v = 0;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (hex && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (hex && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v * (hex ? 16 : 10) + uint64_t(d);
  }
  if (v > 0xffffffffull) return std::nullopt;
  return v;
}

}  // namespace

ImageSpec parse_image_spec(const std::string& option, const std::string& spec, bool with_file,
                           const SymbolLookup& lookup, uint32_t mem_bytes) {
  const std::string form = with_file ? "ADDR:WIDTHxHEIGHT:FILE.png" : "ADDR:WIDTHxHEIGHT";
  auto bad = [&](const std::string& why) {
    return ImageError(option + " '" + spec + "': " + why + " (expected " + form + ")");
  };
  ImageSpec s;
  s.text = spec;
  const auto c1 = spec.find(':');
  if (c1 == std::string::npos) throw bad("missing ':WIDTHxHEIGHT'");
  const auto c2 = spec.find(':', c1 + 1);
  const std::string addr = spec.substr(0, c1);
  const std::string size = spec.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
  if (with_file) {
    if (c2 == std::string::npos || c2 + 1 == spec.size()) throw bad("missing output FILE");
    s.file = spec.substr(c2 + 1);
  } else if (c2 != std::string::npos) {
    throw bad("unexpected ':" + spec.substr(c2 + 1) + "'");
  }
  if (addr.empty()) throw bad("empty ADDR");
  if (auto v = number(addr)) {
    s.address = uint32_t(*v);
  } else if (auto sym = [&]() -> std::optional<uint32_t> {
               try {
                 return lookup ? lookup(addr) : std::nullopt;
               } catch (const std::invalid_argument& e) {  // a symbol of the wrong kind
                 throw bad(e.what());
               }
             }()) {
    s.address = *sym;
  } else {
    throw bad("ADDR '" + addr + "' is neither a number nor a symbol of the program");
  }
  const auto x = size.find_first_of("xX");
  if (x == std::string::npos) throw bad("size '" + size + "' is not WIDTHxHEIGHT");
  const auto w = number(size.substr(0, x)), h = number(size.substr(x + 1));
  if (!w || !h || *w == 0 || *h == 0 || *w > 65536 || *h > 65536)
    throw bad("size '" + size + "': WIDTH and HEIGHT must be numbers from 1 to 65536");
  s.width = unsigned(*w);
  s.height = unsigned(*h);
  const std::string hex = hex8(s.address);
  if (s.address % 4) throw bad(std::string("ADDR ") + hex + " is not a multiple of 4");
  if (s.address + s.bytes() > mem_bytes)
    throw bad(std::string(hex) + " + " + std::to_string(s.bytes()) + " bytes is beyond data memory (" +
              std::to_string(mem_bytes) + " bytes)");
  return s;
}

void write_png(const std::string& path, const std::vector<uint32_t>& argb, unsigned width, unsigned height) {
  if (argb.size() < uint64_t(width) * height) throw ImageError(path + ": error: fewer pixels than the size");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw ImageError(path + ": error: cannot write image: " + std::strerror(errno));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw ImageError(path + ": error: libpng could not start");
  }
  std::vector<uint8_t> row(size_t(width) * 4);
  // libpng reports errors by longjmp; nothing with a destructor is created between here
  // and the end of the writing (the row buffer exists already).
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw ImageError(path + ": error: cannot write image (libpng failed)");
  }
  png_init_io(png, f.get());
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (unsigned y = 0; y < height; ++y) {
    for (unsigned x = 0; x < width; ++x) {
      const uint32_t p = argb[size_t(y) * width + x];
      row[4 * x + 0] = uint8_t(p >> 16);
      row[4 * x + 1] = uint8_t(p >> 8);
      row[4 * x + 2] = uint8_t(p);
      row[4 * x + 3] = uint8_t(p >> 24);
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
    throw ImageError(path + ": error: cannot write image: " + std::strerror(errno));
}

std::string ansi_image(const std::vector<uint32_t>& argb, unsigned width, unsigned height,
                       unsigned max_columns) {
  if (width == 0 || height == 0 || argb.size() < uint64_t(width) * height) return "";
  if (max_columns == 0) max_columns = 1;
  // Downscale by a real factor so that a 96-pixel image fills 80 columns rather than 48;
  // each output pixel is the mean of the source pixels whose index falls in its span.
  const unsigned cols = std::min(width, max_columns);
  const double f = double(width) / cols;
  const unsigned rows = std::max(1u, unsigned(double(height) / f + 0.5));
  auto span = [f](unsigned i, unsigned limit) {
    const unsigned a = std::min(limit - 1, unsigned(i * f));
    const unsigned b = std::min(limit, std::max(a + 1, unsigned((i + 1) * f)));
    return std::pair<unsigned, unsigned>(a, b);
  };
  std::vector<uint32_t> small(size_t(cols) * rows);
  for (unsigned oy = 0; oy < rows; ++oy) {
    const auto [y0, y1] = span(oy, height);
    for (unsigned ox = 0; ox < cols; ++ox) {
      const auto [x0, x1] = span(ox, width);
      uint64_t r = 0, g = 0, b = 0, n = 0;
      for (unsigned y = y0; y < y1; ++y)
        for (unsigned x = x0; x < x1; ++x) {
          const uint32_t p = argb[size_t(y) * width + x];
          r += (p >> 16) & 0xff;
          g += (p >> 8) & 0xff;
          b += p & 0xff;
          ++n;
        }
      small[size_t(oy) * cols + ox] = uint32_t((r / n) << 16 | (g / n) << 8 | (b / n));
    }
  }
  std::string out;
  char buf[48];
  for (unsigned y = 0; y < rows; y += 2) {
    // A colour is sent only when it changes along the row: flat areas cost 3 bytes a cell.
    int64_t fg = -1, bg = -1;
    for (unsigned x = 0; x < cols; ++x) {
      const uint32_t top = small[size_t(y) * cols + x];
      if (int64_t(top) != fg) {
        std::snprintf(buf, sizeof buf, "\x1b[38;2;%u;%u;%um", (top >> 16) & 0xff, (top >> 8) & 0xff,
                      top & 0xff);
        out += buf;
        fg = top;
      }
      if (y + 1 < rows) {
        const uint32_t bot = small[size_t(y + 1) * cols + x];
        if (int64_t(bot) != bg) {
          std::snprintf(buf, sizeof buf, "\x1b[48;2;%u;%u;%um", (bot >> 16) & 0xff, (bot >> 8) & 0xff,
                        bot & 0xff);
          out += buf;
          bg = bot;
        }
      } else if (x == 0) {
        out += "\x1b[49m";  // odd last row: the terminal's own background below
      }
      out += "\xe2\x96\x80";  // U+2580 UPPER HALF BLOCK
    }
    out += "\x1b[0m\n";
  }
  return out;
}

}  // namespace umbra::simtools
