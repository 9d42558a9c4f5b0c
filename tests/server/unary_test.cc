// Solve, Complete and Validate through a real server and channel.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/validate.h"
#include "test_server.h"
#include "wire/limits.h"

namespace nqueens::testing {
namespace {

using v1::CompleteRequest;
using v1::CompleteResponse;
using v1::SolveRequest;
using v1::SolveResponse;
using v1::ValidateRequest;
using v1::ValidateResponse;

class UnaryTest : public ServerTest {
 protected:
  grpc::Status Solve(const SolveRequest& request, SolveResponse* response) {
    grpc::ClientContext context;
    return stub().Solve(&context, request, response);
  }
  grpc::Status Complete(const CompleteRequest& request, CompleteResponse* response) {
    grpc::ClientContext context;
    return stub().Complete(&context, request, response);
  }
  grpc::Status Validate(const ValidateRequest& request, ValidateResponse* response) {
    grpc::ClientContext context;
    return stub().Validate(&context, request, response);
  }
};

SolveRequest MakeSolve(uint64_t n, v1::Method method) {
  SolveRequest request;
  request.set_n(n);
  request.set_method(method);
  return request;
}

CompleteRequest DenseComplete(const Columns& composition) {
  CompleteRequest request;
  request.set_n(composition.size());
  request.mutable_columns()->Assign(composition.begin(), composition.end());
  return request;
}

CompleteRequest SparseComplete(uint64_t n, const std::vector<Queen>& queens) {
  CompleteRequest request;
  request.set_n(n);
  for (const Queen& queen : queens) {
    v1::Queen* added = request.add_queens();
    added->set_row(queen.row);
    added->set_column(queen.column);
  }
  return request;
}

ValidateRequest DenseValidate(const Columns& board) {
  ValidateRequest request;
  request.set_n(board.size());
  request.mutable_columns()->Assign(board.begin(), board.end());
  return request;
}

// Every `stride`-th queen of `solution`: a composition that `solution` extends.
Columns EveryNth(const Columns& solution, size_t stride) {
  Columns composition(solution.size(), kEmptyRow);
  for (size_t row = 0; row < solution.size(); row += stride) composition[row] = solution[row];
  return composition;
}

TEST_F(UnaryTest, SolveGivesValidatedSolutionsWithBothMethods) {
  for (v1::Method method : {v1::METHOD_CONSTRUCTIVE, v1::METHOD_RANDOM}) {
    for (uint64_t n : {1, 8, 1000}) {
      SolveResponse response;
      ASSERT_TRUE(Solve(MakeSolve(n, method), &response).ok());
      EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED) << "n = " << n;
      EXPECT_EQ(response.n(), n);
      ExpectSolutionExtending(ToColumns(response.columns()), Columns(n, kEmptyRow));
    }
  }
}

TEST_F(UnaryTest, SolveReportsTwoAndThreeUnsolvable) {
  for (v1::Method method : {v1::METHOD_CONSTRUCTIVE, v1::METHOD_RANDOM}) {
    for (uint64_t n : {2, 3}) {
      SolveResponse response;
      ASSERT_TRUE(Solve(MakeSolve(n, method), &response).ok());
      EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE) << "n = " << n;
      EXPECT_TRUE(response.columns().empty());
    }
  }
}

TEST_F(UnaryTest, SolveSeedIsReportedAndReproducesTheBoard) {
  SolveRequest request = MakeSolve(500, v1::METHOD_RANDOM);
  SolveResponse unseeded;
  SolveResponse other_unseeded;
  ASSERT_TRUE(Solve(request, &unseeded).ok());
  ASSERT_TRUE(Solve(request, &other_unseeded).ok());
  // Two fresh 64-bit seeds collide with probability 2^-64.
  EXPECT_NE(unseeded.stats().seed(), other_unseeded.stats().seed());

  request.set_seed(unseeded.stats().seed());
  SolveResponse replayed;
  ASSERT_TRUE(Solve(request, &replayed).ok());
  EXPECT_EQ(replayed.stats().seed(), unseeded.stats().seed());
  EXPECT_EQ(ToColumns(replayed.columns()), ToColumns(unseeded.columns()));
}

