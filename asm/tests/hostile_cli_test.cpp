// Hostile input to umbra-as and umbra-dis, as a user (or a script gone wrong) types
// it: endless streams, outputs that name an input, devices that refuse writes, paths
// that cannot be created, directories, binary garbage, literals and programs too
// large for the target.  Each case checks the command's exit code, that the message
// names the file or option and what is wrong, that it ends within seconds, and that
// no new (or stale) output is left behind.  Runs the built executables.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct ToolRun {
  int rc;
  std::string out, err;
  double seconds;
};

class Hostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("umbra_hostile_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("p.s", "_start: li r1, 5\nexit\n.data\n.word 7\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& n) const { return (dir_ / n).string(); }
  void write(const std::string& n, const std::string& s) const {
    std::ofstream(path(n), std::ios::binary) << s;
  }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  // Runs a shell command line in the test's directory; `timeout` turns a hang into
  // a failure (exit 124) instead of a stuck suite.
  ToolRun sh(const std::string& cmd) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const auto t0 = std::chrono::steady_clock::now();
    const int status = std::system(
        ("cd '" + dir_.string() + "' && timeout 30 sh -c '" + cmd + "' >" + out + " 2>" + err).c_str());
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err), s};
  }
  static std::string as() { return UMBRA_AS_EXE; }
  static std::string dis() { return UMBRA_DIS_EXE; }
  fs::path dir_;
};

#define EXPECT_HAS(text, piece) EXPECT_NE((text).find(piece), std::string::npos) << (text)

TEST_F(Hostile, DisRefusesAnEndlessInputInsteadOfRunningOutOfMemory) {
  for (const std::string& cmd : {dis() + " /dev/zero", "yes | " + dis() + " -f bin /dev/stdin"}) {
    const ToolRun r = sh(cmd);
    EXPECT_EQ(r.rc, 1) << cmd << "\n" << r.err;
    EXPECT_HAS(r.err, "longer than 256 MiB, more than any program image holds");
    EXPECT_HAS(r.err, cmd.find("zero") != std::string::npos ? "/dev/zero" : "/dev/stdin");
    EXPECT_EQ(r.out, "");
    EXPECT_LT(r.seconds, 20) << cmd;
  }
}

TEST_F(Hostile, DisReadsAStreamOfSaneSize) {
  ASSERT_EQ(sh(as() + " p.s -o p.elf").rc, 0);
  const ToolRun r = sh("cat p.elf | " + dis() + " /dev/stdin");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_HAS(r.out, "_start:");
  EXPECT_HAS(r.out, "exit");
}

TEST_F(Hostile, ADirectoryAsInputIsNamedAsOne) {
  fs::create_directories(path("d"));
  ToolRun r = sh(dis() + " d");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "d: error: is a directory");
  r = sh(as() + " d -o x.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "d: error: is a directory, not an assembly source file");
  r = sh(as() + " p.s -o x.elf --config d");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "d: error: is a directory, not a configuration file");
  EXPECT_EQ(r.err.find("underflow"), std::string::npos) << r.err;
  r = sh(as() + " p.s -o d");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "-o 'd' is a directory");
}

TEST_F(Hostile, OutputsThatWouldOverwriteAnInputAreRefused) {
  ASSERT_EQ(sh(as() + " p.s -o p.elf").rc, 0);
  const std::string elf = slurp(path("p.elf")), src = slurp(path("p.s"));
  ToolRun r = sh(dis() + " p.elf -o p.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "-o 'p.elf' is the program image 'p.elf'");
  EXPECT_EQ(slurp(path("p.elf")), elf);
  r = sh(dis() + " p.elf -o ./sub/../p.elf");  // another spelling of the same file
  EXPECT_EQ(r.rc, 1);
  EXPECT_EQ(slurp(path("p.elf")), elf);

  r = sh(as() + " p.s -o p2.elf --listing p.s");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "--listing 'p.s' is the program 'p.s'");
  EXPECT_EQ(slurp(path("p.s")), src);
  EXPECT_FALSE(fs::exists(path("p2.elf")));
  fs::create_symlink("p.s", path("link.s"));  // the same file under another name
  r = sh(as() + " p.s -o link.s");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "-o 'link.s' is the program 'p.s'");
  EXPECT_EQ(slurp(path("p.s")), src);
  // An .include'd file is an input too.
  write("inc.s", "nop\n");
  write("main.s", ".include \"inc.s\"\nexit\n");
  r = sh(as() + " main.s -o m.elf --listing inc.s");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "--listing 'inc.s' is 'inc.s', which the program 'main.s' includes");
  EXPECT_EQ(slurp(path("inc.s")), "nop\n");
  // Two outputs that are one file.
  r = sh(as() + " p.s -o o.elf --listing o.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "-o 'o.elf' and --listing 'o.elf' are the same file");
}

TEST_F(Hostile, WriteErrorsAreReported) {
  for (const std::string& cmd : {as() + " p.s -o /dev/full", as() + " p.s -o p.elf --listing /dev/full"}) {
    const ToolRun r = sh(cmd);
    EXPECT_EQ(r.rc, 1) << cmd;
    EXPECT_HAS(r.err, "'/dev/full': cannot write: No space left on device");
  }
  EXPECT_FALSE(fs::exists(path("p.elf")));  // all outputs of the run or none
  ASSERT_EQ(sh(as() + " p.s -o p.elf").rc, 0);
  ToolRun r = sh(dis() + " p.elf -o /dev/full");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "-o '/dev/full': cannot write: No space left on device");
  r = sh(dis() + " p.elf >/dev/full");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "standard output");
}

