// Every Solve method, Complete's methods, symmetries and formula variants
// through a real server and channel. Boards are checked with Validate.
#include <grpcpp/grpcpp.h>

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

class MethodsTest : public ServerTest {
 protected:
  grpc::Status Solve(const v1::SolveRequest& request, v1::SolveResponse* response) {
    grpc::ClientContext context;
    return stub().Solve(&context, request, response);
  }
  grpc::Status Complete(const v1::CompleteRequest& request, v1::CompleteResponse* response) {
    grpc::ClientContext context;
    return stub().Complete(&context, request, response);
  }
};

v1::SolveRequest SeededSolve(uint64_t n, v1::Method method) {
  v1::SolveRequest request;
  request.set_n(n);
  request.set_method(method);
  request.set_seed(1);
  return request;
}

void ExpectSolution(const v1::SolveResponse& response, uint64_t n) {
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  const Columns board = ToColumns(response.columns());
  ASSERT_EQ(board.size(), n);
  absl::StatusOr<ValidationReport> report = nqueens::Validate(board);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete);
}

TEST_F(MethodsTest, EveryMethodSolvesAndSaysSo) {
  for (const v1::Method method :
       {v1::METHOD_CONSTRUCTIVE, v1::METHOD_RANDOM, v1::METHOD_MIN_CONFLICTS,
        v1::METHOD_BACKTRACKING, v1::METHOD_GENETIC, v1::METHOD_FORMULA}) {
    SCOPED_TRACE(v1::Method_Name(method));
    v1::SolveResponse response;
    ASSERT_TRUE(Solve(SeededSolve(20, method), &response).ok());
    ExpectSolution(response, 20);
    // The value's name without its prefix.
    EXPECT_EQ("METHOD_" + response.stats().method_used(), v1::Method_Name(method));
  }
}

TEST_F(MethodsTest, ASymmetryMapsTheResult) {
  v1::SolveResponse plain;
  ASSERT_TRUE(Solve(SeededSolve(30, v1::METHOD_CONSTRUCTIVE), &plain).ok());
  for (uint32_t symmetry = 1; symmetry < kSymmetryCount; ++symmetry) {
    SCOPED_TRACE(symmetry);
    v1::SolveRequest request = SeededSolve(30, v1::METHOD_CONSTRUCTIVE);
    request.set_symmetry(symmetry);
    v1::SolveResponse mapped;
    ASSERT_TRUE(Solve(request, &mapped).ok());
    ExpectSolution(mapped, 30);
    absl::StatusOr<Columns> expected = ApplySymmetry(ToColumns(plain.columns()), symmetry);
    ASSERT_TRUE(expected.ok());
    EXPECT_EQ(ToColumns(mapped.columns()), *expected);
  }
  v1::SolveRequest request = SeededSolve(30, v1::METHOD_CONSTRUCTIVE);
  request.set_symmetry(8);
  v1::SolveResponse response;
  ExpectStatus(Solve(request, &response), grpc::StatusCode::INVALID_ARGUMENT, "symmetry");
}

TEST_F(MethodsTest, FormulaVariantsNameTheirFamilyAndTheirRange) {
  const uint32_t n = 35;  // 5 x 7: modular members and products
  const uint64_t variants = FormulaVariantCount(n);
  ASSERT_GT(variants, 1u);
  for (const uint64_t variant : {uint64_t{0}, variants / 2, variants - 1}) {
    v1::SolveRequest request = SeededSolve(n, v1::METHOD_FORMULA);
    request.set_variant(variant);
    v1::SolveResponse response;
    ASSERT_TRUE(Solve(request, &response).ok());
    ExpectSolution(response, n);
    EXPECT_FALSE(response.stats().formula().empty());
  }
  v1::SolveRequest request = SeededSolve(n, v1::METHOD_FORMULA);
  request.set_variant(variants);
  v1::SolveResponse response;
  ExpectStatus(Solve(request, &response), grpc::StatusCode::INVALID_ARGUMENT,
               absl::StrCat(variants - 1));
}

TEST_F(MethodsTest, AnUnknownMethodIsRefused) {
  v1::SolveResponse response;
  ExpectStatus(Solve(SeededSolve(8, static_cast<v1::Method>(17)), &response),
               grpc::StatusCode::INVALID_ARGUMENT, "method 17");
  v1::CompleteRequest request;
  request.set_n(8);
  request.set_method(static_cast<v1::CompleteMethod>(9));
  v1::CompleteResponse completed;
  ExpectStatus(Complete(request, &completed), grpc::StatusCode::INVALID_ARGUMENT, "method 9");
}

TEST_F(MethodsTest, CompleteMethodsKeepTheGivenQueens) {
  Columns composition = KnownSolution(200);
  for (size_t row = 0; row < composition.size(); row += 2) composition[row] = kEmptyRow;
  for (const v1::CompleteMethod method :
       {v1::COMPLETE_METHOD_PIPELINE, v1::COMPLETE_METHOD_MIN_CONFLICTS}) {
    SCOPED_TRACE(v1::CompleteMethod_Name(method));
    v1::CompleteRequest request;
    request.set_n(composition.size());
    request.mutable_columns()->Assign(composition.begin(), composition.end());
    request.set_method(method);
    request.set_seed(3);
    v1::CompleteResponse response;
    ASSERT_TRUE(Complete(request, &response).ok());
    ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
    ExpectSolutionExtending(ToColumns(response.columns()), composition);
  }
}

// Queens at (1, 1) and (2, 3) leave the 4 x 4 board no completion.
TEST_F(MethodsTest, OnlyACompleteSearchSaysUnsolvable) {
  v1::CompleteRequest request;
  request.set_n(4);
  for (const uint32_t column : {1, 3, 0, 0}) request.add_columns(column);
  request.set_method(v1::COMPLETE_METHOD_EXACT);
  v1::CompleteResponse response;
  ASSERT_TRUE(Complete(request, &response).ok());
  EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE);
  EXPECT_EQ(response.stats().method_used(), "EXACT");
  request.set_method(v1::COMPLETE_METHOD_MIN_CONFLICTS);
  ASSERT_TRUE(Complete(request, &response).ok());
  EXPECT_EQ(response.outcome(), v1::OUTCOME_UNDECIDED);
}

}  // namespace
}  // namespace nqueens::testing
