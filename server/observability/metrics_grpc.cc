#include "server/observability/metrics_grpc.h"

#include <google/protobuf/descriptor.h>
#include <grpcpp/grpcpp.h>

#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "server/observability/metrics.h"
#include "server/security/call_origin.h"

namespace nqueens::server {
namespace {

using RpcType = grpc::experimental::ServerRpcInfo::Type;

// The transport label's values, as ForMethod indexes them.
constexpr std::array<const char*, 2> kTransports = {"grpc", "http"};
using grpc::experimental::InterceptionHookPoints;

const char* RpcTypeLabel(RpcType type) {
  switch (type) {
    case RpcType::UNARY:
      break;
    case RpcType::CLIENT_STREAMING:
      return "client_stream";
    case RpcType::SERVER_STREAMING:
      return "server_stream";
    case RpcType::BIDI_STREAMING:
      return "bidi_stream";
  }
  return "unary";
}

RpcType TypeOf(const google::protobuf::MethodDescriptor& method) {
  if (method.client_streaming()) {
    return method.server_streaming() ? RpcType::BIDI_STREAMING : RpcType::CLIENT_STREAMING;
  }
  return method.server_streaming() ? RpcType::SERVER_STREAMING : RpcType::UNARY;
}

// "/nqueens.v1.NQueensService/Solve" -> {"nqueens.v1.NQueensService", "Solve"}.
std::pair<std::string, std::string> ServiceAndMethod(absl::string_view method) {
  if (!method.empty() && method.front() == '/') method.remove_prefix(1);
  const size_t slash = method.find('/');
  if (slash == absl::string_view::npos) return {"unknown", std::string(method)};
  return {std::string(method.substr(0, slash)), std::string(method.substr(slash + 1))};
}

// One call: started once its metadata, which tells its transport, is in;
// handled when its status goes out.
class MetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(const GrpcServerMetrics& metrics, grpc::experimental::ServerRpcInfo& call)
      : metrics_(metrics), call_(call), start_(absl::Now()) {}
  // A call whose status never went through the interceptors (the client
  // went away first) is counted as cancelled.
  ~MetricsInterceptor() override {
    if (!handled_) Handled(static_cast<int>(grpc::StatusCode::CANCELLED));
  }

  MetricsInterceptor(const MetricsInterceptor&) = delete;
  MetricsInterceptor& operator=(const MetricsInterceptor&) = delete;

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      Started(TransportOf(*methods->GetRecvInitialMetadata()));
    }
    // A failed read (the client's end of its stream) brings no message.
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() != nullptr) {
      Series().msg_received->Increment();
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      Series().msg_sent->Increment();
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS) && !handled_) {
      Handled(static_cast<int>(methods->GetSendStatus().error_code()));
    }
    methods->Proceed();
  }

 private:
  void Started(absl::string_view transport) {
    series_ = &metrics_.ForMethod(call_.method(), call_.type(), transport);
    series_->started->Increment();
  }

  // A call gives its metadata first; one that ended before is a gRPC one.
  const GrpcServerMetrics::Method& Series() {
    if (series_ == nullptr) Started("grpc");
    return *series_;
  }

  void Handled(int code) {
    handled_ = true;
    const GrpcServerMetrics::Method& series = Series();
    series.handled[code >= 0 && code < kGrpcCodeCount ? code : 2]->Increment();
    series.handling_seconds->Observe(absl::ToDoubleSeconds(absl::Now() - start_));
  }

  const GrpcServerMetrics& metrics_;
  grpc::experimental::ServerRpcInfo& call_;
  const absl::Time start_;
  const GrpcServerMetrics::Method* series_ = nullptr;
  bool handled_ = false;
};

class MetricsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(const GrpcServerMetrics& metrics) : metrics_(metrics) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* call) override {
    return new MetricsInterceptor(metrics_, *call);
  }

 private:
  const GrpcServerMetrics& metrics_;
};

}  // namespace

