#include "client/help.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "client/boards/board_io.h"
#include "client/command_table.h"
#include "client/commands.h"
#include "client/flags.h"
#include "command_line/command_line.h"
#include "command_line/completion.h"
#include "nqueens/solver.h"

namespace nqueens::client {
namespace {

constexpr char kAbout[] = R"(
Boards are read as a Q array, a 0/1 matrix, a sparse list or binary; see
--format. solve and complete print the outcome (SOLVED, UNSOLVABLE, UNDECIDED)
with its stats on stderr, the board on stdout (drawn on stderr too when
N <= 64, complete's given queens as Q and those it placed as q). Long phases
(reading, uploading, solving, downloading, writing) show a progress bar on
stderr when it is a terminal.

formats (examples/README.md has the details):
  q        the array Q as text: the column (1..N) of each row's queen, 0 for
           an empty row, separated by spaces or line breaks
  matrix   N lines of N cells: 0 or . empty, 1 or Q a queen
  sparse   N on the first line, then one "row column" line per queen
  binary   the array Q as unsigned 32-bit little-endian integers, 4 bytes per
           row, N = file size / 4; the fastest for large boards

exit status: 0 solved / valid / serving, 1 unsolvable / invalid board / not
serving, 2 usage or input error, 3 server or transport error (TLS and
authentication failures included, or deadline exceeded), 4 undecided, 5 a
limit reached (the board or the call is beyond a limit of the CLI or the
server, which names it, or the server is busy), 130 interrupted (Ctrl-C).

flags:
)";

// "constructive (default), random, ... or formula": a table's CLI names, the
// first being the default.
template <typename Method>
std::string MethodList(absl::Span<const MethodInfo<Method>> methods) {
  std::string list;
  for (size_t i = 0; i < methods.size(); ++i) {
    const char* separator = i == 0 ? "" : i + 1 == methods.size() ? " or " : ", ";
    absl::StrAppend(&list, separator, methods[i].cli_name, i == 0 ? " (default)" : "");
  }
  return list;
}

// The usage lines of every command, or of `command` alone.
std::string UsageLines(const CommandEntry* command) {
  std::string usage;
  for (const CommandEntry& entry : Commands()) {
    if (command != nullptr && command != &entry) continue;
    absl::StrAppend(&usage, usage.empty() ? "usage: " : "       ", "nqueens [flags] ", entry.name,
                    " ", entry.argument, "\n");
  }
  if (command == nullptr) absl::StrAppend(&usage, "       nqueens help [COMMAND]\n");
  return usage;
}

// The whole help, or (`command` given) that command's usage, what it does
// and the flags it takes.
std::string Help(const CommandEntry* command) {
  std::string help = absl::StrCat(UsageLines(command), "\n");
  for (const CommandEntry& entry : Commands()) {
    if (command != nullptr && command != &entry) continue;
    absl::StrAppend(&help, "  ", entry.name, " ", entry.argument, "\n",
                    command_line::Wrap(entry.description, "      "));
  }
  if (command == nullptr) {
    absl::StrAppend(
        &help, "  help [COMMAND]\n",
        command_line::Wrap("this help, or a command's usage and the flags it takes", "      "),
        kAbout);
  }
  const std::set<std::string> flags =
      command == nullptr ? std::set<std::string>{} : FlagsOf(*command);
  if (command != nullptr && !flags.empty()) absl::StrAppend(&help, "\nflags:\n");
  return absl::StrCat(
      help, command_line::FlagHelp(kFlagsFile,
                                   {{"{solve methods}", MethodList(SolveMethods())},
                                    {"{complete methods}", MethodList(CompleteMethods())}},
                                   command == nullptr ? nullptr : &flags));
}

// What the completion scripts complete (completion.h).
command_line::CompletionWords CompletionWordsOfTheCli() {
  command_line::CompletionWords words;
  words.program = "nqueens";
  std::vector<std::string> command_names = {"help"};
  for (const CommandEntry& entry : Commands()) {
    command_line::CompletionWords::Command command{
        entry.name, absl::StrContains(entry.argument, "FILE"), {}};
    if (command.name == "health") command.words = {"nqueens.v1.NQueensService"};
    if (command.name == "completion") command.words = {"bash", "zsh"};
    words.commands.push_back(std::move(command));
    command_names.push_back(entry.name);
  }
  words.commands.push_back({"help", false, command_names});
  words.flags = command_line::FlagNames(kFlagsFile);
  words.file_flags = {"--output",   "--certificate", "--picture",         "--tls-ca",
                      "--tls-cert", "--tls-key",     "--auth-token-file", "--job-file"};
  std::vector<std::string> methods;
  for (const MethodInfo<SolveMethod>& method : SolveMethods()) methods.push_back(method.cli_name);
  for (const MethodInfo<CompleteMethod>& method : CompleteMethods()) {
    if (std::find(methods.begin(), methods.end(), method.cli_name) == methods.end()) {
      methods.push_back(method.cli_name);
    }
  }
  words.flag_values = {{"--method", methods},
                       {"--format", BoardFormatNames()},
                       {"--certificate-format", {"binary", "text"}},
                       {"--output-format", BoardFormatNames()}};
  return words;
}

}  // namespace

int UsageError(absl::string_view message) {
  return ReportError(kExitUsage, absl::StrCat(message, " (see nqueens --help)"));
}

// nqueens help [COMMAND].
int RunHelp(const std::vector<std::string>& arguments) {
  const CommandEntry* command = nullptr;
  if (arguments.size() > 2) return UsageError("expected help or help COMMAND");
  // `help help` is the whole help, as `help` is.
  if (arguments.size() == 2 && arguments[1] != "help") {
    command = FindCommand(arguments[1]);
    if (command == nullptr) return UsageError(absl::StrCat("unknown command ", arguments[1]));
  }
  std::fputs(Help(command).c_str(), stdout);
  return kExitOk;
}

// nqueens completion bash|zsh.
int RunCompletion(const std::vector<std::string>& arguments) {
  if (arguments.size() != 2) return UsageError("expected completion bash or completion zsh");
  const absl::StatusOr<std::string> script =
      command_line::CompletionScript(arguments[1], CompletionWordsOfTheCli());
  if (!script.ok()) return UsageError(script.status().message());
  std::fputs(script->c_str(), stdout);
  return kExitOk;
}

}  // namespace nqueens::client
