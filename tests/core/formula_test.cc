#include <cstdint>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

absl::StatusOr<CompletionResult> SolveVariant(uint32_t n, uint64_t variant) {
  SolveOptions options;
  options.formula_variant = variant;
  return Solve(n, SolveMethod::kFormula, options);
}

void ExpectValidMember(uint32_t n, uint64_t variant) {
  absl::StatusOr<CompletionResult> result = SolveVariant(n, variant);
  ASSERT_TRUE(result.ok()) << "n = " << n << ", variant " << variant << ": " << result.status();
  ASSERT_EQ(result->outcome, Outcome::kSolved);
  EXPECT_FALSE(result->stats.formula.empty());
  absl::StatusOr<ValidationReport> report = Validate(result->columns);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete) << "n = " << n << ", variant " << variant << ": "
                                << result->stats.formula;
}

TEST(FormulaTest, CountsMatchTheArticle) {
  EXPECT_EQ(FormulaVariantCount(2), 0u);
  EXPECT_EQ(FormulaVariantCount(3), 0u);
  EXPECT_EQ(FormulaVariantCount(1), 1u);
  EXPECT_EQ(FormulaVariantCount(4), 2u);  // prototypes 1 and 2
  // Prototypes 1, 2 plus the modular placements: 10 at 5, 28 at 7, 88 at
  // 11, 130 at 13 (Usov's counts).
  EXPECT_EQ(FormulaVariantCount(5), 2u + 10);
  EXPECT_EQ(FormulaVariantCount(7), 1u + 28);
  EXPECT_EQ(FormulaVariantCount(11), 2u + 88);
  EXPECT_EQ(FormulaVariantCount(13), 1u + 130);
  // 25 = 5 x 5: prototype 1, 250 modular, and 12 x 10 products (base: the 12 members of
  // 5; inner: the 10 modular placements of 5).
  EXPECT_EQ(FormulaVariantCount(25), 1u + 250 + 120);
  // Large n: counted, not enumerated; a prime has n (n - 3) modular members.
  const uint64_t prime = 1'000'000'007;
  EXPECT_GE(FormulaVariantCount(prime), prime * (prime - 3));
}

TEST(FormulaTest, EveryVariantValidatesForSmallN) {
  ExpectValidMember(1, 0);
  for (uint32_t n = 4; n <= 60; ++n) {
    const uint64_t count = FormulaVariantCount(n);
    ASSERT_GT(count, 0u) << "n = " << n;
    if (count <= 200) {
      for (uint64_t v = 0; v < count; ++v) ExpectValidMember(n, v);
    } else {
      // The first and last 20 and a stride through the rest.
      for (uint64_t v = 0; v < count; v += 1 + count / 150) ExpectValidMember(n, v);
      for (uint64_t v = count - 20; v < count; ++v) ExpectValidMember(n, v);
      for (uint64_t v = 0; v < 20; ++v) ExpectValidMember(n, v);
    }
  }
}

TEST(FormulaTest, ModularMembersAreDistinct) {
  // The 28 modular placements of 7 are different boards.
  std::set<Columns> boards;
  for (uint64_t v = 1; v < 29; ++v) boards.insert(SolveVariant(7, v)->columns);
  EXPECT_EQ(boards.size(), 28u);
  EXPECT_EQ(SolveVariant(7, 1)->stats.formula, "modular (n = 6K+1): shift 0, step 2");
}

TEST(FormulaTest, ProductsValidate) {
  for (uint32_t n : {35u, 49u, 77u, 20u, 125u}) {
    const uint64_t count = FormulaVariantCount(n);
    // Products come last: the last member is one.
    absl::StatusOr<CompletionResult> result = SolveVariant(n, count - 1);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_THAT(result->stats.formula, StartsWith("product")) << "n = " << n;
    for (uint64_t k = 0; k < 70 && 7 * k < count; ++k) ExpectValidMember(n, count - 1 - 7 * k);
  }
}

TEST(FormulaTest, VariantOutOfRangeNamesTheRange) {
  const uint64_t count = FormulaVariantCount(8);
  absl::StatusOr<CompletionResult> result = SolveVariant(8, count);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr(absl::StrCat("0..", count - 1)));
}

TEST(FormulaTest, LargeBoard) {
  const uint32_t n = 1'000'000;
  const uint64_t count = FormulaVariantCount(n);
  for (uint64_t v : {uint64_t{0}, count / 2, count - 1}) ExpectValidMember(n, v);
}

TEST(FormulaTest, CancelledStops) {
  SolveOptions options;
  options.stop.cancelled = [] { return true; };
  EXPECT_EQ(Solve(1'000'000, SolveMethod::kFormula, options).status().code(),
            absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace nqueens
