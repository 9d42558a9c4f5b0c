// Cuts streams that stall (--stream-idle-timeout). A handler watches its
// stream while it waits on the client -- reading the request, writing the
// response -- and not while it computes; when no message has moved for the
// timeout, the watchdog cancels the call (ServerContext::TryCancel), so that
// the blocked Read() or Write() returns false and the handler frees the
// call's memory. The client sees CANCELLED.
//
// One thread for all streams; it sleeps until the earliest deadline.
#ifndef NQUEENS_SERVER_IDLE_WATCHDOG_H_
#define NQUEENS_SERVER_IDLE_WATCHDOG_H_

#include <grpcpp/grpcpp.h>

#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server {

class IdleWatchdog {
 public:
  // absl::InfiniteDuration() never cuts a stream.
  explicit IdleWatchdog(absl::Duration timeout);
  ~IdleWatchdog();  // all Watches must have ended

  IdleWatchdog(const IdleWatchdog&) = delete;
  IdleWatchdog& operator=(const IdleWatchdog&) = delete;

  absl::Duration timeout() const { return timeout_; }

  // Watches one call's stream for as long as it lives.
  class Watch {
   public:
    Watch(IdleWatchdog& watchdog, grpc::ServerContext* context);
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    // A message moved: the stream is not idle.
    void Touch();
    // True once the watchdog cancelled the call.
    bool expired() const;
    absl::Duration timeout() const { return watchdog_.timeout(); }

   private:
    friend class IdleWatchdog;
    IdleWatchdog& watchdog_;
    grpc::ServerContext* const context_;
    absl::Time deadline_ ABSL_GUARDED_BY(watchdog_.mutex_);
    bool expired_ ABSL_GUARDED_BY(watchdog_.mutex_) = false;
  };

 private:
  void CutIdleStreams();

  const absl::Duration timeout_;
  mutable absl::Mutex mutex_;
  absl::CondVar watch_added_;
  absl::flat_hash_set<Watch*> watches_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::thread thread_;
};

// A request or response stream whose every message counts as activity for a
// Watch. Has the Read/Write of the wrapped stream, so the stream templates
// take it in its place.
template <typename Stream>
class WatchedStream {
 public:
  WatchedStream(Stream* stream, IdleWatchdog::Watch* watch) : stream_(stream), watch_(watch) {}

  template <typename Message>
  bool Read(Message* message) {
    const bool read = stream_->Read(message);
    watch_->Touch();
    return read;
  }

  template <typename Message>
  bool Write(const Message& message) {
    const bool written = stream_->Write(message);
    watch_->Touch();
    return written;
  }

 private:
  Stream* stream_;
  IdleWatchdog::Watch* watch_;
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_IDLE_WATCHDOG_H_
