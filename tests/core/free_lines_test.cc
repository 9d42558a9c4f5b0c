// FreeLines (free_lines.h) on its own: what a cut hands out is the free lines,
// each chunk's in a random order, read from the bits or from the list, and a
// listed line the pairing marks taken leaves the list at the next cut.
#include "pipeline/free_lines.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace nqueens::internal {
namespace {

constexpr uint32_t kN = 4096;

// Lines 1..kN, with every third one used.
BitArray EveryThirdUsed() {
  BitArray used(kN + 1);
  for (uint32_t line = 3; line <= kN; line += 3) used.Set(line);
  return used;
}

std::vector<uint32_t> FreeIn(const BitArray& used) {
  std::vector<uint32_t> free;
  for (uint32_t line = 1; line <= kN; ++line) {
    if (!used.Test(line)) free.push_back(line);
  }
  return free;
}

// Every chunk's lines, as Shuffled() hands them out, joined in chunk order.
std::vector<uint32_t> AllLines(FreeLines& lines, size_t chunks, Rng& rng) {
  std::vector<uint32_t> all, buffer;
  for (size_t chunk = 0; chunk < chunks; ++chunk) {
    const auto shuffled =
        lines.Shuffled(chunk, /*keep_order=*/false, rng, buffer, [] { return false; });
    EXPECT_TRUE(shuffled.has_value());
    if (!shuffled) return all;
    EXPECT_EQ(shuffled->size(), lines.Count(chunk));
    for (const uint32_t line : *shuffled) {
      EXPECT_GE(line, lines.First(chunk));
      EXPECT_LE(line, lines.Last(chunk));
    }
    all.insert(all.end(), shuffled->begin(), shuffled->end());
  }
  return all;
}

std::vector<uint32_t> SortedLines(std::vector<uint32_t> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(FreeLinesTest, ChunksFromTheBitsHoldEveryFreeLineOnce) {
  const BitArray used = EveryThirdUsed();
  const std::vector<uint32_t> free = FreeIn(used);
  FreeLines lines(used, kN);
  const StopCondition never;
  StopPoller stop(never);
  ASSERT_TRUE(lines.Cut(free.size(), 16, stop));  // many lines free: read from the bits
  Rng rng(1);
  EXPECT_EQ(SortedLines(AllLines(lines, 16, rng)), free);
}

TEST(FreeLinesTest, ListedLinesMarkedTakenLeaveAtTheNextCut) {
  BitArray used = EveryThirdUsed();
  FreeLines lines(used, kN);
  const StopCondition never;
  StopPoller stop(never);
  ASSERT_TRUE(lines.Cut(FreeIn(used).size(), 1, stop));  // one chunk: a list from the start
  Rng rng(2);
  std::vector<uint32_t> buffer;
  const auto listed = lines.Shuffled(0, /*keep_order=*/false, rng, buffer, [] { return false; });
  ASSERT_TRUE(listed.has_value());
  // Place every other line handed out, as the pairing does.
  for (size_t i = 0; i < listed->size(); i += 2) {
    used.Set((*listed)[i]);
    (*listed)[i] = FreeLines::kTaken;
  }
  const std::vector<uint32_t> still_free = FreeIn(used);
  ASSERT_TRUE(lines.Cut(still_free.size(), 4, stop));
  EXPECT_EQ(SortedLines(AllLines(lines, 4, rng)), still_free);
}

// On a board of 64 free lines cut in two chunks of 32, read from the bits:
// each line of the first chunk lands in each of its 32 places about as often.
// 32,000 draws expect 1,000 per line and place (standard deviation 31); a
// fixed order, or one that favoured a place, would be far outside 800..1,200.
TEST(FreeLinesTest, LinesReadFromTheBitsComeInUniformlyRandomOrder) {
  constexpr uint32_t kLines = 64;
  const BitArray used(kLines + 1);
  FreeLines lines(used, kLines);
  const StopCondition never;
  StopPoller stop(never);
  ASSERT_TRUE(lines.Cut(kLines, 2, stop));
  ASSERT_EQ(lines.Count(0), 32u);
  std::vector<std::vector<int>> seen(32, std::vector<int>(32, 0));
  Rng rng(3);
  std::vector<uint32_t> buffer;
  for (int draw = 0; draw < 32000; ++draw) {
    const auto shuffled = lines.Shuffled(0, false, rng, buffer, [] { return false; });
    ASSERT_TRUE(shuffled.has_value());
    ASSERT_EQ(shuffled->size(), 32u);
    for (size_t place = 0; place < 32; ++place) ++seen[(*shuffled)[place] - 1][place];
  }
  for (size_t line = 0; line < 32; ++line) {
    for (size_t place = 0; place < 32; ++place) {
      EXPECT_GT(seen[line][place], 800) << "line " << line + 1 << " place " << place;
      EXPECT_LT(seen[line][place], 1200) << "line " << line + 1 << " place " << place;
    }
  }
}

}  // namespace
}  // namespace nqueens::internal
