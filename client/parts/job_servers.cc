#include "client/parts/job_servers.h"

#include <utility>

#include "client/backends/channel.h"
#include "command_line/cpu_count.h"

namespace nqueens::client {
namespace {

// While calls run, a ping every 30 s that must be answered within 20 s: a
// server that went away without closing its connections (a lost node) fails
// its parts within a minute. The server takes pings every 10 s or more
// (server/server.h, min_ping_interval), also on calls that send no data for
// long (an exact search), hence no cap on pings without data.
constexpr int kKeepaliveMilliseconds = 30'000;
constexpr int kKeepaliveTimeoutMilliseconds = 20'000;

}  // namespace

std::shared_ptr<grpc::Channel> JobChannel(const ServerAddress& address,
                                          const ClientSecurity& security) {
  grpc::ChannelArguments arguments;
  AddChannelArguments(security, arguments);
  if (security.tls && security.server_name.empty() && !address.host_name.empty()) {
    arguments.SetSslTargetNameOverride(address.host_name);
  }
  if (!address.authority.empty()) {
    arguments.SetString(GRPC_ARG_DEFAULT_AUTHORITY, address.authority);
  }
  arguments.SetInt(GRPC_ARG_ENABLE_RETRIES, 0);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveMilliseconds);
  arguments.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kKeepaliveTimeoutMilliseconds);
  arguments.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  return MakeChannel(address.target, ChannelCredentialsFor(security), arguments);
}

absl::StatusOr<std::vector<JobServer>> RemoteJobServers(const std::string& target,
                                                        const ClientSecurity& security) {
  absl::StatusOr<std::vector<ServerAddress>> addresses = ResolveServers(target);
  if (!addresses.ok()) return addresses.status();
  std::vector<JobServer> servers;
  for (const ServerAddress& address : *addresses) {
    servers.push_back(
        {address.name, MakeRemoteBackend(JobChannel(address, security), address.name, security)});
  }
  return servers;
}

ServerLookUp JobServerLookUp(const std::string& target, const ClientSecurity& security,
                             absl::Duration every) {
  if (every <= absl::ZeroDuration() || every == absl::InfiniteDuration() ||
      !NamesServersByName(target)) {
    return {};
  }
  return {[target, security] { return RemoteJobServers(target, security); }, every};
}

std::vector<JobServer> LocalJobServers() {
  std::vector<JobServer> servers;
  servers.push_back({"this machine", MakeLocalBackend(/*threads=*/1)});
  return servers;
}

size_t LocalWindow() { return static_cast<size_t>(command_line::UsableCpus()); }

}  // namespace nqueens::client
