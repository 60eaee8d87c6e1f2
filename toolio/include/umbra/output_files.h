// The files a command-line tool writes in one run, written all or none.
//
// A tool names its inputs and the files it means to write (each with the option that
// named it, for messages), then commits.  Before anything is written, check() refuses
// an output that is one of the inputs (by name or by std::filesystem::equivalent, so
// links and ./ spellings are caught), two outputs that are the same file, and an
// output that is a directory.  commit() writes each regular file to a temporary file
// in its own directory and renames them into place only after every one was written
// and closed without error, so a failed run never leaves a fresh-looking half of its
// output (a text image without its data image, an ELF without its listing).  A target
// that exists and is not a regular file (/dev/stdout, /dev/full, a FIFO) cannot be
// renamed over; it is written in place, and its write errors are still reported.
// discard() removes older regular files at the output paths after a failed run, so
// that no output of an earlier run is taken for this run's (the rule of GCC and of
// make's .DELETE_ON_ERROR).
//
// It is the one rule for output paths of every tool that writes (docs/tools.md,
// "Output files"): umbra-as and umbra-dis commit through it; the tools that stream
// their outputs (umbra-sim, umbra-cosim, umbra-randprog, the benches) name their
// inputs and outputs here and call check() before opening anything, then write through
// OutputFile (umbra/output_file.h).  It lives in umbra_toolio, below every tool.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace umbra {

// The message names the file and the option, and says what is wrong.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OutputFiles {
 public:
  // A file this run reads; no output may be it.  `what` names it in the message ("the
  // program", "the configuration", "a file the program includes").
  void add_input(const std::string& path, const std::string& what = "the input file");
  // Every file of a program (Program::sources: the image or the source and what it
  // includes); the first is `what`, the others files it includes.
  void add_inputs(const std::vector<std::string>& paths, const std::string& what = "the program");
  // A file to write with these contents; `option` (e.g. "-o", "--listing") names it in
  // messages.
  void add(const std::string& path, std::string contents, const std::string& option);
  // A regular file to delete when the run succeeds (an image of an earlier run that
  // would otherwise be read together with this run's output).
  void remove_on_commit(const std::string& path);

  // Throws OutputError if an output is an input, a directory, or another output.
  void check() const;
  // check(), then writes everything or (throwing OutputError) nothing new.
  void commit();
  // After a failed run: deletes the regular files at the output paths, never an input
  // and never anything but a regular file.  Call it only after check() passed.
  void discard() const noexcept;

 private:
  struct Output {
    std::string path, contents, option;
  };
  struct Input {
    std::string path, what;  // what: how the message names it ("the program 'p.s'")
  };
  std::vector<Input> inputs_;
  std::vector<std::string> removals_;
  std::vector<Output> outputs_;
};

}  // namespace umbra
