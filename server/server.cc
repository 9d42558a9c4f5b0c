#include "server/server.h"

#include <grpc/grpc.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>

#include <algorithm>
#include <climits>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "command_line/host_port.h"
#include "nqueens/params.h"
#include "server/base/byte_size.h"
#include "server/base/listen_probe.h"
#include "server/limits/memory_estimate.h"
#include "server/observability/metrics.h"
#include "server/observability/process_metrics.h"
#include "server/rpc/call.h"
#include "server/rpc/reflection_v1.h"
#include "server/security/health_port.h"
#include "wire/limits.h"

namespace nqueens::server {
namespace {

constexpr char kServiceName[] = "nqueens.v1.NQueensService";
// How long connections may take to close once no call of ours is left.
constexpr absl::Duration kConnectionGrace = absl::Milliseconds(200);

// "HOST:PORT" with the port replaced by the one actually bound.
std::string BoundAddress(const std::string& listen_address, int port) {
  const size_t colon = listen_address.rfind(':');
  return absl::StrCat(listen_address.substr(0, colon), ":", port);
}

// gRPC receives a whole unary message before the handler can refuse it by its
// size (rpc/reactors.h): keep one message well inside the budget.
int MaxReceiveMessageBytes(uint64_t memory_budget) {
  return static_cast<int>(std::min<uint64_t>(wire::kMaxMessageBytes, memory_budget / 4));
}

// gRPC's milliseconds, where INT_MAX means never.
int GrpcMilliseconds(absl::Duration duration) {
  if (duration == absl::InfiniteDuration()) return INT_MAX;
  return static_cast<int>(std::min<int64_t>(INT_MAX, absl::ToInt64Milliseconds(duration)));
}

void SetConnectionLimits(const ConnectionLimits& limits, grpc::ServerBuilder& builder) {
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, limits.max_concurrent_streams);
  // Room above the calls' own limit (rpc/call.h), so that a call over it gets a
  // message naming it rather than gRPC's.
  builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE,
                             static_cast<int>(4 * kMaxCallMetadataBytes));
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                             GrpcMilliseconds(limits.min_ping_interval));
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, limits.max_ping_strikes);
  // Pings on a connection without calls count as strikes too: keeping an
  // idle connection alive is the client's business, not ours to pay for.
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, GrpcMilliseconds(limits.max_idle));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, GrpcMilliseconds(limits.max_age));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                             GrpcMilliseconds(limits.max_age_grace));
}

