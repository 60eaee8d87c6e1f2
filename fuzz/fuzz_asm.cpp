// libFuzzer target for the assembler: arbitrary bytes as assembly source.  What a user
// relies on is that umbra-as never crashes, hangs or leaks on any input, and that a
// failed assembly always comes with diagnostics, each with a message and a position.  A
// successful assembly is pushed once more through the ELF writer and reader, because
// every other tool loads programs that way and the image must survive it unchanged.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "umbra/asm.h"
#include "umbra/program.h"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_asm: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  umbra::as::Options opts;
  // Keep .include inside a directory the fuzzer cannot fill with huge files.
  opts.include_dirs = {};
  const umbra::as::Result r = umbra::as::assemble_string(source, "fuzz.s", opts);
  if (!r.ok()) {
    bool error = false;
    for (const umbra::as::Diagnostic& d : r.errors) {
      error |= !d.note;
      if (d.message.empty()) fail("diagnostic without a message");
      if (d.file.empty()) fail("diagnostic that names no file");
      // line 0 is a diagnostic about the whole file (an error cap note, a bad option).
      if (d.line < 0 || d.col < 0 || (d.line > 0 && d.col < 1)) fail("diagnostic with a bad line or column");
      (void)d.render();
    }
    if (!error) fail("failed assembly with only notes, no error");
    return 0;
  }
  const umbra::Program& p = r.program;
  umbra::Program back;
  try {
    back = umbra::obj::read_elf(umbra::obj::write_elf(p), "fuzz.elf");
  } catch (const umbra::ObjectError& e) {
    std::fprintf(stderr, "fuzz_asm: ELF written from an assembled program does not read back: %s\n",
                 e.what());
    std::abort();
  }
  if (back.text != p.text || back.text_base != p.text_base) fail("ELF round trip changed the text");
  if (back.data != p.data || (!p.data.empty() && back.data_base != p.data_base))
    fail("ELF round trip changed the data");
  if (back.entry != p.entry) fail("ELF round trip changed the entry point");
  return 0;
}
