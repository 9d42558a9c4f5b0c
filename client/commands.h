// The CLI's commands -- solve, complete, validate, count, enumerate -- from
// their argument to
// the output and the exit status. main.cc turns flags into CommandOptions and
// picks the backend; everything after that happens here.
#ifndef NQUEENS_CLIENT_COMMANDS_H_
#define NQUEENS_CLIENT_COMMANDS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "client/backends/backend.h"
#include "client/boards/board_io.h"
#include "nqueens/solver.h"

namespace nqueens::client {

enum ExitCode : int {
  kExitOk = 0,         // SOLVED; validate: no attacks; health: SERVING
  kExitRejected = 1,   // UNSOLVABLE; validate: attacks; complete: the input
                       // has attacking queens (the backend's INVALID_ARGUMENT);
                       // health: NOT_SERVING
  kExitUsage = 2,      // bad flags or arguments, unreadable or unparsable
                       // input, output that cannot be written
  kExitFailure = 3,    // the server is unreachable or failed, a deadline
                       // passed, any other backend error
  kExitUndecided = 4,  // UNDECIDED
  kExitLimit = 5,      // RESOURCE_EXHAUSTED: beyond a limit that the CLI or
                       // the server chose (and names), or the server is busy
};

ExitCode ExitCodeFor(Outcome outcome);
// For an error a backend returned: kExitUsage for one marked with
// kUsageErrorPayload, kExitRejected for INVALID_ARGUMENT (input shape errors
// are caught while parsing, so what the backend rejects is the position
// itself), kExitLimit for RESOURCE_EXHAUSTED, kExitFailure for everything
// else.
ExitCode ExitCodeFor(const absl::Status& backend_error);

struct CommandOptions {
  RunOptions run;
  SolveMethod method = SolveMethod::kConstructive;
  BoardFormat input_format = BoardFormat::kAuto;
  BoardFormat output_format = BoardFormat::kQArray;
  std::string output_path;  // empty: stdout
  bool quiet = false;       // nothing on stderr but errors
  // --json: the result as one JSON object (client/output/json_output.h)
  // instead of the board or report, to --output or stdout.
  bool json = false;
  // complete --batch: FILE holds many compositions (batch.h).
  bool batch = false;
  // --picture: where the board goes as an SVG image (empty: nowhere).
  std::string picture_path;
  uint64_t limit = 0;  // enumerate: the most boards to print; 0: all
  // complete: where an UNSOLVABLE answer's certificate goes (empty: none
  // asked for).
  std::string certificate_path;
  // --parts K without --part-index: the backend cuts the job into K parts
  // (client/parts/parts_backend.h) and writes the parts' certificates
  // itself; 0: one call. (--part-index I runs one call for run.part =
  // {I, K}.)
  uint64_t parts = 0;
};

// Each command takes its one positional argument: N for solve, a file name
// ("-" for stdin) for complete and validate. They return the exit status.
int RunSolve(Backend& backend, const std::string& n_argument, const CommandOptions& options);
int RunComplete(Backend& backend, const std::string& input_path, const CommandOptions& options);
int RunValidate(Backend& backend, const std::string& input_path, const CommandOptions& options);
// count and enumerate take N (the empty board) or a file.
int RunCount(Backend& backend, const std::string& n_or_path, const CommandOptions& options);
int RunEnumerate(Backend& backend, const std::string& n_or_path, const CommandOptions& options);

// Prints "nqueens: <message>" as one line on stderr and returns `code`; after
// ReportErrorsAsJson(true) (--json), an ErrorJson object on stdout instead.
int ReportError(ExitCode code, absl::string_view message);
void ReportErrorsAsJson(bool json);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_COMMANDS_H_
