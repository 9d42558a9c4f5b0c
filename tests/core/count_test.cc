// Counting and enumerating (nqueens/count.h): the empty boards against the
// published counts, completions against a plain brute force, the parts'
// sums against the thread count, the enumerated boards against the validator
// and the count, the parts of a PartSelector against the whole, and the
// refusals and stops.
#include "nqueens/count.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "counting_stop.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/validate.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using test_stop::CountingStop;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// Whether a queen at (row, column) is safe from every queen of `board`.
bool Safe(const Columns& board, uint64_t row, uint64_t column) {
  for (uint64_t other = 0; other < board.size(); ++other) {
    if (board[other] == kEmptyRow || other == row) continue;
    const uint64_t c = board[other];
    if (c == column || c + other == column + row || c + row == column + other) return false;
  }
  return true;
}

// The completions of `board` from `row` on, every column of every empty row
// tried against every queen: slow, and independent of the implementation.
uint64_t BruteForceCount(Columns& board, uint64_t row = 0) {
  while (row < board.size() && board[row] != kEmptyRow) ++row;
  if (row == board.size()) return 1;
  uint64_t count = 0;
  for (uint32_t column = 1; column <= board.size(); ++column) {
    if (!Safe(board, row, column)) continue;
    board[row] = column;
    count += BruteForceCount(board, row + 1);
    board[row] = kEmptyRow;
  }
  return count;
}

// Every part of the plan, on this thread (cheaper than threads under the
// sanitizers; count_threads_test runs CountSolutions on threads).
CountResult CountInline(const Columns& composition, PartSelector selector = {}) {
  absl::StatusOr<CountPlan> plan = CountPlan::Make(composition, selector);
  EXPECT_TRUE(plan.ok()) << plan.status();
  CountResult failed;
  failed.solutions = UINT64_MAX;
  if (!plan.ok()) return failed;
  std::vector<CountPart> parts;
  for (size_t index = 0; index < plan->parts(); ++index) {
    absl::StatusOr<CountPart> part = plan->Count(index, StopCondition{});
    EXPECT_TRUE(part.ok()) << part.status();
    if (part.ok()) parts.push_back(*part);
  }
  return plan->Sum(parts);
}

uint64_t Count(const Columns& composition) { return CountInline(composition).solutions; }

// Every board of `enumerator`, asked for `batch` at a time.
std::vector<Columns> EnumerateAll(const Columns& composition, size_t batch,
                                  PartSelector selector = {}) {
  absl::StatusOr<SolutionEnumerator> enumerator = SolutionEnumerator::Make(composition, selector);
  EXPECT_TRUE(enumerator.ok()) << enumerator.status();
  std::vector<Columns> boards;
  if (!enumerator.ok()) return boards;
  while (!enumerator->done()) {
    absl::StatusOr<std::vector<Columns>> next = enumerator->Next(batch, StopCondition{});
    EXPECT_TRUE(next.ok()) << next.status();
    if (!next.ok()) break;
    EXPECT_LE(next->size(), batch);
    boards.insert(boards.end(), next->begin(), next->end());
  }
  return boards;
}

void ExpectSolutionsExtending(const std::vector<Columns>& boards, const Columns& composition) {
  std::set<Columns> distinct;
  for (const Columns& board : boards) {
    absl::StatusOr<ValidationReport> report = Validate(board);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->complete);
    ASSERT_EQ(board.size(), composition.size());
    for (size_t row = 0; row < board.size(); ++row) {
      if (composition[row] != kEmptyRow) {
        EXPECT_EQ(board[row], composition[row]) << "row " << row;
      }
    }
    distinct.insert(board);
  }
  EXPECT_EQ(distinct.size(), boards.size());
}

bool IsEmptyBoard(const Columns& board) {
  return std::all_of(board.begin(), board.end(),
                     [](uint32_t column) { return column == kEmptyRow; });
}

