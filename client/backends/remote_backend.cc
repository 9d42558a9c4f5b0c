// The backend that talks to nqueens-server: a thin layer over the generated
// stub that picks the unary or the streaming RPC by board size and converts
// between the wire messages and the core's types.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client/backends/backend.h"
#include "client/backends/batch_queue.h"
#include "client/backends/cancellation.h"
#include "client/backends/channel.h"
#include "client/backends/security.h"
#include "client/output/progress.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "wire/certificate_chunks.h"
#include "wire/chunk_message.h"
#include "wire/chunks.h"
#include "wire/convert.h"
#include "wire/limits.h"
#include "wire/request_id.h"
#include "wire/status.h"

namespace nqueens::client {
namespace {

namespace v1 = nqueens::v1;

absl::Status MalformedResult(absl::string_view what) {
  return absl::InternalError(absl::StrCat("server sent a malformed result: ", what));
}

// A batch's request messages: at most 64 items, and more than one only while
// under 1 MiB (a server takes at least 4 MiB); at most 128 items made ahead.
constexpr size_t kBatchMessageItems = 64;
constexpr size_t kBatchMessageBytes = size_t{1} << 20;
constexpr size_t kBatchQueuedItems = 128;

// --- From the wire to the core's types. ---

absl::StatusOr<CompletionResult> ResultFromProto(v1::Outcome outcome, const v1::Stats& stats,
                                                 uint64_t n, Columns columns) {
  const std::optional<Outcome> core_outcome = wire::OutcomeFromProto(outcome);
  if (!core_outcome.has_value()) return MalformedResult("no outcome");
  CompletionResult result;
  result.outcome = *core_outcome;
  if (result.outcome == Outcome::kSolved) {
    if (columns.size() != n) {
      return MalformedResult(absl::StrCat("a board of ", columns.size(), " rows for n = ", n));
    }
    result.columns = std::move(columns);
  }
  result.stats = wire::StatsFromProto(stats);
  return result;
}

// The result of a unary call (SolveResponse, CompleteResponse), which never
// asks for a certificate: CompleteStream brings one.
template <typename Response>
absl::StatusOr<CompletionResult> ResultFromResponse(const Response& response, uint64_t n) {
  return ResultFromProto(response.outcome(), response.stats(), n,
                         Columns(response.columns().begin(), response.columns().end()));
}

// The certificate a message (ResultHeader, CompleteResponse) holds, or why
// there is none, into `result`.
template <typename Message>
void TakeCertificate(const Message& message, CompletionResult& result) {
  result.certificate_missing = message.certificate_missing();
  if (!message.certificate().empty()) result.certificate = message.certificate();
}

// Collects a result stream: one ResultHeader, then, when the outcome is
// SOLVED, the board in chunks, or a certificate the header announces but
// does not hold, in chunks.
class ResultCollector {
 public:
  // The board is assembled in `storage`'s memory when it has room: the
  // request's board, already sent, whose pages are in place.
  explicit ResultCollector(uint64_t n, Columns storage = {})
      : n_(n), storage_(std::move(storage)) {}

  // The stream's messages (SolveStreamResponse, CompleteStreamResponse) in
  // order, serialized; the first is expected to be the header. Chunks are
  // decoded straight into the board when they come as protobuf writes them.
  template <typename Response>
  void Add(const grpc::ByteBuffer& bytes) {
    if (!error_.ok()) return;
    if (board_) {
      if (std::optional<wire::SerializedChunk> chunk = wire::SerializedChunk::Find(bytes)) {
        if (absl::Status added = board_->Add(*chunk); !added.ok()) {
          error_ = MalformedResult(added.message());
        }
        return;
      }
    }
    Response message;
    grpc::ByteBuffer copy(bytes);  // shares the slices; parsing consumes it
    if (!grpc::SerializationTraits<Response>::Deserialize(&copy, &message).ok()) {
      error_ = MalformedResult("a message that does not parse");
      return;
    }
    Add(message);
  }

