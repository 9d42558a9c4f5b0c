// Counts of finished calls by status code, and of refusals by the limit that
// caused them: the server's last log line sums up its life with them.
#ifndef NQUEENS_SERVER_OBSERVABILITY_CALL_COUNTERS_H_
#define NQUEENS_SERVER_OBSERVABILITY_CALL_COUNTERS_H_

#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::server {

class CallCounters {
 public:
  void CountCall(absl::StatusCode code) {
    absl::MutexLock lock(&mutex_);
    ++calls_[code];
  }
  // `limit` names the flag of the limit, e.g. "--max-queued".
  void CountRefusal(absl::string_view limit) {
    absl::MutexLock lock(&mutex_);
    ++refusals_[std::string(limit)];
  }

  uint64_t calls(absl::StatusCode code) const {
    absl::MutexLock lock(&mutex_);
    const auto it = calls_.find(code);
    return it == calls_.end() ? 0 : it->second;
  }
  uint64_t refusals(absl::string_view limit) const {
    absl::MutexLock lock(&mutex_);
    const auto it = refusals_.find(limit);
    return it == refusals_.end() ? 0 : it->second;
  }
  // E.g. "12 calls (10 OK, 2 RESOURCE_EXHAUSTED); refused by --max-queued 2".
  std::string Summary() const;

 private:
  mutable absl::Mutex mutex_;
  absl::flat_hash_map<absl::StatusCode, uint64_t> calls_ ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<std::string, uint64_t> refusals_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_CALL_COUNTERS_H_
