#include "client/batch.h"

#include <google/protobuf/util/json_util.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "client/output/json_output.h"
#include "command_line/flag_file.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/convert.h"

namespace nqueens::client {
namespace {

// An item has at most 65,536 rows, whose JSON takes at most about 2.3 MB
// (queens listed one by one, about 35 bytes each): a longer line is no item,
// and without a bound a line that never ends (/dev/zero) would be read until
// memory ran out.
constexpr size_t kMaxLineBytes = size_t{16} << 20;

enum class LineRead { kLine, kEnd, kTooLong };

// The next line of `input`, without its newline, into `line`; kTooLong once
// it passes kMaxLineBytes.
LineRead ReadLine(std::istream& input, std::string& line) {
  line.clear();
  char chunk[16 << 10];
  while (true) {
    // Stops after a newline (counted in gcount, not stored), at the end of
    // the input, or with a full chunk (failbit alone).
    input.getline(chunk, sizeof chunk);
    const auto got = static_cast<size_t>(input.gcount());
    if (input.eof()) {
      line.append(chunk, got);
      if (line.size() > kMaxLineBytes) return LineRead::kTooLong;
      return line.empty() ? LineRead::kEnd : LineRead::kLine;
    }
    if (input.bad()) return LineRead::kEnd;
    if (!input.fail()) {
      line.append(chunk, got - 1);
      return line.size() > kMaxLineBytes ? LineRead::kTooLong : LineRead::kLine;
    }
    line.append(chunk, got);
    if (line.size() > kMaxLineBytes) return LineRead::kTooLong;
    input.clear();
  }
}

// No CompleteRequest nests an array in an array (columns holds numbers,
// queens objects) or goes deeper than kMaxJsonDepth; protobuf's JSON parser
// took "columns": [[]] and arrays nested 100,000 deep for the empty board.
constexpr size_t kMaxJsonDepth = 8;

absl::Status CheckJsonShape(absl::string_view json) {
  std::vector<char> open;  // the containers around the current character
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '[' && !open.empty() && open.back() == '[') {
      return absl::InvalidArgumentError(absl::StrCat(
          "an array inside an array at byte ", i + 1,
          " (\"columns\" holds numbers, \"queens\" objects with \"row\" and \"column\")"));
    }
    if (c == '[' || c == '{') {
      open.push_back(c);
      if (open.size() > kMaxJsonDepth) {
        return absl::InvalidArgumentError(
            absl::StrCat("nested deeper than ", kMaxJsonDepth, " at byte ", i + 1));
      }
    }
    if ((c == ']' || c == '}') && !open.empty()) open.pop_back();
  }
  return absl::OkStatus();
}

// The options of a line's CompleteRequest over the batch's, `options`: the
// fields the line sets (a limit or the seed, when given; the method, when
// it names one), and those that belong to one item (certificate, part).
// Refused as a server refuses them.
absl::Status SetItemOptions(const v1::CompleteRequest& request, RunOptions& options) {
  absl::StatusOr<CompleteMethod> method = wire::CompleteMethodFromProto(request.method());
  if (!method.ok()) return method.status();
  absl::StatusOr<CertificateFormat> format =
      wire::CertificateFormatFromProto(request.certificate_format());
  if (!format.ok()) return format.status();
  absl::StatusOr<PartSelector> part =
      wire::PartFromProto(request.part_index(), request.part_count());
  if (!part.ok()) return part.status();
  const v1::Limits& limits = request.limits();
  if (!(limits.max_exact_seconds() >= 0)) {  // also NaN
    return absl::InvalidArgumentError(absl::StrCat(
        "limits.max_exact_seconds must be at least 0, not ", limits.max_exact_seconds()));
  }
  if (request.has_seed()) options.seed = request.seed();
  if (request.method() != v1::COMPLETE_METHOD_UNSPECIFIED) options.complete_method = *method;
  options.want_certificate = request.want_certificate();
  options.certificate_format = *format;
  options.part = *part;
  if (limits.max_backtracks() != 0) options.max_backtracks = limits.max_backtracks();
  if (limits.max_restarts() != 0) options.max_restarts = limits.max_restarts();
  if (limits.max_exact_nodes() != 0) options.max_exact_nodes = limits.max_exact_nodes();
  if (limits.max_exact_seconds() != 0) options.max_exact_seconds = limits.max_exact_seconds();
  return absl::OkStatus();
}

// A line's CompleteRequest as a batch item, its board checked as a server
// checks an item's (at most kStreamingThreshold rows).
absl::StatusOr<BatchItem> ItemFromRequest(const v1::CompleteRequest& request,
                                          const RunOptions& batch) {
  if (absl::Status size = wire::CheckBatchItemSize(request.n()); !size.ok()) return size;
  absl::StatusOr<Columns> board =
      wire::BoardFromRequest(request.n(), request.columns(), request.queens());
  if (!board.ok()) return board.status();
  BatchItem item{Board{request.n(), *std::move(board), {}}, batch};
  if (absl::Status set = SetItemOptions(request, item.options); !set.ok()) return set;
  return item;
}

// An answer's error line, which names the input line it answers.
std::string ErrorJsonOfLine(uint64_t line, const absl::Status& error) {
  return ErrorJson(error.code(), absl::StrCat("line ", line, ": ", error.message()), "");
}

// The lines of the input in order: each either refused while reading (its
// error line) or sent to the backend (nullopt, until its answer comes).
// Reading runs on the backend's thread, answers on this one.
class BatchLines {
 public:
  // Items take `batch`'s options where their lines set none.
  BatchLines(std::istream& input, std::FILE* output, const RunOptions& batch)
      : input_(input), output_(output), batch_(batch) {}

