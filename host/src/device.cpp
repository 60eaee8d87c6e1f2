// The host API (umbra/device.h): command buffers encoded from the generated table,
// and a device whose memory the host stages word by word.  A run carries only the
// words the host wrote since the previous one (as contiguous spans), so a run of a
// small buffer on a large memory carries only what changed; what a run left is the
// backend's to keep and to read back (models: src/model_backend.cpp; a board:
// fpga/host/board_device.cpp).  No model is linked here.
#include "umbra/device.h"

#include <algorithm>

#include "umbra/format.h"

namespace umbra::host {

namespace {

const commands::CommandDef& def_of(commands::Opcode op) {
  const commands::CommandDef* d = commands::find(uint32_t(op));
  if (!d) throw DeviceError("opcode " + hex8(uint32_t(op)) + " is not in the command table");
  return *d;
}

}  // namespace

CommandBuffer& CommandBuffer::append(commands::Opcode op, const std::vector<uint32_t>& args) {
  const commands::CommandDef& d = def_of(op);
  if (args.size() != d.nargs)
    throw DeviceError(std::string("command `") + d.name + "` takes " + std::to_string(d.nargs) + " argument" +
                      (d.nargs == 1 ? "" : "s") + ", not " + std::to_string(args.size()));
  words_.push_back(uint32_t(op));
  words_.insert(words_.end(), args.begin(), args.end());
  last_ = op;
  return *this;
}

CommandBuffer& CommandBuffer::append(commands::Opcode op, std::initializer_list<uint32_t> args) {
  return append(op, std::vector<uint32_t>(args));
}

using commands::Opcode;
CommandBuffer& CommandBuffer::program(uint32_t src, uint32_t words, uint32_t dest) {
  return append(Opcode::Program, {src, words, dest});
}
CommandBuffer& CommandBuffer::args(uint32_t addr) {
  return append(Opcode::Args, {addr});
}
CommandBuffer& CommandBuffer::domain(uint32_t w, uint32_t h) {
  return append(Opcode::Domain, {w, h});
}
CommandBuffer& CommandBuffer::run(uint32_t entry) {
  return append(Opcode::Run, {entry});
}
CommandBuffer& CommandBuffer::invalidate() {
  return append(Opcode::Invalidate, {});
}
CommandBuffer& CommandBuffer::wait() {
  return append(Opcode::Wait, {});
}
CommandBuffer& CommandBuffer::fence(uint32_t addr, uint32_t value) {
  return append(Opcode::Fence, {addr, value});
}
CommandBuffer& CommandBuffer::counters_reset() {
  return append(Opcode::CountersReset, {});
}
CommandBuffer& CommandBuffer::counters(uint32_t addr) {
  return append(Opcode::Counters, {addr});
}
CommandBuffer& CommandBuffer::end() {
  return append(Opcode::End, {});
}

Device::Device(std::unique_ptr<Backend> backend, const Config& cfg, RunOptions options)
    : backend_(std::move(backend)), cfg_(cfg), options_(std::move(options)) {
  mem_bytes_ = backend_->mem_bytes() & ~3u;
  image_.assign(mem_bytes_ / 4, 0);
  dirty_.assign(mem_bytes_ / 4, false);
  // No program yet: an empty one whose data image is empty (a run needs a program).
  program_.data.clear();
}

uint32_t Device::alloc(uint32_t bytes, uint32_t align) {
  if (align == 0 || (align & (align - 1)))
    throw DeviceError("alloc(" + std::to_string(bytes) + ", " + std::to_string(align) +
                      "): the alignment must be a power of two");
  const uint64_t size = std::max<uint64_t>(bytes, 1);
  uint64_t at = (uint64_t(bump_) + align - 1) & ~uint64_t(align - 1);
  // Past every reserved span it would overlap (they are few: the program's data).
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [b, e] : reserved_)
      if (at < e && at + size > b) {
        at = (uint64_t(e) + align - 1) & ~uint64_t(align - 1);
        moved = true;
      }
  }
  if (at + size > mem_bytes_)
    throw DeviceError("alloc(" + std::to_string(bytes) + " bytes, align " + std::to_string(align) +
                      "): does not fit in device memory of " + std::to_string(mem_bytes_) + " bytes (" +
                      std::to_string(mem_bytes_ - std::min<uint64_t>(mem_bytes_, bump_)) +
                      " bytes free above " + hex8(bump_) + ")");
  bump_ = uint32_t(at + size);
  return uint32_t(at);
}

