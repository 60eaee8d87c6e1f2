// What the waveform writers of a run (the RTL's, RtlWaveform in cosim_run.cpp; the
// SystemC side's, systemc_waveform.h) share: the bounds a user set on them (issue 37:
// a three-instruction loop wrote 5.6 GB in 20 s).  Each writer holds a cycle's bytes
// back until the cycle is whole; end_cycle() then keeps them if every file of the run
// still fits its size limit, or else stops every file there, so each file is a valid
// waveform up to its last whole cycle, never past its limit, and the two sides of a
// cosimulation hold the same cycles.  Only the cycles of the window are dumped.
// warnings() says, for a person, where a file stopped or that its window was never
// reached; the run itself is not affected.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "run_result.h"

namespace umbra::cosim {

class WaveFile {
 public:
  WaveFile(std::string path, const umbra::WaveBounds& bounds) : path_(std::move(path)), bounds_(bounds) {}
  virtual ~WaveFile() = default;
  const std::string& path() const { return path_; }
  // Whether cycle c is to be dumped (inside the window, the file not stopped); also
  // records c as the run's last cycle so far.
  bool dumping(uint64_t c);
  // The bytes kept so far (the header included) and those of the cycle being dumped.
  virtual uint64_t kept_bytes() const = 0;
  virtual uint64_t pending_bytes() const = 0;
  // The warnings about this file once the run is over (none when it holds the whole
  // window).
  std::vector<std::string> warnings() const;

 protected:
  // Keep the pending bytes, or drop them (the file ends before them for good).
  virtual void keep() = 0;
  virtual void drop() = 0;

 private:
  friend void end_cycle(uint64_t c, std::initializer_list<WaveFile*> files);
  bool fits() const { return !bounds_.limit || kept_bytes() + pending_bytes() <= bounds_.limit; }

  std::string path_;
  umbra::WaveBounds bounds_;
  bool seen_ = false, any_ = false, stopped_ = false;
  uint64_t last_seen_ = 0, first_ = 0, last_ = 0;  // the run's last cycle; the cycles kept
  uint64_t stopped_at_ = 0;                        // the first cycle that did not fit
  std::string stopped_by_;                         // the file that did not fit, if another
};

// Cycle c has been dumped into those of `files` that were dumping it (null ones are
// skipped): kept in all if all fit their limits, else dropped from all, which then
// stop.
void end_cycle(uint64_t c, std::initializer_list<WaveFile*> files);

}  // namespace umbra::cosim
