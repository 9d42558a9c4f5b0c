// The server's request handlers fed arbitrary request bytes: a real server on
// 127.0.0.1 in this process, called over a real channel with raw messages,
// so that the parsing, the checks, the reactors and the work all run as
// they do in production (under ASan and UBSan here).
//
// Input: byte 0 picks the method; for unary ones the rest is the request;
// for streams the rest is a sequence of messages, each a 2-byte
// little-endian length and that many bytes.
//
// Invariants: the status is one the API documents for bad input or for the
// server's limits, never INTERNAL or UNKNOWN; a SOLVED board validates and
// keeps every queen of the request.
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/impl/codegen/sync_stream.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "fuzz_check.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.pb.h"
#include "nqueens/validate.h"
#include "server/server.h"
#include "spdlog/spdlog.h"
#include "wire/convert.h"

namespace {

namespace v1 = nqueens::v1;
using grpc::ByteBuffer;
using grpc::StatusCode;

constexpr uint64_t kMaxN = 4096;

struct Harness {
  Harness() {
    // A log line per call would cost more than the call.
    spdlog::set_level(spdlog::level::off);
    nqueens::server::ServerOptions options;
    options.listen_addresses = {"127.0.0.1:0"};
    options.grace = absl::ZeroDuration();
    options.service.max_n = kMaxN;
    options.service.workers = 2;
    options.service.memory_budget = uint64_t{256} << 20;
    options.service.stream_idle_timeout = absl::Seconds(1);
    options.service.limits.max_call_time = absl::Seconds(1);
    absl::StatusOr<std::unique_ptr<nqueens::server::Server>> started =
        nqueens::server::Server::Start(options);
    if (!started.ok()) {
      std::fprintf(stderr, "cannot start the server: %s\n", started.status().ToString().c_str());
      std::abort();
    }
    server = *std::move(started);
    channel = grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials());
  }

  std::unique_ptr<nqueens::server::Server> server;
  std::shared_ptr<grpc::Channel> channel;
};

ByteBuffer Bytes(const uint8_t* data, size_t size) {
  grpc::Slice slice(data, size);
  return ByteBuffer(&slice, 1);
}

template <typename Message>
bool Parse(ByteBuffer bytes, Message* message) {
  return grpc::SerializationTraits<Message>::Deserialize(&bytes, message).ok();
}

// Statuses the API documents for input it rejects or limits it enforces.
void CheckStatus(const grpc::Status& status) {
  switch (status.error_code()) {
    case StatusCode::OK:
    case StatusCode::INVALID_ARGUMENT:
    case StatusCode::RESOURCE_EXHAUSTED:
    case StatusCode::DEADLINE_EXCEEDED:
    case StatusCode::CANCELLED:
      return;
    default:
      FUZZ_CHECK(false, "status %d: %s", status.error_code(), status.error_message().c_str());
  }
}

// A SOLVED board is a full solution keeping every queen of `composition`.
void CheckSolution(v1::Outcome outcome, const nqueens::Columns& board,
                   const nqueens::Columns& composition) {
  if (outcome != v1::OUTCOME_SOLVED) return;
  FUZZ_CHECK(board.size() == composition.size(), "a SOLVED board of the wrong size");
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
  FUZZ_CHECK(report.ok() && report->complete, "a SOLVED board that is not a solution");
  for (size_t row = 0; row < board.size(); ++row) {
    FUZZ_CHECK(composition[row] == nqueens::kEmptyRow || board[row] == composition[row],
               "a SOLVED board that moved a given queen");
  }
}

void SetDeadline(grpc::ClientContext& context) {
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
}

grpc::Status Unary(Harness& harness, const char* method, const ByteBuffer& request,
                   ByteBuffer* response) {
  grpc::ClientContext context;
  SetDeadline(context);
  const grpc::internal::RpcMethod rpc(method, grpc::internal::RpcMethod::NORMAL_RPC);
  return grpc::internal::BlockingUnaryCall<ByteBuffer, ByteBuffer>(harness.channel.get(), rpc,
                                                                   &context, request, response);
}

void FuzzComplete(Harness& harness, const ByteBuffer& request) {
  ByteBuffer response;
  const grpc::Status status =
      Unary(harness, "/nqueens.v1.NQueensService/Complete", request, &response);
  CheckStatus(status);
  v1::CompleteRequest parsed_request;
  v1::CompleteResponse parsed_response;
  if (!status.ok()) return;
  FUZZ_CHECK(Parse(request, &parsed_request) && Parse(response, &parsed_response),
             "an OK Complete with unparseable messages");
  absl::StatusOr<nqueens::Columns> composition = nqueens::wire::BoardFromRequest(
      parsed_request.n(), parsed_request.columns(), parsed_request.queens());
  FUZZ_CHECK(composition.ok(), "an OK Complete of a board the server should have refused");
  CheckSolution(
      parsed_response.outcome(),
      nqueens::Columns(parsed_response.columns().begin(), parsed_response.columns().end()),
      *composition);
}

