// The host side of the board's UART protocol (docs/fpga.md, "The host protocol"):
// frames, replies and the steps of a run, over any byte transport; command buffers
// go through the host API's device on a BoardBackend (board_device.h).  umbra-load talks
// to a real iCEBreaker through SerialTransport (serial_transport.h); the simulated
// board test drives the Verilated board top bit by bit through its own Transport.
// Both use exactly this code, so the test exercises what the tool sends.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.h"
#include "umbra/program.h"

namespace umbra::board {

// A byte pipe to the board.  read() returns when `n` bytes have arrived or
// `timeout_ms` (the board's time: wall clock on hardware, simulated time in a
// simulation) has passed, and says how many it got.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual void write(const std::vector<uint8_t>& bytes) = 0;
  virtual size_t read(uint8_t* out, size_t n, unsigned timeout_ms) = 0;
  // Lets `ms` of the board's time pass (between status polls).
  virtual void pause(unsigned ms) = 0;
  // What the board is reached through (a device path), for messages; may be empty.
  virtual std::string name() const { return ""; }
};

// Command bytes and reply status codes, as fpga/host_link.v defines them.
enum class Cmd : uint8_t {
  Info = 0x01,
  WriteImem = 0x02,
  WriteMem = 0x03,
  ReadMem = 0x04,
  Launch = 0x05,
  Status = 0x06,
  Reset = 0x07,
  Doorbell = 0x08,  // boards with the command processor (the ULX3S); unknown elsewhere
  Window = 0x09     // boards with more than kWindowBytes of memory (the ULX3S)
};
enum class Code : uint8_t {
  Ok = 0x00,
  Unknown = 0x01,
  Busy = 0x02,
  Range = 0x03,
  Framing = 0x04,
  Incomplete = 0x05
};
std::string code_name(uint8_t code);

constexpr uint32_t kMagic = 0x52424d55;  // "UMBR", little-endian
// Version 4: every command with arguments takes four bytes (two u16 fields, or one u32
// for DOORBELL and WINDOW), and addresses are word indices inside a window of
// kWindowBytes, which WINDOW chooses on a board with more memory (docs/fpga.md, "The
// host protocol").  Version 2 had no WINDOW: the host reached the first 128 KiB;
// version 3's INFO did not say how many cores LAUNCH starts threads on.
constexpr uint8_t kVersion = 4;
constexpr uint32_t kWindowBytes = 0x20000;  // 32768 words: a memory word index is 15 bits
// The protocol's count field allows 0xffff words; the host sends at most 256 per
// frame so that a frame's transfer (1 KiB: 89 ms at 115200 baud) stays well inside
// the reply timeout, which starts when the frame is sent.
constexpr uint32_t kMaxWordsPerFrame = 256;
// The largest word index (and thread count) a u16 field carries.
constexpr uint32_t kMaxField = 0xffff;

struct BoardInfo {
  uint8_t version = 0;
  unsigned threads = 0, regs = 0, line_bytes = 0;  // threads: a core's
  unsigned cores = 0;                              // LAUNCH starts its threads on each
  uint32_t imem_words = 0, mem_bytes = 0, clk_hz = 0;
};

struct Status {
  bool busy = false, fault = false, mem_fault = false, protocol_error = false, launched = false;
  unsigned fault_thread = 0;
  uint32_t fault_pc = 0, mem_fault_addr = 0;
  uint64_t cycles = 0, issued = 0;  // the run's, sent once it has ended (zero while busy)
  // Launched, no longer busy, and nothing went wrong.
  bool finished() const { return launched && !busy; }
  bool any_fault() const { return fault || mem_fault || protocol_error; }
  std::string describe() const;  // one line, for messages and the tool's report
  // Why a run waited for up to timeout_ms is not a clean exit ("board: ..."), or "".
  std::string run_fault(unsigned timeout_ms) const;
};

// Raised for a refused command (code() is the board's status byte), a reply that did
// not come in time (code() == -1) or one that makes no sense (code() == -2).
class LinkError : public std::runtime_error {
 public:
  LinkError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Frame encoders (exposed for tests): the bytes of one command.  `frame(c, a, b, words)`
// is a command with two u16 fields (WRITE_IMEM, WRITE_MEM, READ_MEM: word index and
// count; LAUNCH: thread count and entry word index) and, for the writes, its words.
std::vector<uint8_t> frame(Cmd c);
std::vector<uint8_t> frame(Cmd c, uint16_t a, uint16_t b, const std::vector<uint32_t>& words = {});
std::vector<uint8_t> frame_doorbell(uint32_t buffer_addr);
std::vector<uint8_t> frame_window(uint32_t window_addr);  // the window's first byte address

class Link {
 public:
  // timeout_ms bounds the wait for each reply; it must exceed the board's quiet time
  // (IDLE_CLKS, 250 ms on the board) so that an error reply is waited for.
  explicit Link(Transport& t, unsigned timeout_ms = 2000) : t_(t), timeout_ms_(timeout_ms) {}

