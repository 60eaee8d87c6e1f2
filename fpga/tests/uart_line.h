// uart_line: the host's end of a board's UART, bit by bit, for the simulated board
// benches (board_sim_test.cpp, ulx3s_sim_test.cpp): bytes queued by the host are
// shifted onto the board's RX as 8N1 frames, one bit every clks_per_bit clocks, and
// the board's TX is decoded by sampling each bit in its middle, as the FTDI chip
// would.  The bench calls rx_level() before each rising edge and sample_tx() after
// it, so the board is only ever seen through its two pins.
#pragma once
#include <cstdint>
#include <deque>

namespace umbra::board {

class UartLine {
 public:
  explicit UartLine(unsigned clks_per_bit) : clks_per_bit_(clks_per_bit) {}

  // One 8N1 frame; stop = false sends a low stop bit (a framing error at the board).
  void send(uint8_t b, bool stop = true) { out_.push_back(uint16_t(b) << 1 | uint16_t(stop) << 9); }
  // Nothing left to send and the last frame's stop bit is out.
  bool idle() const { return out_.empty() && tx_bits_ == 0; }

  // The level to drive on the board's RX for the coming edge.
  int rx_level() {
    if (tx_bits_ == 0 && !out_.empty()) {
      tx_frame_ = out_.front();
      out_.pop_front();
      tx_bits_ = 10;
      tx_count_ = 0;
    }
    const int level = tx_bits_ > 0 ? (tx_frame_ >> (10 - tx_bits_)) & 1 : 1;
    if (tx_bits_ > 0 && ++tx_count_ == clks_per_bit_) {
      tx_count_ = 0;
      --tx_bits_;
    }
    return level;
  }

  // The board's TX after the edge: start bit, then each bit sampled in its middle.
  void sample_tx(int line) {
    if (rx_bit_ < 0) {
      if (!line) {
        rx_bit_ = 0;
        rx_count_ = 0;
      }
      return;
    }
    ++rx_count_;
    const unsigned mid = rx_bit_ == 0 ? clks_per_bit_ / 2 : clks_per_bit_;
    if (rx_count_ < mid) return;
    rx_count_ = 0;
    if (rx_bit_ == 0) {
      rx_bit_ = line ? -1 : 1;  // a glitch, not a start bit
      rx_byte_ = 0;
    } else if (rx_bit_ <= 8) {
      rx_byte_ |= uint8_t(line << (rx_bit_ - 1));
      ++rx_bit_;
    } else {
      if (line)
        received.push_back(rx_byte_);
      else
        ++framing_errors;
      rx_bit_ = -1;
    }
  }

  std::deque<uint8_t> received;  // bytes from the board, oldest first
  unsigned framing_errors = 0;   // frames from the board with a low stop bit

 private:
  unsigned clks_per_bit_;
  std::deque<uint16_t> out_;
  uint16_t tx_frame_ = 0;
  unsigned tx_bits_ = 0, tx_count_ = 0;
  int rx_bit_ = -1;
  unsigned rx_count_ = 0;
  uint8_t rx_byte_ = 0;
};

}  // namespace umbra::board
