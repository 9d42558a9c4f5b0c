#include "service.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "byte_size.h"
#include "cancellation_poll.h"
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
// How often a running completion asks gRPC whether its call was cancelled
// (see cancellation_poll.h); well inside the core's promise to stop within
// 100 ms.
constexpr absl::Duration kCancellationPollInterval = absl::Milliseconds(10);
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
  options.stop.cancelled = PollCancellation(
      [context, deadline] { return context->IsCancelled() && absl::Now() < deadline; },
      kCancellationPollInterval);
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

// `status` of a stream that stopped early, unless the call itself ended --
// cut by the idle watchdog or cancelled by the client -- which is then the
// reason (the client no longer hears it; the log does).
absl::Status StreamStatus(grpc::ServerContext* context, const IdleWatchdog::Watch& watch,
                          absl::Status status) {
  if (watch.expired()) {
    return absl::CancelledError(absl::StrCat("no message for ",
                                             absl::FormatDuration(watch.timeout()),
                                             "; the stream was cut (--stream-idle-timeout)"));
  }
  if (context->IsCancelled()) {
    return absl::CancelledError("the client cancelled the call or its deadline passed");
  }
  return status;
}

// What a request stream delivered, and the call's memory reservation.
template <typename Request>
struct StreamedRequest {
  std::decay_t<decltype(std::declval<Request>().header())> header;
  Columns board;
  MemoryBudget::Reservation memory;
};

// Reads a request stream while the idle watchdog watches it: the header,
// then `admit(header)` (the size check and memory reservation), then the
// board.
template <typename Request, typename Stream, typename Admit>
absl::StatusOr<StreamedRequest<Request>> ReadRequestStream(grpc::ServerContext* context,
                                                           Stream* stream, IdleWatchdog& watchdog,
                                                           const Admit& admit, CallRecord& record) {
  IdleWatchdog::Watch watch(watchdog, context);
  WatchedStream<Stream> watched(stream, &watch);
  absl::StatusOr<Request> first = ReadHeaderMessage<Request>(&watched);
  if (!first.ok()) return StreamStatus(context, watch, first.status());
  record.n = first->header().n();
  absl::StatusOr<MemoryBudget::Reservation> memory = admit(first->header());
  if (!memory.ok()) return memory.status();
  absl::StatusOr<Columns> board =
      ReadBoardAfterHeader<Request>(&watched, first->header().n(), first->header().queens());
  if (absl::Status status = StreamStatus(context, watch, board.status()); !status.ok()) {
    return status;
  }
  return StreamedRequest<Request>{std::move(*first->mutable_header()), *std::move(board),
                                  *std::move(memory)};
}

absl::Status ClientGone() {
  return absl::CancelledError("the client went away before the whole board was sent");
}

// A result header, then the board in chunks (none unless solved), while the
// idle watchdog watches the stream.
template <typename Response, typename Writer>
absl::Status WriteResultStream(grpc::ServerContext* context, IdleWatchdog& watchdog, uint64_t n,
                               const CompletionResult& result, uint32_t chunk_size,
                               Writer* writer) {
  IdleWatchdog::Watch watch(watchdog, context);
  WatchedStream<Writer> watched(writer, &watch);
  Response message;
  SetResultHeader(n, result, message.mutable_header());
  const bool written =
      watched.Write(message) &&
      wire::ForEachChunk(result.columns, chunk_size, [&](const v1::BoardChunk& chunk) {
        *message.mutable_chunk() = chunk;
        return watched.Write(message);
      });
  return written ? absl::OkStatus() : StreamStatus(context, watch, ClientGone());
}

// The core's Complete, which checks the composition as it places it (an
// attacking pair is INVALID_ARGUMENT naming the rows).
template <typename Request>
absl::StatusOr<CompletionResult> RunComplete(grpc::ServerContext* context, Columns board,
                                             const Request& request, CallRecord& record) {
  record.queens_given = CountQueens(board);
  absl::StatusOr<CompletionResult> result =
      nqueens::Complete(std::move(board), OptionsFor(context, request));
  if (result.ok()) record.outcome = OutcomeName(result->outcome);
  return result;
}

