// Every tool that writes, against the two rules of issue 37 (docs/simulator.md, "Output
// files"): one table, one row per tool, and a test per rule that runs each row's cases.
//
//   OutputPaths: an output that is (or resolves to, by a symlink or a ./ spelling) an
//     input of the run (the program, a file it .includes, the configuration, a manifest,
//     a command file) or another output is refused before anything is written, the
//     message naming both; an option's value is never the program named after it.
//   CheckedWrites: an output to /dev/full, to a directory, into a missing directory, to
//     a read-only file, and standard output to /dev/full, is an error naming the file and
//     the reason, with a non-zero exit.
//
// In every case the input files must be byte-for-byte what they were.  The list of tools
// comes from the build (tool_list.h, written by the top-level CMakeLists.txt from every
// umbra-* executable and every bench): a tool without a row here fails ToolsAreInTheTable,
// so a new tool joins the table.  A case that does not apply to a tool says why in its
// row.  The cases are refused before any model runs, except the one RTL run (umbra-cosim
// --model rtl --events /dev/full, a three-instruction program) and umbra-sim's ISS runs,
// so the whole test takes seconds.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tool_list.h"
#include "umbra_testing/command.h"

namespace {

namespace fs = std::filesystem;
using umbra::testkit::has;
using umbra::testkit::slurp;

// One tool's row.  Commands are the arguments after the tool's path, with placeholders:
// {prog} an assembly program that .includes {inc}, {elf} the same assembled, {cfg} a
// configuration, {man} an example manifest, {cmds} a command file, {isa}/{uarch}/{cmdy}/
// {ckeys} copies of isa/isa.yaml, isa/uarch.yaml, isa/commands.yaml and
// isa/config_keys.yaml, {dir} the scratch
// directory, and {O} the output path under test.  An empty command: the case does not
// apply, for the reason in `why_not`.
struct Tool {
  std::string name;
  std::string input;        // the placeholder of the file `write` reads
  std::string write;        // reads `input`, writes {O}
  std::string with_config;  // the same run given the configuration {cfg}, writing {O}
  bool includes = false;    // `input` is {prog}, which .includes {inc}
  std::string two_outputs;  // two outputs of one run, both at {O} (or derived from it)
  // Other inputs: {placeholder, a run writing its output onto that file}.
  std::vector<std::pair<std::string, std::string>> other_inputs;
  std::string swallow;    // an output option followed by the input and nothing else
  std::string to_stdout;  // a run whose output is standard output
  // What the failure says for a case where the tool's own words differ from errno's
  // text (case name -> text).
  std::map<std::string, std::string> says;
  std::string why_not;  // why the cases left empty do not apply
};

const std::vector<Tool>& table() {
  static const std::vector<Tool> t = {
      {"umbra-as",
       "{prog}",
       "{prog} -o {O}",
       "{prog} --config {cfg} -o {O}",
       true,
       "{prog} -o {O} --listing {O}",
       {},
       "-o {prog}",
       "--help",
       {},
       "its only standard output is --help"},
      {"umbra-dis",
       "{elf}",
       "{elf} -o {O}",
       "--config {cfg} {elf} -o {O}",
       false,
       "",
       {},
       "-o {elf}",
       "{elf}",
       {},
       "one output; reads images, which include nothing"},
      {"umbra-sim",
       "{prog}",
       "--no-progress {prog} --stats-json {O}",
       "--no-progress --config {cfg} {prog} --stats-json {O}",
       true,
       "--no-progress {prog} --stats-json {O} --trace {O}",
       {{"{cmds}", "--no-progress {prog} --commands {cmds} --stats-json {cmds}"}},
       "--no-progress --trace {prog}",
       "--no-progress {prog} --regs",
       {},
       ""},
      {"umbra-cosim",
       "{prog}",
       "--model rtl {prog} --events {O}",
       "--model rtl --config {cfg} {prog} --events {O}",
       true,
       "--model rtl {prog} --vcd {O} --events {O}.rtl.vcd",
       {},
       "--model rtl --events {prog}",
       "--help",
       {},
       "standard output: --help (a run's is the one RTL case's)"},
      {"umbra-randprog",
       "{cfg}",
       "--seed 1 --config {cfg} -o {O}",
       "--seed 1 --config {cfg} -o {O}",
       false,
       "",
       {},
       "",
       "--seed 1",
       {},
       "no program (it writes one); one output; no positional argument to swallow"},
      {"umbra-load",
       "{prog}",
       "{prog} -d {O}",
       "",
       true,
       "",
       {{"{man}", "--manifest {man} -d {man}"}},
       "-d {prog}",
       "--help",
       {{"/dev/full", "not a serial device"}},
       "its file output is the serial device; no configuration; one device"},
      {"umbra-systemc-run",
       "{prog}",
       "{prog} --events {O}",
       "--config {cfg} {prog} --events {O}",
       true,
       "{prog} --events {O} --memory-out {O}",
       {},
       "--events {prog}",
       "{prog} --json",
       {},
       ""},
      {"umbra-isagen",
       "{isa}",
       "{isa} --markdown {O}",
       "",
       false,
       "{isa} --markdown {O} --verilog {O}",
       {{"{uarch}", "{isa} --uarch {uarch} --uarch-verilog {uarch}"}},
       "--markdown {isa}",
       "--help",
       {},
       "no configuration (its inputs are the descriptions)"},
      {"umbra-cmdgen",
       "{cmdy}",
       "{cmdy} --markdown {O}",
       "",
       false,
       "{cmdy} --markdown {O} --verilog {O}",
       {},
       "--markdown {cmdy}",
       "--help",
       {},
       "no configuration (its input is the description)"},
      {"umbra-configgen",
       "{ckeys}",
       "{ckeys} --uarch {uarch} --cpp-header {O}",
       "",
       false,
       "{ckeys} --uarch {uarch} --cpp-header {O} --cpp-keys {O}",
       {{"{uarch}", "{ckeys} --uarch {uarch} --cpp-params {uarch}"}},
       "--cpp-header {ckeys}",
       "--help",
       {},
       "no configuration (its inputs are the descriptions)"},
      {"umbra-directed",
       "",
       "{O}",
       "",
       false,
       "",
       {},
       "",
       "{dir}/adir",
       {{"directory", "__skip__"}, {"/dev/full", "__skip__"}},
       "reads no file; its output is a directory of programs (DIR: /dev/full and a directory do not apply)"},
      {"umbra-config", "", "", "", false, "", {}, "", "{cfg}", {}, "writes standard output only"},
      {"umbra-examples",
       "",
       "",
       "",
       false,
       "",
       {},
       "",
       "--dir " UMBRA_SOURCE_DIR "/examples sum",
       {},
       "writes standard output only"},
      {"clock_bench", "", "--csv {O}", "", false, "", {}, "", "--help", {}, "reads no file; one output"},
      {"kernels_bench",
       "",
       "--sgemm 4 --csv-vm {O}",
       "",
       false,
       "",
       {},
       "",
       "--help",
       {},
       "reads no file (its programs are the examples); takes no configuration"},
      {"sim_speed", "", "", "", false, "", {}, "", "--help", {}, "writes standard output only"},
      {"latency_hiding",
       "{cfg}",
       "--config {cfg} --csv {O}",
       "--config {cfg} --csv {O}",
       false,
       "",
       {},
       "",
       "--help",
       {},
       "no program (its programs are generated); one output"},
      {"access_patterns",
       "{cfg}",
       "--config {cfg} --csv {O}",
       "--config {cfg} --csv {O}",
       false,
       "",
       {},
       "",
       "--help",
       {},
       "no program (its programs are generated); one output"},
      {"sdram_bench",
       "{cfg}",
       "",
       "",
       false,
       "",
       {},
       "",
       "--config {cfg} --bytes 64",
       {},
       "writes no file: its figures go to standard output"},
      {"queue_bench",
       "{cfg}",
       "--config {cfg} --csv {O}",
       "--config {cfg} --csv {O}",
       false,
       "--csv {O} --json {O}",
       {},
       "",
       "--help",
       {},
       "no program (its streams are generated)"},
      {"cores_bench",
       "{cfg}",
       "--config {cfg} --csv {O}",
       "--config {cfg} --csv {O}",
       false,
       "",
       {},
       "",
       "--help",
       {},
       "no program (its programs are generated); one output"},
      {"issue_rate",
       "{cfg}",
       "--config {cfg} --csv {O}",
       "--config {cfg} --csv {O}",
       false,
       "",
       {},
       "",
       "--help",
       {},
       "no program (its programs are generated); one output"},
  };
  return t;
}

const char* kProgram = R"(_start: li   r1, 5
        exit
        .include "inc.s"
        .data
cell:   .word 7
)";
const char* kInclude = "        nop\n";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

