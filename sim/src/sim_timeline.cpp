// The issue-slot timeline (umbra/sim_timeline.h).  The sink stores one Slot per cycle
// of the window plus the depth - 1 cycles before it (their slots are still in the pipe
// when the window opens); with no explicit start it keeps the last depth slots in a ring so
// that the window can open at the first issue and still fill its first columns.  The
// SVG is written by hand: a few hundred rectangles need no library, and the result is
// a self-contained file any browser shows, with a tooltip per cell.
#include "umbra/sim_timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "umbra/format.h"

namespace umbra::simtools {

namespace {

std::optional<uint64_t> number(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, hex ? 16 : 10);
  if (*end != '\0' || s[0] == '-' || s[0] == '+' || s[0] == ' ') return std::nullopt;
  return v;
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

// Distinct colours for up to nine threads (a colour-blind-aware qualitative palette);
// larger T spreads hues evenly instead, since neighbouring threads matter less then.
std::string thread_colour(unsigned t, unsigned threads) {
  static const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                         "#edc948", "#b07aa1", "#ff9da7", "#9c755f"};
  if (threads <= 9) return kPalette[t % 9];
  char buf[40];
  std::snprintf(buf, sizeof buf, "hsl(%u,65%%,55%%)", unsigned(360.0 * t / threads));
  return buf;
}

// Light text on the darker palette entries, dark text on the light ones.
const char* text_colour(unsigned t, unsigned threads) {
  if (threads > 9) return "#000";
  static const bool dark[] = {true, false, true, false, true, false, true, false, true};
  return dark[t % 9] ? "#fff" : "#000";
}

}  // namespace

TimelineWindow parse_timeline_window(const std::string& spec) {
  auto bad = [&](const std::string& why) {
    return std::runtime_error("--timeline-window '" + spec + "': " + why + " (expected START:COUNT)");
  };
  const auto c = spec.find(':');
  if (c == std::string::npos) throw bad("missing ':COUNT'");
  const auto start = number(spec.substr(0, c));
  const auto count = number(spec.substr(c + 1));
  if (!start) throw bad("START '" + spec.substr(0, c) + "' is not a cycle number");
  if (!count || *count == 0 || *count > kTimelineMaxCycles)
    throw bad("COUNT must be a number from 1 to " + std::to_string(kTimelineMaxCycles));
  TimelineWindow w;
  w.start = *start;
  w.count = unsigned(*count);
  return w;
}

void TimelineSink::record(const umbra::Event& e) {
  const uint64_t first = *start_ >= stages_ - 1 ? *start_ - (stages_ - 1) : 0;
  if (e.cycle < first || e.cycle >= *start_ + window_.count) return;
  const uint64_t base = *start_ - (stages_ - 1);  // may wrap below 0; differences still hold
  Slot& s = slots_[size_t(e.cycle - base)];
  s.present = true;
  s.issued = e.kind == umbra::EventKind::Issue;
  s.thread = e.thread;
  s.pc = e.kind == umbra::EventKind::Issue ? e.pc : 0;
  s.reason = e.reason;
}

void TimelineSink::on_event(const umbra::Event& e) {
  // One core's barrel: with several cores, core 0's.
  if (e.core != 0 || (e.kind != umbra::EventKind::Issue && e.kind != umbra::EventKind::Bubble)) return;
  if (!start_) {
    if (window_.start) {
      start_ = window_.start;
    } else if (e.kind == umbra::EventKind::Issue) {
      start_ = e.cycle;
    } else {
      // Before the window opens: remember the last slots in a ring (cycle, slot).
      if (slots_.empty()) slots_.resize(stages_ + window_.count);
      Slot& s = slots_[e.cycle % stages_];
      s = Slot{true, false, e.thread, 0, e.reason};
      s.pc = uint32_t(e.cycle);  // the ring keeps the cycle in pc until the window opens
      return;
    }
    // Move the ring's slots that fall in the window's lead-in to their places.
    std::vector<Slot> ring(slots_.begin(), slots_.begin() + std::min<size_t>(slots_.size(), stages_));
    slots_.assign(stages_ - 1 + window_.count, Slot{});
    for (const Slot& r : ring) {
      if (!r.present) continue;
      umbra::Event b;
      b.kind = umbra::EventKind::Bubble;
      b.cycle = r.pc;
      b.thread = r.thread;
      b.reason = r.reason;
      record(b);
    }
  }
  record(e);
}

TimelineSink::Slot TimelineSink::slot(uint64_t c) const {
  if (!start_) return {};
  const uint64_t base = *start_ - (stages_ - 1);
  if (c + (stages_ - 1) < *start_ || c >= *start_ + window_.count) return {};
  return slots_[size_t(c - base)];
}

