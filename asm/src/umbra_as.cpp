// umbra-as: the command-line assembler.  All the work is in umbra_asm; this file
// only maps options onto as::Options, prints diagnostics, and writes the chosen
// object format.  Output files are written only when assembly succeeded, so a failed
// build never leaves a fresh-looking but stale image behind.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "umbra/asm.h"
#include "umbra/config.h"
#include "umbra/program.h"

namespace {

bool write_file(const std::string& path, const void* data, size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f.write(static_cast<const char*>(data), std::streamsize(size));
  if (f) f.close();
  if (!f) {
    std::cerr << "umbra-as: error: cannot write '" << path << "': " << std::strerror(errno) << "\n";
    return false;
  }
  return true;
}
bool write_file(const std::string& path, const std::string& s) {
  return write_file(path, s.data(), s.size());
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"umbra-as: assemble Umbra assembly into an ELF, $readmemh hex or raw binary image"};
  std::string input, output, format, listing, config;
  umbra::as::Options opts;
  unsigned registers = 0;
  app.add_option("input", input, "assembly source file")->required();
  app.add_option("-o,--output", output, "output file")->required();
  app.add_option("-f,--format", format,
                 "elf (default), hex ($readmemh; data goes to OUTPUT.data.hex) or bin (raw text words); "
                 "without -f, an output ending in .hex or .bin picks that format")
      ->check(CLI::IsMember({"elf", "hex", "bin"}));
  app.add_option("--listing", listing, "write a listing (address, words, source line) to this file");
  app.add_option("--config", config,
                 "machine configuration (configs/*.yaml): its core.registers is the register limit and its "
                 "memory.data_base the .data origin");
  app.add_option("--registers", registers, "register limit, overriding --config")->check(CLI::Range(1, 256));
  app.add_option("-I,--include-dir", opts.include_dirs,
                 ".include search directory (after the including file's own)");
  app.add_option("--max-errors", opts.max_errors, "report at most this many errors (0: all)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  if (!config.empty()) {
    try {
      const umbra::Config cfg = umbra::load_config(config);
      opts.registers = cfg.registers;
      opts.data_base = cfg.data_base;
    } catch (const std::exception& e) {
      std::cerr << e.what() << "\n";
      return 1;
    }
  }
  if (registers) opts.registers = registers;
  {
    std::error_code ec;
    if (std::filesystem::equivalent(input, output, ec)) {
      std::cerr << "umbra-as: error: the output '" << output << "' is the input file\n";
      return 1;
    }
  }
  if (format.empty()) format = ends_with(output, ".hex") ? "hex" : ends_with(output, ".bin") ? "bin" : "elf";
  opts.listing = !listing.empty();

  const umbra::as::Result r = umbra::as::assemble_file(input, opts);
  if (!r.ok()) {
    size_t errors = 0;
    for (const auto& d : r.errors) {
      std::cerr << d.render();
      errors += !d.note;
    }
    std::cerr << input << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", no output written\n";
    return 1;
  }
  const umbra::Program& p = r.program;
  try {
    if (format == "elf") {
      const auto b = umbra::obj::write_elf(p);
      if (!write_file(output, b.data(), b.size())) return 1;
    } else if (format == "hex") {
      if (!write_file(output, umbra::obj::write_hex_text(p))) return 1;
      const std::string data = output + ".data.hex";
      if (!p.data.empty()) {
        if (!write_file(data, umbra::obj::write_hex_data(p))) return 1;
      } else {
        // A data image from an earlier build would be picked up with this text.
        std::error_code ec;
        std::filesystem::remove(data, ec);
      }
    } else {
      if (!p.data.empty())
        std::cerr << "umbra-as: warning: " << p.data.size()
                  << " bytes of .data are not in a raw binary (use -f elf or -f hex)\n";
      if (p.entry != p.text_base)
        std::cerr << "umbra-as: warning: the entry point (_start) is not the start of .text; "
                     "a raw binary cannot record it\n";
      const auto b = umbra::obj::write_bin_text(p);
      if (!write_file(output, b.data(), b.size())) return 1;
    }
  } catch (const umbra::ObjectError& e) {
    std::cerr << "umbra-as: error: " << e.what() << "\n";
    return 1;
  }
  if (!listing.empty() && !write_file(listing, umbra::as::render_listing(p))) return 1;
  return 0;
}