class ToolOutputs : public umbra::testkit::ScratchTest {
 protected:
  void SetUp() override {
    // A run stopped before its TearDown leaves immutable files that rm cannot remove.
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::system(("chattr -R -i '" + ::testing::TempDir() + info->test_suite_name() + "_" + info->name() +
                 "' 2>/dev/null")
                    .c_str());
    ScratchTest::SetUp();
    files_["{prog}"] = write("main.s", kProgram);
    files_["{inc}"] = write("inc.s", kInclude);
    files_["{cfg}"] = write("cfg.yaml", slurp(UMBRA_SOURCE_DIR "/configs/default.yaml"));
    files_["{cmds}"] = write("cmds.yaml", "- run\n");
    files_["{isa}"] = write("isa.yaml", slurp(UMBRA_SOURCE_DIR "/isa/isa.yaml"));
    files_["{uarch}"] = write("uarch.yaml", slurp(UMBRA_SOURCE_DIR "/isa/uarch.yaml"));
    files_["{cmdy}"] = write("commands.yaml", slurp(UMBRA_SOURCE_DIR "/isa/commands.yaml"));
    files_["{ckeys}"] = write("config_keys.yaml", slurp(UMBRA_SOURCE_DIR "/isa/config_keys.yaml"));
    files_["{man}"] =
        write("m.yaml", replace_all(slurp(UMBRA_SOURCE_DIR "/examples/sum.yaml"), "source: sum.s",
                                    "source: " UMBRA_SOURCE_DIR "/examples/sum.s"));
    ASSERT_EQ(
        std::system((tool("umbra-as") + " '" + files_["{prog}"] + "' -o '" + path("p.elf") + "'").c_str()),
        0);
    files_["{elf}"] = path("p.elf");
    for (const auto& [key, file] : files_) before_[file] = slurp(file);
  }
  void TearDown() override {
    for (const std::string& f : immutable_) std::system(("chattr -i '" + f + "' 2>/dev/null").c_str());
  }