TEST_F(UnaryTest, CompleteExtendsDenseComposition) {
  for (uint32_t n : {8u, 1000u}) {
    const Columns composition = EveryNth(KnownSolution(n), 3);
    CompleteResponse response;
    ASSERT_TRUE(Complete(DenseComplete(composition), &response).ok());
    ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED) << "n = " << n;
    EXPECT_EQ(response.n(), n);
    ExpectSolutionExtending(ToColumns(response.columns()), composition);
  }
}

TEST_F(UnaryTest, CompleteExtendsSparseComposition) {
  const Columns composition = EveryNth(KnownSolution(1000), 2);
  CompleteResponse response;
  ASSERT_TRUE(Complete(SparseComplete(1000, QueensFromDense(composition)), &response).ok());
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(ToColumns(response.columns()), composition);
}

TEST_F(UnaryTest, CompleteOfNothingIsASolution) {
  CompleteRequest request;
  request.set_n(30);
  CompleteResponse response;
  ASSERT_TRUE(Complete(request, &response).ok());
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  ExpectSolutionExtending(ToColumns(response.columns()), Columns(30, kEmptyRow));
}

TEST_F(UnaryTest, CompleteFillsTheStats) {
  const Columns composition = EveryNth(KnownSolution(1000), 4);
  CompleteRequest request = DenseComplete(composition);
  request.set_seed(1234);
  CompleteResponse response;
  ASSERT_TRUE(Complete(request, &response).ok());
  ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  const v1::Stats& stats = response.stats();
  EXPECT_EQ(stats.seed(), 1234u);
  EXPECT_EQ(stats.queens_given(), QueensFromDense(composition).size());
  EXPECT_NE(stats.start_block(), v1::BLOCK_UNSPECIFIED);
  EXPECT_GT(stats.total_seconds(), 0.0);
  EXPECT_FALSE(stats.blocks().empty());
  for (const v1::BlockStats& block : stats.blocks()) {
    EXPECT_NE(block.block(), v1::BLOCK_UNSPECIFIED);
    EXPECT_TRUE(block.seconds() > 0 || block.backtracks_to() > 0) << block.ShortDebugString();
  }
}

// The two solutions of n = 4 are 2 4 1 3 and 3 1 4 2: a queen in a corner
// (row 1, column 1) is in neither, so the composition has no extension.
// Checked here by trying every placement of the other three rows.
TEST_F(UnaryTest, CornerQueenOnFourByFourIsUnsolvable) {
  for (uint32_t a = 1; a <= 4; ++a) {
    for (uint32_t b = 1; b <= 4; ++b) {
      for (uint32_t c = 1; c <= 4; ++c) {
        absl::StatusOr<ValidationReport> report = nqueens::Validate(Columns{1, a, b, c});
        ASSERT_TRUE(report.ok());
        ASSERT_FALSE(report->complete) << "1 " << a << " " << b << " " << c;
      }
    }
  }
  CompleteResponse response;
  ASSERT_TRUE(Complete(SparseComplete(4, {{1, 1}}), &response).ok());
  EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE);
  EXPECT_TRUE(response.columns().empty());
}

TEST_F(UnaryTest, ValidateAcceptsASolution) {
  ValidateResponse response;
  ASSERT_TRUE(Validate(DenseValidate(KnownSolution(100)), &response).ok());
  EXPECT_TRUE(response.valid());
  EXPECT_TRUE(response.complete());
  EXPECT_EQ(response.n(), 100u);
  EXPECT_EQ(response.queen_count(), 100u);
  EXPECT_EQ(response.attacking_pairs(), 0u);
  EXPECT_TRUE(response.conflicts().empty());
}

