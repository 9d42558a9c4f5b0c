// The CLI's flags, defined in flags.cc (whose path, kFlagsFile, is how
// command_line finds them for parsing, the help and the completion), and what
// they set: a command's options, the connection's security, the backend.
#ifndef NQUEENS_CLIENT_FLAGS_H_
#define NQUEENS_CLIENT_FLAGS_H_

#include <memory>
#include <set>
#include <string>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "client/backends/backend.h"
#include "client/backends/security.h"
#include "client/command_table.h"
#include "client/commands.h"

// The flags main.cc reads itself; flags.cc reads the others.
ABSL_DECLARE_FLAG(bool, help);
ABSL_DECLARE_FLAG(bool, version);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(absl::Duration, deadline);

namespace nqueens::client {

inline constexpr char kFlagsFile[] = "client/flags.cc";

// Refuses a flag that the command line (not the environment: NQUEENS_*
// variables hold settings for every command) gives to a command that does not
// take it, and pairs of flags that exclude each other: ignoring them would
// let a misunderstanding (--limit on solve) pass silently.
absl::Status CheckFlagsApply(const CommandEntry& command, const std::set<std::string>& given);

// The options of `command` from the flags; `given`: the flags on the command
// line. INVALID_ARGUMENT naming the flag for a value out of range or flags
// that do not go together.
absl::StatusOr<CommandOptions> OptionsFromFlags(const std::string& command,
                                                const std::set<std::string>& given);

// --tls*, --auth-token-file and NQUEENS_AUTH_TOKEN, their files read.
absl::StatusOr<ClientSecurity> SecurityFromFlags();

// --server as HOST:PORT is checked here: gRPC would take a missing port as
// 443 and 99999 as 34463. Targets with a scheme (dns:///, ipv4:, unix:) are
// gRPC's to judge.
absl::Status CheckServerFlag();

// --server, or localhost:50051 when it is empty.
std::string ServerFromFlags();

// One call's backend, or with --parts the job's over every server (or
// core); UNAVAILABLE when --server's name does not resolve.
absl::StatusOr<std::unique_ptr<Backend>> MakeBackend(const ClientSecurity& security,
                                                     const CommandOptions& options);

// The command line wins over the environment for where the work runs too:
// --local on it sets aside a server from NQUEENS_SERVER, and --server an
// NQUEENS_LOCAL, instead of refusing them as a pair (both on the command
// line, or both in the environment, still are).
void PreferTheCommandLine(const std::set<std::string>& given);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_FLAGS_H_
