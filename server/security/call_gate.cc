#include "server/security/call_gate.h"

#include <grpc/grpc.h>

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

// Added to the received metadata of a call a gate refused, under a key no
// client can send (gRPC takes only lower-case keys from the wire): later
// gates leave the call alone, so that it is refused and logged once.
constexpr char kRefusedKey[] = "Refused-By-A-Gate";

class GateInterceptor final : public grpc::experimental::Interceptor {
 public:
  GateInterceptor(const GateCheck& check, grpc::experimental::ServerRpcInfo& call)
      : check_(check), call_(call) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      ClientMetadata& metadata = *methods->GetRecvInitialMetadata();
      if (metadata.find(kRefusedKey) == metadata.end()) {
        const absl::Status allowed = check_(*call_.server_context(), metadata);
        if (!allowed.ok()) {
          Refuse(allowed);
          metadata.emplace(kRefusedKey, "");
        }
      }
    }
    // The handler, which found its call cancelled, ends it with a status of
    // its own, which the client never sees: the interceptors after this one
    // (the metrics') see the refusal instead.
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS) &&
        refusal_.has_value()) {
      methods->ModifySendStatus(*refusal_);
    }
    methods->Proceed();
  }

 private:
  // Not ServerContext::TryCancel(), which can only say CANCELLED: the core
  // call sends the status as the call's trailers, and the handler then finds
  // its call cancelled.
  void Refuse(const absl::Status& status) {
    grpc::ServerContextBase& context = *call_.server_context();
    const std::string message(status.message());
    spdlog::info("{} peer={} status={} ({})", call_.method(), context.peer(),
                 absl::StatusCodeToString(status.code()), message);
    grpc_call_cancel_with_status(context.c_call(), static_cast<grpc_status_code>(status.code()),
                                 message.c_str(), nullptr);
    refusal_.emplace(static_cast<grpc::StatusCode>(status.code()), message);
  }

  const GateCheck& check_;
  grpc::experimental::ServerRpcInfo& call_;
  std::optional<grpc::Status> refusal_;
};

class GateFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  GateFactory(GatedMethod gated, GateCheck check)
      : gated_(std::move(gated)), check_(std::move(check)) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* call) override {
    return gated_(call->method()) ? new GateInterceptor(check_, *call) : nullptr;
  }

 private:
  const GatedMethod gated_;
  const GateCheck check_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> CallGate(GatedMethod gated,
                                                                                GateCheck check) {
  return std::make_unique<GateFactory>(std::move(gated), std::move(check));
}

}  // namespace nqueens::server