void Device::check_span(const char* what, uint32_t addr, uint64_t words) const {
  if (addr % 4)
    throw DeviceError(std::string(what) + " at " + hex8(addr) + ": the address is not a multiple of 4");
  if (uint64_t(addr) + 4 * words > mem_bytes_)
    throw DeviceError(std::string(what) + " of " + std::to_string(words) + " words at " + hex8(addr) +
                      " leaves device memory of " + std::to_string(mem_bytes_) + " bytes");
}

void Device::write(uint32_t addr, const std::vector<uint32_t>& words) {
  check_span("write", addr, words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    image_[addr / 4 + i] = words[i];
    dirty_[addr / 4 + i] = true;
  }
}

std::vector<uint32_t> Device::read(uint32_t addr, uint32_t n) const {
  check_span("read", addr, n);
  const uint32_t first = addr / 4;
  // Before any run the host's own image; after one what the run left (from the
  // backend, when any word asked for is not the host's since), the host's later writes
  // on top.
  bool from_backend = false;
  for (uint32_t i = 0; ran_ && i < n && !from_backend; ++i) from_backend = !dirty_[first + i];
  if (!from_backend) return std::vector<uint32_t>(image_.begin() + first, image_.begin() + first + n);
  std::vector<uint32_t> out = backend_->read(addr, n);
  if (out.size() != n)
    throw DeviceError("read of " + std::to_string(n) + " words at " + hex8(addr) + ": " + backend_->name() +
                      " returned " + std::to_string(out.size()));
  for (uint32_t i = 0; i < n; ++i)
    if (dirty_[first + i]) out[i] = image_[first + i];
  return out;
}

ProgramImage Device::load(const Program& p, const std::string& name) {
  if (loaded_)
    throw DeviceError(name + ": a program is already loaded on this device (" + program_name_ + ")");
  if (ran_) throw DeviceError(name + ": load the program before the device's first run");
  const uint64_t data_end = uint64_t(p.data_base) + p.data.size();
  if (!p.data.empty()) {
    if (data_end > mem_bytes_)
      throw DeviceError(name + ": data (" + std::to_string(p.data.size()) + " bytes at " + hex8(p.data_base) +
                        ") does not fit in device memory of " + std::to_string(mem_bytes_) + " bytes");
    if (p.data_base < bump_)
      throw DeviceError(name + ": data at " + hex8(p.data_base) +
                        " overlaps memory already allocated (up to " + hex8(bump_) +
                        "); load the program before allocating");
    if (p.data_base % 4)
      throw DeviceError(name + ": data base " + hex8(p.data_base) + " is not a multiple of 4");
    reserved_.push_back({p.data_base, uint32_t(data_end)});
    // The image for reads before the first run; the backend puts the data in memory.
    for (size_t i = 0; i < p.data.size(); ++i)
      image_[(p.data_base + i) / 4] |= uint32_t(p.data[i]) << (8 * ((p.data_base + i) % 4));
  }
  program_ = p;
  program_name_ = name;
  loaded_ = true;
  ProgramImage img;
  img.words = uint32_t(p.text.size());
  img.dest = p.text_base;
  img.entry = p.entry;
  img.src = alloc(uint32_t(4 * p.text.size()), 4);
  write(img.src, p.text);
  return img;
}

void Device::submit(const CommandBuffer& cb) {
  if (pending_) throw DeviceError("submit: the previous buffer was not waited for");
  CommandBuffer b = cb;
  if (!b.ended()) b.end();
  buffer_addr_ = alloc(b.bytes(), 4);
  write(buffer_addr_, b.words());
  pending_ = true;
}

const models::Result& Device::wait() {
  if (!pending_) throw DeviceError("wait: nothing was submitted");
  pending_ = false;
  Submission s;
  s.program = &program_;
  s.source = program_name_;
  s.doorbell.ring = true;
  s.doorbell.addr = buffer_addr_;
  // The words written since the last run, as contiguous spans.
  for (uint32_t i = 0; i < image_.size(); ++i) {
    if (!dirty_[i]) continue;
    if (s.writes.empty() || s.writes.back().first + 4 * s.writes.back().second.size() != 4 * i)
      s.writes.push_back({4 * i, {}});
    s.writes.back().second.push_back(image_[i]);
  }
  result_ = backend_->run(s, options_);
  dirty_.assign(dirty_.size(), false);
  ran_ = true;
  return result_;
}

}  // namespace umbra::host
