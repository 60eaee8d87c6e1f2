// Program helpers shared by every reader and writer: symbol lookup by name, the
// reverse lookup the disassembler and trace printers use to name branch targets, and
// read_file, the one loader every tool uses so they all accept the same files.
#include "umbra/program.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "umbra/asm.h"

namespace umbra {

std::optional<uint32_t> Program::symbol(const std::string& name) const {
  for (const Symbol& s : symbols)
    if (s.name == name) return s.value;
  return std::nullopt;
}

std::optional<uint32_t> Program::data_symbol(const std::string& name) const {
  for (const Symbol& s : symbols)
    if (s.name == name) {
      if (s.section == Symbol::Section::Text)
        throw std::invalid_argument("'" + name +
                                    "' is a text label (an address in the instruction store), not data: "
                                    "name a .data symbol or give an address");
      return s.value;
    }
  return std::nullopt;
}

std::optional<std::string> Program::text_label(uint32_t address) const {
  for (const Symbol& s : symbols)
    if (s.section == Symbol::Section::Text && s.value == address) return s.name;
  return std::nullopt;
}

namespace obj {

namespace {

// Reads in chunks up to the bound, so that a device or a pipe that never ends is
// refused after kMaxImageFileBytes instead of growing until memory runs out.
std::vector<uint8_t> slurp(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ObjectError(path + ": error: is a directory, not a program");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ObjectError(path + ": error: cannot open: " + std::strerror(errno));
  // In chunks, with a bound, so that an endless stream (/dev/zero) ends in an error; a
  // chunk is read into a buffer of its own, not into zero-filled room in the vector.
  std::vector<uint8_t> b;
  char chunk[1 << 16];
  while (f) {
    if (b.size() > Program::kMaxImageFileBytes)
      throw ObjectError(path + ": error: longer than " + std::to_string(Program::kMaxImageFileBytes >> 20) +
                        " MiB, more than any program image holds (is it the right file?)");
    f.read(chunk, std::streamsize(sizeof chunk));
    b.insert(b.end(), chunk, chunk + f.gcount());
  }
  if (f.bad()) throw ObjectError(path + ": error: cannot read: " + std::strerror(errno));
  return b;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::optional<Format> parse_format(const std::string& name) {
  if (name == "auto") return Format::Auto;
  if (name == "elf") return Format::Elf;
  if (name == "hex") return Format::Hex;
  if (name == "bin") return Format::Bin;
  if (name == "asm") return Format::Asm;
  return std::nullopt;
}

Program read_file(const std::string& path, Format fmt, const as::Options* asm_options) {
  if (fmt == Format::Asm ||
      (fmt == Format::Auto && (ends_with(path, ".s") || ends_with(path, ".S") || ends_with(path, ".asm")))) {
    as::Result r = as::assemble_file(path, asm_options ? *asm_options : as::Options{});
    if (!r.ok()) {
      std::string msg;
      for (const as::Diagnostic& d : r.errors) msg += d.render();
      if (!msg.empty() && msg.back() == '\n') msg.pop_back();
      throw ObjectError(msg);
    }
    return std::move(r.program);
  }
  const std::vector<uint8_t> bytes = slurp(path);
  fmt = detect_format(bytes, path, fmt);
  Program p = read_image(bytes, path, fmt);
  p.sources = {path};
  if (fmt == Format::Hex) {
    const std::string data = path + ".data.hex";
    std::error_code ec;
    if (std::filesystem::is_regular_file(data, ec)) {
      const std::vector<uint8_t> d = slurp(data);
      read_hex_data(p, std::string(d.begin(), d.end()), data);
      p.sources.push_back(data);
    }
  }
  return p;
}

Format detect_format(const std::vector<uint8_t>& bytes, const std::string& path, Format fmt) {
  if (fmt != Format::Auto) return fmt;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(),
                                       "\x7f"
                                       "ELF",
                                       4) == 0)
    return Format::Elf;
  return ends_with(path, ".hex") ? Format::Hex : Format::Bin;
}

Program read_image(const std::vector<uint8_t>& bytes, const std::string& path, Format fmt) {
  switch (detect_format(bytes, path, fmt)) {
    case Format::Elf: return read_elf(bytes, path);
    case Format::Hex: return read_hex_text(std::string(bytes.begin(), bytes.end()), path);
    case Format::Bin: return read_bin_text(bytes, path);
    default: throw std::invalid_argument("obj::read_image: assembly source is read_file's alone");
  }
}

}  // namespace obj

}  // namespace umbra
