// BoardBackend (board_device.h): one Submission as the board's UART protocol makes it,
// and the board's STATUS as the Result a model returns.  Link::run_domain and
// board_model (board_link.h) are here too: a domain launch and a manifest's
// `commands:` run are built as command buffers by the host API's device on this
// backend, the one way a buffer is made for a model or a board.
#include "board_device.h"

#include "umbra/command_file.h"
#include "umbra/examples_device.h"
#include "umbra/format.h"

namespace umbra::board {

std::string BoardBackend::name() const {
  const std::string t = link_.transport().name();
  return t.empty() ? "board" : "board on " + t;
}

models::Result BoardBackend::run(const host::Submission& s, const host::RunOptions&) {
  if (!s.doorbell.ring)
    throw umbra::RunError("board: a run through the host API rings the doorbell (a command buffer)");
  link_.reset();
  if (!data_written_ && s.program && !s.program->data.empty()) link_.write_data(*s.program);
  data_written_ = true;
  for (const auto& [addr, words] : s.writes) link_.write_mem(addr, words);
  link_.doorbell(s.doorbell.addr);
  last_ = link_.wait(timeout_ms_, poll_ms_);
  models::Result r;
  r.instructions = last_.issued;
  r.run.cycles = last_.cycles;
  r.run.stats.cycles = last_.cycles;
  r.run.message = last_.run_fault(timeout_ms_);
  if (last_.any_fault()) {
    r.run.status = umbra::RunResult::Status::Fault;
    r.run.fault_thread = last_.fault_thread;
    r.run.fault_pc = last_.fault_pc;
    r.run.fault_addr = last_.mem_fault_addr;
  } else if (!last_.finished()) {
    r.run.status = umbra::RunResult::Status::CycleLimit;
  }
  return r;
}

Config board_device_config(const BoardInfo& info) {
  Config c;
  c.name = "board";
  c.threads = info.threads;
  c.mem_bytes = info.mem_bytes;
  return c;
}

host::Device open_board(Link& link, const BoardInfo& info, unsigned timeout_ms, unsigned poll_ms,
                        bool data_on_board) {
  return host::Device(std::make_unique<BoardBackend>(link, info, timeout_ms, poll_ms, data_on_board),
                      board_device_config(info));
}

Status Link::run_domain(const Program& p, const BoardInfo& info, uint32_t w, uint32_t h, unsigned timeout_ms,
                        unsigned poll_ms) {
  constexpr uint32_t kFence = 0x600d600d;
  auto backend = std::make_unique<BoardBackend>(*this, info, timeout_ms, poll_ms, /*data_on_board=*/true);
  BoardBackend& board = *backend;
  host::Device dev(std::move(backend), board_device_config(info));
  uint32_t fence = 0;
  try {
    const host::ProgramImage img = dev.load(p, "the program");
    // The fence word in a 256-byte block of its own, so that no other word shares its
    // cache line; the buffer follows it.
    fence = dev.alloc(256, 256);
    dev.write(fence, {0});
    host::CommandBuffer cb;
    cb.program(img.src, img.words, img.dest).domain(w, h).run(img.entry).wait().fence(fence, kFence);
    dev.submit(cb);
  } catch (const host::DeviceError& e) {
    throw LinkError(-2, std::string("a domain launch on the board: ") + e.what());
  }
  dev.wait();
  const Status s = board.last_status();
  if (s.finished() && !s.any_fault() && dev.read(fence, 1).at(0) != kFence)
    throw LinkError(-2, "the command buffer's run ended without its fence at " + hex8(fence) +
                            " (the command processor stopped early)");
  return s;
}

examples::Model board_model(Link& link, const BoardInfo& info, unsigned run_timeout_ms) {
  examples::Model model;
  model.cores = info.cores;
  model.run = [&link, info, run_timeout_ms](const examples::ModelJob& job) {
    examples::ModelOutcome out;
    if (job.commands.IsSequence()) {
      // The manifest's list through the host API, as on a model; the board's own
      // errors (no reply, DOORBELL refused) are thrown for the caller.
      host::Device dev = open_board(link, info, run_timeout_ms);
      try {
        return examples::run_commands(dev, job);
      } catch (const host::DeviceError& e) {
        out.fault = "board: " + std::string(e.what());
      } catch (const host::CommandFileError& e) {
        out.fault = e.what();
      }
      return out;
    }
    link.load(*job.program, info);
    for (const auto& [addr, words] : job.writes) link.write_mem(addr, words);
    Status s;
    if (job.domain_w) {
      s = link.run_domain(*job.program, info, job.domain_w, job.domain_h ? job.domain_h : 1, run_timeout_ms);
    } else {
      link.launch(job.threads, job.program->entry);
      s = link.wait(run_timeout_ms);
    }
    out.instructions = s.issued;
    out.all_exited = s.finished() && !s.any_fault();
    out.fault = s.run_fault(run_timeout_ms);
    for (const examples::Span& r : job.reads) out.reads.push_back(link.read_mem(r.address, r.words));
    return out;
  };
  return model;
}

}  // namespace umbra::board
