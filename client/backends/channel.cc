#include "client/backends/channel.h"

#include "wire/limits.h"

namespace nqueens::client {

std::shared_ptr<grpc::Channel> MakeChannel(
    const std::string& target, const std::shared_ptr<grpc::ChannelCredentials>& credentials,
    grpc::ChannelArguments arguments) {
  // The largest unary response is a board of kStreamingThreshold rows (at
  // most 5 bytes a column) or a validation report of at most 1,000
  // conflicts; stream chunks are smaller still. gRPC's default of 4 MiB
  // would do today; the margin is for whatever a server adds.
  arguments.SetMaxReceiveMessageSize(static_cast<int>(wire::kMaxMessageBytes));
  // kServiceConfigJson is proto/nqueens/v1/nqueens_service_config.json. Its
  // retries' backoff starts short: a refusal during a server's shutdown is
  // retried on another server at once. Five attempts are four retries, each
  // after a random wait of at most 0.1, 0.2, 0.4 and 0.8 s (gRPC's retry
  // design, gRFC A6: the n-th waits up to initialBackoff *
  // backoffMultiplier^(n-1), capped by maxBackoff, which these never reach),
  // so a lone server's restart gets at most 1.5 s of waits before the call
  // fails. CANCELLED too: a server that shuts down cancels the calls it had
  // received but not yet handed to a handler (grpc/grpc#41785), which a
  // client cannot tell from a refusal; a call the client itself cancels is
  // never retried.
  arguments.SetServiceConfigJSON(kServiceConfigJson);
  return grpc::CreateCustomChannel(target, credentials, arguments);
}

}  // namespace nqueens::client
