// Reading boards from files and stdin (declared in board_io.h): large reads
// straight into the memory that keeps the data, progress on the way.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "client/boards/board_io.h"
#include "client/output/progress.h"

namespace nqueens::client {
namespace {

// Bytes asked for by one read(2): large enough that system calls cost
// nothing next to the copying, small enough for the progress bar to move.
constexpr size_t kReadSize = size_t{16} << 20;
// The first buffer for an input of unknown size (a pipe); doubled as needed.
constexpr size_t kFirstBufferSize = size_t{64} << 10;

// The most bytes a board input may take, so that an input without end
// (/dev/zero, a runaway pipe) is refused instead of read until memory runs
// out. A binary board takes exactly 4 bytes per row. A Q array takes at most
// 11 bytes per row (10 digits and a separator) besides comments, and a matrix
// n + 1: 16 bytes per row of the largest board leaves room for comments, and
// for matrices up to about 185,000 rows.
constexpr uint64_t kMaxBinaryInputBytes = 4 * kMaxBoardSize;
constexpr uint64_t kMaxTextInputBytes = 16 * kMaxBoardSize;

absl::Status TooLarge(const std::string& name, uint64_t limit) {
  return absl::InvalidArgumentError(absl::StrCat(name, ": larger than ", limit,
                                                 " bytes, the most a board of at most ",
                                                 kMaxBoardSize, " rows takes in its format"));
}

// An open input file, or stdin for "-".
class InputFile {
 public:
  static absl::StatusOr<InputFile> Open(const std::string& path) {
    if (path == "-") return InputFile(STDIN_FILENO, "stdin");
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot open ", path, ": ", std::strerror(errno)));
    }
    return InputFile(fd, path);
  }

  InputFile(InputFile&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), name_(std::move(other.name_)) {}
  InputFile& operator=(InputFile&&) = delete;
  ~InputFile() {
    if (fd_ > STDIN_FILENO) close(fd_);
  }

  // "stdin" or the path.
  const std::string& name() const { return name_; }
  int fd() const { return fd_; }

  // The size of a regular file; nullopt for pipes and terminals.
  std::optional<uint64_t> size() const {
    struct stat info;
    if (fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
    return static_cast<uint64_t>(info.st_size);
  }

  // Up to `size` bytes into `buffer`; 0 at the end of the input.
  absl::StatusOr<size_t> Read(char* buffer, size_t size) {
    ssize_t got;
    do {
      got = read(fd_, buffer, size);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read ", name_, ": ", std::strerror(errno)));
    }
    return static_cast<size_t>(got);
  }

 private:
  InputFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

  int fd_;
  std::string name_;
};

// The text of an input. A regular file is mapped into memory rather than
// read: no copy, and no fresh memory to fault in, which at 10^8 rows (900 MB
// of text) is most of the cost of reading. Anything else is read.
class InputText {
 public:
  static absl::StatusOr<InputText> Load(InputFile& file, ProgressBar* progress);

  InputText(InputText&& other) noexcept
      : mapping_(std::exchange(other.mapping_, nullptr)),
        mapped_size_(other.mapped_size_),
        read_(std::move(other.read_)) {}
  InputText& operator=(InputText&&) = delete;
  ~InputText() {
    if (mapping_ != nullptr) munmap(mapping_, mapped_size_);
  }

  absl::string_view view() const {
    if (mapping_ == nullptr) return read_;
    return absl::string_view(static_cast<const char*>(mapping_), mapped_size_);
  }

 private:
  InputText() = default;