  // The next item; lines that are no item are queued as errors.
  std::optional<BatchItem> Next() {
    std::string line;
    for (LineRead read; (read = ReadLine(input_, line)) != LineRead::kEnd;) {
      ++line_number_;
      if (read == LineRead::kTooLong) {
        input_error_ = absl::StrCat("line ", line_number_, " is longer than ",
                                    command_line::ByteLimitText(kMaxLineBytes),
                                    ", more than any item takes: the rest is not read");
        return std::nullopt;
      }
      absl::StatusOr<BatchItem> item = ParseItem(line);
      absl::MutexLock lock(&mutex_);
      if (item.ok()) {
        pending_.push_back({line_number_, item->composition.n, std::nullopt});
        return *std::move(item);
      }
      pending_.push_back({line_number_, 0, ErrorJsonOfLine(line_number_, item.status())});
    }
    return std::nullopt;
  }

  // The backend's answer to the oldest request not yet answered.
  void Answer(Backend::BatchAnswer answer) {
    absl::MutexLock lock(&mutex_);
    WriteErrorsLocked();
    if (pending_.empty()) return;  // a backend that answers too much
    const Pending answered = pending_.front();
    pending_.pop_front();
    if (answer.ok()) {
      Write(BatchAnswerJson(*answer, answered.n));
    } else {
      ++refused_;
      Write(ErrorJsonOfLine(answered.line, answer.status()));
    }
  }

  // After the backend: the error lines after the last answer.
  void Flush() {
    absl::MutexLock lock(&mutex_);
    WriteErrorsLocked();
  }

  // Set when reading stopped before the end of the input (by Next(), on
  // the backend's thread; read after the backend is done).
  const std::string& input_error() const { return input_error_; }

  // After the backend: the lines answered with an error, of all the lines
  // read (lines(), by Next() on the backend's thread).
  uint64_t refused() const {
    absl::MutexLock lock(&mutex_);
    return refused_;
  }
  uint64_t lines() const { return line_number_; }

 private:
  // A line as an item: a CompleteRequest in the proto's JSON mapping.
  absl::StatusOr<BatchItem> ParseItem(const std::string& line) const {
    // A blank line is answered too (as an error): the answers stay one per
    // input line, so that the n-th answer is the n-th line's.
    if (absl::StripAsciiWhitespace(line).empty()) {
      return absl::InvalidArgumentError("an empty line, not a CompleteRequest");
    }
    if (absl::Status shape = CheckJsonShape(line); !shape.ok()) return shape;
    v1::CompleteRequest request;
    const auto json = google::protobuf::util::JsonStringToMessage(line, &request);
    if (!json.ok()) return absl::InvalidArgumentError(json.message().as_string());
    return ItemFromRequest(request, batch_);
  }

  void WriteErrorsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    while (!pending_.empty() && pending_.front().error.has_value()) {
      ++refused_;
      Write(*pending_.front().error);
      pending_.pop_front();
    }
  }
  void Write(const std::string& json) { std::fwrite(json.data(), 1, json.size(), output_); }

  std::istream& input_;  // read by Next() only
  uint64_t line_number_ = 0;
  std::string input_error_;
  std::FILE* const output_;
  const RunOptions& batch_;
  mutable absl::Mutex mutex_;
  // An input line waiting for its answer (to an item of n rows), or its
  // error line.
  struct Pending {
    uint64_t line;
    uint64_t n;
    std::optional<std::string> error;
  };
  std::deque<Pending> pending_ ABSL_GUARDED_BY(mutex_);
  uint64_t refused_ ABSL_GUARDED_BY(mutex_) = 0;
};

// A batch whose answers all went to stdout would otherwise end with exit
// status 1 and nothing said.
std::string RefusedSummary(uint64_t refused, uint64_t lines) {
  return absl::StrCat(refused, " of ", lines, lines == 1 ? " line" : " lines",
                      refused == 1 ? " was" : " were",
                      " refused (their {\"error\": ...} lines say why)");
}

}  // namespace

int RunBatch(Backend& backend, const std::string& input_path, const CommandOptions& options) {
  std::ifstream file;
  if (input_path != "-") {
    file.open(input_path);
    if (!file) return ReportError(kExitUsage, absl::StrCat("cannot open ", input_path));
  }
  std::istream& input = input_path == "-" ? std::cin : file;
  std::FILE* output = stdout;
  if (!options.output_path.empty()) {
    output = std::fopen(options.output_path.c_str(), "w");
    if (output == nullptr) {
      return ReportError(kExitUsage, absl::StrCat("cannot open ", options.output_path));
    }
  }
  BatchLines lines(input, output, options.run);
  const absl::Status status = backend.CompleteBatch(
      [&] { return lines.Next(); },
      [&](Backend::BatchAnswer answer) { lines.Answer(std::move(answer)); }, options.run);
  lines.Flush();
  const bool written = std::fflush(output) == 0 && std::ferror(output) == 0 &&
                       (output == stdout || std::fclose(output) == 0);
  if (!status.ok()) return ReportError(kExitFailure, status.message());
  if (!written) return ReportError(kExitUsage, "cannot write the answers");
  if (!lines.input_error().empty()) {
    return ReportError(kExitUsage, absl::StrCat(input_path == "-" ? "stdin" : input_path, ": ",
                                                lines.input_error()));
  }
  if (lines.refused() == 0) return kExitOk;
  if (!options.quiet) {
    std::fprintf(stderr, "nqueens: %s\n", RefusedSummary(lines.refused(), lines.lines()).c_str());
  }
  return kExitRejected;
}

}  // namespace nqueens::client
