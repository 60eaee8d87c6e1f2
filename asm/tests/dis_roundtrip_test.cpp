// The round-trip guarantee: what the disassembler prints, the assembler turns back
// into the same bits.  Three layers are checked, each against the other tools rather
// than against hand-written encodings (which would restate isa.yaml):
//  - every instruction in the ISA tables with many random operand values valid for
//    its operand kinds: encode -> decode gives the operands back, and disassemble ->
//    assemble_string gives the word back;
//  - arbitrary 32-bit words: each either decodes and re-encodes to itself, or is
//    printed as `.word` data; a large sample goes through full re-assembly, once as
//    isa::disassemble lines and once through the umbra-dis and umbra-as binaries;
//  - whole programs (branches, labels, symbols, data) through ELF, hex and raw
//    binary: umbra-as -> umbra-dis -> umbra-as gives the same text, data and symbols.
// The tools are run as built (paths from the build, UMBRA_AS_EXE / UMBRA_DIS_EXE), so
// the command lines users type are what is tested.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "umbra/asm.h"
#include "umbra/isa.h"
#include "umbra/program.h"

namespace fs = std::filesystem;
using umbra::Program;
namespace isa = umbra::isa;

namespace {

// Branch offsets reach 2^23 words (32 MiB) back; lines assembled after this much
// padding have every target at a non-negative address, so isa::disassemble's absolute
// targets are valid umbra-as input whatever the offset.
constexpr uint32_t kHighPc = 0x2000000;

struct ToolRun {
  int status;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void spit(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}

void spit(const fs::path& p, const std::vector<uint8_t>& b) {
  spit(p, std::string(b.begin(), b.end()));
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class Tmp {
 public:
  Tmp() {
    const auto* t = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("umbra_dis_" + std::string(t->test_suite_name()) + "_" + t->name() +
                                        "_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  ~Tmp() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path operator/(const std::string& name) const { return dir_ / name; }

  // Runs a built tool with arguments, capturing its exit status and both streams.
  ToolRun run(const std::string& exe, const std::vector<std::string>& args) const {
    std::string cmd = quote(exe);
    for (const std::string& a : args) cmd += " " + quote(a);
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    cmd += " >" + quote(out.string()) + " 2>" + quote(err.string());
    const int rc = std::system(cmd.c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out), slurp(err)};
  }

 private:
  fs::path dir_;
};

ToolRun as(const Tmp& t, const std::vector<std::string>& args) {
  return t.run(UMBRA_AS_EXE, args);
}
ToolRun dis(const Tmp& t, const std::vector<std::string>& args) {
  return t.run(UMBRA_DIS_EXE, args);
}

std::vector<uint8_t> bytes_of(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

std::vector<uint8_t> words_to_bytes(const std::vector<uint32_t>& w) {
  std::vector<uint8_t> b;
  for (uint32_t x : w)
    for (int k = 0; k < 4; ++k) b.push_back(uint8_t(x >> (8 * k)));
  return b;
}

// A random value an operand of this kind accepts, in the sense of Decoded::operand.
int32_t random_operand(const isa::OperandInfo& op, std::mt19937& rng) {
  if (op.kind == isa::Kind::Sreg)
    return isa::kSpecialRegs[std::uniform_int_distribution<unsigned>(0, isa::kNumSpecialRegs - 1)(rng)]
        .number;
  const isa::Range r = isa::operand_range(op.kind);
  const int64_t scale = isa::kind_info(op.kind).scale;
  return int32_t(std::uniform_int_distribution<int64_t>(r.lo / scale, r.hi / scale)(rng) * scale);
}

// Operand sets for one instruction: every operand at its low end, its high end, and
// 0 where that is valid, then `n` random sets.
std::vector<std::pair<std::vector<int32_t>, uint8_t>> operand_sets(const isa::InstrInfo& in, int n,
                                                                   std::mt19937& rng) {
  std::vector<std::pair<std::vector<int32_t>, uint8_t>> sets;
  for (int edge = 0; edge < 3; ++edge) {
    std::vector<int32_t> v;
    for (unsigned k = 0; k < in.num_operands; ++k) {
      const isa::OperandInfo& op = in.operands[k];
      const isa::Range r = isa::operand_range(op.kind);
      if (op.kind == isa::Kind::Sreg)
        v.push_back(isa::kSpecialRegs[edge == 0 ? 0 : isa::kNumSpecialRegs - 1].number);
      else
        v.push_back(int32_t(edge == 0 ? r.lo : edge == 1 ? r.hi : std::clamp<int64_t>(0, r.lo, r.hi)));
    }
    sets.push_back({v, uint8_t(edge == 1 ? 255 : 0)});
  }
  for (int i = 0; i < n; ++i) {
    std::vector<int32_t> v;
    for (unsigned k = 0; k < in.num_operands; ++k) v.push_back(random_operand(in.operands[k], rng));
    sets.push_back({v, uint8_t(rng())});
  }
  return sets;
}

// Assembles lines placed from kHighPc on; returns the words there or fails the test
// with the first diagnostics.
std::vector<uint32_t> assemble_high(const std::vector<std::string>& lines) {
  std::string src = "        .text\n        .space " + std::to_string(kHighPc) + "\n";
  for (const std::string& l : lines) src += "        " + l + "\n";
  const umbra::as::Result r = umbra::as::assemble_string(src, "roundtrip.s");
  std::string diags;
  for (size_t i = 0; i < r.errors.size() && i < 5; ++i) diags += r.errors[i].render();
  EXPECT_TRUE(r.ok()) << diags;
  if (!r.ok() || r.program.text.size() < kHighPc / 4) return {};
  return std::vector<uint32_t>(r.program.text.begin() + kHighPc / 4, r.program.text.end());
}

TEST(DisRoundTrip, EveryInstructionWithRandomOperandsReassembles) {
  std::mt19937 rng(20240601);
  std::vector<uint32_t> words;
  std::vector<std::string> lines;
  for (const isa::InstrInfo& in : isa::kInstrs) {
    for (const auto& [values, base] : operand_sets(in, 300, rng)) {
      std::string why;
      const auto w = isa::encode(in, values.data(), base, &why);
      ASSERT_TRUE(w) << in.name << ": " << why;
      const auto d = isa::decode(*w, &why);
      ASSERT_TRUE(d) << in.name << " encodes to a word decode refuses: " << why;
      ASSERT_EQ(d->info, &in) << in.name;
      for (unsigned k = 0; k < in.num_operands; ++k)
        ASSERT_EQ(d->operand(int(k)), values[k]) << in.name << " operand " << k;
      const uint32_t pc = kHighPc + uint32_t(4 * words.size());
      lines.push_back(isa::disassemble(*w, pc));
      ASSERT_EQ(lines.back().rfind(in.name, 0), 0u) << lines.back();
      words.push_back(*w);
    }
  }
  const std::vector<uint32_t> back = assemble_high(lines);
  ASSERT_EQ(back.size(), words.size());
  for (size_t i = 0; i < words.size(); ++i)
    ASSERT_EQ(back[i], words[i]) << "line '" << lines[i] << "' re-assembles to " << std::hex << back[i]
                                 << ", not " << words[i];
}

// Decodes, re-encodes and prints a word; returns whether it is an instruction.
bool check_word(uint32_t w, uint32_t pc) {
  std::string why;
  const auto d = isa::decode(w, &why);
  const std::string text = isa::disassemble(w, pc);
  char data[64];
  std::snprintf(data, sizeof data, ".word 0x%08x  # invalid: ", w);
  if (!d) {
    EXPECT_FALSE(why.empty()) << std::hex << w;
    EXPECT_EQ(text, data + why) << std::hex << w;
    return false;
  }
  int32_t values[3] = {};
  for (unsigned k = 0; k < d->info->num_operands; ++k) values[k] = d->operand(int(k));
  const auto again = isa::encode(*d->info, values, d->mem_base(), &why);
  EXPECT_TRUE(again && *again == w) << std::hex << w << " decodes as " << text << " but re-encodes to "
                                    << (again ? *again : 0) << " " << why;
  EXPECT_EQ(text.rfind(d->info->name, 0), 0u) << text;
  return true;
}

TEST(DisRoundTrip, MillionRandomWordsDecodeAndReencodeOrPrintAsData) {
  std::mt19937 rng(7);
  size_t valid = 0, invalid = 0;
  for (int i = 0; i < 1'000'000; ++i) (check_word(uint32_t(rng()), uint32_t(4 * i)) ? valid : invalid)++;
  // Every opcode with all-zero and all-one operand bits: the extremes random words rarely hit.
  for (uint32_t op = 0; op < 256; ++op)
    for (uint32_t low : {0x000000u, 0xffffffu, 0x00ff00u, 0x0000ffu, 0xff0000u, 0x00001fu, 0x000003u})
      (check_word(op << 24 | low, 0) ? valid : invalid)++;
  // Both outcomes must really have been exercised.
  EXPECT_GT(valid, 100'000u);
  EXPECT_GT(invalid, 100'000u);
}

TEST(DisRoundTrip, RandomWordsReassembleFromDisassembleLines) {
  std::mt19937 rng(11);
  std::vector<uint32_t> words(50'000);
  for (uint32_t& w : words) w = uint32_t(rng());
  std::vector<std::string> lines;
  for (size_t i = 0; i < words.size(); ++i)
    lines.push_back(isa::disassemble(words[i], kHighPc + uint32_t(4 * i)));
  const std::vector<uint32_t> back = assemble_high(lines);
  ASSERT_EQ(back.size(), words.size());
  for (size_t i = 0; i < words.size(); ++i) ASSERT_EQ(back[i], words[i]) << "line '" << lines[i] << "'";
}

// Raw binary of `words` -> umbra-dis (extra args) -> umbra-as -f bin: the same bytes.
void bin_round_trip(const Tmp& t, const std::vector<uint32_t>& words,
                    const std::vector<std::string>& dis_args) {
  spit(t / "in.bin", words_to_bytes(words));
  std::vector<std::string> args = dis_args;
  args.insert(args.end(), {(t / "in.bin").string(), "-o", (t / "out.s").string()});
  const ToolRun d = dis(t, args);
  ASSERT_EQ(d.status, 0) << d.err;
  const ToolRun a = as(t, {(t / "out.s").string(), "-f", "bin", "-o", (t / "out.bin").string()});
  ASSERT_EQ(a.status, 0) << a.err.substr(0, 2000);
  const std::string in = slurp(t / "in.bin"), out = slurp(t / "out.bin");
  ASSERT_EQ(out.size(), in.size());
  for (size_t i = 0; i < in.size(); i += 4)
    ASSERT_EQ(out.substr(i, 4), in.substr(i, 4)) << "word " << i / 4 << " at byte " << i;
}

TEST(DisRoundTrip, RandomWordsThroughUmbraDisAndUmbraAs) {
  Tmp t;
  std::mt19937 rng(12);
  std::vector<uint32_t> words(50'000);
  for (uint32_t& w : words) w = uint32_t(rng());
  bin_round_trip(t, words, {});
}

// Valid branches of every branch instruction, to targets inside the image (labels),
// after it (relative to `.`) and before address 0 (kept as .word), at a non-zero base.
TEST(DisRoundTrip, BranchesGetLabelsInsideAndRelativeTargetsOutside) {
  Tmp t;
  std::mt19937 rng(3);
  std::vector<uint32_t> words;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const isa::InstrInfo* in = nullptr;
    while (!in) {
      const isa::InstrInfo& c = isa::kInstrs[rng() % isa::kNumOps];
      for (unsigned k = 0; k < c.num_operands; ++k)
        if (isa::kind_info(c.operands[k].kind).pcrel) in = &c;
    }
    std::vector<int32_t> v;
    for (unsigned k = 0; k < in->num_operands; ++k) {
      v.push_back(random_operand(in->operands[k], rng));
      const isa::Range r = isa::operand_range(in->operands[k].kind);
      // Half of them land inside the image, so they need labels.
      if (isa::kind_info(in->operands[k].kind).pcrel && rng() % 2)
        v.back() = int32_t(std::clamp<int64_t>(int64_t(rng() % n) - i, r.lo, r.hi));
    }
    words.push_back(*isa::encode(*in, v.data(), 0));
  }
  bin_round_trip(t, words, {"--base", "0x400"});
  const std::string listing = slurp(t / "out.s");
  EXPECT_NE(listing.find("\nL_4"), std::string::npos) << "no synthesized label";
  EXPECT_NE(listing.find(". + "), std::string::npos) << "no target after the image";
  EXPECT_NE(listing.find("wraps past address 0"), std::string::npos) << "no target before address 0";
}

// A program with every branch kind, symbols of every section, .global, an entry point
// that is not the first word, and data with labels that split words.
const char* const kProgram = R"(# round-trip sample
        .equ    COUNT, 12
        LIMIT = -3
        .global _start, table
        .text
helper: addi    r3, r3, 1
        ret
_start: li      r1, COUNT
        la      r2, table
back:   ldw     r4, 0(r2)
        beq     r4, r0, fwd
        bne     r4, r1, back
        blt     r4, r1, fwd
        bge     r4, r1, back
        bltu    r4, r1, fwd
        bgeu    r4, r1, back
        bz      r4, fwd
        bnz     r4, back
        call    helper
        jal     r9, fwd
        jalr    r0, r9
        j       back
        .word   0x00ffffff
        rdsr    r5, domh
        dinv    -512(r2)
fwd:    stw     r4, 508(r2)
        exit
end:
        .data
table:  .word   1, 2, 0xdeadbeef
bytes:  .space  3, 0x41
odd:    .space  2, 0x7f
        .align  4
zeros:  .space  40
mid:    .word   LIMIT
last:
)";

void expect_same_program(const Program& a, const Program& b) {
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.text_base, b.text_base);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(a.data_base, b.data_base);
  EXPECT_EQ(a.entry, b.entry);
  auto key = [](const Program& p) {
    std::vector<std::tuple<std::string, uint32_t, int, bool>> s;
    for (const umbra::Symbol& x : p.symbols) s.emplace_back(x.name, x.value, int(x.section), x.global);
    std::sort(s.begin(), s.end());
    return s;
  };
  EXPECT_EQ(key(a), key(b));
}

Program read_elf_file(const fs::path& p) {
  return umbra::obj::read_elf(bytes_of(slurp(p)), p.string());
}

// source -> umbra-as -> ELF -> umbra-dis -> umbra-as -> ELF: the same program, and
// disassembling the second ELF prints the same listing (a fixed point).
void elf_round_trip(const Tmp& t, const std::string& source, const std::string& name) {
  spit(t / (name + ".s"), source);
  ToolRun a = as(t, {(t / (name + ".s")).string(), "-o", (t / (name + ".elf")).string()});
  ASSERT_EQ(a.status, 0) << a.err;
  ToolRun d = dis(t, {(t / (name + ".elf")).string(), "-o", (t / (name + ".dis.s")).string()});
  ASSERT_EQ(d.status, 0) << d.err;
  a = as(t, {(t / (name + ".dis.s")).string(), "-o", (t / (name + ".2.elf")).string()});
  ASSERT_EQ(a.status, 0) << a.err << slurp(t / (name + ".dis.s"));
  const Program first = read_elf_file(t / (name + ".elf")), second = read_elf_file(t / (name + ".2.elf"));
  {
    SCOPED_TRACE(name);
    expect_same_program(first, second);
  }
  d = dis(t, {(t / (name + ".2.elf")).string(), "-o", (t / (name + ".2.dis.s")).string()});
  ASSERT_EQ(d.status, 0) << d.err;
  const std::string l1 = slurp(t / (name + ".dis.s")), l2 = slurp(t / (name + ".2.dis.s"));
  // Only the header names the input file.
  EXPECT_EQ(l1.substr(l1.find('\n')), l2.substr(l2.find('\n'))) << name;
}

TEST(DisRoundTrip, WholeProgramThroughElf) {
  Tmp t;
  elf_round_trip(t, kProgram, "sample");
  const std::string listing = slurp(t / "sample.dis.s");
  // The ELF's own names are used for branch targets, not synthesized ones.
  EXPECT_NE(listing.find("beq r4, r0, fwd"), std::string::npos) << listing;
  EXPECT_NE(listing.find("j back"), std::string::npos) << listing;
  EXPECT_NE(listing.find("jal r31, helper"), std::string::npos) << listing;
  EXPECT_EQ(listing.find("L_"), std::string::npos) << listing;
  const size_t bad = listing.find(".word 0x00ffffff ");
  ASSERT_NE(bad, std::string::npos) << listing;
  EXPECT_NE(listing.find("# invalid: opcode 0x0", bad), std::string::npos) << listing;
}

TEST(DisRoundTrip, EveryExampleThroughElf) {
  Tmp t;
  // The files the examples .include go beside their copies.
  for (const auto& e : fs::directory_iterator("examples"))
    if (e.path().extension() == ".inc") spit(t / e.path().filename(), slurp(e.path()));
  int n = 0;
  for (const auto& e : fs::directory_iterator("examples")) {
    if (e.path().extension() != ".s") continue;
    ++n;
    elf_round_trip(t, slurp(e.path()), e.path().stem().string());
  }
  EXPECT_GT(n, 0) << "no examples/*.s found (the test runs from the source tree)";
}

TEST(DisRoundTrip, AddressColumnIsOnlyComments) {
  Tmp t;
  spit(t / "p.s", kProgram);
  ASSERT_EQ(as(t, {(t / "p.s").string(), "-o", (t / "p.elf").string()}).status, 0);
  ToolRun d = dis(t, {"--addresses", (t / "p.elf").string(), "-o", (t / "p.dis.s").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  const std::string listing = slurp(t / "p.dis.s");
  const Program p = read_elf_file(t / "p.elf");
  // Each word's address and encoding appears on its line.
  for (size_t i = 0; i < p.text.size(); ++i) {
    char col[40];
    std::snprintf(col, sizeof col, "# 0x%08x  %08x", uint32_t(4 * i), p.text[i]);
    EXPECT_NE(listing.find(col), std::string::npos) << col;
  }
  ASSERT_EQ(as(t, {(t / "p.dis.s").string(), "-o", (t / "p2.elf").string()}).status, 0);
  expect_same_program(p, read_elf_file(t / "p2.elf"));
}

TEST(DisRoundTrip, HexImageWithDataAndNonZeroBase) {
  Tmp t;
  spit(t / "p.s", kProgram);
  ASSERT_EQ(as(t, {(t / "p.s").string(), "-f", "hex", "-o", (t / "p.hex").string()}).status, 0);
  ASSERT_TRUE(fs::exists(t / "p.hex.data.hex"));
  ToolRun d = dis(t, {(t / "p.hex").string(), "-o", (t / "p.dis.s").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  ASSERT_EQ(as(t, {(t / "p.dis.s").string(), "-f", "hex", "-o", (t / "q.hex").string()}).status, 0);
  EXPECT_EQ(slurp(t / "q.hex"), slurp(t / "p.hex"));
  EXPECT_EQ(slurp(t / "q.hex.data.hex"), slurp(t / "p.hex.data.hex"));

  // The same text moved: the words stay the same, because every branch is relative.
  const Program p = umbra::obj::read_file((t / "p.hex").string());
  Program moved = p;
  moved.text_base = 0x1000;
  moved.data.clear();
  spit(t / "m.hex", umbra::obj::write_hex_text(moved));
  d = dis(t, {(t / "m.hex").string(), "-o", (t / "m.dis.s").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  ASSERT_EQ(as(t, {(t / "m.dis.s").string(), "-f", "bin", "-o", (t / "m.bin").string()}).status, 0);
  EXPECT_EQ(bytes_of(slurp(t / "m.bin")), words_to_bytes(p.text));
}

// An entry point that is not where the _start symbol says (found by fuzz_dis;
// fuzz/corpus/dis/elf-entry-not-start.elf): umbra-as takes _start as the entry, so the
// symbol is left out and _start labels the real entry.
TEST(DisRoundTrip, EntryElsewhereThanStartSymbolIsKept) {
  Tmp t;
  const umbra::as::Result r = umbra::as::assemble_string("_start: nop\nnop\nexit\n", "s.s");
  ASSERT_TRUE(r.ok());
  Program p = r.program;
  p.entry = 4;
  spit(t / "p.elf", umbra::obj::write_elf(p));
  ToolRun d = dis(t, {(t / "p.elf").string(), "-o", (t / "p.dis.s").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  const std::string listing = slurp(t / "p.dis.s");
  EXPECT_NE(listing.find("# symbol '_start' = 0x00000000 left out: the entry point is 0x00000004"),
            std::string::npos)
      << listing;
  ToolRun a = as(t, {(t / "p.dis.s").string(), "-o", (t / "q.elf").string()});
  ASSERT_EQ(a.status, 0) << a.err << listing;
  const Program q = read_elf_file(t / "q.elf");
  EXPECT_EQ(q.text, p.text);
  EXPECT_EQ(q.entry, 4u);
}

// A hand-built image: symbols umbra-as could not read back, an entry point with no
// _start, and a text symbol past the end.  The listing leaves the bad names out (and
// says so, escaped) but still re-assembles to the same words and entry point.
TEST(DisRoundTrip, UnusableSymbolsAreLeftOutAndEntryKept) {
  Tmp t;
  const umbra::as::Result r = umbra::as::assemble_string("nop\nl1: nop\nj l1\nexit\n", "s.s");
  ASSERT_TRUE(r.ok());
  Program p = r.program;
  p.entry = 8;
  p.symbols = {{"r7", 4, umbra::Symbol::Section::Text, false},
               {"two words", 0, umbra::Symbol::Section::Text, false},
               {"ok_name", 4, umbra::Symbol::Section::Text, false},
               {"ok_name", 8, umbra::Symbol::Section::Text, false},
               {"far", 0x1000, umbra::Symbol::Section::Text, false},
               // A line break and a control byte in a name (found by fuzz_dis): the
               // comment that names it must stay one line.
               {"loop\n\x9bnd", 4, umbra::Symbol::Section::Text, false}};
  spit(t / "p.elf", umbra::obj::write_elf(p));
  ToolRun d = dis(t, {(t / "p.elf").string(), "-o", (t / "p.dis.s").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  const std::string listing = slurp(t / "p.dis.s");
  for (const char* bad : {"'r7'", "'two words'", "'far'", "'loop\\x0a\\x9bnd'"})
    EXPECT_NE(listing.find(std::string("# symbol ") + bad), std::string::npos) << bad << "\n" << listing;
  EXPECT_NE(listing.find("j ok_name"), std::string::npos) << listing;
  ToolRun a = as(t, {(t / "p.dis.s").string(), "-o", (t / "q.elf").string()});
  ASSERT_EQ(a.status, 0) << a.err << listing;
  const Program q = read_elf_file(t / "q.elf");
  EXPECT_EQ(q.text, p.text);
  EXPECT_EQ(q.entry, p.entry);
}

// umbra-dis --config marks the words a configuration's core would fault on (an
// absent group's), keeping the instruction so the listing still reassembles.
TEST(DisCli, ConfigMarksInstructionsOutsideItsGroups) {
  Tmp t;
  spit(t / "p.s", "_start: fadd r1, r2, r3\n        add r1, r2, r3\n        red.add r1, r2\n        exit\n");
  spit(t / "lean.yaml", "name: lean\ncore:\n  groups: [base, mulh]\n");
  ASSERT_EQ(as(t, {(t / "p.s").string(), "-o", (t / "p.elf").string()}).status, 0);
  const ToolRun d = dis(t, {"--config", (t / "lean.yaml").string(), (t / "p.elf").string()});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("fadd r1, r2, r3"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("# not in configuration 'lean': extension group fp32\n"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("# not in configuration 'lean': extension group atomic\n"), std::string::npos)
      << d.out;
  EXPECT_NE(d.out.find("\n        add r1, r2, r3\n"), std::string::npos)
      << "a base instruction is not marked: " << d.out;
  // Without --config nothing is marked.
  EXPECT_EQ(dis(t, {(t / "p.elf").string()}).out.find("not in configuration"), std::string::npos);
  // A bad configuration is named.
  spit(t / "bad.yaml", "core:\n  groups: [fp32]\n");
  const ToolRun b = dis(t, {"--config", (t / "bad.yaml").string(), (t / "p.elf").string()});
  EXPECT_NE(b.status, 0);
  EXPECT_NE(b.err.find("bad.yaml:2: error: 'core.groups' lacks group 'base'"), std::string::npos) << b.err;
}

TEST(DisCli, MissingFileIsNamedAndFails) {
  Tmp t;
  const std::string path = (t / "no-such-file.elf").string();
  const ToolRun d = dis(t, {path});
  EXPECT_NE(d.status, 0);
  EXPECT_NE(d.err.find(path), std::string::npos) << d.err;
  EXPECT_TRUE(d.out.empty());
}

TEST(DisCli, CorruptElfIsNamedAndFails) {
  Tmp t;
  spit(t / "p.s", kProgram);
  ASSERT_EQ(as(t, {(t / "p.s").string(), "-o", (t / "p.elf").string()}).status, 0);
  const std::string elf = slurp(t / "p.elf");
  // Cut short, and with the section header table pointing past the end.
  std::string cut = elf.substr(0, 60), bad = elf;
  bad[0x20] = bad[0x21] = bad[0x22] = char(0xff);  // e_shoff (ELF32)
  spit(t / "cut.elf", cut);
  spit(t / "bad.elf", bad);
  for (const char* name : {"cut.elf", "bad.elf"}) {
    const std::string path = (t / name).string();
    const ToolRun d = dis(t, {path});
    EXPECT_NE(d.status, 0) << name;
    EXPECT_NE(d.err.find(path), std::string::npos) << d.err;
  }
}

TEST(DisCli, BadOptionsFail) {
  Tmp t;
  spit(t / "odd.bin", std::string("\x01\x00\x00", 3));
  ToolRun d = dis(t, {(t / "odd.bin").string()});
  EXPECT_NE(d.status, 0);
  EXPECT_NE(d.err.find("odd.bin"), std::string::npos) << d.err;

  spit(t / "p.bin", words_to_bytes({0x01000000}));
  d = dis(t, {"--base", "6", (t / "p.bin").string()});
  EXPECT_NE(d.status, 0);
  EXPECT_NE(d.err.find("multiple of 4"), std::string::npos) << d.err;

  d = dis(t, {"-f", "coff", (t / "p.bin").string()});
  EXPECT_NE(d.status, 0);

  spit(t / "p.s", kProgram);
  ASSERT_EQ(as(t, {(t / "p.s").string(), "-o", (t / "p.elf").string()}).status, 0);
  d = dis(t, {"--base", "0x100", (t / "p.elf").string()});
  EXPECT_NE(d.status, 0);
  EXPECT_NE(d.err.find("p.elf"), std::string::npos) << d.err;
}

}  // namespace
