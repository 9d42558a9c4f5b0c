// nqueens-server: parses flags, starts the server, prints "listening on
// HOST:PORT" on stdout, and on SIGINT/SIGTERM shuts down gracefully and exits 0.
// Logs go to stderr, so stdout carries that one line only.
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "command_line/command_line.h"
#include "command_line/completion.h"
#include "server/base/byte_size.h"
#include "server/descriptor_limit.h"
#include "server/limits/memory_budget.h"
#include "server/observability/logging.h"
#include "server/server.h"
#include "spdlog/spdlog.h"

namespace {

// --http-max-request-bytes: a byte count ("4M", "64K").
struct ByteCountFlag {
  uint64_t bytes = 0;
};

bool AbslParseFlag(absl::string_view text, ByteCountFlag* flag, std::string* error) {
  const std::optional<uint64_t> bytes = nqueens::server::ParseByteSize(text);
  if (!bytes.has_value() || *bytes == 0) {
    *error = "expected a positive byte count such as 4M, 64K or 1048576";
    return false;
  }
  flag->bytes = *bytes;
  return true;
}

std::string AbslUnparseFlag(const ByteCountFlag& flag) {
  return nqueens::server::ByteSizeFlagText(flag.bytes);
}

// --memory-budget: a byte count ("4G", "512M") or "auto".
struct MemoryBudgetFlag {
  uint64_t bytes = 0;  // 0: auto
};

bool AbslParseFlag(absl::string_view text, MemoryBudgetFlag* flag, std::string* error) {
  ByteCountFlag count;
  if (text != "auto" && !AbslParseFlag(text, &count, error)) {
    *error = "expected \"auto\" or a positive byte count such as 4G, 1.5G, 512M or 1048576";
    return false;
  }
  flag->bytes = count.bytes;
  return true;
}

std::string AbslUnparseFlag(const MemoryBudgetFlag& flag) {
  return flag.bytes == 0 ? "auto" : nqueens::server::ByteSizeFlagText(flag.bytes);
}

// The flags' defaults are the option structs' (server.h, rpc/service_options.h),
// so that each default is written once.
const nqueens::server::ServerOptions kDefaults;
const nqueens::server::ServiceOptions& kService = kDefaults.service;
const nqueens::server::CallLimits& kLimits = kDefaults.service.limits;
const nqueens::server::ConnectionLimits& kConnections = kDefaults.connections;

}  // namespace

ABSL_FLAG(std::vector<std::string>, listen, kDefaults.listen_addresses,
          "HOST:PORT to listen on; port 0 picks a free one; give it again (or a comma-separated "
          "list) for more addresses, e.g. 0.0.0.0:50051 and [::]:50051");
ABSL_FLAG(std::vector<std::string>, health_listen, kDefaults.health_listen_addresses,
          "HOST:PORT (or a comma-separated list) of plaintext ports that serve health checks "
          "only, for probes that speak no TLS (Kubernetes' gRPC probes); needs --tls-cert");
ABSL_FLAG(uint64_t, max_n, kService.max_n,
          "largest board accepted; larger n gets RESOURCE_EXHAUSTED");
ABSL_FLAG(int, workers, kService.workers,
          "threads running calls; 0: the CPUs this process may use (affinity mask and cgroup "
          "cpu.max)");
ABSL_FLAG(int, max_queued, kService.max_queued,
          "calls that may wait for a worker; more get RESOURCE_EXHAUSTED");
ABSL_FLAG(
    uint64_t, max_backtracks, kLimits.max_backtracks,
    "most backtracks a call may ask for (Limits.max_backtracks); larger requests are lowered");
ABSL_FLAG(uint32_t, max_restarts, kLimits.max_restarts,
          "most restarts a call may ask for (Limits.max_restarts); larger requests are lowered");
ABSL_FLAG(uint64_t, max_exact_nodes,
          kLimits.max_exact_nodes == UINT64_MAX ? 0 : kLimits.max_exact_nodes,
          "most exact-search nodes a call may ask for (Limits.max_exact_nodes); larger requests "
          "are lowered; 0: no maximum (the exact search is bounded by time)");
ABSL_FLAG(double, max_exact_seconds, kLimits.max_exact_seconds,
          "most seconds the exact search may run in a call (Limits.max_exact_seconds); larger "
          "requests are lowered. A call that asks nothing gets 60 s, or its deadline if it has "
          "one, at most this");
