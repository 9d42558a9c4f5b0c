// O(n) validation of a board (Grigoryan 2019, section 3): one column array
// and two diagonal control arrays indexed r = n + j - i and t = i + j.
#ifndef NQUEENS_VALIDATE_H_
#define NQUEENS_VALIDATE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "nqueens/board.h"
#include "nqueens/stop.h"

namespace nqueens {

// The line along which two queens attack each other.
enum class AttackLine { kColumn, kDiagonal, kAntiDiagonal };

// Two queens on one line: `first` is the topmost queen of that line, `second`
// a later queen on it.
struct Conflict {
  Queen first;
  Queen second;
  AttackLine line = AttackLine::kColumn;
};

struct ValidationReport {
  uint64_t n = 0;
  bool valid = false;     // no two queens attack each other
  bool complete = false;  // valid and a queen in every row
  uint64_t queen_count = 0;
  // Pairs of queens that attack each other: a line holding c queens
  // contributes c(c-1)/2 (counted from per-line frequencies, in O(n)).
  uint64_t attacking_pairs = 0;
  // The first few conflicting pairs, in row order of their second queen.
  std::vector<Conflict> conflicts;
};

struct ValidateOptions {
  size_t max_conflicts = 10;
  // Validation is O(n), long on the largest boards (docs/constants.md,
  // ValidateOptions::stop).
  StopCondition stop;
};

// Validates a dense board (n = columns.size()). Attacks are reported, not
// errors; the error cases are a malformed board: INVALID_ARGUMENT for n == 0
// or a column above n (naming the row), and DEADLINE_EXCEEDED or CANCELLED
// when options.stop fires.
absl::StatusOr<ValidationReport> Validate(absl::Span<const uint32_t> columns,
                                          const ValidateOptions& options = {});

// For inputs that must be compositions (Complete): OK when the board is well
// formed and no two queens attack each other, otherwise INVALID_ARGUMENT whose
// message names the first attacking pair by rows and columns.
absl::Status CheckComposition(absl::Span<const uint32_t> columns);

// A one-line description of a conflict, e.g.
// "queens at (row 2, column 3) and (row 5, column 6) share a diagonal".
std::string DescribeConflict(const Conflict& conflict);

}  // namespace nqueens

#endif  // NQUEENS_VALIDATE_H_
