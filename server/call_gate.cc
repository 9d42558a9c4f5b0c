#include "server/call_gate.h"

#include <grpc/grpc.h>

#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

class GateInterceptor final : public grpc::experimental::Interceptor {
 public:
  GateInterceptor(const GateCheck& check, grpc::experimental::ServerRpcInfo& call)
      : check_(check), call_(call) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      const absl::Status allowed =
          check_(*call_.server_context(), *methods->GetRecvInitialMetadata());
      if (!allowed.ok()) Refuse(allowed);
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
  }

  const GateCheck& check_;
  grpc::experimental::ServerRpcInfo& call_;
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
