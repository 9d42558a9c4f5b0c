#include "test_util.h"

#include <algorithm>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens::testing {

::testing::AssertionResult IsSolutionExtending(absl::Span<const uint32_t> solution,
                                               absl::Span<const uint32_t> composition) {
  if (solution.size() != composition.size()) {
    return ::testing::AssertionFailure()
           << "the solution has " << solution.size() << " rows, the input " << composition.size();
  }
  const absl::StatusOr<ValidationReport> report = Validate(solution);
  if (!report.ok()) return ::testing::AssertionFailure() << report.status();
  if (!report->complete) {
    return ::testing::AssertionFailure()
           << "not a full solution: " << report->queen_count << " queens, "
           << report->attacking_pairs << " attacking pairs";
  }
  for (size_t row = 0; row < composition.size(); ++row) {
    if (composition[row] != kEmptyRow && solution[row] != composition[row]) {
      return ::testing::AssertionFailure() << "row " << row + 1 << " moved from column "
                                           << composition[row] << " to " << solution[row];
    }
  }
  return ::testing::AssertionSuccess();
}

Columns ThinnedSolution(uint32_t n, uint32_t stride) {
  const std::optional<Columns> solution = ConstructSolution(n);
  Columns composition(n, kEmptyRow);
  if (!solution) return composition;
  for (uint32_t row = 0; row < n; row += stride) {
    composition[row] = (*solution)[row];
  }
  return composition;
}

void ExpectOneErrorLine(const ProcessResult& result, absl::string_view part) {
  EXPECT_THAT(result.err, ::testing::StartsWith("nqueens: "));
  EXPECT_THAT(result.err, ::testing::HasSubstr(std::string(part)));
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
}

std::string TempPath(absl::string_view suffix) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = absl::StrCat(test->test_suite_name(), ".", test->name());
  std::replace(name.begin(), name.end(), '/', '_');
  return absl::StrCat(::testing::TempDir(), name, suffix);
}

}  // namespace nqueens::testing
