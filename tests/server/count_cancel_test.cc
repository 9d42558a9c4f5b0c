// Counts cancelled by their clients while progress messages are on their
// way, hundreds of times: a progress write that fails because the client went
// away must not end the call under the worker that counts (the reactor would
// be deleted while the count still uses it). Run under ASan too, where a use
// after free is reported even when it does not crash.
#include <grpcpp/grpcpp.h>

#include <cstdint>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

class CountCancelTest : public ServerTest {};

// Cancels a Count of n = 20 (minutes of work) after `messages` progress
// messages; the status the client sees.
grpc::Status CancelCountAfter(v1::NQueensService::Stub& stub, int messages) {
  v1::CountRequest request;
  request.set_n(20);
  request.set_progress_seconds(1e-9);  // a progress message whenever one can go
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
  auto stream = stub.Count(&context, request);
  v1::CountResponse response;
  for (int read = 0; read < messages && stream->Read(&response); ++read) {
  }
  context.TryCancel();
  return stream->Finish();
}

TEST_F(CountCancelTest, CancellingCountsMidStreamLeavesTheServerServing) {
  constexpr int kCalls = 300;
  for (int call = 0; call < kCalls; ++call) {
    const grpc::Status status = CancelCountAfter(stub(), call % 4);
    ASSERT_EQ(status.error_code(), grpc::StatusCode::CANCELLED)
        << "call " << call << ": " << status.error_message();
  }
  // Every call ended on the server too, and it still counts right.
  EXPECT_TRUE(server().in_flight().AwaitIdle(absl::Now() + absl::Seconds(30)));
  v1::CountRequest eight;
  eight.set_n(8);
  grpc::ClientContext context;
  auto stream = stub().Count(&context, eight);
  v1::CountResponse response;
  uint64_t solutions = 0;
  while (stream->Read(&response)) {
    if (response.has_result()) solutions = response.result().solutions();
  }
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(solutions, 92u);
}

}  // namespace
}  // namespace nqueens::testing
