#include "client/command_table.h"

#include "absl/strings/str_split.h"

namespace nqueens::client {
namespace {

constexpr char kConnectionFlags[] =
    "server deadline json tls tls_ca tls_cert tls_key tls_server_name auth_token_file";
constexpr char kBackendFlags[] = "local quiet output";
constexpr char kSearchFlags[] = "seed max_backtracks max_exact_seconds max_exact_nodes param";

constexpr CommandEntry kCommands[] = {
    {"solve", RunSolve, "N", "a full solution of the N x N board",
     "method variant symmetry output_format picture"},
    {"complete", RunComplete, "FILE",
     "extend the composition in FILE (\"-\" for stdin) to a solution",
     "method format output_format picture certificate certificate_format batch parts part_index "
     "window job_file resolve_every"},
    {"validate", RunValidate, "FILE", "check the board in FILE for attacking queens",
     "format picture"},
    {"count", RunCount, "N|FILE",
     "the number of solutions of the N x N board, or of completions of the composition in "
     "FILE (at most 64 free rows), on stdout; with the fundamental solutions (up to the "
     "symmetries of the square) for the empty board",
     "format parts part_index window job_file resolve_every"},
    {"enumerate", RunEnumerate, "N|FILE", "every such solution, one per line as its Q array",
     "format limit parts part_index window resolve_every"},
    // These two run without a backend (RunHealth, RunCompletion).
    {"health", nullptr, "[SERVICE]",
     "the gRPC health check of --server (grpc.health.v1): prints SERVING and exits 0, or what "
     "the server says (NOT_SERVING) and exits 1; exits 3 when it cannot ask; SERVICE: the "
     "server as a whole (default) or nqueens.v1.NQueensService",
     ""},
    {"completion", nullptr, "bash|zsh",
     "print the shell's completion script for nqueens (commands, flags, methods, formats); "
     "installed packages carry both",
     ""},
};

}  // namespace

std::set<std::string> FlagsOf(const CommandEntry& command) {
  std::set<std::string> flags = absl::StrSplit(command.flags, ' ', absl::SkipEmpty());
  const absl::string_view name = command.name;
  if (name == "completion") return flags;
  flags.merge(std::set<std::string>(absl::StrSplit(kConnectionFlags, ' ')));
  if (command.run != nullptr)
    flags.merge(std::set<std::string>(absl::StrSplit(kBackendFlags, ' ')));
  if (name == "solve" || name == "complete") {
    flags.merge(std::set<std::string>(absl::StrSplit(kSearchFlags, ' ')));
  }
  return flags;
}

absl::Span<const CommandEntry> Commands() { return kCommands; }

const CommandEntry* FindCommand(absl::string_view name) {
  for (const CommandEntry& command : kCommands) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

}  // namespace nqueens::client
