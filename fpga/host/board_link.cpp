// The host protocol of docs/fpga.md over a Transport: command frames out, replies in,
// every reply checked for its status byte and length, so a board that refuses a
// command or falls silent becomes a LinkError that says which command and why.
#include "board_link.h"

#include <algorithm>
#include <cstdio>

#include "umbra/format.h"

namespace umbra::board {

namespace {

void put16(std::vector<uint8_t>& b, uint32_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, v);
  put16(b, v >> 16);
}
uint32_t get16(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8;
}
uint32_t get32(const uint8_t* p) {
  return get16(p) | get16(p + 2) << 16;
}
uint64_t get64(const uint8_t* p) {
  return uint64_t(get32(p)) | uint64_t(get32(p + 4)) << 32;
}

void check_aligned(uint64_t byte_addr, const char* what) {
  if (byte_addr % 4 != 0)
    throw LinkError(-2,
                    std::string(what) + ": address " + hex8(uint32_t(byte_addr)) + " is not word-aligned");
}
// A byte address as the protocol's u16 word index, checked.
uint16_t word_field(uint64_t byte_addr, const char* what) {
  check_aligned(byte_addr, what);
  if (byte_addr / 4 > kMaxField)
    throw LinkError(-2, std::string(what) + ": address " + hex8(uint32_t(byte_addr)) +
                            " is beyond the protocol's 16-bit word index");
  return uint16_t(byte_addr / 4);
}
uint16_t index_field(uint64_t word_index, const char* what) {
  if (word_index > kMaxField)
    throw LinkError(-2, std::string(what) + ": word index " + std::to_string(word_index) +
                            " is beyond the protocol's 16-bit field");
  return uint16_t(word_index);
}
}  // namespace

std::string code_name(uint8_t code) {
  switch (Code(code)) {
    case Code::Ok: return "ok";
    case Code::Unknown: return "unknown command";
    case Code::Busy: return "refused while a run is in progress";
    case Code::Range: return "address or range outside the board's store or memory, or misaligned";
    case Code::Framing: return "UART framing error (wrong baud rate or a noisy line)";
    case Code::Incomplete: return "incomplete frame (the host stopped sending)";
  }
  return "unknown status " + std::to_string(code);
}

std::string Status::describe() const {
  std::string s = busy ? "running" : (launched ? "halted" : "idle");
  // The board sends its counters only once a run has ended (fpga/host_link.v).
  if (!busy) s += ", " + std::to_string(cycles) + " cycles, " + std::to_string(issued) + " issued";
  if (fault) s += ", fault: thread " + std::to_string(fault_thread) + " at pc " + hex8(fault_pc);
  if (mem_fault) s += ", memory refused a request at " + hex8(mem_fault_addr);
  if (protocol_error) s += ", memory port protocol error";
  return s;
}

std::vector<uint8_t> frame(Cmd c) {
  return {uint8_t(c)};
}

std::vector<uint8_t> frame(Cmd c, uint16_t a, uint16_t b, const std::vector<uint32_t>& words) {
  std::vector<uint8_t> f{uint8_t(c)};
  put16(f, a);
  put16(f, b);
  for (uint32_t w : words) put32(f, w);
  return f;
}

std::vector<uint8_t> frame_doorbell(uint32_t buffer_addr) {
  std::vector<uint8_t> b{uint8_t(Cmd::Doorbell)};
  put32(b, buffer_addr);
  return b;
}

std::vector<uint8_t> frame_window(uint32_t window_addr) {
  std::vector<uint8_t> b{uint8_t(Cmd::Window)};
  put32(b, window_addr);
  return b;
}

bool Link::windowed() {
  if (!info_) info();
  return info_->mem_bytes > kWindowBytes;
}

// A board of one window has no WINDOW command: the index goes as it is, and the board
// checks it against its memory.
uint16_t Link::window_index(uint64_t byte_addr, const char* what) {
  if (!windowed()) return word_field(byte_addr, what);
  check_aligned(byte_addr, what);
  if (byte_addr >= info_->mem_bytes)
    throw LinkError(-2, std::string(what) + ": address " + hex8(uint32_t(byte_addr)) +
                            " is beyond the board's " + std::to_string(info_->mem_bytes) +
                            " bytes of memory");
  const uint32_t window = uint32_t(byte_addr / kWindowBytes);
  if (window_ != window) {
    send_expect_ok(frame_window(window * kWindowBytes), "WINDOW");
    window_ = window;
  }
  return uint16_t(byte_addr % kWindowBytes / 4);
}

