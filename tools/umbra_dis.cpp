// umbra-dis: a program image (ELF, $readmemh hex or raw binary) back to assembly.
//
// The output is meant to be fed to umbra-as again, and the promise is that doing so
// gives the same bits.  Every choice below serves that:
//  - every branch target inside the text is a label (an ELF symbol when there is one,
//    else a synthesized L_<hex>), and a target outside it is written relative to `.`,
//    so the offsets survive even where umbra-as lays the text out at another address;
//  - symbols are kept (labels, .equ constants, .global, _start for the entry point),
//    except names the assembler's own lexer would not read back as one symbol, which
//    are listed in a comment instead of being printed broken;
//  - invalid words print as `.word` data, as do branches whose target would lie
//    below address 0 where umbra-as puts the text (it refuses such targets);
//  - data bytes a label splits, or that do
//    not fill a whole aligned word, as one-byte `.space 1, BYTE` (there is no .byte).
// The listing is built by functions in umbra::dis so that the disassembler fuzzer
// (fuzz/fuzz_dis.cpp) runs exactly this code; it compiles this file with
// UMBRA_DIS_NO_MAIN.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lex.h"  // the assembler's own lexer decides what is a symbol name
#include "umbra/asm.h"
#include "umbra/format.h"
#include "umbra/isa.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"

#ifndef UMBRA_DIS_NO_MAIN
#include <CLI/CLI.hpp>
#endif