TEST_F(UnaryTest, ValidateReportsConflicts) {
  // (1,1) and (2,2) share the diagonal r = n + column - row.
  ValidateResponse response;
  ASSERT_TRUE(Validate(DenseValidate({1, 2, 0, 0}), &response).ok());
  EXPECT_FALSE(response.valid());
  EXPECT_FALSE(response.complete());
  EXPECT_EQ(response.queen_count(), 2u);
  EXPECT_EQ(response.attacking_pairs(), 1u);
  ASSERT_EQ(response.conflicts_size(), 1);
  const v1::Conflict& conflict = response.conflicts(0);
  EXPECT_EQ(conflict.first().row(), 1u);
  EXPECT_EQ(conflict.first().column(), 1u);
  EXPECT_EQ(conflict.second().row(), 2u);
  EXPECT_EQ(conflict.second().column(), 2u);
  EXPECT_EQ(conflict.line(), v1::LINE_DIAGONAL);
}

TEST_F(UnaryTest, ValidateAcceptsSparseQueens) {
  ValidateRequest request;
  request.set_n(5);
  v1::Queen* queen = request.add_queens();
  queen->set_row(2);
  queen->set_column(4);
  ValidateResponse response;
  ASSERT_TRUE(Validate(request, &response).ok());
  EXPECT_TRUE(response.valid());
  EXPECT_FALSE(response.complete());
  EXPECT_EQ(response.queen_count(), 1u);
}

TEST_F(UnaryTest, ValidateConflictListIsBounded) {
  // All queens in column 1: every pair attacks.
  const Columns board(2000, 1);
  ValidateResponse by_default;
  ASSERT_TRUE(Validate(DenseValidate(board), &by_default).ok());
  EXPECT_EQ(by_default.attacking_pairs(), 2000u * 1999 / 2);
  EXPECT_EQ(by_default.conflicts_size(), 10);

  ValidateRequest request = DenseValidate(board);
  request.set_max_conflicts(3);
  ValidateResponse three;
  ASSERT_TRUE(Validate(request, &three).ok());
  EXPECT_EQ(three.conflicts_size(), 3);

  request.set_max_conflicts(1'000'000);
  ValidateResponse capped;
  ASSERT_TRUE(Validate(request, &capped).ok());
  EXPECT_GT(capped.conflicts_size(), 10);
  EXPECT_LE(capped.conflicts_size(), 1000);
}

// --- Bad input. ---

TEST_F(UnaryTest, ZeroNIsInvalid) {
  SolveResponse solve;
  ExpectStatus(Solve(MakeSolve(0, v1::METHOD_CONSTRUCTIVE), &solve),
               grpc::StatusCode::INVALID_ARGUMENT, "n must be 1..2147483647");
  CompleteResponse complete;
  ExpectStatus(Complete(CompleteRequest(), &complete), grpc::StatusCode::INVALID_ARGUMENT,
               "n must be 1..2147483647");
  ValidateResponse validate;
  ExpectStatus(Validate(ValidateRequest(), &validate), grpc::StatusCode::INVALID_ARGUMENT,
               "n must be 1..2147483647");
}

TEST_F(UnaryTest, NAboveMaxNIsResourceExhausted) {
  const uint64_t too_big = kMaxN + 1;
  const std::string named = "n = " + std::to_string(too_big);
  SolveResponse solve;
  ExpectStatus(Solve(MakeSolve(too_big, v1::METHOD_CONSTRUCTIVE), &solve),
               grpc::StatusCode::RESOURCE_EXHAUSTED, named);
  CompleteRequest complete_request;
  complete_request.set_n(too_big);
  CompleteResponse complete;
  ExpectStatus(Complete(complete_request, &complete), grpc::StatusCode::RESOURCE_EXHAUSTED, named);
  ValidateRequest validate_request;
  validate_request.set_n(too_big);
  ValidateResponse validate;
  ExpectStatus(Validate(validate_request, &validate), grpc::StatusCode::RESOURCE_EXHAUSTED, named);
}

