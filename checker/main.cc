// nqueens-check-certificate BOARD CERTIFICATE [CERTIFICATE...]: checks an
// UNSOLVABLE certificate, or the certificates of the parts of one search
// (either format of docs/reference/certificates.md), against the composition
// they were written for, reading each in chunks. See kAbout for the board
// formats and exit statuses.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "checker/certificate_check.h"
#include "command_line/command_line.h"
#include "command_line/cpu_count.h"

ABSL_FLAG(bool, help, false, "print this help and exit (also -h)");
ABSL_FLAG(bool, version, false, "print the version and exit");
ABSL_FLAG(bool, text, false,
          "print each certificate's tree in the text format on stdout as it is checked (a binary "
          "certificate made readable; the text up to the first error, if any)");
ABSL_FLAG(int, threads, 0,
          "threads that check a certificate, sharing out the subtrees that the search's threads "
          "wrote (each thread reads the file; 0: the CPUs this process may use, by its affinity "
          "mask and cgroup cpu.max)");

namespace {

constexpr int kExitProof = 0;
constexpr int kExitNotAProof = 1;
constexpr int kExitUsage = 2;

// --threads at most: past the processors there is nothing to gain.
constexpr int kMaxThreads = 256;

// The largest board the checker reads: the CLI's and the server's (the core's
// kMaxBoardSize, restated: the checker links no code of the core).
constexpr uint64_t kMaxN = (uint64_t{1} << 31) - 1;

constexpr char kAbout[] =
    R"(usage: nqueens-check-certificate [flags] BOARD CERTIFICATE [CERTIFICATE...]

Checks that CERTIFICATE, written by `nqueens complete --certificate FILE` when
it answered UNSOLVABLE, proves that the composition in BOARD has no
completion. The checker shares no code with the search that wrote it: it
replays the certificate's tree of cases and recomputes every open cell from
the board.

It reads both certificate formats and tells them apart by their first bytes:
the binary one (the default of `nqueens complete`, compressed with zlib) and
the text one (`--certificate-format text`, one record per line). It reads a
certificate in chunks as it checks it: a proof of any size checks in memory
that grows with the board, not with the proof. A binary certificate written
by a search on several threads checks on several too (--threads): each
thread reads the file, and they share out the subtrees of the search's
threads.

An exact search cut into parts (a Complete call's part_index and part_count)
answers UNSOLVABLE with one certificate per part, each of which leaves the
other parts' share to them: given them all, the checker proves the whole
from them together (reading the files one at a time, twice each).

BOARD is a text file in the q format (the column, 1..N, of each row's queen,
0 for an empty row, separated by spaces, commas or line breaks) or the sparse
format (N alone on the first line, then one "row column" line per queen);
'#' starts a comment. Boards have at most {max n} rows.

exit status: 0 the certificates are a proof (a line on stdout says so), 1 they
are not (stderr names the certificate and its first wrong item: in the text
format its line and byte offset, in the binary one its byte offset in the
inflated tree stream (and the bit, in a packed subtree) and the byte offset
of the frame it came from, or its
byte offset in the file outside the tree; the node's path from the root; and
what is wrong there), 2 a usage error or a file that cannot be read or is not
a board (stderr names the file, its line and the limit).

flags:
)";

int UsageError(absl::string_view message) {
  std::fprintf(stderr, "nqueens-check-certificate: %s (see nqueens-check-certificate --help)\n",
               std::string(message).c_str());
  return kExitUsage;
}

// A certificate's source: its file in chunks of kChunkBytes.
constexpr size_t kChunkBytes = 1 << 20;
absl::StatusOr<nqueens::checker::ByteSource> OpenCertificate(const std::string& path) {
  std::shared_ptr<std::FILE> file(std::fopen(path.c_str(), "rb"), [](std::FILE* open) {
    if (open != nullptr) std::fclose(open);
  });
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
  }
  auto chunk = std::make_shared<std::string>(kChunkBytes, '\0');
  return [file, chunk, path]() -> absl::StatusOr<absl::string_view> {
    const size_t size = std::fread(chunk->data(), 1, chunk->size(), file.get());
    if (size == 0 && std::ferror(file.get())) {
      return absl::DataLossError(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
    }
    return absl::string_view(chunk->data(), size);
  };
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path, ": read error"));
  return content.str();
}

// A board file's numbers, by line (lines without numbers left out), each
// with its 1-based line number.
struct NumberLine {
  size_t line;
  std::vector<uint64_t> numbers;
};

absl::StatusOr<std::vector<NumberLine>> Numbers(const std::string& path, const std::string& text) {
  std::vector<NumberLine> lines;
  size_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    NumberLine numbers{line_number, {}};
    for (absl::string_view token :
         absl::StrSplit(line, absl::ByAnyChar(" \t\r,"), absl::SkipEmpty())) {
      uint64_t x = 0;
      if (!absl::SimpleAtoi(token, &x)) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line_number, ": \"", token, "\" is not a number"));
      }
      if (x > kMaxN) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": ", x,
                                                       " is over the largest board size, ", kMaxN));
      }
      numbers.numbers.push_back(x);
    }
    if (!numbers.numbers.empty()) lines.push_back(std::move(numbers));
  }
  return lines;
}