ABSL_FLAG(uint32_t, max_exact_free_rows, kLimits.max_exact_free_rows,
          "most free rows a composition may have for the exact search to run on it (at most "
          "65536); above 1024 the search reserves d^2 / 4 bytes of the memory budget for d free "
          "rows when it starts, and the call gets RESOURCE_EXHAUSTED if they are not free");
ABSL_FLAG(double, max_call_seconds, absl::ToDoubleSeconds(kLimits.max_call_time),
          "longest a call may take from its arrival, queueing included; then RESOURCE_EXHAUSTED");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error, critical or off");
ABSL_FLAG(std::string, log_format, "text",
          "text, or json: one JSON object per line (time, level, message; a call's line has its "
          "method, peer, request_id, n, k, outcome, code, message and seconds)");
ABSL_FLAG(
    std::string, metrics_listen, kDefaults.metrics_listen,
    "HOST:PORT to serve Prometheus metrics on, at /metrics (HOST an IPv4 address; port 0 picks "
    "a free one); empty: no metrics endpoint");
ABSL_FLAG(std::string, http_listen, kDefaults.http_listen,
          "HOST:PORT to serve JSON over HTTP on (POST /v1/solve and the other routes GET "
          "/openapi.json lists) and the playground page at /; port 0 picks a free one; it "
          "takes the same TLS files and tokens as gRPC; empty: off");
ABSL_FLAG(ByteCountFlag, http_max_request_bytes, ByteCountFlag{kDefaults.http_max_request_bytes},
          "largest HTTP request body, e.g. 4M (K, M, G: powers of 1024); larger get 413");
ABSL_FLAG(std::string, http_cors_origin, kDefaults.http_cors_origin,
          "ORIGIN (https://app.example.com) whose pages may call the HTTP routes from a browser "
          "(CORS): its preflights get yes, its answers Access-Control-Allow-Origin; other "
          "origins get no CORS headers; empty: none");
ABSL_FLAG(absl::Duration, grace, kDefaults.grace,
          "on SIGINT/SIGTERM, how long in-flight calls may finish before they are cancelled");
ABSL_FLAG(MemoryBudgetFlag, memory_budget, MemoryBudgetFlag{kService.memory_budget},
          "memory all calls share, e.g. 4G or 512M (K, M, G, T: powers of 1024); a call that "
          "does not fit gets RESOURCE_EXHAUSTED; auto: 75% of physical memory or of the cgroup "
          "limit");
ABSL_FLAG(absl::Duration, stream_idle_timeout, kService.stream_idle_timeout,
          "a stream on which no message moves for this long is cancelled and its memory freed; "
          "inf: never");
ABSL_FLAG(std::string, tls_cert, kDefaults.tls.cert_file,
          "PEM certificate chain to serve TLS with (needs --tls-key), on the gRPC ports and the "
          "HTTP port of --http-listen; read again every --tls-refresh-interval");
ABSL_FLAG(std::string, tls_key, kDefaults.tls.key_file, "PEM private key of --tls-cert");
ABSL_FLAG(std::string, tls_client_ca, kDefaults.tls.client_ca_file,
          "PEM CA certificates: clients must present a certificate they signed (mutual TLS)");
ABSL_FLAG(absl::Duration, tls_refresh_interval, kDefaults.tls.refresh_interval,
          "how often --tls-cert, --tls-key and --tls-client-ca are read again, for new "
          "connections (1s to 24h)");
ABSL_FLAG(std::string, auth_token_file, kDefaults.auth_token_file,
          "file of bearer tokens, one per line, re-read when it changes: every call but health "
          "checks needs `authorization: Bearer <token>` with one of them, else UNAUTHENTICATED");
ABSL_FLAG(int, max_calls_per_client, kService.max_calls_per_client,
          "calls one client (its token, or without tokens its address) may have in flight; more "
          "get RESOURCE_EXHAUSTED; 0: no limit");
ABSL_FLAG(int, max_concurrent_streams, kConnections.max_concurrent_streams,
          "calls at once on one connection; a client's further calls wait");
ABSL_FLAG(absl::Duration, min_ping_interval, kConnections.min_ping_interval,
          "a client pinging more often than this without data gets a strike");
ABSL_FLAG(int, max_ping_strikes, kConnections.max_ping_strikes,
          "strikes before the connection is closed; 0: no limit");
ABSL_FLAG(absl::Duration, max_connection_idle, kConnections.max_idle,
          "a connection without calls for this long is closed; inf: never");
ABSL_FLAG(absl::Duration, max_connection_age, kConnections.max_age,
          "connections are told to go after this long (with 10% jitter), so that clients "
          "resolve the server's name again; inf: never");