absl::Status RunValidate(absl::Span<const uint32_t> board, uint32_t max_conflicts,
                         CallRecord& record, v1::ValidateResponse* response) {
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

// An unknown method is refused later, by RunSolve.
Work SolveWork(v1::Method method) {
  return method == v1::CONSTRUCTIVE ? Work::kConstruction : Work::kCompletion;
}

absl::StatusOr<CompletionResult> RunSolve(grpc::ServerContext* context,
                                          const v1::SolveRequest& request, CallRecord& record) {
  absl::StatusOr<SolveMethod> method = MethodFromProto(request.method());
  if (!method.ok()) return method.status();
  // Admit() bounds n by kMaxBoardSize, which fits in uint32_t.
  absl::StatusOr<CompletionResult> result =
      nqueens::Solve(static_cast<uint32_t>(request.n()), *method, OptionsFor(context, request));
  if (result.ok()) record.outcome = OutcomeName(result->outcome);
  return result;
}

template <typename Request>
RequestBoard SizeOfRequestBoard(const Request& request) {
  return RequestBoard{static_cast<uint64_t>(request.columns_size()),
                      static_cast<uint64_t>(request.queens_size())};
}

template <typename Header>
RequestBoard SizeOfStreamHeader(const Header& header) {
  // The chunks' board is the work's own input, counted there.
  return RequestBoard{0, static_cast<uint64_t>(header.queens_size())};
}

}  // namespace

NQueensService::NQueensService(const ServiceOptions& options)
    : options_(options),
      memory_budget_(options.memory_budget != 0 ? options.memory_budget : DefaultMemoryBudget()),
      idle_watchdog_(options.stream_idle_timeout) {}

absl::StatusOr<MemoryBudget::Reservation> NQueensService::Admit(uint64_t n, Work work,
                                                                const RequestBoard& request,
                                                                ResponseBoard response) {
  if (absl::Status size = CheckSize(n, options_.max_n); !size.ok()) return size;
  const uint64_t need = PeakCallBytes(work, n, request, response);
  std::optional<MemoryBudget::Reservation> reservation = memory_budget_.Reserve(need);
  if (reservation.has_value()) return *std::move(reservation);
  const std::string needs =
      absl::StrCat("n = ", n, " needs about ", HumanBytes(need), " of memory");
  const std::string budget = HumanBytes(memory_budget_.capacity());
  if (need > memory_budget_.capacity()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        needs, ", more than this server's whole budget of ", budget, " (--memory-budget)"));
  }
  return absl::ResourceExhaustedError(
      absl::StrCat(needs, ", but only ", HumanBytes(memory_budget_.available()),
                   " of this server's ", budget, " budget is free now; try again later"));
}

grpc::Status NQueensService::Solve(grpc::ServerContext* context, const v1::SolveRequest* request,
                                   v1::SolveResponse* response) {
  return Serve(in_flight_, "Solve", [&](CallRecord& record) {
    record.n = request->n();
    absl::StatusOr<MemoryBudget::Reservation> memory =
        Admit(request->n(), SolveWork(request->method()), {}, ResponseBoard::kOneMessage);
    if (!memory.ok()) return memory.status();
    absl::StatusOr<CompletionResult> result = RunSolve(context, *request, record);
    if (!result.ok()) return result.status();
    SetResult(request->n(), *result, response);
    return absl::OkStatus();
  });
}

