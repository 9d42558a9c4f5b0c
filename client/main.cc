// nqueens: solve, complete and validate n-Queens boards, on an nqueens-server
// or in-process (--local). Parses the command line and runs the command it
// names: command_table.h lists them, flags.h reads the flags, help.h holds
// what the CLI says of itself, commands.h the exit statuses.
#include <grpc/support/log.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "client/backends/backend.h"
#include "client/backends/channel.h"
#include "client/backends/health.h"
#include "client/backends/security.h"
#include "client/command_table.h"
#include "client/commands.h"
#include "client/flags.h"
#include "client/help.h"
#include "client/output/json_output.h"
#include "client/output/progress.h"
#include "command_line/command_line.h"

namespace nqueens::client {
namespace {

// Ends the process once a command is done, skipping destructors. Tearing
// gRPC down (closing the channel, joining its threads) can take as long as a
// small board's whole call (docs/constants.md, ExitWithoutTeardown); the
// process's end frees all of it anyway. Commands close their output files
// and end their progress lines themselves; whatever stdio still buffers is
// flushed here.
[[noreturn]] void ExitWithoutTeardown(int status) {
  std::fflush(nullptr);
  std::_Exit(status);
}

// nqueens health [SERVICE].
int RunHealth(const std::vector<std::string>& arguments) {
  if (arguments.size() > 2) return UsageError("expected health or health SERVICE");
  const absl::StatusOr<ClientSecurity> security = SecurityFromFlags();
  if (!security.ok()) return UsageError(security.status().message());
  const std::string target = ServerFromFlags();
  grpc::ChannelArguments channel_arguments;
  AddChannelArguments(*security, channel_arguments);
  const absl::Duration deadline = absl::GetFlag(FLAGS_deadline);
  const absl::StatusOr<std::string> health =
      CheckHealth(MakeChannel(target, ChannelCredentialsFor(*security), channel_arguments),
                  arguments.size() == 2 ? arguments[1] : "",
                  deadline == absl::InfiniteDuration() ? absl::Seconds(5) : deadline);
  if (!health.ok()) {
    return ReportError(kExitFailure, absl::StrCat("health check of ", target, " failed: ",
                                                  absl::StatusCodeToString(health.status().code()),
                                                  ": ", health.status().message()));
  }
  const std::string answer = absl::GetFlag(FLAGS_json) ? HealthJson(*health) : *health + "\n";
  std::fputs(answer.c_str(), stdout);
  return *health == "SERVING" ? kExitOk : kExitRejected;
}

// gRPC logs a failed TLS handshake on stderr (as "E1123 ... Handshake
// failed ..."); the CLI explains failures itself, in one line. GRPC_VERBOSITY
// set in the environment keeps gRPC's log, for debugging.
void SilenceGrpcLogUnlessAsked() {
  if (std::getenv("GRPC_VERBOSITY") != nullptr) return;
  gpr_set_log_function([](gpr_log_func_args*) {});
}

int Main(int argc, char** argv) {
  SilenceGrpcLogUnlessAsked();
  // Every flag can come from NQUEENS_ and its name in capitals, as the
  // server's do.
  const command_line::FlagSources sources = {kFlagsFile, "NQUEENS",
                                             command_line::ProcessEnvironment()};
  std::set<std::string> given;
  absl::StatusOr<std::vector<std::string>> arguments =
      command_line::ParseFlags(argc, argv, sources, &given);
  if (!arguments.ok()) return UsageError(arguments.status().message());
  PreferTheCommandLine(given);
  ReportErrorsAsJson(absl::GetFlag(FLAGS_json));
  if (absl::GetFlag(FLAGS_help)) return RunHelp({"help"});
  if (absl::GetFlag(FLAGS_version)) {
    std::puts(command_line::VersionLine("nqueens").c_str());
    return kExitOk;
  }
  if (arguments->empty()) {
    return UsageError(
        "expected solve N, complete FILE, validate FILE, count N|FILE, enumerate N|FILE, health, "
        "completion bash|zsh or help");
  }
  if ((*arguments)[0] == "help") return RunHelp(*arguments);
  const CommandEntry* command = FindCommand((*arguments)[0]);
  if (command == nullptr) return UsageError(absl::StrCat("unknown command ", (*arguments)[0]));
  if (absl::Status applies = CheckFlagsApply(*command, given); !applies.ok()) {
    return UsageError(applies.message());
  }
  if (absl::Status server = CheckServerFlag(); !server.ok()) return UsageError(server.message());
  if (command->run == nullptr && absl::string_view(command->name) == "health") {
    ExitWithoutTeardown(RunHealth(*arguments));
  }
  if (command->run == nullptr) return RunCompletion(*arguments);
  if (arguments->size() != 2) {
    return UsageError(arguments->size() == 1
                          ? absl::StrCat(command->name, " needs ", command->argument)
                          : absl::StrCat("unexpected argument ", (*arguments)[2]));
  }
  absl::StatusOr<CommandOptions> options = OptionsFromFlags((*arguments)[0], given);
  if (!options.ok()) return UsageError(options.status().message());
  const absl::StatusOr<ClientSecurity> security = SecurityFromFlags();
  if (!security.ok()) return UsageError(security.status().message());

  absl::StatusOr<std::unique_ptr<Backend>> backend = MakeBackend(*security, *options);
  if (!backend.ok()) {
    if (backend.status().code() == absl::StatusCode::kInvalidArgument) {
      return UsageError(backend.status().message());
    }
    ExitWithoutTeardown(ReportError(kExitFailure, backend.status().message()));
  }
  const std::unique_ptr<ProgressBar> progress = MakeStderrProgressBar(options->quiet);
  options->run.progress = progress.get();
  const int status = command->run(**backend, (*arguments)[1], *options);
  ExitWithoutTeardown(status);
}

}  // namespace
}  // namespace nqueens::client

int main(int argc, char** argv) { return nqueens::client::Main(argc, argv); }
