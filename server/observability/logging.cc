#include "server/observability/logging.h"

#include <grpc/support/log.h>
#include <unistd.h>

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "server/observability/batched_stderr_sink.h"
#include "server/security/tls.h"
#include "spdlog/pattern_formatter.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

constexpr char kLoggerName[] = "nqueens-server";
// How every JSON line starts (a spdlog pattern: %l is the level's name).
constexpr char kJsonLineStart[] = R"({"time":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",)";

// Where LogCall writes, as LogToStderr set it. Once set, it holds its
// logger, so that a call that ends during exit, after spdlog's registry was
// destroyed, still logs to a live one.
struct CallLog {
  LogFormat format = LogFormat::kText;
  std::shared_ptr<spdlog::logger> logger;  // null: spdlog's default logger
};

CallLog& TheCallLog() {
  static CallLog* const log = new CallLog();  // never destroyed: calls may end during exit
  return *log;
}

// The pattern flag %j: the message as a JSON string.
class JsonMessageFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm& /*time*/,
              spdlog::memory_buf_t& out) override {
    const std::string json =
        JsonString(absl::string_view(message.payload.data(), message.payload.size()));
    out.append(json.data(), json.data() + json.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonMessageFlag>();
  }
};

// A stderr sink of JSON lines; `rest` closes the object kJsonLineStart opens.
// All batched sinks share one batch, so lines from different sinks never mix.
std::shared_ptr<spdlog::sinks::sink> JsonStderrSink(const std::string& rest) {
  auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  formatter->add_flag<JsonMessageFlag>('j').set_pattern(kJsonLineStart + rest);
  auto sink = std::make_shared<BatchedStderrSink>();
  sink->set_formatter(std::move(formatter));
  return sink;
}

// Text lines: colored, one at a time, for a terminal; batched for a file or
// a pipe, where the calls' lines of a busy server go.
std::shared_ptr<spdlog::sinks::sink> TextStderrSink() {
  if (isatty(STDERR_FILENO)) return std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  return std::make_shared<BatchedStderrSink>();
}

void LogGrpcMessage(gpr_log_func_args* message) {
  // A client's doing, and nothing in gRPC's source to look at.
  if (const std::optional<std::string> handshake = ClientHandshakeFailure(message->message)) {
    spdlog::warn("{}", *handshake);
    return;
  }
  const spdlog::level::level_enum level =
      message->severity == GPR_LOG_SEVERITY_ERROR  ? spdlog::level::err
      : message->severity == GPR_LOG_SEVERITY_INFO ? spdlog::level::info
                                                   : spdlog::level::debug;
  spdlog::log(level, "grpc: {} ({}:{})", message->message, message->file, message->line);
}

// The members of the call's JSON object after "time" and "level".
std::string JsonMembers(const CallRecord& call) {
  return absl::StrFormat(
      R"("method":%s,"peer":%s,"transport":%s,"request_id":%s,"n":%d,"k":%d,"outcome":%s,)"
      R"("code":%s,"message":%s,"seconds":%.6f)",
      JsonString(call.method), JsonString(call.peer), JsonString(call.transport),
      JsonString(call.request_id), call.n, call.queens_given,
      call.outcome == CallOutcome::kNone ? "null" : JsonString(CallOutcomeName(call.outcome)),
      JsonString(absl::StatusCodeToString(call.status.code())), JsonString(call.status.message()),
      absl::ToDoubleSeconds(call.duration));
}

}  // namespace

std::optional<LogFormat> ParseLogFormat(absl::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return std::nullopt;
}

void LogToStderr(LogFormat format, spdlog::level::level_enum level) {
  CallLog& call_log = TheCallLog();
  call_log.format = format;
  if (format == LogFormat::kText) {
    call_log.logger = std::make_shared<spdlog::logger>(kLoggerName, TextStderrSink());
    spdlog::set_default_logger(call_log.logger);
  } else {
    spdlog::set_default_logger(
        std::make_shared<spdlog::logger>(kLoggerName, JsonStderrSink(R"("message":%j})")));
    // A call's line is its fields, which LogCall writes as JSON members.
    call_log.logger = std::make_shared<spdlog::logger>(kLoggerName, JsonStderrSink("%v}"));
    call_log.logger->set_level(level);
  }
  spdlog::set_level(level);
  RouteGrpcLog();
}

void RouteGrpcLog() { gpr_set_log_function(&LogGrpcMessage); }

void LogCall(const CallRecord& call) {
  const CallLog& call_log = TheCallLog();
  spdlog::logger& logger =
      call_log.logger != nullptr ? *call_log.logger : *spdlog::default_logger_raw();
  if (!logger.should_log(spdlog::level::info)) return;
  if (call_log.format == LogFormat::kJson) return logger.info("{}", JsonMembers(call));
  // Formatted straight into spdlog's buffer, without a string of its own.
  const absl::string_view message = call.status.message();
  logger.info("{} request_id={} peer={} transport={} n={} k={} outcome={} status={}{}{}{} {:.3f}s",
              call.method, call.request_id, call.peer, call.transport, call.n, call.queens_given,
              CallOutcomeName(call.outcome), absl::StatusCodeToString(call.status.code()),
              call.status.ok() ? "" : " (", fmt::string_view(message.data(), message.size()),
              call.status.ok() ? "" : ")", absl::ToDoubleSeconds(call.duration));
}

std::string JsonString(absl::string_view text) {
  std::string json = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      json += '\\';
      json += c;
    } else if (c >= ' ' && c <= '~') {
      json += c;
    } else {
      absl::StrAppend(&json, "\\u00", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
    }
  }
  json += '"';
  return json;
}

}  // namespace nqueens::server