TEST_F(Hostile, ASymlinkedOutputIsWrittenThroughNotReplaced) {
  write("real.elf", "old");
  fs::create_symlink("real.elf", path("link.elf"));
  const ToolRun r = sh(as() + " p.s -o link.elf");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link.elf")));
  EXPECT_EQ(slurp(path("real.elf")).substr(0, 4),
            "\x7f"
            "ELF");
  // A pipe is written in place (it cannot be renamed over).
  const ToolRun piped = sh(as() + " p.s -o /dev/stdout | wc -c");
  EXPECT_EQ(piped.rc, 0) << piped.err;
  EXPECT_EQ(std::stoul(piped.out), fs::file_size(path("real.elf")));
}

TEST_F(Hostile, AFailedRunLeavesNoPartialOrStaleOutput) {
  // The hex image's data file cannot be written: neither file may appear.
  fs::create_directories(path("h.hex.data.hex"));
  ToolRun r = sh(as() + " p.s -o h.hex");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "the data image of -o 'h.hex.data.hex' is a directory");
  EXPECT_FALSE(fs::exists(path("h.hex")));
  // The listing cannot be created: no image either.
  r = sh(as() + " p.s -o x.elf --listing /nonexistent/x.lst");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "--listing '/nonexistent/x.lst': cannot create: No such file or directory");
  EXPECT_FALSE(fs::exists(path("x.elf")));
  // A failed assembly removes the image an earlier run left under that name, so it
  // cannot be run as if it were this source's.
  ASSERT_EQ(sh(as() + " p.s -o x.elf --listing x.lst").rc, 0);
  ASSERT_TRUE(fs::exists(path("x.elf")));
  write("bad.s", "bogus r1\n");
  r = sh(as() + " bad.s -o x.elf --listing x.lst");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "bad.s: 1 error, no output written");
  EXPECT_FALSE(fs::exists(path("x.elf")));
  EXPECT_FALSE(fs::exists(path("x.lst")));
  // No temporary files are left anywhere.
  for (const auto& e : fs::directory_iterator(dir_)) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(Hostile, AssemblerMessagesSayWhatIsWrong) {
  fs::create_directories(path("d"));
  write("a.s",
        ".include \"d\"\n"
        ".include \"/dev/zero\"\n"
        "li r1, 9223372036854775808\n"
        ".align 2147483648\n"
        ".align 3\n");
  const ToolRun r = sh(as() + " a.s -o a.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "a.s:1:10: error: include file 'd' is a directory");
  EXPECT_HAS(r.err, "a.s:2:10: error: include file '/dev/zero' is not a regular file");
  EXPECT_HAS(r.err, "a.s:3:8: error: number '9223372036854775808' is out of range");
  EXPECT_HAS(r.err, "a.s:4:8: error: .align 2147483648 is too large (at most 2^30)");
  EXPECT_HAS(r.err, "a.s:5:8: error: .align 3 is not a power of 2");
  EXPECT_LT(r.seconds, 20);
}

TEST_F(Hostile, BinaryGarbageIsEscapedNotEchoed) {
  // An escape sequence, a bell and invalid UTF-8 in a source line; valid UTF-8 in a
  // comment stays as it is.
  write("g.s", "li r2, \x01\xff\x1b[31m\x07\n# caf\xc3\xa9\n");
  const ToolRun r = sh(as() + " g.s -o g.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err, "li r2, \\x01\\xff\\x1b[31m\\x07\n       ^\n");
  for (char c : r.err) EXPECT_TRUE(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) << int(c) << r.err;
}

TEST_F(Hostile, ProgramsLargerThanTheConfiguredTargetAreRefused) {
  const std::string cfg = std::string(UMBRA_SOURCE_DIR) + "/configs/default.yaml";  // 4096 words, 1 MiB
  std::string big = "_start:\n", fits = "_start:\n";
  for (int i = 0; i < 4096; ++i) big += "nop\n";
  for (int i = 0; i < 4095; ++i) fits += "nop\n";
  write("big.s", big + "exit\n");
  write("fits.s", fits + "exit\n");
  ToolRun r = sh(as() + " big.s --config " + cfg + " -o big.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err,
             "big.s:4098:1: error: the program grows past the target's instruction store of 4096 words");
  EXPECT_FALSE(fs::exists(path("big.elf")));
  EXPECT_EQ(sh(as() + " fits.s --config " + cfg + " -o fits.elf").rc, 0);
  EXPECT_EQ(sh(as() + " big.s -o big.elf").rc, 0);  // without a target, only the assembler's bounds

  write("data.s", "nop\n.data\n.space 0xf0000\nx: .word 1\n");  // 0x10000 + 0xf0004 > 1 MiB
  r = sh(as() + " data.s --config " + cfg + " -o d.elf");
  EXPECT_EQ(r.rc, 1);
  EXPECT_HAS(r.err,
             "data.s:4:4: error: section .data would extend past the target's data memory, which ends "
             "at 0x100000 (memory.bytes)");
  write("data_fits.s", "nop\n.data\n.space 0xefffc\nx: .word 1\n");
  EXPECT_EQ(sh(as() + " data_fits.s --config " + cfg + " -o d.elf").rc, 0);
}

}  // namespace