namespace umbra::dis {

struct ListingOptions {
  bool addresses = false;  // append "# address  encoding" to every line
  std::string source;      // named in the header comment
  // A target's extension groups (--config): a word of another group keeps its
  // instruction text, which umbra-as reads back, and is marked in its comment, since
  // that core would fault on it.
  uint32_t groups = isa::kAllGroups;
  std::string config;  // the configuration's name, for the mark
};

// True if umbra-as reads `name:` as a label called `name`.
inline bool is_symbol_name(const std::string& name) {
  if (name.empty() || name == "." || name.size() > 1024) return false;
  std::optional<as::detail::LexError> err;
  const std::vector<as::detail::Token> t = as::detail::lex_line(name + ":", &err);
  return !err && t.size() == 2 && t[0].type == as::detail::Token::Ident && t[0].text == name &&
         !as::detail::register_number(name);
}

namespace detail {

constexpr const char* kIndent = "        ";
constexpr size_t kCommentColumn = 40;
// Zero data runs at least this long print as one .space instead of .word lines.
constexpr size_t kMinZeroRun = 8;

// Appends one line with the optional address/encoding column.  `comment` is text the
// line keeps in any case (an invalid word's reason).
inline void emit(std::string& out, const std::string& code, const std::string& comment, bool addresses,
                 uint32_t address, const std::string& encoding) {
  std::string line = kIndent + code;
  std::string note;
  if (addresses) note = hex8(address) + (encoding.empty() ? "" : "  " + encoding);
  if (!comment.empty()) note += (note.empty() ? "" : "  ") + comment;
  if (!note.empty()) {
    if (line.size() < kCommentColumn) line.append(kCommentColumn - line.size(), ' ');
    line += "  # " + note;
  }
  out += line;
  out += '\n';
}

inline bool has_pcrel_operand(const isa::InstrInfo& in) {
  for (unsigned k = 0; k < in.num_operands; ++k)
    if (isa::kind_info(in.operands[k].kind).pcrel) return true;
  return false;
}

}  // namespace detail

// The whole listing for a program.
inline std::string listing(const Program& p, const ListingOptions& opt = {}) {
  const uint64_t text_end = uint64_t(p.text_base) + 4 * uint64_t(p.text.size());
  const uint64_t data_end = uint64_t(p.data_base) + uint64_t(p.data.size());
  const auto in_text = [&](uint64_t a) {
    return a >= p.text_base && a <= text_end && (a - p.text_base) % 4 == 0;
  };

  std::set<std::string> taken;  // every name printed, so synthesized ones never collide
  std::map<uint32_t, std::vector<std::string>> text_labels, data_labels;
  std::vector<std::pair<std::string, uint32_t>> constants;
  std::vector<std::string> globals, notes;
  for (const Symbol& s : p.symbols) {
    std::string why;
    if (!is_symbol_name(s.name))
      why = "not a name umbra-as reads as a symbol";
    else if (taken.count(s.name))
      why = "defined twice";
    else if (s.name == "_start" && s.section != Symbol::Section::Text)
      why = "umbra-as takes _start as the entry point, so it must be a text label";
    else if (s.name == "_start" && s.value != p.entry && in_text(p.entry))
      why = "the entry point is " + hex8(p.entry) + ", and umbra-as takes _start as the entry point";
    else if (s.section == Symbol::Section::Text && !in_text(s.value))
      why = "a text symbol outside the text";
    else if (s.section == Symbol::Section::Data && (s.value < p.data_base || s.value > data_end))
      why = "a data symbol outside the data";
    if (!why.empty()) {
      notes.push_back("symbol '" + as::escape_text(s.name) + "' = " + hex8(s.value) + " left out: " + why);
      continue;
    }
    switch (s.section) {
      case Symbol::Section::Text: text_labels[s.value].push_back(s.name); break;
      case Symbol::Section::Data: data_labels[s.value].push_back(s.name); break;
      case Symbol::Section::Abs: constants.emplace_back(s.name, s.value); break;
    }
    if (s.global) globals.push_back(s.name);
    taken.insert(s.name);
  }

  // umbra-as takes the entry point from _start, else the start of the text.
  const auto start = std::find_if(p.symbols.begin(), p.symbols.end(),
                                  [&](const Symbol& s) { return s.name == "_start" && taken.count(s.name); });
  if (start == p.symbols.end()) {
    if (p.entry != p.text_base) {
      if (in_text(p.entry) && !taken.count("_start")) {
        text_labels[p.entry].push_back("_start");
        taken.insert("_start");
      } else {
        notes.push_back("entry point " + hex8(p.entry) +
                        " is not in the text; umbra-as will use the text start");
      }
    }
  } else if (start->value != p.entry) {
    notes.push_back("entry point " + hex8(p.entry) + " is not _start; umbra-as will use _start");
  }

  // A label for every branch target inside the text that no symbol names.
  for (size_t i = 0; i < p.text.size(); ++i) {
    const auto d = isa::decode(p.text[i]);
    if (!d || !detail::has_pcrel_operand(*d->info)) continue;
    const uint32_t t = d->target(p.text_base + uint32_t(4 * i));
    if (!in_text(t) || text_labels.count(t)) continue;
    char b[24];
    std::snprintf(b, sizeof b, "L_%x", t);
    std::string name = b;
    while (taken.count(name)) name += '_';
    taken.insert(name);
    text_labels[t].push_back(name);
  }

  std::string out = "# umbra-dis";
  if (!opt.source.empty()) out += ": " + opt.source;
  out += "\n";
  if (p.text_base != 0)
    out += "# the text was at " + hex8(p.text_base) +
           "; umbra-as places it at 0, and every branch is relative, so the words are the same\n";
  if (!p.data.empty() && p.data_base != Program::kDefaultDataBase)
    out += "# the data was at " + hex8(p.data_base) + ", not umbra-as's default " +
           hex8(Program::kDefaultDataBase) + "; assemble with that data base to get the same addresses\n";
  for (const std::string& n : notes) out += "# " + n + "\n";
  for (const auto& [name, value] : constants)
    out += detail::kIndent + std::string(".equ ") + name + ", " + hex8(value) + "\n";
  for (const std::string& g : globals) out += detail::kIndent + std::string(".global ") + g + "\n";

  out += "\n        .text\n";
  for (size_t i = 0; i <= p.text.size(); ++i) {
    const uint32_t pc = p.text_base + uint32_t(4 * i);
    if (auto it = text_labels.find(pc); it != text_labels.end())
      for (const std::string& n : it->second) out += n + ":\n";
    if (i == p.text.size()) break;
    // Targets inside the text have labels by now; one outside it is written as a
    // distance from this instruction, which holds wherever the text is placed.
    const isa::LabelFn label_of = [&](uint32_t target) -> std::optional<std::string> {
      if (auto it = text_labels.find(target); it != text_labels.end()) return it->second.front();
      const int64_t delta = int64_t(int32_t(target - pc));
      return delta < 0 ? ". - " + std::to_string(-delta) : ". + " + std::to_string(delta);
    };
    std::string code = isa::disassemble(p.text[i], pc, label_of);
    std::string comment;
    // umbra-as places the text at 0 and takes only targets 0..0xffffffff, so a
    // branch whose target would wrap around the address space there is kept as data.
    if (const auto d = isa::decode(p.text[i]); d && detail::has_pcrel_operand(*d->info)) {
      const int64_t there = int64_t(4 * i) + int32_t(d->target(pc) - pc);
      if (there < 0 || there > int64_t(UINT32_MAX)) {
        char word[32];
        std::snprintf(word, sizeof word, ".word 0x%08x", p.text[i]);
        code = word;
        comment =
            isa::disassemble(p.text[i], pc) + " (its target wraps past address 0, which umbra-as refuses)";
      }
    }
    // An invalid word comes back as ".word 0x...  # invalid: reason"; the reason
    // becomes this line's comment so the address column can go in front of it.
    if (const size_t hash = code.find("  # "); hash != std::string::npos) {
      comment = code.substr(hash + 4);
      code.resize(hash);
    }
    if (const auto d = isa::decode(p.text[i]); d && !isa::in_groups(*d->info, opt.groups))
      comment += (comment.empty() ? "" : "; ") + std::string("not in configuration '") + opt.config +
                 "': extension group " + isa::kGroups[d->info->group].name;
    char enc[16];
    std::snprintf(enc, sizeof enc, "%08x", p.text[i]);
    detail::emit(out, code, comment, opt.addresses, pc, enc);
  }

  if (!p.data.empty() || !data_labels.empty()) {
    out += "\n        .data\n";
    const size_t n = p.data.size();
    // Offset of the first label after `off` (or the end), which no directive may cross.
    const auto next_label = [&](size_t off) {
      const auto it = data_labels.upper_bound(uint32_t(p.data_base + off));
      return it == data_labels.end() ? n : std::min(n, size_t(it->first - p.data_base));
    };
    size_t off = 0;
    while (true) {
      const uint32_t addr = uint32_t(p.data_base + off);
      if (auto it = data_labels.find(addr); it != data_labels.end())
        for (const std::string& name : it->second) out += name + ":\n";
      if (off >= n) break;
      const size_t limit = next_label(off);
      size_t zeros = 0;
      while (off + zeros < limit && p.data[off + zeros] == 0) ++zeros;
      char code[48], enc[16];
      if (zeros >= detail::kMinZeroRun) {
        std::snprintf(code, sizeof code, ".space %zu", zeros);
        detail::emit(out, code, "", opt.addresses, addr, "");
        off += zeros;
      } else if (off % 4 == 0 && off + 4 <= limit) {
        const uint32_t w = uint32_t(p.data[off]) | uint32_t(p.data[off + 1]) << 8 |
                           uint32_t(p.data[off + 2]) << 16 | uint32_t(p.data[off + 3]) << 24;
        std::snprintf(code, sizeof code, ".word 0x%08x", w);
        std::snprintf(enc, sizeof enc, "%08x", w);
        detail::emit(out, code, "", opt.addresses, addr, enc);
        off += 4;
      } else {
        std::snprintf(code, sizeof code, ".space 1, 0x%02x", p.data[off]);
        std::snprintf(enc, sizeof enc, "%02x", p.data[off]);
        detail::emit(out, code, "", opt.addresses, addr, enc);
        off += 1;
      }
    }
  }
  return out;
}

}  // namespace umbra::dis

