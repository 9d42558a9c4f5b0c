// The progress display, drawn into a string with a clock the test moves: what
// is drawn when, and how a line looks. No terminal, no threads, no sleeping.
#include "client/output/progress.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(FormatCountTest, ShortensLargeCounts) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(9999), "9999");
  EXPECT_EQ(FormatCount(12'345), "12.3k");
  EXPECT_EQ(FormatCount(999'949), "999.9k");
  EXPECT_EQ(FormatCount(999'950), "1.0M");  // never "1000.0k"
  EXPECT_EQ(FormatCount(66'000'000), "66.0M");
  EXPECT_EQ(FormatCount(4'000'000'000), "4.0G");
}

TEST(RenderProgressLineTest, KnownTotalShowsBarPercentAndCounts) {
  ProgressLine line;
  line.label = "uploading";
  line.done = 25'000'000;
  line.total = 100'000'000;
  line.unit = "rows";
  line.elapsed = absl::Milliseconds(800);
  EXPECT_EQ(RenderProgressLine(line),
            "uploading [######------------------]  25% 25.0M/100.0M rows 0.8s");
}

TEST(RenderProgressLineTest, DoneBeyondTotalIsAFullBar) {
  ProgressLine line;
  line.label = "reading";
  line.done = 12;
  line.total = 10;
  line.elapsed = absl::Seconds(2);
  EXPECT_EQ(RenderProgressLine(line), "reading [########################] 100% 12/10 2.0s");
}

TEST(RenderProgressLineTest, UnknownTotalShowsASpinner) {
  ProgressLine line;
  line.label = "solving";
  line.elapsed = absl::Milliseconds(4250);
  std::string glyphs;
  for (uint64_t frame = 0; frame < 5; ++frame) {
    line.frame = frame;
    const std::string text = RenderProgressLine(line);
    ASSERT_THAT(text, StartsWith("solving "));
    ASSERT_THAT(text, EndsWith(" 4.2s"));
    glyphs += text[8];
  }
  EXPECT_EQ(glyphs, "|/-\\|");

  line.finished = true;
  EXPECT_EQ(RenderProgressLine(line), "solving done 4.2s");
}

TEST(RenderProgressLineTest, UnknownTotalShowsTheCountSoFar) {
  ProgressLine line;
  line.label = "writing";
  line.done = 1'500'000;
  line.unit = "bytes";
  line.elapsed = absl::Seconds(1);
  EXPECT_EQ(RenderProgressLine(line), "writing | 1.5M bytes 1.0s");
}

// A bar drawing into `screen` with a clock at `now`.
class ProgressBarTest : public ::testing::Test {
 protected:
  ProgressBarTest()
      : bar_([this](absl::string_view text) { absl::StrAppend(&screen_, text); },
             [this] { return now_; }) {}

  void Wait(absl::Duration duration) { now_ += duration; }

  absl::Time now_ = absl::UnixEpoch();
  std::string screen_;
  ProgressBar bar_;
};

TEST_F(ProgressBarTest, ShortPhasesAreNeverDrawn) {
  bar_.Start("reading", 100, "bytes");
  Wait(ProgressBar::kShowAfter - absl::Milliseconds(1));
  bar_.Tick();
  bar_.Advance(100);
  bar_.Finish();
  EXPECT_EQ(screen_, "");
}

TEST_F(ProgressBarTest, LongPhasesAreRedrawnInPlaceAndEndTheirLine) {
  bar_.Start("uploading", 1000, "rows");
  Wait(ProgressBar::kShowAfter);
  bar_.Advance(500);
  bar_.Tick();
  EXPECT_EQ(screen_, "\ruploading [############------------]  50% 500/1000 rows 0.2s");
  screen_.clear();

  Wait(absl::Seconds(1));
  bar_.Advance(500);
  bar_.Finish();
  EXPECT_EQ(screen_,
            "\ruploading [########################] 100% 1000/1000 rows "
            "1.2s\n");
  // A finished phase is not drawn again.
  screen_.clear();
  bar_.Tick();
  bar_.Finish();
  EXPECT_EQ(screen_, "");
}

TEST_F(ProgressBarTest, ShorterLinesBlankTheRestOfLongerOnes) {
  bar_.Start("writing", 0, "bytes");
  bar_.Advance(999'949);
  Wait(absl::Seconds(1));
  bar_.Tick();
  bar_.Advance(1);
  bar_.Tick();
  EXPECT_EQ(screen_,
            "\rwriting | 999.9k bytes 1.0s"
            "\rwriting / 1.0M bytes 1.0s  ");
}

TEST_F(ProgressBarTest, EachDrawnPhaseKeepsALineOfItsOwn) {
  bar_.Start("writing", 0, "bytes");
  bar_.Advance(123'456'789);
  Wait(absl::Seconds(1));
  bar_.Tick();
  bar_.Start("solving", 0, "");  // finishes "writing"
  Wait(absl::Seconds(1));
  bar_.Tick();
  EXPECT_EQ(screen_,
            "\rwriting | 123.5M bytes 1.0s"
            "\rwriting done 123.5M bytes 1.0s\n"
            "\rsolving | 1.0s");
}

TEST_F(ProgressBarTest, EachRedrawAdvancesTheSpinner) {
  bar_.Start("solving", 0, "");
  Wait(absl::Seconds(1));
  bar_.Tick();
  bar_.Tick();
  bar_.Tick();
  EXPECT_EQ(screen_, "\rsolving | 1.0s\rsolving / 1.0s\rsolving - 1.0s");
}

TEST_F(ProgressBarTest, StartingAPhaseResetsTheCount) {
  bar_.Start("uploading", 10, "rows");
  bar_.Advance(10);
  bar_.Start("downloading", 10, "rows");
  Wait(absl::Seconds(1));
  bar_.Tick();
  EXPECT_THAT(screen_, HasSubstr(" 0/10 rows"));
}

TEST(ProgressPhaseTest, FinishesItsPhaseWhenItEnds) {
  std::string screen;
  absl::Time now = absl::UnixEpoch();
  ProgressBar bar([&](absl::string_view text) { absl::StrAppend(&screen, text); },
                  [&] { return now; });
  {
    ProgressPhase phase(&bar, "downloading", 4, "rows");
    phase.Advance(4);
    now += absl::Seconds(1);
    bar.Tick();
  }
  EXPECT_THAT(screen, EndsWith("100% 4/4 rows 1.0s\n"));
}

// Work that reports its share done (counting) ends full once it succeeded,
// though its last report came earlier; one that failed ends where it was.
TEST(ProgressPhaseTest, ACompletedPhaseEndsFull) {
  std::string screen;
  absl::Time now = absl::UnixEpoch();
  ProgressBar bar([&](absl::string_view text) { absl::StrAppend(&screen, text); },
                  [&] { return now; });
  for (const bool completed : {true, false}) {
    screen.clear();
    {
      ProgressPhase phase(&bar, "counting", 1000);
      phase.AdvanceTo(600);
      phase.AdvanceTo(500);  // never backwards
      now += absl::Seconds(1);
      bar.Tick();
      if (completed) phase.Complete();
    }
    EXPECT_THAT(screen, EndsWith(completed ? "100% 1000/1000 1.0s\n" : " 60% 600/1000 1.0s\n"))
        << screen;
  }
}

}  // namespace
}  // namespace nqueens::client
