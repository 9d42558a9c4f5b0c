// server/http/strict_json.h's CheckRequestJson, the first reader of every
// HTTP request body, on arbitrary bytes.
//
// Input: byte 0 picks the message the body is checked against (modulo 6:
// SolveRequest, CompleteRequest, ValidateRequest, CountRequest,
// EnumerateRequest, and ValidateResponse for enums inside arrays); the rest
// is the body.
//
// Invariants: no crash, no unbounded recursion; a refusal is
// INVALID_ARGUMENT and names no byte past the body's end; a body it takes,
// cut anywhere before its closing brace, is refused (a JSON object ends only
// there).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "fuzz_check.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server/http/strict_json.h"

namespace {

using nqueens::server::http::CheckRequestJson;

const google::protobuf::Descriptor& TypeOf(uint8_t choice) {
  namespace v1 = nqueens::v1;
  const google::protobuf::Descriptor* types[] = {
      v1::SolveRequest::descriptor(),     v1::CompleteRequest::descriptor(),
      v1::ValidateRequest::descriptor(),  v1::CountRequest::descriptor(),
      v1::EnumerateRequest::descriptor(), v1::ValidateResponse::descriptor()};
  return *types[choice % 6];
}

// The byte a refusal names ("... at byte 12 ..."), or 0 when it names none.
// The last mention: a field name or value the message quotes comes before.
size_t NamedByte(absl::string_view message) {
  const size_t at = message.rfind("at byte ");
  if (at == absl::string_view::npos) return 0;
  absl::string_view digits = message.substr(at + 8);
  digits = digits.substr(0, digits.find_first_not_of("0123456789"));
  size_t byte = 0;
  FUZZ_CHECK(absl::SimpleAtoi(digits, &byte), "no number after 'at byte' in %s",
             std::string(message).c_str());
  return byte;
}

// A refusal: INVALID_ARGUMENT, naming no byte past the end of the body.
void CheckRefusal(const absl::Status& status, size_t body_size) {
  FUZZ_CHECK(status.code() == absl::StatusCode::kInvalidArgument, "%s", status.ToString().c_str());
  FUZZ_CHECK(NamedByte(status.message()) <= body_size, "%s", status.ToString().c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const google::protobuf::Descriptor& type = TypeOf(data[0]);
  const absl::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  const absl::Status status = CheckRequestJson(body, type);
  if (!status.ok()) {
    CheckRefusal(status, body.size());
    return 0;
  }
  const size_t close = body.find_last_of('}');
  FUZZ_CHECK(close != absl::string_view::npos, "a body without '}' was taken");
  for (const absl::string_view cut : {body.substr(0, close), body.substr(0, close / 2)}) {
    const absl::Status refused = CheckRequestJson(cut, type);
    FUZZ_CHECK(!refused.ok(), "a cut body was taken: %s", std::string(cut).c_str());
    CheckRefusal(refused, cut.size());
  }
  return 0;
}