// Compositions to count: sub-compositions of random solutions (which
// extend) and random compositions (which often do not), n <= 12.
std::vector<Columns> SmallCompositions() {
  std::vector<Columns> compositions;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    const auto n = static_cast<uint32_t>(4 + seed % 9);
    const Columns solution = test_boards::RandomSolution(n, seed);
    compositions.push_back(test_boards::RandomSubComposition(solution, seed % (n / 2 + 1), seed));
    compositions.push_back(test_boards::RandomComposition(n, seed % 4, seed));
  }
  return compositions;
}

// OEIS A000170 and A002562.
constexpr uint64_t kTotals[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
constexpr uint64_t kFundamental[] = {1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752};

// The part counts a whole search is cut into below: one part, a few, more
// parts than there are pieces to deal out, and the most allowed.
constexpr uint64_t kPartCounts[] = {1, 2, 3, 7, 64, 1000, kMaxPartCount};

// The sum of the `count` parts' counts.
CountResult CountByParts(const Columns& composition, uint64_t count) {
  CountResult sum;
  sum.fundamental = 0;
  for (uint64_t index = 0; index < count; ++index) {
    const CountResult part = CountInline(composition, {index, count});
    sum.solutions += part.solutions;
    if (!part.fundamental.has_value()) sum.fundamental.reset();
    if (sum.fundamental.has_value()) *sum.fundamental += *part.fundamental;
  }
  return sum;
}

TEST(CountTest, EmptyBoardsHaveThePublishedCounts) {
  const auto& totals = kTotals;
  const auto& fundamental = kFundamental;
  for (uint32_t n = 1; n <= 14; ++n) {
    const CountResult result = CountInline(Columns(n, kEmptyRow));
    EXPECT_EQ(result.solutions, totals[n - 1]) << "n = " << n;
    ASSERT_TRUE(result.fundamental.has_value());
    EXPECT_EQ(*result.fundamental, fundamental[n - 1]) << "n = " << n;
  }
}

TEST(CountTest, CompletionsMatchABruteForce) {
  for (const Columns& composition : SmallCompositions()) {
    Columns scratch = composition;
    const uint64_t expected = BruteForceCount(scratch);
    const CountResult result = CountInline(composition);
    EXPECT_EQ(result.solutions, expected) << "n = " << composition.size();
    // Only the empty board is reduced by symmetry.
    EXPECT_EQ(result.fundamental.has_value(), IsEmptyBoard(composition));
  }
}

TEST(CountTest, CountsEveryCompositionOfSmallBoards) {
  for (uint32_t n = 1; n <= 6; ++n) {
    test_boards::ForEachComposition(n, [](const Columns& composition) {
      Columns scratch = composition;
      EXPECT_EQ(Count(composition), BruteForceCount(scratch));
    });
  }
}

TEST(CountTest, CountsOnBoardsWiderThanAWord) {
  // n > 64: the free columns are not a window of the board's.
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const uint32_t n = 70 + 13 * static_cast<uint32_t>(seed);
    const Columns solution = test_boards::RandomSolution(n, seed);
    const Columns composition = test_boards::RandomSubComposition(solution, n - 9, seed);
    Columns scratch = composition;
    const uint64_t expected = BruteForceCount(scratch);
    EXPECT_GE(expected, 1u);
    EXPECT_EQ(Count(composition), expected);
    const std::vector<Columns> boards = EnumerateAll(composition, 7);
    EXPECT_EQ(boards.size(), expected);
    ExpectSolutionsExtending(boards, composition);
  }
}

TEST(CountTest, EnumeratesWhatItCounts) {
  std::vector<Columns> boards = SmallCompositions();
  for (uint32_t n = 1; n <= 9; ++n) boards.push_back(Columns(n, kEmptyRow));
  for (const Columns& composition : boards) {
    const std::vector<Columns> all = EnumerateAll(composition, 1000);
    EXPECT_EQ(all.size(), Count(composition)) << "n = " << composition.size();
    ExpectSolutionsExtending(all, composition);
    for (size_t batch : {1, 7}) EXPECT_EQ(EnumerateAll(composition, batch), all);
  }
}

