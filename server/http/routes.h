// The JSON routes: which gRPC method each path calls, the messages it takes
// and returns, and their conversion to and from the proto3 JSON mapping
// (protobuf's own parser and printer: field names in lowerCamelCase on
// output, either spelling on input; 64-bit integers as strings; enums by
// name; bytes in base64).
#ifndef NQUEENS_SERVER_HTTP_ROUTES_H_
#define NQUEENS_SERVER_HTTP_ROUTES_H_

#include <google/protobuf/message.h>
#include <grpcpp/support/byte_buffer.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::server::http {

// What a route's answer is made of.
enum class AnswerShape {
  kOne,     // the call's one response (Solve, Complete, Validate)
  kResult,  // the result of the stream's last message (Count's CountResult);
            // as JSON lines, every message
  kBoards,  // the boards of every message (Enumerate); as JSON lines, one a line
  // every message, one a line, always as JSON lines (CompleteStream: its
  // header, then the board or the certificate in chunks)
  kMessages,
};

struct Route {
  const char* path;                           // "/v1/solve"
  std::string grpc_method;                    // "/nqueens.v1.NQueensService/Solve"
  const google::protobuf::Message& request;   // the request's type
  const google::protobuf::Message& response;  // the type of each message of the answer
  AnswerShape shape;
};

// The routes of routes.inc, in its order.
const std::vector<Route>& Routes();

// The route of `path`, or null.
const Route* FindRoute(absl::string_view path);

// The most one JSON document of Enumerate's boards may take; beyond it the
// client is told to set a limit or ask for JSON lines.
inline constexpr uint64_t kMaxBoardsDocumentBytes = uint64_t{8} << 20;

struct ParsedRequest {
  grpc::ByteBuffer bytes;  // serialized for the call
  // The most its answer may take in the gateway: the messages as they come,
  // parsed, and their JSON (for Enumerate, as one document; for kMessages,
  // one message at a time).
  uint64_t answer_bytes = 0;
};

// `json` as the route's request. INVALID_ARGUMENT for JSON that is not
// strict, an unknown field or enum name (strict_json.h, which names the byte
// and the field), or a value of the wrong type (protobuf's message, which
// names the field: "request body: (n): invalid value \"abc\" for type
// TYPE_UINT64").
absl::StatusOr<ParsedRequest> RequestFromJson(const Route& route, absl::string_view json);

// The media type of JSON lines (NDJSON), as Accept asks for it.
inline constexpr char kJsonLines[] = "application/x-ndjson";

// Whether the answer goes as JSON lines: always for kMessages; for kResult
// and kBoards when the request's Accept header asks for them.
bool AnswersInLines(const Route& route, absl::string_view accept);

// One message of the answer as JSON (for kResult, its result alone).
// INTERNAL if the bytes do not parse, which only a bug would cause.
absl::StatusOr<std::string> AnswerToJson(const Route& route, const grpc::ByteBuffer& message);

// One message of an answer sent as JSON lines (Accept: application/x-ndjson):
// for kBoards, its boards, one a line ({"columns":[...]}\n); for kResult and
// kMessages, the message whole on one line ({"progress":{...}}\n, then
// {"result":{...}}\n).
absl::StatusOr<std::string> AnswerLines(const Route& route, const grpc::ByteBuffer& message);

// The boards of one Enumerate answer, as AnswerLines gives them.
absl::StatusOr<std::string> BoardLines(const grpc::ByteBuffer& message);

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_ROUTES_H_
