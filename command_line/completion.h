// The shell completion scripts of both programs (`nqueens completion
// bash|zsh`, `nqueens-server --completion bash|zsh`), made from what the
// program knows when it runs: its commands, its flags, and the values of the
// flags that take one of a list (the core's method tables, the board formats,
// the log levels), so that the scripts never fall behind the program.
#ifndef NQUEENS_COMMAND_LINE_COMPLETION_H_
#define NQUEENS_COMMAND_LINE_COMPLETION_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::command_line {

struct CompletionWords {
  std::string program;  // "nqueens"
  // What follows a command: files, one of a list of words, or nothing.
  struct Command {
    std::string name;
    bool takes_file = false;
    std::vector<std::string> words;
  };
  std::vector<Command> commands;
  std::vector<std::string> flags;       // "--method", ...
  std::vector<std::string> file_flags;  // flags whose value is a file
  std::vector<std::pair<std::string, std::vector<std::string>>> flag_values;
};

// The script for `shell` (bash or zsh); INVALID_ARGUMENT for another.
absl::StatusOr<std::string> CompletionScript(absl::string_view shell, const CompletionWords& words);

}  // namespace nqueens::command_line

#endif  // NQUEENS_COMMAND_LINE_COMPLETION_H_
