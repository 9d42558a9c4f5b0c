// Inputs taken from the explicit construction or its symmetric images are
// completed at once; everything else goes on to the pipeline.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

// The eight images of a solution under the symmetries of the square, computed
// here by rotating and reflecting the board itself.
std::vector<Columns> Images(const Columns& solution) {
  const uint32_t n = static_cast<uint32_t>(solution.size());
  const auto rotate = [n](const Columns& board) {  // (r, c) -> (c, n + 1 - r)
    Columns rotated(n);
    for (uint32_t r = 1; r <= n; ++r) rotated[board[r - 1] - 1] = n + 1 - r;
    return rotated;
  };
  const auto reflect = [n](const Columns& board) {  // (r, c) -> (r, n + 1 - c)
    Columns reflected(n);
    for (uint32_t r = 1; r <= n; ++r) reflected[r - 1] = n + 1 - board[r - 1];
    return reflected;
  };
  std::vector<Columns> images;
  Columns board = solution;
  for (int turn = 0; turn < 4; ++turn) {
    images.push_back(board);
    images.push_back(reflect(board));
    board = rotate(board);
  }
  return images;
}

Columns EveryKth(const Columns& solution, uint32_t stride, uint32_t offset) {
  Columns composition(solution.size(), kEmptyRow);
  for (size_t row = offset; row < solution.size(); row += stride) composition[row] = solution[row];
  return composition;
}

void ExpectCompletedByConstruction(const Columns& input) {
  CompleteOptions options;
  options.params.max_restarts = 0;
  absl::StatusOr<CompletionResult> result = Complete(input, options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->outcome, Outcome::kSolved);
  EXPECT_EQ(result->stats.start_block, Block::kConstruction);
  absl::StatusOr<ValidationReport> report = Validate(result->columns);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->complete);
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow) {
      ASSERT_EQ(result->columns[row], input[row]) << "row " << row + 1;
    }
  }
}

TEST(KnownSolutionsTest, CompletesEveryImageOfTheConstruction) {
  for (uint32_t n : {4u, 5u, 8u, 9u, 14u, 15u, 100u, 301u, 1000u}) {
    for (const Columns& image : Images(*ConstructSolution(n))) {
      for (uint32_t stride : {2u, 3u, 7u})
        ExpectCompletedByConstruction(EveryKth(image, stride, 1));
    }
  }
}

TEST(KnownSolutionsTest, StrideSubsetsOfLargeConstructionsComplete) {
  // Every third queen of the construction defeats the random stages.
  for (uint32_t n : {1000u, 5000u, 100000u}) {
    ExpectCompletedByConstruction(EveryKth(*ConstructSolution(n), 3, 0));
  }
}

// Members of the explicit families Solve(FORMULA) produces: up to `most`
// variants spread over the family's range, and the products among them.
std::vector<Columns> FamilyMembers(uint32_t n, uint64_t most) {
  std::vector<Columns> members;
  const uint64_t count = FormulaVariantCount(n);
  for (uint64_t i = 0; i < std::min(count, most); ++i) {
    SolveOptions options;
    options.formula_variant = i * count / std::min(count, most);
    absl::StatusOr<CompletionResult> member = Solve(n, SolveMethod::kFormula, options);
    EXPECT_TRUE(member.ok()) << member.status();
    if (member.ok()) members.push_back(member->columns);
  }
  // The products come last.
  for (uint64_t i = count - std::min(count, most); i < count; ++i) {
    SolveOptions options;
    options.formula_variant = i;
    absl::StatusOr<CompletionResult> member = Solve(n, SolveMethod::kFormula, options);
    EXPECT_TRUE(member.ok()) << member.status();
    if (member.ok()) members.push_back(member->columns);
  }
  return members;
}

TEST(KnownSolutionsTest, CompletesEveryImageOfTheFamiliesMembers) {
  for (uint32_t n : {5u, 7u, 11u, 12u, 13u, 25u, 35u, 49u, 100u, 101u, 1001u}) {
    for (const Columns& member : FamilyMembers(n, 8)) {
      for (const Columns& image : Images(member)) {
        for (uint32_t stride : {2u, 3u}) ExpectCompletedByConstruction(EveryKth(image, stride, 1));
      }
    }
  }
}

