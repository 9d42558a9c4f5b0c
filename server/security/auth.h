// Bearer tokens (--auth-token-file): every call but a health check must carry
// `authorization: Bearer <token>` metadata with one of the file's tokens, or
// it ends UNAUTHENTICATED. The file holds one token per line (surrounding
// whitespace and blank lines are ignored) and is read again when it changes,
// without a restart.
//
// Where the check runs, and why there: gRPC's AuthMetadataProcessor would
// cover every method at once, but only on TLS ports, and tokens must work in
// plaintext too (behind a mesh that terminates TLS). So
//  - NQueens calls are checked as they enter the service (Call::Enter), the
//    one path all of them take: a refused call costs nothing more, is logged
//    and counted like every other, and the per-client limit on calls in
//    flight keys on the token checked there;
//  - the other services gRPC runs for us, whose handlers are not ours
//    (reflection), are checked by a server interceptor (TokenInterceptors);
//  - the health service stays open: probes carry no token.
//
// Tokens are never logged. Each is kept as its SHA-256 digest, and a
// presented token is compared by digest, in constant time, with all of them:
// neither its length nor how much of it matched shows in the time taken.
#ifndef NQUEENS_SERVER_SECURITY_AUTH_H_
#define NQUEENS_SERVER_SECURITY_AUTH_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>
#include <sys/stat.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "server/security/call_gate.h"

namespace nqueens::server {

class BearerTokens {
 public:
  using Digest = std::array<unsigned char, 32>;  // SHA-256

  // Reads `path`: INVALID_ARGUMENT naming the flag and the file when it
  // cannot be read or holds no token. The file is looked at again at most
  // once per `recheck_interval`, and read again when it changed.
  static absl::StatusOr<std::unique_ptr<BearerTokens>> Load(
      const std::string& path, absl::Duration recheck_interval = absl::Seconds(1));

  // The digest of the call's token when it is one of the file's (the
  // client's identity, e.g. for --max-calls-per-client); UNAUTHENTICATED
  // saying whether the token was missing or refused, never what it was.
  absl::StatusOr<Digest> Authenticate(const ClientMetadata& metadata);

 private:
  // What tells a changed file from the one read: a rename over it, as a
  // Kubernetes Secret update does, changes the inode; an edit in place the
  // modification time or the size.
  struct FileVersion {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec modified{};
    bool operator==(const FileVersion& other) const;
  };

  BearerTokens(std::string path, absl::Duration recheck_interval)
      : path_(std::move(path)), recheck_interval_(recheck_interval) {}

  // Reads the file when it changed since it was last read. A file that has
  // become unreadable or empty keeps the tokens it had, with a warning: a
  // half-written file must not lock every client out.
  absl::Status ReloadIfChanged() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  bool Matches(const Digest& presented) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const std::string path_;
  const absl::Duration recheck_interval_;
  mutable absl::Mutex mutex_;
  std::vector<Digest> digests_ ABSL_GUARDED_BY(mutex_);
  FileVersion version_ ABSL_GUARDED_BY(mutex_);
  absl::Time next_check_ ABSL_GUARDED_BY(mutex_) = absl::InfinitePast();
};

// For ServerBuilder::experimental().SetInterceptorCreators: checks the token
// of every call except those of the health service and of NQueens (see
// above), and cancels a refused call with UNAUTHENTICATED before its handler
// reads anything.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> TokenInterceptors(
    BearerTokens& tokens);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_SECURITY_AUTH_H_
