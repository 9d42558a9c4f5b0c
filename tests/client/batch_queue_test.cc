#include "client/backends/batch_queue.h"

#include <thread>

#include "gtest/gtest.h"

namespace nqueens::client {
namespace {

v1::CompleteRequest Item(uint64_t n) {
  v1::CompleteRequest item;
  item.set_n(n);
  item.mutable_columns()->Resize(static_cast<int>(n), 0);
  return item;
}

TEST(BatchQueueTest, AMessageTakesWhatWaitsWithinItsLimitsInOrder) {
  // At most 3 items a message, and more than one only under 1,000 bytes.
  BatchQueue queue(/*capacity=*/10, /*message_items=*/3, /*message_bytes=*/1000);
  for (uint64_t n : {10, 11, 12, 13, 200, 200, 14}) ASSERT_TRUE(queue.Put(Item(n)));
  queue.Close();
  std::vector<std::vector<uint64_t>> messages;
  for (v1::CompleteBatchRequest message; queue.Take(&message);) {
    messages.emplace_back();
    for (const v1::CompleteRequest& item : message.items()) messages.back().push_back(item.n());
  }
  // 200 rows count as up to 5 bytes each: such an item is a message alone.
  const std::vector<std::vector<uint64_t>> expected = {{10, 11, 12}, {13}, {200}, {200}, {14}};
  EXPECT_EQ(messages, expected);
}

TEST(BatchQueueTest, PutWaitsForRoomAndFailsOnceTheSenderGaveUp) {
  BatchQueue queue(/*capacity=*/2, /*message_items=*/64, /*message_bytes=*/1 << 20);
  int put = 0;
  std::thread maker([&] {
    while (put < 100 && queue.Put(Item(8))) ++put;
  });
  v1::CompleteBatchRequest message;
  ASSERT_TRUE(queue.Take(&message));
  EXPECT_LE(message.items_size(), 2);
  queue.Abandon();
  maker.join();
  EXPECT_LT(put, 100);
  EXPECT_FALSE(queue.Take(&message));
  EXPECT_FALSE(queue.Put(Item(8)));
}

}  // namespace
}  // namespace nqueens::client
