// Reads a file that a flag names, such as --tls-cert, --auth-token-file or
// --flagfile (the server's and the CLI's), with an error that names both.
#ifndef NQUEENS_COMMAND_LINE_FLAG_FILE_H_
#define NQUEENS_COMMAND_LINE_FLAG_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nqueens::command_line {

// Certificates, keys, token files and flag files take a few KiB: the bound
// turns a wrong path (/dev/zero, a log, a pipe that never ends) into an
// error at once instead of a read without end.
inline constexpr uint64_t kMaxFlagFileBytes = uint64_t{1} << 20;

// The whole file at `path`, which `flag` names. INVALID_ARGUMENT
// "FLAG PATH: REASON" when it cannot be read, or when it holds more than
// `limit` bytes (the reason then gives the limit). Reads at most `limit` + 1
// bytes whatever the file is.
absl::StatusOr<std::string> ReadFlagFile(absl::string_view flag, const std::string& path,
                                         uint64_t limit = kMaxFlagFileBytes);

// "1 MiB" for whole MiB, else "N bytes": how the limits are written.
std::string ByteLimitText(uint64_t bytes);

}  // namespace nqueens::command_line

#endif  // NQUEENS_COMMAND_LINE_FLAG_FILE_H_