  void* mapping_ = nullptr;
  size_t mapped_size_ = 0;
  std::string read_;  // when not mapped
};

// Reads the rest of `file` into `storage` (a std::string, or Columns for a
// binary board) and returns the number of bytes read; `storage` then holds
// ceil(bytes / element size) elements. A regular file is read into storage
// sized once from its length; other inputs grow it by doubling. More than
// `limit` bytes is an error naming the input.
template <typename Storage>
absl::StatusOr<uint64_t> ReadAll(InputFile& file, Storage& storage, uint64_t limit,
                                 ProgressBar* progress) {
  constexpr size_t kElementSize = sizeof(typename Storage::value_type);
  const std::optional<uint64_t> size = file.size();
  if (size && *size > limit) return TooLarge(file.name(), limit);
  ProgressPhase phase(progress, "reading", size.value_or(0), "bytes");
  // One element more than the file needs, so that reaching its end never
  // grows the storage.
  storage.resize(size ? *size / kElementSize + 1 : kFirstBufferSize / kElementSize);
  uint64_t bytes = 0;
  while (true) {
    if (bytes == storage.size() * kElementSize) {
      // Never past one element beyond the limit: that is enough to see it
      // passed.
      storage.resize(std::min<uint64_t>(storage.size() * 2, limit / kElementSize + 1));
    }
    char* const data = reinterpret_cast<char*>(storage.data());
    const size_t room = storage.size() * kElementSize - bytes;
    absl::StatusOr<size_t> got = file.Read(data + bytes, std::min(room, kReadSize));
    if (!got.ok()) return got.status();
    if (*got == 0) break;
    bytes += *got;
    if (bytes > limit) return TooLarge(file.name(), limit);
    phase.Advance(*got);
  }
  storage.resize((bytes + kElementSize - 1) / kElementSize);
  return bytes;
}

absl::StatusOr<InputText> InputText::Load(InputFile& file, ProgressBar* progress) {
  InputText text;
  const std::optional<uint64_t> size = file.size();
  if (size && *size > kMaxTextInputBytes) return TooLarge(file.name(), kMaxTextInputBytes);
  if (size && *size > 0) {
    // MAP_POPULATE reads the whole file now, under the progress phase.
    ProgressPhase reading(progress, "reading", 0);
    void* mapping = mmap(nullptr, *size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.fd(), 0);
    if (mapping != MAP_FAILED) {
      text.mapping_ = mapping;
      text.mapped_size_ = *size;
      return text;
    }
  }
  absl::StatusOr<uint64_t> read = ReadAll(file, text.read_, kMaxTextInputBytes, progress);
  if (!read.ok()) return read.status();
  return text;
}

// A parse error, prefixed with the input's name (read errors name it
// already).
absl::StatusOr<Board> Named(const InputFile& file, absl::StatusOr<Board> board) {
  if (board.ok()) return board;
  return absl::InvalidArgumentError(absl::StrCat(file.name(), ": ", board.status().message()));
}

// Binary boards are read straight into the board's memory; text is parsed
// where it was loaded and dropped.
absl::StatusOr<Board> ReadBoard(InputFile& file, BoardFormat format, ProgressBar* progress) {
  if (format == BoardFormat::kBinary) {
    Columns values;
    absl::StatusOr<uint64_t> size = ReadAll(file, values, kMaxBinaryInputBytes, progress);
    if (!size.ok()) return size.status();
    return Named(file, ParseBinaryBoard(std::move(values), *size));
  }
  absl::StatusOr<InputText> text = InputText::Load(file, progress);
  if (!text.ok()) return text.status();
  ProgressPhase parsing(progress, "parsing", 0);
  return Named(file, ParseBoard(text->view(), format));
}

}  // namespace

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  absl::StatusOr<InputFile> file = InputFile::Open(path);
  if (!file.ok()) return file.status();
  std::string text;
  absl::StatusOr<uint64_t> size = ReadAll(*file, text, kMaxTextInputBytes, nullptr);
  if (!size.ok()) return size.status();
  return text;
}

absl::StatusOr<Board> LoadBoard(const std::string& path, BoardFormat format,
                                ProgressBar* progress) {
  absl::StatusOr<InputFile> file = InputFile::Open(path);
  if (!file.ok()) return file.status();
  if (format == BoardFormat::kAuto) format = FormatFromPath(path);
  return ReadBoard(*file, format, progress);
}

}  // namespace nqueens::client
