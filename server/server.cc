#include "server.h"

#include <grpc/grpc.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "byte_size.h"
#include "metrics.h"
#include "process_metrics.h"
#include "wire/limits.h"

namespace nqueens::server {
namespace {

constexpr char kServiceName[] = "nqueens.v1.NQueens";
// How long connections may take to close once no call of ours is left.
constexpr absl::Duration kConnectionGrace = absl::Milliseconds(200);

// "HOST:PORT" with the port replaced by the one actually bound.
std::string BoundAddress(const std::string& listen_address, int port) {
  const size_t colon = listen_address.rfind(':');
  return absl::StrCat(listen_address.substr(0, colon), ":", port);
}

// gRPC receives a whole unary message before the handler can refuse it by its
// size (reactors.h): keep one message well inside the budget.
int MaxReceiveMessageBytes(uint64_t memory_budget) {
  return static_cast<int>(std::min<uint64_t>(wire::kMaxMessageBytes, memory_budget / 4));
}

// The series the metrics endpoint serves: the calls', the service's state
// and the process's.
absl::StatusOr<std::unique_ptr<MetricsEndpoint>> StartMetricsEndpoint(const std::string& address,
                                                                      const ServiceState& state) {
  std::shared_ptr<prometheus::Collectable> load = MakeServiceLoadGauges([&state] {
    return ServiceLoad{state.in_flight.running(), state.pool.queued(), state.memory_budget.in_use(),
                       state.memory_budget.capacity()};
  });
  return MetricsEndpoint::Start(
      address, {state.metrics.collectable(), std::move(load), std::make_shared<ProcessMetrics>()});
}

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  // Both are process-wide switches read when a server is built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  auto service = std::make_unique<NQueensService>(options.service);
  const ServiceState& state = service->state();
  if (!state.worker_memory.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--memory-budget ", HumanBytes(state.memory_budget.capacity()),
                     " is below the ", HumanBytes(state.worker_bytes), " that ",
                     state.pool.workers(), " workers and the express lane hold (8 MiB each)"));
  }

  std::unique_ptr<MetricsEndpoint> metrics;
  if (!options.metrics_listen.empty()) {
    absl::StatusOr<std::unique_ptr<MetricsEndpoint>> started =
        StartMetricsEndpoint(options.metrics_listen, state);
    if (!started.ok()) return started.status();
    metrics = *std::move(started);
  }

  std::vector<int> ports(options.listen_addresses.size(), 0);
  grpc::ServerBuilder builder;
  for (size_t i = 0; i < ports.size(); ++i) {
    builder.AddListeningPort(options.listen_addresses[i], grpc::InsecureServerCredentials(),
                             &ports[i]);
  }
  // Without this, a second server on a taken port would start and share its
  // calls with the first.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(service.get());
  builder.SetMaxReceiveMessageSize(MaxReceiveMessageBytes(state.memory_budget.capacity()));

  std::unique_ptr<grpc::Server> grpc_server = builder.BuildAndStart();
  if (grpc_server == nullptr) {
    // gRPC binds in order and reports each port as it binds it.
    const size_t failed = std::find(ports.begin(), ports.end(), 0) - ports.begin();
    return absl::UnavailableError(absl::StrCat(
        "could not listen on ", options.listen_addresses[std::min(failed, ports.size() - 1)],
        " (the address is taken, or not one of this machine's)"));
  }
  grpc::HealthCheckServiceInterface* health = grpc_server->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);

  std::unique_ptr<Server> server(new Server(std::move(service), options.grace));
  server->grpc_server_ = std::move(grpc_server);
  if (metrics != nullptr) {
    server->metrics_address_ = BoundAddress(options.metrics_listen, metrics->port());
    server->metrics_ = std::move(metrics);
  }
  server->ports_ = ports;
  for (size_t i = 0; i < ports.size(); ++i) {
    server->addresses_.push_back(BoundAddress(options.listen_addresses[i], ports[i]));
  }
  return server;
}

Server::Server(std::unique_ptr<NQueensService> service, absl::Duration grace)
    : service_(std::move(service)), grace_(grace) {}

Server::~Server() { Shutdown(); }

void Server::Shutdown() {
  const absl::Time deadline = absl::Now() + grace_;
  grpc_server_->GetHealthCheckService()->SetServingStatus(false);
  // Our calls first (see in_flight_calls.h), then gRPC's: it cancels whatever
  // still runs at its deadline, and the workers see the cancellation. Once
  // our calls are done, gRPC gets a moment for the rest (health checks) and
  // no more: otherwise an idle connection, or one that never finished its
  // handshake, kept the process for the whole grace period. Both steps are
  // idempotent.
  const bool drained = service_->Drain(deadline);
  const absl::Time connections_deadline =
      drained ? std::min(deadline, absl::Now() + kConnectionGrace) : deadline;
  grpc_server_->Shutdown(absl::ToChronoTime(connections_deadline));
  grpc_server_->Wait();
}

}  // namespace nqueens::server