  // UMBRA_TOOLS_FROM=DIR runs the tools of another build tree (the same relative paths):
  // how the cases were seen to fail on the tools before issue 37.
  static std::string tool(const std::string& name) {
    for (const auto& [n, p] : umbra_tools::kTools)
      if (n == name) {
        const char* other = std::getenv("UMBRA_TOOLS_FROM");
        const std::string here = UMBRA_BINARY_DIR;
        if (other && *other && std::string(p).rfind(here, 0) == 0)
          return other + std::string(p).substr(here.size());
        return p;
      }
    return "";
  }
  std::string expand(std::string args, const std::string& out) const {
    args = replace_all(args, "{O}", out);
    args = replace_all(args, "{dir}", dir_);
    for (const auto& [key, file] : files_) args = replace_all(args, key, file);
    return args;
  }
  // Runs the tool with stdout into `stdout_to` (a file of the case's own by default).
  umbra::testkit::Outcome run(const Tool& t, const std::string& args,
                              const std::string& stdout_to = "") const {
    // A bound on every run: the tools before issue 37 read /dev/full as an endless
    // file (umbra-isagen) or ran a whole bench before noticing it.
    const std::string cmd = "timeout 60 " + tool(t.name) + " " + args;
    const std::string out = stdout_to.empty() ? path("stdout") : stdout_to;
    const int status = std::system(
        ("cd '" + dir_ + "' && " + cmd + " >'" + out + "' 2>'" + path("stderr") + "' </dev/null").c_str());
    umbra::testkit::Outcome o;
    o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = stdout_to.empty() ? slurp(out) : "";
    o.err = slurp(path("stderr"));
    return o;
  }
  // Every input as it was.
  void expect_inputs_unchanged(const std::string& what) const {
    for (const auto& [file, text] : before_)
      EXPECT_EQ(slurp(file), text) << what << ": " << file << " changed";
  }
  // A file that even root cannot write: mode 0444, and immutable when running as root
  // (false when that cannot be done here: the case is then skipped, and says so).
  bool make_read_only(const std::string& file) {
    std::error_code ec;
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, ec);
    if (::geteuid() != 0) return true;
    if (std::system(("chattr +i '" + file + "' 2>/dev/null").c_str()) != 0) return false;
    immutable_.push_back(file);
    return true;
  }

  std::map<std::string, std::string> files_, before_;
  std::vector<std::string> immutable_;
};

