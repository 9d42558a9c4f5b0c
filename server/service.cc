#include "service.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <new>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "convert.h"
#include "nqueens/board.h"
#include "nqueens/validate.h"
#include "request_stream.h"
#include "spdlog/spdlog.h"
#include "wire/chunks.h"
#include "wire/status.h"

namespace nqueens::server {
namespace {

constexpr uint32_t kDefaultMaxConflicts = 10;
// A response lists at most this many conflicts, whatever the client asks.
constexpr uint32_t kMaxConflictsCap = 1000;

// What the log line of a call reports besides method, status and time.
struct CallRecord {
  uint64_t n = 0;
  uint64_t queens_given = 0;
  const char* outcome = "-";
};

uint64_t RandomSeed() {
  std::random_device device;
  return (uint64_t{device()} << 32) | device();
}

// Options for one completion: the request's seed (or a fresh one) and limits,
// and a stop condition that follows the call's deadline and cancellation.
template <typename Request>
CompletionOptions OptionsFor(grpc::ServerContext* context, const Request& request) {
  CompletionOptions options;
  options.seed = request.has_seed() ? request.seed() : RandomSeed();
  ApplyLimits(request.limits(), &options.params);
  const absl::Time deadline = DeadlineFromChrono(context->deadline());
  options.stop.deadline = deadline;
  // gRPC also reports an expired deadline as cancelled; leave that case to
  // the deadline check so that it ends as DEADLINE_EXCEEDED.
  options.stop.cancelled = [context, deadline] {
    return context->IsCancelled() && absl::Now() < deadline;
  };
  return options;
}

uint64_t CountQueens(const Columns& board) {
  return board.size() - static_cast<uint64_t>(std::count(board.begin(), board.end(), kEmptyRow));
}

// Everything of a completion result but the board (which a stream sends apart).
template <typename Response>
void SetResultHeader(uint64_t n, const CompletionResult& result, Response* response) {
  response->set_n(n);
  response->set_outcome(OutcomeToProto(result.outcome));
  *response->mutable_stats() = StatsToProto(result.stats);
}

template <typename Response>
void SetResult(uint64_t n, const CompletionResult& result, Response* response) {
  SetResultHeader(n, result, response);
  response->mutable_columns()->Assign(result.columns.begin(), result.columns.end());
}

absl::Status ClientGone() {
  return absl::CancelledError("the client went away before the whole board was sent");
}

// A result header, then the board in chunks (none unless solved). False when
// the client went away.
template <typename Response, typename Writer>
bool WriteResultStream(uint64_t n, const CompletionResult& result, uint32_t chunk_size,
                       Writer* writer) {
  Response message;
  SetResultHeader(n, result, message.mutable_header());
  if (!writer->Write(message)) return false;
  return wire::ForEachChunk(result.columns, chunk_size, [&](const v1::BoardChunk& chunk) {
    *message.mutable_chunk() = chunk;
    return writer->Write(message);
  });
}

// The composition check, then the core's Complete.
template <typename Request>
absl::StatusOr<CompletionResult> RunComplete(grpc::ServerContext* context, Columns board,
                                             const Request& request, CallRecord& record) {
  record.queens_given = CountQueens(board);
  if (absl::Status composition = CheckComposition(board); !composition.ok()) {
    return composition;
  }
  absl::StatusOr<CompletionResult> result =
      nqueens::Complete(std::move(board), OptionsFor(context, request));
  if (result.ok()) record.outcome = OutcomeName(result->outcome);
  return result;
}

absl::Status RunValidate(const Columns& board, uint32_t max_conflicts, CallRecord& record,
                         v1::ValidateResponse* response) {
  ValidateOptions options;
  options.max_conflicts =
      max_conflicts == 0 ? kDefaultMaxConflicts : std::min(max_conflicts, kMaxConflictsCap);
  absl::StatusOr<ValidationReport> report = nqueens::Validate(board, options);
  if (!report.ok()) return report.status();
  record.queens_given = report->queen_count;
  record.outcome = report->complete ? "complete" : report->valid ? "valid" : "invalid";
  ReportToProto(*report, response);
  return absl::OkStatus();
}

absl::Status RunBody(const std::function<absl::Status(CallRecord&)>& body, CallRecord& record) {
  try {
    return body(record);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("the server has no memory left for this request");
  }
}

// Runs one call's body unless the service is draining, logs the call, and
// converts its status.
grpc::Status Serve(InFlightCalls& in_flight, const char* method,
                   const std::function<absl::Status(CallRecord&)>& body) {
  const absl::Time start = absl::Now();
  CallRecord record;
  absl::Status status;
  if (in_flight.Enter()) {
    status = RunBody(body, record);
    in_flight.Exit();
  } else {
    status = absl::UnavailableError("the server is shutting down");
  }
  spdlog::info("{} n={} k={} outcome={} status={}{} {:.3f}s", method, record.n, record.queens_given,
               record.outcome, absl::StatusCodeToString(status.code()),
               status.ok() ? "" : absl::StrCat(" (", status.message(), ")"),
               absl::ToDoubleSeconds(absl::Now() - start));
  return wire::ToGrpcStatus(status);
}

// INVALID_ARGUMENT for n = 0, RESOURCE_EXHAUSTED above max_n.
absl::Status CheckSize(uint64_t n, uint64_t max_n) {
  if (absl::Status size = CheckBoardSize(n); !size.ok()) return size;
  if (n > max_n) {
    return absl::ResourceExhaustedError(
        absl::StrCat("n = ", n, " is above this server's limit of ", max_n));
  }
  return absl::OkStatus();
}

absl::StatusOr<CompletionResult> RunSolve(grpc::ServerContext* context,
                                          const v1::SolveRequest& request, uint64_t max_n,
                                          CallRecord& record) {
  record.n = request.n();
  if (absl::Status size = CheckSize(request.n(), max_n); !size.ok()) return size;
  absl::StatusOr<SolveMethod> method = MethodFromProto(request.method());
  if (!method.ok()) return method.status();
  // CheckSize() bounds n by kMaxBoardSize, which fits in uint32_t.
  absl::StatusOr<CompletionResult> result =
      nqueens::Solve(static_cast<uint32_t>(request.n()), *method, OptionsFor(context, request));
  if (result.ok()) record.outcome = OutcomeName(result->outcome);
  return result;
}

}  // namespace

NQueensService::NQueensService(const ServiceOptions& options) : options_(options) {}

grpc::Status NQueensService::Solve(grpc::ServerContext* context, const v1::SolveRequest* request,
                                   v1::SolveResponse* response) {
  return Serve(in_flight_, "Solve", [&](CallRecord& record) {
    absl::StatusOr<CompletionResult> result = RunSolve(context, *request, options_.max_n, record);
    if (!result.ok()) return result.status();
    SetResult(request->n(), *result, response);
    return absl::OkStatus();
  });
}

grpc::Status NQueensService::SolveStream(grpc::ServerContext* context,
                                         const v1::SolveRequest* request,
                                         grpc::ServerWriter<v1::SolveStreamResponse>* writer) {
  return Serve(in_flight_, "SolveStream", [&](CallRecord& record) {
    absl::StatusOr<CompletionResult> result = RunSolve(context, *request, options_.max_n, record);
    if (!result.ok()) return result.status();
    if (!WriteResultStream<v1::SolveStreamResponse>(request->n(), *result, request->chunk_size(),
                                                    writer)) {
      return ClientGone();
    }
    return absl::OkStatus();
  });
}

grpc::Status NQueensService::Complete(grpc::ServerContext* context,
                                      const v1::CompleteRequest* request,
                                      v1::CompleteResponse* response) {
  return Serve(in_flight_, "Complete", [&](CallRecord& record) {
    record.n = request->n();
    if (absl::Status size = CheckSize(request->n(), options_.max_n); !size.ok()) return size;
    absl::StatusOr<Columns> board =
        BoardFromRequest(request->n(), request->columns(), request->queens());
    if (!board.ok()) return board.status();
    absl::StatusOr<CompletionResult> result =
        RunComplete(context, *std::move(board), *request, record);
    if (!result.ok()) return result.status();
    SetResult(request->n(), *result, response);
    return absl::OkStatus();
  });
}

grpc::Status NQueensService::CompleteStream(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<v1::CompleteStreamResponse, v1::CompleteStreamRequest>* stream) {
  return Serve(in_flight_, "CompleteStream", [&](CallRecord& record) {
    absl::StatusOr<v1::CompleteStreamRequest> first =
        ReadHeaderMessage<v1::CompleteStreamRequest>(stream);
    if (!first.ok()) return first.status();
    const v1::CompleteStreamHeader& header = first->header();
    record.n = header.n();
    if (absl::Status size = CheckSize(header.n(), options_.max_n); !size.ok()) return size;
    absl::StatusOr<Columns> board =
        ReadBoardAfterHeader<v1::CompleteStreamRequest>(stream, header.n(), header.queens());
    if (!board.ok()) return board.status();
    absl::StatusOr<CompletionResult> result =
        RunComplete(context, *std::move(board), header, record);
    if (!result.ok()) return result.status();
    if (!WriteResultStream<v1::CompleteStreamResponse>(header.n(), *result, header.chunk_size(),
                                                       stream)) {
      return ClientGone();
    }
    return absl::OkStatus();
  });
}

grpc::Status NQueensService::Validate(grpc::ServerContext*, const v1::ValidateRequest* request,
                                      v1::ValidateResponse* response) {
  return Serve(in_flight_, "Validate", [&](CallRecord& record) {
    record.n = request->n();
    if (absl::Status size = CheckSize(request->n(), options_.max_n); !size.ok()) return size;
    absl::StatusOr<Columns> board =
        BoardFromRequest(request->n(), request->columns(), request->queens());
    if (!board.ok()) return board.status();
    return RunValidate(*board, request->max_conflicts(), record, response);
  });
}

grpc::Status NQueensService::ValidateStream(grpc::ServerContext*,
                                            grpc::ServerReader<v1::ValidateStreamRequest>* reader,
                                            v1::ValidateResponse* response) {
  return Serve(in_flight_, "ValidateStream", [&](CallRecord& record) {
    absl::StatusOr<v1::ValidateStreamRequest> first =
        ReadHeaderMessage<v1::ValidateStreamRequest>(reader);
    if (!first.ok()) return first.status();
    const v1::ValidateStreamHeader& header = first->header();
    record.n = header.n();
    if (absl::Status size = CheckSize(header.n(), options_.max_n); !size.ok()) return size;
    absl::StatusOr<Columns> board =
        ReadBoardAfterHeader<v1::ValidateStreamRequest>(reader, header.n(), header.queens());
    if (!board.ok()) return board.status();
    return RunValidate(*board, header.max_conflicts(), record, response);
  });
}

}  // namespace nqueens::server
