// The CLI's human-readable output. The board itself goes out through
// board_io's WriteBoard; this is everything around it: the outcome line with
// its stats, the drawn board, the validation report.
//
// Where it goes: the board alone on stdout (or --output), so that it can be
// piped into another command (`nqueens solve 8 | nqueens validate -`); the
// outcome line and, for n <= kMaxDrawnSize, the drawn board on stderr, both
// left out by --quiet. The validation report is validate's result and goes to
// stdout (or --output).
#ifndef NQUEENS_CLIENT_OUTPUT_RENDER_H_
#define NQUEENS_CLIENT_OUTPUT_RENDER_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "nqueens/count.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

namespace nqueens::client {

// Boards up to this size are also drawn.
inline constexpr uint64_t kMaxDrawnSize = 64;

// One line: the outcome and a short summary of the stats, e.g.
// "SOLVED n=8 seed=42 backtracks=3 restarts=0 time=1.250ms method=RANDOM",
// then what the method reports (formula, repairs, nodes, generations).
std::string OutcomeLine(const CompletionResult& result, uint64_t n);

// count's summary on stderr: "n=8 solutions=92 fundamental=12 nodes=1965
// time=0.001s".
std::string CountLine(const CountResult& result, uint64_t n);

// A full board as one line of its columns, for enumerate: "2 4 1 3".
std::string QLine(absl::Span<const uint32_t> columns);

// The board as rows of `Q` and `.` cells separated by spaces; the queens in
// `conflicts` are drawn as `X`. When `given` (empty, or of the same size)
// holds a queen, the queens not in it are drawn as `q`, and a line under the
// drawing says so: the terminal's counterpart of BoardSvg's colours.
std::string DrawBoard(absl::Span<const uint32_t> columns, absl::Span<const uint32_t> given = {},
                      absl::Span<const Conflict> conflicts = {});

// The validation report, one "name: value" per line, then up to the report's
// first conflicts, one per line.
std::string ValidationText(const ValidationReport& report);

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_OUTPUT_RENDER_H_