// The build's tools, each with a row: a tool added to the build without one fails here.
TEST(ToolsTable, ToolsAreInTheTable) {
  std::set<std::string> rows;
  for (const Tool& t : table()) rows.insert(t.name);
  for (const auto& [name, path] : umbra_tools::kTools)
    EXPECT_TRUE(rows.count(name))
        << name << " (" << path
        << ") is a tool of this build without a row in toolio/tests/tools_output_test.cpp: "
           "give it its output cases (or say why they do not apply)";
  for (const Tool& t : table()) {
    bool built = false;
    for (const auto& [name, path] : umbra_tools::kTools) built |= name == t.name;
    EXPECT_TRUE(built) << t.name << " has a row but is not a tool of this build (renamed?)";
  }
}

// An output onto an input or onto another output: refused before anything is written,
// the message naming both files.
TEST_F(ToolOutputs, OutputPaths) {
  fs::create_symlink(files_["{prog}"], path("link.s"));
  fs::create_symlink(files_["{cfg}"], path("link.yaml"));
  unsigned cases = 0;
  for (const Tool& t : table()) {
    SCOPED_TRACE(t.name);
    struct Case {
      std::string name, args, output, input;
    };
    std::vector<Case> cs;
    if (!t.write.empty() && !t.input.empty()) {
      const std::string in = files_.at(t.input);
      cs.push_back({"output is the input", t.write, in, in});
      // Another name for the same file: a symlink, and a ./ spelling.
      const std::string link = t.input == "{cfg}"    ? path("link.yaml")
                               : t.input == "{prog}" ? path("link.s")
                                                     : "";
      if (!link.empty()) cs.push_back({"output is a symlink to the input", t.write, link, in});
      cs.push_back({"output is ./ the input", t.write, dir_ + "/./" + fs::path(in).filename().string(), in});
    }
    if (!t.with_config.empty())
      cs.push_back({"output is the configuration", t.with_config, files_.at("{cfg}"), files_.at("{cfg}")});
    if (t.includes)
      cs.push_back({"output is an included file", t.write, files_.at("{inc}"), files_.at("{inc}")});
    for (const auto& [key, args] : t.other_inputs)
      cs.push_back({"output is " + key, args, files_.at(key), files_.at(key)});
    if (!t.two_outputs.empty()) cs.push_back({"two outputs are one file", t.two_outputs, path("twice"), ""});
    if (cs.empty() && t.swallow.empty()) {
      EXPECT_FALSE(t.why_not.empty()) << "a row without cases must say why";
      continue;
    }
    for (const Case& c : cs) {
      SCOPED_TRACE(c.name);
      const std::string args = expand(c.args, c.output);
      const auto o = run(t, args);
      ++cases;
      EXPECT_NE(o.rc, 0) << args << "\n" << o.err;
      EXPECT_TRUE(has(o.err, "'" + c.output)) << "does not name the output: " << args << "\n" << o.err;
      if (!c.input.empty()) {
        EXPECT_TRUE(has(o.err, fs::path(c.input).filename().string()))
            << "does not name the input: " << args << "\n"
            << o.err;
        EXPECT_TRUE(has(o.err, "refusing to overwrite")) << args << "\n" << o.err;
      } else {
        EXPECT_TRUE(has(o.err, "are the same file")) << args << "\n" << o.err;
        EXPECT_FALSE(fs::exists(c.output)) << "written before it was refused: " << args;
      }
      expect_inputs_unchanged(args);
    }
    // The old form of an option that took an optional value (`umbra-sim --trace A.s`):
    // the program after an output option is never its value and never written.
    if (!t.swallow.empty()) {
      const std::string args = expand(t.swallow, "");
      const auto o = run(t, args);
      ++cases;
      EXPECT_NE(o.rc, 0) << "an output option took the program for its value: " << args << "\n" << o.err;
      expect_inputs_unchanged(args);
    }
  }
  EXPECT_GT(cases, 40u);
}

