// Count and Enumerate through a real server and channel: counts against the
// published sequences and a brute force written here, enumerated boards
// checked with Validate.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/validate.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

struct CountReply {
  grpc::Status status;
  std::optional<v1::CountResult> result;
  int progress_messages = 0;
};

struct EnumerateReply {
  grpc::Status status;
  std::vector<Columns> boards;
};

class CountingTest : public ServerTest {
 protected:
  CountReply Count(const v1::CountRequest& request, absl::Duration deadline = absl::Seconds(60)) {
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
    auto stream = stub().Count(&context, request);
    CountReply reply;
    v1::CountResponse message;
    while (stream->Read(&message)) {
      EXPECT_FALSE(reply.result.has_value()) << "a message after the result";
      if (message.has_result()) reply.result = message.result();
      if (message.has_progress()) ++reply.progress_messages;
    }
    reply.status = stream->Finish();
    return reply;
  }

  EnumerateReply Enumerate(const v1::EnumerateRequest& request) {
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(60)));
    auto stream = stub().Enumerate(&context, request);
    EnumerateReply reply;
    v1::EnumerateResponse message;
    while (stream->Read(&message)) {
      for (const v1::Board& board : message.boards())
        reply.boards.push_back(ToColumns(board.columns()));
    }
    reply.status = stream->Finish();
    return reply;
  }
};

v1::CountRequest CountOf(const Columns& composition) {
  v1::CountRequest request;
  request.set_n(composition.size());
  request.mutable_columns()->Assign(composition.begin(), composition.end());
  return request;
}

// Completions of `board` from row `row` on, by trying every column: slow,
// obviously right.
uint64_t BruteForceCount(Columns& board, size_t row) {
  if (row == board.size()) return 1;
  if (board[row] != kEmptyRow) return BruteForceCount(board, row + 1);
  uint64_t count = 0;
  for (uint32_t column = 1; column <= board.size(); ++column) {
    board[row] = column;
    const absl::StatusOr<ValidationReport> report = nqueens::Validate(board);
    if (report.ok() && report->valid) count += BruteForceCount(board, row + 1);
  }
  board[row] = kEmptyRow;
  return count;
}

// OEIS A000170 and A002562.
TEST_F(CountingTest, CountsTheEmptyBoardsAsPublished) {
  const uint64_t solutions[] = {1, 0, 0, 2, 10, 4, 40, 92, 352, 724};
  const uint64_t fundamental[] = {1, 0, 0, 1, 2, 1, 6, 12, 46, 92};
  for (uint32_t n = 1; n <= 10; ++n) {
    SCOPED_TRACE(n);
    v1::CountRequest request;
    request.set_n(n);
    const CountReply reply = Count(request);
    ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
    ASSERT_TRUE(reply.result.has_value());
    EXPECT_EQ(reply.result->n(), n);
    EXPECT_EQ(reply.result->solutions(), solutions[n - 1]);
    ASSERT_TRUE(reply.result->has_fundamental());
    EXPECT_EQ(reply.result->fundamental(), fundamental[n - 1]);
  }
}

TEST_F(CountingTest, CountsCompletionsAsABruteForceDoes) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 12; ++trial) {
    const uint32_t n = 6 + trial % 4;
    Columns composition = KnownSolution(n);
    for (uint32_t& column : composition) {
      if (random() % 3 != 0) column = kEmptyRow;
    }
    const CountReply reply = Count(CountOf(composition));
    ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
    ASSERT_TRUE(reply.result.has_value());
    Columns scratch = composition;
    EXPECT_EQ(reply.result->solutions(), BruteForceCount(scratch, 0));
  }
}

