#include "shuffle.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "rng.h"

namespace nqueens::internal {
namespace {

const auto kNeverStop = [] { return false; };
// Small buckets, so that lists of a few ten thousand values take the
// bucketed path that large boards take.
constexpr ShuffleSizes kSmallBuckets{.plain_up_to = 1 << 12, .bucket = 1 << 10};

HugeVector<uint32_t> Iota(size_t count) {
  HugeVector<uint32_t> values(count);
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

TEST(ShuffledCopyTest, IsAPermutationInAndAcrossBuckets) {
  // Below 2^15 values one Fisher-Yates; above, buckets dealt at random.
  for (size_t count : {0, 1, 2, 1000, 32768, 32769, 100000, 300007}) {
    const HugeVector<uint32_t> in = Iota(count);
    HugeVector<uint32_t> out;
    Rng rng(count);
    ASSERT_TRUE(ShuffledCopy(in, rng, kNeverStop, out));
    ASSERT_EQ(out.size(), count);
    HugeVector<uint32_t> sorted = out;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, in) << count;
    if (count >= 1000) {
      EXPECT_NE(out, in) << count;
    }
  }
}

TEST(ShuffledCopyTest, CopiesWhatAVisitYields) {
  const auto odd_numbers = [](auto emit) {
    for (uint32_t value = 1; value < 200000; value += 2) {
      if (!emit(value)) return;
    }
  };
  HugeVector<uint32_t> out;
  Rng rng(5);
  ASSERT_TRUE(ShuffledCopy(100000, odd_numbers, rng, kNeverStop, out, kSmallBuckets));
  std::sort(out.begin(), out.end());
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 2 * i + 1);
}

// Where a value lands is uniform over the positions, by one Fisher-Yates and
// when the list is dealt into buckets: 400 shuffles of 70,000 values put
// value 0, a middle value and the last value into each of 20 position bands
// about equally often. The threshold is chi-square's 0.9999 quantile at 19
// degrees of freedom, so a correct shuffle fails once in 10^4 seeds; the
// seeds are fixed.
TEST(ShuffledCopyTest, PositionsAreUniform) {
  constexpr size_t kCount = 70000;
  constexpr size_t kBands = 20;
  constexpr int kShuffles = 400;
  const HugeVector<uint32_t> in = Iota(kCount);
  HugeVector<uint32_t> out;
  Rng rng(42);
  for (const ShuffleSizes sizes : {ShuffleSizes{}, kSmallBuckets}) {
    for (uint32_t tracked : {uint32_t{0}, uint32_t{kCount / 2}, uint32_t{kCount - 1}}) {
      std::vector<uint64_t> bands(kBands, 0);
      for (int shuffle = 0; shuffle < kShuffles; ++shuffle) {
        ASSERT_TRUE(ShuffledCopy(in, rng, kNeverStop, out, sizes));
        const size_t position = std::find(out.begin(), out.end(), tracked) - out.begin();
        ++bands[position * kBands / kCount];
      }
      EXPECT_LT(ChiSquare(bands), 49.0)
          << "value " << tracked << ", buckets from " << sizes.plain_up_to;
    }
  }
}

// Two values are in either order equally often, and neighbours in the input
// do not stay together: over 2,000 shuffles of 40,000 values, value 0 comes
// before value 1 about half the time (within 4.5 standard deviations).
TEST(ShuffledCopyTest, OrderOfTwoValuesIsACoinToss) {
  constexpr size_t kCount = 40000;
  constexpr int kShuffles = 2000;
  const HugeVector<uint32_t> in = Iota(kCount);
  HugeVector<uint32_t> out;
  Rng rng(7);
  int first_before_second = 0;
  for (int shuffle = 0; shuffle < kShuffles; ++shuffle) {
    ASSERT_TRUE(ShuffledCopy(in, rng, kNeverStop, out, kSmallBuckets));
    const auto first = std::find(out.begin(), out.end(), 0u);
    const auto second = std::find(out.begin(), out.end(), 1u);
    first_before_second += first < second;
  }
  const double deviation = std::sqrt(kShuffles * 0.25);
  EXPECT_LT(std::abs(first_before_second - kShuffles / 2.0), 4.5 * deviation);
}

// In a uniformly random order of m values, v + 1 directly follows v for
// about one v in all (m - 1 chances of 1/m each); an order that kept runs of
// the input, inside buckets say, shows hundreds. 20 shuffles: at most 60 such
// pairs where 20 are expected (Poisson; beyond 60 has odds below 10^-12).
TEST(ShuffledCopyTest, NeighboursDoNotStayTogether) {
  constexpr size_t kCount = 70000;
  const HugeVector<uint32_t> in = Iota(kCount);
  HugeVector<uint32_t> out;
  Rng rng(9);
  for (const ShuffleSizes sizes : {ShuffleSizes{}, kSmallBuckets}) {
    int successors = 0;
    for (int shuffle = 0; shuffle < 20; ++shuffle) {
      ASSERT_TRUE(ShuffledCopy(in, rng, kNeverStop, out, sizes));
      for (size_t i = 0; i + 1 < kCount; ++i) successors += out[i + 1] == out[i] + 1;
    }
    EXPECT_LE(successors, 60) << "buckets from " << sizes.plain_up_to;
  }
}

TEST(ShuffledCopyTest, StopsWhenAsked) {
  const HugeVector<uint32_t> in = Iota(1 << 20);
  HugeVector<uint32_t> out;
  Rng rng(3);
  EXPECT_FALSE(ShuffledCopy(in, rng, [] { return true; }, out));
  EXPECT_FALSE(ShuffledCopy(in, rng, [] { return true; }, out, kSmallBuckets));
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
