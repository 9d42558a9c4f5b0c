#include "client/output/json_output.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "absl/strings/str_cat.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/convert.h"

namespace nqueens::client {
namespace {

// One line; fields at their default values (false, 0) are printed too, so
// that a script finds every field of the message.
std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  std::string json;
  // Printing a well-formed message cannot fail.
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return absl::StrCat(json, "\n");
}

// `json` (one object and a newline) with the part's fields when it is one.
std::string WithPart(std::string json, const PartSelector& part) {
  if (part.whole()) return json;
  json.resize(json.rfind('}'));
  absl::StrAppend(&json, ",\"part_index\":", part.index, ",\"part_count\":", part.count, "}\n");
  return json;
}

// The answer to complete (or solve) as a server writes it, without the
// certificate.
v1::CompleteResponse CompletionResponse(const CompletionResult& result, uint64_t n) {
  v1::CompleteResponse response;
  response.set_outcome(wire::OutcomeToProto(result.outcome));
  response.set_n(n);
  *response.mutable_stats() = wire::StatsToProto(result.stats);
  response.mutable_columns()->Assign(result.columns.begin(), result.columns.end());
  response.set_certificate_missing(result.certificate_missing);
  return response;
}

}  // namespace

std::string CompletionJson(const CompletionResult& result, uint64_t n, const PartSelector& part) {
  return WithPart(ToJson(CompletionResponse(result, n)), part);
}

std::string BatchAnswerJson(const CompletionResult& result, uint64_t n) {
  v1::CompleteResponse response = CompletionResponse(result, n);
  if (result.certificate.has_value()) response.set_certificate(*result.certificate);
  return ToJson(response);
}

std::string ValidationJson(const ValidationReport& report) {
  v1::ValidateResponse response;
  wire::ReportToProto(report, &response);
  return ToJson(response);
}

std::string CountJson(const CountResult& result, uint64_t n, const PartSelector& part) {
  return WithPart(ToJson(wire::CountResultToProto(n, result)), part);
}

std::string BoardJson(absl::Span<const uint32_t> columns, const PartSelector& part) {
  v1::Board board;
  board.mutable_columns()->Assign(columns.begin(), columns.end());
  return WithPart(ToJson(board), part);
}

std::string HealthJson(absl::string_view status) {
  google::protobuf::Struct object;
  (*object.mutable_fields())["status"].set_string_value(std::string(status));
  return ToJson(object);
}

std::string JsonString(absl::string_view text) {
  google::protobuf::Value value;
  value.set_string_value(std::string(text));
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(value, &json);
  return json;
}

// Written out, not a Struct: protobuf prints a Struct's fields in the order
// of its hash map, which changes from run to run.
std::string ErrorJson(absl::StatusCode code, absl::string_view message,
                      absl::string_view request_id) {
  std::string fields = absl::StrCat("\"code\":", JsonString(absl::StatusCodeToString(code)),
                                    ",\"message\":", JsonString(message));
  if (!request_id.empty()) absl::StrAppend(&fields, ",\"requestId\":", JsonString(request_id));
  return absl::StrCat("{\"error\":{", fields, "}}\n");
}

}  // namespace nqueens::client
