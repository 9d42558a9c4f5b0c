// The command line of both binaries (nqueens and nqueens-server): argv into
// Abseil flags without exiting on errors, the flags' help text, and the
// version line.
//
// absl::ParseCommandLine() exits with status 1 on an unknown flag or a bad
// value; both binaries promise exit status 2 for usage errors, so they parse
// argv here and set the flags through Abseil's reflection API. The syntax is
// Abseil's: --name=value, --name value, -name=value; --flag / --noflag for
// booleans; "--" ends the flags. Dashes in flag names stand for underscores:
// --output-format sets the flag output_format. Beyond Abseil's:
// - `-h` is --help;
// - a lone "-" and negative numbers ("-5") are positional arguments, for the
//   command to judge;
// - a list flag (std::vector<std::string>) given again adds to its list;
// - `--flagfile FILE` reads more flags from FILE, one per line ('#' starts a
//   comment line), as if given there;
// - ParseFlags' `environment` sets flags before argv does: each variable
//   PREFIX_NAME (NQUEENS_MAX_N for --max-n) found there.
#ifndef NQUEENS_COMMAND_LINE_COMMAND_LINE_H_
#define NQUEENS_COMMAND_LINE_COMMAND_LINE_H_

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::command_line {

// Looks up an environment variable; nullopt when unset.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;

// This process's environment (getenv).
Environment ProcessEnvironment();

struct FlagSources {
  // The flags that `environment` may set: those defined in this source file
  // (a suffix of its path, e.g. "server/main.cc"), each as PREFIX_NAME.
  std::string defined_in;
  std::string environment_prefix;  // e.g. "NQUEENS"; empty: none
  Environment environment;
};

// Sets the flags from the environment (see FlagSources), then from argv[1..]
// and returns the positional arguments in order. INVALID_ARGUMENT naming the
// argument (or variable, or file and line) for an unknown flag, a missing or
// unparsable value. `given`, unless null, receives the names (max_n) of the
// flags that argv and its flag files set, the environment's left out: for a
// program whose commands take different flags.
absl::StatusOr<std::vector<std::string>> ParseFlags(int argc, const char* const* argv,
                                                    const FlagSources& sources = {},
                                                    std::set<std::string>* given = nullptr);

// The flags defined in `defined_in` (as for FlagSources), sorted by name, as
// help lines: "  --max-n N  largest board accepted ... (default: 100000000)",
// the help text wrapped at 79 columns, each of `values`' keys in it replaced
// by its value (lists the program builds from a table, such as method names).
using HelpValues = std::vector<std::pair<std::string, std::string>>;
// `only`, when given, keeps the flags whose names (max_n) it holds.
std::string FlagHelp(absl::string_view defined_in, const HelpValues& values = {},
                     const std::set<std::string>* only = nullptr);

// `text` wrapped at 79 columns, each line after `indent`.
std::string Wrap(absl::string_view text, absl::string_view indent);

// The flags defined in `defined_in`, sorted, dashed: "--max-n".
std::vector<std::string> FlagNames(absl::string_view defined_in);

// "PROGRAM VERSION (git REVISION, BUILD_TYPE build)".
std::string VersionLine(absl::string_view program);

}  // namespace nqueens::command_line

#endif  // NQUEENS_COMMAND_LINE_COMMAND_LINE_H_
