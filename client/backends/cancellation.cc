#include "client/backends/cancellation.h"

#include <utility>

namespace nqueens::client {

Cancellation::Registration::Registration(Registration&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), id_(other.id_) {}

Cancellation::Registration::~Registration() {
  if (owner_ != nullptr) owner_->Unregister(id_);
}

void Cancellation::Cancel() {
  absl::MutexLock lock(&mutex_);
  if (cancelled_.exchange(true, std::memory_order_acq_rel)) return;
  // Under the lock: a registration that ends meanwhile waits for its
  // callback to return.
  for (auto& [id, callback] : callbacks_) callback();
  callbacks_.clear();
}

Cancellation::Registration Cancellation::Register(std::function<void()> on_cancel) {
  absl::MutexLock lock(&mutex_);
  if (cancelled()) {
    on_cancel();
    return Registration();
  }
  const uint64_t id = next_id_++;
  callbacks_.emplace(id, std::move(on_cancel));
  return Registration(this, id);
}

void Cancellation::Unregister(uint64_t id) {
  absl::MutexLock lock(&mutex_);
  callbacks_.erase(id);
}

}  // namespace nqueens::client
