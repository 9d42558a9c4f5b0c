// The standard metrics of a gRPC server, named and labelled as
// go-grpc-prometheus names them, so that stock dashboards and alerts read
// them: grpc_server_started_total, grpc_server_handled_total,
// grpc_server_handling_seconds, grpc_server_msg_received_total and
// grpc_server_msg_sent_total, labelled grpc_type ("unary", "client_stream",
// "server_stream", "bidi_stream"), grpc_service, grpc_method and, for
// handled calls, grpc_code (Go's names: "OK", "Canceled", "InvalidArgument",
// ...); and transport: "http" for the calls of the HTTP face, which reach
// the service as gRPC calls (security/call_origin.h), "grpc" for the others.
//
// One server interceptor feeds them for every call of every service (ours,
// health checks, reflection): a call starts when gRPC hands it over, is
// handled when its status is about to be sent, and its messages are counted
// as they move.
#ifndef NQUEENS_SERVER_OBSERVABILITY_METRICS_GRPC_H_
#define NQUEENS_SERVER_OBSERVABILITY_METRICS_GRPC_H_

#include <grpcpp/support/server_interceptor.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::server {

// gRPC's status codes run from OK (0) to UNAUTHENTICATED (16).
inline constexpr int kGrpcCodeCount = 17;

// go-grpc-prometheus' name of status code `code` ("OK", "Canceled",
// "ResourceExhausted", ...); "Unknown" outside 0..16.
const char* GrpcCodeLabel(int code);

class GrpcServerMetrics {
 public:
  // The series of one method.
  struct Method {
    prometheus::Counter* started = nullptr;
    std::array<prometheus::Counter*, kGrpcCodeCount> handled{};
    prometheus::Histogram* handling_seconds = nullptr;
    prometheus::Counter* msg_received = nullptr;
    prometheus::Counter* msg_sent = nullptr;
  };

  // Registers the families in `registry`, which must outlive this. The
  // series of the methods of `services` (full names, e.g.
  // "nqueens.v1.NQueensService", looked up in protobuf's generated pool) exist from
  // the start, at 0; other methods get theirs at their first call.
  GrpcServerMetrics(prometheus::Registry& registry, const std::vector<std::string>& services);

  GrpcServerMetrics(const GrpcServerMetrics&) = delete;
  GrpcServerMetrics& operator=(const GrpcServerMetrics&) = delete;

  // The series of `method` as gRPC names it ("/nqueens.v1.NQueensService/Solve")
  // for calls over `transport` ("grpc" or "http"); `type` labels those made
  // here. The reference stays valid.
  const Method& ForMethod(absl::string_view method, grpc::experimental::ServerRpcInfo::Type type,
                          absl::string_view transport) const;

  // For ServerBuilder::experimental().SetInterceptorCreators: counts every
  // call. This object must outlive the server.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> Interceptors() const;

 private:
  // A method's series by transport: grpc, then http.
  using Methods = std::array<Method, 2>;

  Methods MakeSeries(absl::string_view method, grpc::experimental::ServerRpcInfo::Type type) const;

  prometheus::Family<prometheus::Counter>& started_;
  prometheus::Family<prometheus::Counter>& handled_;
  prometheus::Family<prometheus::Histogram>& handling_seconds_;
  prometheus::Family<prometheus::Counter>& msg_received_;
  prometheus::Family<prometheus::Counter>& msg_sent_;
  // Filled once, read without a lock.
  const absl::flat_hash_map<std::string, Methods> known_;
  mutable absl::Mutex others_mutex_;
  mutable absl::flat_hash_map<std::string, std::unique_ptr<Methods>> others_
      ABSL_GUARDED_BY(others_mutex_);
};

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_METRICS_GRPC_H_
