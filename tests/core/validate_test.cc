#include "nqueens/validate.h"

#include <cstdint>
#include <string>
#include <vector>

#include "base/rng.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_boards.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;

// The conflicts Validate should report, found the slow way: for each queen in
// row order and each of its lines (column, diagonal, anti-diagonal), the
// topmost earlier queen on that line if there is one.
std::vector<Conflict> BruteForceConflicts(const Columns& board, size_t max_conflicts) {
  std::vector<Conflict> conflicts;
  auto on_line = [&](AttackLine line, int64_t i, int64_t j) {
    const int64_t ci = board[i], cj = board[j];
    switch (line) {
      case AttackLine::kColumn:
        return ci == cj;
      case AttackLine::kDiagonal:
        return ci - i == cj - j;
      case AttackLine::kAntiDiagonal:
        return ci + i == cj + j;
    }
    return false;
  };
  for (size_t i = 0; i < board.size(); ++i) {
    if (board[i] == kEmptyRow) continue;
    for (AttackLine line :
         {AttackLine::kColumn, AttackLine::kDiagonal, AttackLine::kAntiDiagonal}) {
      for (size_t j = 0; j < i; ++j) {
        if (board[j] == kEmptyRow || !on_line(line, i, j)) continue;
        if (conflicts.size() < max_conflicts) {
          conflicts.push_back({{static_cast<uint32_t>(j + 1), board[j]},
                               {static_cast<uint32_t>(i + 1), board[i]},
                               line});
        }
        break;
      }
    }
  }
  return conflicts;
}

// Conflicts as text, so that a mismatch prints readably.
std::vector<std::string> Describe(const std::vector<Conflict>& conflicts) {
  std::vector<std::string> lines;
  for (const Conflict& conflict : conflicts) lines.push_back(DescribeConflict(conflict));
  return lines;
}

// Random boards of three shapes: scattered queens, queens crowded into two
// columns, and queens crowded along a diagonal or anti-diagonal.
Columns RandomBoard(uint32_t n, internal::Rng& rng) {
  Columns board(n, kEmptyRow);
  const uint32_t shape = rng.Below(3);
  const bool anti = rng.Below(2) == 1;
  for (uint32_t i = 0; i < n; ++i) {
    if (rng.Below(4) == 0) continue;  // some rows stay empty
    switch (shape) {
      case 0:
        board[i] = 1 + rng.Below(n);
        break;
      case 1:
        board[i] = 1 + rng.Below(n < 2 ? n : 2);
        break;
      default: {
        const uint32_t along = anti ? n - 1 - i : i;  // 0-based column on the line
        board[i] = 1 + (rng.Below(3) == 0 ? rng.Below(n) : along);
        break;
      }
    }
  }
  return board;
}

TEST(ValidateTest, RejectsTheEmptyBoardSize) {
  absl::StatusOr<ValidationReport> report = Validate(Columns{});
  EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(report.status().message(), HasSubstr("n must be at least 1"));
}

TEST(ValidateTest, NamesTheRowWithAColumnAboveN) {
  absl::StatusOr<ValidationReport> report = Validate(Columns{1, 1, 9, 0});
  EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(report.status().message(), "row 3 has column 9, but the board has only 4 columns");
}

TEST(ValidateTest, OneByOneBoard) {
  absl::StatusOr<ValidationReport> empty = Validate(Columns{0});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->valid);
  EXPECT_FALSE(empty->complete);
  EXPECT_EQ(empty->queen_count, 0u);

  absl::StatusOr<ValidationReport> full = Validate(Columns{1});
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_TRUE(full->complete);
  EXPECT_EQ(full->n, 1u);
  EXPECT_EQ(full->queen_count, 1u);
}

TEST(ValidateTest, AcceptsASolutionAndAPartialComposition) {
  absl::StatusOr<ValidationReport> solution = Validate(Columns{2, 4, 1, 3});
  ASSERT_TRUE(solution.ok()) << solution.status();
  EXPECT_TRUE(solution->valid);
  EXPECT_TRUE(solution->complete);
  EXPECT_EQ(solution->attacking_pairs, 0u);
  EXPECT_TRUE(solution->conflicts.empty());

  absl::StatusOr<ValidationReport> partial = Validate(Columns{2, 0, 1, 3});
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_TRUE(partial->valid);
  EXPECT_FALSE(partial->complete);
  EXPECT_EQ(partial->queen_count, 3u);
}

TEST(ValidateTest, NamesConflictsOnEveryKindOfLine) {
  // (2,3)-(3,2) share an anti-diagonal, (2,3)-(4,3) a column, (3,2)-(4,3) a
  // diagonal; (1,1) attacks nobody.
  absl::StatusOr<ValidationReport> report = Validate(Columns{1, 3, 2, 3});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->valid);
  EXPECT_FALSE(report->complete);
  EXPECT_EQ(report->attacking_pairs, 3u);
  EXPECT_THAT(Describe(report->conflicts),
              ::testing::ElementsAre(
                  "queens at (row 2, column 3) and (row 3, column 2) share an anti-diagonal",
                  "queens at (row 2, column 3) and (row 4, column 3) share a column",
                  "queens at (row 3, column 2) and (row 4, column 3) share a diagonal"));
}