  // Also remembered: the memory commands need the board's size to choose windows.
  BoardInfo info();
  Status status();
  void reset();
  // Split into frames of at most kMaxWordsPerFrame words.  Memory addresses are byte
  // addresses here and word indices in a window on the wire: a frame never crosses a
  // window, and WINDOW goes first wherever the board's window is not (or not known to
  // be) the frame's.  A misaligned address, an instruction word index beyond a u16
  // field, or a memory address past the board's memory (INFO, asked for once if
  // info() was not called) is a LinkError (code -2) before anything is sent.
  void write_imem(uint32_t word_index, const std::vector<uint32_t>& words);
  void write_mem(uint32_t byte_addr, const std::vector<uint32_t>& words);
  std::vector<uint32_t> read_mem(uint32_t byte_addr, uint32_t words);
  // The program's data image at its base (no check: load() checks it first).
  void write_data(const Program& p);
  // `entry` is a byte address, as a program's; checked as the memory addresses are.
  void launch(uint32_t count, uint32_t entry);
  // Rings the command processor with the command buffer at `buffer_addr` (written to
  // memory first, docs/commands.md); wait() then polls until it and the run are done.
  // A board without a command processor refuses it as an unknown command.
  void doorbell(uint32_t buffer_addr);

  // Reset the core, then write the program's text and data (checked against the
  // board's instruction store and memory first: a program that does not fit is a
  // LinkError naming what is too big, before anything is sent).
  void load(const Program& p, const BoardInfo& info);
  // Polls status every poll_ms until the run has finished or faulted, or timeout_ms
  // of board time have passed; returns the last status.
  Status wait(unsigned timeout_ms, unsigned poll_ms = 10);
  // A domain launch of w x h work items through the command processor (a board with
  // DOORBELL: the ULX3S), the program's data already in memory (load()): a host API
  // device on the board (BoardBackend, board_device.h) loads the program's text into
  // the memory below or after its data image, writes a fence word and a command buffer
  // (program, domain, run, wait, fence; docs/commands.md), resets, rings the doorbell
  // and waits as wait() does.  A run that finishes without its fence in memory is a
  // LinkError (code -2); a board without a command processor refuses DOORBELL
  // (LinkError with Code::Unknown); a buffer that does not fit the board's memory (its
  // INFO mem_bytes) is a LinkError (code -2) before anything is sent.  Defined in
  // board_device.cpp.
  Status run_domain(const Program& p, const BoardInfo& info, uint32_t w, uint32_t h, unsigned timeout_ms,
                    unsigned poll_ms = 10);

  Transport& transport() { return t_; }

 private:
  void send_expect_ok(const std::vector<uint8_t>& bytes, const char* what);
  std::vector<uint8_t> receive(size_t n, const char* what);
  // The board has more than one window (INFO, asked for if not yet known).
  bool windowed();
  // The word index of byte_addr in its window, after WINDOW if the board needs it.
  uint16_t window_index(uint64_t byte_addr, const char* what);

  Transport& t_;
  unsigned timeout_ms_;
  std::optional<BoardInfo> info_;
  std::optional<uint32_t> window_;  // the board's window as this link last set it
};

// The board as an examples-harness model (harness.h): loads the job's program and
// input words, launches job.threads threads (or a domain launch through
// Link::run_domain), waits up to run_timeout_ms of board time, and reads the checked
// regions back; a `commands:` run goes through a host API device on the board
// (examples::run_commands, the steps a model's harness takes; a mistake in the list or
// a program too big for the board's memory is the run's fault).  `instructions` is the
// board's issued count (replayed memory instructions count once per issue).  The
// board's own errors are thrown as LinkError: a board without a command processor
// refuses a domain or command run's DOORBELL with Code::Unknown.  Defined in
// board_device.cpp.
examples::Model board_model(Link& link, const BoardInfo& info, unsigned run_timeout_ms);

// What a run asks of the board, checked against what the board reports about itself
// before anything is sent: a LinkError (code -2) naming the limit.  A launch of
// `threads` threads needs 1..info.threads; a read of `words` words at `byte_addr`
// must lie inside the board's memory (a read past it would be answered frame by
// frame for as long as the count says: with 2^32 - 1 words, practically forever).
void check_launch(const BoardInfo& info, uint32_t threads);
void check_read(const BoardInfo& info, uint32_t byte_addr, uint32_t words, const std::string& what);

}  // namespace umbra::board
