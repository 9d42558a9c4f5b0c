// Calls in flight per client (--max-calls-per-client), so that one client
// cannot take the whole queue. A client is its token when the server
// requires tokens, else its address without the port. A call holds a Slot
// from its entry until it has its status.
#ifndef NQUEENS_SERVER_LIMITS_CLIENT_CALLS_H_
#define NQUEENS_SERVER_LIMITS_CLIENT_CALLS_H_

#include <optional>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::server {

class ClientCalls {
 public:
  // 0: no limit.
  explicit ClientCalls(int max_per_client) : max_per_client_(max_per_client) {}

  // One call of a client, counted until the slot is destroyed.
  class Slot {
   public:
    Slot(ClientCalls& calls, std::string client) : calls_(&calls), client_(std::move(client)) {}
    Slot(Slot&& other) noexcept
        : calls_(std::exchange(other.calls_, nullptr)), client_(std::move(other.client_)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (calls_ != nullptr) calls_->Leave(client_);
    }

   private:
    ClientCalls* calls_;
    std::string client_;
  };

  // A slot, or nullopt when `client` already has the maximum in flight.
  std::optional<Slot> Enter(const std::string& client) {
    absl::MutexLock lock(&mutex_);
    int& running = running_[client];
    if (max_per_client_ > 0 && running >= max_per_client_) return std::nullopt;
    ++running;
    return std::optional<Slot>(std::in_place, *this, client);
  }

  int max_per_client() const { return max_per_client_; }

 private:
  void Leave(const std::string& client) {
    absl::MutexLock lock(&mutex_);
    const auto it = running_.find(client);
    if (--it->second == 0) running_.erase(it);
  }

  const int max_per_client_;
  absl::Mutex mutex_;
  // Only clients with calls in flight, so the map stays small.
  absl::flat_hash_map<std::string, int> running_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_LIMITS_CLIENT_CALLS_H_