TEST(ValidateTest, FirstIsTheTopmostQueenOfTheLine) {
  // Four queens in column 2: six pairs, and every conflict starts at row 1.
  absl::StatusOr<ValidationReport> report = Validate(Columns{2, 0, 2, 0, 2, 2});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->attacking_pairs, 6u);
  EXPECT_THAT(
      Describe(report->conflicts),
      ::testing::ElementsAre("queens at (row 1, column 2) and (row 3, column 2) share a column",
                             "queens at (row 1, column 2) and (row 5, column 2) share a column",
                             "queens at (row 1, column 2) and (row 6, column 2) share a column"));
}

TEST(ValidateTest, CountsPairsOnACrowdedLineWithoutOverflow) {
  // Every queen on the main diagonal: n(n-1)/2 pairs, more than 2^32.
  const uint32_t n = 100'000;
  Columns board(n);
  for (uint32_t i = 0; i < n; ++i) board[i] = i + 1;
  absl::StatusOr<ValidationReport> report = Validate(board);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->attacking_pairs, uint64_t{n} * (n - 1) / 2);
  ASSERT_EQ(report->conflicts.size(), 10u);  // the default max_conflicts
  for (size_t c = 0; c < report->conflicts.size(); ++c) {
    EXPECT_EQ(report->conflicts[c].first, (Queen{1, 1}));
    EXPECT_EQ(report->conflicts[c].second.row, c + 2);
    EXPECT_EQ(report->conflicts[c].line, AttackLine::kDiagonal);
  }
}

TEST(ValidateTest, MatchesBruteForceOnRandomSmallBoards) {
  internal::Rng rng(20240601);
  for (int trial = 0; trial < 20'000; ++trial) {
    const uint32_t n = 1 + rng.Below(14);
    const Columns board = RandomBoard(n, rng);
    ValidateOptions options;
    options.max_conflicts = rng.Below(6);
    absl::StatusOr<ValidationReport> report = Validate(board, options);
    ASSERT_TRUE(report.ok()) << report.status();
    const uint64_t pairs = test_boards::BruteForceAttackingPairs(board);
    uint64_t queens = 0;
    for (uint32_t column : board) queens += column != kEmptyRow;
    ASSERT_EQ(report->attacking_pairs, pairs) << ::testing::PrintToString(board);
    ASSERT_EQ(report->queen_count, queens);
    ASSERT_EQ(report->valid, pairs == 0);
    ASSERT_EQ(report->complete, pairs == 0 && queens == n);
    ASSERT_EQ(Describe(report->conflicts),
              Describe(BruteForceConflicts(board, options.max_conflicts)))
        << ::testing::PrintToString(board);
  }
}

TEST(CheckCompositionTest, AcceptsCompositions) {
  EXPECT_TRUE(CheckComposition(Columns{0}).ok());
  EXPECT_TRUE(CheckComposition(Columns{2, 4, 1, 3}).ok());
  EXPECT_TRUE(CheckComposition(Columns{0, 4, 0, 3, 0}).ok());
}

TEST(CheckCompositionTest, NamesTheFirstAttackingPair) {
  absl::Status status = CheckComposition(Columns{2, 0, 5, 4, 1, 1});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("queens at (row 3, column 5) and (row 4, column 4) "
                                          "share an anti-diagonal"));
}

TEST(CheckCompositionTest, CountsThePairsInGoodEnglish) {
  EXPECT_EQ(CheckComposition(Columns{1, 2, 0, 0}).message(),
            "two queens attack each other: queens at (row 1, column 1) and (row 2, column 2) "
            "share a diagonal");
  EXPECT_THAT(CheckComposition(Columns{1, 2, 3, 0}).message(),
              HasSubstr("(3 attacking pairs in all)"));
}

TEST(CheckCompositionTest, PassesOnShapeErrors) {
  EXPECT_EQ(CheckComposition(Columns{}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(CheckComposition(Columns{0, 3}).message(), HasSubstr("row 2 has column 3"));
}

TEST(DescribeConflictTest, NamesBothQueensAndTheLine) {
  EXPECT_EQ(DescribeConflict({{2, 3}, {5, 6}, AttackLine::kDiagonal}),
            "queens at (row 2, column 3) and (row 5, column 6) share a diagonal");
  EXPECT_EQ(DescribeConflict({{1, 4}, {3, 4}, AttackLine::kColumn}),
            "queens at (row 1, column 4) and (row 3, column 4) share a column");
  EXPECT_EQ(DescribeConflict({{1, 4}, {2, 3}, AttackLine::kAntiDiagonal}),
            "queens at (row 1, column 4) and (row 2, column 3) share an anti-diagonal");
}

}  // namespace
}  // namespace nqueens
