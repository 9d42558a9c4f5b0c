// The items of a remote batch between the thread that makes them (from the
// input) and the thread that sends them: every item made while the previous
// message was on its way goes into the next message, so that items are sent
// together when the server is busy and at once when it waits for them.
#ifndef NQUEENS_CLIENT_BACKENDS_BATCH_QUEUE_H_
#define NQUEENS_CLIENT_BACKENDS_BATCH_QUEUE_H_

#include <cstddef>
#include <deque>

#include "absl/synchronization/mutex.h"
#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::client {

class BatchQueue {
 public:
  // At most `capacity` items wait; a message takes at most `message_items`
  // of them, and more than one only while it stays under `message_bytes`.
  BatchQueue(size_t capacity, size_t message_items, size_t message_bytes);

  // Waits for room. False once the sender gave up: the item is dropped.
  bool Put(v1::CompleteRequest item);
  // No more items will be put.
  void Close();
  // Waits for an item, then moves what is there, within the message's
  // limits, into `message`. False once closed and empty, or after Abandon().
  bool Take(v1::CompleteBatchRequest* message);
  // The sender stops: Put() fails from now on.
  void Abandon();

 private:
  const size_t capacity_;
  const size_t message_items_;
  const size_t message_bytes_;
  absl::Mutex mutex_;
  std::deque<v1::CompleteRequest> items_ ABSL_GUARDED_BY(mutex_);
  bool closed_ ABSL_GUARDED_BY(mutex_) = false;
  bool abandoned_ ABSL_GUARDED_BY(mutex_) = false;
};

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_BATCH_QUEUE_H_