  // What the stream brings after its header, in `unit`s: the board's rows or
  // the certificate's bytes; how many of them came so far.
  uint64_t total() const { return certificate_ ? header_->certificate_size() : n_; }
  const char* unit() const { return certificate_ ? "bytes" : "rows"; }
  uint64_t received() const {
    return certificate_ ? certificate_->received() : board_ ? board_->rows() : 0;
  }

 private:
  template <typename Response>
  void Add(const Response& message) {
    if (!error_.ok() || TakeCertificateChunk(message)) return;
    if (message.has_header() && header_) {
      error_ = MalformedResult("a second result header");
    } else if (message.has_header()) {
      header_ = message.header();
      if (header_->outcome() == v1::OUTCOME_SOLVED) {
        board_.emplace(n_, std::move(storage_));
        // n is our own request's: one allocation, no regrowth copies.
        board_->ReserveAllRows();
      }
      if (header_->certificate().empty() && header_->certificate_size() > 0) {
        certificate_.emplace(header_->certificate_size());
      }
    } else if (!board_) {
      error_ = MalformedResult("a board chunk without a SOLVED header");
    } else if (absl::Status added = board_->Add(message.chunk()); !added.ok()) {
      error_ = MalformedResult(added.message());
    }
  }

 public:
  absl::StatusOr<CompletionResult> Finish() && {
    if (!error_.ok()) return error_;
    if (!header_) return MalformedResult("no result header");
    Columns columns;
    if (board_) {
      absl::StatusOr<Columns> assembled = std::move(*board_).Finish();
      if (!assembled.ok()) return MalformedResult(assembled.status().message());
      columns = *std::move(assembled);
    }
    absl::StatusOr<CompletionResult> result =
        ResultFromProto(header_->outcome(), header_->stats(), n_, std::move(columns));
    if (!result.ok()) return result;
    TakeCertificate(*header_, *result);
    if (certificate_) {
      absl::StatusOr<std::string> certificate = std::move(*certificate_).Finish();
      if (!certificate.ok()) return MalformedResult(certificate.status().message());
      result->certificate = *std::move(certificate);
    }
    return result;
  }

 private:
  // Whether `message` is a certificate chunk, which it takes (a
  // SolveStreamResponse never is).
  template <typename Response>
  bool TakeCertificateChunk(const Response& message) {
    if constexpr (std::is_same_v<Response, v1::CompleteStreamResponse>) {
      if (!message.has_certificate()) return false;
      if (!certificate_) {
        error_ = MalformedResult("a certificate chunk that no result header announced");
      } else if (absl::Status added = certificate_->Add(message.certificate()); !added.ok()) {
        error_ = MalformedResult(added.message());
      }
      return true;
    } else {
      return false;
    }
  }

