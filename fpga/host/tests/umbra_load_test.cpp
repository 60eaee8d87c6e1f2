// umbra-load against hostile arguments (issue 15), without a board: every bad
// --timeout, --threads and --dump is refused (exit 2) before the device is opened,
// so each case also names a device that does not exist, which would give exit 3 if
// it were reached.  A board that never answers is simulated by a pseudo-terminal no
// one reads: the tool must give up and name the device.  The checks against what the
// board reports (thread count, memory size) are tested on a BoardInfo directly.  A
// fake board (fake_board.h) behind a pseudo-terminal answers the protocol: a manifest's
// domain and `commands:` runs are skipped, with the reason, on a board that refuses
// DOORBELL, and sent to the board and checked on one that takes it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "board_link.h"
#include "fake_board.h"

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

// A FakeBoard on the master side of a pseudo-terminal, served by a thread: the
// slave is the serial device umbra-load opens.
class PtyBoard {
 public:
  explicit PtyBoard(umbra::board::FakeBoard& b) : board_(b) {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) return;
    tty_ = ::ptsname(master_);
    thread_ = std::thread([this] { serve(); });
  }
  ~PtyBoard() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (master_ >= 0) ::close(master_);
  }
  const std::string& tty() const { return tty_; }

 private:
  void serve() {
    std::vector<uint8_t> in(4096), out(1 << 16);
    while (!stop_) {
      pollfd p{master_, POLLIN, 0};
      if (::poll(&p, 1, 10) <= 0 || !(p.revents & POLLIN)) {
        if (p.revents & POLLHUP)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));  // no one has it open
        continue;
      }
      const ssize_t n = ::read(master_, in.data(), in.size());
      if (n <= 0) continue;
      board_.write(std::vector<uint8_t>(in.begin(), in.begin() + n));
      for (size_t k; (k = board_.read(out.data(), out.size(), 0)) > 0;)
        for (size_t done = 0; done < k;) {
          const ssize_t w = ::write(master_, out.data() + done, k - done);
          if (w > 0) done += size_t(w);
        }
    }
  }
  umbra::board::FakeBoard& board_;
  int master_ = -1;
  std::string tty_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
};

struct ManifestRun {
  int rc;
  std::string out, err;
};

ManifestRun load_manifest_on(umbra::board::FakeBoard& board, const std::string& manifest) {
  const fs::path dir = fs::temp_directory_path() / ("umbra_load_manifest_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  int status = -1;
  {
    PtyBoard pty(board);
    EXPECT_FALSE(pty.tty().empty());
    status =
        std::system(("timeout 60 " + std::string(UMBRA_LOAD_EXE) + " --manifest " + manifest + " -d " +
                     pty.tty() + " --timeout 1 >" + (dir / "out").string() + " 2>" + (dir / "err").string())
                        .c_str());
  }
  auto slurp = [](const fs::path& f) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  ManifestRun r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
  fs::remove_all(dir);
  return r;
}

const std::string kMandelbrot2d = std::string(UMBRA_EXAMPLES_DIR) + "/mandelbrot2d.yaml";

TEST(UmbraLoadManifest, DomainAndCommandRunsAreSkippedOnABoardWithoutACommandProcessor) {
  umbra::board::FakeBoard board;
  board.has_doorbell = false;
  board.busy_ms = 0;
  const ManifestRun r = load_manifest_on(board, kMandelbrot2d);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("mandelbrot2d domain=100x80: skipped: the board has no command processor (DOORBELL "
                       "refused), which a domain launch needs"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("mandelbrot2d commands: skipped: the board has no command processor (DOORBELL "
                       "refused), which a command list needs"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(board.doorbells, 0u);
}

// The fake's command processor runs no kernel, so the image stays undrawn: the run
// reaches the board (its buffer rung) and is judged by the example's reference.
TEST(UmbraLoadManifest, ACommandRunGoesToABoardWithACommandProcessorAndIsChecked) {
  umbra::board::FakeBoard board;
  board.busy_ms = 0;
  const ManifestRun r = load_manifest_on(board, kMandelbrot2d);
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("mandelbrot2d commands: FAIL"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("skipped"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fb word 0 ("), std::string::npos) << r.out;
  EXPECT_EQ(board.doorbells, 2u) << "the domain run and the command run";
}

}  // namespace
