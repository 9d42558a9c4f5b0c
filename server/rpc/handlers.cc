#include "server/rpc/handlers.h"

#include <algorithm>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "nqueens/count.h"
#include "nqueens/validate.h"
#include "server/base/byte_size.h"
#include "server/limits/memory_estimate.h"
#include "server/limits/worker_pool.h"
#include "server/rpc/board_message.h"
#include "server/rpc/message_codec.h"
#include "server/rpc/stream_io.h"
#include "wire/convert.h"
#include "wire/limits.h"

namespace nqueens::server {
namespace {

constexpr uint32_t kDefaultMaxConflicts = 10;
// A response lists at most this many conflicts, whatever the client asks.
constexpr uint32_t kMaxConflictsCap = 1000;
// Count's progress messages come at least this often.
constexpr double kMaxProgressSeconds = 3600;
// Work this small runs at once on gRPC's thread (ResponseJob::quick): handing
// it to a worker and back costs more than doing it (docs/constants.md).
// Validate is linear in n; a search on a board this small is bounded by its
// whole tree.
constexpr uint64_t kQuickValidateMaxRows = 4096;
constexpr uint64_t kQuickSearchMaxRows = 10;

// The request parsed, shared by the job (which may outlive the handler),
// its memory reserved first.
template <typename Request>
absl::StatusOr<std::shared_ptr<const Request>> Parse(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<uint64_t> parsing = ParsingBytes<Request>(bytes, "the request");
  if (!parsing.ok()) return parsing.status();
  if (absl::Status memory = call.ReserveMemory(*parsing); !memory.ok()) return memory;
  auto request = std::make_shared<Request>();
  if (absl::Status parsed = ParseMessage(bytes, "the request", request.get()); !parsed.ok()) {
    return parsed;
  }
  return request;
}

// A unary answer holds the board: it must fit what the client receives
// (gRPC's clients take 4 MiB unless told otherwise), or the client fails
// after all the work with a message about message sizes.
absl::Status CheckAnswerFits(const Call& call, uint64_t n) {
  const uint64_t column_bytes = n < (1u << 7) ? 1 : n < (1u << 14) ? 2 : n < (1u << 21) ? 3 : 4;
  const uint64_t answer = n * column_bytes + wire::kResponseOverheadBytes;
  const uint64_t accepted = call.ClientReceiveBytes();
  if (answer <= accepted) return absl::OkStatus();
  const std::string too_large =
      absl::StrCat("the answer for n = ", n, " takes up to ", HumanBytes(answer),
                   ", more than the ", HumanBytes(accepted));
  // The advice is one the caller can follow where it is.
  if (call.OverHttp()) {
    return absl::FailedPreconditionError(absl::StrCat(
        too_large, " that an HTTP answer holds: ask the gRPC port for a streamed answer ",
        "(SolveStream, CompleteStream; the nqueens CLI does this)"));
  }
  return absl::FailedPreconditionError(
      absl::StrCat(too_large, " the client takes in one message: use the streaming RPC ",
                   "(SolveStream, CompleteStream), or send the header ", wire::kMaxResponseBytesKey,
                   " with the client's larger limit"));
}

// The size checks and the call's memory for a board of n rows.
absl::Status Admit(Call& call, uint64_t n, Work work, const RequestBoard& request,
                   ResponseBoard response) {
  if (absl::Status size = call.CheckSize(n); !size.ok()) return size;
  if (response == ResponseBoard::kOneMessage) {
    if (absl::Status fits = CheckAnswerFits(call, n); !fits.ok()) return fits;
  }
  return call.ReserveMemory(PeakCallBytes(work, n, request, response));
}

// What the request message itself holds of the board (a Solve request: none).
template <typename Request>
RequestBoard RequestBoardOf(const Request& request) {
  return RequestBoard{static_cast<uint64_t>(request.columns_size()),
                      static_cast<uint64_t>(request.queens_size())};
}
RequestBoard RequestBoardOf(const v1::SolveRequest&) { return {}; }
RequestBoard RequestBoardOf(const v1::SolveStreamRequest&) { return {}; }

template <typename Request>
std::optional<uint64_t> SeedOf(const Request& request) {
  return request.has_seed() ? std::optional<uint64_t>(request.seed()) : std::nullopt;
}

uint64_t CountQueens(const Columns& board) {
  return board.size() - static_cast<uint64_t>(std::count(board.begin(), board.end(), kEmptyRow));
}

// Method EXACT on more free rows than --max-exact-free-rows allows, but no
// more than the most any server allows (params.h's default): a limit this
// server chose. Above that, the core refuses the request itself.
absl::Status CheckExactFreeRows(const CompleteOptions& options, uint64_t free_rows) {
  const uint64_t allowed = options.params.exact_max_free_rows;
  if (options.complete_method != CompleteMethod::kExact || free_rows <= allowed ||
      free_rows > PipelineParams{}.exact_max_free_rows) {
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat("method COMPLETE_METHOD_EXACT on ", free_rows,
                                                   " free rows: this server searches at most ",
                                                   allowed, " (--max-exact-free-rows)"));
}

// How long a call's certificate may be (the core's certificate_max_bytes),
// and the limit that a certificate_missing the core wrote for it names.
struct CertificateRoom {
  uint64_t bytes = 0;
  std::string limit;
};

// A certificate carried whole in one `message`: at most kMaxCertificateBytes,
// as API 1.0 sent it; over HTTP, what the gateway takes in one message.
// `longer`: where a longer one goes.
CertificateRoom OneMessageRoom(const Call& call, absl::string_view message,
                               absl::string_view longer) {
  uint64_t bytes = wire::kMaxCertificateBytes;
  if (call.OverHttp()) {
    const uint64_t received = call.ClientReceiveBytes();
    bytes = std::min(bytes, received - std::min(received, wire::kResponseOverheadBytes));
  }
  return {bytes, absl::StrCat("one ", message, " carries at most ", HumanBytes(bytes),
                              " of certificate: ", longer)};
}

// Where a Complete call's certificate goes: its unary answer, or over
// CompleteStream the result header (certificate_format unset, as API 1.0
// sent it) or the chunks after it, which the server's memory bounds alone.
template <typename Request>
CertificateRoom RoomFor(const Call& call, const Request& request) {
  if constexpr (std::is_same_v<Request, v1::CompleteRequest>) {
    return OneMessageRoom(call, call.OverHttp() ? "HTTP answer" : "CompleteResponse",
                          call.OverHttp() ? "POST /v1/complete-stream streams a longer one"
                                          : "CompleteStream streams a longer one");
  } else if (request.certificate_format() == v1::CERTIFICATE_FORMAT_UNSPECIFIED) {
    return OneMessageRoom(call, "ResultHeader",
                          "with certificate_format set, a longer one follows it in chunks");
  } else {
    const uint64_t bytes = call.service().CallCapacity();
    return {bytes, absl::StrCat("this server holds a certificate in the ", HumanBytes(bytes),
                                " its memory budget leaves for a call (--memory-budget)")};
  }
}

// A certificate the core dropped for want of `room` says which limit it met.
// One the memory budget refused (the call's reserve_memory) says so already.
void NameCertificateLimit(const Call& call, const CertificateRoom& room, CompletionResult& result) {
  if (result.certificate_missing.empty() || call.memory_refused()) return;
  absl::StrAppend(&result.certificate_missing, "; ", room.limit);
}

// The core's Complete, which checks the composition as it places it (an
// attacking pair is INVALID_ARGUMENT naming the rows).
absl::StatusOr<CompletionResult> RunComplete(
    Call& call, Columns board, const CompleteOptions& options, const CertificateRoom& room,
    std::optional<IncomingComposition> incoming = std::nullopt) {
  const uint64_t queens = CountQueens(board);
  call.set_queens_given(queens);
  if (absl::Status exact = CheckExactFreeRows(options, board.size() - queens); !exact.ok()) {
    return exact;
  }
  absl::StatusOr<CompletionResult> result =
      incoming.has_value() ? nqueens::Complete(std::move(board), *std::move(incoming), options)
                           : nqueens::Complete(std::move(board), options);
  if (!result.ok()) return result;
  call.set_result(*result);
  NameCertificateLimit(call, room, *result);
  return result;
}

// A SolveRequest or a SolveStreamRequest.
template <typename Request>
absl::StatusOr<CompletionResult> RunSolve(Call& call, const Request& request) {
  absl::StatusOr<SolveMethod> method = wire::MethodFromProto(request.method());
  if (!method.ok()) return method.status();
  absl::StatusOr<CallOptions> call_options = call.CallOptionsFor(SeedOf(request), request.limits());
  if (!call_options.ok()) return call_options.status();
  SolveOptions options(*std::move(call_options));
  options.formula_variant = request.variant();
  options.symmetry = request.symmetry();
  // CheckSize() bounds n by kMaxBoardSize, which fits in uint32_t.
  absl::StatusOr<CompletionResult> result =
      nqueens::Solve(static_cast<uint32_t>(request.n()), *method, options);
  if (result.ok()) call.set_result(*result);
  return result;
}

// Response: ValidateResponse or ValidateStreamResponse.
template <typename Response = v1::ValidateResponse>
absl::StatusOr<grpc::ByteBuffer> RunValidate(Call& call, absl::Span<const uint32_t> board,
                                             uint32_t max_conflicts) {
  ValidateOptions options;
  options.max_conflicts =
      max_conflicts == 0 ? kDefaultMaxConflicts : std::min(max_conflicts, kMaxConflictsCap);
  options.stop = call.Stop();
  absl::StatusOr<ValidationReport> report = nqueens::Validate(board, options);
  if (!report.ok()) return report.status();
  call.set_queens_given(report->queen_count);
  call.set_outcome(report->complete ? CallOutcome::kComplete
                   : report->valid  ? CallOutcome::kValid
                                    : CallOutcome::kInvalid);
  Response response;
  wire::ReportToProto(*report, &response);
  return SerializeMessage(response);
}

// A completion result as one response message (SolveResponse,
// CompleteResponse).
template <typename Response>
absl::StatusOr<grpc::ByteBuffer> OneMessage(Call& call, uint64_t n,
                                            absl::StatusOr<CompletionResult> result) {
  if (!result.ok()) return result.status();
  result->stats.lowered_limits = call.lowered_limits();
  Response response;
  SetResultHeader(n, *result, &response);
  return SerializeWithBoard(response, Response::kColumnsFieldNumber, result->columns,
                            [&call] { return call.StillGoing(); });
}

// The core's options for a Complete request (a unary one, a stream header
// or a batch item): the call's (or the item's) `call_options`, the
// request's own, and the certificate's room.
template <typename Request>
absl::StatusOr<CompleteOptions> CompleteOptionsFrom(
    const Request& request, const CertificateRoom& room,
    const std::function<absl::StatusOr<CallOptions>()>& call_options) {
  absl::StatusOr<CompleteMethod> method = wire::CompleteMethodFromProto(request.method());
  if (!method.ok()) return method.status();
  absl::StatusOr<CertificateFormat> format =
      wire::CertificateFormatFromProto(request.certificate_format());
  if (!format.ok()) return format.status();
  absl::StatusOr<CallOptions> shared = call_options();
  if (!shared.ok()) return shared.status();
  CompleteOptions options(*std::move(shared));
  options.complete_method = *method;
  options.want_certificate = request.want_certificate();
  options.certificate_format = *format;
  options.certificate_max_bytes = room.bytes;
  absl::StatusOr<PartSelector> part =
      wire::PartFromProto(request.part_index(), request.part_count());
  if (!part.ok()) return part.status();
  options.part = *part;
  return options;
}

template <typename Request>
absl::StatusOr<CompleteOptions> CompleteOptionsFor(Call& call, const Request& request,
                                                   const CertificateRoom& room) {
  return CompleteOptionsFrom(
      request, room, [&] { return call.CallOptionsFor(SeedOf(request), request.limits()); });
}

// The work a request asks for, by the memory it takes.
// An unknown method is refused later, by RunSolve.
template <typename Request>
Work SolveWorkOf(const Request& request) {
  return {Work::Kind::kSolve,
          wire::MethodFromProto(request.method()).value_or(SolveMethod::kConstructive),
          request.symmetry()};
}
Work WorkOf(const v1::SolveRequest& request) { return SolveWorkOf(request); }
Work WorkOf(const v1::SolveStreamRequest& request) { return SolveWorkOf(request); }
Work WorkOf(const v1::CompleteRequest&) { return kCompletionWork; }
Work WorkOf(const v1::ValidateRequest&) { return kValidationWork; }
Work WorkOf(const v1::CountRequest&) { return kValidationWork; }
Work WorkOf(const v1::EnumerateRequest&) { return kValidationWork; }

// The request parsed, its n checked and the call's memory reserved.
template <typename Request>
absl::StatusOr<std::shared_ptr<const Request>> ParseAndAdmit(Call& call, grpc::ByteBuffer& bytes,
                                                             ResponseBoard response) {
  absl::StatusOr<std::shared_ptr<const Request>> request = Parse<Request>(call, bytes);
  if (!request.ok()) return request.status();
  const Request& parsed = **request;
  if (absl::Status admitted =
          Admit(call, parsed.n(), WorkOf(parsed), RequestBoardOf(parsed), response);
      !admitted.ok()) {
    return admitted;
  }
  return request;
}

}  // namespace

absl::StatusOr<ResponseJob> PrepareSolve(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::SolveRequest>> request =
      ParseAndAdmit<v1::SolveRequest>(call, bytes, ResponseBoard::kOneMessage);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  return ResponseJob{n,
                     [&call, request = *std::move(request), n] {
                       return OneMessage<v1::SolveResponse>(call, n, RunSolve(call, *request));
                     },
                     n <= kQuickSearchMaxRows};
}

absl::StatusOr<ResponseJob> PrepareComplete(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::CompleteRequest>> request =
      ParseAndAdmit<v1::CompleteRequest>(call, bytes, ResponseBoard::kOneMessage);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  return ResponseJob{
      n,
      [&call, request = *std::move(request), n]() -> absl::StatusOr<grpc::ByteBuffer> {
        const CertificateRoom room = RoomFor(call, *request);
        absl::StatusOr<CompleteOptions> options = CompleteOptionsFor(call, *request, room);
        if (!options.ok()) return options.status();
        absl::StatusOr<Columns> board =
            wire::BoardFromRequest(n, request->columns(), request->queens());
        if (!board.ok()) return board.status();
        return OneMessage<v1::CompleteResponse>(
            call, n, RunComplete(call, *std::move(board), *options, room));
      },
      n <= kQuickSearchMaxRows};
}

namespace {

// A batch item's answer (see RunBatchItem).
absl::StatusOr<v1::CompleteResponse> CompleteItem(const Call& call,
                                                  const v1::CompleteRequest& request) {
  const uint64_t n = request.n();
  if (absl::Status size = wire::CheckBatchItemSize(n); !size.ok()) return size;
  if (n > call.service().options.max_n) {
    return absl::ResourceExhaustedError(absl::StrCat("n = ", n, " is above this server's limit of ",
                                                     call.service().options.max_n, " (--max-n)"));
  }
  std::vector<std::string> lowered;
  const CertificateRoom room =
      OneMessageRoom(call, "CompleteBatchAnswer", "CompleteStream streams a longer one");
  absl::StatusOr<CompleteOptions> options = CompleteOptionsFrom(request, room, [&] {
    return call.ItemOptionsFor(SeedOf(request), request.limits(), lowered);
  });
  if (!options.ok()) return options.status();
  absl::StatusOr<Columns> board = wire::BoardFromRequest(n, request.columns(), request.queens());
  if (!board.ok()) return board.status();
  absl::StatusOr<CompletionResult> result = nqueens::Complete(*std::move(board), *options);
  if (!result.ok()) return result.status();
  NameCertificateLimit(call, room, *result);
  result->stats.lowered_limits = std::move(lowered);
  v1::CompleteResponse response;
  SetResultHeader(n, *result, &response);
  response.mutable_columns()->Assign(result->columns.begin(), result->columns.end());
  return response;
}

}  // namespace

uint64_t BatchItemBytes(const v1::CompleteRequest& request) {
  return PeakCallBytes(kCompletionWork, std::min<uint64_t>(request.n(), wire::kStreamingThreshold),
                       RequestBoardOf(request), ResponseBoard::kOneMessage);
}

v1::CompleteBatchAnswer RunBatchItem(const Call& call, uint64_t index,
                                     const v1::CompleteRequest& request) {
  v1::CompleteBatchAnswer response;
  response.set_index(index);
  absl::StatusOr<v1::CompleteResponse> answer;
  try {
    answer = CompleteItem(call, request);
  } catch (const std::bad_alloc&) {  // despite the batch's reservation
    answer = absl::ResourceExhaustedError("the server has no memory left for this item");
  }
  if (answer.ok()) {
    *response.mutable_response() = *std::move(answer);
  } else {
    SetBatchItemError(call.Describe(answer.status()), response);
  }
  return response;
}

void SetBatchItemError(const absl::Status& status, v1::CompleteBatchAnswer& answer) {
  answer.mutable_error()->set_code(static_cast<int>(status.code()));
  answer.mutable_error()->set_message(std::string(status.message()));
}

absl::StatusOr<ResponseJob> PrepareValidate(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::ValidateRequest>> request =
      ParseAndAdmit<v1::ValidateRequest>(call, bytes, ResponseBoard::kNoneOrChunked);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  return ResponseJob{
      n,
      [&call, request = *std::move(request), n]() -> absl::StatusOr<grpc::ByteBuffer> {
        // A dense board is validated where it lies, in the request.
        if (request->queens().empty() && !request->columns().empty()) {
          if (absl::Status shape = CheckDenseShape(n, request->columns()); !shape.ok()) {
            return shape;
          }
          return RunValidate(call, request->columns(), request->max_conflicts());
        }
        absl::StatusOr<Columns> board =
            wire::BoardFromRequest(n, request->columns(), request->queens());
        if (!board.ok()) return board.status();
        return RunValidate(call, *board, request->max_conflicts());
      },
      n <= kQuickValidateMaxRows};
}

absl::StatusOr<ResultJob> PrepareSolveStream(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::SolveStreamRequest>> request =
      ParseAndAdmit<v1::SolveStreamRequest>(call, bytes, ResponseBoard::kNoneOrChunked);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  const uint32_t chunk_size = (*request)->chunk_size();
  return ResultJob{n, chunk_size,
                   [&call, request = *std::move(request)] { return RunSolve(call, *request); }};
}

absl::StatusOr<CountJob> PrepareCount(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::CountRequest>> request =
      ParseAndAdmit<v1::CountRequest>(call, bytes, ResponseBoard::kNoneOrChunked);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  const double seconds = (*request)->progress_seconds();
  if (!(seconds >= 0 && seconds <= kMaxProgressSeconds)) {
    return absl::InvalidArgumentError(
        absl::StrCat("progress_seconds must be 0 (the default, 1 s) .. ", kMaxProgressSeconds,
                     ", not ", seconds));
  }
  const absl::Duration interval = seconds == 0 ? absl::Seconds(1) : absl::Seconds(seconds);
  return CountJob{n, interval,
                  [&call, request = *std::move(request), n,
                   interval](const std::function<void(const CountProgress&)>& on_progress)
                      -> absl::StatusOr<CountResult> {
                    absl::StatusOr<Columns> board =
                        wire::BoardFromRequest(n, request->columns(), request->queens());
                    if (!board.ok()) return board.status();
                    call.set_queens_given(CountQueens(*board));
                    absl::StatusOr<PartSelector> part =
                        wire::PartFromProto(request->part_index(), request->part_count());
                    if (!part.ok()) return part.status();
                    absl::StatusOr<CountPlan> plan = CountPlan::Make(*std::move(board), *part);
                    if (!plan.ok()) return plan.status();
                    CountOptions options;
                    options.stop = call.Stop();
                    options.threads = CallThreads(call.service().pool);
                    options.on_progress = on_progress;
                    options.progress_interval = interval;
                    return CountSolutions(*plan, options);
                  }};
}

absl::StatusOr<EnumerateJob> PrepareEnumerate(Call& call, grpc::ByteBuffer& bytes) {
  absl::StatusOr<std::shared_ptr<const v1::EnumerateRequest>> request =
      ParseAndAdmit<v1::EnumerateRequest>(call, bytes, ResponseBoard::kNoneOrChunked);
  if (!request.ok()) return request.status();
  const uint64_t n = (*request)->n();
  return EnumerateJob{n, (*request)->limit(), [&call, request = *std::move(request), n] {
                        absl::StatusOr<Columns> board =
                            wire::BoardFromRequest(n, request->columns(), request->queens());
                        if (!board.ok()) return absl::StatusOr<SolutionEnumerator>(board.status());
                        call.set_queens_given(CountQueens(*board));
                        absl::StatusOr<PartSelector> part =
                            wire::PartFromProto(request->part_index(), request->part_count());
                        if (!part.ok()) return absl::StatusOr<SolutionEnumerator>(part.status());
                        return SolutionEnumerator::Make(*std::move(board), *part);
                      }};
}

ResponseJob ValidateStreamJob(Call& call, const v1::ValidateStreamHeader& header, Columns board) {
  const uint64_t n = header.n();
  return ResponseJob{n, [&call, board = std::move(board), max_conflicts = header.max_conflicts()] {
                       return RunValidate<v1::ValidateStreamResponse>(call, board, max_conflicts);
                     }};
}

ResultJob CompleteStreamJob(Call& call, const v1::CompleteStreamHeader& header, Columns board,
                            std::optional<IncomingComposition> incoming) {
  // Held by pointer: a std::function's callable must be copyable.
  auto placed = std::make_shared<std::optional<IncomingComposition>>(std::move(incoming));
  CertificateRoom room = RoomFor(call, header);
  absl::StatusOr<CompleteOptions> options = CompleteOptionsFor(call, header, room);
  return ResultJob{header.n(), header.chunk_size(),
                   [&call, board = std::move(board), placed, options = std::move(options),
                    room = std::move(room)]() mutable -> absl::StatusOr<CompletionResult> {
                     if (!options.ok()) return options.status();
                     return RunComplete(call, std::move(board), *options, room, std::move(*placed));
                   },
                   header.certificate_format() != v1::CERTIFICATE_FORMAT_UNSPECIFIED};
}

}  // namespace nqueens::server