// Outputs that cannot be written: an error naming the file and the reason, non-zero.
TEST_F(ToolOutputs, CheckedWrites) {
  ASSERT_EQ(::mkdir(path("adir").c_str(), 0777), 0);
  const std::string ro = write("ro.txt", "read-only\n");
  const bool have_ro = make_read_only(ro);
  before_[ro] = slurp(ro);
  ASSERT_EQ(::mkdir(path("rodir").c_str(), 0777), 0);
  const bool have_rodir = make_read_only(path("rodir"));
  if (!have_ro) std::cout << "note: no read-only file for root here (chattr): that case is not run\n";
  unsigned cases = 0;
  for (const Tool& t : table()) {
    SCOPED_TRACE(t.name);
    struct Case {
      std::string name, output, reason;
    };
    const bool into_dir = t.name == "umbra-directed";  // its output is a directory
    std::vector<Case> cs = {
        {"/dev/full", "/dev/full", "No space left on device"},
        {"directory", path("adir"), "s a directory"},
        {"missing directory", path("missing/out"), "No such file or directory"},
    };
    if (into_dir ? have_rodir : have_ro)
      cs.push_back({"read-only", into_dir ? path("rodir") : ro, ::geteuid() == 0 ? "" : "Permission denied"});
    if (!t.write.empty()) {
      for (Case c : cs) {
        SCOPED_TRACE(c.name);
        auto said = t.says.find(c.name);
        if (said != t.says.end() && said->second == "__skip__") continue;
        if (said != t.says.end()) c.reason = said->second;
        const std::string args = expand(t.write, c.output);
        const auto o = run(t, args);
        ++cases;
        EXPECT_NE(o.rc, 0) << args << "\n" << o.err;
        EXPECT_TRUE(has(o.err, c.output)) << "does not name the file: " << args << "\n" << o.err;
        if (c.reason.empty())  // root's read-only file: EPERM (immutable) or EACCES
          EXPECT_TRUE(has(o.err, "Operation not permitted") || has(o.err, "Permission denied"))
              << args << "\n"
              << o.err;
        else
          EXPECT_TRUE(has(o.err, c.reason)) << "does not say why (" << c.reason << "): " << args << "\n"
                                            << o.err;
        expect_inputs_unchanged(args);
        EXPECT_FALSE(fs::exists(path("missing"))) << args;
      }
    }
    // Standard output: the tool's words, into a full device.
    ASSERT_FALSE(t.to_stdout.empty()) << "every tool writes standard output (at least --help)";
    const std::string args = expand(t.to_stdout, "");
    const auto o = run(t, args, "/dev/full");
    ++cases;
    EXPECT_NE(o.rc, 0) << args << " >/dev/full\n" << o.err;
    EXPECT_TRUE(has(o.err, "standard output")) << args << " >/dev/full\n" << o.err;
    EXPECT_TRUE(has(o.err, "No space left on device")) << args << " >/dev/full\n" << o.err;
    expect_inputs_unchanged(args);
  }
  EXPECT_GT(cases, 60u);
}

// The RTL's waveform (Verilator's writer, which reports nothing itself): a waveform that
// cannot be opened is refused before the run, and one whose writes fail is an error
// after it, on the one tool that runs the RTL from umbra-sim's command line.
TEST_F(ToolOutputs, RtlWaveformWritesAreChecked) {
  const Tool sim{"umbra-sim"};
  // Into a directory that cannot be written (refused before the run).
  ASSERT_EQ(::mkdir(path("rodir").c_str(), 0777), 0);
  if (make_read_only(path("rodir"))) {
    const auto o = run(sim, expand("--no-progress --model rtl --threads 1 {prog} --vcd {dir}/rodir/w", ""));
    EXPECT_NE(o.rc, 0) << o.err;
    EXPECT_TRUE(has(o.err, "rodir/w.rtl.vcd")) << o.err;
    EXPECT_TRUE(has(o.err, "Operation not permitted") || has(o.err, "Permission denied")) << o.err;
  }
  // A waveform file that takes nothing (a link to /dev/full): the run's writes fail.
  fs::create_symlink("/dev/full", path("w.rtl.vcd"));
  const auto o = run(sim, expand("--no-progress --model rtl --threads 1 {prog} --vcd {dir}/w", ""));
  EXPECT_NE(o.rc, 0) << o.err;
  EXPECT_TRUE(has(o.err, "w.rtl.vcd")) << o.err;
  EXPECT_TRUE(has(o.err, "No space left on device")) << o.err;
  expect_inputs_unchanged("--vcd");
}

}  // namespace

// --- The other classes of issue 37: option values, configuration messages, fault
// reasons.  Each table has every tool of the build, with its cases or why none apply
// (EveryToolIsInTheClassTables); the cases were seen to fail on the tools before the
// fixes by scripts/hostile_probe.py, whose classes these are (docs/verification.md).

