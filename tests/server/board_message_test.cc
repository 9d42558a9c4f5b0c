// A response serialized with its board appended by hand parses to the same
// message as protobuf's own serialization, for boards of every varint width,
// and stops when the call does.
#include "server/rpc/board_message.h"

#include <grpcpp/impl/codegen/proto_utils.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::server {
namespace {

v1::CompleteResponse Parsed(grpc::ByteBuffer bytes) {
  v1::CompleteResponse message;
  EXPECT_TRUE(grpc::SerializationTraits<v1::CompleteResponse>::Deserialize(&bytes, &message).ok());
  return message;
}

absl::Status Going() { return absl::OkStatus(); }

TEST(BoardMessageTest, ParsesAsProtobufsOwnSerialization) {
  std::mt19937 random(3);
  for (const uint32_t max_column : {0u, 1u, 127u, 128u, 16'383u, 16'384u, 1u << 28, UINT32_MAX}) {
    SCOPED_TRACE(max_column);
    std::vector<uint32_t> columns(max_column == 0 ? 0 : 3000);
    for (uint32_t& column : columns) column = random() % (uint64_t{max_column} + 1);
    if (!columns.empty()) columns.back() = max_column;
    v1::CompleteResponse head;
    head.set_n(columns.size());
    head.set_outcome(v1::OUTCOME_SOLVED);
    head.mutable_stats()->add_lowered_limits("max_backtracks=10 (--max-backtracks)");
    head.set_certificate("certificate");
    absl::StatusOr<grpc::ByteBuffer> bytes =
        SerializeWithBoard(head, v1::CompleteResponse::kColumnsFieldNumber, columns, Going);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    v1::CompleteResponse expected = head;
    expected.mutable_columns()->Assign(columns.begin(), columns.end());
    EXPECT_EQ(bytes->Length(), expected.ByteSizeLong());
    EXPECT_EQ(Parsed(*bytes).SerializeAsString(), expected.SerializeAsString());
  }
}

TEST(BoardMessageTest, StopsWithTheCall) {
  const std::vector<uint32_t> columns(3 * kRowsBetweenChecks, 5);
  for (const int allowed : {0, 1, 3}) {
    int asked = 0;
    absl::StatusOr<grpc::ByteBuffer> bytes =
        SerializeWithBoard(v1::CompleteResponse(), v1::CompleteResponse::kColumnsFieldNumber,
                           columns, [&]() -> absl::Status {
                             if (asked++ < allowed) return absl::OkStatus();
                             return absl::DeadlineExceededError("the deadline passed");
                           });
    EXPECT_EQ(bytes.status().code(), absl::StatusCode::kDeadlineExceeded);
    EXPECT_EQ(asked, allowed + 1);
  }
}

}  // namespace
}  // namespace nqueens::server
