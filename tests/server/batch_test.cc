// CompleteBatch against a real server on loopback: answers in the order of
// the items, each checked with the validator; a bad item fails alone; a
// message that cannot be parsed ends the batch after the answers before it;
// a cancelled batch frees its memory.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server/limits/memory_estimate.h"
#include "server/server.h"
#include "test_boards.h"
#include "test_constants.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<server::Server> StartBatchServer(
    const std::function<void(server::ServiceOptions&)>& adjust = nullptr) {
  server::ServerOptions options;
  if (adjust) adjust(options.service);
  return StartLoopbackServer(std::move(options));
}

v1::CompleteRequest Item(const Columns& composition) {
  v1::CompleteRequest request;
  request.set_n(composition.size());
  request.mutable_columns()->Assign(composition.begin(), composition.end());
  return request;
}

v1::CompleteBatchRequest Message(const std::vector<v1::CompleteRequest>& items) {
  v1::CompleteBatchRequest message;
  for (const v1::CompleteRequest& item : items) *message.add_items() = item;
  return message;
}

// Compositions of random solutions, n = 8 + i for item i.
Columns Composition(int i) {
  const uint32_t n = 8 + static_cast<uint32_t>(i);
  return test_boards::RandomSubComposition(test_boards::RandomSolution(n, i), n / 3, i);
}

TEST(CompleteBatchTest, AnswersEveryItemInOrderAndABadItemFailsAlone) {
  std::unique_ptr<server::Server> server = StartBatchServer();
  ASSERT_NE(server, nullptr);
  auto stub = v1::NQueensService::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  // Every 50th item has two queens in one column, and item 7 too many rows
  // for a batch. Messages carry 1 to 7 items.
  constexpr int kItems = 200;
  std::vector<Columns> items;
  for (int i = 0; i < kItems; ++i) {
    Columns composition = Composition(i);
    if (i % 50 == 49) composition[0] = composition[1] = 1;
    items.push_back(composition);
  }
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kPatience));
  auto stream = stub->CompleteBatch(&context);
  std::thread writer([&] {
    for (int first = 0, size = 1; first < kItems; first += size, size = size % 7 + 1) {
      v1::CompleteBatchRequest message;
      for (int i = first; i < std::min(kItems, first + size); ++i) {
        *message.add_items() = Item(items[i]);
        if (i == 7) message.mutable_items()->rbegin()->set_n(70'000);
      }
      if (!stream->Write(message)) break;
    }
    stream->WritesDone();
  });
  v1::CompleteBatchResponse response;
  uint64_t expected_index = 0;
  while (stream->Read(&response)) {
    ASSERT_GT(response.answers_size(), 0);
    for (const v1::CompleteBatchAnswer& answer : response.answers()) {
      ASSERT_EQ(answer.index(), expected_index);
      const int i = static_cast<int>(expected_index++);
      if (i == 7) {
        EXPECT_EQ(answer.error().code(), grpc::StatusCode::INVALID_ARGUMENT);
        EXPECT_NE(answer.error().message().find("at most 65536 rows"), std::string::npos);
      } else if (i % 50 == 49) {
        EXPECT_EQ(answer.error().code(), grpc::StatusCode::INVALID_ARGUMENT);
        EXPECT_NE(answer.error().message().find("attack"), std::string::npos);
      } else {
        ASSERT_TRUE(answer.has_response()) << i << ": " << answer.error().message();
        EXPECT_EQ(answer.response().outcome(), v1::OUTCOME_SOLVED) << i;
        ExpectSolutionExtending(ToColumns(answer.response().columns()), items[i]);
      }
    }
  }
  writer.join();
  EXPECT_EQ(expected_index, static_cast<uint64_t>(kItems));
  EXPECT_TRUE(stream->Finish().ok());
}

TEST(CompleteBatchTest, AMessageThatCannotBeParsedEndsTheBatchAfterTheAnswersBeforeIt) {
  std::unique_ptr<server::Server> server = StartBatchServer();
  ASSERT_NE(server, nullptr);
  const std::vector<Columns> items = {Composition(1), Composition(2), Composition(3)};
  // Item 1 of the second message starts a varint that never ends.
  const RawResult result = RawCall(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()),
      "/nqueens.v1.NQueensService/CompleteBatch",
      {Message({Item(items[0]), Item(items[1])}).SerializeAsString(),
       Encode(1, std::string("\x08\xff", 2)), Message({Item(items[2])}).SerializeAsString()});
  ExpectStatus(result.status, grpc::StatusCode::INVALID_ARGUMENT,
               "message 2 of the batch could not be parsed");
  uint64_t answered = 0;
  for (const std::string& bytes : result.responses) {
    v1::CompleteBatchResponse response;
    ASSERT_TRUE(response.ParseFromString(bytes));
    for (const v1::CompleteBatchAnswer& answer : response.answers()) {
      ASSERT_EQ(answer.index(), answered);
      ASSERT_TRUE(answer.has_response()) << answer.error().message();
      ExpectSolutionExtending(ToColumns(answer.response().columns()), items[answered++]);
    }
  }
  EXPECT_EQ(answered, 2u);
}