std::string TimelineSink::svg(const Style& style) const {
  if (!start_) throw std::runtime_error("the timeline window never opened: no instruction was issued");
  const unsigned n = window_.count;
  const int cw = n <= 100 ? 22 : n <= 400 ? 12 : 6;  // cell width
  const int ch = 22, left = 44, top = 64;
  const int width = left + int(n) * cw + 20;
  const int legend_y = top + int(stages_) * ch + 16;
  // The legend names the threads that issue in the window, not every context: a run of
  // 4 threads on T = 8 would otherwise show four colours that never appear.
  std::vector<unsigned> shown;
  for (unsigned t = 0; t < style.threads && shown.size() < 16; ++t)
    if (std::any_of(slots_.begin(), slots_.end(),
                    [t](const Slot& s) { return s.present && s.issued && s.thread == t; }))
      shown.push_back(t);
  const unsigned legend_threads = unsigned(shown.size());
  const int legend_rows = int((legend_threads + 3 + 7) / 8);
  const int height = legend_y + legend_rows * 20 + 16;
  std::string o;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n",
                std::max(width, 520), height);
  o += buf;
  o += "<defs><pattern id=\"memory\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/>"
       "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c05a00\" stroke-width=\"3\"/></pattern></defs>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  o += "<text x=\"4\" y=\"14\" font-size=\"12\">" + xml_escape(style.title) + "</text>\n";
  std::snprintf(buf, sizeof buf,
                "<text x=\"4\" y=\"28\" fill=\"#555\">cycles %llu..%llu; a slot issued in cycle n is in "
                "stage k in cycle n+k</text>\n",
                static_cast<unsigned long long>(*start_), static_cast<unsigned long long>(*start_ + n - 1));
  o += buf;

  // Cycle numbers: every column when there is room, else every 5th or 10th.
  const unsigned every = cw >= 12 ? 1 : cw >= 6 ? 5 : 10;
  for (unsigned i = 0; i < n; ++i) {
    const uint64_t c = *start_ + i;
    if (c % every) continue;
    const int x = left + int(i) * cw + cw / 2 + 3;
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%d\" y=\"%d\" font-size=\"9\" transform=\"rotate(-90 %d %d)\">%llu</text>\n", x,
                  top - 3, x, top - 3, static_cast<unsigned long long>(c));
    o += buf;
  }
  for (unsigned k = 0; k < stages_; ++k) {
    std::snprintf(buf, sizeof buf, "<text x=\"4\" y=\"%d\">%s</text>\n", top + int(k) * ch + 15,
                  uarch::stage_name(k, execute_stages_));
    o += buf;
  }

  for (unsigned k = 0; k < stages_; ++k) {
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t c = *start_ + i;
      const int x = left + int(i) * cw, y = top + int(k) * ch;
      if (c < k) continue;
      const Slot s = slot(c - k);
      if (!s.present) continue;
      std::string fill, tip, label;
      const char* fg = "#000";
      tip = "cycle " + std::to_string(c) + ", " + uarch::stage_name(k, execute_stages_) + ": ";
      if (s.issued) {
        fill = thread_colour(s.thread, style.threads);
        fg = text_colour(s.thread, style.threads);
        label = std::to_string(s.thread);
        tip += "thread " + std::to_string(s.thread) + ", pc " + hex8(s.pc);
        if (style.describe) tip += " (" + style.describe(s.pc) + ")";
      } else {
        switch (s.reason) {
          case umbra::BubbleReason::Idle: fill = "#e6e6e6"; break;
          case umbra::BubbleReason::Exited: fill = "#8c8c8c"; break;
          case umbra::BubbleReason::Memory: fill = "url(#memory)"; break;
        }
        tip += std::string("bubble (") + umbra::bubble_reason_name(s.reason) + ") of thread " +
               std::to_string(s.thread);
      }
      tip += ", issued in cycle " + std::to_string(c - k);
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#fff\" "
                    "stroke-width=\"1\"><title>%s</title></rect>\n",
                    x, y, cw, ch, fill.c_str(), xml_escape(tip).c_str());
      o += buf;
      if (!label.empty() && cw >= 16) {
        std::snprintf(buf, sizeof buf,
                      "<text x=\"%d\" y=\"%d\" fill=\"%s\" text-anchor=\"middle\">%s</text>\n", x + cw / 2,
                      y + 15, fg, label.c_str());
        o += buf;
      }
    }
  }
  // A thin rule where each round of T slots begins (slot 0 of the counter).
  for (unsigned i = 0; i < n; ++i) {
    const uint64_t c = *start_ + i;
    if (style.threads == 0 || c % style.threads) continue;
    const int x = left + int(i) * cw;
    std::snprintf(buf, sizeof buf, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", x,
                  top - 2, x, top + int(stages_) * ch);
    o += buf;
  }

  // Legend: the threads, then the three bubble reasons.
  struct Item {
    std::string fill, name;
  };
  std::vector<Item> items;
  for (const unsigned t : shown)
    items.push_back({thread_colour(t, style.threads), "thread " + std::to_string(t)});
  if (!shown.empty() && shown.size() == 16 && shown.back() + 1 < style.threads) items.back().name += "..";
  items.push_back({"#e6e6e6", "idle"});
  items.push_back({"#8c8c8c", "exited"});
  items.push_back({"url(#memory)", "memory"});
  for (size_t i = 0; i < items.size(); ++i) {
    const int x = 4 + int(i % 8) * 84, y = legend_y + int(i / 8) * 20;
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#999\"/>"
                  "<text x=\"%d\" y=\"%d\">%s</text>\n",
                  x, y, items[i].fill.c_str(), x + 18, y + 11, items[i].name.c_str());
    o += buf;
  }
  o += "</svg>\n";
  return o;
}

}  // namespace umbra::simtools