const char* GrpcCodeLabel(int code) {
  static constexpr std::array<const char*, kGrpcCodeCount> kLabels = {
      "OK",       "Canceled",        "Unknown",          "InvalidArgument",   "DeadlineExceeded",
      "NotFound", "AlreadyExists",   "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted",  "OutOfRange",      "Unimplemented",    "Internal",          "Unavailable",
      "DataLoss", "Unauthenticated",
  };
  return code >= 0 && code < kGrpcCodeCount ? kLabels[code] : "Unknown";
}

GrpcServerMetrics::GrpcServerMetrics(prometheus::Registry& registry,
                                     const std::vector<std::string>& services)
    : started_(prometheus::BuildCounter()
                   .Name("grpc_server_started_total")
                   .Help("Total number of RPCs started on the server.")
                   .Register(registry)),
      handled_(prometheus::BuildCounter()
                   .Name("grpc_server_handled_total")
                   .Help("Total number of RPCs completed on the server, regardless of success or "
                         "failure.")
                   .Register(registry)),
      handling_seconds_(prometheus::BuildHistogram()
                            .Name("grpc_server_handling_seconds")
                            .Help("Histogram of response latency (seconds) of gRPC that had been "
                                  "application-level handled by the server.")
                            .Register(registry)),
      msg_received_(prometheus::BuildCounter()
                        .Name("grpc_server_msg_received_total")
                        .Help("Total number of RPC stream messages received on the server.")
                        .Register(registry)),
      msg_sent_(prometheus::BuildCounter()
                    .Name("grpc_server_msg_sent_total")
                    .Help("Total number of gRPC stream messages sent by the server.")
                    .Register(registry)),
      known_([&] {
        absl::flat_hash_map<std::string, Methods> known;
        for (const std::string& name : services) {
          const google::protobuf::ServiceDescriptor* service =
              google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(name);
          if (service == nullptr) continue;
          for (int i = 0; i < service->method_count(); ++i) {
            const std::string method = absl::StrCat("/", name, "/", service->method(i)->name());
            known.emplace(method, MakeSeries(method, TypeOf(*service->method(i))));
          }
        }
        return known;
      }()) {}

const GrpcServerMetrics::Method& GrpcServerMetrics::ForMethod(absl::string_view method,
                                                              RpcType type,
                                                              absl::string_view transport) const {
  const size_t index = transport == kTransports[1] ? 1 : 0;
  if (const auto known = known_.find(method); known != known_.end()) {
    return known->second[index];
  }
  absl::MutexLock lock(&others_mutex_);
  std::unique_ptr<Methods>& series = others_[method];
  if (series == nullptr) series = std::make_unique<Methods>(MakeSeries(method, type));
  return (*series)[index];
}

GrpcServerMetrics::Methods GrpcServerMetrics::MakeSeries(absl::string_view method,
                                                         RpcType type) const {
  const auto [service_name, method_name] = ServiceAndMethod(method);
  Methods by_transport;
  for (size_t index = 0; index < kTransports.size(); ++index) {
    const prometheus::Labels labels = {
        {"grpc_type", RpcTypeLabel(type)},
        {"grpc_service", service_name},
        {"grpc_method", method_name},
        {"transport", kTransports[index]},
    };
    Method& series = by_transport[index];
    series.started = &started_.Add(labels);
    for (int code = 0; code < kGrpcCodeCount; ++code) {
      prometheus::Labels with_code = labels;
      with_code.emplace("grpc_code", GrpcCodeLabel(code));
      series.handled[code] = &handled_.Add(with_code);
    }
    series.handling_seconds = &handling_seconds_.Add(labels, CallSecondsBuckets());
    series.msg_received = &msg_received_.Add(labels);
    series.msg_sent = &msg_sent_.Add(labels);
  }
  return by_transport;
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
GrpcServerMetrics::Interceptors() const {
  return std::make_unique<MetricsInterceptorFactory>(*this);
}

}  // namespace nqueens::server