TEST_F(CountingTest, CountsOnALargeBoardWithFewFreeRows) {
  Columns composition = KnownSolution(100'000);
  for (size_t row = 0; row < composition.size(); row += 5'000) composition[row] = kEmptyRow;
  const CountReply reply = Count(CountOf(composition));
  ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
  ASSERT_TRUE(reply.result.has_value());
  EXPECT_GE(reply.result->solutions(), 1u);  // the solution it came from
  EXPECT_FALSE(reply.result->has_fundamental());
}

TEST_F(CountingTest, ReportsProgressWhileItCounts) {
  v1::CountRequest request;
  request.set_n(13);
  // The call's worker reports once the interval has passed, at the latest
  // when it waits for its helpers, so a 1 ns interval gives a message
  // whichever of the server's workers count the parts.
  request.set_progress_seconds(1e-9);
  const CountReply reply = Count(request);
  ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
  EXPECT_EQ(reply.result->solutions(), 73712u);
  EXPECT_GE(reply.progress_messages, 1);
}

TEST_F(CountingTest, RefusesWhatItCannotCount) {
  v1::CountRequest attacking;
  attacking.set_n(8);
  for (const uint32_t column : {1, 2, 0, 0, 0, 0, 0, 0}) attacking.add_columns(column);
  ExpectStatus(Count(attacking).status, grpc::StatusCode::INVALID_ARGUMENT, "row");
  v1::CountRequest too_free;
  too_free.set_n(65);
  ExpectStatus(Count(too_free).status, grpc::StatusCode::INVALID_ARGUMENT, "at most 64 free rows");
  v1::CountRequest bad_interval;
  bad_interval.set_n(8);
  bad_interval.set_progress_seconds(-1);
  ExpectStatus(Count(bad_interval).status, grpc::StatusCode::INVALID_ARGUMENT, "progress_seconds");
}

TEST_F(CountingTest, ACountStopsAtItsDeadline) {
  v1::CountRequest request;
  request.set_n(22);  // hours of work
  const CountReply reply = Count(request, absl::Milliseconds(300));
  EXPECT_EQ(reply.status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_FALSE(reply.result.has_value());
}

TEST_F(CountingTest, EnumeratesEverySolutionOnce) {
  v1::EnumerateRequest request;
  request.set_n(8);
  const EnumerateReply reply = Enumerate(request);
  ASSERT_TRUE(reply.status.ok()) << reply.status.error_message();
  EXPECT_EQ(reply.boards.size(), 92u);
  std::set<Columns> distinct;
  for (const Columns& board : reply.boards) {
    absl::StatusOr<ValidationReport> report = nqueens::Validate(board);
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->complete);
    distinct.insert(board);
  }
  EXPECT_EQ(distinct.size(), reply.boards.size());
}

TEST_F(CountingTest, EnumeratesCompletionsUpToTheLimit) {
  Columns composition(12, kEmptyRow);
  composition[0] = 1;
  v1::EnumerateRequest request;
  request.set_n(12);
  request.mutable_columns()->Assign(composition.begin(), composition.end());
  const EnumerateReply all = Enumerate(request);
  ASSERT_TRUE(all.status.ok()) << all.status.error_message();
  Columns scratch = composition;
  EXPECT_EQ(all.boards.size(), BruteForceCount(scratch, 0));
  for (const Columns& board : all.boards) ExpectSolutionExtending(board, composition);
  request.set_limit(300);  // more than one message's worth
  const EnumerateReply limited = Enumerate(request);
  ASSERT_TRUE(limited.status.ok());
  ASSERT_EQ(limited.boards.size(), std::min<size_t>(300, all.boards.size()));
  EXPECT_TRUE(std::equal(limited.boards.begin(), limited.boards.end(), all.boards.begin()));
}

TEST_F(CountingTest, EnumeratesNothingWhenThereIsNoCompletion) {
  v1::EnumerateRequest request;
  request.set_n(3);
  const EnumerateReply reply = Enumerate(request);
  EXPECT_TRUE(reply.status.ok());
  EXPECT_TRUE(reply.boards.empty());
}

}  // namespace
}  // namespace nqueens::testing
