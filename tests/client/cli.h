// Running the built nqueens CLI from the tests that drive it end to end. The
// paths are compile definitions of the test executable (tests/client).
#ifndef NQUEENS_TESTS_CLIENT_CLI_H_
#define NQUEENS_TESTS_CLIENT_CLI_H_

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "subprocess.h"
#include "test_util.h"

namespace nqueens::testing {

inline const std::string kExamples = NQUEENS_EXAMPLES_DIR;

// The CLI's command line: its path, then `args`.
inline std::vector<std::string> CliArgs(std::vector<std::string> args) {
  args.insert(args.begin(), NQUEENS_CLI_PATH);
  return args;
}

// Runs the CLI with `args` and `input` on its standard input, to its exit.
inline ProcessResult Cli(std::vector<std::string> args, absl::string_view input = "") {
  return Run(CliArgs(std::move(args)), input);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

// A new temporary file holding `content`; its path.
inline std::string WriteTempFile(const std::string& content, absl::string_view suffix = ".in") {
  const std::string path = TempPath(suffix);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_CLIENT_CLI_H_
