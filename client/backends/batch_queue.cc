#include "client/backends/batch_queue.h"

#include <utility>

namespace nqueens::client {
namespace {

// Without encoding it (which sending does): a varint takes at most 5 bytes,
// a queen at most 14, the other fields at most 64.
size_t EncodedBytesAtMost(const v1::CompleteRequest& item) {
  return 5 * static_cast<size_t>(item.columns_size()) +
         14 * static_cast<size_t>(item.queens_size()) + 64;
}

}  // namespace

BatchQueue::BatchQueue(size_t capacity, size_t message_items, size_t message_bytes)
    : capacity_(capacity), message_items_(message_items), message_bytes_(message_bytes) {}

bool BatchQueue::Put(v1::CompleteRequest item) {
  absl::MutexLock lock(&mutex_);
  const auto room = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return abandoned_ || items_.size() < capacity_;
  };
  mutex_.Await(absl::Condition(&room));
  if (abandoned_) return false;
  items_.push_back(std::move(item));
  return true;
}

void BatchQueue::Close() {
  absl::MutexLock lock(&mutex_);
  closed_ = true;
}

bool BatchQueue::Take(v1::CompleteBatchRequest* message) {
  absl::MutexLock lock(&mutex_);
  const auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return abandoned_ || closed_ || !items_.empty();
  };
  mutex_.Await(absl::Condition(&ready));
  message->Clear();
  size_t bytes = 0;
  while (!abandoned_ && !items_.empty() &&
         static_cast<size_t>(message->items_size()) < message_items_) {
    bytes += EncodedBytesAtMost(items_.front());
    if (message->items_size() > 0 && bytes > message_bytes_) break;
    *message->add_items() = std::move(items_.front());
    items_.pop_front();
  }
  return message->items_size() > 0;
}

void BatchQueue::Abandon() {
  absl::MutexLock lock(&mutex_);
  abandoned_ = true;
  items_.clear();
}

}  // namespace nqueens::client
