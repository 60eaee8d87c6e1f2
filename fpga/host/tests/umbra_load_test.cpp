// umbra-load against hostile arguments (issue 15), without a board: every bad
// --timeout, --threads and --dump is refused (exit 2) before the device is opened,
// so each case also names a device that does not exist, which would give exit 3 if
// it were reached.  A board that never answers is simulated by a pseudo-terminal no
// one reads: the tool must give up and name the device.  The checks against what the
// board reports (thread count, memory size) are tested on a BoardInfo directly.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "board_link.h"

namespace {

namespace fs = std::filesystem;

struct LoadRun {
  int rc;
  std::string err;
  double seconds;
};

class UmbraLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("umbra_load_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "p.s") << "result: .word 0\n_start: exit\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  LoadRun load(const std::string& args) const {
    const fs::path err = dir_ / "stderr.txt";
    const auto t0 = std::chrono::steady_clock::now();
    const int status =
        std::system(("timeout 30 " + std::string(UMBRA_LOAD_EXE) + " " + (dir_ / "p.s").string() + " " +
                     args + " 2>" + err.string() + " >/dev/null")
                        .c_str());
    std::ifstream f(err);
    std::stringstream ss;
    ss << f.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ss.str(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  }
  fs::path dir_;
};

TEST_F(UmbraLoad, TimeoutMustBeFinitePositiveAndSane) {
  for (const std::string t : {"-1", "0", "1e12", "86401", "nan", "inf", "-inf", "ten", "5s"}) {
    const LoadRun r = load("-d /nonexistent/tty --timeout " + t);
    EXPECT_EQ(r.rc, 2) << t << ": " << r.err;
    EXPECT_NE(r.err.find("--timeout: " + t + ": expected seconds, a number above 0 and at most 86400"),
              std::string::npos)
        << r.err;
    EXPECT_LT(r.seconds, 10) << t;
  }
  // A sane value gets as far as the device.
  const LoadRun ok = load("-d /nonexistent/tty --timeout 0.5");
  EXPECT_EQ(ok.rc, 3) << ok.err;
  EXPECT_NE(ok.err.find("/nonexistent/tty"), std::string::npos) << ok.err;
}

TEST_F(UmbraLoad, ThreadsAndDumpLengthAreCheckedBeforeTheBoard) {
  for (const std::string t : {"0", "-3", "x"}) {
    const LoadRun r = load("-d /nonexistent/tty --threads " + t);
    EXPECT_EQ(r.rc, 2) << t << ": " << r.err;
    EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
  }
  LoadRun r = load("-d /nonexistent/tty --dump result:4294967295");
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("--dump result:4294967295: 4294967295 words are more than the 32-bit address space"),
            std::string::npos)
      << r.err;
  r = load("-d /nonexistent/tty --dump result:0");
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("the word count must be a positive number"), std::string::npos) << r.err;
}

TEST_F(UmbraLoad, NoReplyNamesTheDevice) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string tty = ::ptsname(master);
  const LoadRun r = load("-d " + tty);
  ::close(master);
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_NE(r.err.find("INFO: no reply from the board on " + tty), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, 20);
}

TEST(BoardChecks, LaunchAndReadsAgainstWhatTheBoardReports) {
  umbra::board::BoardInfo info;
  info.threads = 8;
  info.mem_bytes = 65536;
  using umbra::board::check_launch;
  using umbra::board::check_read;
  using umbra::board::LinkError;
  EXPECT_NO_THROW(check_launch(info, 1));
  EXPECT_NO_THROW(check_launch(info, 8));
  for (uint32_t bad : {0u, 9u, 99999u}) {
    try {
      check_launch(info, bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const LinkError& e) {
      EXPECT_EQ(std::string(e.what()), "--threads " + std::to_string(bad) + ": the board runs 1..8 threads");
    }
  }
  EXPECT_NO_THROW(check_read(info, 0, 16384, "--dump a:16384"));
  EXPECT_NO_THROW(check_read(info, 65532, 1, "--dump b:1"));
  EXPECT_THROW(check_read(info, 65532, 2, "x"), LinkError);
  EXPECT_THROW(check_read(info, 2, 1, "x"), LinkError);
  try {
    check_read(info, 0x100, 4294967295u, "--dump foo:4294967295");
    ADD_FAILURE() << "accepted";
  } catch (const LinkError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "--dump foo:4294967295: 4294967295 words at 0x00000100 reach past the board's 65536 bytes of memory");
  }
}

}  // namespace