TEST(CountTest, EnumeratesAFullBoardOnce) {
  const Columns solution = test_boards::RandomSolution(10, 3);
  EXPECT_EQ(EnumerateAll(solution, 5), std::vector<Columns>{solution});
  EXPECT_EQ(Count(solution), 1u);
}

TEST(CountTest, EnumeratorResumesAfterAStop) {
  const Columns board(10, kEmptyRow);
  const std::vector<Columns> all = EnumerateAll(board, 1000);
  ASSERT_EQ(all.size(), 724u);
  absl::StatusOr<SolutionEnumerator> enumerator = SolutionEnumerator::Make(board);
  ASSERT_TRUE(enumerator.ok());
  std::vector<Columns> resumed;
  int stops = 0;
  for (int batch = 0; !enumerator->done(); ++batch) {
    // Every other batch is asked to stop at its first poll (which comes
    // every few thousand nodes, so not in every batch).
    CountingStop stop(batch % 2 == 0 ? 1 : 0);
    absl::StatusOr<std::vector<Columns>> next = enumerator->Next(50, stop.condition());
    if (!next.ok()) {
      EXPECT_EQ(next.status().code(), absl::StatusCode::kCancelled);
      ++stops;
      continue;
    }
    resumed.insert(resumed.end(), next->begin(), next->end());
  }
  EXPECT_GE(stops, 1);
  EXPECT_EQ(resumed, all);
  EXPECT_GT(enumerator->nodes(), 0u);
}

TEST(CountPartsTest, PartsOfEmptyBoardsAddUpToThePublishedCounts) {
  for (uint32_t n = 1; n <= 12; ++n) {
    for (const uint64_t count : kPartCounts) {
      if (count == kMaxPartCount && n > 6) continue;  // 65,536 plans each: slow under ASan
      const CountResult sum = CountByParts(Columns(n, kEmptyRow), count);
      EXPECT_EQ(sum.solutions, kTotals[n - 1]) << "n = " << n << ", " << count << " parts";
      ASSERT_TRUE(sum.fundamental.has_value());
      EXPECT_EQ(*sum.fundamental, kFundamental[n - 1]) << "n = " << n << ", " << count << " parts";
    }
  }
}

TEST(CountPartsTest, PartsOfCompositionsAddUpToTheBruteForce) {
  for (const Columns& composition : SmallCompositions()) {
    Columns scratch = composition;
    const uint64_t expected = BruteForceCount(scratch);
    for (const uint64_t count : {2, 3, 7, 64}) {
      const CountResult sum = CountByParts(composition, count);
      EXPECT_EQ(sum.solutions, expected) << "n = " << composition.size() << ", " << count;
      EXPECT_EQ(sum.fundamental.has_value(), IsEmptyBoard(composition));
    }
  }
}

TEST(CountPartsTest, EnumeratedPartsDealOutTheWholeInItsOrder) {
  std::vector<Columns> boards = SmallCompositions();
  for (uint32_t n = 1; n <= 9; ++n) boards.push_back(Columns(n, kEmptyRow));
  for (const Columns& composition : boards) {
    const std::vector<Columns> whole = EnumerateAll(composition, 1000);
    for (const uint64_t count : {2, 7, 64}) {
      std::set<Columns> seen;
      for (uint64_t index = 0; index < count; ++index) {
        const std::vector<Columns> part = EnumerateAll(composition, 5, {index, count});
        // A composition's count and enumeration cut the same prefixes (the
        // empty board's count cuts constellations instead).
        if (!IsEmptyBoard(composition)) {
          EXPECT_EQ(part.size(), CountInline(composition, {index, count}).solutions);
        }
        // The part's boards come in the whole's order.
        auto at = whole.begin();
        for (const Columns& board : part) {
          at = std::find(at, whole.end(), board);
          ASSERT_NE(at, whole.end()) << "a board out of the whole's order, part " << index;
          EXPECT_TRUE(seen.insert(board).second) << "a board in two parts";
        }
      }
      EXPECT_EQ(seen.size(), whole.size()) << "n = " << composition.size() << ", " << count;
    }
  }
}

