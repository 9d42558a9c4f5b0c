#include "server/http/forwarded_call.h"

#include <utility>

#include "absl/time/clock.h"
#include "server/security/call_origin.h"
#include "wire/request_id.h"

namespace nqueens::server::http {

ForwardedCall::ForwardedCall(grpc::GenericStub& stub, const std::string& method,
                             const Forwarding& forwarding, const grpc::ByteBuffer& request)
    : request_(request) {
  if (!forwarding.authorization.empty()) {
    context_.AddMetadata("authorization", forwarding.authorization);
  }
  context_.AddMetadata(wire::kRequestIdKey, forwarding.request_id);
  context_.AddMetadata(kForwardedForKey, ForwardedFor(forwarding.client_address));
  if (forwarding.deadline != absl::InfiniteFuture()) {
    context_.set_deadline(absl::ToChronoTime(forwarding.deadline));
  }
  stub.PrepareBidiStreamingCall(&context_, method, grpc::StubOptions(), this);
  AddHold();
  StartWriteLast(&request_, grpc::WriteOptions());
  StartRead(&incoming_);
  StartCall();
}

ForwardedCall::~ForwardedCall() {
  context_.TryCancel();
  bool release = false;
  {
    absl::MutexLock lock(&mutex_);
    closing_ = true;
    release = !reading_ && TakeHoldToRelease();
  }
  // Outside the lock: gRPC may run OnDone from within RemoveHold.
  if (release) RemoveHold();
  absl::MutexLock lock(&mutex_);
  mutex_.Await(absl::Condition(&done_));
}

bool ForwardedCall::TakeHoldToRelease() {
  if (hold_released_) return false;
  hold_released_ = true;
  return true;
}

std::optional<grpc::ByteBuffer> ForwardedCall::Next(const std::function<bool()>& client_gone) {
  absl::MutexLock lock(&mutex_);
  const auto answered = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    return ready_.has_value() || done_;
  };
  while (!mutex_.AwaitWithTimeout(absl::Condition(&answered), kPollInterval)) {
    if (client_gone()) context_.TryCancel();
  }
  if (!ready_.has_value()) return std::nullopt;
  std::optional<grpc::ByteBuffer> message = std::exchange(ready_, std::nullopt);
  // The hold is still there: the reads have not ended.
  reading_ = true;
  StartRead(&incoming_);
  return message;
}

void ForwardedCall::OnReadDone(bool ok) {
  bool release = false;
  {
    absl::MutexLock lock(&mutex_);
    reading_ = false;
    if (ok && !closing_) {
      ready_ = std::move(incoming_);
      incoming_.Clear();
    } else {
      // The reads have ended, or the destructor waits: a message that was
      // on its way when the call was cancelled still arrives, and no one
      // will read another.
      release = TakeHoldToRelease();
    }
  }
  if (release) RemoveHold();
}

void ForwardedCall::OnDone(const grpc::Status& status) {
  absl::MutexLock lock(&mutex_);
  status_ = status;
  done_ = true;
}

}  // namespace nqueens::server::http