namespace classes {

struct Row {
  std::vector<std::string> cases;  // the class's cases for this tool (their form is the class's)
  std::string why_not;             // no cases: why
};
using Table = std::map<std::string, Row>;

// Numeric options: "OPTION|the rest of a run that would otherwise work".
const Table& numeric() {
  static const Table t = {
      {"umbra-as", {{"--registers|{prog} -o {dir}/o.elf", "--max-errors|{prog} -o {dir}/o.elf"}, ""}},
      {"umbra-dis", {{"--base|-f bin {elf}"}, ""}},
      {"umbra-sim",
       {{"--threads|--no-progress {prog}", "--max-instructions|--no-progress {prog}",
         "--max-cycles|--no-progress --model systemc {prog}", "--mem-size|--no-progress {prog}",
         "--domain|--no-progress {prog}", "--trace-limit|--no-progress {prog} --trace {dir}/t.txt"},
        ""}},
      {"umbra-cosim",
       {{"--threads|{prog}", "--max-cycles|{prog}", "--history|{prog}", "--inject-iss|{prog}",
         "--domain|{prog}"},
        ""}},
      {"umbra-systemc-run", {{"--threads|{prog}", "--max-cycles|{prog}"}, ""}},
      {"umbra-randprog", {{"--seed|", "--length|--seed 1", "--count|--seed 1 --run iss"}, ""}},
      {"umbra-load", {{"--baud|-d {dir}/no-tty {prog}", "--threads|-d {dir}/no-tty {prog}"}, ""}},
      {"umbra-directed", {{"--threads|{dir}/out"}, ""}},
      {"sim_speed", {{"--threads|", "--repeat|"}, ""}},
      {"latency_hiding", {{"--fillers|"}, ""}},
      {"access_patterns", {{"--threads|", "--offsets|", "--fillers|"}, ""}},
      {"queue_bench", {{"--threads|", "--reads|", "--writes|", "--seed|"}, ""}},
      {"sdram_bench", {{"--mhz|", "--bytes|"}, ""}},
      {"cores_bench", {{"--cores|", "--lines|", "--words|", "--occupancy|", "--occupancy-cores|"}, ""}},
      {"issue_rate", {{"--regs|", "--active|", "--ways|"}, ""}},
      {"kernels_bench", {{"--mem-mib|--sgemm 4"}, ""}},
      {"clock_bench", {{}, "no numeric option"}},
      {"umbra-config", {{}, "no numeric option"}},
      {"umbra-examples", {{}, "no numeric option"}},
      {"umbra-isagen", {{}, "no numeric option"}},
      {"umbra-cmdgen", {{}, "no numeric option"}},
      {"umbra-configgen", {{}, "no numeric option"}},
  };
  return t;
}

// A run given the configuration {bad}.
const Table& configured() {
  static const Table t = {
      {"umbra-as", {{"{prog} -o {dir}/o.elf --config {bad}"}, ""}},
      {"umbra-sim", {{"--no-progress --config {bad} {prog}"}, ""}},
      {"umbra-cosim", {{"--config {bad} {prog}"}, ""}},
      {"umbra-systemc-run", {{"--config {bad} {prog}"}, ""}},
      {"umbra-randprog", {{"--seed 1 --config {bad}"}, ""}},
      {"umbra-examples", {{"--config {bad} --dir " UMBRA_SOURCE_DIR "/examples sum"}, ""}},
      {"umbra-config", {{"{bad}"}, ""}},
      {"latency_hiding", {{"--config {bad}"}, ""}},
      {"access_patterns", {{"--config {bad}"}, ""}},
      {"queue_bench", {{"--config {bad}"}, ""}},
      {"sdram_bench", {{"--config {bad}"}, ""}},
      {"cores_bench", {{"--config {bad}"}, ""}},
      {"issue_rate", {{"--config {bad}"}, ""}},
      {"kernels_bench", {{}, "takes no configuration (its machines are the default one and its variants)"}},
      {"umbra-dis", {{"--config {bad} {elf}"}, ""}},
      {"umbra-load", {{}, "takes no configuration (the board reports its own)"}},
      {"umbra-directed", {{}, "takes no configuration"}},
      {"umbra-isagen", {{}, "takes no configuration"}},
      {"umbra-cmdgen", {{}, "takes no configuration"}},
      {"umbra-configgen", {{}, "takes no configuration"}},
      {"clock_bench", {{}, "takes no configuration"}},
      {"sim_speed", {{}, "takes no configuration"}},
  };
  return t;
}

// A run of the faulting program {fault}; its fault line is compared with the ISS's.
const Table& faulting() {
  static const Table t = {
      {"umbra-sim",
       {{"--no-progress --threads 1 --model iss {fault}", "--no-progress --threads 1 --model systemc {fault}",
         "--no-progress --threads 1 --model rtl {fault}", "--no-progress --threads 1 --model cosim {fault}"},
        ""}},
      {"umbra-systemc-run", {{"--threads 1 {fault}"}, ""}},
      {"umbra-cosim", {{"--threads 1 {fault}"}, ""}},
  };
  return t;
}

}  // namespace classes

