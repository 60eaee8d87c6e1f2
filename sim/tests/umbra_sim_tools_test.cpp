// The pieces umbra-sim draws with (umbra_simtools), without running a model: the
// terminal image's size and colours, the image specification parser, and the
// timeline's placement of slots from synthetic event streams — in particular a window
// that opens by itself at the first issued instruction, which must still show the
// bubbles of the seven cycles before it in the later stages.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "umbra/sim_image.h"
#include "umbra/sim_timeline.h"

namespace {

using umbra::BubbleReason;
using umbra::Event;
using umbra::EventKind;
using umbra::simtools::TimelineSink;
using umbra::simtools::TimelineWindow;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) v.push_back(l);
  return v;
}

size_t blocks(const std::string& line) {
  size_t n = 0;
  for (size_t p = line.find("\xe2\x96\x80"); p != std::string::npos; p = line.find("\xe2\x96\x80", p + 1))
    ++n;
  return n;
}

TEST(AnsiImage, WideImagesAreScaledToTheColumnLimitKeepingTheAspect) {
  const std::vector<uint32_t> px(96 * 72, 0xff102030);
  const auto lines = lines_of(umbra::simtools::ansi_image(px, 96, 72, 80));
  ASSERT_EQ(lines.size(), 30u);  // 72 rows * 80/96 = 60 pixel rows, two per line
  for (const auto& l : lines) EXPECT_EQ(blocks(l), 80u);
  EXPECT_NE(lines[0].find("\x1b[38;2;16;32;48m"), std::string::npos);
}

TEST(AnsiImage, SmallImagesAreShownPixelForPixel) {
  const std::vector<uint32_t> px = {0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff};
  const auto lines = lines_of(umbra::simtools::ansi_image(px, 2, 2, 80));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(blocks(lines[0]), 2u);
  EXPECT_NE(lines[0].find("\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\x1b[38;2;0;255;0m\x1b[48;2;255;255;255m"), std::string::npos) << lines[0];
}

