// The server's log on stderr, as text or as one JSON object per line
// (--log-format), and the line each call gets when it ends. gRPC's own
// messages go there too, in the same format.
#ifndef NQUEENS_SERVER_OBSERVABILITY_LOGGING_H_
#define NQUEENS_SERVER_OBSERVABILITY_LOGGING_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "server/observability/call_record.h"
#include "spdlog/common.h"

namespace nqueens::server {

enum class LogFormat { kText, kJson };

// "text" or "json"; nullopt for anything else.
std::optional<LogFormat> ParseLogFormat(absl::string_view name);

// Sends spdlog's default logger, the calls' lines and gRPC's messages to
// stderr in `format`, from `level` on. Call once, before serving; until
// then calls are logged as text through spdlog's default logger.
//
// JSON lines carry "time" (UTC, ISO 8601), "level" and "message"; a call's
// line has, instead of "message", its fields: "method", "peer",
// "request_id", "n", "k", "outcome" (null when the work did not conclude),
// "code", "message" (the status message, empty when OK) and "seconds".
void LogToStderr(LogFormat format, spdlog::level::level_enum level);

// Sends gRPC's messages to spdlog's default logger, as "grpc: MESSAGE
// (FILE:LINE)" at their level; a client's failed TLS handshake as one warn
// line without gRPC's source path (security/tls.h). LogToStderr does this too.
void RouteGrpcLog();

// The call's line, at info.
void LogCall(const CallRecord& call);

// `text` as a JSON string, quotes included. Bytes outside printable ASCII
// are escaped one by one (\u00XX), so that a line parses whatever it holds.
std::string JsonString(absl::string_view text);

}  // namespace nqueens::server

#endif  // NQUEENS_SERVER_OBSERVABILITY_LOGGING_H_
