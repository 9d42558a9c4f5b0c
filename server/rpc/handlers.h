// What each method of nqueens.v1.NQueensService does, between the request bytes
// and the work a worker runs: parse, check, reserve memory (through the
// Call), and return the job. The reactors (reactors.h) move the messages;
// call.h does the bookkeeping.
#ifndef NQUEENS_SERVER_RPC_HANDLERS_H_
#define NQUEENS_SERVER_RPC_HANDLERS_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nqueens/board.h"
#include "nqueens/count.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/rpc/call.h"

namespace nqueens::server {

// Work whose answer is one response message (Solve, Complete, Validate,
// ValidateStream), serialized.
struct ResponseJob {
  uint64_t n = 0;
  std::function<absl::StatusOr<grpc::ByteBuffer>()> run;
  // Work that costs less than handing it to a worker (kQuickValidateMaxRows,
  // kQuickSearchMaxRows in handlers.cc) runs at once on gRPC's thread.
  bool quick = false;
};

// Work whose answer is a result stream (SolveStream, CompleteStream).
struct ResultJob {
  uint64_t n = 0;
  uint32_t chunk_size = 0;
  std::function<absl::StatusOr<CompletionResult>()> run;
  // A certificate longer than one chunk follows the header in chunks
  // (CompleteStream with a certificate_format): else it is in the header.
  bool chunk_certificate = false;
};

// Count's work: the count, reporting progress as it goes.
struct CountJob {
  uint64_t n = 0;
  absl::Duration progress_interval;
  std::function<absl::StatusOr<CountResult>(const std::function<void(const CountProgress&)>&)> run;
};

// Enumerate's work: the enumerator, made on the first batch's worker.
struct EnumerateJob {
  uint64_t n = 0;
  uint64_t limit = 0;  // 0: every board
  std::function<absl::StatusOr<SolutionEnumerator>()> make;
};

// Whether a job runs at once on gRPC's thread (ResponseJob::quick) instead
// of on a worker.
inline bool RunsAtOnce(const ResponseJob& job) { return job.quick; }
template <typename Job>
bool RunsAtOnce(const Job& /*job*/) {
  return false;
}

absl::StatusOr<ResponseJob> PrepareSolve(Call& call, grpc::ByteBuffer& request);
absl::StatusOr<ResponseJob> PrepareComplete(Call& call, grpc::ByteBuffer& request);
absl::StatusOr<ResponseJob> PrepareValidate(Call& call, grpc::ByteBuffer& request);
absl::StatusOr<ResultJob> PrepareSolveStream(Call& call, grpc::ByteBuffer& request);
absl::StatusOr<CountJob> PrepareCount(Call& call, grpc::ByteBuffer& request);
absl::StatusOr<EnumerateJob> PrepareEnumerate(Call& call, grpc::ByteBuffer& request);

// CompleteBatch: what one item holds while it is in work, its request and
// answer included (an item of more than wire::kStreamingThreshold rows is
// refused before it holds anything).
uint64_t BatchItemBytes(const v1::CompleteRequest& request);
// One item of a batch, on a worker while other items run: the item's
// answer or its own error. Records nothing in the call.
v1::CompleteBatchAnswer RunBatchItem(const Call& call, uint64_t index,
                                     const v1::CompleteRequest& request);
// An item's answer that is an error.
void SetBatchItemError(const absl::Status& status, v1::CompleteBatchAnswer& answer);

// The streams' work once the whole board is in.
ResponseJob ValidateStreamJob(Call& call, const v1::ValidateStreamHeader& header, Columns board);
ResultJob CompleteStreamJob(Call& call, const v1::CompleteStreamHeader& header, Columns board,
                            std::optional<IncomingComposition> incoming);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_RPC_HANDLERS_H_
