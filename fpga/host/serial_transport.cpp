// termios serial transport.  Raw mode (no echo, no line editing, no CR/LF mapping,
// no software flow control), because the protocol is binary; reads wait with poll()
// so a silent board becomes a timeout rather than a hang.  Input already queued when
// the device is opened is discarded: it can only be the tail of an earlier session.
#include "serial_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace umbra::board {

namespace {

speed_t speed_for(unsigned baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    default: return B0;
  }
}

}  // namespace

SerialTransport::SerialTransport(const std::string& device, unsigned baud) : device_(device) {
  const speed_t sp = speed_for(baud);
  if (sp == B0)
    throw std::runtime_error(device + ": baud rate " + std::to_string(baud) + " is not supported");
  fd_ = ::open(device.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(device + ": cannot open: " + std::strerror(errno));
  termios t{};
  if (tcgetattr(fd_, &t) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw std::runtime_error(device + ": not a serial device: " + why);
  }
  cfmakeraw(&t);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS);
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  cfsetispeed(&t, sp);
  cfsetospeed(&t, sp);
  if (tcsetattr(fd_, TCSANOW, &t) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw std::runtime_error(device + ": cannot configure: " + why);
  }
  tcflush(fd_, TCIOFLUSH);
}

SerialTransport::~SerialTransport() {
  if (fd_ >= 0) ::close(fd_);
}

void SerialTransport::write(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw std::runtime_error(device_ + ": write failed: " + std::strerror(errno));
    }
    done += size_t(n);
  }
}

size_t SerialTransport::read(uint8_t* out, size_t n, unsigned timeout_ms) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::milliseconds(timeout_ms);
  size_t got = 0;
  while (got < n) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) break;
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, int(left));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(device_ + ": poll failed: " + std::strerror(errno));
    }
    if (r == 0) break;
    const ssize_t k = ::read(fd_, out + got, n - got);
    if (k < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw std::runtime_error(device_ + ": read failed: " + std::strerror(errno));
    }
    if (k == 0) throw std::runtime_error(device_ + ": device closed (board unplugged?)");
    got += size_t(k);
  }
  return got;
}

void SerialTransport::pause(unsigned ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace umbra::board