grpc::Status NQueensService::SolveStream(grpc::ServerContext* context,
                                         const v1::SolveRequest* request,
                                         grpc::ServerWriter<v1::SolveStreamResponse>* writer) {
  return Serve(in_flight_, "SolveStream", [&](CallRecord& record) {
    record.n = request->n();
    absl::StatusOr<MemoryBudget::Reservation> memory =
        Admit(request->n(), SolveWork(request->method()), {}, ResponseBoard::kNoneOrChunked);
    if (!memory.ok()) return memory.status();
    absl::StatusOr<CompletionResult> result = RunSolve(context, *request, record);
    if (!result.ok()) return result.status();
    return WriteResultStream<v1::SolveStreamResponse>(context, idle_watchdog_, request->n(),
                                                      *result, request->chunk_size(), writer);
  });
}

grpc::Status NQueensService::Complete(grpc::ServerContext* context,
                                      const v1::CompleteRequest* request,
                                      v1::CompleteResponse* response) {
  return Serve(in_flight_, "Complete", [&](CallRecord& record) {
    record.n = request->n();
    absl::StatusOr<MemoryBudget::Reservation> memory = Admit(
        request->n(), Work::kCompletion, SizeOfRequestBoard(*request), ResponseBoard::kOneMessage);
    if (!memory.ok()) return memory.status();
    // The request is gRPC's and const: its columns cannot be moved out, and
    // the core takes its own copy (counted in the estimate).
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
    absl::StatusOr<StreamedRequest<v1::CompleteStreamRequest>> input =
        ReadRequestStream<v1::CompleteStreamRequest>(
            context, stream, idle_watchdog_,
            [this](const v1::CompleteStreamHeader& header) {
              return Admit(header.n(), Work::kCompletion, SizeOfStreamHeader(header),
                           ResponseBoard::kNoneOrChunked);
            },
            record);
    if (!input.ok()) return input.status();
    const v1::CompleteStreamHeader& header = input->header;
    absl::StatusOr<CompletionResult> result =
        RunComplete(context, std::move(input->board), header, record);
    if (!result.ok()) return result.status();
    return WriteResultStream<v1::CompleteStreamResponse>(context, idle_watchdog_, header.n(),
                                                         *result, header.chunk_size(), stream);
  });
}

grpc::Status NQueensService::Validate(grpc::ServerContext*, const v1::ValidateRequest* request,
                                      v1::ValidateResponse* response) {
  return Serve(in_flight_, "Validate", [&](CallRecord& record) {
    record.n = request->n();
    absl::StatusOr<MemoryBudget::Reservation> memory =
        Admit(request->n(), Work::kValidation, SizeOfRequestBoard(*request),
              ResponseBoard::kNoneOrChunked);
    if (!memory.ok()) return memory.status();
    // A dense board is validated where it lies, in the request.
    if (request->queens().empty() && !request->columns().empty()) {
      if (absl::Status shape = CheckDenseShape(request->n(), request->columns()); !shape.ok()) {
        return shape;
      }
      return RunValidate(request->columns(), request->max_conflicts(), record, response);
    }
    absl::StatusOr<Columns> board =
        BoardFromRequest(request->n(), request->columns(), request->queens());
    if (!board.ok()) return board.status();
    return RunValidate(*board, request->max_conflicts(), record, response);
  });
}

grpc::Status NQueensService::ValidateStream(grpc::ServerContext* context,
                                            grpc::ServerReader<v1::ValidateStreamRequest>* reader,
                                            v1::ValidateResponse* response) {
  return Serve(in_flight_, "ValidateStream", [&](CallRecord& record) {
    absl::StatusOr<StreamedRequest<v1::ValidateStreamRequest>> input =
        ReadRequestStream<v1::ValidateStreamRequest>(
            context, reader, idle_watchdog_,
            [this](const v1::ValidateStreamHeader& header) {
              return Admit(header.n(), Work::kValidation, SizeOfStreamHeader(header),
                           ResponseBoard::kNoneOrChunked);
            },
            record);
    if (!input.ok()) return input.status();
    return RunValidate(input->board, input->header.max_conflicts(), record, response);
  });
}

}  // namespace nqueens::server
