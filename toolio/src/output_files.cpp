// OutputFiles (see umbra/output_files.h): the same-file checks, the temporary files
// and the renames.  POSIX open/write/close rather than iostreams, because their
// errors (ENOSPC on /dev/full, EISDIR, EACCES) must reach the message.
#include "umbra/output_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace umbra {

namespace fs = std::filesystem;

namespace {

// True if writing `out` would replace the contents of `in`.  Names are compared
// after resolving what exists of them (symlinks, "..", "./"), and existing files by
// device and inode.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  if (fs::equivalent(a, b, ec1)) return true;
  const fs::path ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  if (!ec1 && !ec2) return ca == cb;
  return fs::absolute(a, ec1).lexically_normal() == fs::absolute(b, ec2).lexically_normal();
}

// An existing target that is not a regular file (a device, a FIFO): it cannot be
// renamed over, and writing to it cannot destroy an input's contents.
bool is_special(const std::string& path) {
  std::error_code ec;
  const fs::file_status s = fs::status(path, ec);
  return !ec && fs::exists(s) && !fs::is_regular_file(s) && !fs::is_directory(s);
}

std::string quote(const std::string& option, const std::string& path) {
  return option + " '" + path + "'";
}

[[noreturn]] void fail_errno(const std::string& option, const std::string& path, const char* what) {
  throw OutputError(quote(option, path) + ": " + what + ": " + std::strerror(errno));
}

// Writes all of `s` to fd; false with errno set on failure.
bool write_all(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

void write_in_place(const std::string& option, const std::string& path, const std::string& contents) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) fail_errno(option, path, "cannot open");
  const bool ok = write_all(fd, contents);
  const int saved = errno;
  if (::close(fd) != 0 || !ok) {
    if (!ok) errno = saved;
    fail_errno(option, path, "cannot write");
  }
}

// A new file next to `path` (same directory, so the rename cannot cross file
// systems), created with the mode a plain open would give it (0666 less the umask).
// `path` is what the user named, for messages; `real` the file to replace.
std::string write_temporary(const std::string& option, const std::string& path, const std::string& real,
                            const std::string& contents) {
  const fs::path target(real);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (int attempt = 0;; ++attempt) {
    const std::string tmp = (dir / ("." + target.filename().string() + "." + std::to_string(::getpid()) +
                                    "." + std::to_string(attempt) + ".tmp"))
                                .string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST && attempt < 100) continue;
      fail_errno(option, path, "cannot create");
    }
    const bool ok = write_all(fd, contents);
    const int saved = errno;
    if (::close(fd) != 0 || !ok) {
      if (!ok) errno = saved;
      const int e = errno;
      ::unlink(tmp.c_str());
      errno = e;
      fail_errno(option, path, "cannot write");
    }
    return tmp;
  }
}

}  // namespace

void OutputFiles::add_input(const std::string& path, const std::string& what) {
  if (!path.empty() && path != "-") inputs_.push_back({path, what + " '" + path + "'"});
}

void OutputFiles::add_inputs(const std::vector<std::string>& paths, const std::string& what) {
  for (size_t i = 0; i < paths.size(); ++i) {
    if (i == 0)
      add_input(paths[i], what);
    else if (!paths[i].empty())
      inputs_.push_back({paths[i], "'" + paths[i] + "', which " + what + " '" + paths[0] + "' includes"});
  }
}

void OutputFiles::add(const std::string& path, std::string contents, const std::string& option) {
  outputs_.push_back({path, std::move(contents), option});
}

void OutputFiles::remove_on_commit(const std::string& path) {
  removals_.push_back(path);
}

void OutputFiles::check() const {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Output& o = outputs_[i];
    std::error_code ec;
    if (o.path.empty()) throw OutputError(o.option + ": the file name is empty");
    if (fs::is_directory(o.path, ec)) throw OutputError(quote(o.option, o.path) + " is a directory");
    if (!is_special(o.path))
      for (const Input& in : inputs_)
        if (same_file(o.path, in.path))
          throw OutputError(quote(o.option, o.path) + " is " + in.what + "; refusing to overwrite it");
    for (size_t j = 0; j < i; ++j)
      if (same_file(o.path, outputs_[j].path))
        throw OutputError(quote(outputs_[j].option, outputs_[j].path) + " and " + quote(o.option, o.path) +
                          " are the same file");
  }
}

void OutputFiles::commit() {
  check();
  // Devices first: they cannot be undone, but nothing new has been put in place yet
  // if one of them fails.
  for (const Output& o : outputs_)
    if (is_special(o.path)) write_in_place(o.option, o.path, o.contents);
  // A symlink is written through, not replaced: the temporary goes next to the file it
  // names and is renamed onto that file.  (/dev/stdout redirected to a file must not
  // become a regular file in /dev.)
  std::vector<std::pair<std::string, const Output*>> temporaries;
  std::vector<std::string> targets;
  try {
    for (const Output& o : outputs_)
      if (!is_special(o.path)) {
        std::error_code ec;
        const fs::path real = fs::weakly_canonical(o.path, ec);
        targets.push_back(ec ? o.path : real.string());
        temporaries.emplace_back(write_temporary(o.option, o.path, targets.back(), o.contents), &o);
      }
  } catch (...) {
    for (const auto& t : temporaries) ::unlink(t.first.c_str());
    throw;
  }
  for (size_t k = 0; k < temporaries.size(); ++k)
    if (std::rename(temporaries[k].first.c_str(), targets[k].c_str()) != 0) {
      const int e = errno;
      for (size_t j = k; j < temporaries.size(); ++j) ::unlink(temporaries[j].first.c_str());
      errno = e;
      fail_errno(temporaries[k].second->option, temporaries[k].second->path, "cannot rename into place");
    }
  for (const std::string& r : removals_) {
    std::error_code ec;
    bool is_input = false;
    for (const Input& in : inputs_) is_input |= same_file(r, in.path);
    if (!is_input && fs::is_regular_file(r, ec)) fs::remove(r, ec);
  }
}

void OutputFiles::discard() const noexcept {
  for (const Output& o : outputs_) {
    std::error_code ec;
    if (!fs::is_regular_file(o.path, ec)) continue;
    bool is_input = false;
    for (const Input& in : inputs_) is_input |= same_file(o.path, in.path);
    if (!is_input) fs::remove(o.path, ec);
  }
}

}  // namespace umbra
