// The object formats: what the simulators and umbra-dis load must be exactly what
// umbra-as produced (round trips through ELF, hex and bin), the ELF must satisfy the
// standard tools, and the readers must turn every malformed file into an ObjectError
// naming the file (never a crash, never a silently wrong program).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "umbra/asm.h"
#include "umbra/program.h"

namespace {

using umbra::ObjectError;
using umbra::Program;
namespace obj = umbra::obj;
namespace fs = std::filesystem;

const char* kSource =
    "        .global _start, table\n"
    "LIMIT = 100\n"
    "helper: addi r2, r2, 1\n"
    "        ret\n"
    "_start: la r1, table\n"
    "        li r3, LIMIT\n"
    "loop:   call helper\n"
    "        bne r2, r3, loop\n"
    "        stw r2, 8(r1)\n"
    "        exit\n"
    "        .data\n"
    "table:  .word 1, 2, 3\n"
    "bytes:  .space 3, 0x7f\n";  // a size that is not a multiple of 4

Program sample() {
  auto r = umbra::as::assemble_string(kSource, "sample.s");
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].render());
  return r.program;
}

void expect_same(const Program& a, const Program& b, bool symbols = true) {
  EXPECT_EQ(a.text_base, b.text_base);
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.data_base, b.data_base);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(a.entry, b.entry);
  if (!symbols) return;
  ASSERT_EQ(a.symbols.size(), b.symbols.size());
  for (size_t i = 0; i < a.symbols.size(); ++i) {
    EXPECT_EQ(a.symbols[i].name, b.symbols[i].name);
    EXPECT_EQ(a.symbols[i].value, b.symbols[i].value) << a.symbols[i].name;
    EXPECT_EQ(a.symbols[i].section, b.symbols[i].section) << a.symbols[i].name;
    EXPECT_EQ(a.symbols[i].global, b.symbols[i].global) << a.symbols[i].name;
  }
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("umbra_obj_test_" + std::to_string(::getpid()) + "_" + name)).string();
}