// The split is part of the protocol: servers of different versions that
// share the proto must cut a search the same way, or the parts of one job
// would overlap and miss. These counts are what the documented split
// (docs/parts.md) gives; if this test fails, the split changed, and a fleet
// that mixes versions would count wrong.
TEST(CountPartsTest, TheSplitIsFixed) {
  std::vector<uint64_t> empty_board;
  for (uint64_t index = 0; index < 5; ++index) {
    empty_board.push_back(CountInline(Columns(12, kEmptyRow), {index, 5}).solutions);
  }
  EXPECT_EQ(empty_board, (std::vector<uint64_t>{2900, 2792, 2620, 2900, 2988}));
  Columns composition(12, kEmptyRow);
  composition[3] = 5;
  std::vector<uint64_t> completions;
  for (uint64_t index = 0; index < 4; ++index) {
    completions.push_back(CountInline(composition, {index, 4}).solutions);
  }
  EXPECT_EQ(completions, (std::vector<uint64_t>{306, 237, 266, 308}));
  const std::vector<Columns> third = EnumerateAll(Columns(8, kEmptyRow), 100, {2, 3});
  ASSERT_FALSE(third.empty());
  EXPECT_EQ(third.front(), (Columns{1, 7, 4, 6, 8, 2, 5, 3}));
  EXPECT_EQ(third.size(), 32u);
}

TEST(CountPartsTest, RefusesBadPartSelectors) {
  const Columns board(8, kEmptyRow);
  for (const PartSelector selector : {PartSelector{0, 0}, PartSelector{0, kMaxPartCount + 1}}) {
    const absl::Status status = CountPlan::Make(board, selector).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(status.message(), HasSubstr("part_count"));
    EXPECT_THAT(SolutionEnumerator::Make(board, selector).status().message(),
                HasSubstr("part_count"));
  }
  const absl::Status index = CountPlan::Make(board, {3, 3}).status();
  EXPECT_EQ(index.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(index.message(), HasSubstr("part_index"));
}

TEST(CountTest, RefusesAttackingQueens) {
  Columns board(8, kEmptyRow);
  board[1] = 3;
  board[4] = 6;  // (2, 3) and (5, 6) share a diagonal
  const absl::Status count = CountSolutions(board).status();
  EXPECT_EQ(count.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(count.message(), AllOf(HasSubstr("row 2, column 3"), HasSubstr("row 5, column 6")));
  EXPECT_EQ(SolutionEnumerator::Make(board).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CountPlan::Make(board).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CountTest, RefusesMalformedBoardsAndTooManyFreeRows) {
  EXPECT_EQ(CountSolutions(Columns{1, 9, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CountSolutions(Columns{}).status().code(), absl::StatusCode::kInvalidArgument);
  const absl::Status too_free = CountSolutions(Columns(65, kEmptyRow)).status();
  EXPECT_EQ(too_free.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_free.message(), HasSubstr("at most 64 free rows"));
  EXPECT_THAT(too_free.message(), Not(HasSubstr("kCount")));
  // 65 free rows of a larger board, the rest given.
  const Columns solution = test_boards::RandomSolution(100, 1);
  const Columns composition = test_boards::RandomSubComposition(solution, 35, 1);
  EXPECT_THAT(SolutionEnumerator::Make(composition).status().message(), HasSubstr("64"));
  // 64 free rows are allowed (counting them is another matter).
  EXPECT_TRUE(CountPlan::Make(test_boards::RandomSubComposition(solution, 36, 1)).ok());
}

TEST(CountTest, RefusesBadOptions) {
  CountOptions options;
  options.threads.count = 0;
  EXPECT_THAT(CountSolutions(Columns(8, kEmptyRow), options).status().message(),
              HasSubstr("threads"));
}

}  // namespace
}  // namespace nqueens
