// --json: a command's answer as one JSON object, in the proto's JSON mapping
// (the fields of CompleteResponse, ValidateResponse, CountResult and Board,
// lowerCamelCase), so that scripts never parse text. Errors are an object of
// their own: {"error": {"code": "INVALID_ARGUMENT", "message": "..."}}.
// The answer of one part of a search cut into parts (--part-index I
// --parts K) carries "part_index": I and "part_count": K besides.
#ifndef NQUEENS_CLIENT_OUTPUT_JSON_OUTPUT_H_
#define NQUEENS_CLIENT_OUTPUT_JSON_OUTPUT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "nqueens/count.h"
#include "nqueens/parts.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens::client {

// Solve and complete: outcome, n, stats (seed, method, ...), the columns when
// SOLVED, and why an UNSOLVABLE answer has no certificate.
std::string CompletionJson(const CompletionResult& result, uint64_t n,
                           const PartSelector& part = {});
// complete --batch: an item's answer, CompletionJson's fields with the
// certificate when the item asked for one (as a server's CompleteResponse
// carries it; complete writes it to a file of its own).
std::string BatchAnswerJson(const CompletionResult& result, uint64_t n);
std::string ValidationJson(const ValidationReport& report);
std::string CountJson(const CountResult& result, uint64_t n, const PartSelector& part = {});
// `text` as a JSON string, quoted and escaped.
std::string JsonString(absl::string_view text);
// health's answer: {"status": "SERVING"}.
std::string HealthJson(absl::string_view status);
// One enumerated board: {"columns": [...]}.
std::string BoardJson(absl::Span<const uint32_t> columns, const PartSelector& part = {});
// `code`'s name and `message`, with the request id when there is one, in
// that order: {"error": {"code": ..., "message": ..., "requestId": ...}}.
std::string ErrorJson(absl::StatusCode code, absl::string_view message,
                      absl::string_view request_id);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_OUTPUT_JSON_OUTPUT_H_