  uint64_t n_;
  Columns storage_;
  absl::Status error_;
  std::optional<v1::ResultHeader> header_;
  std::optional<wire::ChunkAssembler> board_;
  std::optional<wire::CertificateAssembler> certificate_;
};

// --- From the core's types to the wire. ---

// Boards with few queens travel as their queens, the others dense.
absl::Status ChooseWireForm(Board& board) {
  const uint64_t queens = board.queen_count();
  if (queens < board.n / 8 && queens <= kMaxSparseQueens) {
    MakeSparse(board);
    return absl::OkStatus();
  }
  return MakeDense(board);
}

// Fills n and the board of a unary request (CompleteRequest, ValidateRequest).
template <typename Request>
void SetBoard(const Board& board, Request& request) {
  request.set_n(board.n);
  if (board.is_sparse()) {
    wire::QueensToProto(board.queens, request.mutable_queens());
  } else {
    request.mutable_columns()->Add(board.columns.begin(), board.columns.end());
  }
}

// Fills the part selector of a request that takes one (the whole: unset).
template <typename Request>
void SetPart(const PartSelector& part, Request& request) {
  if (part.whole()) return;
  request.set_part_index(part.index);
  request.set_part_count(part.count);
}

// Writes a streaming request (CompleteStreamRequest, ValidateStreamRequest)
// as raw messages: `header` with the board's queens when it is sparse, else
// followed by the board in chunks, each encoded once from the board into the
// message that carries it. Stops early when the server has ended the call;
// Finish() then tells why.
template <typename Request, typename Stream>
void WriteBoardStream(const Board& board, Request header, Stream& stream, ProgressBar* progress) {
  header.mutable_header()->set_n(board.n);
  if (board.is_sparse()) {
    wire::QueensToProto(board.queens, header.mutable_header()->mutable_queens());
  }
  grpc::ByteBuffer header_bytes;
  bool own_buffer = false;
  if (!grpc::SerializationTraits<Request>::Serialize(header, &header_bytes, &own_buffer).ok() ||
      !stream.Write(header_bytes) || board.is_sparse()) {
    return;
  }
  ProgressPhase uploading(progress, "uploading", board.n, "rows");
  const absl::Span<const uint32_t> columns = board.columns;
  for (size_t offset = 0; offset < columns.size(); offset += wire::kMaxChunkSize) {
    const absl::Span<const uint32_t> part = columns.subspan(offset, wire::kMaxChunkSize);
    if (!stream.Write(wire::SerializeChunkMessage(offset, part))) return;
    uploading.Advance(part.size());
  }
}

template <typename Request>
void SetRunOptions(const RunOptions& options, Request& request) {
  if (options.seed) request.set_seed(*options.seed);
  request.mutable_limits()->set_max_backtracks(options.max_backtracks);
  request.mutable_limits()->set_max_restarts(options.max_restarts);
  request.mutable_limits()->set_max_exact_nodes(options.max_exact_nodes);
  request.mutable_limits()->set_max_exact_seconds(options.max_exact_seconds);
}

// Fills the options of a Complete request (CompleteRequest, the header of
// CompleteStreamRequest).
template <typename Request>
void SetCompleteOptions(const RunOptions& options, Request& request) {
  SetRunOptions(options, request);
  request.set_method(wire::CompleteMethodToProto(options.complete_method));
  request.set_want_certificate(options.want_certificate);
  request.set_certificate_format(wire::CertificateFormatToProto(options.certificate_format));
  SetPart(options.part, request);
}

// A batch item as a CompleteRequest. A board that cannot take its wire form
// goes as it came, for the server to refuse (the batch's other items go on).
v1::CompleteRequest RequestOf(BatchItem item) {
  ChooseWireForm(item.composition).IgnoreError();
  v1::CompleteRequest request;
  SetBoard(item.composition, request);
  SetCompleteOptions(item.options, request);
  return request;
}

// Runs `call`, which waits for the server to solve, showing a spinner.
template <typename Call>
auto WhileSolving(const RunOptions& options, Call call) {
  ProgressPhase solving(options.progress, "solving", 0);
  return call();
}

// A call's context: its deadline, and a request id (x-request-id) of its own,
// which the server logs and echoes back.
class CallContext {
 public:
  // The call's deadline, request id and bearer token (unless none); the
  // call is cancelled when options.cancellation is raised.
  CallContext(const RunOptions& options, const std::optional<std::string>& token)
      : sent_request_id_(wire::NewRequestId()) {
    if (options.deadline != absl::InfiniteDuration()) {
      context_.set_deadline(absl::ToChronoTime(absl::Now() + options.deadline));
    }
    context_.AddMetadata(wire::kRequestIdKey, sent_request_id_);
    if (token.has_value()) context_.AddMetadata("authorization", "Bearer " + *token);
    if (options.cancellation != nullptr) {
      cancel_.emplace(options.cancellation->Register([this] { context_.TryCancel(); }));
    }
  }

  grpc::ClientContext* get() { return &context_; }

  // Once the call has ended: the id the server echoed, or the one sent when
  // no answer came (the server may still have logged the call).
  std::string request_id() const {
    // A server that refused the call at once sends it with the trailers.
    for (const auto* metadata :
         {&context_.GetServerInitialMetadata(), &context_.GetServerTrailingMetadata()}) {
      const auto echoed = metadata->find(wire::kRequestIdKey);
      if (echoed != metadata->end())
        return std::string(echoed->second.data(), echoed->second.size());
    }
    return sent_request_id_;
  }

