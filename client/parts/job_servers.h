// Where a job cut into parts runs (parts_job.h): every server behind
// --server, each on a channel of its own, or this machine (--local).
#ifndef NQUEENS_CLIENT_PARTS_JOB_SERVERS_H_
#define NQUEENS_CLIENT_PARTS_JOB_SERVERS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/backends/security.h"
#include "client/parts/parts_job.h"
#include "client/parts/server_addresses.h"

namespace nqueens::client {

// Parts in flight per server unless --window says otherwise.
inline constexpr size_t kDefaultWindow = 2;

// Every server that `target` names (ResolveServers), with the TLS and token
// settings of `security`. A server reached by the address of a DNS name
// keeps that name as its TLS name (unless security.server_name overrides
// it) and as the calls' authority, so that its certificate still verifies.
// The channels do not retry calls themselves (the job sends a failed part to
// another server) and ping the server while calls run, so that one that
// went away fails its calls rather than leaving them waiting.
absl::StatusOr<std::vector<JobServer>> RemoteJobServers(const std::string& target,
                                                        const ClientSecurity& security);

// The look-up of `target`'s servers (RemoteJobServers) every `every` while a
// job runs, for a target that names them by a host name
// (NamesServersByName); none, the servers fixed, for a target of addresses
// or an `every` of zero or infinity.
ServerLookUp JobServerLookUp(const std::string& target, const ClientSecurity& security,
                             absl::Duration every);

// This process as the one server: each part on one thread.
std::vector<JobServer> LocalJobServers();
// Parts at once with --local unless --window says otherwise: one per CPU
// this process may use (its affinity mask and cgroup CPU quota).
size_t LocalWindow();

// The channel RemoteJobServers makes for `address`.
std::shared_ptr<grpc::Channel> JobChannel(const ServerAddress& address,
                                          const ClientSecurity& security);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_PARTS_JOB_SERVERS_H_
