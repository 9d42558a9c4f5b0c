#include "base/rng.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace nqueens::internal {
namespace {

std::vector<uint32_t> Iota(size_t count) {
  std::vector<uint32_t> values(count);
  std::iota(values.begin(), values.end(), 0);
  return values;
}

// Pearson's chi-square of `counts` against equal expectations.
double ChiSquare(const std::vector<uint64_t>& counts) {
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  const double expected = total / static_cast<double>(counts.size());
  double sum = 0;
  for (uint64_t count : counts) sum += (count - expected) * (count - expected) / expected;
  return sum;
}

TEST(RngShuffleTest, IsAPermutation) {
  for (size_t count : {0, 1, 2, 1000, 100000}) {
    const std::vector<uint32_t> in = Iota(count);
    std::vector<uint32_t> out = in;
    Rng rng(count);
    rng.Shuffle(out.begin(), out.end());
    std::vector<uint32_t> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, in) << count;
    if (count >= 1000) {
      EXPECT_NE(out, in) << count;
    }
  }
}

// Where a value lands is uniform over the positions: 2,000 shuffles of 7,000
// values put value 0, a middle value and the last value into each of 20
// position bands about equally often. The threshold is chi-square's 0.9999
// quantile at 19 degrees of freedom, so a correct shuffle fails once in 10^4
// seeds; the seeds are fixed.
TEST(RngShuffleTest, PositionsAreUniform) {
  constexpr size_t kCount = 7000;
  constexpr size_t kBands = 20;
  Rng rng(42);
  for (uint32_t tracked : {uint32_t{0}, uint32_t{kCount / 2}, uint32_t{kCount - 1}}) {
    std::vector<uint64_t> bands(kBands, 0);
    for (int shuffle = 0; shuffle < 2000; ++shuffle) {
      std::vector<uint32_t> out = Iota(kCount);
      rng.Shuffle(out.begin(), out.end());
      const size_t position = std::find(out.begin(), out.end(), tracked) - out.begin();
      ++bands[position * kBands / kCount];
    }
    EXPECT_LT(ChiSquare(bands), 49.0) << "value " << tracked;
  }
}

// Two values are in either order equally often: over 2,000 shuffles of
// 4,000 values, value 0 comes before value 1 about half the time (within 4.5
// standard deviations).
TEST(RngShuffleTest, OrderOfTwoValuesIsACoinToss) {
  constexpr int kShuffles = 2000;
  Rng rng(7);
  int first_before_second = 0;
  for (int shuffle = 0; shuffle < kShuffles; ++shuffle) {
    std::vector<uint32_t> out = Iota(4000);
    rng.Shuffle(out.begin(), out.end());
    first_before_second +=
        std::find(out.begin(), out.end(), 0u) < std::find(out.begin(), out.end(), 1u);
  }
  const double deviation = std::sqrt(kShuffles * 0.25);
  EXPECT_LT(std::abs(first_before_second - kShuffles / 2.0), 4.5 * deviation);
}

// The generator's state moves on: two shuffles in a row differ, and a copy of
// the generator taken before the first repeats it.
TEST(RngShuffleTest, AdvancesTheGenerator) {
  Rng rng(5);
  const Rng before = rng;
  std::vector<uint32_t> first = Iota(1000), second = Iota(1000), again = Iota(1000);
  rng.Shuffle(first.begin(), first.end());
  rng.Shuffle(second.begin(), second.end());
  EXPECT_NE(first, second);
  Rng replay = before;
  replay.Shuffle(again.begin(), again.end());
  EXPECT_EQ(again, first);
}

TEST(RngShuffleTest, StopsWhenAsked) {
  std::vector<uint32_t> values = Iota(1 << 20);
  Rng rng(3);
  EXPECT_FALSE(rng.Shuffle(values.begin(), values.end(), [] { return true; }));
  EXPECT_TRUE(rng.Shuffle(values.begin(), values.end(), [] { return false; }));
}

TEST(RngTest, BelowIsUniform) {
  Rng rng(11);
  constexpr uint32_t kBound = 10;
  std::vector<uint64_t> counts(kBound, 0);
  for (int draw = 0; draw < 100000; ++draw) {
    const uint32_t value = rng.Below(kBound);
    ASSERT_LT(value, kBound);
    ++counts[value];
  }
  EXPECT_LT(ChiSquare(counts), 33.7);  // 0.9999 quantile at 9 degrees of freedom
}

}  // namespace
}  // namespace nqueens::internal