TEST(ToolsTable, EveryToolIsInTheClassTables) {
  for (const auto& [name, path] : umbra_tools::kTools) {
    EXPECT_TRUE(classes::numeric().count(name)) << name << ": no row in classes::numeric()";
    EXPECT_TRUE(classes::configured().count(name)) << name << ": no row in classes::configured()";
  }
  for (const auto* t : {&classes::numeric(), &classes::configured()})
    for (const auto& [name, row] : *t) EXPECT_TRUE(!row.cases.empty() || !row.why_not.empty()) << name;
}

// Every numeric option refuses what is not a number in its range, naming itself.
TEST_F(ToolOutputs, OptionValuesAreCheckedOrRefused) {
  unsigned cases = 0;
  for (const auto& [name, row] : classes::numeric()) {
    const Tool t{name};
    for (const std::string& c : row.cases) {
      const std::string option = c.substr(0, c.find('|')), rest = c.substr(c.find('|') + 1);
      for (const std::string v : {"-1", "abc", "''", "1.5", "99999999999999999999"}) {
        const std::string given = v[0] == '-' ? option + "=" + v : option + " " + v;
        const auto o = run(t, expand(rest + " " + given, ""));
        ++cases;
        EXPECT_NE(o.rc, 0) << name << " " << given << ": taken\n" << o.out << o.err;
        EXPECT_TRUE(has(o.err, option)) << name << " " << given << ": the refusal does not name it\n"
                                        << o.err;
      }
      expect_inputs_unchanged(name + " " + option);
    }
  }
  EXPECT_GT(cases, 150u);
}

// A configuration that is not one: refused naming the file, and the key or the reason.
TEST_F(ToolOutputs, ConfigurationMessagesNameTheFileKeyAndReason) {
  const std::vector<std::tuple<std::string, std::string, std::string>> bad = {
      {"missing.yaml", "", "No such file or directory"},
      {"two.yaml", "core:\n  threads: 8\n---\ncore:\n  threads: 4\n", "second YAML document"},
      {"scalar.yaml", "core: 5\n", "'core' must be a mapping"},
      {"word.yaml", "core:\n  threads: many\n", ":2: error: 'core.threads'"},
      {"list.yaml", "- core\n", "a configuration is a mapping"},
  };
  for (const auto& [file, text, says] : bad)
    if (!text.empty()) write(file, text);
  unsigned cases = 0;
  for (const auto& [name, row] : classes::configured()) {
    const Tool t{name};
    for (const std::string& c : row.cases)
      for (const auto& [file, text, says] : bad) {
        const std::string args = replace_all(expand(c, ""), "{bad}", path(file));
        const auto o = run(t, args);
        ++cases;
        EXPECT_NE(o.rc, 0) << args << ": taken";
        EXPECT_TRUE(has(o.err, path(file))) << args << ": does not name the file\n" << o.err;
        EXPECT_TRUE(has(o.err, says)) << args << ": does not say '" << says << "'\n" << o.err;
      }
  }
  EXPECT_GT(cases, 50u);
}