 private:
  const std::string sent_request_id_;
  grpc::ClientContext context_;
  // Declared after context_: ends, waiting for a TryCancel that runs, first.
  std::optional<Cancellation::Registration> cancel_;
};

class RemoteBackend : public Backend {
 public:
  RemoteBackend(std::shared_ptr<grpc::Channel> channel, std::string address,
                ClientSecurity security)
      : stub_(v1::NQueensService::NewStub(channel)),
        solve_stream_(kSolveStreamMethod, RpcMethod::SERVER_STREAMING, channel),
        complete_stream_(kCompleteStreamMethod, RpcMethod::BIDI_STREAMING, channel),
        validate_stream_(kValidateStreamMethod, RpcMethod::CLIENT_STREAMING, channel),
        channel_(std::move(channel)),
        address_(std::move(address)),
        security_(std::move(security)) {}

  absl::StatusOr<CompletionResult> Solve(uint32_t n, SolveMethod method,
                                         const RunOptions& options) override {
    v1::SolveRequest request;
    request.set_n(n);
    request.set_method(wire::MethodToProto(method));
    request.set_variant(options.formula_variant);
    request.set_symmetry(options.symmetry);
    SetRunOptions(options, request);
    CallContext context(options, security_.token);
    if (n <= kStreamingThreshold) {
      v1::SolveResponse response;
      const grpc::Status status =
          WhileSolving(options, [&] { return stub_->Solve(context.get(), request, &response); });
      if (!status.ok()) return CallError(status, context);
      return ResultFromResponse(response, n);
    }
    std::unique_ptr<grpc::ClientReader<grpc::ByteBuffer>> stream(
        grpc::internal::ClientReaderFactory<grpc::ByteBuffer>::Create(channel_.get(), solve_stream_,
                                                                      context.get(), request));
    return ReceiveResult<v1::SolveStreamResponse>(*stream, n, options, context);
  }

  absl::StatusOr<CompletionResult> Complete(Board composition, const RunOptions& options) override {
    if (absl::Status form = ChooseWireForm(composition); !form.ok()) {
      return form;
    }
    CallContext context(options, security_.token);
    // A certificate may be longer than one message: the stream brings it
    // in chunks.
    if (composition.n <= kStreamingThreshold && !options.want_certificate) {
      v1::CompleteRequest request;
      SetBoard(composition, request);
      SetCompleteOptions(options, request);
      v1::CompleteResponse response;
      const grpc::Status status =
          WhileSolving(options, [&] { return stub_->Complete(context.get(), request, &response); });
      if (!status.ok()) return CallError(status, context);
      return ResultFromResponse(response, composition.n);
    }
    v1::CompleteStreamRequest header;
    SetCompleteOptions(options, *header.mutable_header());
    std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>> stream(
        grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer, grpc::ByteBuffer>::Create(
            channel_.get(), complete_stream_, context.get()));
    WriteBoardStream(composition, std::move(header), *stream, options.progress);
    stream->WritesDone();
    // Sent: its dense board's memory takes the result, the rest is freed.
    const uint64_t n = composition.n;
    Columns storage = std::move(composition.columns);
    composition = Board();
    return ReceiveResult<v1::CompleteStreamResponse>(*stream, n, options, context,
                                                     std::move(storage));
  }

  absl::StatusOr<ValidationReport> Validate(Board board, const RunOptions& options) override {
    if (absl::Status form = ChooseWireForm(board); !form.ok()) return form;
    CallContext context(options, security_.token);
    v1::ValidateResponse response;
    grpc::Status status;
    if (board.n <= kStreamingThreshold) {
      v1::ValidateRequest request;
      SetBoard(board, request);
      status = stub_->Validate(context.get(), request, &response);
    } else {
      std::unique_ptr<grpc::ClientWriter<grpc::ByteBuffer>> stream(
          grpc::internal::ClientWriterFactory<grpc::ByteBuffer>::Create(
              channel_.get(), validate_stream_, context.get(), &response));
      WriteBoardStream(board, v1::ValidateStreamRequest(), *stream, options.progress);
      stream->WritesDone();
      ProgressPhase validating(options.progress, "validating", 0);
      status = stream->Finish();
    }
    if (!status.ok()) return CallError(status, context);
    return wire::ReportFromProto(response);
  }

