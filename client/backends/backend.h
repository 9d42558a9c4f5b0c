// Where the CLI's work is done: in-process by the core (--local) or by an
// nqueens-server over gRPC. Both speak the core's result types, so the
// commands and the output do not care which one ran.
#ifndef NQUEENS_CLIENT_BACKENDS_BACKEND_H_
#define NQUEENS_CLIENT_BACKENDS_BACKEND_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/boards/board_io.h"
#include "nqueens/count.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "wire/limits.h"

namespace grpc {
class Channel;
}  // namespace grpc

namespace nqueens::client {

class Cancellation;  // cancellation.h

struct RunOptions {
  std::optional<uint64_t> seed;  // unset: the backend picks one (see stats)
  uint64_t max_backtracks = 0;   // 0: the backend's default
  uint32_t max_restarts = 0;     // 0: the backend's default (no flag: batch lines set it)
  uint64_t max_exact_nodes = 0;  // 0: the backend's default (no node limit)
  // 0: the backend's default (60 s, or up to --deadline when there is one).
  double max_exact_seconds = 0;
  // The local backend's tunables (--param), before the limits above apply.
  PipelineParams params;
  uint64_t formula_variant = 0;  // solve --method formula
  uint32_t symmetry = 0;         // solve: image of the result
  CompleteMethod complete_method = CompleteMethod::kPipeline;
  bool want_certificate = false;  // complete: an UNSOLVABLE answer's proof
  CertificateFormat certificate_format = CertificateFormat::kBinary;
  // count, enumerate and complete --method exact: one part of the search
  // (nqueens/parts.h); the whole by default.
  PartSelector part;
  absl::Duration deadline = absl::InfiniteDuration();  // from the call's start
  // Once raised, the call ends as soon as it can with CANCELLED (a job cut
  // into parts stops the parts it no longer needs); null: never.
  Cancellation* cancellation = nullptr;
  // Where the long phases of a call (upload, solve, download) are shown;
  // null: nowhere.
  ProgressBar* progress = nullptr;
};

// Errors are absl::Status: INVALID_ARGUMENT when the board was rejected (for
// Complete: queens that attack each other), DEADLINE_EXCEEDED, and for the
// remote backend any gRPC failure with its code, and the call's request id
// (x-request-id, which the server logs) as the payload kRequestIdPayload.
inline constexpr char kRequestIdPayload[] = "nqueens.request_id";
// Set (to any value) on an error that the command line caused, not the board
// or a server: a --job-file of another job, a certificate that cannot be
// written. The CLI reports it as a usage error, in its own words.
inline constexpr char kUsageErrorPayload[] = "nqueens.usage_error";

// complete --batch: one line's composition and its options, the command
// line's with what the line sets instead (client/batch.h).
struct BatchItem {
  Board composition;
  RunOptions options;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                                 const RunOptions& options) = 0;
  virtual absl::StatusOr<CompletionResult> Complete(Board composition,
                                                    const RunOptions& options) = 0;
  virtual absl::StatusOr<ValidationReport> Validate(Board board, const RunOptions& options) = 0;
  // The solutions of the empty board, or completions of `composition`
  // (nqueens/count.h); options.progress shows the share of the search done.
  virtual absl::StatusOr<CountResult> Count(Board composition, const RunOptions& options) = 0;
  // Hands each solution or completion, in order, to `sink` until it returns
  // false or `limit` boards (0: no limit) were handed; returns how many were.
  virtual absl::StatusOr<uint64_t> Enumerate(Board composition, uint64_t limit,
                                             const RunOptions& options,
                                             const std::function<bool(const Columns&)>& sink) = 0;
  // complete --batch: completes each item `next` hands out (nullopt: no
  // more; called from a thread of the backend's) and hands each item's
  // result, or its own error, to `answer` in the order of the items.
  // `options` are the batch's own, for the call that carries the items (its
  // deadline and cancellation). An error return is the batch's: the items
  // not answered are lost.
  using BatchAnswer = absl::StatusOr<CompletionResult>;
  virtual absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>& next,
                                     const std::function<void(BatchAnswer)>& answer,
                                     const RunOptions& options) = 0;
};

// Runs the core in this process, each call on `threads` threads (0: one per
// CPU this process may use, command_line/cpu_count.h; a job cut into parts
// runs as many parts at once, each on one).
std::unique_ptr<Backend> MakeLocalBackend(int threads = 0);

struct ClientSecurity;  // security.h

// Talks to the server at `address` ("host:port") in plaintext. Boards of more than
// kStreamingThreshold rows go through the streaming RPCs, smaller ones through
// the unary RPCs. Boards with fewer than n / 8 queens (and at most
// kMaxSparseQueens) are sent sparse, as their queens; others dense.
std::unique_ptr<Backend> MakeRemoteBackend(const std::string& address);
// The same over TLS and with a token, as `security` says.
std::unique_ptr<Backend> MakeRemoteBackend(const std::string& address,
                                           const ClientSecurity& security);
// The same over a given channel (tests use one with interceptors), which
// `security` secured; its token goes with each call. `address` names the
// server in errors.
std::unique_ptr<Backend> MakeRemoteBackend(std::shared_ptr<grpc::Channel> channel,
                                           const std::string& address);
std::unique_ptr<Backend> MakeRemoteBackend(std::shared_ptr<grpc::Channel> channel,
                                           const std::string& address,
                                           const ClientSecurity& security);

using wire::kMaxSparseQueens;
using wire::kStreamingThreshold;

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_BACKENDS_BACKEND_H_
