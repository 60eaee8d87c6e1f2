// libFuzzer target for the host side of the board protocol (docs/fpga.md, "The host
// protocol"): the bytes are what the board answers.  umbra-load's reply parsing lives
// in board::Link (fpga/host/board_link.h) above the Transport interface, so the fuzzer
// needs no change there: a Transport that serves the input as the board's replies
// drives the Link through umbra-load's own session (INFO, the launch and dump checks
// against what the board reported, RESET and the program's WRITE_IMEM/WRITE_MEM,
// LAUNCH, STATUS polls until the run ends, READ_MEM), or only `--info` / `--status`.
//
// Findings: a crash, leak or hang; anything thrown but a LinkError with a message; a
// LinkError whose code is not what happened (the refusing status byte, -1 only when
// the replies ran out, naming the device); an INFO or STATUS reply that does not
// re-encode, by the layout written out again here from the documentation and
// fpga/host_link.v, to the bytes that were read; READ_MEM words that are not the
// bytes the board sent; a wait that returns before the run ended or its time was up.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "board_link.h"
#include "umbra/asm.h"

namespace board = umbra::board;

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_board: %s: %s\n", what, detail.c_str());
  std::abort();
}

const char kDevice[] = "fuzz-board";

// The board: its replies are the fuzzer's bytes, in order, whatever was asked.
class Replies : public board::Transport {
 public:
  Replies(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  void write(const std::vector<uint8_t>& bytes) override { frames.push_back(bytes); }
  size_t read(uint8_t* out, size_t n, unsigned) override {
    const size_t k = std::min(n, size_ - pos_);
    std::memcpy(out, data_ + pos_, k);
    reads.emplace_back(data_ + pos_, data_ + pos_ + k);
    pos_ += k;
    short_read = k < n;
    return k;
  }
  void pause(unsigned ms) override { paused_ms += ms; }
  std::string name() const override { return kDevice; }

  std::vector<std::vector<uint8_t>> frames;  // what the host sent
  std::vector<std::vector<uint8_t>> reads;   // the bytes of each read, in order
  bool short_read = false;                   // the last read ran out of replies
  uint64_t paused_ms = 0;

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

void put(std::vector<uint8_t>& b, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b.push_back(uint8_t(v >> (8 * i)));
}

// INFO reply after its status byte: "UMBR", version, threads:16, registers:16,
// instruction words:32, memory bytes:32, line bytes:16, clock Hz:32, cores:16.
std::vector<uint8_t> encode(const board::BoardInfo& i) {
  std::vector<uint8_t> b;
  put(b, board::kMagic, 4);
  put(b, i.version, 1);
  put(b, i.threads, 2);
  put(b, i.regs, 2);
  put(b, i.imem_words, 4);
  put(b, i.mem_bytes, 4);
  put(b, i.line_bytes, 2);
  put(b, i.clk_hz, 4);
  put(b, i.cores, 2);
  return b;
}

// STATUS reply after its status byte: flags {3'd0, launched, protocol_error,
// mem_fault, fault, busy}, fault thread, fault pc:32, refused address:32,
// cycles:64, issued:64.
std::vector<uint8_t> encode(const board::Status& s) {
  std::vector<uint8_t> b;
  put(b, s.busy | s.fault << 1 | s.mem_fault << 2 | s.protocol_error << 3 | s.launched << 4, 1);
  put(b, s.fault_thread, 1);
  put(b, s.fault_pc, 4);
  put(b, s.mem_fault_addr, 4);
  put(b, s.cycles, 8);
  put(b, s.issued, 8);
  return b;
}

void check_info(const board::BoardInfo& info, const Replies& t) {
  if (encode(info) != t.reads.back())
    finding("INFO", "the parsed reply does not re-encode to the bytes read");
}

void check_status(const board::Status& s, const Replies& t) {
  std::vector<uint8_t> got = t.reads.back();
  got[0] &= 0x1f;  // the three high flag bits are reserved (always 0 from the board)
  if (encode(s) != got) finding("STATUS", "the parsed reply does not re-encode to the bytes read");
  if (s.describe().empty()) finding("STATUS", "empty description");
}

// The program umbra-load would send: a few words of text and some data, so that the
// session has WRITE_IMEM and WRITE_MEM frames and a symbol to dump.
const umbra::Program& program() {
  static const umbra::Program p = [] {
    const umbra::as::Result r = umbra::as::assemble_string(
        "        .text\n_start: li r1, result\n        ldw r2, 0(r1)\n        addi r2, r2, 1\n"
        "        stw r2, 0(r1)\n        exit\n        .data\nresult: .word 1, 2, 3, 4\n",
        "fuzz_board.s");
    if (!r.ok()) finding("the session's program does not assemble", r.errors.front().render());
    return r.program;
  }();
  return p;
}

// umbra-load's session after its argument checks.  `knobs` are what the user asked:
// which session, the thread count, the dump length.
void session(board::Link& link, Replies& t, const uint8_t knobs[3]) {
  const board::BoardInfo info = link.info();
  check_info(info, t);
  if (knobs[0] % 4 == 0) return;  // --info
  if (knobs[0] % 4 == 1) {        // --status
    check_status(link.status(), t);
    return;
  }
  const umbra::Program& p = program();
  const uint32_t threads = knobs[1];
  const uint32_t words = 1 + 4 * uint32_t(knobs[2]);  // up to four frames
  const uint32_t dump_at = *p.symbol("result");
  board::check_launch(info, threads);
  board::check_read(info, dump_at, words, "--dump result:" + std::to_string(words));
  if (threads < 1 || threads > info.threads) finding("check_launch", "accepted " + std::to_string(threads));
  if (uint64_t(dump_at) + 4 * uint64_t(words) > info.mem_bytes)
    finding("check_read", "accepted a dump past memory");
  link.load(p, info);
  link.launch(threads, p.entry);
  constexpr unsigned kTimeoutMs = 100, kPollMs = 10;
  const uint64_t paused_before = t.paused_ms;
  const board::Status s = link.wait(kTimeoutMs, kPollMs);
  check_status(s, t);
  if (!s.finished() && !s.any_fault() && t.paused_ms - paused_before < kTimeoutMs)
    finding("wait", "returned a running status before its time was up");
  if (t.paused_ms - paused_before > kTimeoutMs) finding("wait", "waited past its timeout");
  // READ_MEM: frames of at most 256 words, each answered by a status byte, then the
  // words; what comes back must be those words in order.
  const size_t frames_before = t.frames.size(), reads_before = t.reads.size();
  const std::vector<uint32_t> got = link.read_mem(dump_at, words);
  std::vector<uint8_t> sent, again;
  for (size_t i = reads_before + 1; i < t.reads.size(); i += 2)
    sent.insert(sent.end(), t.reads[i].begin(), t.reads[i].end());
  for (uint32_t w : got) put(again, w, 4);
  if (got.size() != words || again != sent)
    finding("READ_MEM", "the words returned are not the bytes the board sent");
  if (t.frames.size() - frames_before != (words + board::kMaxWordsPerFrame - 1) / board::kMaxWordsPerFrame)
    finding("READ_MEM", "not one frame per 256 words");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  Replies t(data + 3, size - 3);
  board::Link link(t, 250);
  try {
    session(link, t, data);
  } catch (const board::LinkError& e) {
    const std::string what = e.what();
    if (what.empty()) finding("LinkError", "no message");
    if (e.code() == -1) {
      if (!t.short_read) finding("LinkError -1", "timeout reported while replies were left: " + what);
      if (what.find(std::string("on ") + kDevice) == std::string::npos)
        finding("LinkError -1", "does not name the device: " + what);
    } else if (t.short_read) {
      finding("LinkError", "the replies ran out but the error says otherwise: " + what);
    } else if (e.code() >= 0) {
      if (t.reads.back().size() != 1 || e.code() != t.reads.back()[0] || e.code() == 0)
        finding("LinkError", "code is not the refusing status byte: " + what);
    } else if (e.code() != -2) {
      finding("LinkError", "unknown code: " + what);
    }
  }
  return 0;
}