  absl::StatusOr<CountResult> Count(Board composition, const RunOptions& options) override {
    if (absl::Status form = ChooseWireForm(composition); !form.ok()) return form;
    v1::CountRequest request;
    SetBoard(composition, request);
    SetPart(options.part, request);
    CallContext context(options, security_.token);
    auto stream = stub_->Count(context.get(), request);
    ProgressPhase counting(options.progress, "counting", kProgressSteps, "");
    std::optional<v1::CountResult> result;
    v1::CountResponse message;
    while (stream->Read(&message)) {
      if (message.has_result()) result = message.result();
      counting.AdvanceTo(
          static_cast<uint64_t>(message.progress().fraction_done() * kProgressSteps));
    }
    const grpc::Status status = stream->Finish();
    if (!status.ok()) return CallError(status, context);
    if (!result.has_value()) return MalformedResult("no count");
    counting.Complete();
    return wire::CountResultFromProto(*result);
  }

  absl::StatusOr<uint64_t> Enumerate(Board composition, uint64_t limit, const RunOptions& options,
                                     const std::function<bool(const Columns&)>& sink) override {
    if (absl::Status form = ChooseWireForm(composition); !form.ok()) return form;
    const uint64_t n = composition.n;
    v1::EnumerateRequest request;
    SetBoard(composition, request);
    SetPart(options.part, request);
    request.set_limit(limit);
    CallContext context(options, security_.token);
    auto stream = stub_->Enumerate(context.get(), request);
    uint64_t handed = 0;
    v1::EnumerateResponse message;
    absl::Status malformed;
    bool wanted = true;
    while (wanted && stream->Read(&message)) {
      for (const v1::Board& board : message.boards()) {
        if (static_cast<uint64_t>(board.columns_size()) != n) {
          malformed = MalformedResult(
              absl::StrCat("a board of ", board.columns_size(), " rows for n = ", n));
          wanted = false;
          break;
        }
        ++handed;
        if (!sink(Columns(board.columns().begin(), board.columns().end()))) {
          wanted = false;
          break;
        }
      }
    }
    if (!wanted) context.get()->TryCancel();  // the rest is not needed
    const grpc::Status status = stream->Finish();
    if (!malformed.ok()) return malformed;
    if (!wanted) return handed;
    if (!status.ok()) return CallError(status, context);
    return handed;
  }

 private:
  static constexpr uint64_t kProgressSteps = 1000;

  // Reads a whole result stream, then its final status: the header once the
  // server has solved, then the board.
  template <typename Response, typename Stream>
  absl::StatusOr<CompletionResult> ReceiveResult(Stream& stream, uint64_t n,
                                                 const RunOptions& options,
                                                 const CallContext& context, Columns storage = {}) {
    ResultCollector collector(n, std::move(storage));
    grpc::ByteBuffer message;
    const bool received = WhileSolving(options, [&] { return stream.Read(&message); });
    if (received) {
      collector.Add<Response>(message);
      ProgressPhase downloading(options.progress, "downloading", collector.total(),
                                collector.unit());
      while (stream.Read(&message)) {
        collector.Add<Response>(message);
        downloading.AdvanceTo(collector.received());
      }
    }
    const grpc::Status status = stream.Finish();
    if (!status.ok()) return CallError(status, context);
    return std::move(collector).Finish();
  }

