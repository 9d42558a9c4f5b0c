// Parsing argv into Abseil flags without exiting on errors.
//
// absl::ParseCommandLine() exits with status 1 on an unknown flag or a bad
// value; the CLI promises exit status 2 for usage errors, so it parses argv
// itself and sets the flags through Abseil's reflection API. The syntax is
// Abseil's: --name=value, --name value, -name=value; --flag / --noflag for
// booleans; "--" ends the flags. A lone "-" is a positional argument (stdin).
// Dashes in flag names stand for underscores: --output-format sets the flag
// output_format.
#ifndef NQUEENS_CLIENT_COMMAND_LINE_H_
#define NQUEENS_CLIENT_COMMAND_LINE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace nqueens::client {

// Sets the flags named in argv[1..] and returns the positional arguments in
// order. INVALID_ARGUMENT naming the argument for an unknown flag, a missing
// or unparsable value.
absl::StatusOr<std::vector<std::string>> ParseFlags(int argc, const char* const* argv);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_COMMAND_LINE_H_
