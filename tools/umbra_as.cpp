// umbra-as: the command-line assembler.  All the work is in umbra_asm; this file
// only maps options onto as::Options, prints diagnostics, and writes the chosen
// object format.  The outputs of a run (the image, a hex image's data file, the
// listing) go through OutputFiles: all of them are written or none, none may be the
// source, and a failed run removes what an earlier run left under those names, so a
// failed build never leaves a fresh-looking but stale or partial image behind.
#include <CLI/CLI.hpp>
#include <iostream>

#include "umbra/asm.h"
#include "umbra/cli_numbers.h"
#include "umbra/config.h"
#include "umbra/output_file.h"
#include "umbra/output_files.h"
#include "umbra/program.h"

namespace {

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
                 "machine configuration (configs/*.yaml): its core.registers is the register limit, "
                 "memory.data_base the .data origin, and a program must fit its core.imem_words and "
                 "memory.bytes, and its instructions must be of its core.groups");
  app.add_option("--registers", registers, "register limit, overriding --config")->check(CLI::Range(1, 256));
  app.add_option("-I,--include-dir", opts.include_dirs,
                 ".include search directory (after the including file's own)");
  umbra::add_number(app, "--max-errors", opts.max_errors,
                    "report at most this many errors (0: all; default 20)", 0, UINT32_MAX);
  umbra::check_stdout_at_exit("umbra-as");  // its only stdout is CLI11's --help and usage
  CLI11_PARSE(app, argc, argv);

  if (!config.empty()) {
    try {
      opts.apply(umbra::load_config(config));
      opts.config += " (" + config + ")";
    } catch (const std::exception& e) {
      std::cerr << e.what() << "\n";
      return 1;
    }
  }
  if (registers) opts.registers = registers;
  if (format.empty()) format = ends_with(output, ".hex") ? "hex" : ends_with(output, ".bin") ? "bin" : "elf";
  opts.listing = !listing.empty();

  // Every file this run may write, named before assembling so that a bad name fails
  // at once and a failed assembly can clear what an earlier run left there.
  umbra::OutputFiles out;
  out.add_input(input, "the program");
  if (!config.empty()) out.add_input(config, "the configuration");
  const std::string data_hex = output + ".data.hex";
  const auto plan = [&](const umbra::Program* p) {
    umbra::OutputFiles o = out;
    const auto bytes = [](const std::vector<uint8_t>& b) { return std::string(b.begin(), b.end()); };
    if (format == "elf") {
      o.add(output, p ? bytes(umbra::obj::write_elf(*p)) : "", "-o");
    } else if (format == "hex") {
      o.add(output, p ? umbra::obj::write_hex_text(*p) : "", "-o");
      // A data image from an earlier build would be picked up with this text.
      if (!p || !p->data.empty())
        o.add(data_hex, p ? umbra::obj::write_hex_data(*p) : "", "the data image of -o");
      else
        o.remove_on_commit(data_hex);
    } else {
      o.add(output, p ? bytes(umbra::obj::write_bin_text(*p)) : "", "-o");
    }
    if (!listing.empty()) o.add(listing, p ? umbra::as::render_listing(*p) : "", "--listing");
    return o;
  };
  try {
    plan(nullptr).check();
  } catch (const umbra::OutputError& e) {
    std::cerr << "umbra-as: error: " << e.what() << "\n";
    return 1;
  }

  const umbra::as::Result r = umbra::as::assemble_file(input, opts);
  out.add_inputs(r.sources, "the program");  // .include files are inputs too
  const umbra::OutputFiles names = plan(nullptr);
  if (!r.ok()) {
    size_t errors = 0;
    for (const auto& d : r.errors) {
      std::cerr << d.render();
      errors += !d.note;
    }
    names.discard();
    std::cerr << input << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", no output written\n";
    return 1;
  }
  const umbra::Program& p = r.program;
  if (format == "bin") {
    if (!p.data.empty())
      std::cerr << "umbra-as: warning: " << p.data.size()
                << " bytes of .data are not in a raw binary (use -f elf or -f hex)\n";
    if (p.entry != p.text_base)
      std::cerr << "umbra-as: warning: the entry point (_start) is not the start of .text; "
                   "a raw binary cannot record it\n";
  }
  try {
    plan(&p).commit();
  } catch (const std::exception& e) {  // OutputError, or an ObjectError from a writer
    names.discard();
    std::cerr << "umbra-as: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