#ifndef UMBRA_DIS_NO_MAIN
namespace {

// The same test read_file's Auto makes (it has already read the file by then).
bool is_elf_file(const std::string& path) {
  char magic[4] = {};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  const bool elf = std::fread(magic, 1, 4, f) == 4 && std::memcmp(magic,
                                                                  "\x7f"
                                                                  "ELF",
                                                                  4) == 0;
  std::fclose(f);
  return elf;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "umbra-dis: disassemble an Umbra program image (ELF, $readmemh hex or raw binary) into assembly that "
      "umbra-as turns back into the same bits"};
  std::string format = "auto", input, output, config;
  std::optional<uint32_t> base;
  bool addresses = false;
  app.add_option("-f,--format", format,
                 "input format; auto: ELF by its magic, hex by a .hex name (with NAME.data.hex as its data), "
                 "assembly by .s/.S/.asm, anything else raw binary")
      ->check(CLI::IsMember({"auto", "elf", "hex", "bin"}))
      ->capture_default_str();
  app.add_option("--base", base,
                 "address of the first text word of a hex or binary image (bin: default 0; hex: replaces its "
                 "@ address); a multiple of 4");
  app.add_flag("--addresses", addresses, "append each word's address and encoding as a comment");
  app.add_option("-o,--output", output, "write the listing here instead of standard output");
  app.add_option("--config", config,
                 "machine configuration (configs/*.yaml): mark each instruction outside its core.groups, "
                 "which that machine would fault on");
  app.add_option("input", input, "program image")->required();
  umbra::check_stdout_at_exit("umbra-dis");
  CLI11_PARSE(app, argc, argv);

