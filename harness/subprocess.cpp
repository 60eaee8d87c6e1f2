// run_in_child (subprocess.h): fork, a pipe, and the records.
#include "subprocess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace umbra::harness {

void run_in_child(const std::function<void(Out&, EventSink*)>& child, EventSink* sink,
                  const std::function<void(In&)>& on_result) {
  int fds[2];
  if (pipe(fds) != 0) throw RunError(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    throw RunError(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fds[0]);
    std::FILE* f = fdopen(fds[1], "wb");
    static char buffer[1 << 16];
    std::setvbuf(f, buffer, _IOFBF, sizeof buffer);
    Out out{f};
    struct Pipe final : EventSink {
      Out& o;
      explicit Pipe(Out& x) : o(x) {}
      void on_event(const Event& e) override {
        o.pod('E');
        o.pod(e);
      }
    } pipe_sink(out);
    int code = 0;
    try {
      child(out, sink ? &pipe_sink : nullptr);
    } catch (const std::exception& e) {
      out.pod('X');
      out.str(e.what());
      code = 1;
    }
    std::fclose(f);
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);  // no atexit handlers or destructors of the parent's objects
  }
  close(fds[1]);
  std::FILE* f = fdopen(fds[0], "rb");
  In in{f};
  std::string error;
  bool have = false;
  try {
    for (int tag; (tag = std::fgetc(f)) != EOF;) {
      if (tag == 'E') {
        Event e;
        in.pod(e);
        if (sink) sink->on_event(e);
      } else if (tag == 'R') {
        on_result(in);
        have = true;
      } else if (tag == 'X') {
        in.str(error);
      } else {
        error = "the simulation process sent garbage";
        break;
      }
    }
  } catch (...) {
    std::fclose(f);
    int st = 0;
    waitpid(pid, &st, 0);
    throw;
  }
  std::fclose(f);
  int st = 0;
  waitpid(pid, &st, 0);
  if (!error.empty()) throw RunError(error);
  if (!have) {
    if (WIFSIGNALED(st))
      throw RunError("the simulation process died of signal " + std::to_string(WTERMSIG(st)));
    throw RunError("the simulation process exited (status " + std::to_string(WEXITSTATUS(st)) +
                   ") without a result");
  }
}

}  // namespace umbra::harness