void FuzzSolve(Harness& harness, const ByteBuffer& request) {
  ByteBuffer response;
  const grpc::Status status =
      Unary(harness, "/nqueens.v1.NQueensService/Solve", request, &response);
  CheckStatus(status);
  v1::SolveRequest parsed_request;
  v1::SolveResponse parsed_response;
  if (!status.ok()) return;
  FUZZ_CHECK(Parse(request, &parsed_request) && Parse(response, &parsed_response),
             "an OK Solve with unparseable messages");
  CheckSolution(
      parsed_response.outcome(),
      nqueens::Columns(parsed_response.columns().begin(), parsed_response.columns().end()),
      nqueens::Columns(parsed_request.n(), nqueens::kEmptyRow));
}

void FuzzValidate(Harness& harness, const ByteBuffer& request) {
  ByteBuffer response;
  CheckStatus(Unary(harness, "/nqueens.v1.NQueensService/Validate", request, &response));
}

// The messages of a stream: 2-byte little-endian lengths, then the bytes.
std::vector<ByteBuffer> SplitMessages(const uint8_t* data, size_t size) {
  std::vector<ByteBuffer> messages;
  while (size >= 2 && messages.size() < 64) {
    const size_t length = std::min<size_t>(data[0] | (data[1] << 8), size - 2);
    messages.push_back(Bytes(data + 2, length));
    data += 2 + length;
    size -= 2 + length;
  }
  return messages;
}

void FuzzStream(Harness& harness, const char* method, const std::vector<ByteBuffer>& messages) {
  grpc::ClientContext context;
  SetDeadline(context);
  const grpc::internal::RpcMethod rpc(method, grpc::internal::RpcMethod::BIDI_STREAMING);
  std::unique_ptr<grpc::ClientReaderWriter<ByteBuffer, ByteBuffer>> stream(
      grpc::internal::ClientReaderWriterFactory<ByteBuffer, ByteBuffer>::Create(
          harness.channel.get(), rpc, &context));
  for (const ByteBuffer& message : messages) {
    if (!stream->Write(message)) break;
  }
  stream->WritesDone();
  ByteBuffer response;
  for (int i = 0; i < 100'000 && stream->Read(&response); ++i) {
  }
  CheckStatus(stream->Finish());
}

// SolveStream, Count, Enumerate: one request, a stream of responses.
void FuzzServerStream(Harness& harness, const char* method, const ByteBuffer& request) {
  grpc::ClientContext context;
  SetDeadline(context);
  const grpc::internal::RpcMethod rpc(method, grpc::internal::RpcMethod::SERVER_STREAMING);
  std::unique_ptr<grpc::ClientReader<ByteBuffer>> reader(
      grpc::internal::ClientReaderFactory<ByteBuffer>::Create(harness.channel.get(), rpc, &context,
                                                              request));
  ByteBuffer response;
  for (int i = 0; i < 100'000 && reader->Read(&response); ++i) {
  }
  CheckStatus(reader->Finish());
}

Harness* the_harness = nullptr;

// libFuzzer ends the process with exit(): the server shuts down first, so
// that no call ends after the static objects it logs through are gone.
// (Registered after the harness made spdlog's registry, so it runs first.)
void ShutDownHarness() { the_harness->server->Shutdown(); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (the_harness == nullptr) {
    the_harness = new Harness();
    std::atexit(ShutDownHarness);
  }
  Harness* harness = the_harness;
  if (size == 0) return 0;
  const ByteBuffer rest = Bytes(data + 1, size - 1);
  switch (data[0] % 9) {
    case 0:
      FuzzSolve(*harness, rest);
      break;
    case 1:
      FuzzComplete(*harness, rest);
      break;
    case 2:
      FuzzValidate(*harness, rest);
      break;
    case 3:
      FuzzServerStream(*harness, "/nqueens.v1.NQueensService/SolveStream", rest);
      break;
    case 4:
      FuzzStream(*harness, "/nqueens.v1.NQueensService/CompleteStream",
                 SplitMessages(data + 1, size - 1));
      break;
    case 5:
      FuzzStream(*harness, "/nqueens.v1.NQueensService/ValidateStream",
                 SplitMessages(data + 1, size - 1));
      break;
    case 6:
      FuzzServerStream(*harness, "/nqueens.v1.NQueensService/Count", rest);
      break;
    case 7:
      FuzzServerStream(*harness, "/nqueens.v1.NQueensService/Enumerate", rest);
      break;
    case 8:
      FuzzStream(*harness, "/nqueens.v1.NQueensService/CompleteBatch",
                 SplitMessages(data + 1, size - 1));
      break;
  }
  return 0;
}
