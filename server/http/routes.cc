#include "server/http/routes.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/http/strict_json.h"
#include "wire/limits.h"

namespace nqueens::server::http {
namespace {

// Fields at their defaults are printed too: a client reads "valid": false
// rather than a missing field.
google::protobuf::util::JsonPrintOptions PrintOptions() {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  return options;
}

absl::StatusOr<std::string> ToJson(const google::protobuf::Message& message) {
  std::string json;
  const auto printed = google::protobuf::util::MessageToJsonString(message, &json, PrintOptions());
  if (!printed.ok()) {
    return absl::InternalError(
        absl::StrCat("cannot print the answer as JSON: ", printed.message().ToString()));
  }
  return json;
}

absl::Status Parse(const grpc::ByteBuffer& bytes, google::protobuf::Message& message) {
  std::vector<grpc::Slice> slices;
  std::string serialized;
  if (bytes.Dump(&slices).ok()) {
    for (const grpc::Slice& slice : slices) {
      serialized.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  if (!message.ParseFromString(serialized)) {
    return absl::InternalError(
        absl::StrCat("the service sent a ", message.GetTypeName(), " that does not parse"));
  }
  return absl::OkStatus();
}

// A row of a board in an answer takes at most 5 bytes in the message, 4
// once parsed and 11 in JSON.
constexpr uint64_t kAnswerBytesPerRow = 20;
constexpr uint64_t kSmallAnswerBytes = uint64_t{64} << 10;
// The service sends the in-process channel no message above gRPC's default
// that a client takes (wire/limits.h); a certificate is one bytes field,
// held as a message, parsed, and in base64.
constexpr uint64_t kMaxMessageRows = wire::kDefaultClientReceiveBytes;
constexpr uint64_t kCertificateAnswerBytes = 4 * wire::kDefaultClientReceiveBytes;

uint64_t AnswerBytes(const Route& route, const google::protobuf::Message& request) {
  switch (route.shape) {
    case AnswerShape::kResult:
      return kSmallAnswerBytes;
    case AnswerShape::kBoards:
      return kSmallAnswerBytes + 2 * kMaxBoardsDocumentBytes;  // the lines, then the document
    case AnswerShape::kMessages:
      // One chunk at a time: of the board, or of a certificate, whose 3
      // bytes a column take 4 in base64.
      return kSmallAnswerBytes + kAnswerBytesPerRow * wire::kMaxChunkSize;
    case AnswerShape::kOne:
      break;
  }
  const google::protobuf::Descriptor& type = *request.GetDescriptor();
  const google::protobuf::Reflection& fields = *request.GetReflection();
  const uint64_t n = fields.GetUInt64(request, type.FindFieldByName("n"));
  const google::protobuf::FieldDescriptor* certificate = type.FindFieldByName("want_certificate");
  const bool wants_certificate = certificate != nullptr && fields.GetBool(request, certificate);
  return kSmallAnswerBytes + kAnswerBytesPerRow * std::min(n, kMaxMessageRows) +
         (wants_certificate ? kCertificateAnswerBytes : 0);
}

// A route of routes.inc, with the messages of its RPC.
Route MakeRoute(const char* path, const char* rpc, AnswerShape shape) {
  const google::protobuf::ServiceDescriptor& service =
      *google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(
          v1::NQueensService::service_full_name());
  const google::protobuf::MethodDescriptor& method = *service.FindMethodByName(rpc);
  google::protobuf::MessageFactory& messages =
      *google::protobuf::MessageFactory::generated_factory();
  return Route{path, absl::StrCat("/", service.full_name(), "/", method.name()),
               *messages.GetPrototype(method.input_type()),
               *messages.GetPrototype(method.output_type()), shape};
}

}  // namespace

const std::vector<Route>& Routes() {
  static const std::vector<Route>* routes = new std::vector<Route>{
#define ROUTE(path, rpc, shape) MakeRoute(path, #rpc, AnswerShape::shape),
#include "server/http/routes.inc"
#undef ROUTE
  };
  return *routes;
}

const Route* FindRoute(absl::string_view path) {
  for (const Route& route : Routes()) {
    if (path == route.path) return &route;
  }
  return nullptr;
}

absl::StatusOr<ParsedRequest> RequestFromJson(const Route& route, absl::string_view json) {
  if (absl::Status strict = CheckRequestJson(json, *route.request.GetDescriptor()); !strict.ok()) {
    return strict;
  }
  std::unique_ptr<google::protobuf::Message> request(route.request.New());
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(json.data(), json.size()), request.get());
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "request body: ", parsed.message().empty() ? "not JSON" : parsed.message().ToString(),
        " (the body is a ", route.request.GetTypeName(), " in the proto3 JSON mapping)"));
  }
  const std::string serialized = request->SerializeAsString();
  grpc::Slice slice(serialized);
  return ParsedRequest{grpc::ByteBuffer(&slice, 1), AnswerBytes(route, *request)};
}

bool AnswersInLines(const Route& route, absl::string_view accept) {
  switch (route.shape) {
    case AnswerShape::kOne:
      return false;
    case AnswerShape::kMessages:
      return true;
    case AnswerShape::kResult:
    case AnswerShape::kBoards:
      break;
  }
  return absl::StrContains(accept, kJsonLines);
}

absl::StatusOr<std::string> AnswerToJson(const Route& route, const grpc::ByteBuffer& message) {
  std::unique_ptr<google::protobuf::Message> answer(route.response.New());
  if (absl::Status parsed = Parse(message, *answer); !parsed.ok()) return parsed;
  if (route.shape == AnswerShape::kResult) {
    return ToJson(static_cast<const v1::CountResponse&>(*answer).result());
  }
  return ToJson(*answer);
}

absl::StatusOr<std::string> AnswerLines(const Route& route, const grpc::ByteBuffer& message) {
  if (route.shape == AnswerShape::kBoards) return BoardLines(message);
  std::unique_ptr<google::protobuf::Message> answer(route.response.New());
  if (absl::Status parsed = Parse(message, *answer); !parsed.ok()) return parsed;
  absl::StatusOr<std::string> json = ToJson(*answer);
  if (json.ok()) json->push_back('\n');
  return json;
}

absl::StatusOr<std::string> BoardLines(const grpc::ByteBuffer& message) {
  v1::EnumerateResponse answer;
  if (absl::Status parsed = Parse(message, answer); !parsed.ok()) return parsed;
  std::string lines;
  for (const v1::Board& board : answer.boards()) {
    absl::StatusOr<std::string> json = ToJson(board);
    if (!json.ok()) return json.status();
    absl::StrAppend(&lines, *json, "\n");
  }
  return lines;
}

}  // namespace nqueens::server::http
