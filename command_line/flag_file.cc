#include "command_line/flag_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace nqueens::command_line {
namespace {

// Closes the descriptor on every path out.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  const int fd_;
};

absl::Status FileError(absl::string_view flag, const std::string& path, absl::string_view reason) {
  return absl::InvalidArgumentError(absl::StrCat(flag, " ", path, ": ", reason));
}

}  // namespace

std::string ByteLimitText(uint64_t bytes) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  if (bytes != 0 && bytes % kMiB == 0) return absl::StrCat(bytes / kMiB, " MiB");
  return absl::StrCat(bytes, " bytes");
}

absl::StatusOr<std::string> ReadFlagFile(absl::string_view flag, const std::string& path,
                                         uint64_t limit) {
  const FileDescriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return FileError(flag, path, std::strerror(errno));
  std::string content;
  char buffer[64 << 10];
  // One byte past the limit tells a file of exactly `limit` bytes from a
  // larger one.
  while (content.size() <= limit) {
    const size_t wanted = std::min<uint64_t>(sizeof buffer, limit + 1 - content.size());
    const ssize_t got = read(file.get(), buffer, wanted);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return FileError(flag, path, std::strerror(errno));
    if (got == 0) return content;
    content.append(buffer, static_cast<size_t>(got));
  }
  return FileError(flag, path,
                   absl::StrCat("larger than ", ByteLimitText(limit), ", the most a file named by ",
                                flag, " may hold"));
}

}  // namespace nqueens::command_line
