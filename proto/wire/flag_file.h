// Reads a file that a flag names, such as --tls-cert or --auth-token-file
// (the server's and the CLI's), with an error that names both.
#ifndef NQUEENS_WIRE_FLAG_FILE_H_
#define NQUEENS_WIRE_FLAG_FILE_H_

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace nqueens::wire {

// The whole file; INVALID_ARGUMENT "--flag PATH: <reason>" when it cannot
// be read.
inline absl::StatusOr<std::string> ReadFlagFile(absl::string_view flag, const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, ": ", std::strerror(errno)));
  }
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace nqueens::wire

#endif  // NQUEENS_WIRE_FLAG_FILE_H_
