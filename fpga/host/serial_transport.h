// The board's UART as a Transport: a serial device (the iCEBreaker's FTDI second
// channel, usually /dev/ttyUSB1) opened raw through termios at 8N1, no flow control.
#pragma once
#include <string>

#include "board_link.h"

namespace umbra::board {

class SerialTransport : public Transport {
 public:
  // Throws std::runtime_error naming the device and the system's reason when it
  // cannot be opened or configured, or when `baud` is not a rate termios offers.
  SerialTransport(const std::string& device, unsigned baud);
  ~SerialTransport() override;
  SerialTransport(const SerialTransport&) = delete;
  SerialTransport& operator=(const SerialTransport&) = delete;

  void write(const std::vector<uint8_t>& bytes) override;
  size_t read(uint8_t* out, size_t n, unsigned timeout_ms) override;
  void pause(unsigned ms) override;
  std::string name() const override { return device_; }

 private:
  std::string device_;
  int fd_ = -1;
};

}  // namespace umbra::board
