// `umbra-sim --timeline`: the issue slots of a window of cycles drawn as an SVG table,
// one column per cycle and one row per pipeline stage (F D R X1 .. X<L> W, L the
// configuration's execute stages).  A slot
// issued in cycle n is in stage k in cycle n+k (docs/microarchitecture.md), so the
// picture is built from the issue/bubble events alone; it is the design thread's
// stage table for any program and any model that emits events.
//
// TimelineSink is an EventSink that keeps only the slots the window can show, so a
// long run costs a comparison per event and no memory.  When no window is given it
// opens at the first issued instruction (the launch) and shows `count` cycles.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "events.h"

namespace umbra::simtools {

constexpr unsigned kTimelineMaxCycles = 4096;  // beyond this the SVG is unusable anyway

// Parses START:COUNT (numbers; COUNT 1..kTimelineMaxCycles).  Throws std::runtime_error
// naming --timeline-window and what is wrong.
struct TimelineWindow {
  std::optional<uint64_t> start;  // none: from the first issued instruction
  unsigned count = 64;
};
TimelineWindow parse_timeline_window(const std::string& spec);

class TimelineSink final : public umbra::EventSink {
 public:
  // execute_stages: the configuration's (Config::execute_stages); the rows are its
  // pipeline_depth() stages.
  TimelineSink(TimelineWindow w, unsigned execute_stages)
      : window_(w), execute_stages_(execute_stages), stages_(uarch::pipeline_depth(execute_stages)) {}
  void on_event(const umbra::Event& e) override;

  // The window actually drawn (the start resolved); nullopt when it never opened
  // (no instruction was issued).
  std::optional<uint64_t> start() const { return start_; }
  unsigned count() const { return window_.count; }

  struct Slot {
    bool present = false;  // an issue or bubble event was seen for this cycle
    bool issued = false;
    uint32_t thread = 0, pc = 0;
    umbra::BubbleReason reason = umbra::BubbleReason::Idle;
  };
  // The fetch slot of cycle c (c in [start-(depth-1), start+count)); absent if not seen.
  Slot slot(uint64_t c) const;

  struct Style {
    std::string title;                                 // first line of the picture
    unsigned threads = 8;                              // T: how many colours the legend lists
    std::function<std::string(uint32_t pc)> describe;  // text for a pc in tooltips (optional)
  };
  // The SVG document.  Throws std::runtime_error if the window never opened.
  std::string svg(const Style& style) const;

 private:
  void record(const umbra::Event& e);
  TimelineWindow window_;
  unsigned execute_stages_;
  unsigned stages_;  // the pipeline depth: rows F .. W
  std::optional<uint64_t> start_;
  std::vector<Slot> slots_;  // cycles start-(stages_-1) .. start+count-1
};

}  // namespace umbra::simtools