ABSL_FLAG(absl::Duration, max_connection_age_grace, kConnections.max_age_grace,
          "how long the calls of a connection told to go may still run; inf: no limit");
ABSL_FLAG(bool, help, false, "print this help and exit (also -h)");
ABSL_FLAG(bool, version, false, "print the version and exit");
ABSL_FLAG(std::string, completion, "",
          "bash or zsh: print that shell's completion script for nqueens-server (flags and "
          "their values) and exit; installed packages carry both");

namespace {

// Abseil flag names are identifiers (max_n); accept the dashed spelling the
// spdlog maps unknown names to "off"; refuse them instead.
absl::StatusOr<spdlog::level::level_enum> LogLevelFromFlag() {
  const std::string name = absl::GetFlag(FLAGS_log_level);
  const spdlog::level::level_enum level = spdlog::level::from_str(name);
  if (level == spdlog::level::off && name != "off") {
    return absl::InvalidArgumentError(absl::StrCat(
        "invalid value \"", name,
        "\" for --log-level: expected trace, debug, info, warn, error, critical or off"));
  }
  return level;
}

absl::StatusOr<nqueens::server::LogFormat> LogFormatFromFlag() {
  const std::string name = absl::GetFlag(FLAGS_log_format);
  const std::optional<nqueens::server::LogFormat> format = nqueens::server::ParseLogFormat(name);
  if (!format.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid value \"", name, "\" for --log-format: expected text or json"));
  }
  return *format;
}

absl::StatusOr<nqueens::server::ServerOptions> ServerOptionsFromFlags() {
  nqueens::server::ServerOptions options;
  options.listen_addresses = absl::GetFlag(FLAGS_listen);
  options.health_listen_addresses = absl::GetFlag(FLAGS_health_listen);
  options.grace = absl::GetFlag(FLAGS_grace);
  options.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  options.http_listen = absl::GetFlag(FLAGS_http_listen);
  options.http_max_request_bytes = absl::GetFlag(FLAGS_http_max_request_bytes).bytes;
  options.http_cors_origin = absl::GetFlag(FLAGS_http_cors_origin);
  nqueens::server::ServiceOptions& service = options.service;
  service.max_n = absl::GetFlag(FLAGS_max_n);
  service.workers = absl::GetFlag(FLAGS_workers);
  service.max_queued = absl::GetFlag(FLAGS_max_queued);
  service.memory_budget = absl::GetFlag(FLAGS_memory_budget).bytes;
  service.stream_idle_timeout = absl::GetFlag(FLAGS_stream_idle_timeout);
  service.max_calls_per_client = absl::GetFlag(FLAGS_max_calls_per_client);
  options.tls.cert_file = absl::GetFlag(FLAGS_tls_cert);
  options.tls.key_file = absl::GetFlag(FLAGS_tls_key);
  options.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca);
  options.tls.refresh_interval = absl::GetFlag(FLAGS_tls_refresh_interval);
  options.auth_token_file = absl::GetFlag(FLAGS_auth_token_file);
  nqueens::server::ConnectionLimits& connections = options.connections;
  connections.max_concurrent_streams = absl::GetFlag(FLAGS_max_concurrent_streams);
  connections.min_ping_interval = absl::GetFlag(FLAGS_min_ping_interval);
  connections.max_ping_strikes = absl::GetFlag(FLAGS_max_ping_strikes);
  connections.max_idle = absl::GetFlag(FLAGS_max_connection_idle);
  connections.max_age = absl::GetFlag(FLAGS_max_connection_age);
  connections.max_age_grace = absl::GetFlag(FLAGS_max_connection_age_grace);
  service.limits.max_backtracks = absl::GetFlag(FLAGS_max_backtracks);
  service.limits.max_restarts = absl::GetFlag(FLAGS_max_restarts);
  const uint64_t max_exact_nodes = absl::GetFlag(FLAGS_max_exact_nodes);
  service.limits.max_exact_nodes = max_exact_nodes != 0 ? max_exact_nodes : UINT64_MAX;
  service.limits.max_exact_seconds = absl::GetFlag(FLAGS_max_exact_seconds);
  service.limits.max_exact_free_rows = absl::GetFlag(FLAGS_max_exact_free_rows);
  // NaN and negative seconds become zero, which the check refuses.
  const double max_call_seconds = absl::GetFlag(FLAGS_max_call_seconds);
  service.limits.max_call_time =
      max_call_seconds > 0 ? absl::Seconds(max_call_seconds) : absl::ZeroDuration();
  if (absl::Status checked = nqueens::server::CheckServerOptions(options); !checked.ok()) {
    return checked;
  }
  return options;
}

