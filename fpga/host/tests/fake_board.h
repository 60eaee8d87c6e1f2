// A fake board for the host side's unit tests: a Transport that answers the UART
// protocol (docs/fpga.md, "The host protocol") from a memory array, and on DOORBELL
// walks the command buffer in that memory, carrying out its `fence` commands as the
// command processor would (the rest it only skips).  It runs no kernel; it records
// what the host did (resets, doorbells, words written and read) for the tests to check.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "board_link.h"
#include "umbra/commands_gen.h"

namespace umbra::board {

inline uint32_t fake_get16(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8;
}
inline uint32_t fake_get32(const std::vector<uint8_t>& b, size_t at) {
  return fake_get16(b, at) | fake_get16(b, at + 2) << 16;
}

inline void fake_put(std::deque<uint8_t>& q, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) q.push_back(uint8_t(v >> (8 * i)));
}

class FakeBoard : public Transport {
 public:
  explicit FakeBoard(uint32_t mem_bytes = 0x20000) : mem_(mem_bytes / 4, 0xa5a5a5a5) {}

  // What the fake does with a doorbell.
  bool has_doorbell = true;  // false: answers Unknown, as the iCE40 boards do
  bool obey_fences = true;   // false: the processor "stops early", no fence written
  unsigned busy_ms = 5;      // board time a run takes
  bool fault = false;        // the run ends with thread 3 faulting at pc 0x40
  uint64_t cycles = 1234, issued = 567;
  unsigned cores = 1;  // what INFO says

  // What the host did.
  unsigned resets = 0, doorbells = 0, launches = 0, windows = 0;
  uint32_t doorbell_addr = 0;
  uint64_t words_written = 0, words_read = 0;
  std::vector<uint32_t> fences_seen;  // the fence commands' addresses, in order

  uint32_t word(uint32_t byte_addr) const { return mem_.at(byte_addr / 4); }
  std::string name() const override { return "/dev/fake"; }

  void write(const std::vector<uint8_t>& bytes) override {
    in_.insert(in_.end(), bytes.begin(), bytes.end());
    while (frame()) {
    }
  }
  size_t read(uint8_t* out, size_t n, unsigned) override {
    size_t got = 0;
    while (got < n && !out_.empty()) {
      out[got++] = out_.front();
      out_.pop_front();
    }
    return got;
  }
  void pause(unsigned ms) override { left_ms_ = left_ms_ > ms ? left_ms_ - ms : 0; }

