#include "server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"

namespace nqueens::server {
namespace {

// Unary calls carry whole boards; a column takes at most 4 bytes on the wire
// for n < 2^28, so 64 MiB holds boards of 10^7 rows (larger ones go through
// the streams).
constexpr int kMaxReceiveMessageBytes = 64 << 20;
constexpr char kServiceName[] = "nqueens.v1.NQueens";

int EffectiveThreads(int requested) {
  if (requested > 0) return requested;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// "HOST:PORT" with the port replaced by the one actually bound.
std::string BoundAddress(const std::string& listen_address, int port) {
  const size_t colon = listen_address.rfind(':');
  return absl::StrCat(listen_address.substr(0, colon), ":", port);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  // Both are process-wide switches read when a server is built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  auto service = std::make_unique<NQueensService>(
      ServiceOptions{options.max_n, options.memory_budget, options.stream_idle_timeout});
  grpc::ResourceQuota quota("nqueens-server");
  // The sync server needs one thread polling for new calls besides those
  // running calls; a call arriving when no thread is free gets
  // RESOURCE_EXHAUSTED ("Server Threadpool Exhausted") from gRPC.
  quota.SetMaxThreads(EffectiveThreads(options.threads) + 1);

  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen_address, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(service.get());
  builder.SetResourceQuota(quota);
  builder.SetMaxReceiveMessageSize(kMaxReceiveMessageBytes);

  std::unique_ptr<grpc::Server> grpc_server = builder.BuildAndStart();
  if (grpc_server == nullptr || port == 0) {
    return absl::UnavailableError(absl::StrCat("could not listen on ", options.listen_address));
  }
  grpc::HealthCheckServiceInterface* health = grpc_server->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);

  std::unique_ptr<Server> server(new Server(std::move(service), options.grace));
  server->grpc_server_ = std::move(grpc_server);
  server->port_ = port;
  server->address_ = BoundAddress(options.listen_address, port);
  return server;
}

Server::Server(std::unique_ptr<NQueensService> service, absl::Duration grace)
    : service_(std::move(service)), grace_(grace) {}

Server::~Server() { Shutdown(); }

void Server::Shutdown() {
  const absl::Time deadline = absl::Now() + grace_;
  grpc_server_->GetHealthCheckService()->SetServingStatus(false);
  // Our calls first (see in_flight_calls.h), then gRPC's: it cancels whatever
  // still runs at the deadline. Both steps are idempotent.
  service_->Drain(deadline);
  grpc_server_->Shutdown(absl::ToChronoTime(deadline));
  grpc_server_->Wait();
}

}  // namespace nqueens::server