// Once at start: what protects the port, never a token.
void LogSecurity(const nqueens::server::ServerOptions& options) {
  const nqueens::server::TlsOptions& tls = options.tls;
  const std::string files = absl::StrCat(tls.cert_file, " (read again every ",
                                         absl::FormatDuration(tls.refresh_interval), ")");
  if (!tls.enabled()) {
    spdlog::warn("serving in plaintext (no --tls-cert and --tls-key)");
  } else if (tls.client_ca_file.empty()) {
    spdlog::info("serving TLS with {}", files);
  } else {
    spdlog::info("serving TLS with {}; clients need a certificate signed by {}", files,
                 tls.client_ca_file);
  }
  if (!options.auth_token_file.empty()) {
    spdlog::info("calls but health checks need a bearer token of {}", options.auth_token_file);
  }
  const nqueens::server::ConnectionLimits& limits = options.connections;
  spdlog::info(
      "connections: max_concurrent_streams={} min_ping_interval={} max_ping_strikes={} "
      "max_connection_idle={} max_connection_age={} max_connection_age_grace={} "
      "max_calls_per_client={}",
      limits.max_concurrent_streams, absl::FormatDuration(limits.min_ping_interval),
      limits.max_ping_strikes, absl::FormatDuration(limits.max_idle),
      absl::FormatDuration(limits.max_age), absl::FormatDuration(limits.max_age_grace),
      options.service.max_calls_per_client);
}

// Before the server opens anything: the most descriptors, and connections
// capped below them (descriptor_limit.h). Logged once the server runs, so
// that a failure to start stays one line.
struct Descriptors {
  nqueens::server::DescriptorLimit limit;
  uint64_t connection_cap = 0;
};

Descriptors LimitDescriptors() {
  const nqueens::server::DescriptorLimit limit = nqueens::server::RaiseDescriptorLimit();
  if (limit.soft == 0) return {};  // unknown: nothing to cap below
  const uint64_t cap = nqueens::server::ConnectionCap(limit.soft);
  nqueens::server::CapAcceptedConnections(cap);
  return {limit, cap};
}

void LogDescriptors(const Descriptors& descriptors) {
  if (descriptors.connection_cap == 0) {
    spdlog::warn("cannot read the limit on open descriptors: connections are not capped");
    return;
  }
  spdlog::info(
      "open descriptors: limit {}{}; new connections are closed at once from descriptor {} on",
      descriptors.limit.soft, descriptors.limit.raised ? " (raised to the hard limit)" : "",
      descriptors.connection_cap);
}

constexpr char kAbout[] = R"(usage: nqueens-server [flags]

The n-Queens completion gRPC server (nqueens.v1.NQueensService, health, reflection).
Once it accepts calls it prints "listening on HOST:PORT" on stdout, one line
per address; it logs on stderr. SIGINT or SIGTERM drain the calls (--grace)
and end it.

Every flag can also be set in the environment as NQUEENS_ and its name in
capitals (NQUEENS_MAX_N=1000 for --max-n=1000), or in a file of flags, one
--name=value per line ('#' starts a comment), read where --flagfile FILE
stands; the command line wins over the environment.

exit status: 0 after a shutdown on SIGINT or SIGTERM; 2 for a usage error or
a failure to start (a bad flag, an address taken, a file that cannot be read
or is larger than 1 MiB, a certificate that has expired or is not valid yet).

flags:
)";

// What the completion scripts complete (command_line/completion.h).
nqueens::command_line::CompletionWords CompletionWordsOfTheServer() {
  nqueens::command_line::CompletionWords words;
  words.program = "nqueens-server";
  words.flags = nqueens::command_line::FlagNames("server/main.cc");
  words.file_flags = {"--tls-cert", "--tls-key", "--tls-client-ca", "--auth-token-file",
                      "--flagfile"};
  words.flag_values = {
      {"--log-level", {"trace", "debug", "info", "warn", "error", "critical", "off"}},
      {"--log-format", {"text", "json"}},
      {"--completion", {"bash", "zsh"}}};
  return words;
}

// Exit statuses: 0 after a shutdown on SIGINT or SIGTERM; 2 for a usage
// error or a failure to start (kAbout lists them for users).
constexpr int kExitUsage = 2;

int Fail(const absl::Status& status) {
  std::cerr << "nqueens-server: " << status.message() << "\n";
  return kExitUsage;
}

