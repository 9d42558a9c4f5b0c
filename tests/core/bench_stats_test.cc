// The benchmarks' summaries (bench/common/stats.h): what "median" and "p99"
// mean in every report.
#include <cmath>
#include <vector>

#include "bench/common/stats.h"
#include "gtest/gtest.h"

namespace nqueens::bench {
namespace {

TEST(BenchStatsTest, TheMedianIsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes) {
  EXPECT_EQ(Median({3.0}), 3.0);
  EXPECT_EQ(Median({5.0, 1.0, 4.0}), 4.0);  // in any order
  EXPECT_EQ(Median({4.0, 1.0, 2.0, 10.0}), 3.0);
  EXPECT_EQ(Median({2.0, 2.0, 7.0, 2.0, 9.0}), 2.0);
  EXPECT_TRUE(std::isnan(Median({})));  // nothing measured is not a 0
}

TEST(BenchStatsTest, APercentileIsTheSmallestValueThatEnoughValuesDoNotExceed) {
  std::vector<double> latencies;
  for (int i = 100; i >= 1; --i) latencies.push_back(i);  // 1 to 100, descending
  EXPECT_EQ(Percentile(latencies, 0.99), 99.0);
  EXPECT_EQ(Percentile(latencies, 0.5), 50.0);
  EXPECT_EQ(Percentile(latencies, 1.0), 100.0);
  EXPECT_EQ(Percentile(latencies, 0.001), 1.0);
  // Always one of the values, never between two.
  EXPECT_EQ(Percentile({10.0, 20.0, 30.0, 40.0}, 0.5), 20.0);
  EXPECT_EQ(Percentile({10.0, 20.0, 30.0, 40.0}, 0.51), 30.0);
  EXPECT_EQ(Percentile({7.0}, 0.99), 7.0);
  EXPECT_TRUE(std::isnan(Percentile({}, 0.99)));
}

}  // namespace
}  // namespace nqueens::bench