TEST(AnsiImage, DownscalingAveragesTheBlock) {
  // 4x2 down to 2 columns: each output pixel is the mean of a 2x2 block.
  const std::vector<uint32_t> px = {0xff000000, 0xff646464, 0xffc8c8c8, 0xffc8c8c8,
                                    0xff000000, 0xff646464, 0xffc8c8c8, 0xffc8c8c8};
  const auto lines = lines_of(umbra::simtools::ansi_image(px, 4, 2, 2));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(blocks(lines[0]), 2u);
  EXPECT_NE(lines[0].find("\x1b[38;2;50;50;50m"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\x1b[38;2;200;200;200m"), std::string::npos) << lines[0];
}

TEST(ImageSpec, ParsesNumbersAndSymbols) {
  auto lookup = [](const std::string& s) -> std::optional<uint32_t> {
    if (s == "fb") return 0x10000;
    return std::nullopt;
  };
  auto s = umbra::simtools::parse_image_spec("--dump-image", "fb:96x72:out.png", true, lookup, 1 << 20);
  EXPECT_EQ(s.address, 0x10000u);
  EXPECT_EQ(s.width, 96u);
  EXPECT_EQ(s.height, 72u);
  EXPECT_EQ(s.file, "out.png");
  s = umbra::simtools::parse_image_spec("--show-image", "0x20:2X3", false, lookup, 1 << 20);
  EXPECT_EQ(s.address, 0x20u);
  EXPECT_EQ(s.bytes(), 24u);
  EXPECT_THROW(umbra::simtools::parse_image_spec("--show-image", "fb:96x72", false, lookup, 0x10000),
               umbra::simtools::ImageError);
}

Event issue(uint64_t c, uint32_t t, uint32_t pc) {
  Event e;
  e.cycle = c;
  e.kind = EventKind::Issue;
  e.thread = t;
  e.pc = pc;
  return e;
}

Event bubble(uint64_t c, uint32_t t, BubbleReason r) {
  Event e;
  e.cycle = c;
  e.kind = EventKind::Bubble;
  e.thread = t;
  e.reason = r;
  return e;
}

TEST(Timeline, WindowOpensAtTheFirstIssueWithTheBubblesBeforeIt) {
  TimelineSink tl(TimelineWindow{std::nullopt, 16}, 4);
  for (uint64_t c = 0; c < 20; ++c) tl.on_event(bubble(c, uint32_t(c % 8), BubbleReason::Idle));
  for (uint64_t c = 20; c < 40; ++c) tl.on_event(issue(c, uint32_t(c % 8), uint32_t(4 * c)));
  ASSERT_TRUE(tl.start().has_value());
  EXPECT_EQ(*tl.start(), 20u);
  for (uint64_t c = 13; c < 20; ++c) {  // the lead-in: still in the pipe at cycle 20
    const auto s = tl.slot(c);
    EXPECT_TRUE(s.present) << c;
    EXPECT_FALSE(s.issued) << c;
    EXPECT_EQ(s.thread, c % 8) << c;
  }
  EXPECT_FALSE(tl.slot(12).present);
  EXPECT_TRUE(tl.slot(35).issued);
  EXPECT_EQ(tl.slot(35).pc, 140u);
  EXPECT_FALSE(tl.slot(36).present) << "beyond the window";
  TimelineSink::Style st;
  st.title = "t";
  const std::string svg = tl.svg(st);
  // Cycle 20 in stage W holds the slot issued in cycle 13 (idle), and cycle 27 in W the
  // first instruction.
  EXPECT_NE(svg.find("<title>cycle 20, W: bubble (idle) of thread 5, issued in cycle 13</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("<title>cycle 27, W: thread 4, pc 0x00000050, issued in cycle 20</title>"),
            std::string::npos);
}

TEST(Timeline, ExplicitWindowNearCycleZero) {
  TimelineSink tl(umbra::simtools::parse_timeline_window("2:4"), 4);
  for (uint64_t c = 0; c < 10; ++c) tl.on_event(bubble(c, uint32_t(c % 8), BubbleReason::Memory));
  EXPECT_EQ(*tl.start(), 2u);
  EXPECT_TRUE(tl.slot(0).present);
  EXPECT_TRUE(tl.slot(5).present);
  EXPECT_FALSE(tl.slot(6).present);
  const std::string svg = tl.svg({});
  EXPECT_NE(svg.find("<title>cycle 2, D: bubble (memory) of thread 1, issued in cycle 1</title>"),
            std::string::npos);
  EXPECT_EQ(svg.find("issued in cycle 6"), std::string::npos);
}

// A deeper configuration has more rows: W is fetch_to_x1 + L stages after F.
TEST(Timeline, RowsFollowTheExecuteStages) {
  TimelineSink tl(umbra::simtools::parse_timeline_window("20:4"), 8);
  for (uint64_t c = 0; c < 30; ++c) tl.on_event(bubble(c, uint32_t(c % 12), BubbleReason::Idle));
  EXPECT_TRUE(tl.slot(9).present) << "the slot in W at cycle 20 is kept";
  EXPECT_FALSE(tl.slot(8).present);
  const std::string svg = tl.svg({});
  EXPECT_NE(svg.find("<title>cycle 20, W: bubble (idle) of thread 9, issued in cycle 9</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("<title>cycle 20, X8: bubble (idle) of thread 10, issued in cycle 10</title>"),
            std::string::npos);
  EXPECT_EQ(svg.find(">X9<"), std::string::npos) << "no stage beyond X8";
}

TEST(Timeline, WindowSpecErrorsNameTheOption) {
  for (const char* bad : {"", "5", ":5", "1:", "1:0", "1:5000", "x:3", "-1:3"}) {
    try {
      umbra::simtools::parse_timeline_window(bad);
      ADD_FAILURE() << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("--timeline-window"), std::string::npos) << e.what();
    }
  }
}

TEST(Timeline, NoIssueMeansNoPicture) {
  TimelineSink tl(TimelineWindow{}, 4);
  tl.on_event(bubble(0, 0, BubbleReason::Idle));
  EXPECT_FALSE(tl.start().has_value());
  EXPECT_THROW(tl.svg({}), std::runtime_error);
}

}  // namespace
