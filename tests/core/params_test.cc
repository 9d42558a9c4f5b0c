#include "nqueens/params.h"

#include <cmath>
#include <cstdint>

#include "gtest/gtest.h"
#include "pipeline/base_levels.h"

namespace nqueens {
namespace {

TEST(BaseLevelsTest, StayOnTheBoardAndInOrder) {
  const PipelineParams params;
  for (double exponent = 1.0; exponent <= 9.0; exponent += 0.01) {
    const uint32_t n = static_cast<uint32_t>(std::pow(10.0, exponent));
    const internal::BaseLevels levels = internal::ComputeBaseLevels(n, params);
    EXPECT_LE(levels.level2, n) << "n=" << n;
    EXPECT_LE(levels.level3, n) << "n=" << n;
    if (n >= params.random_pairing_from_n) {
      // randSet&randSet hands over to rand&rand, never the other way round.
      EXPECT_LT(levels.level2, levels.level3) << "n=" << n;
    }
  }
}

TEST(BaseLevelsTest, FollowThePapersCubicsInDecimalLog) {
  const PipelineParams params;
  // Section 4.1 of the paper, evaluated independently here.
  const auto rows_left = [](double a, double b, double c, double d, uint32_t n) {
    const double u = std::log10(static_cast<double>(n));
    return std::lround(a * u * u * u + b * u * u + c * u + d);
  };
  for (uint32_t n : {100u, 1000u, 29999u}) {
    const internal::BaseLevels levels = internal::ComputeBaseLevels(n, params);
    EXPECT_EQ(n - levels.level2, rows_left(12.749568, -46.535838, 120.011829, -89.600272, n));
    EXPECT_EQ(n - levels.level3, rows_left(9.717958, -46.144187, 101.296409, -50.669273, n));
  }
  for (uint32_t n : {30000u, 1000000u, 100000000u}) {
    const internal::BaseLevels levels = internal::ComputeBaseLevels(n, params);
    EXPECT_EQ(n - levels.level2, rows_left(-0.886344, 56.136743, -146.486415, 227.967782, n));
    EXPECT_EQ(n - levels.level3, rows_left(14.959815, -253.661725, 1584.711376, -3060.691342, n));
  }
}

TEST(BaseLevelsTest, NearlyContinuousWhereTheFormulasSwitch) {
  // With the misprinted +146.486415u, n - baseLevel2 would jump from about
  // 659 to about 1,929 here.
  const PipelineParams params;
  const internal::BaseLevels below = internal::ComputeBaseLevels(29999, params);
  const internal::BaseLevels above = internal::ComputeBaseLevels(30000, params);
  EXPECT_LT(std::abs((29999.0 - below.level2) - (30000.0 - above.level2)), 100.0);
  EXPECT_LT(std::abs((29999.0 - below.level3) - (30000.0 - above.level3)), 100.0);
}

}  // namespace
}  // namespace nqueens