TEST(CompleteBatchTest, ACancelledBatchFreesItsMemory) {
  std::unique_ptr<server::Server> server = StartBatchServer();
  ASSERT_NE(server, nullptr);
  const uint64_t idle = server->memory_budget().in_use();
  auto stub = v1::NQueensService::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->CompleteBatch(&context);
  const Columns composition =
      test_boards::RandomSubComposition(test_boards::RandomSolution(1000, 1), 300, 1);
  ASSERT_TRUE(stream->Write(Message({Item(composition)})));
  v1::CompleteBatchResponse first;
  ASSERT_TRUE(stream->Read(&first));
  ASSERT_EQ(first.answers_size(), 1);
  EXPECT_TRUE(first.answers(0).has_response());
  // An open batch whose items are answered holds nothing.
  EXPECT_EQ(server->memory_budget().in_use(), idle);
  // Then the client stops reading: the server's window fills.
  for (int i = 0; i < 20 && stream->Write(Message({Item(composition)})); ++i) {
  }
  context.TryCancel();
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_TRUE(server->memory_budget().AwaitInUse(idle, absl::Now() + kPatience));
  EXPECT_TRUE(server->pool().AwaitLoad(0, 0, absl::Now() + kPatience));
}

// Writes `message` every 20 ms until the server ends the call (or 10 s
// pass); the call's status. Every answer is a response, but that of an item
// in work when the call was cut, which may say why instead (`why`).
grpc::Status TrickleUntilCut(
    grpc::ClientReaderWriter<v1::CompleteBatchRequest, v1::CompleteBatchResponse>& stream,
    const v1::CompleteBatchRequest& message, const std::string& why) {
  std::thread reader([&] {
    v1::CompleteBatchResponse response;
    while (stream.Read(&response)) {
      for (const v1::CompleteBatchAnswer& answer : response.answers()) {
        if (!answer.has_response()) {
          EXPECT_THAT(answer.error().message(), HasSubstr(why));
        }
      }
    }
  });
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  while (absl::Now() < give_up && stream.Write(message)) absl::SleepFor(absl::Milliseconds(20));
  stream.WritesDone();
  reader.join();
  return stream.Finish();
}

TEST(CompleteBatchTest, EmptyMessagesDoNotKeepABatchAlive) {
  std::unique_ptr<server::Server> server = StartBatchServer(
      [](server::ServiceOptions& service) { service.stream_idle_timeout = absl::Seconds(1); });
  ASSERT_NE(server, nullptr);
  auto stub = v1::NQueensService::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->CompleteBatch(&context);
  ExpectStatus(TrickleUntilCut(*stream, v1::CompleteBatchRequest(), "--stream-idle-timeout"),
               grpc::StatusCode::CANCELLED, "--stream-idle-timeout");
}

TEST(CompleteBatchTest, ABatchEndsAtTheServersCallTimeLimit) {
  std::unique_ptr<server::Server> server = StartBatchServer([](server::ServiceOptions& service) {
    service.limits.max_call_time = absl::Seconds(1);
    service.stream_idle_timeout = absl::Hours(1);
  });
  ASSERT_NE(server, nullptr);
  auto stub = v1::NQueensService::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->CompleteBatch(&context);
  ExpectStatus(TrickleUntilCut(*stream, Message({Item(Composition(0))}), "--max-call-seconds"),
               grpc::StatusCode::RESOURCE_EXHAUSTED, "--max-call-seconds");
}

TEST(CompleteBatchTest, AMessageIsHeldInTheMemoryBudgetBeforeItIsParsed) {
  std::unique_ptr<server::Server> server = StartBatchServer([](server::ServiceOptions& service) {
    service.workers = 1;
    service.memory_budget = 2 * server::kFixedCallBytes + (uint64_t{32} << 20);
  });
  ASSERT_NE(server, nullptr);
  // 2 bytes each on the wire, a CompleteRequest each once parsed: far more
  // than the 32 MiB the budget leaves for calls.
  v1::CompleteBatchRequest empty_items;
  for (int i = 0; i < 1'000'000; ++i) empty_items.add_items();
  const RawResult result =
      RawCall(grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()),
              "/nqueens.v1.NQueensService/CompleteBatch", {empty_items.SerializeAsString()});
  ExpectStatus(result.status, grpc::StatusCode::RESOURCE_EXHAUSTED, "--memory-budget");
  EXPECT_TRUE(result.responses.empty());
}

}  // namespace
}  // namespace nqueens::testing