  // -o must not be the image (nor a hex image's data file): checked before reading,
  // so that a mistyped command costs nothing.
  umbra::OutputFiles out;
  out.add_input(input, "the program image");
  out.add_input(input + ".data.hex", "the program image's data file");
  if (!config.empty()) out.add_input(config, "the configuration");
  umbra::dis::ListingOptions lopt{addresses, input};
  try {
    if (app.count("--base") && !base)
      throw umbra::ObjectError("--base: expected an address, a multiple of 4");
    if (!output.empty()) {
      umbra::OutputFiles names = out;
      names.add(output, "", "-o");
      names.check();
    }
    const umbra::obj::Format f = *umbra::obj::parse_format(format);
    if (base && *base % 4 != 0)
      throw umbra::ObjectError("--base " + umbra::hex8(*base) + " is not a multiple of 4");
    if (!config.empty()) {
      const umbra::Config c = umbra::load_config(config);
      lopt.groups = c.groups;
      lopt.config = c.name;
    }
    umbra::Program p = umbra::obj::read_file(input, f);
    if (base) {
      // An ELF records its own addresses; moving its text would silently misplace its symbols.
      if (f == umbra::obj::Format::Elf || (f == umbra::obj::Format::Auto && is_elf_file(input)))
        throw umbra::ObjectError(input + ": --base applies to hex and binary images, not to an ELF file");
      p.entry = p.entry - p.text_base + *base;
      p.text_base = *base;
    }
    const std::string text = umbra::dis::listing(p, lopt);
    if (output.empty()) {
      // A short fwrite sets the stream's error; check_stdout() reports it with its errno
      // (a large listing goes past stdio's buffer, so a final fflush alone succeeds).
      std::fwrite(text.data(), 1, text.size(), stdout);
      umbra::check_stdout();
    } else {
      out.add(output, text, "-o");
      out.commit();
    }
  } catch (const std::runtime_error& e) {  // ObjectError, OutputError
    std::fprintf(stderr, "umbra-dis: %s\n", umbra::as::escape_text(e.what()).c_str());
    return 1;
  }
  return 0;
}
#endif
