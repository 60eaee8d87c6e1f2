// libFuzzer target for the disassembler: the same bytes go to the ELF reader, the
// $readmemh hex readers (text and data image) and the raw-binary reader, and every
// image one of them accepts is disassembled by umbra-dis's own code (compiled in here
// without its main).  The readers may refuse input only by throwing an ObjectError
// that names the file; anything else they throw, and any crash, leak or hang, is a
// finding.  Because the listing promises to re-assemble to the same bits, small
// images are also put back through the assembler and compared.
#define UMBRA_DIS_NO_MAIN
#include <cstdlib>

#include "../tools/umbra_dis.cpp"
#include "umbra/asm.h"

namespace {

// Small enough that the re-assembly does not dominate the fuzzer's time.
constexpr size_t kRoundTripWords = 256;
constexpr size_t kListWords = size_t(1) << 18;

// umbra-as puts the text at 0 (branches are relative, so the words do not depend on
// it) and the data at Options::data_base, which must be word-aligned and leave the
// data below 2^32; an image outside that cannot be re-assembled in place.
void check_round_trip(const umbra::Program& p, const std::string& listing, const char* reader) {
  if (p.text.size() > kRoundTripWords || p.data.size() > 4 * kRoundTripWords) return;
  umbra::as::Options opts;
  if (!p.data.empty()) {
    if (p.data_base % 4 != 0 || uint64_t(p.data_base) + p.data.size() > (uint64_t(1) << 32)) return;
    opts.data_base = p.data_base;
  }
  const umbra::as::Result r = umbra::as::assemble_string(listing, "fuzz_dis.s", opts);
  if (!r.ok()) {
    std::fprintf(stderr, "fuzz_dis: listing of a %s image does not assemble:\n%s\n--- listing ---\n%s",
                 reader, r.errors.front().render().c_str(), listing.c_str());
    std::abort();
  }
  const umbra::Program& q = r.program;
  const char* wrong = nullptr;
  if (q.text != p.text)
    wrong = "text";
  else if (q.data != p.data)
    wrong = "data";
  else if (p.entry >= p.text_base && p.entry - p.text_base <= 4 * p.text.size() &&
           (p.entry - p.text_base) % 4 == 0 && q.entry != p.entry - p.text_base)
    wrong = "entry point";
  if (wrong) {
    std::fprintf(stderr,
                 "fuzz_dis: listing of a %s image re-assembles to a different %s\n--- listing ---\n%s",
                 reader, wrong, listing.c_str());
    std::abort();
  }
}

enum class Reader { Elf, HexText, HexData, Bin };

void try_reader(const std::vector<uint8_t>& bytes, Reader which, const char* reader) {
  const std::string name = "fuzz.input";
  umbra::Program p;
  try {
    switch (which) {
      case Reader::Elf: p = umbra::obj::read_elf(bytes, name); break;
      case Reader::HexText:
        p = umbra::obj::read_hex_text(std::string(bytes.begin(), bytes.end()), name);
        break;
      case Reader::HexData:
        umbra::obj::read_hex_data(p, std::string(bytes.begin(), bytes.end()), name);
        break;
      case Reader::Bin: p = umbra::obj::read_bin_text(bytes, name); break;
    }
  } catch (const umbra::ObjectError& e) {
    if (!std::strstr(e.what(), name.c_str())) {
      std::fprintf(stderr, "fuzz_dis: %s reader's error does not name the file: %s\n", reader, e.what());
      std::abort();
    }
    return;
  }
  // The readers accept images up to 64 MiB; listing one that size takes seconds and a
  // gigabyte, which says nothing new about odd content, so big images stop here.
  if (p.text.size() + p.data.size() / 4 > kListWords) return;
  // The address column is only comments, so either listing must re-assemble; which
  // one is tried depends on the input, so both paths are fuzzed at the cost of one.
  const std::string text = umbra::dis::listing(p, {!bytes.empty() && (bytes.back() & 1), name});
  check_round_trip(p, text, reader);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  try_reader(bytes, Reader::Elf, "ELF");
  try_reader(bytes, Reader::HexText, "hex text");
  try_reader(bytes, Reader::HexData, "hex data");
  try_reader(bytes, Reader::Bin, "bin");
  return 0;
}
