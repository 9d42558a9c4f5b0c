// The bound on a parsed message's memory holds against protobuf's own
// account of it (SpaceUsedLong: the objects, the repeated fields' capacity,
// the unknown fields), for the shapes that take far more memory parsed than
// on the wire, and it never refuses what the parser accepts.
#include "server/limits/parsed_size.h"

#include <grpcpp/impl/codegen/proto_utils.h>

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/rpc/message_codec.h"

namespace nqueens::server {
namespace {

grpc::ByteBuffer Bytes(const std::string& data) {
  grpc::Slice slice(data);
  return grpc::ByteBuffer(&slice, 1);
}

template <typename Message>
grpc::ByteBuffer Serialized(const Message& message) {
  return SerializeMessage(message);
}

// The bound for `bytes` parsed as a Message, checked against the parse.
template <typename Message>
uint64_t CheckedBound(const grpc::ByteBuffer& bytes) {
  absl::StatusOr<uint64_t> bound = ParsedBytesBound(bytes, *Message::descriptor(), "the request");
  EXPECT_TRUE(bound.ok()) << bound.status();
  Message parsed;
  grpc::ByteBuffer copy(bytes);
  EXPECT_TRUE(ParseMessage(copy, "the request", &parsed).ok());
  EXPECT_GE(*bound, parsed.SpaceUsedLong());
  return bound.value_or(0);
}

TEST(ParsedSizeTest, BoundsADenseBoardCloselyEnough) {
  v1::CompleteRequest request;
  request.set_n(100'000);
  for (uint32_t row = 0; row < 100'000; ++row) request.add_columns(row % 2 == 0 ? row : 0);
  const grpc::ByteBuffer bytes = Serialized(request);
  const uint64_t bound = CheckedBound<v1::CompleteRequest>(bytes);
  // Not so loose that it refuses boards the budget holds: 4 bytes a row,
  // three times over for the field's growth.
  EXPECT_LE(bound, 13 * 100'000u);
}

TEST(ParsedSizeTest, BoundsSparseQueens) {
  v1::CompleteRequest request;
  request.set_n(1'000'000);
  for (uint32_t i = 0; i < 50'000; ++i) request.add_queens();  // 2 bytes each on the wire
  const grpc::ByteBuffer bytes = Serialized(request);
  EXPECT_GE(CheckedBound<v1::CompleteRequest>(bytes), 10 * bytes.Length());
}

TEST(ParsedSizeTest, BoundsABatchOfEmptyItems) {
  v1::CompleteBatchRequest batch;
  for (int i = 0; i < 50'000; ++i) batch.add_items();
  const grpc::ByteBuffer bytes = Serialized(batch);
  EXPECT_GE(CheckedBound<v1::CompleteBatchRequest>(bytes), 50 * bytes.Length());
}

TEST(ParsedSizeTest, BoundsUnknownFieldsAndUnpackedColumns) {
  std::string data;
  for (int i = 0; i < 1000; ++i) {
    data += '\x10';  // field 2 (columns) as a varint: unpacked
    data += static_cast<char>(i % 100 + 1);
    data += '\x78';  // field 15, unknown, a varint
    data += '\x01';
    data += '\x82';  // field 16, unknown, length-delimited
    data += '\x01';
    data += '\x03';
    data += "abc";
  }
  CheckedBound<v1::CompleteRequest>(Bytes(data));
}

TEST(ParsedSizeTest, RefusesOnlyWhatTheParserRefusesAndBoundsTheRest) {
  std::mt19937 random(7);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string data(random() % 24, '\0');
    for (char& byte : data) byte = static_cast<char>(random() % 256);
    const grpc::ByteBuffer bytes = Bytes(data);
    v1::CompleteBatchRequest parsed;
    grpc::ByteBuffer copy(bytes);
    const bool parses = ParseMessage(copy, "the request", &parsed).ok();
    absl::StatusOr<uint64_t> bound =
        ParsedBytesBound(bytes, *v1::CompleteBatchRequest::descriptor(), "message 3 of the batch");
    if (!bound.ok()) {
      EXPECT_FALSE(parses) << "trial " << trial << " parses, but was refused";
      EXPECT_EQ(bound.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(bound.status().message().find("message 3 of the batch"), std::string::npos);
      continue;
    }
    if (!parses) continue;
    ++accepted;
    EXPECT_GE(*bound, parsed.SpaceUsedLong()) << "trial " << trial;
  }
  EXPECT_GT(accepted, 100);  // the comparison covered both sides
}

}  // namespace
}  // namespace nqueens::server
