// The channel the CLI talks to servers over: one target, which may name
// several servers ("dns:///nqueens-server-headless:50051" resolves to every
// pod, "ipv4:127.0.0.1:50051,127.0.0.1:50052" lists them), and a service
// config that spreads calls over all of them and retries calls a server
// refused before it began them.
#ifndef NQUEENS_CLIENT_BACKENDS_CHANNEL_H_
#define NQUEENS_CLIENT_BACKENDS_CHANNEL_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

namespace nqueens::client {

// proto/nqueens/v1/nqueens_service_config.json, compiled in
// (client/CMakeLists.txt), which other languages' clients should give their
// channels too (docs/guides/containers.md, "Scaling out"; the Python client
// ships a copy): round_robin over every address the target resolves to, and
// up to 5 attempts of a call that a server refused or dropped before it
// began (every NQueens method is idempotent: it changes nothing on the
// server).
extern const char kServiceConfigJson[];

// `arguments` may carry the caller's own (e.g. a TLS name override).
std::shared_ptr<grpc::Channel> MakeChannel(
    const std::string& target, const std::shared_ptr<grpc::ChannelCredentials>& credentials,
    grpc::ChannelArguments arguments = {});

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_CHANNEL_H_
