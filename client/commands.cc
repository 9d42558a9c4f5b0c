#include "client/commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "client/batch.h"
#include "client/output/json_output.h"
#include "client/output/picture.h"
#include "client/output/progress.h"
#include "client/output/render.h"

namespace nqueens::client {
namespace {

bool errors_as_json = false;  // ReportErrorsAsJson

// Prints an error in the form asked for; returns `exit_code`.
int PrintError(ExitCode exit_code, absl::StatusCode code, absl::string_view message,
               absl::string_view request_id) {
  if (errors_as_json) {
    const std::string json = ErrorJson(code, message, request_id);
    std::fwrite(json.data(), 1, json.size(), stdout);
    return exit_code;
  }
  std::string line = absl::StrCat("nqueens: ", message);
  if (!request_id.empty()) absl::StrAppend(&line, " (request id ", request_id, ")");
  std::fprintf(stderr, "%s\n", line.c_str());
  return exit_code;
}

std::string DescribeBackendError(const absl::Status& error) {
  if (error.GetPayload(kUsageErrorPayload).has_value()) return std::string(error.message());
  switch (error.code()) {
    case absl::StatusCode::kInvalidArgument:
      return absl::StrCat("board rejected: ", error.message());
    case absl::StatusCode::kDeadlineExceeded:
      return "deadline exceeded";
    case absl::StatusCode::kResourceExhausted:
      return absl::StrCat("limit exceeded: ", error.message());
    case absl::StatusCode::kUnavailable:      // names the server already
    case absl::StatusCode::kUnauthenticated:  // says which token problem
      return std::string(error.message());
    default:
      return absl::StrCat(absl::StatusCodeToString(error.code()), ": ", error.message());
  }
}

// A remote call's error ends with its request id, by which the server's log
// finds the call.
int ReportBackendError(const absl::Status& error) {
  const auto request_id = error.GetPayload(kRequestIdPayload);
  return PrintError(ExitCodeFor(error), error.code(), DescribeBackendError(error),
                    request_id.has_value() ? std::string(*request_id) : "");
}

void WriteText(std::FILE* file, absl::string_view text) {
  std::fwrite(text.data(), 1, text.size(), file);
}

// Writes a command's result to the --output file, or stdout.
absl::Status WriteOutput(const std::string& path, const std::function<void(std::FILE*)>& write) {
  const bool to_stdout = path.empty();
  const std::string name = to_stdout ? "stdout" : path;
  std::FILE* file = to_stdout ? stdout : std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open ", name, ": ", std::strerror(errno)));
  }
  write(file);
  bool failed = std::ferror(file) != 0;
  failed |= (to_stdout ? std::fflush(file) : std::fclose(file)) != 0;
  if (failed) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write ", name, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// Writes the board in the output format, showing a "writing" phase.
void WriteBoardTo(std::FILE* file, absl::Span<const uint32_t> columns,
                  const CommandOptions& options) {
  const bool binary = options.output_format == BoardFormat::kBinary;
  ProgressPhase phase(options.run.progress, "writing",
                      binary ? columns.size() * sizeof(uint32_t) : 0, "bytes");
  WriteBoard(columns, options.output_format, [&](absl::string_view piece) {
    WriteText(file, piece);
    phase.Advance(piece.size());
  });
}

// --picture's size limit, checked before any work.
absl::Status CheckPicture(const CommandOptions& options, uint64_t n) {
  if (options.picture_path.empty() || n <= kMaxPictureSize) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--picture draws boards of at most ", kMaxPictureSize, " rows, not ", n));
}

// --picture: `columns` as an SVG image, `given` and `conflicts` marked.
absl::Status WritePicture(const CommandOptions& options, absl::Span<const uint32_t> columns,
                          absl::Span<const uint32_t> given, absl::Span<const Conflict> conflicts) {
  if (options.picture_path.empty()) return absl::OkStatus();
  return WriteOutput(options.picture_path, [&](std::FILE* file) {
    WriteText(file, BoardSvg(columns, given, conflicts));
  });
}

// The input's queens, dense, when --picture or the drawing on stderr will
// show them.
Columns GivenForDrawing(const Board& board, const CommandOptions& options) {
  if (options.picture_path.empty() && (options.quiet || board.n > kMaxDrawnSize)) return {};
  Board copy = board;
  if (!MakeDense(copy).ok()) return {};  // the backend refuses such a board
  return copy.columns;
}

// The common end of solve and complete: the outcome line, the drawing, the
// picture and the board. `given` is the input (empty for solve).
int FinishCompletion(const CompletionResult& result, uint64_t n, const CommandOptions& options,
                     absl::Span<const uint32_t> given) {
  if (!options.quiet) WriteText(stderr, OutcomeLine(result, n));
  const bool solved = result.outcome == Outcome::kSolved;
  if (solved || !given.empty()) {
    const absl::Status drawn =
        WritePicture(options, solved ? absl::MakeConstSpan(result.columns) : given, given, {});
    if (!drawn.ok()) return ReportError(kExitUsage, drawn.message());
  }
  if (options.json) {
    const absl::Status written = WriteOutput(options.output_path, [&](std::FILE* file) {
      WriteText(file, CompletionJson(result, n, options.run.part));
    });
    if (!written.ok()) return ReportError(kExitUsage, written.message());
    return ExitCodeFor(result.outcome);
  }
  if (result.outcome != Outcome::kSolved) return ExitCodeFor(result.outcome);
  if (!options.quiet && n <= kMaxDrawnSize) {
    WriteText(stderr, DrawBoard(result.columns, given));
  }
  const absl::Status written = WriteOutput(
      options.output_path, [&](std::FILE* file) { WriteBoardTo(file, result.columns, options); });
  if (!written.ok()) return ReportError(kExitUsage, written.message());
  return kExitOk;
}

// N (the empty N x N board) or a board file.
absl::StatusOr<Board> BoardFromArgument(const std::string& n_or_path,
                                        const CommandOptions& options) {
  uint64_t n = 0;
  if (!absl::SimpleAtoi(n_or_path, &n)) {
    return LoadBoard(n_or_path, options.input_format, options.run.progress);
  }
  if (absl::Status size = CheckBoardSize(n); !size.ok()) return size;
  Board board;
  board.n = n;
  return board;
}

// --variant picks a member of the explicit families for n: a number out of
// their range is a usage error, found before any work.
absl::Status CheckFormulaVariant(uint64_t n, const CommandOptions& options) {
  if (options.method != SolveMethod::kFormula) return absl::OkStatus();
  const uint64_t variants = FormulaVariantCount(static_cast<uint32_t>(n));
  if (options.run.formula_variant < variants || variants == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("--variant must be 0..", variants - 1, " for n = ",
                                                 n, ", not ", options.run.formula_variant));
}

}  // namespace

ExitCode ExitCodeFor(Outcome outcome) {
  switch (outcome) {
    case Outcome::kSolved:
      return kExitOk;
    case Outcome::kUnsolvable:
      return kExitRejected;
    case Outcome::kUndecided:
      break;
  }
  return kExitUndecided;
}

ExitCode ExitCodeFor(const absl::Status& backend_error) {
  if (backend_error.GetPayload(kUsageErrorPayload).has_value()) return kExitUsage;
  switch (backend_error.code()) {
    case absl::StatusCode::kInvalidArgument:
      return kExitRejected;
    case absl::StatusCode::kResourceExhausted:
      return kExitLimit;
    default:
      return kExitFailure;
  }
}

int ReportError(ExitCode code, absl::string_view message) {
  return PrintError(
      code, code == kExitFailure ? absl::StatusCode::kUnknown : absl::StatusCode::kInvalidArgument,
      message, "");
}

void ReportErrorsAsJson(bool json) { errors_as_json = json; }

int RunSolve(Backend& backend, const std::string& n_argument, const CommandOptions& options) {
  uint64_t n = 0;
  if (!absl::SimpleAtoi(n_argument, &n)) {
    return ReportError(kExitUsage,
                       absl::StrCat("N must be a positive integer, not \"", n_argument, "\""));
  }
  absl::Status usable = CheckBoardSize(n);
  if (usable.ok()) usable = CheckFormulaVariant(n, options);
  if (usable.ok() && !options.json) usable = CheckOutputFormat(n, options.output_format);
  if (usable.ok()) usable = CheckPicture(options, n);
  if (!usable.ok()) return ReportError(kExitUsage, usable.message());

  absl::StatusOr<CompletionResult> result =
      backend.Solve(static_cast<uint32_t>(n), options.method, options.run);
  if (!result.ok()) return ReportBackendError(result.status());
  return FinishCompletion(*result, n, options, {});
}

int RunComplete(Backend& backend, const std::string& input_path, const CommandOptions& options) {
  if (options.batch) return RunBatch(backend, input_path, options);
  absl::StatusOr<Board> board = LoadBoard(input_path, options.input_format, options.run.progress);
  if (!board.ok()) return ReportError(kExitUsage, board.status().message());
  const uint64_t n = board->n;
  if (absl::Status usable = CheckOutputFormat(n, options.output_format);
      !usable.ok() && !options.json) {
    return ReportError(kExitUsage, usable.message());
  }
  if (absl::Status usable = CheckPicture(options, n); !usable.ok()) {
    return ReportError(kExitUsage, usable.message());
  }
  const Columns given = GivenForDrawing(*board, options);
  absl::StatusOr<CompletionResult> result = backend.Complete(*std::move(board), options.run);
  if (!result.ok()) return ReportBackendError(result.status());
  // A job of parts wrote each part's certificate as it came.
  const bool certificate_written = options.parts != 0 && result->certificate_missing.empty();
  if (!options.certificate_path.empty() && result->outcome == Outcome::kUnsolvable &&
      !certificate_written) {
    if (!result->certificate.has_value()) {
      return ReportError(kExitRejected, absl::StrCat("unsolvable, but no certificate: ",
                                                     result->certificate_missing));
    }
    const absl::Status written = WriteOutput(
        options.certificate_path, [&](std::FILE* file) { WriteText(file, *result->certificate); });
    if (!written.ok()) return ReportError(kExitUsage, written.message());
  }
  return FinishCompletion(*result, n, options, given);
}

int RunValidate(Backend& backend, const std::string& input_path, const CommandOptions& options) {
  absl::StatusOr<Board> board = LoadBoard(input_path, options.input_format, options.run.progress);
  if (!board.ok()) return ReportError(kExitUsage, board.status().message());
  if (absl::Status usable = CheckPicture(options, board->n); !usable.ok()) {
    return ReportError(kExitUsage, usable.message());
  }
  // The drawing on stderr and the picture show the board with its conflicts.
  const bool drawn = !options.quiet && board->n <= kMaxDrawnSize;
  Columns columns;
  if (drawn || !options.picture_path.empty()) {
    Board copy = *board;
    if (MakeDense(copy).ok()) columns = std::move(copy.columns);
  }
  absl::StatusOr<ValidationReport> report = backend.Validate(*std::move(board), options.run);
  if (!report.ok()) return ReportBackendError(report.status());
  if (drawn && !columns.empty()) WriteText(stderr, DrawBoard(columns, {}, report->conflicts));
  if (absl::Status picture = WritePicture(options, columns, columns, report->conflicts);
      !picture.ok()) {
    return ReportError(kExitUsage, picture.message());
  }
  const absl::Status written = WriteOutput(options.output_path, [&](std::FILE* file) {
    WriteText(file, options.json ? ValidationJson(*report) : ValidationText(*report));
  });
  if (!written.ok()) return ReportError(kExitUsage, written.message());
  return report->valid ? kExitOk : kExitRejected;
}

int RunCount(Backend& backend, const std::string& n_or_path, const CommandOptions& options) {
  absl::StatusOr<Board> board = BoardFromArgument(n_or_path, options);
  if (!board.ok()) return ReportError(kExitUsage, board.status().message());
  const uint64_t n = board->n;
  absl::StatusOr<CountResult> result = backend.Count(*std::move(board), options.run);
  if (!result.ok()) return ReportBackendError(result.status());
  if (!options.quiet) WriteText(stderr, CountLine(*result, n));
  const absl::Status written = WriteOutput(options.output_path, [&](std::FILE* file) {
    WriteText(file, options.json ? CountJson(*result, n, options.run.part)
                                 : absl::StrCat(result->solutions, "\n"));
  });
  if (!written.ok()) return ReportError(kExitUsage, written.message());
  return kExitOk;
}

int RunEnumerate(Backend& backend, const std::string& n_or_path, const CommandOptions& options) {
  absl::StatusOr<Board> board = BoardFromArgument(n_or_path, options);
  if (!board.ok()) return ReportError(kExitUsage, board.status().message());
  absl::StatusOr<uint64_t> printed;
  const absl::Status written = WriteOutput(options.output_path, [&](std::FILE* file) {
    printed = backend.Enumerate(
        *std::move(board), options.limit, options.run, [&](const Columns& solution) {
          WriteText(file, options.json ? BoardJson(solution, options.run.part) : QLine(solution));
          return std::ferror(file) == 0;
        });
  });
  if (!printed.ok()) return ReportBackendError(printed.status());
  if (!written.ok()) return ReportError(kExitUsage, written.message());
  if (!options.quiet) WriteText(stderr, absl::StrCat(*printed, " boards\n"));
  return kExitOk;
}

}  // namespace nqueens::client
