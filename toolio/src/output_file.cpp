// OutputFile, write_output, check_writable and the standard-output checks (see
// umbra/output_file.h).  The writes go through stdio, whose buffering the tools already
// rely on; the stream adaptor hands each piece to fwrite so that the errno of a short
// write is caught where it happens, not guessed at close.
#include "umbra/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ext/stdio_sync_filebuf.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <streambuf>

namespace umbra {

namespace {

std::string describe(const std::string& option, const std::string& path) {
  if (path == "-") return option.empty() ? "standard output" : option + " '-' (standard output)";
  return option.empty() ? "'" + path + "'" : option + " '" + path + "'";
}

bool is_regular(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

// An unbuffered streambuf over the OutputFile's FILE* (stdio buffers); the first
// failure's errno is kept in the owner.
class OutputFile::Buf final : public std::streambuf {
 public:
  explicit Buf(OutputFile& owner) : owner_(owner) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (!owner_.file_) return 0;
    errno = 0;
    const size_t done = std::fwrite(s, 1, size_t(n), owner_.file_);
    if (done != size_t(n) && !owner_.first_errno_) owner_.first_errno_ = errno ? errno : EIO;
    return std::streamsize(done);
  }
  int sync() override {
    if (!owner_.file_) return -1;
    if (std::fflush(owner_.file_) != 0) {
      if (!owner_.first_errno_) owner_.first_errno_ = errno ? errno : EIO;
      return -1;
    }
    return 0;
  }

 private:
  OutputFile& owner_;
};

OutputFile::OutputFile(const std::string& path, const std::string& option, bool binary)
    : path_(path), option_(option) {
  if (path.empty()) throw OutputError(option + ": the file name is empty");
  if (path == "-") {
    file_ = stdout;
    return;
  }
  file_ = std::fopen(path.c_str(), binary ? "wb" : "w");
  if (!file_) throw OutputError(describe(option, path) + ": cannot open: " + std::strerror(errno));
}

OutputFile::OutputFile() = default;

OutputFile::OutputFile(OutputFile&& o) noexcept {
  *this = std::move(o);
}

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this == &o) return *this;
  if (file_ && file_ != stdout) std::fclose(file_);
  path_ = std::move(o.path_);
  option_ = std::move(o.option_);
  file_ = o.file_;
  first_errno_ = o.first_errno_;
  o.file_ = nullptr;
  // The adaptor points at its owner: make a new one rather than move it.
  buf_.reset();
  stream_.reset();
  o.buf_.reset();
  o.stream_.reset();
  return *this;
}

OutputFile::~OutputFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
}

std::ostream& OutputFile::stream() {
  if (!stream_) {
    buf_ = std::make_unique<Buf>(*this);
    stream_ = std::make_unique<std::ostream>(buf_.get());
  }
  return *stream_;
}

void OutputFile::fail_and_remove(const char* what, int err) {
  std::string msg = describe(option_, path_) + ": " + what + ": " + std::strerror(err);
  if (path_ != "-" && is_regular(path_) && ::unlink(path_.c_str()) == 0)
    msg += " (the partial file was removed)";
  throw OutputError(msg);
}

void OutputFile::close() {
  if (!file_) return;
  if (stream_) stream_->flush();
  std::FILE* f = file_;
  file_ = nullptr;
  // A stdio writer's failure (fprintf) left its errno; nothing since has cleared it.
  const int earlier = errno;
  errno = 0;
  const bool flushed = std::fflush(f) == 0;
  if (!flushed && !first_errno_) first_errno_ = errno ? errno : EIO;
  if (std::ferror(f) && !first_errno_) first_errno_ = earlier ? earlier : EIO;
  if (f == stdout) {
    std::clearerr(f);  // reported here, once; check_stdout_at_exit must not say it again
    if (first_errno_) {
      const int e = first_errno_;
      first_errno_ = 0;
      throw OutputError(describe(option_, path_) + ": cannot write: " + std::strerror(e));
    }
    return;
  }
  errno = 0;
  const bool closed = std::fclose(f) == 0;
  if (first_errno_) fail_and_remove("cannot write", first_errno_);
  if (!closed) fail_and_remove("cannot close", errno ? errno : EIO);
}

void write_output(const std::string& path, const std::string& option, const std::string& contents,
                  bool binary) {
  OutputFile f(path, option, binary);
  f.stream().write(contents.data(), std::streamsize(contents.size()));
  f.close();
}

void write_output_if_changed(const std::string& path, const std::string& option,
                             const std::string& contents) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == contents) return;
  }
  write_output(path, option, contents, true);
}

void check_writable(const std::string& path, const std::string& option) {
  // An existing file is opened without O_TRUNC (its contents stay until the writer
  // replaces them); a new one is created and removed again.
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  bool created = false;
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    created = fd >= 0;
  }
  if (fd < 0) throw OutputError(describe(option, path) + ": cannot open: " + std::strerror(errno));
  ::close(fd);
  if (created) ::unlink(path.c_str());
}

namespace {

// Standard output's first failure, kept where it happens (see install_stdout below).
int g_stdout_errno = 0;
bool g_stdout_installed = false;

ssize_t stdout_write(void*, const char* buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t k = ::write(STDOUT_FILENO, buf + done, n - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      if (!g_stdout_errno) g_stdout_errno = k < 0 ? errno : EIO;
      return done ? ssize_t(done) : -1;
    }
    done += size_t(k);
  }
  return ssize_t(n);
}

// stdio forgets why a write failed, and by the end of a run errno is long overwritten
// (CLI11 and strtol clear it): the reason "/dev/full" gives would read "Input/output
// error".  So stdout becomes a stdio stream over a write function that keeps the first
// failure's errno (fopencookie, glibc), and std::cout writes to that stream too
// (libstdc++'s stdio_sync_filebuf, the buffer cout already uses over stdout).  Both
// are made once, at the start of main, before anything is written.
void install_stdout() {
  if (g_stdout_installed) return;
  std::FILE* f = ::fopencookie(nullptr, "w", cookie_io_functions_t{nullptr, stdout_write, nullptr, nullptr});
  if (!f) return;
  std::fflush(stdout);
  if (::isatty(STDOUT_FILENO)) std::setvbuf(f, nullptr, _IOLBF, 0);
  stdout = f;
  static auto* buf = new __gnu_cxx::stdio_sync_filebuf<char>(f);  // lives until exit
  std::cout.rdbuf(buf);
  g_stdout_installed = true;
}

}  // namespace

void check_stdout() {
  const int earlier = errno;
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int now = errno;
  if (flushed && !std::ferror(stdout) && !g_stdout_errno && std::cout.good()) return;
  const int e = g_stdout_errno ? g_stdout_errno : now ? now : earlier;
  g_stdout_errno = 0;
  std::clearerr(stdout);
  std::cout.clear();
  throw OutputError(std::string("standard output: cannot write: ") + std::strerror(e ? e : EIO));
}

namespace {

const char* g_tool = "";
int g_exit_code = 1;

void stdout_at_exit() {
  try {
    check_stdout();
  } catch (const OutputError& e) {
    std::fprintf(stderr, "%s: error: %s\n", g_tool, e.what());
    std::fflush(nullptr);
    std::_Exit(g_exit_code);
  }
}

}  // namespace

void check_stdout_at_exit(const char* tool, int exit_code) {
  static bool registered = false;
  g_tool = tool;
  g_exit_code = exit_code;
  install_stdout();
  if (!registered) std::atexit(stdout_at_exit);
  registered = true;
}

}  // namespace umbra
