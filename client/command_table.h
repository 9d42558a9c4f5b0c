// The CLI's commands: what each runs, its argument, what it does and the
// flags it takes. main.cc dispatches by it, help.cc describes it and
// flags.cc refuses a flag that a command does not take.
#ifndef NQUEENS_CLIENT_COMMAND_TABLE_H_
#define NQUEENS_CLIENT_COMMAND_TABLE_H_

#include <set>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "client/commands.h"

namespace nqueens::client {

using Command = int (*)(Backend&, const std::string&, const CommandOptions&);

// A command: what it runs, its argument, what it does (for the help) and the
// flags it takes besides kConnectionFlags and, for those with a backend,
// kBackendFlags. Any other flag given with it is refused, not ignored.
struct CommandEntry {
  const char* name;
  Command run;
  const char* argument;
  const char* description;
  const char* flags;  // space-separated, as defined: max_backtracks
};

// Every command, in the order the help lists them.
absl::Span<const CommandEntry> Commands();

// The flags `command` takes (as defined: max_backtracks).
std::set<std::string> FlagsOf(const CommandEntry& command);

// The command named `name`; null for none.
const CommandEntry* FindCommand(absl::string_view name);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_COMMAND_TABLE_H_