void write(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
void write(const std::string& path, const std::string& s) {
  write(path, std::vector<uint8_t>(s.begin(), s.end()));
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(ObjElf, RoundTripEqualsProgram) {
  const Program p = sample();
  ASSERT_EQ(p.entry, 8u);
  ASSERT_EQ(p.data.size(), 15u);
  expect_same(obj::read_elf(obj::write_elf(p), "rt.elf"), p);
  EXPECT_EQ(p.symbols.back().name, "table");  // globals last, as in the ELF
  // An empty program is still a valid file.
  expect_same(obj::read_elf(obj::write_elf(Program{}), "empty.elf"), Program{});
}

// The ELF is checked by the standard tools: no warning on stderr, exit 0.  binutils
// is a build requirement of this project (CI installs it), so its absence fails.
TEST(ObjElf, ReadelfAndObjdumpAcceptIt) {
  const std::string elf = temp_path("tools.elf"), err = temp_path("tools.err"), out = temp_path("tools.out");
  // The full sample, a program without data (one segment), and an empty program.
  for (const char* src : {kSource, "_start: nop\n", ""}) {
    const auto r = umbra::as::assemble_string(src, "tools.s");
    ASSERT_TRUE(r.ok());
    write(elf, obj::write_elf(r.program));
    for (const std::string tool : {"readelf -a -W", "objdump -x"}) {
      const std::string cmd = tool + " " + elf + " >" + out + " 2>" + err;
      const int rc = std::system(cmd.c_str());
      EXPECT_EQ(rc, 0) << cmd;
      EXPECT_EQ(slurp(err), "") << cmd << " on:\n" << src;
      EXPECT_NE(slurp(out).find(".text"), std::string::npos) << cmd;
      if (*src) EXPECT_NE(slurp(out).find("_start"), std::string::npos) << cmd;
    }
  }
  fs::remove(elf), fs::remove(err), fs::remove(out);
}

void expect_rejected(const std::vector<uint8_t>& b, const std::string& what) {
  try {
    obj::read_elf(b, "bad.elf");
    ADD_FAILURE() << "accepted: " << what;
  } catch (const ObjectError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("bad.elf: not a valid Umbra ELF file: ", 0), 0u) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

TEST(ObjElf, SpecificFaultsAreNamed) {
  const std::vector<uint8_t> good = obj::write_elf(sample());
  auto patched = [&](size_t at, std::vector<uint8_t> bytes) {
    auto b = good;
    for (size_t i = 0; i < bytes.size(); ++i) b[at + i] = bytes[i];
    return b;
  };
  expect_rejected({}, "shorter than an ELF header");
  expect_rejected(patched(0, {'x'}), "no ELF magic number");
  expect_rejected(patched(4, {2}), "not a 32-bit ELF file");
  expect_rejected(patched(5, {2}), "not a little-endian ELF file");
  expect_rejected(patched(16, {1, 0}), "not an executable");
  expect_rejected(patched(18, {3, 0}), "e_machine 3 is not Umbra");
  expect_rejected(patched(32, {0xf0, 0xff, 0xff, 0x7f}),
                  "section header table runs past the end of the file");
  expect_rejected(patched(50, {9, 0}), "section name table index 9 out of range");
  expect_rejected(patched(24, {2, 0, 0, 0}), "entry point 2 is not a word address inside .text");
  expect_rejected(std::vector<uint8_t>(good.begin(), good.begin() + 200), "runs past the end of the file");
  // .data turned into NOBITS of 2 GiB: costs no file bytes, must not be allocated.
  const size_t data_shdr = good[32] | good[33] << 8 | good[34] << 16 | size_t(good[35]) << 24;
  expect_rejected(
      patched(data_shdr + 2 * 40 + 4, {8, 0, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x80}),
      ".data (NOBITS) of 2147483648 bytes is larger than 64 MiB");
}

// Every truncation and a few thousand random corruptions: each is either read (a
// corruption may hit bytes nobody reads) or rejected with an ObjectError.  Anything
// else (a crash, another exception type) fails; ASan builds make this sharper.
TEST(ObjElf, CorruptFilesNeverCrash) {
  const std::vector<uint8_t> good = obj::write_elf(sample());
  for (size_t n = 0; n < good.size(); ++n) {
    try {
      obj::read_elf(std::vector<uint8_t>(good.begin(), good.begin() + long(n)), "cut.elf");
      // Only a cut inside the trailing section headers could read, and those are last.
      ADD_FAILURE() << "a file cut to " << n << " bytes was accepted";
    } catch (const ObjectError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("cut.elf: ", 0), 0u);
    }
  }
  std::mt19937 rng(12345);
  for (int i = 0; i < 5000; ++i) {
    auto b = good;
    const int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = uint8_t(rng());
    try {
      const Program p = obj::read_elf(b, "fuzz.elf");
      EXPECT_EQ(p.entry % 4, 0u);
    } catch (const ObjectError&) {
    }
  }
}

TEST(ObjHex, RoundTripTextAndData) {
  const Program p = sample();
  const std::string text = obj::write_hex_text(p), data = obj::write_hex_data(p);
  EXPECT_NE(text.find("@00000000\n"), std::string::npos);
  EXPECT_NE(data.find("@00004000\n"), std::string::npos);  // word index of 0x10000
  Program q = obj::read_hex_text(text, "t.hex");
  obj::read_hex_data(q, data, "t.hex.data.hex");
  EXPECT_EQ(q.text, p.text);
  EXPECT_EQ(q.data_base, p.data_base);
  // The data image is whole words: the 15 bytes come back padded with one zero.
  auto padded = p.data;
  padded.resize(16, 0);
  EXPECT_EQ(q.data, padded);
  EXPECT_EQ(q.entry, 0u);  // hex carries no entry point: the start of the text
}

TEST(ObjHex, ReaderAcceptsReadmemhSyntaxAndRejectsJunk) {
  const Program p =
      obj::read_hex_text("// c\n@2 /* block\n comment */ 0000_0001 ff\n\n@6 DEADBEEF\n", "x.hex");
  EXPECT_EQ(p.text_base, 8u);
  EXPECT_EQ(p.text, (std::vector<uint32_t>{1, 0xff, 0, 0, 0xdeadbeef}));
  const std::pair<const char*, const char*> bad[] = {
      {"00000001\n0000000g\n", "x.hex:2: error: 'g' is not a hex digit"},
      {"1 2\n100000000\n", "x.hex:2: error: value '100000000...' does not fit in 32 bits"},
      {"@4\n1\n2\n@5\n3\n", "x.hex:4: error: @5 goes back over words already given"},
      {"/* open\n", "x.hex:1: error: unterminated /* comment"},
      {"@\n", "x.hex:1: error: '@' must be followed by a hex word address"},
      {"1\n@ffffff0\n2\n", "x.hex:3: error: image larger than 2^24 words (64 MiB)"},
  };
  for (const auto& [text, msg] : bad) {
    try {
      obj::read_hex_text(text, "x.hex");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ObjectError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
  }
}

TEST(ObjBin, RoundTripAndBadLength) {
  const Program p = sample();
  const auto b = obj::write_bin_text(p);
  EXPECT_EQ(b.size(), 4 * p.text.size());
  EXPECT_EQ(b[0], uint8_t(p.text[0]));  // little-endian
  const Program q = obj::read_bin_text(b, "t.bin");
  EXPECT_EQ(q.text, p.text);
  EXPECT_TRUE(q.data.empty());
  try {
    obj::read_bin_text({1, 2, 3, 4, 5}, "odd.bin");
    ADD_FAILURE();
  } catch (const ObjectError& e) {
    EXPECT_EQ(std::string(e.what()),
              "odd.bin: error: raw binary is 5 bytes, not a whole number of 32-bit instructions");
  }
}

TEST(ObjReadFile, DetectsEveryFormat) {
  const Program p = sample();
  const std::string elf = temp_path("p.elf"), hex = temp_path("p.hex"), bin = temp_path("p.bin"),
                    src = temp_path("p.s");
  write(elf, obj::write_elf(p));
  write(hex, obj::write_hex_text(p));
  write(hex + ".data.hex", obj::write_hex_data(p));
  write(bin, obj::write_bin_text(p));
  write(src, kSource);
  expect_same(obj::read_file(elf), p);
  expect_same(obj::read_file(src), p);
  const Program h = obj::read_file(hex);
  EXPECT_EQ(h.text, p.text);
  EXPECT_EQ(h.data.size(), 16u);
  EXPECT_EQ(obj::read_file(bin).text, p.text);
  EXPECT_EQ(obj::read_file(elf, obj::Format::Bin).text.size(), fs::file_size(elf) / 4);  // forced format
  write(src, "bogus\n");
  try {
    obj::read_file(src);
    ADD_FAILURE();
  } catch (const ObjectError& e) {
    EXPECT_NE(std::string(e.what()).find(src + ":1:1: error: unknown mnemonic 'bogus'"), std::string::npos)
        << e.what();
  }
  try {
    obj::read_file(temp_path("missing.elf"));
    ADD_FAILURE();
  } catch (const ObjectError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
  EXPECT_EQ(obj::parse_format("hex"), obj::Format::Hex);
  EXPECT_EQ(obj::parse_format("coff"), std::nullopt);
  for (const auto& f : {elf, hex, hex + ".data.hex", bin, src}) fs::remove(f);
}

// read_image is read_file's reading of an image once the bytes are in memory (the
// fuzzer fuzz_load runs it instead of writing files): the same program, the same format
// detection and the same messages naming the path.
TEST(ObjReadFile, ReadImageIsReadFileWithoutTheFile) {
  const Program p = sample();
  const std::string elf = temp_path("q.elf"), hex = temp_path("q.hex"), bin = temp_path("q.bin");
  write(elf, obj::write_elf(p));
  write(hex, obj::write_hex_text(p));
  write(bin, obj::write_bin_text(p));
  const auto bytes = [](const std::string& f) {
    const std::string s = slurp(f);
    return std::vector<uint8_t>(s.begin(), s.end());
  };
  EXPECT_EQ(obj::detect_format(bytes(elf), bin, obj::Format::Auto), obj::Format::Elf);  // magic before name
  EXPECT_EQ(obj::detect_format(bytes(hex), hex, obj::Format::Auto), obj::Format::Hex);
  EXPECT_EQ(obj::detect_format(bytes(hex), bin, obj::Format::Auto), obj::Format::Bin);
  EXPECT_EQ(obj::detect_format(bytes(elf), elf, obj::Format::Bin), obj::Format::Bin);
  for (const std::string& f : {elf, hex, bin}) {
    SCOPED_TRACE(f);
    expect_same(obj::read_image(bytes(f), f), obj::read_file(f));
  }
  expect_same(obj::read_image(bytes(elf), elf, obj::Format::Bin), obj::read_file(elf, obj::Format::Bin));
  // A refusal says the same thing, naming the path given.
  const auto error = [](auto&& read) -> std::string {
    try {
      read();
    } catch (const ObjectError& e) {
      return e.what();
    }
    return "";
  };
  for (const std::string& text : {std::string("0000000g\n"), std::string("@1\n1\n@0\n2\n")}) {
    write(hex, text);
    const std::string from_file = error([&] { obj::read_file(hex); });
    EXPECT_NE(from_file.find(hex + ":"), std::string::npos) << from_file;
    EXPECT_EQ(error([&] { obj::read_image(bytes(hex), hex); }), from_file);
  }
  write(elf, std::string("\x7f"
                         "ELF truncated"));
  const std::string from_file = error([&] { obj::read_file(elf); });
  EXPECT_NE(from_file, "");
  EXPECT_EQ(error([&] { obj::read_image(bytes(elf), elf); }), from_file);
  EXPECT_THROW(obj::read_image(bytes(bin), bin, obj::Format::Asm), std::invalid_argument);
  for (const auto& f : {elf, hex, bin}) fs::remove(f);
}

}  // namespace
