// The check a request body passes before protobuf's JSON parser reads it.
// That parser takes more than RFC 8259 allows (a trailing comma: {"n": 8,}),
// and its messages name neither the byte nor the valid enum names; this
// check refuses what is not strict JSON, or names a field the message does
// not have, or an enum value its enum does not have, and says where.
#ifndef NQUEENS_SERVER_HTTP_STRICT_JSON_H_
#define NQUEENS_SERVER_HTTP_STRICT_JSON_H_

#include <google/protobuf/descriptor.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace nqueens::server::http {

// Objects nested deeper than this are refused (the messages nest 3 deep;
// protobuf's own parser stops at 100).
inline constexpr int kMaxJsonDepth = 64;

// OK when `json` is one JSON object (RFC 8259: no trailing commas, comments,
// single quotes, leading zeros, bare NaN, invalid UTF-8 or repeated names),
// whose fields `type` has, by their .proto or JSON names, and whose enum
// strings name a value of their enum. Otherwise INVALID_ARGUMENT saying what
// is wrong, at which byte (counted from 0) and in which field, as the .proto
// spells it ("limits.max_backtracks", "queens[3].row"). What is wrong only
// with a value's type ("n": "abc") is left to protobuf's parser, as are names
// written with escapes.
absl::Status CheckRequestJson(absl::string_view json, const google::protobuf::Descriptor& type);

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_STRICT_JSON_H_
