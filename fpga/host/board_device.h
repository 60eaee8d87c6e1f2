// A board as the host API's device (umbra/device.h): BoardBackend runs a Submission on
// a board with a command processor (the ULX3S) over board::Link -- the staged words
// written over the UART, DOORBELL rung with the buffer's address, STATUS polled until
// the run ends or a timeout -- and reports it as a model's Result, so umbra-load, the
// simulated boards and the examples' harness build and judge command buffers with the
// same code as the models (host/src/examples_device.cpp).  Memory is read back only
// where the host asks (Device::read), never whole: a UART moves some 10 KiB a second.
#pragma once
#include <memory>

#include "board_link.h"
#include "umbra/device.h"

namespace umbra::board {

class BoardBackend final : public host::Backend {
 public:
  // Each run waits up to timeout_ms of board time, polling every poll_ms.  The first
  // run writes the program's data image unless `data_on_board` (the caller has written
  // it, as Link::load does).
  BoardBackend(Link& link, const BoardInfo& info, unsigned timeout_ms, unsigned poll_ms = 10,
               bool data_on_board = false)
      : link_(link), info_(info), timeout_ms_(timeout_ms), poll_ms_(poll_ms), data_written_(data_on_board) {}

  std::string name() const override;
  // The host's window of the board's memory (INFO's mem_bytes).
  uint32_t mem_bytes() const override { return info_.mem_bytes; }
  // RESET (no thread running, no stale cache line: host writes pass the caches), the
  // data image on the first run, the submission's writes, DOORBELL, then STATUS until
  // the run has finished, faulted or run out of time: Exited, Fault (the board's
  // description: thread and pc, or the memory fault's address) or CycleLimit ("still
  // running after N ms").  instructions, run.cycles and run.stats.cycles are the
  // board's counters.  Link errors (no reply, DOORBELL refused by a board without a
  // command processor: code Unknown) are thrown as LinkError.
  models::Result run(const host::Submission& s, const host::RunOptions& o) override;
  std::vector<uint32_t> read(uint32_t addr, uint32_t n) override { return link_.read_mem(addr, n); }

  // The board's status at the end of the last run.
  const Status& last_status() const { return last_; }

 private:
  Link& link_;
  BoardInfo info_;
  unsigned timeout_ms_, poll_ms_;
  bool data_written_;
  Status last_;
};

// The configuration a board Device reports (Device::config()): the board's threads
// and its host window as the memory.
Config board_device_config(const BoardInfo& info);

// A Device on the board (a BoardBackend over `link`).
host::Device open_board(Link& link, const BoardInfo& info, unsigned timeout_ms, unsigned poll_ms = 10,
                        bool data_on_board = false);

}  // namespace umbra::board