  absl::Status CompleteBatch(const std::function<std::optional<BatchItem>()>& next,
                             const std::function<void(BatchAnswer)>& answer,
                             const RunOptions& options) override {
    CallContext context(options, security_.token);
    auto stream = stub_->CompleteBatch(context.get());
    // Items are made on one thread and sent on another, as fast as the
    // server takes them: what waits goes out together.
    BatchQueue queue(kBatchQueuedItems, kBatchMessageItems, kBatchMessageBytes);
    std::thread maker([&] {
      for (std::optional<BatchItem> item = next();
           item.has_value() && queue.Put(RequestOf(*std::move(item))); item = next()) {
      }
      queue.Close();
    });
    std::thread sender([&] {
      for (v1::CompleteBatchRequest message; queue.Take(&message) && stream->Write(message);) {
      }
      queue.Abandon();
      stream->WritesDone();
    });
    v1::CompleteBatchResponse response;
    uint64_t expected = 0;
    absl::Status disorder;
    while (disorder.ok() && stream->Read(&response)) {
      for (v1::CompleteBatchAnswer& item : *response.mutable_answers()) {
        if (item.index() != expected++) {
          disorder = MalformedResult(absl::StrCat("the answer to item ", item.index(),
                                                  " came where item ", expected - 1, "'s was due"));
          context.get()->TryCancel();
          break;
        }
        if (item.has_response()) {
          const v1::CompleteResponse& completed = item.response();
          absl::StatusOr<CompletionResult> result = ResultFromResponse(completed, completed.n());
          if (result.ok()) TakeCertificate(completed, *result);
          answer(std::move(result));
        } else {
          answer(absl::Status(static_cast<absl::StatusCode>(item.error().code()),
                              item.error().message()));
        }
      }
    }
    queue.Abandon();  // the call is over: a sender waiting for items stops
    sender.join();
    maker.join();
    const grpc::Status status = stream->Finish();
    if (!disorder.ok()) return disorder;
    return status.ok() ? absl::OkStatus() : CallError(status, context);
  }

  // The status of a failed call, with its request id (backend.h): what TLS,
  // the token or the connection did wrong, in one line; a server that cannot
  // be reached is named.
  absl::Status CallError(const grpc::Status& status, const CallContext& context) const {
    absl::Status error = wire::FromGrpcStatus(status);
    if (std::optional<absl::Status> failure = ConnectionFailure(status, security_, address_)) {
      error = *failure;
    } else if (error.code() == absl::StatusCode::kUnavailable) {
      error = absl::UnavailableError(
          absl::StrCat("cannot reach server ", address_, ": ", error.message()));
    } else if (error.code() == absl::StatusCode::kCancelled) {
      // Calls that this client cancels (RunOptions::cancellation) are no
      // longer wanted, so whatever is said here is said of the others: a
      // server cuts a stream it cannot move (an answer that is not read) by
      // cancelling, which carries no reason of its own.
      error = absl::CancelledError(
          absl::StrCat("the server cut the call, as it does with a stream that stalls longer "
                       "than its --stream-idle-timeout (",
                       error.message(), ")"));
    }
    error.SetPayload(kRequestIdPayload, absl::Cord(context.request_id()));
    return error;
  }

  // The streams of boards travel as raw messages (wire/chunk_message.h).
  using RpcMethod = grpc::internal::RpcMethod;
  static constexpr char kSolveStreamMethod[] = "/nqueens.v1.NQueensService/SolveStream";
  static constexpr char kCompleteStreamMethod[] = "/nqueens.v1.NQueensService/CompleteStream";
  static constexpr char kValidateStreamMethod[] = "/nqueens.v1.NQueensService/ValidateStream";

  std::unique_ptr<v1::NQueensService::Stub> stub_;
  const RpcMethod solve_stream_;
  const RpcMethod complete_stream_;
  const RpcMethod validate_stream_;
  std::shared_ptr<grpc::Channel> channel_;
  std::string address_;
  ClientSecurity security_;  // what the channel and each call use
};

}  // namespace

std::unique_ptr<Backend> MakeRemoteBackend(const std::string& address) {
  return MakeRemoteBackend(address, ClientSecurity());
}

std::unique_ptr<Backend> MakeRemoteBackend(const std::string& address,
                                           const ClientSecurity& security) {
  grpc::ChannelArguments arguments;
  AddChannelArguments(security, arguments);
  return std::make_unique<RemoteBackend>(
      MakeChannel(address, ChannelCredentialsFor(security), arguments), address, security);
}

std::unique_ptr<Backend> MakeRemoteBackend(std::shared_ptr<grpc::Channel> channel,
                                           const std::string& address) {
  return MakeRemoteBackend(std::move(channel), address, ClientSecurity());
}

std::unique_ptr<Backend> MakeRemoteBackend(std::shared_ptr<grpc::Channel> channel,
                                           const std::string& address,
                                           const ClientSecurity& security) {
  return std::make_unique<RemoteBackend>(std::move(channel), address, security);
}

}  // namespace nqueens::client
