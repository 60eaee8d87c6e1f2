// Tests of umbra-isagen as the checker of isa.yaml: each rejection the generator
// promises is provoked by a small textual edit of the real isa.yaml (so the cases
// follow the YAML as it evolves), and the message must name the offending entry and
// its line, since that is all a person editing the YAML gets to go on.  Also: the
// real YAML is accepted, the C++ tables do not depend on the YAML's list order, and
// the committed docs/isa.md and rtl/umbra_isa.vh list every instruction.  The same
// for uarch.yaml: its rejections, and that the FPU latency is one number.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "umbra/format.h"

namespace {

using umbra::hex2;

namespace fs = std::filesystem;

const std::string kIsagen = UMBRA_ISAGEN;
const std::string kSourceDir = UMBRA_SOURCE_DIR;
const std::string kIsaYaml = kSourceDir + "/isa/isa.yaml";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// A fresh directory per run, so that a case can also check what was not written.
fs::path fresh_dir() {
  static int n = 0;
  const fs::path d =
      fs::path(testing::TempDir()) / ("isagen_test_" + std::to_string(::getpid())) / std::to_string(n++);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct IsagenRun {
  int exit_code;  // 128 + signal if the generator crashed
  std::string err;
};

IsagenRun run_isagen(const fs::path& yaml, const std::string& args) {
  const fs::path err = fresh_dir() / "stderr.txt";
  const std::string cmd = "'" + kIsagen + "' '" + yaml.string() + "' " + args + " 2>'" + err.string() + "'";
  const int st = std::system(cmd.c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), read_text(err)};
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// 1-based line of the one occurrence of `what` in `text`.
int line_of(const std::string& text, const std::string& what) {
  const size_t at = text.find(what);
  return at == std::string::npos ? -1 : 1 + int(std::count(text.begin(), text.begin() + at, '\n'));
}

// One rejection: replace `from` (which must occur exactly once in isa.yaml) with
// `to`; the message must carry the line holding `at` (default: `to`) and each of
// `says`.
struct BadCase {
  const char* name;
  std::string from, to, at;
  std::vector<std::string> says;
};

std::ostream& operator<<(std::ostream& o, const BadCase& c) {
  return o << c.name;
}

const BadCase kBadCases[] = {
    {"PortOpCollidesWithOpcode",
     "{name: fill, code: 0x5f,",
     "{name: fill, code: 0x51,",
     "",
     {"port op 'fill'", "0x51", "instruction 'stw'"}},
    {"OverlappingEncodings",
     "{name: sub,   opcode: 0x11,",
     "{name: sub,   opcode: 0x10,",
     "",
     {"overlapping encodings", "instruction 'sub'", "instruction 'add'", "0x10"}},
    {"OpcodeZero",
     "{name: nop,   opcode: 0x01,",
     "{name: nop,   opcode: 0x00,",
     "",
     {"instruction 'nop'", "opcode 0"}},
    {"OpcodeOver255",
     "{name: muli,  opcode: 0x39,",
     "{name: muli,  opcode: 0x139,",
     "",
     {"instruction 'muli'", "does not fit in 8 bits"}},
    {"FieldBeyondBit31",
     "{name: a,  lsb: 16, width: 8}",
     "{name: a,  lsb: 28, width: 8}",
     "",
     {"format 'R' field 'a'", "35:28", "do not fit"}},
    {"KindWiderThanField",
     "{name: imm, kind: simm8, field: c}",
     "{name: imm, kind: simm16, field: c}",
     "",
     {"instruction 'addi' operand 'imm'", "simm16 needs 16 bits", "field c has 8"}},
    {"SignedKindNarrowerThanField",
     "{name: simm8,  bits: 8,",
     "{name: simm8,  bits: 7,",
     "{name: addi,",
     {"instruction 'addi' operand 'imm'", "must fill field c"}},
    {"UnaccountedBit",
     "{name: imm24, lsb: 0,  width: 24}",
     "{name: imm24, lsb: 0,  width: 23}",
     "- name: J",
     {"format 'J'", "bit 23 belongs to no field"}},
    {"OverlappingFields",
     "{name: imm16, lsb: 0,  width: 16}",
     "{name: imm16, lsb: 8,  width: 16}",
     "",
     {"format 'I' field 'imm16'", "overlaps"}},
    {"FieldMovesBetweenFormats",
     "{name: a,     lsb: 16, width: 8}",
     "{name: a,     lsb: 16, width: 7}",
     "",
     {"format 'I' field 'a'", "different position"}},
    {"DuplicateInstruction",
     "{name: sub,   opcode: 0x11,",
     "{name: add,   opcode: 0x11,",
     "",
     {"duplicate instruction 'add'", "first on line"}},
    {"DuplicateFormat",
     "  - name: J\n",
     "  - name: I\n",
     "- name: I\n    doc: a 24-bit",
     {"duplicate format 'I'"}},
    {"DuplicateField",
     "{name: c,  lsb: 0,  width: 8}",
     "{name: b,  lsb: 0,  width: 8}",
     "",
     {"format 'R': duplicate field 'b'"}},
    {"DuplicateOperandKind",
     "{name: uimm16, bits: 16,",
     "{name: simm16, bits: 16,",
     "simm16, bits: 16, doc: \"unsigned",
     {"duplicate operand kind 'simm16'"}},
    {"DuplicateClass",
     "{name: store,",
     "{name: load,",
     "{name: load,   doc: stores",
     {"duplicate class 'load'"}},
    {"DuplicateSpecialRegister",
     "{name: clockh, number: 5,",
     "{name: clock,  number: 5,",
     "",
     {"duplicate special register 'clock'"}},
    {"DuplicateSpecialRegisterNumber",
     "{name: clockh, number: 5,",
     "{name: clockh, number: 4,",
     "",
     {"special register 'clockh'", "number 4", "special register 'clock'"}},
    {"DuplicateOperand",
     "{name: sr, kind: sreg, field: b}",
     "{name: rd, kind: sreg, field: b}",
     "",
     {"instruction 'rdsr': duplicate operand 'rd'"}},
    {"UnknownFormat",
     "{name: j,    opcode: 0x70, format: J,",
     "{name: j,    opcode: 0x70, format: Q,",
     "",
     {"instruction 'j'", "unknown format 'Q'"}},
    {"UnknownClass",
     "{name: nop,   opcode: 0x01, format: N, class: special,",
     "{name: nop,   opcode: 0x01, format: N, class: magic,",
     "",
     {"instruction 'nop'", "unknown class 'magic'"}},
    {"UnknownKind",
     "{name: target, kind: br24, field: imm24}",
     "{name: target, kind: br32, field: imm24}",
     "",
     {"instruction 'j' operand 'target'", "unknown kind 'br32'"}},
    {"UnknownField",
     "{name: target, kind: br24, field: imm24}",
     "{name: target, kind: br24, field: imm32}",
     "",
     {"instruction 'j' operand 'target'", "no operand field 'imm32'"}},
    {"FieldNotInFormat",
     "{name: target, kind: br24, field: imm24}",
     "{name: target, kind: br24, field: a}",
     "",
     {"instruction 'j' operand 'target'", "format J has no operand field 'a'"}},
    {"RegisterWithoutAccess",
     "operands: [{name: rd, kind: reg, field: a, access: w}, {name: sr,",
     "operands: [{name: rd, kind: reg, field: a}, {name: sr,",
     "",
     {"instruction 'rdsr' operand 'rd'", "access r, w or rw"}},
    {"WrittenRegisterOutsideFieldA",
     "operands: [{name: rd, kind: reg, field: a, access: w}, {name: ra, kind: reg, field: b, access: r}]\n",
     "operands: [{name: rd, kind: reg, field: a, access: w}, {name: ra, kind: reg, field: b, access: w}]\n",
     "",
     {"instruction 'jalr' operand 'ra'", "only field a"}},
    {"TwoBranchTargets",
     "&b2 [{name: ra, kind: reg, field: a, access: r}, {name: rb, kind: reg, field: b, access: r},",
     "&b2 [{name: ra, kind: reg, field: a, access: r}, {name: rb, kind: br8, field: b},",
     "",
     {"instruction 'beq' operand 'target'", "at most one branch target"}},
    {"MemoryOperandWithoutBase",
     "{name: rd, kind: reg, field: a, access: w}, {name: addr, kind: mem, field: c, base: b}]",
     "{name: rd, kind: reg, field: a, access: w}, {name: addr, kind: mem, field: c}]",
     "",
     {"instruction 'ldw' operand 'addr'", "'base'"}},
    {"MnemonicNotAnIdentifier",
     "{name: red.add,  opcode: 0x60,",
     "{name: red_add,  opcode: 0x60,",
     "",
     {"instruction 'red_add'", "mnemonic"}},
    {"FlagNotBoolean",
     "{name: simm8,  bits: 8,  signed: true,",
     "{name: simm8,  bits: 8,  signed: maybe,",
     "",
     {"operand kind 'simm8'", "'signed' must be true or false"}},
    {"EntryNotAMap",
     "  - {name: dflush,  opcode: 0x08, format: N, class: special, group: base, operands: [], semantics: "
     "\"wait until "
     "every "
     "store this thread issued has reached memory\"}\n",
     "  - dflush\n",
     "",
     {"instruction", "expected a map"}},
    {"UnknownGroup",
     "{name: mulh,  opcode: 0x19, format: R, class: integer, group: mulh,",
     "{name: mulh,  opcode: 0x19, format: R, class: integer, group: mulhi,",
     "",
     {"instruction 'mulh'", "unknown group 'mulhi'"}},
    {"GroupWithoutInstruction",
     "  - {name: atomic,  doc: \"read-modify-write operations",
     "  - {name: spare, doc: none}\n  - {name: atomic,  doc: \"read-modify-write operations",
     "{name: spare,",
     {"group 'spare' has no instruction"}},
    {"MissingGroup",
     "{name: fneg,  opcode: 0x47, format: R, class: float, group: fp32,",
     "{name: fneg,  opcode: 0x47, format: R, class: float,",
     "",
     {"instruction 'fneg'", "missing 'group'"}},
    {"FirstGroupNotRequired",
     "{name: base,    required: true,",
     "{name: base,    required: false,",
     "",
     {"group ('base') must be required"}},
    {"PseudoShadowsInstruction",
     "{name: mov,  syntax:",
     "{name: add,  syntax:",
     "",
     {"pseudo-instruction 'add'"}},
};

class Rejects : public testing::TestWithParam<BadCase> {};

TEST_P(Rejects, NamesTheEntryAndItsLine) {
  const BadCase& c = GetParam();
  const std::string real = read_text(kIsaYaml);
  ASSERT_EQ(count(real, c.from), 1u) << "isa.yaml changed: update this case so that it finds\n" << c.from;
  std::string bad = real;
  bad.replace(bad.find(c.from), c.from.size(), c.to);
  const std::string at = c.at.empty() ? c.to : c.at;
  ASSERT_EQ(count(bad, at), 1u) << "the anchor must occur once in the edited YAML: " << at;

  const fs::path dir = fresh_dir();
  write_text(dir / "isa.yaml", bad);
  const IsagenRun r = run_isagen(dir / "isa.yaml", "--verilog '" + (dir / "out.vh").string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("isa.yaml:" + std::to_string(line_of(bad, at)) + ": error: "), std::string::npos)
      << "expected line " << line_of(bad, at) << " in: " << r.err;
  for (const std::string& s : c.says)
    EXPECT_NE(r.err.find(s), std::string::npos) << "no '" << s << "' in: " << r.err;
  // The generator checks everything before it writes: a rejected YAML leaves no
  // half-updated file behind for the RTL or the docs.
  EXPECT_FALSE(fs::exists(dir / "out.vh"));
}

INSTANTIATE_TEST_SUITE_P(BadYaml, Rejects, testing::ValuesIn(kBadCases),
                         [](const testing::TestParamInfo<BadCase>& i) { return std::string(i.param.name); });

// uarch.yaml, the core's codes and numbers: the same kind of edit, the same promise.
const std::string kUarchYaml = kSourceDir + "/isa/uarch.yaml";

const BadCase kBadUarchCases[] = {
    {"CodeDoesNotFit",
     "{name: bad_jump,            value: 4,",
     "{name: bad_jump,            value: 9,",
     "",
     {"code list 'fault' value 'bad_jump'", "does not fit in 3 bits"}},
    {"TwoNamesOneCode",
     "{name: merge, value: 3,",
     "{name: merge, value: 1,",
     "",
     {"code list 'cache_outcome' value 'merge'", "value 1 is taken by 'hit'"}},
    {"MissingCode",
     "      - {name: exited, value: 2, doc: \"the slot's thread has exited\"}\n",
     "",
     "- name: bubble_reason",
     {"code list 'bubble_reason'", "value 'exited' is not described"}},
    {"UnknownCode",
     "{name: sleep,  value: 2,",
     "{name: nap,    value: 2,",
     "",
     {"code list 'thread_state' value 'nap'", "unknown"}},
    {"ExecuteStagesTooFew", "    min: 4\n", "    min: 3\n", "", {"execute_stages.min must be at least 4"}},
    {"ExecuteStagesMaxBelowMin", "    max: 16\n", "    max: 3\n", "", {"execute_stages.max must be"}},
    {"ExecuteStagesDefaultOutside",
     "    default: 4\n",
     "    default: 17\n",
     "",
     {"execute_stages.default must be within"}},
    {"MiscLatencyTwoBeforeTheDelayRamAllowsIt",
     "  misc_latency_2_from: 6\n",
     "  misc_latency_2_from: 4\n",
     "",
     {"misc_latency_2_from must be 5"}},
    {"MiscLatencyTwoBeyondTheDeepest",
     "  misc_latency_2_from: 6\n",
     "  misc_latency_2_from: 17\n",
     "",
     {"misc_latency_2_from must be 5", "..execute_stages.max"}},
    {"MiscLatencyThreeNotAfterTwo",
     "  misc_latency_3_from: 8\n",
     "  misc_latency_3_from: 6\n",
     "",
     {"misc_latency_3_from must be above misc_latency_2_from (6)"}},
    {"MiscLatencyThreeBeyondTheDeepest",
     "  misc_latency_3_from: 8\n",
     "  misc_latency_3_from: 17\n",
     "",
     {"misc_latency_3_from must be above", "..execute_stages.max"}},
    {"MiscLatencyFourNotAfterThree",
     "  misc_latency_4_from: 10\n",
     "  misc_latency_4_from: 8\n",
     "",
     {"misc_latency_4_from must be above misc_latency_3_from (8)"}},
    {"MiscLatencyFourBeyondTheDeepest",
     "  misc_latency_4_from: 10\n",
     "  misc_latency_4_from: 17\n",
     "",
     {"misc_latency_4_from must be above", "..execute_stages.max"}},
    {"FewerThreadsThanTheDeepestPipeline",
     "max_threads: 256",
     "max_threads: 19",
     "",
     {"max_threads must be 20 (the deepest pipeline)"}},
    {"ImemNotAPowerOfTwo",
     "max_imem_words: 4194304",
     "max_imem_words: 4194305",
     "",
     {"max_imem_words must be a power of two"}},
};

class RejectsUarch : public testing::TestWithParam<BadCase> {};

TEST_P(RejectsUarch, NamesTheEntryAndItsLine) {
  const BadCase& c = GetParam();
  const std::string real = read_text(kUarchYaml);
  ASSERT_EQ(count(real, c.from), 1u) << "uarch.yaml changed: update this case so that it finds\n" << c.from;
  std::string bad = real;
  bad.replace(bad.find(c.from), c.from.size(), c.to);
  const std::string at = c.at.empty() ? c.to : c.at;
  ASSERT_EQ(count(bad, at), 1u) << "the anchor must occur once in the edited YAML: " << at;

  const fs::path dir = fresh_dir();
  write_text(dir / "uarch.yaml", bad);
  const IsagenRun r =
      run_isagen(kIsaYaml, "--uarch '" + (dir / "uarch.yaml").string() + "' --uarch-verilog '" +
                               (dir / "out.vh").string() + "' --verilog '" + (dir / "isa.vh").string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("uarch.yaml:" + std::to_string(line_of(bad, at)) + ": error: "), std::string::npos)
      << "expected line " << line_of(bad, at) << " in: " << r.err;
  for (const std::string& s : c.says)
    EXPECT_NE(r.err.find(s), std::string::npos) << "no '" << s << "' in: " << r.err;
  EXPECT_FALSE(fs::exists(dir / "out.vh"));
  EXPECT_FALSE(fs::exists(dir / "isa.vh"));
}

INSTANTIATE_TEST_SUITE_P(BadUarchYaml, RejectsUarch, testing::ValuesIn(kBadUarchCases),
                         [](const testing::TestParamInfo<BadCase>& i) { return std::string(i.param.name); });

// The execute stages are a range, not a number: the limits reach both outputs, and
// the depth and W's stage are functions of the configuration's choice.
TEST(Isagen, ExecuteStageLimitsReachBothOutputs) {
  std::string y = read_text(kUarchYaml);
  ASSERT_EQ(count(y, "    max: 16\n"), 1u);
  ASSERT_EQ(count(y, "    default: 4\n"), 1u);
  y.replace(y.find("    max: 16\n"), 12, "    max: 12\n");
  y.replace(y.find("    default: 4\n"), 15, "    default: 6\n");
  const fs::path dir = fresh_dir();
  write_text(dir / "uarch.yaml", y);
  const IsagenRun r =
      run_isagen(kIsaYaml, "--uarch '" + (dir / "uarch.yaml").string() + "' --uarch-verilog '" +
                               (dir / "u.vh").string() + "' --uarch-header '" + (dir / "u.h").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string vh = read_text(dir / "u.vh"), h = read_text(dir / "u.h");
  EXPECT_NE(vh.find("`define UMBRA_MIN_EXECUTE_STAGES 4\n"), std::string::npos) << vh;
  EXPECT_NE(vh.find("`define UMBRA_MAX_EXECUTE_STAGES 12\n"), std::string::npos) << vh;
  EXPECT_NE(vh.find("`define UMBRA_DEFAULT_EXECUTE_STAGES 6\n"), std::string::npos) << vh;
  EXPECT_NE(vh.find("`define UMBRA_MIN_THREADS 8\n"), std::string::npos) << vh;
  EXPECT_EQ(vh.find("UMBRA_PIPELINE_DEPTH"), std::string::npos) << "the depth is the configuration's: " << vh;
  // MISC_LATENCY's rule, written once: execute.v and fpga/fpu_fmax.sh read these.
  EXPECT_NE(vh.find("`define UMBRA_MISC_LATENCY_2_FROM 6\n"), std::string::npos) << vh;
  EXPECT_NE(vh.find("`define UMBRA_MISC_LATENCY_3_FROM 8\n"), std::string::npos) << vh;
  EXPECT_NE(vh.find("`define UMBRA_MISC_LATENCY_4_FROM 10\n"), std::string::npos) << vh;
  EXPECT_NE(
      vh.find("`define UMBRA_MISC_LATENCY(l) (((l) >= `UMBRA_MISC_LATENCY_4_FROM) ? 4 : "
              "((l) >= `UMBRA_MISC_LATENCY_3_FROM) ? 3 : ((l) >= `UMBRA_MISC_LATENCY_2_FROM) ? 2 : 1)\n"),
      std::string::npos)
      << vh;
  EXPECT_NE(h.find("constexpr unsigned kMaxExecuteStages = 12;"), std::string::npos) << h;
  EXPECT_NE(h.find("constexpr unsigned kDefaultExecuteStages = 6;"), std::string::npos) << h;
  EXPECT_NE(h.find("\"X11\", \"X12\"};"), std::string::npos) << "names up to the deepest X: " << h;
}

TEST(Isagen, AcceptsTheRealYaml) {
  const fs::path dir = fresh_dir();
  const IsagenRun r = run_isagen(kIsaYaml, "--cpp-header '" + (dir / "isa_gen.h").string() +
                                               "' --cpp-source '" + (dir / "isa_gen.cpp").string() +
                                               "' --verilog '" + (dir / "umbra_isa.vh").string() +
                                               "' --markdown '" + (dir / "isa.md").string() + "'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  for (const char* f : {"isa_gen.h", "isa_gen.cpp", "umbra_isa.vh", "isa.md"})
    EXPECT_GT(fs::file_size(dir / f), 0u) << f;
}

// Fixtures for inputs that are not an edit of isa.yaml: broken YAML syntax and an
// empty file still give a one-line message, not an abort.
TEST(Isagen, SyntaxErrorGivesItsLine) {
  const IsagenRun r = run_isagen(fs::path(UMBRA_BAD_DIR) / "unclosed_flow.yaml", "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unclosed_flow.yaml:5: error:"), std::string::npos) << r.err;
}

TEST(Isagen, EmptyFileIsRejected) {
  const IsagenRun r = run_isagen(fs::path(UMBRA_BAD_DIR) / "empty.yaml", "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("empty.yaml: error:"), std::string::npos) << r.err;
}

TEST(Isagen, MissingFileIsRejected) {
  const fs::path dir = fresh_dir();
  const IsagenRun r = run_isagen(dir / "no_such.yaml", "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no_such.yaml: error: cannot read file"), std::string::npos) << r.err;
}

// kind_info() and decode() index the tables by the C++ enums, so moving a kind or
// a format to another place in the YAML must not change the generated C++.
TEST(Isagen, TablesDoNotDependOnYamlListOrder) {
  const std::string real = read_text(kIsaYaml);
  std::string moved = real;
  const std::string mem_kind = moved.substr(moved.find("  - {name: mem,"));
  const std::string mem_line = mem_kind.substr(0, mem_kind.find('\n') + 1);
  ASSERT_EQ(count(moved, mem_line), 1u);
  moved.erase(moved.find(mem_line), mem_line.size());
  moved.insert(moved.find("  - {name: reg,"), mem_line);
  const size_t n_at = moved.find("  - name: N\n");
  const size_t n_end = moved.find("\n\n", n_at) + 1;
  ASSERT_NE(n_at, std::string::npos);
  const std::string n_format = moved.substr(n_at, n_end - n_at);
  moved.erase(n_at, n_format.size());
  moved.insert(moved.find("  - name: R\n"), n_format);
  ASSERT_NE(moved, real);

  std::string out[2];
  const std::string* yaml[2] = {&real, &moved};
  for (int i = 0; i < 2; ++i) {
    const fs::path dir = fresh_dir();
    write_text(dir / "isa.yaml", *yaml[i]);
    const IsagenRun r = run_isagen(dir / "isa.yaml", "--cpp-header '" + (dir / "h").string() +
                                                         "' --cpp-source '" + (dir / "cpp").string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    out[i] = read_text(dir / "h") + read_text(dir / "cpp");
  }
  EXPECT_EQ(out[0], out[1]);
}

std::string upper_ident(std::string s) {
  for (char& ch : s) ch = ch == '.' ? '_' : char(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

// The committed references are what readers and the RTL use without a build, so
// they must cover the YAML; the freshness check (check_generated.sh) says they are
// current, this says what "current" has to contain.
TEST(CommittedDocs, IsaMdListsEveryInstructionWithOpcodeAndSyntax) {
  const std::string md = read_text(kSourceDir + "/docs/isa.md");
  const YAML::Node root = YAML::LoadFile(kIsaYaml);
  ASSERT_GT(root["instructions"].size(), 0u);
  for (const auto& in : root["instructions"]) {
    const std::string name = in["name"].as<std::string>();
    std::string syntax = name;
    bool first = true;
    for (const auto& op : in["operands"]) {
      syntax += first ? " " : ", ";
      first = false;
      syntax += op["kind"].as<std::string>() == "mem" ? "offset(rB)" : op["name"].as<std::string>();
    }
    const std::string row = "| `" + name + "` | " + hex2(in["opcode"].as<int>()) + " | " +
                            in["format"].as<std::string>() + " | `" + in["group"].as<std::string>() +
                            "` | `" + syntax + "` |";
    EXPECT_EQ(count(md, row), 1u) << "docs/isa.md lacks the row starting " << row;
    // The row then gives each operand's kind, so a reader need not open isa.yaml.
    const size_t at = md.find(row);
    if (at == std::string::npos) continue;
    const std::string line = md.substr(at, md.find('\n', at) - at);
    for (const auto& op : in["operands"])
      EXPECT_NE(line.find(": `" + op["kind"].as<std::string>() + "`"), std::string::npos)
          << name << ": no kind " << op["kind"].as<std::string>() << " in " << line;
  }
  EXPECT_NE(md.find("imm: `uimm16`"), std::string::npos) << "movhi's immediate kind";
  EXPECT_NE(md.find("target: `br8`"), std::string::npos) << "beq's offset kind";
  EXPECT_NE(md.find("modulo 2^32"), std::string::npos) << "address wrap-around";
  for (const auto& s : root["special_registers"])
    EXPECT_NE(md.find("| `" + s["name"].as<std::string>() + "` | " + s["number"].as<std::string>() + " |"),
              std::string::npos)
        << s["name"];
}

TEST(CommittedDocs, UmbraIsaVhDefinesEveryOpcode) {
  const std::string vh = read_text(kSourceDir + "/rtl/umbra_isa.vh");
  const YAML::Node root = YAML::LoadFile(kIsaYaml);
  for (const auto& in : root["instructions"]) {
    char value[16];
    std::snprintf(value, sizeof value, "8'h%02x", in["opcode"].as<int>());
    const std::string def =
        "`define UMBRA_OP_" + upper_ident(in["name"].as<std::string>()) + " " + value + "\n";
    EXPECT_EQ(count(vh, def), 1u) << "rtl/umbra_isa.vh lacks " << def;
  }
  for (const auto& s : root["special_registers"]) {
    const std::string def = "`define UMBRA_SR_" + upper_ident(s["name"].as<std::string>()) + " 8'd" +
                            s["number"].as<std::string>() + "\n";
    EXPECT_EQ(count(vh, def), 1u) << "rtl/umbra_isa.vh lacks " << def;
  }
  for (const auto& f : root["formats"])
    for (const auto& fl : f["fields"]) {
      const std::string name = upper_ident(fl["name"].as<std::string>());
      const int lsb = fl["lsb"].as<int>(), msb = lsb + fl["width"].as<int>() - 1;
      EXPECT_EQ(count(vh, "`define UMBRA_FIELD_" + name + "_LSB " + std::to_string(lsb) + "\n"), 1u) << name;
      EXPECT_EQ(count(vh, "`define UMBRA_FIELD_" + name + "_MSB " + std::to_string(msb) + "\n"), 1u) << name;
    }
}

}  // namespace
