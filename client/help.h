// What the CLI says of itself: its help (nqueens --help, help COMMAND), the
// shells' completion scripts (completion bash|zsh), and the pointer to the
// help that ends a usage error.
#ifndef NQUEENS_CLIENT_HELP_H_
#define NQUEENS_CLIENT_HELP_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace nqueens::client {

// Prints "nqueens: <message> (see nqueens --help)" and returns kExitUsage.
int UsageError(absl::string_view message);

// nqueens help [COMMAND]; `arguments` start with "help".
int RunHelp(const std::vector<std::string>& arguments);

// nqueens completion bash|zsh; `arguments` start with "completion".
int RunCompletion(const std::vector<std::string>& arguments);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_HELP_H_
