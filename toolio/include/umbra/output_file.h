// Checked writes for the files a tool streams while it runs (a trace, events, a CSV,
// statistics) and for standard output.
//
// Every write the tools make is checked (issue 37): a failed open, write, flush or close
// is an OutputError naming the option, the file and the reason (the errno text), and
// the tool exits non-zero.  iostreams and stdio forget why a write failed; OutputFile
// keeps the errno of the first failure, so "/dev/full" reads "No space left on device"
// and not "write failed".  A regular file whose writing failed is removed, so that no
// truncated trace or CSV is taken for the whole.  Where the output paths may be (not an
// input, not another output) is OutputFiles::check()'s rule (umbra/output_files.h); the
// tools call it before opening anything here.
#pragma once
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

#include "umbra/output_files.h"

namespace umbra {

class OutputFile {
 public:
  OutputFile();  // no file: the option was not given
  // Opens `path` for writing ("-": standard output, which close() flushes and checks
  // but leaves open).  Throws OutputError "OPTION 'PATH': cannot open: REASON".
  OutputFile(const std::string& path, const std::string& option, bool binary = false);
  OutputFile(OutputFile&&) noexcept;
  OutputFile& operator=(OutputFile&&) noexcept;
  // Not closed (the run stopped with an error first): closed quietly and left as it
  // is, since what was written is still what the run did up to its error.
  ~OutputFile();

  bool is_open() const { return file_ != nullptr; }
  bool is_stdout() const { return file_ == stdout; }
  const std::string& path() const { return path_; }
  // The same file for stdio writers (fprintf, the event sinks) and for iostream ones.
  std::FILE* file() const { return file_; }
  std::ostream& stream();

  // Flushes and closes; throws OutputError naming the file and the first failure's
  // reason, after removing a regular file that was not written whole.
  void close();

 private:
  class Buf;
  void fail_and_remove(const char* what, int err);
  std::string path_, option_;
  std::FILE* file_ = nullptr;
  int first_errno_ = 0;
  std::unique_ptr<Buf> buf_;
  std::unique_ptr<std::ostream> stream_;
};

// Writes `contents` to `path` through an OutputFile (open, write, close, all checked).
void write_output(const std::string& path, const std::string& option, const std::string& contents,
                  bool binary = false);

// write_output (binary), except that a regular file already holding `contents` is left
// alone: its timestamp keeps a build from redoing what depends on it (the generators'
// outputs).  Only a regular file is read back: /dev/full reads as endless zeros.
void write_output_if_changed(const std::string& path, const std::string& option, const std::string& contents);

// For writers that cannot report an open failure (Verilator's VCD writer, vcd2fst):
// throws OutputError with the reason if `path` cannot be opened for writing, without
// leaving a new empty file behind or truncating an existing one.
void check_writable(const std::string& path, const std::string& option);

// Standard output, checked at the end of the run: flushes std::cout and stdout and
// throws OutputError "standard output: REASON" if any write to it failed.
void check_stdout();

// Installs the same check at exit for a tool's every way out (its CLI11 help and
// usage messages too): if standard output failed, "TOOL: error: standard output:
// REASON" goes to stderr and the process exits with `exit_code` whatever main
// returned.  It also puts stdout (and std::cout) on a stream that keeps the errno of
// its first failed write, so that REASON is the real one.  Call it first thing in
// main, before anything is written to stdout.
void check_stdout_at_exit(const char* tool, int exit_code = 1);

}  // namespace umbra