// The tokens of --auth-token-file, or null when it is not set.
absl::StatusOr<std::unique_ptr<BearerTokens>> LoadTokens(const std::string& path) {
  if (path.empty()) return std::unique_ptr<BearerTokens>();
  return BearerTokens::Load(path);
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

// The main ports, then the health ports, in one list: gRPC binds them in
// this order. Only the main ports speak TLS.
std::vector<std::string> AddPorts(const ServerOptions& options,
                                  const std::shared_ptr<grpc::ServerCredentials>& credentials,
                                  std::vector<int>& ports, grpc::ServerBuilder& builder) {
  std::vector<std::string> listen = options.listen_addresses;
  listen.insert(listen.end(), options.health_listen_addresses.begin(),
                options.health_listen_addresses.end());
  ports.assign(listen.size(), 0);
  for (size_t i = 0; i < ports.size(); ++i) {
    builder.AddListeningPort(
        listen[i],
        i < options.listen_addresses.size() ? credentials : grpc::InsecureServerCredentials(),
        &ports[i]);
  }
  return listen;
}

// The interceptors: those that refuse calls before any handler (security/call_gate.h),
// then the one that counts every call (observability/metrics_grpc.h). gRPC runs a server's
// interceptors in this order on what is sent, in reverse on what is
// received: the health port's gate sees a call before the token's (a call
// there is told it is on the wrong port, not that it lacks a token), and the
// metrics see the status a refused call ends with.
void SetInterceptors(const ServerOptions& options, BearerTokens* tokens, const CallMetrics& metrics,
                     grpc::ServerBuilder& builder) {
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  if (tokens != nullptr) interceptors.push_back(TokenInterceptors(*tokens));
  if (!options.health_listen_addresses.empty()) interceptors.push_back(HealthPortInterceptors());
  interceptors.push_back(metrics.grpc().Interceptors());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
}

absl::Status CheckConnectionLimits(const ConnectionLimits& limits) {
  if (limits.max_concurrent_streams < 1) {
    return absl::InvalidArgumentError("--max-concurrent-streams must be at least 1");
  }
  if (limits.max_ping_strikes < 0) {
    return absl::InvalidArgumentError("--max-ping-strikes must be 0 (no limit) or more");
  }
  for (const auto& [flag, duration] :
       {std::pair{"--min-ping-interval", limits.min_ping_interval},
        std::pair{"--max-connection-idle", limits.max_idle},
        std::pair{"--max-connection-age", limits.max_age},
        std::pair{"--max-connection-age-grace", limits.max_age_grace}}) {
    if (duration <= absl::ZeroDuration()) {
      return absl::InvalidArgumentError(absl::StrCat(flag, " must be positive (inf: never)"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckServiceOptions(const ServiceOptions& service) {
  if (service.max_n == 0) return absl::InvalidArgumentError("--max-n must be at least 1");
  if (service.workers < 0) return absl::InvalidArgumentError("--workers must be 0 (auto) or more");
  if (service.max_queued < 0) return absl::InvalidArgumentError("--max-queued must be 0 or more");
  if (service.limits.max_call_time <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--max-call-seconds must be positive");
  }
  if (!(service.limits.max_exact_seconds > 0)) {
    return absl::InvalidArgumentError("--max-exact-seconds must be positive");
  }
  PipelineParams exact;
  exact.exact_max_free_rows = service.limits.max_exact_free_rows;
  if (absl::Status checked = CheckParams(exact); !checked.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--max-exact-free-rows: ", checked.message()));
  }
  if (service.stream_idle_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--stream-idle-timeout must be positive (inf: never)");
  }
  if (service.max_calls_per_client < 0) {
    return absl::InvalidArgumentError("--max-calls-per-client must be 0 (no limit) or more");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckServerOptions(const ServerOptions& options) {
  if (options.listen_addresses.empty()) {
    return absl::InvalidArgumentError("--listen needs at least one HOST:PORT");
  }
  for (const auto& [flag, addresses] :
       {std::pair{"--listen", &options.listen_addresses},
        std::pair{"--health-listen", &options.health_listen_addresses}}) {
    for (const std::string& address : *addresses) {
      absl::Status checked =
          command_line::CheckHostPort(flag, address, command_line::PortZero::kAllowed);
      if (!checked.ok()) return checked;
    }
  }
  if (!options.http_listen.empty()) {
    absl::Status checked = command_line::CheckHostPort("--http-listen", options.http_listen,
                                                       command_line::PortZero::kAllowed);
    if (!checked.ok()) return checked;
  }
  if (options.http_max_request_bytes == 0) {
    return absl::InvalidArgumentError("--http-max-request-bytes must be positive");
  }
  if (absl::Status checked = http::CheckCorsOrigin(options.http_cors_origin); !checked.ok()) {
    return checked;
  }
  if (options.grace < absl::ZeroDuration() || options.grace == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError("--grace must be a finite duration >= 0");
  }
  // More often than each second gains nothing; less often than daily, a
  // certificate renewed days before its end might not be served in time.
  if (options.tls.refresh_interval < absl::Seconds(1) ||
      options.tls.refresh_interval > absl::Hours(24)) {
    return absl::InvalidArgumentError("--tls-refresh-interval must be between 1s and 24h");
  }
  if (absl::Status checked = CheckServiceOptions(options.service); !checked.ok()) return checked;
  return CheckConnectionLimits(options.connections);
}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const ServerOptions& options) {
  if (absl::Status checked = CheckServerOptions(options); !checked.ok()) return checked;
  // Both are process-wide switches read when a server is built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  if (!options.health_listen_addresses.empty() && !options.tls.enabled()) {
    return absl::InvalidArgumentError(
        "--health-listen is for servers with TLS (--tls-cert): without it, probes can use the "
        "main port");
  }
  for (const auto* addresses : {&options.listen_addresses, &options.health_listen_addresses}) {
    for (const std::string& address : *addresses) {
      if (const std::optional<std::string> why = WhyCannotListen(address)) {
        return absl::UnavailableError(absl::StrCat("cannot listen on ", address, ": ", *why));
      }
    }
  }
  if (!options.http_listen.empty()) {
    if (const std::optional<std::string> why = WhyCannotListen(options.http_listen)) {
      return absl::UnavailableError(
          absl::StrCat("cannot serve HTTP on ", options.http_listen, " (--http-listen): ", *why));
    }
  }
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      ServerCredentialsFor(options.tls);
  if (!credentials.ok()) return credentials.status();
  absl::StatusOr<std::unique_ptr<BearerTokens>> tokens = LoadTokens(options.auth_token_file);
  if (!tokens.ok()) return tokens.status();

  ServiceOptions service_options = options.service;
  service_options.health_port = !options.health_listen_addresses.empty();
  auto service = std::make_unique<NQueensService>(service_options, tokens->get());
  const ServiceState& state = service->state();
  if (!state.worker_memory.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--memory-budget ", HumanBytes(state.memory_budget.capacity()), " is below the ",
        HumanBytes(state.worker_bytes), " that ", state.pool.workers(),
        " workers and the express lane hold (", HumanBytes(kFixedCallBytes), " each)"));
  }

  std::unique_ptr<MetricsEndpoint> metrics;
  if (!options.metrics_listen.empty()) {
    absl::StatusOr<std::unique_ptr<MetricsEndpoint>> started =
        StartMetricsEndpoint(options.metrics_listen, state);
    if (!started.ok()) return started.status();
    metrics = *std::move(started);
  }

  grpc::ServerBuilder builder;
  std::vector<int> ports;
  const std::vector<std::string> listen = AddPorts(options, *credentials, ports, builder);
  SetInterceptors(options, tokens->get(), state.metrics, builder);
  SetConnectionLimits(options.connections, builder);
  // Without this, a second server on a taken port would start and share its
  // calls with the first.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.RegisterService(service.get());
  // What reflection lists: ours and the standard services this server runs.
  auto reflection_v1 = std::make_unique<ReflectionV1>(std::vector<std::string>{
      kServiceName, "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
      "grpc.reflection.v1alpha.ServerReflection"});
  builder.RegisterService(reflection_v1.get());
  const int max_message = MaxReceiveMessageBytes(state.memory_budget.capacity());
  builder.SetMaxReceiveMessageSize(max_message);
  // gRPC holds a unary request whole before the handler can reserve it; its
  // own memory (those messages, the connections' buffers) is held to twice
  // the largest message: beyond, it reads more slowly and accepts no new
  // connection until memory is freed. Without it, clients sending large
  // messages at once went past the budget (docs/constants.md, Server::Start).
  grpc::ResourceQuota quota("nqueens-server");
  quota.Resize(2 * static_cast<size_t>(max_message));
  builder.SetResourceQuota(quota);

  std::unique_ptr<grpc::Server> grpc_server = builder.BuildAndStart();
  if (grpc_server == nullptr) {
    // gRPC binds in order and reports each port as it binds it.
    const size_t failed = std::find(ports.begin(), ports.end(), 0) - ports.begin();
    return absl::UnavailableError(
        absl::StrCat("could not listen on ", listen[std::min(failed, ports.size() - 1)],
                     " (the address is taken, or not one of this machine's)"));
  }
  grpc::HealthCheckServiceInterface* health = grpc_server->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);

  std::unique_ptr<Server> server(new Server(*std::move(tokens), std::move(service), options.grace));
  server->reflection_v1_ = std::move(reflection_v1);
  server->grpc_server_ = std::move(grpc_server);
  if (!options.http_listen.empty()) {
    absl::Status started = server->StartHttp(options);
    if (!started.ok()) return started;
  }
  if (metrics != nullptr) {
    server->metrics_port_ = metrics->port();
    server->metrics_address_ = BoundAddress(options.metrics_listen, metrics->port());
    server->metrics_ = std::move(metrics);
  }
  for (size_t i = 0; i < ports.size(); ++i) {
    const bool main_port = i < options.listen_addresses.size();
    if (main_port) server->ports_.push_back(ports[i]);
    (main_port ? server->addresses_ : server->health_addresses_)
        .push_back(BoundAddress(listen[i], ports[i]));
  }
  return server;
}

absl::Status Server::StartHttp(const ServerOptions& options) {
  http::GatewayOptions http_options;
  http_options.listen = options.http_listen;
  http_options.max_request_bytes = options.http_max_request_bytes;
  http_options.cors_origin = options.http_cors_origin;
  http_options.tls = options.tls;
  ServiceState& state = service_->state();
  http_options.count_refusal = [&state](int http_status) {
    state.metrics.CountHttpRefusal(http_status);
  };
  absl::StatusOr<std::unique_ptr<http::Gateway>> gateway =
      http::Gateway::Start(http_options, grpc_server_->InProcessChannel(grpc::ChannelArguments()),
                           state.memory_budget, [&state] { return !state.in_flight.closed(); });
  if (!gateway.ok()) return gateway.status();
  http_ = *std::move(gateway);
  http_address_ = BoundAddress(options.http_listen, http_->port());
  return absl::OkStatus();
}

Server::Server(std::unique_ptr<BearerTokens> tokens, std::unique_ptr<NQueensService> service,
               absl::Duration grace)
    : tokens_(std::move(tokens)), service_(std::move(service)), grace_(grace) {}

Server::~Server() { Shutdown(); }

void Server::Shutdown() {
  const absl::Time deadline = absl::Now() + grace_;
  grpc_server_->GetHealthCheckService()->SetServingStatus(false);
  // Our calls first (see limits/in_flight_calls.h), then gRPC's: it cancels whatever
  // still runs at its deadline, and the workers see the cancellation. Once
  // our calls are done, gRPC gets a moment for the rest (health checks) and
  // no more: otherwise an idle connection, or one that never finished its
  // handshake, kept the process for the whole grace period. Both steps are
  // idempotent.
  const bool drained = service_->Drain(deadline);
  // The HTTP face's calls have ended or been cancelled: close its
  // connections, before the in-process channel they used goes.
  http_.reset();
  // The metrics' web server is slow to stop (docs/constants.md,
  // Server::Shutdown): meanwhile, not after. It served the drain, and the
  // calls are all counted by now.
  std::thread stop_metrics([this] { metrics_.reset(); });
  const absl::Time connections_deadline =
      drained ? std::min(deadline, absl::Now() + kConnectionGrace) : deadline;
  grpc_server_->Shutdown(absl::ToChronoTime(connections_deadline));
  grpc_server_->Wait();
  stop_metrics.join();
}

}  // namespace nqueens::server