int Usage(absl::string_view message) {
  std::cerr << "nqueens-server: " << message << " (see nqueens-server --help)\n";
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  nqueens::command_line::FlagSources sources;
  sources.defined_in = "server/main.cc";
  sources.environment_prefix = "NQUEENS";
  sources.environment = nqueens::command_line::ProcessEnvironment();
  const absl::StatusOr<std::vector<std::string>> positional =
      nqueens::command_line::ParseFlags(argc, argv, sources);
  if (!positional.ok()) return Usage(positional.status().message());
  if (absl::GetFlag(FLAGS_help)) {
    std::cout << kAbout << nqueens::command_line::FlagHelp("server/main.cc");
    return 0;
  }
  if (absl::GetFlag(FLAGS_version)) {
    std::cout << nqueens::command_line::VersionLine("nqueens-server") << "\n";
    return 0;
  }
  if (const std::string shell = absl::GetFlag(FLAGS_completion); !shell.empty()) {
    const absl::StatusOr<std::string> script =
        nqueens::command_line::CompletionScript(shell, CompletionWordsOfTheServer());
    if (!script.ok()) return Usage(script.status().message());
    std::cout << *script;
    return 0;
  }
  if (!positional->empty()) {
    return Usage(absl::StrCat("unexpected argument \"", positional->front(),
                              "\": the server takes flags only, e.g. --listen HOST:PORT"));
  }

  const absl::StatusOr<spdlog::level::level_enum> level = LogLevelFromFlag();
  if (!level.ok()) return Fail(level.status());
  const absl::StatusOr<nqueens::server::LogFormat> log_format = LogFormatFromFlag();
  if (!log_format.ok()) return Fail(log_format.status());
  const absl::StatusOr<nqueens::server::ServerOptions> options = ServerOptionsFromFlags();
  if (!options.ok()) return Fail(options.status());
  nqueens::server::LogToStderr(*log_format, *level);
  nqueens::server::ReturnLargeFreedBuffersToTheKernel();
  // Debian's Abseil is built without NDEBUG, so every absl::Mutex lock and
  // destruction, gRPC's included, goes through its deadlock detector: a
  // graph of all mutexes behind one global lock, several times per call
  // (docs/constants.md, SetMutexDeadlockDetectionMode). The tests, which
  // link the service without this main, keep it.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const Descriptors descriptors = LimitDescriptors();

  // Block the signals before gRPC starts its threads, so that all of them
  // inherit the mask and only sigwait() below receives the signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = nqueens::server::Server::Start(*options);
  if (!server.ok()) return Fail(server.status());
  for (const std::string& address : (*server)->addresses()) {
    std::cout << "listening on " << address << "\n";
  }
  if (!(*server)->http_address().empty()) {
    std::cout << "listening for HTTP on " << (*server)->http_address() << "\n";
  }
  std::cout << std::flush;
  for (const std::string& address : (*server)->health_addresses()) {
    spdlog::info("health checks only, in plaintext, on {}", address);
  }
  if (!(*server)->metrics_address().empty()) {
    spdlog::info("serving metrics on http://{}/metrics", (*server)->metrics_address());
  }
  if (!(*server)->http_address().empty() && !options->http_cors_origin.empty()) {
    spdlog::info("pages of {} may call the HTTP routes from a browser (CORS)",
                 options->http_cors_origin);
  }
  const nqueens::server::ServiceOptions& service = options->service;
  spdlog::info(
      "serving with max_n={} workers={} max_queued={} grace={} memory_budget={} "
      "stream_idle_timeout={} max_backtracks={} max_restarts={} max_exact_nodes={} "
      "max_exact_seconds={} max_exact_free_rows={} max_call_seconds={}",
      service.max_n, (*server)->workers(), service.max_queued, absl::FormatDuration(options->grace),
      nqueens::server::HumanBytes((*server)->memory_budget().capacity()),
      absl::FormatDuration(service.stream_idle_timeout), service.limits.max_backtracks,
      service.limits.max_restarts,
      service.limits.max_exact_nodes == UINT64_MAX ? std::string("none")
                                                   : std::to_string(service.limits.max_exact_nodes),
      service.limits.max_exact_seconds, service.limits.max_exact_free_rows,
      absl::ToDoubleSeconds(service.limits.max_call_time));
  LogSecurity(*options);
  LogDescriptors(descriptors);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  spdlog::info("received signal {}; shutting down", signal_number);
  (*server)->Shutdown();
  spdlog::info("shut down after {}", (*server)->counters().Summary());
  return 0;
}