// `board` with its columns, or its rows, shifted cyclically by `shift`.
Columns ShiftColumns(const Columns& board, uint32_t shift) {
  const auto n = static_cast<uint32_t>(board.size());
  Columns shifted(board);
  for (uint32_t& column : shifted) column = (column - 1 + shift) % n + 1;
  return shifted;
}
Columns ShiftRows(const Columns& board, uint32_t shift) {
  const auto n = static_cast<uint32_t>(board.size());
  Columns shifted(n);
  for (uint32_t row = 0; row < n; ++row) shifted[(row + shift) % n] = board[row];
  return shifted;
}

TEST(KnownSolutionsTest, CompletesTheCyclicShiftsOfProductsThatAreSolutions) {
  // Some shifts of a product are solutions, though not products: their
  // blocks' base columns carry one where the inner columns wrap around.
  int shifted_solutions = 0;
  for (uint32_t n : {35u, 143u, 175u}) {
    const std::vector<Columns> members = FamilyMembers(n, 6);
    // The last members are the products (FamilyMembers).
    for (size_t m = members.size() / 2; m < members.size(); ++m) {
      for (const Columns& image : Images(members[m])) {
        for (uint32_t shift = 1; shift < n; ++shift) {
          for (const Columns& shifted : {ShiftColumns(image, shift), ShiftRows(image, shift)}) {
            const absl::StatusOr<ValidationReport> report = Validate(shifted);
            ASSERT_TRUE(report.ok());
            if (!report->complete) continue;
            ++shifted_solutions;
            for (uint32_t stride : {2u, 3u}) {
              ExpectCompletedByConstruction(EveryKth(shifted, stride, 1));
            }
          }
        }
      }
    }
  }
  EXPECT_GT(shifted_solutions, 0);
}

TEST(KnownSolutionsTest, CompletesModularPlacementsAtAMillionRows) {
  // Q[i] = 3i + 5 mod n (0-based), most rows kept: the random stages give up
  // on such inputs.
  const uint32_t n = 1'000'003;
  Columns modular(n);
  for (uint64_t i = 0; i < n; ++i) modular[i] = static_cast<uint32_t>((3 * i + 5) % n + 1);
  std::mt19937_64 random(7);
  for (const double kept : {0.99, 0.998}) {
    Columns composition = modular;
    std::bernoulli_distribution keep(kept);
    for (uint32_t& column : composition) {
      if (!keep(random)) column = kEmptyRow;
    }
    ExpectCompletedByConstruction(composition);
  }
}

TEST(KnownSolutionsTest, CompletesProductsAtAMillionRows) {
  // n = 5 x 200,001: the last variant is a product of a 200,001-row base
  // solution and a 5 x 5 modular placement.
  const uint32_t n = 1'000'005;
  SolveOptions options;
  options.formula_variant = FormulaVariantCount(n) - 1;
  absl::StatusOr<CompletionResult> product = Solve(n, SolveMethod::kFormula, options);
  ASSERT_TRUE(product.ok()) << product.status();
  ASSERT_EQ(product->stats.formula.rfind("product", 0), 0u) << product->stats.formula;
  std::mt19937_64 random(11);
  std::bernoulli_distribution keep(0.99);
  Columns composition = product->columns;
  for (uint32_t& column : composition) {
    if (!keep(random)) column = kEmptyRow;
  }
  ExpectCompletedByConstruction(composition);
}

TEST(KnownSolutionsTest, OtherInputsGoToThePipeline) {
  std::mt19937_64 random(1);
  const uint32_t n = 500;
  SolveOptions options;
  options.seed = 3;
  absl::StatusOr<CompletionResult> other = Solve(n, SolveMethod::kRandom, options);
  ASSERT_TRUE(other.ok());
  const absl::StatusOr<CompletionResult> result = Complete(EveryKth(other->columns, 2, 0));
  ASSERT_TRUE(result.ok());
  EXPECT_NE(result->stats.start_block, Block::kConstruction);

  CompleteOptions off;
  off.params.match_construction = false;
  const absl::StatusOr<CompletionResult> unmatched =
      Complete(EveryKth(*ConstructSolution(n), 50, 0), off);
  ASSERT_TRUE(unmatched.ok());
  EXPECT_NE(unmatched->stats.start_block, Block::kConstruction);
}

}  // namespace
}  // namespace nqueens
