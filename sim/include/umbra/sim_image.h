// Framebuffers out of a simulated data memory: `umbra-sim --dump-image` and
// `--show-image`.  A framebuffer is WIDTH x HEIGHT words, row-major, each word one
// 0xAARRGGBB pixel (docs/examples.md).  The pieces are pure functions over a word
// array so the tests can check them without running a model; umbra-sim reads the
// words out of whichever model ran.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra::simtools {

struct ImageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ImageSpec {
  std::string text;  // as given, for messages
  uint32_t address = 0;
  unsigned width = 0, height = 0;
  std::string file;  // --dump-image only
  uint64_t bytes() const { return uint64_t(width) * height * 4; }
};

// Resolves the ADDR part: a symbol of the program, or nullopt.
using SymbolLookup = std::function<std::optional<uint32_t>(const std::string&)>;

// Parses ADDR:WIDTHxHEIGHT (with_file false) or ADDR:WIDTHxHEIGHT:FILE (true).  ADDR
// is a number (decimal or 0x hex) or a symbol; the region must be word-aligned and lie
// inside mem_bytes.  Throws ImageError naming the option, the part that is wrong and
// the expected form.
ImageSpec parse_image_spec(const std::string& option, const std::string& spec, bool with_file,
                           const SymbolLookup& lookup, uint32_t mem_bytes);

// Writes an 8-bit RGBA PNG (alpha kept: the A of 0xAARRGGBB).  Throws ImageError
// naming the file when it cannot be written.
void write_png(const std::string& path, const std::vector<uint32_t>& argb, unsigned width, unsigned height);

// The image as text for a 24-bit-colour terminal: each character is an upper half
// block whose foreground is one pixel row and background the next, so a text row
// shows two pixel rows.  Images wider than max_columns are averaged down to exactly
// max_columns (the same factor vertically, so the aspect ratio holds); alpha is ignored.  Each line ends
// with a colour reset and a newline.
std::string ansi_image(const std::vector<uint32_t>& argb, unsigned width, unsigned height,
                       unsigned max_columns = 80);

}  // namespace umbra::simtools
