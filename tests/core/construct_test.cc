#include <cstdint>
#include <optional>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

// Asserts that ConstructSolution(n) is a full, valid n x n board.
void ExpectConstructsSolution(uint32_t n) {
  std::optional<Columns> solution = ConstructSolution(n);
  ASSERT_TRUE(solution.has_value()) << "n = " << n;
  ASSERT_EQ(solution->size(), n);
  absl::StatusOr<ValidationReport> report = Validate(*solution);
  ASSERT_TRUE(report.ok()) << "n = " << n << ": " << report.status();
  ASSERT_TRUE(report->complete) << "n = " << n << ": "
                                << (report->conflicts.empty()
                                        ? "rows missing"
                                        : DescribeConflict(report->conflicts.front()));
}

TEST(ConstructSolutionTest, OneByOne) { EXPECT_EQ(ConstructSolution(1), Columns{1}); }

TEST(ConstructSolutionTest, NoSolutionForZeroTwoAndThree) {
  EXPECT_EQ(ConstructSolution(0), std::nullopt);
  EXPECT_EQ(ConstructSolution(2), std::nullopt);
  EXPECT_EQ(ConstructSolution(3), std::nullopt);
}

TEST(ConstructSolutionTest, SolvesEveryNUpTo2000) {
  ExpectConstructsSolution(1);
  for (uint32_t n = 4; n <= 2000; ++n) ExpectConstructsSolution(n);
}

TEST(ConstructSolutionTest, SolvesLargeBoardsOfEveryResidueModSix) {
  for (uint32_t n = 100'000; n < 100'006; ++n) ExpectConstructsSolution(n);
}

}  // namespace
}  // namespace nqueens
