// An assembled program, independent of how it is stored: the instruction-store image,
// the data-memory image, the entry point and the symbols.  umbra-as produces it, the
// object-file readers and writers (ELF, $readmemh hex, raw binary) convert it, and
// every simulator loads it.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra {

struct Symbol {
  enum class Section : uint8_t { Text, Data, Abs };
  std::string name;
  uint32_t value = 0;
  Section section = Section::Abs;
  bool global = false;  // .global: STB_GLOBAL in ELF; otherwise local
};

// One line of the optional listing: where the line's bytes went and what they are.
struct ListingLine {
  std::string file;
  int line = 0;
  bool in_text = true;
  uint32_t address = 0;
  std::vector<uint32_t> words;  // encodings (text) or data words emitted by this line
  std::string source;
};

struct Program {
  // Text lives in the per-core instruction store; pc values are byte addresses in it.
  uint32_t text_base = 0;
  std::vector<uint32_t> text;
  // Data lives in data memory, a separate address space.
  static constexpr uint32_t kDefaultDataBase = 0x10000;
  // umbra-as refuses a section larger than this (a sanity bound, docs/assembler.md).
  static constexpr uint64_t kMaxSectionBytes = 64u << 20;
  // The largest file the image readers accept: more than anything umbra-as writes
  // (an ELF holds two sections and the symbols; $readmemh text takes 9 characters per
  // 4-byte word), so an endless stream (/dev/zero, a pipe from `yes`) fails here
  // instead of exhausting memory.
  static constexpr uint64_t kMaxImageFileBytes = 4 * kMaxSectionBytes;
  uint32_t data_base = kDefaultDataBase;
  std::vector<uint8_t> data;
  uint32_t entry = 0;
  std::vector<Symbol> symbols;
  std::vector<ListingLine> listing;
  // The files it was read from (read_file, as::assemble_file): the image or the
  // source first, then a hex image's data file or every file the source .includes.
  // A tool's outputs may be none of them (umbra/output_files.h).
  std::vector<std::string> sources;

  std::optional<uint32_t> symbol(const std::string& name) const;
  // A data address named by a symbol: nothing for an unknown name; a text label (an
  // address in the instruction store, not in data memory) throws std::invalid_argument
  // saying so, since reading data memory there would show whatever happens to be there.
  std::optional<uint32_t> data_symbol(const std::string& name) const;
  // Name of a text symbol at exactly this address, for disassembly and traces.
  std::optional<std::string> text_label(uint32_t address) const;
};

// A file that is not a valid program image: the message names the file and the fault.
struct ObjectError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace as {
struct Options;
}

namespace obj {
std::vector<uint8_t> write_elf(const Program& p);
// $readmemh text: one 32-bit word per line, with an @address line where needed.
std::string write_hex_text(const Program& p);
std::string write_hex_data(const Program& p);
std::vector<uint8_t> write_bin_text(const Program& p);

enum class Format { Auto, Elf, Hex, Bin, Asm };
// Reads a program image from a file; Auto tells ELF by its magic, hex and assembly by
// their extension (.hex, .s/.S/.asm), anything else is raw binary text.
Program read_elf(const std::vector<uint8_t>& bytes, const std::string& name);
Program read_hex_text(const std::string& text, const std::string& name);
Program read_bin_text(const std::vector<uint8_t>& bytes, const std::string& name);
// Adds the data image of a write_hex_data file (its @ line gives data_base) to p.
void read_hex_data(Program& p, const std::string& text, const std::string& name);

// The ELF e_machine Umbra files carry (see docs/assembler.md for why this value).
constexpr uint16_t kElfMachine = 0x5542;

// Reads the program in a file, of the given format or (Auto) told as described above.
// A .hex text image picks up its data image from "<path>.data.hex" when that exists;
// assembly goes through umbra-as with `asm_options` (a configuration's registers,
// .data origin and stores: as::Options::apply), or the defaults when null (errors
// become an ObjectError holding the rendered diagnostics).
// Fills Program::sources.
Program read_file(const std::string& path, Format fmt = Format::Auto,
                  const as::Options* asm_options = nullptr);
// read_file's steps for an image once its bytes are read, for images that are not in
// files (the fuzzer): detect_format tells the format as Auto does (ELF magic, then a
// .hex name, else raw binary; any other fmt is returned as it is), and read_image reads
// the bytes so, with the same messages naming `path`.  read_file then adds a hex text
// image's "<path>.data.hex" companion with read_hex_data.  Assembly source is
// read_file's alone: read_image throws std::invalid_argument for Format::Asm.
Format detect_format(const std::vector<uint8_t>& bytes, const std::string& path, Format fmt);
Program read_image(const std::vector<uint8_t>& bytes, const std::string& path, Format fmt = Format::Auto);
// Format by name: "auto", "elf", "hex", "bin", "asm"; nullopt for anything else.
std::optional<Format> parse_format(const std::string& name);
}  // namespace obj

}  // namespace umbra
