// WaveFile and end_cycle (wave_file.h): the window and the size limit of a run's
// waveform files, and the warnings a person gets about them.
#include "wave_file.h"

namespace umbra::cosim {

bool WaveFile::dumping(uint64_t c) {
  seen_ = true;
  last_seen_ = c;
  return !stopped_ && c >= bounds_.from && c <= bounds_.to;
}

void end_cycle(uint64_t c, std::initializer_list<WaveFile*> files) {
  const WaveFile* full = nullptr;
  for (WaveFile* f : files)
    if (f && f->pending_bytes() && !f->fits() && !full) full = f;
  for (WaveFile* f : files) {
    if (!f || f->stopped_ || c < f->bounds_.from || c > f->bounds_.to) continue;
    if (!full) {
      f->keep();
      if (!f->any_) f->first_ = c;
      f->any_ = true;
      f->last_ = c;
      continue;
    }
    f->drop();
    f->stopped_ = true;
    f->stopped_at_ = c;
    if (f != full) f->stopped_by_ = full->path();
  }
}

std::vector<std::string> WaveFile::warnings() const {
  std::vector<std::string> w;
  const std::string file = "waveform '" + path_ + "'";
  const auto window = [this] {
    return "--wave-from " + std::to_string(bounds_.from) +
           (bounds_.to == UINT64_MAX ? std::string() : " --wave-to " + std::to_string(bounds_.to));
  };
  const auto held = [this] {
    return any_ ? "it holds cycles " + std::to_string(first_) + " to " + std::to_string(last_)
                : std::string("it holds no cycle");
  };
  if (stopped_ && stopped_by_.empty()) {
    w.push_back(file + " reached its size limit of " + umbra::size_text(bounds_.limit) + " at cycle " +
                std::to_string(stopped_at_) + " and was not written further: " + held() +
                " (a valid waveform; the run went on to cycle " + std::to_string(last_seen_) +
                "); raise the limit with --wave-limit SIZE (0: none) or choose the cycles with " +
                "--wave-from/--wave-to");
  } else if (stopped_) {
    w.push_back(file + " stopped at cycle " + std::to_string(stopped_at_) + " with '" + stopped_by_ +
                "', which reached its size limit, so that both sides hold the same cycles: " + held());
  } else if (seen_ && bounds_.from > last_seen_) {
    w.push_back(file + ": the window " + window() + " starts after the run's last cycle, " +
                std::to_string(last_seen_) + ": it holds no cycle");
  }
  return w;
}

}  // namespace umbra::cosim