TEST_F(UnaryTest, UnknownMethodIsInvalid) {
  SolveResponse response;
  ExpectStatus(Solve(MakeSolve(8, static_cast<v1::Method>(7)), &response),
               grpc::StatusCode::INVALID_ARGUMENT, "method 7");
}

TEST_F(UnaryTest, DenseAndSparseTogetherAreInvalid) {
  CompleteRequest request = DenseComplete({0, 0, 0, 0});
  v1::Queen* queen = request.add_queens();
  queen->set_row(1);
  queen->set_column(2);
  CompleteResponse response;
  ExpectStatus(Complete(request, &response), grpc::StatusCode::INVALID_ARGUMENT, "not both");
}

TEST_F(UnaryTest, DenseLengthMustBeN) {
  CompleteRequest request = DenseComplete({2, 4, 1});
  request.set_n(4);
  CompleteResponse response;
  ExpectStatus(Complete(request, &response), grpc::StatusCode::INVALID_ARGUMENT,
               "the board has 3 rows, but n is 4");
}

TEST_F(UnaryTest, ColumnAboveNNamesTheRow) {
  CompleteResponse complete;
  ExpectStatus(Complete(DenseComplete({1, 0, 9, 0}), &complete), grpc::StatusCode::INVALID_ARGUMENT,
               "row 3 has column 9");
  ValidateResponse validate;
  ExpectStatus(Validate(DenseValidate({0, 5, 0, 0}), &validate), grpc::StatusCode::INVALID_ARGUMENT,
               "row 2 has column 5");
}

TEST_F(UnaryTest, AttackingQueensAreNotAComposition) {
  CompleteResponse response;
  ExpectStatus(Complete(DenseComplete({0, 3, 0, 0, 6, 0, 0, 0}), &response),
               grpc::StatusCode::INVALID_ARGUMENT, "(row 2, column 3) and (row 5, column 6)");
}

TEST_F(UnaryTest, BadSparseQueensAreNamed) {
  CompleteResponse twice;
  ExpectStatus(Complete(SparseComplete(8, {{2, 1}, {2, 5}}), &twice),
               grpc::StatusCode::INVALID_ARGUMENT, "row 2 is given twice");
  CompleteResponse off_board;
  ExpectStatus(Complete(SparseComplete(8, {{9, 1}}), &off_board),
               grpc::StatusCode::INVALID_ARGUMENT, "(row 9, column 1)");
  CompleteResponse row_zero;
  ExpectStatus(Complete(SparseComplete(8, {{0, 1}}), &row_zero), grpc::StatusCode::INVALID_ARGUMENT,
               "(row 0, column 1)");
}

TEST_F(UnaryTest, AnAnswerLargerThanTheClientTakesIsRefusedBeforeAnyWork) {
  grpc::ClientContext context;
  SolveResponse response;
  const grpc::Status status =
      stub().Solve(&context, MakeSolve(10'000'000, v1::METHOD_RANDOM), &response);
  ExpectStatus(status, grpc::StatusCode::FAILED_PRECONDITION,
               "more than the 4.0 MiB the client takes in one message: use the streaming RPC");
  // A client that takes more says so.
  grpc::ClientContext larger;
  larger.AddMetadata(wire::kMaxResponseBytesKey, "1000000000");
  larger.set_deadline(absl::ToChronoTime(absl::Now() + absl::Milliseconds(5)));
  EXPECT_EQ(stub().Solve(&larger, MakeSolve(10'000'000, v1::METHOD_RANDOM), &response).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(UnaryTest, ClientDeadlineStopsALargeSolve) {
  grpc::ClientContext context;
  context.AddMetadata(wire::kMaxResponseBytesKey, "1000000000");
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Milliseconds(5)));
  SolveResponse response;
  const grpc::Status status =
      stub().Solve(&context, MakeSolve(10'000'000, v1::METHOD_RANDOM), &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << status.error_message();
}

}  // namespace
}  // namespace nqueens::testing