std::vector<uint8_t> Link::receive(size_t n, const char* what) {
  std::vector<uint8_t> b(n);
  const size_t got = t_.read(b.data(), n, timeout_ms_);
  if (got != n)
    throw LinkError(-1, std::string(what) + ": no reply from the board" +
                            (t_.name().empty() ? "" : " on " + t_.name()) + " (" + std::to_string(got) +
                            " of " + std::to_string(n) + " bytes within " + std::to_string(timeout_ms_) +
                            " ms)");
  return b;
}

// Every reply starts with the status byte; an error reply is that byte alone.
void Link::send_expect_ok(const std::vector<uint8_t>& bytes, const char* what) {
  t_.write(bytes);
  const uint8_t st = receive(1, what)[0];
  if (st != uint8_t(Code::Ok)) throw LinkError(st, std::string(what) + ": board says: " + code_name(st));
}

BoardInfo Link::info() {
  send_expect_ok(frame(Cmd::Info), "INFO");
  const std::vector<uint8_t> b = receive(25, "INFO");
  if (get32(&b[0]) != kMagic)
    throw LinkError(
        -2, "INFO: the reply does not start with \"UMBR\": not an Umbra board, or the wrong baud rate");
  BoardInfo i;
  i.version = b[4];
  if (i.version != kVersion)
    throw LinkError(-2, "INFO: board speaks protocol version " + std::to_string(i.version) + ", this tool " +
                            std::to_string(kVersion));
  i.threads = get16(&b[5]);
  i.regs = get16(&b[7]);
  i.imem_words = get32(&b[9]);
  i.mem_bytes = get32(&b[13]);
  i.line_bytes = get16(&b[17]);
  i.clk_hz = get32(&b[19]);
  i.cores = get16(&b[23]);
  if (i.cores == 0) throw LinkError(-2, "INFO: the board says it has no cores");
  info_ = i;
  return i;
}

Status Link::status() {
  send_expect_ok(frame(Cmd::Status), "STATUS");
  const std::vector<uint8_t> b = receive(26, "STATUS");
  Status s;
  s.busy = b[0] & 1;
  s.fault = b[0] & 2;
  s.mem_fault = b[0] & 4;
  s.protocol_error = b[0] & 8;
  s.launched = b[0] & 16;
  s.fault_thread = b[1];
  s.fault_pc = get32(&b[2]);
  s.mem_fault_addr = get32(&b[6]);
  s.cycles = get64(&b[10]);
  s.issued = get64(&b[18]);
  return s;
}

void Link::reset() {
  send_expect_ok(frame(Cmd::Reset), "RESET");
}

void Link::write_imem(uint32_t word_index, const std::vector<uint32_t>& words) {
  for (size_t i = 0; i < words.size(); i += kMaxWordsPerFrame) {
    const size_t n = std::min<size_t>(kMaxWordsPerFrame, words.size() - i);
    std::vector<uint32_t> part(words.begin() + i, words.begin() + i + n);
    send_expect_ok(
        frame(Cmd::WriteImem, index_field(uint64_t(word_index) + i, "WRITE_IMEM"), uint16_t(n), part),
        "WRITE_IMEM");
  }
}

namespace {
// The words of the frame starting `done` words into a transfer at byte_addr: at most
// kMaxWordsPerFrame, and on a board of windows none past the end of the first one's.
size_t frame_words(uint64_t byte_addr, size_t done, size_t total, bool windowed) {
  const uint64_t at = byte_addr + 4 * uint64_t(done);
  const uint64_t to_window_end = windowed ? (kWindowBytes - at % kWindowBytes) / 4 : kMaxWordsPerFrame;
  return std::min<uint64_t>({kMaxWordsPerFrame, total - done, to_window_end});
}
}  // namespace

void Link::write_mem(uint32_t byte_addr, const std::vector<uint32_t>& words) {
  for (size_t i = 0, n; i < words.size(); i += n) {
    n = frame_words(byte_addr, i, words.size(), windowed());
    std::vector<uint32_t> part(words.begin() + i, words.begin() + i + n);
    const uint16_t index = window_index(uint64_t(byte_addr) + 4 * i, "WRITE_MEM");
    send_expect_ok(frame(Cmd::WriteMem, index, uint16_t(n), part), "WRITE_MEM");
  }
}