 private:
  // One whole frame from the front of in_, answered; false when none is complete.
  bool frame() {
    if (in_.empty()) return false;
    const uint8_t c = in_[0];
    auto need = [&](size_t n) { return in_.size() >= n; };
    auto consume = [&](size_t n) { in_.erase(in_.begin(), in_.begin() + n); };
    switch (Cmd(c)) {
      case Cmd::Info:
        consume(1);
        out_.push_back(0);
        fake_put(out_, kMagic, 4);
        fake_put(out_, kVersion, 1);
        fake_put(out_, 16, 2);                         // threads
        fake_put(out_, 32, 2);                         // registers
        fake_put(out_, 1024, 4);                       // instruction words
        fake_put(out_, uint32_t(4 * mem_.size()), 4);  // the host window
        fake_put(out_, 32, 2);                         // line bytes
        fake_put(out_, 50000000, 4);
        fake_put(out_, cores, 2);
        return true;
      case Cmd::Status: {
        consume(1);
        out_.push_back(0);
        const bool busy = launched_ && left_ms_ > 0;
        const bool faulted = launched_ && !busy && fault;
        fake_put(out_, (busy ? 1 : 0) | (faulted ? 2 : 0) | (launched_ ? 16 : 0), 1);
        fake_put(out_, faulted ? 3 : 0, 1);
        fake_put(out_, faulted ? 0x40 : 0, 4);
        fake_put(out_, 0, 4);
        fake_put(out_, busy ? 0 : cycles, 8);
        fake_put(out_, busy ? 0 : issued, 8);
        return true;
      }
      case Cmd::Reset:
        consume(1);
        ++resets;
        launched_ = false;
        out_.push_back(0);
        return true;
      case Cmd::WriteMem:
      case Cmd::WriteImem: {
        if (!need(5)) return false;
        const uint32_t a = fake_get16(in_, 1), n = fake_get16(in_, 3);  // word index, count
        if (!need(5 + 4 * size_t(n))) return false;
        const bool mem = Cmd(c) == Cmd::WriteMem;
        if (mem && !in_window(a, n)) {
          consume(5 + 4 * size_t(n));
          out_.push_back(uint8_t(Code::Range));
          return true;
        }
        for (uint32_t i = 0; mem && i < n; ++i) mem_[base() + a + i] = fake_get32(in_, 5 + 4 * i);
        if (mem) words_written += n;
        consume(5 + 4 * size_t(n));
        out_.push_back(0);
        return true;
      }
      case Cmd::ReadMem: {
        if (!need(5)) return false;
        const uint32_t a = fake_get16(in_, 1), n = fake_get16(in_, 3);
        consume(5);
        if (!in_window(a, n)) {
          out_.push_back(uint8_t(Code::Range));
          return true;
        }
        out_.push_back(0);
        for (uint32_t i = 0; i < n; ++i) fake_put(out_, mem_[base() + a + i], 4);
        words_read += n;
        return true;
      }
      case Cmd::Launch:
        if (!need(5)) return false;
        consume(5);
        ++launches;
        start();
        out_.push_back(0);
        return true;
      case Cmd::Doorbell:
        if (!need(5)) return false;
        doorbell_addr = fake_get32(in_, 1);
        consume(5);
        if (!has_doorbell) {
          out_.push_back(uint8_t(Code::Unknown));
          return true;
        }
        ++doorbells;
        run_buffer(doorbell_addr);
        start();
        out_.push_back(0);
        return true;
      case Cmd::Window: {
        if (!need(5)) return false;
        const uint32_t a = fake_get32(in_, 1);
        consume(5);
        if (!windowed()) {
          out_.push_back(uint8_t(Code::Unknown));
          return true;
        }
        if (a % kWindowBytes != 0 || a / 4 >= mem_.size()) {
          out_.push_back(uint8_t(Code::Range));
          return true;
        }
        ++windows;
        window_ = a / kWindowBytes;
        out_.push_back(0);
        return true;
      }
    }
    consume(1);
    out_.push_back(uint8_t(Code::Unknown));
    return true;
  }

  // As fpga/host_link.v: a memory of more than one window has WINDOW, and a transfer
  // stays inside the window it set.
  bool windowed() const { return 4 * mem_.size() > kWindowBytes; }
  size_t base() const { return size_t(window_) * (kWindowBytes / 4); }
  bool in_window(uint32_t index, uint32_t n) const {
    return (!windowed() || index + n <= kWindowBytes / 4) && base() + index + n <= mem_.size();
  }

  void start() {
    launched_ = true;
    left_ms_ = busy_ms;
  }

  // The command processor's walk of the buffer: every command skipped by its argument
  // count (the generated table's), `fence` carried out, `end` the last.
  void run_buffer(uint32_t a) {
    for (unsigned guard = 0; guard < 1000; ++guard) {
      const uint32_t op = mem_.at(a / 4);
      const commands::CommandDef* d = commands::find(op);
      if (!d || d->opcode == commands::Opcode::End) return;
      if (d->opcode == commands::Opcode::Fence) {
        fences_seen.push_back(mem_.at(a / 4 + 1));
        if (obey_fences) mem_.at(mem_.at(a / 4 + 1) / 4) = mem_.at(a / 4 + 2);
      }
      a += 4 * (1 + d->nargs);
    }
  }

  std::vector<uint32_t> mem_;
  std::vector<uint8_t> in_;
  std::deque<uint8_t> out_;
  bool launched_ = false;
  unsigned left_ms_ = 0;
  uint32_t window_ = 0;
};

}  // namespace umbra::board
