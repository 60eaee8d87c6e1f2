// umbra-as as users run it: exit status, diagnostics on stderr, which files appear
// in which format, --config and --listing.  Runs the built executable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "umbra/program.h"

namespace {

namespace fs = std::filesystem;
const std::string kData = UMBRA_ASM_TEST_DATA;

struct CliRun {
  int rc;
  std::string err;
};

class AsmCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("umbra_as_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& n) const { return (dir_ / n).string(); }
  void write(const std::string& n, const std::string& s) const { std::ofstream(path(n)) << s; }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  CliRun as(const std::string& args) const {
    const std::string err = path("stderr.txt");
    const std::string cmd = std::string(UMBRA_AS_EXE) + " " + args + " 2>" + err;
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
  }
  fs::path dir_;
};

TEST_F(AsmCli, ElfByDefault) {
  write("a.s", "_start: li r1, 5\nexit\n.data\n.word 9\n");
  const CliRun r = as(path("a.s") + " -o " + path("a.out"));
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const umbra::Program p = umbra::obj::read_file(path("a.out"));
  EXPECT_EQ(p.text.size(), 2u);
  EXPECT_EQ(p.data.size(), 4u);
}

TEST_F(AsmCli, HexWritesDataImageOnlyWhenThereIsData) {
  write("a.s", "nop\n.data\n.word 9\n");
  EXPECT_EQ(as(path("a.s") + " -f hex -o " + path("a.hex")).rc, 0);
  EXPECT_TRUE(fs::exists(path("a.hex")));
  ASSERT_TRUE(fs::exists(path("a.hex.data.hex")));
  EXPECT_NE(slurp(path("a.hex.data.hex")).find("@00004000\n00000009\n"), std::string::npos);
  // Reassembled without data: the stale data image must not survive next to it.
  write("a.s", "nop\n");
  EXPECT_EQ(as(path("a.s") + " -o " + path("a.hex")).rc, 0);  // format from the extension
  EXPECT_FALSE(fs::exists(path("a.hex.data.hex")));
}

TEST_F(AsmCli, BinWarnsAboutWhatItCannotHold) {
  write("a.s", "nop\n_start: exit\n.data\n.word 1\n");
  const CliRun r = as(path("a.s") + " -f bin -o " + path("a.bin"));
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.err.find("4 bytes of .data are not in a raw binary"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("entry point"), std::string::npos) << r.err;
  EXPECT_EQ(fs::file_size(path("a.bin")), 8u);
}

TEST_F(AsmCli, ErrorsExitNonZeroAndWriteNothing) {
  const CliRun r = as(kData + "/broken.s --config " + kData + "/regs32.yaml -o " + path("b.elf"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_FALSE(fs::exists(path("b.elf")));
  EXPECT_NE(r.err.find("broken.s:14:21: error: register 'r40' is beyond this target's 32 registers"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("broken.s: 12 errors, no output written"), std::string::npos) << r.err;
  // Without the 32-register configuration r40 is fine.
  EXPECT_NE(as(kData + "/broken.s -o " + path("b.elf")).err.find("11 errors"), std::string::npos);
}

// --config's groups: the error names the instruction, its group and the
// configuration with its file, at file:line:col with the caret; nothing is written.
TEST_F(AsmCli, AnInstructionOutsideTheConfigurationsGroupsIsAnError) {
  write("lean.yaml", "name: lean\ncore:\n  groups: [base, mulh]\n");
  write("a.s", "_start: li r1, 1\n        itof r2, r1\n        exit\n");
  const CliRun r = as(path("a.s") + " --config " + path("lean.yaml") + " -o " + path("a.elf"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_FALSE(fs::exists(path("a.elf")));
  EXPECT_NE(r.err.find(path("a.s") +
                       ":2:9: error: 'itof' is in extension group 'fp32cvt', which configuration "
                       "'lean' (" +
                       path("lean.yaml") +
                       ") does not have (core.groups: base, mulh)\n        itof r2, r1\n"
                       "        ^\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(as(path("a.s") + " -o " + path("a.elf")).rc, 0);
}

TEST_F(AsmCli, ListingAndIncludeDirs) {
  const CliRun r =
      as(kData + "/inc_main.s -I " + kData + "/sub -o " + path("i.elf") + " --listing " + path("i.lst"));
  EXPECT_EQ(r.rc, 0) << r.err;
  const std::string l = slurp(path("i.lst"));
  EXPECT_NE(l.find("# " + kData + "/sub/lib.s"), std::string::npos) << l;
  EXPECT_NE(l.find("_start: li r1, ANSWER"), std::string::npos) << l;
}

TEST_F(AsmCli, BadCommandLineAndBadConfig) {
  EXPECT_NE(as("").rc, 0);                                  // no input
  EXPECT_NE(as(kData + "/inc_main.s -o x -f coff").rc, 0);  // unknown format
  write("bad.yaml", "core:\n  registers: 999\n");
  const CliRun r = as(kData + "/inc_main.s -o " + path("x") + " --config " + path("bad.yaml"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("bad.yaml:2"), std::string::npos) << r.err;
  write("self.s", "nop\n");  // -o naming the source must not destroy it
  EXPECT_EQ(as(path("self.s") + " -o " + path("self.s")).rc, 1);
  EXPECT_EQ(slurp(path("self.s")), "nop\n");
}

}  // namespace