std::vector<uint32_t> Link::read_mem(uint32_t byte_addr, uint32_t words) {
  std::vector<uint32_t> out;
  out.reserve(words);
  for (uint32_t i = 0, n; i < words; i += n) {
    n = uint32_t(frame_words(byte_addr, i, words, windowed()));
    const uint16_t index = window_index(uint64_t(byte_addr) + 4 * uint64_t(i), "READ_MEM");
    send_expect_ok(frame(Cmd::ReadMem, index, uint16_t(n)), "READ_MEM");
    const std::vector<uint8_t> b = receive(4 * size_t(n), "READ_MEM");
    for (uint32_t k = 0; k < n; ++k) out.push_back(get32(&b[4 * k]));
  }
  return out;
}

void Link::launch(uint32_t count, uint32_t entry) {
  if (count > kMaxField)
    throw LinkError(-2,
                    "LAUNCH: " + std::to_string(count) + " threads is beyond the protocol's 16-bit field");
  send_expect_ok(frame(Cmd::Launch, uint16_t(count), word_field(entry, "LAUNCH")), "LAUNCH");
}

void Link::doorbell(uint32_t buffer_addr) {
  send_expect_ok(frame_doorbell(buffer_addr), "DOORBELL");
}

void Link::load(const Program& p, const BoardInfo& info) {
  if (p.text_base % 4 != 0)
    throw LinkError(-2, "program text base " + hex8(p.text_base) + " is not word-aligned");
  const uint64_t text_end = p.text_base / 4 + uint64_t(p.text.size());
  if (text_end > info.imem_words)
    throw LinkError(-2, "program text needs " + std::to_string(text_end) +
                            " instruction words; the board has " + std::to_string(info.imem_words));
  if (!p.data.empty()) {
    if (p.data_base % 4 != 0)
      throw LinkError(-2, "program data base " + hex8(p.data_base) + " is not word-aligned");
    if (uint64_t(p.data_base) + p.data.size() > info.mem_bytes)
      throw LinkError(-2, "program data ends at " + hex8(uint32_t(p.data_base + p.data.size())) +
                              "; the board's memory is " + std::to_string(info.mem_bytes) + " bytes");
  }
  // A reset leaves no thread running and no stale cache line from an earlier run.
  reset();
  write_imem(p.text_base / 4, p.text);
  write_data(p);
}

void Link::write_data(const Program& p) {
  std::vector<uint32_t> words((p.data.size() + 3) / 4, 0);
  for (size_t i = 0; i < p.data.size(); ++i) words[i / 4] |= uint32_t(p.data[i]) << (8 * (i % 4));
  write_mem(p.data_base, words);
}

std::string Status::run_fault(unsigned timeout_ms) const {
  if (any_fault()) return "board: " + describe();
  if (!finished())
    return "board: still running after " + std::to_string(timeout_ms) + " ms (" + describe() + ")";
  return "";
}

Status Link::wait(unsigned timeout_ms, unsigned poll_ms) {
  for (unsigned waited = 0;; waited += poll_ms) {
    const Status s = status();
    if (s.finished() || s.any_fault() || waited >= timeout_ms) return s;
    t_.pause(poll_ms);
  }
}

// Link::run_domain and board_model, which go through the host API's device, are in
// board_device.cpp.

void check_launch(const BoardInfo& info, uint32_t threads) {
  if (threads < 1 || threads > info.threads)
    throw LinkError(-2, "--threads " + std::to_string(threads) + ": the board runs 1.." +
                            std::to_string(info.threads) + " threads");
}

void check_read(const BoardInfo& info, uint32_t byte_addr, uint32_t words, const std::string& what) {
  const uint64_t end = uint64_t(byte_addr) + 4 * uint64_t(words);
  if (byte_addr % 4 != 0) throw LinkError(-2, what + ": address " + hex8(byte_addr) + " is not word-aligned");
  if (words == 0 || end > info.mem_bytes)
    throw LinkError(-2, what + ": " + std::to_string(words) + " words at " + hex8(byte_addr) +
                            " reach past the board's " + std::to_string(info.mem_bytes) + " bytes of memory");
}

}  // namespace umbra::board
