// x-request-id through a real server: the caller's id, when usable, comes
// back in the response's initial metadata, otherwise a generated one does;
// on every method shape, whether the call succeeds or fails.
#include <grpcpp/grpcpp.h>

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "test_server.h"
#include "wire/request_id.h"

namespace nqueens::testing {
namespace {

using ::testing::MatchesRegex;

constexpr char kGenerated[] = "[0-9a-f]{32}";

// The id in the response's initial metadata; "" when there is none. The
// call must have ended.
std::string EchoedRequestId(const grpc::ClientContext& context) {
  const auto& metadata = context.GetServerInitialMetadata();
  const auto echoed = metadata.find(wire::kRequestIdKey);
  if (echoed == metadata.end()) return "";
  return std::string(echoed->second.data(), echoed->second.size());
}

class RequestIdTest : public ServerTest {
 protected:
  // A Solve of n carrying `request_id` ("": none); returns the echoed id.
  std::string SolveWithId(uint64_t n, const std::string& request_id, grpc::StatusCode expected) {
    grpc::ClientContext context;
    if (!request_id.empty()) context.AddMetadata(wire::kRequestIdKey, request_id);
    v1::SolveRequest request;
    request.set_n(n);
    v1::SolveResponse response;
    EXPECT_EQ(stub().Solve(&context, request, &response).error_code(), expected) << "n = " << n;
    return EchoedRequestId(context);
  }
};

TEST_F(RequestIdTest, EchoesTheCallersIdOnSuccessAndOnError) {
  EXPECT_EQ(SolveWithId(8, "ok-call-1", grpc::StatusCode::OK), "ok-call-1");
  EXPECT_EQ(SolveWithId(0, "bad-call-2", grpc::StatusCode::INVALID_ARGUMENT), "bad-call-2");
  EXPECT_EQ(SolveWithId(kMaxN + 1, "big-call-3", grpc::StatusCode::RESOURCE_EXHAUSTED),
            "big-call-3");
}

TEST_F(RequestIdTest, GeneratesAnIdWhenNoneOrAnUnusableOneIsGiven) {
  const std::string first = SolveWithId(8, "", grpc::StatusCode::OK);
  EXPECT_THAT(first, MatchesRegex(kGenerated));
  EXPECT_NE(SolveWithId(8, "", grpc::StatusCode::OK), first);
  EXPECT_THAT(SolveWithId(0, "", grpc::StatusCode::INVALID_ARGUMENT), MatchesRegex(kGenerated));
  const std::string too_long(wire::kMaxRequestIdLength + 1, 'x');
  EXPECT_THAT(SolveWithId(8, too_long, grpc::StatusCode::OK), MatchesRegex(kGenerated));
  EXPECT_THAT(SolveWithId(8, "has space", grpc::StatusCode::OK), MatchesRegex(kGenerated));
}

TEST_F(RequestIdTest, EchoesOnStreams) {
  {
    grpc::ClientContext context;
    context.AddMetadata(wire::kRequestIdKey, "solve-stream-ok");
    v1::SolveStreamRequest request;
    request.set_n(1000);
    auto reader = stub().SolveStream(&context, request);
    v1::SolveStreamResponse message;
    while (reader->Read(&message)) {
    }
    ASSERT_TRUE(reader->Finish().ok());
    EXPECT_EQ(EchoedRequestId(context), "solve-stream-ok");
  }
  {
    // Refused at its header, before any answer.
    grpc::ClientContext context;
    context.AddMetadata(wire::kRequestIdKey, "complete-stream-bad");
    auto stream = stub().CompleteStream(&context);
    v1::CompleteStreamRequest header;
    header.mutable_header()->set_n(0);
    stream->Write(header);
    stream->WritesDone();
    v1::CompleteStreamResponse message;
    while (stream->Read(&message)) {
    }
    EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_EQ(EchoedRequestId(context), "complete-stream-bad");
  }
  {
    grpc::ClientContext context;
    v1::ValidateStreamResponse response;
    auto writer = stub().ValidateStream(&context, &response);
    writer->WritesDone();  // no header
    EXPECT_EQ(writer->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(EchoedRequestId(context), MatchesRegex(kGenerated));
  }
}

}  // namespace
}  // namespace nqueens::testing