// The board's columns: sparse when the first line is N alone and every other
// line a pair (as the CLI detects it), else a Q array.
absl::StatusOr<std::vector<uint32_t>> ParseBoard(const std::string& path, const std::string& text) {
  absl::StatusOr<std::vector<NumberLine>> lines = Numbers(path, text);
  if (!lines.ok()) return lines.status();
  if (lines->empty())
    return absl::InvalidArgumentError(absl::StrCat(path, ": no board (no numbers)"));
  bool sparse = lines->front().numbers.size() == 1;
  for (size_t i = 1; i < lines->size(); ++i) sparse = sparse && (*lines)[i].numbers.size() == 2;
  std::vector<uint32_t> columns;
  if (sparse) {
    const uint64_t n = lines->front().numbers.front();
    columns.assign(n, 0);
    for (size_t i = 1; i < lines->size(); ++i) {
      const NumberLine& line = (*lines)[i];
      const uint64_t row = line.numbers[0], column = line.numbers[1];
      if (row < 1 || row > n) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line.line, ": row ", row, " is off the board of ", n, " rows"));
      }
      if (columns[row - 1] != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line.line, ": row ", row, " has a queen already"));
      }
      columns[row - 1] = static_cast<uint32_t>(column);
    }
    return columns;
  }
  for (const NumberLine& line : *lines) {
    for (uint64_t x : line.numbers) {
      if (columns.size() == kMaxN) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line.line, ": more rows than the largest board size, ", kMaxN));
      }
      columns.push_back(static_cast<uint32_t>(x));
    }
  }
  return columns;
}

}  // namespace

int main(int argc, char** argv) {
  nqueens::command_line::FlagSources sources;
  sources.defined_in = "checker/main.cc";
  const absl::StatusOr<std::vector<std::string>> arguments =
      nqueens::command_line::ParseFlags(argc, argv, sources);
  if (!arguments.ok()) return UsageError(arguments.status().message());
  if (absl::GetFlag(FLAGS_help)) {
    const std::string help =
        absl::StrCat(absl::StrReplaceAll(kAbout, {{"{max n}", absl::StrCat(kMaxN)}}),
                     nqueens::command_line::FlagHelp("checker/main.cc"));
    std::fputs(help.c_str(), stdout);
    return kExitProof;
  }
  if (absl::GetFlag(FLAGS_version)) {
    std::printf("%s\n", nqueens::command_line::VersionLine("nqueens-check-certificate").c_str());
    return kExitProof;
  }
  if (arguments->size() < 2) {
    return UsageError(absl::StrCat("expected BOARD CERTIFICATE, got ", arguments->size(),
                                   arguments->size() == 1 ? " argument" : " arguments"));
  }
  const std::string& board_path = (*arguments)[0];
  const std::vector<std::string> certificate_paths(arguments->begin() + 1, arguments->end());
  absl::StatusOr<std::vector<uint32_t>> columns;
  absl::StatusOr<std::string> board_text = ReadFile(board_path);
  if (board_text.ok()) columns = ParseBoard(board_path, *board_text);
  const absl::Status board = board_text.ok() ? columns.status() : board_text.status();
  if (!board.ok()) {
    std::fprintf(stderr, "nqueens-check-certificate: %s\n", std::string(board.message()).c_str());
    return kExitUsage;
  }
  nqueens::checker::CheckOptions options;
  const int threads = absl::GetFlag(FLAGS_threads);
  if (threads < 0 || threads > kMaxThreads) {
    return UsageError(absl::StrCat("--threads=", threads,
                                   ": from 0 (the CPUs this process may use) to ", kMaxThreads));
  }
  options.threads = threads > 0 ? threads : nqueens::command_line::UsableCpus();
  if (absl::GetFlag(FLAGS_text)) {
    options.text = [](absl::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  }
  const nqueens::checker::SetVerdict verdict = nqueens::checker::CheckCertificateSet(
      *columns, certificate_paths.size(),
      [&](size_t i) { return OpenCertificate(certificate_paths[i]); }, options);
  if (!verdict.status.ok()) {
    const std::string message(verdict.status.message());
    if (verdict.status.code() != absl::StatusCode::kInvalidArgument) {
      std::fprintf(stderr, "nqueens-check-certificate: %s\n", message.c_str());
      return kExitUsage;
    }
    std::fprintf(stderr, "nqueens-check-certificate: %s: not a proof: %s\n",
                 certificate_paths[verdict.certificate].c_str(), message.c_str());
    return kExitNotAProof;
  }
  std::printf("%s %s that %s has no completion\n", absl::StrJoin(certificate_paths, " ").c_str(),
              certificate_paths.size() == 1 ? "proves" : "prove together", board_path.c_str());
  return kExitProof;
}
