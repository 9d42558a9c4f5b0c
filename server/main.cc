// nqueens-server: parses flags, starts the server, prints "listening on
// HOST:PORT" on stdout, and on SIGINT/SIGTERM shuts down gracefully and exits 0.
// Logs go to stderr, so stdout carries that one line only.
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "byte_size.h"
#include "memory_budget.h"
#include "server.h"
#include "spdlog/sinks/stdout_color_sinks.h"
#include "spdlog/spdlog.h"

namespace {

// --memory-budget: a byte count ("4G", "512M") or "auto".
struct MemoryBudgetFlag {
  uint64_t bytes = 0;  // 0: auto
};

bool AbslParseFlag(absl::string_view text, MemoryBudgetFlag* flag, std::string* error) {
  if (text == "auto") {
    flag->bytes = 0;
    return true;
  }
  const std::optional<uint64_t> bytes = nqueens::server::ParseByteSize(text);
  if (!bytes.has_value() || *bytes == 0) {
    *error = "expected \"auto\" or a positive byte count such as 4G, 512M or 1048576";
    return false;
  }
  flag->bytes = *bytes;
  return true;
}

std::string AbslUnparseFlag(const MemoryBudgetFlag& flag) {
  return flag.bytes == 0 ? "auto" : nqueens::server::ByteSizeFlagText(flag.bytes);
}

}  // namespace

ABSL_FLAG(std::string, listen, "0.0.0.0:50051", "HOST:PORT to listen on; port 0 picks a free one");
ABSL_FLAG(uint64_t, max_n, 100'000'000, "largest board accepted; larger n gets RESOURCE_EXHAUSTED");
ABSL_FLAG(int, threads, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())),
          "calls served at once; more get RESOURCE_EXHAUSTED");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error, critical or off");
ABSL_FLAG(absl::Duration, grace, absl::Seconds(10),
          "on SIGINT/SIGTERM, how long in-flight calls may finish before they are cancelled");
ABSL_FLAG(MemoryBudgetFlag, memory_budget, MemoryBudgetFlag{},
          "memory all calls share, e.g. 4G or 512M (K, M, G, T: powers of 1024); a call that "
          "does not fit gets RESOURCE_EXHAUSTED; auto: 75% of physical memory or of the cgroup "
          "limit");
ABSL_FLAG(absl::Duration, stream_idle_timeout, absl::Seconds(30),
          "a stream on which no message moves for this long is cancelled and its memory freed; "
          "inf: never");

namespace {

// Abseil flag names are identifiers (max_n); accept the dashed spelling the
// documentation uses (--max-n) by rewriting flag names before parsing.
std::vector<std::string> UnderscoreFlagNames(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') continue;
    const size_t name_begin = arg.find_first_not_of('-');
    const size_t name_end = std::min(arg.find('='), arg.size());
    if (name_begin >= name_end) continue;
    std::replace(arg.begin() + name_begin, arg.begin() + name_end, '-', '_');
  }
  return args;
}

// spdlog maps unknown names to "off"; refuse them instead.
absl::StatusOr<spdlog::level::level_enum> LogLevelFromFlag() {
  const std::string name = absl::GetFlag(FLAGS_log_level);
  const spdlog::level::level_enum level = spdlog::level::from_str(name);
  if (level == spdlog::level::off && name != "off") {
    return absl::InvalidArgumentError("unknown --log-level " + name);
  }
  return level;
}

absl::StatusOr<nqueens::server::ServerOptions> ServerOptionsFromFlags() {
  nqueens::server::ServerOptions options;
  options.listen_address = absl::GetFlag(FLAGS_listen);
  options.max_n = absl::GetFlag(FLAGS_max_n);
  options.threads = absl::GetFlag(FLAGS_threads);
  options.grace = absl::GetFlag(FLAGS_grace);
  options.memory_budget = absl::GetFlag(FLAGS_memory_budget).bytes;
  options.stream_idle_timeout = absl::GetFlag(FLAGS_stream_idle_timeout);
  if (options.max_n == 0) return absl::InvalidArgumentError("--max-n must be at least 1");
  if (options.threads < 1) return absl::InvalidArgumentError("--threads must be at least 1");
  if (options.grace < absl::ZeroDuration() || options.grace == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError("--grace must be a finite duration >= 0");
  }
  if (options.stream_idle_timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--stream-idle-timeout must be positive (inf: never)");
  }
  return options;
}

int Fail(const absl::Status& status) {
  std::cerr << "nqueens-server: " << status.message() << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage("The n-Queens completion gRPC server.");
  std::vector<std::string> args = UnderscoreFlagNames(argc, argv);
  std::vector<char*> arg_pointers;
  for (std::string& arg : args) arg_pointers.push_back(arg.data());
  absl::ParseCommandLine(static_cast<int>(arg_pointers.size()), arg_pointers.data());

  const absl::StatusOr<spdlog::level::level_enum> level = LogLevelFromFlag();
  if (!level.ok()) return Fail(level.status());
  const absl::StatusOr<nqueens::server::ServerOptions> options = ServerOptionsFromFlags();
  if (!options.ok()) return Fail(options.status());
  spdlog::set_default_logger(spdlog::stderr_color_mt("nqueens-server"));
  spdlog::set_level(*level);
  nqueens::server::ReturnLargeFreedBuffersToTheKernel();

  // Block the signals before gRPC starts its threads, so that all of them
  // inherit the mask and only sigwait() below receives the signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = nqueens::server::Server::Start(*options);
  if (!server.ok()) return Fail(server.status());
  std::cout << "listening on " << (*server)->address() << std::endl;
  spdlog::info("serving with max_n={} threads={} grace={} memory_budget={} stream_idle_timeout={}",
               options->max_n, options->threads, absl::FormatDuration(options->grace),
               nqueens::server::HumanBytes((*server)->memory_budget().capacity()),
               absl::FormatDuration(options->stream_idle_timeout));

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  spdlog::info("received signal {}; shutting down", signal_number);
  (*server)->Shutdown();
  spdlog::info("shut down");
  return 0;
}
