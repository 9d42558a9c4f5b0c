// One HTTP request's call, made over the server's in-process channel so
// that it goes through everything a gRPC call goes through: the token,
// admission, the memory budget, the queue, per-client limits, its deadline,
// its request id, the log line and the metrics. The HTTP handler's thread
// pulls the answers one message at a time (so a stream holds one message
// in memory at most) and cancels the call when the HTTP client goes away.
#ifndef NQUEENS_SERVER_HTTP_FORWARDED_CALL_H_
#define NQUEENS_SERVER_HTTP_FORWARDED_CALL_H_

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <functional>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nqueens::server::http {

// What the HTTP request carries into the call's metadata.
struct Forwarding {
  std::string authorization;   // the Authorization header, as sent
  std::string request_id;      // the client's X-Request-Id, or the gateway's own
  std::string client_address;  // "ipv4:10.0.0.7:51234", for the log and per-client limits
  absl::Time deadline = absl::InfiniteFuture();
};

class ForwardedCall final : public grpc::ClientBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  // Starts `method` ("/nqueens.v1.NQueensService/Solve") with `request` as its one
  // message. Every method is called this way, whatever its shape: on the
  // wire a unary or server-streaming call is a stream of one request.
  ForwardedCall(grpc::GenericStub& stub, const std::string& method, const Forwarding& forwarding,
                const grpc::ByteBuffer& request);
  // Cancels the call if it is still going, and waits for its end.
  ~ForwardedCall() override;

  ForwardedCall(const ForwardedCall&) = delete;
  ForwardedCall& operator=(const ForwardedCall&) = delete;

  // The next answer, or nullopt once the call has ended (then status()).
  // Waits; every `poll_interval` asks `client_gone`, and cancels the call
  // when it says the HTTP client has gone.
  std::optional<grpc::ByteBuffer> Next(const std::function<bool()>& client_gone);
  // Cancels the call (a body grown past its limit, a client gone).
  void Cancel() { context_.TryCancel(); }

  // Once Next() returned nullopt.
  const grpc::Status& status() const { return status_; }

  static constexpr absl::Duration kPollInterval = absl::Milliseconds(50);

  // The reactor's side.
  void OnReadDone(bool ok) override;
  void OnDone(const grpc::Status& status) override;

 private:
  // A hold keeps gRPC from ending the reactor (OnDone) while this may still
  // start a read: from the start until the reads end, or until the
  // destructor when no read is in flight. True when this call let it go.
  bool TakeHoldToRelease() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  grpc::ClientContext context_;
  grpc::ByteBuffer request_;
  grpc::ByteBuffer incoming_;  // the read in flight
  mutable absl::Mutex mutex_;
  std::optional<grpc::ByteBuffer> ready_ ABSL_GUARDED_BY(mutex_);
  bool reading_ ABSL_GUARDED_BY(mutex_) = true;  // a read is in flight
  bool hold_released_ ABSL_GUARDED_BY(mutex_) = false;
  bool closing_ ABSL_GUARDED_BY(mutex_) = false;  // the destructor has begun
  bool done_ ABSL_GUARDED_BY(mutex_) = false;
  grpc::Status status_;  // written before done_
};

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_FORWARDED_CALL_H_