// The same fault, the same reason, on every model (the RTL's derived from its fault
// outputs, its register writes and the program).
TEST_F(ToolOutputs, FaultReasonsAreTheSameOnEveryModel) {
  const std::vector<std::pair<std::string, std::string>> programs = {
      {"_start: li r1, 6\n        jalr r2, r1\n        exit\n",
       "pc 0x00000004 (jalr r2, r1): bad jump: jump target 0x00000006 is not a multiple of 4"},
      {"_start: nop\n        .word 0xffffffff\n        exit\n",
       "pc 0x00000004 (.word 0xffffffff): illegal instruction: opcode 0xff is not an instruction"},
      {"_start: li r1, 0x40000\n        jalr r2, r1\n        exit\n",
       "bad jump: target 0x00040000 is outside the instruction store"},
      {"_start: li r1, 0x10002\n        stw r2, 0(r1)\n        exit\n",
       "(stw r2, 0(r1)): misaligned access: stw address 0x00010002 is not a multiple of 4"},
  };
  unsigned cases = 0;
  for (const auto& [source, reason] : programs) {
    files_["{fault}"] = write("fault.s", source);
    std::string iss_line;
    for (const auto& [name, row] : classes::faulting()) {
      const Tool t{name};
      for (const std::string& c : row.cases) {
        const std::string args = expand(c, "");
        const auto o = run(t, args);
        ++cases;
        EXPECT_NE(o.rc, 0) << args;
        // The reason, without what differs by design: the cycle (the ISS has none), and
        // umbra-cosim's and umbra-systemc-run's shorter thread names.
        EXPECT_TRUE(has(o.err + o.out, reason.substr(reason.find(": ") + 2))) << args << "\n"
                                                                              << o.err << o.out;
        if (name != "umbra-sim") continue;
        std::string line;
        std::istringstream err(o.err);
        for (std::string l; std::getline(err, l);)
          if (has(l, "fault: ")) line = l.substr(0, l.find(" (cycle "));
        EXPECT_TRUE(has(line, reason)) << args << "\n" << o.err;
        if (iss_line.empty()) iss_line = line;
        EXPECT_EQ(line, iss_line) << args << ": differs from the ISS's";
      }
    }
  }
  EXPECT_EQ(cases, programs.size() * 6);
}

namespace classes {

// Traces and waveforms: "FILE|a run writing it|the same run's limit option and value".
const Table& bounded() {
  static const Table t = {
      {"umbra-sim",
       {{"{dir}/t.txt|--no-progress {prog} --trace {dir}/t.txt|--trace-limit 200",
         "{dir}/w.rtl.vcd|--no-progress --model rtl --threads 1 {prog} --vcd {dir}/w|--wave-limit 1"},
        ""}},
      {"umbra-cosim",
       {{"{dir}/e.txt|--model rtl {prog} --events {dir}/e.txt|--events-limit 200",
         "{dir}/w.rtl.vcd|{prog} --vcd {dir}/w|--wave-limit 1"},
        ""}},
      {"umbra-systemc-run", {{"{dir}/e.txt|{prog} --events {dir}/e.txt|--events-limit 200"}, ""}},
  };
  return t;
}

}  // namespace classes

// Every trace or waveform a tool writes stops at its limit, says so, and the run goes
// on (a smaller file than the same run's without the limit).  The tools without a row
// write no trace: a tool that gains one must join (its trace option has a limit).
TEST_F(ToolOutputs, TracesAndWaveformsStopAtTheirLimit) {
  unsigned cases = 0;
  for (const auto& [name, row] : classes::bounded()) {
    const Tool t{name};
    for (const std::string& c : row.cases) {
      const size_t a = c.find('|'), b = c.rfind('|');
      const std::string file = expand(c.substr(0, a), ""), args = expand(c.substr(a + 1, b - a - 1), "");
      const std::string limit = c.substr(b + 1);
      ASSERT_EQ(run(t, args + " --" + limit.substr(2, limit.find(' ') - 2) + " 0").rc, 0) << args;
      const auto whole = fs::file_size(file);
      const auto o = run(t, args + " " + limit);
      ++cases;
      EXPECT_EQ(o.rc, 0) << args << " " << limit << "\n" << o.err;
      EXPECT_TRUE(has(o.err, "size limit")) << args << " " << limit << ": no warning\n" << o.err;
      EXPECT_LT(fs::file_size(file), whole) << args << " " << limit;
    }
  }
  for (const auto& [name, path] : umbra_tools::kTools) {
    if (classes::bounded().count(name)) continue;
    const auto o = run(Tool{name}, "--help");
    EXPECT_FALSE(has(o.out, "--trace ") || has(o.out, "--events ") || has(o.out, "--vcd "))
        << name << " writes a trace or waveform and has no row in classes::bounded()";
  }
  EXPECT_EQ(cases, 5u);
}
