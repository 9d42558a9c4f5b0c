#include "known_solutions.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "construction.h"
#include "formula.h"
#include "huge_pages.h"

namespace nqueens::internal {
namespace {

// One symmetry of the square, as the map from a board cell (r, c) to the cell
// of the construction it must match: optionally mirror the row, mirror the
// column, then swap the two.
struct Symmetry {
  bool mirror_row, mirror_column, transpose;
};

constexpr std::array<Symmetry, 8> kSymmetries = {{{false, false, false},
                                                  {false, true, false},
                                                  {true, false, false},
                                                  {true, true, false},
                                                  {false, false, true},
                                                  {false, true, true},
                                                  {true, false, true},
                                                  {true, true, true}}};

// The placements of the n x n board that every image is tried of: the
// explicit construction and prototypes 1 and 2 of the explicit families
// (prototypes 3 and 4 are the construction's own rows).
constexpr uint32_t kPlacements = 3;

bool PlacementExists(uint32_t placement, uint32_t n) {
  return placement == 0 ? n == 1 || n >= 4 : PrototypeExists(placement, n);
}

uint32_t PlacementColumn(uint32_t placement, uint32_t n, uint32_t row) {
  return placement == 0 ? ConstructedColumn(n, row) : PrototypeColumn(placement, n, row);
}

// Candidate i: placement i / 8 under symmetry i % 8.
constexpr size_t kCandidates = kPlacements * kSymmetries.size();

bool Fits(uint32_t n, uint32_t row, uint32_t column, size_t candidate) {
  const uint32_t placement = static_cast<uint32_t>(candidate / kSymmetries.size());
  const Symmetry& s = kSymmetries[candidate % kSymmetries.size()];
  const uint32_t r = s.mirror_row ? n + 1 - row : row;
  const uint32_t c = s.mirror_column ? n + 1 - column : column;
  return s.transpose ? PlacementColumn(placement, n, c) == r
                     : PlacementColumn(placement, n, r) == c;
}

// The image of a candidate: cell (x, y) of its placement, with r and c undone
// as Fits() applies them. The poller's status once it fires.
absl::StatusOr<Columns> Image(uint32_t n, size_t candidate, StopPoller& stop) {
  const uint32_t placement = static_cast<uint32_t>(candidate / kSymmetries.size());
  const Symmetry& s = kSymmetries[candidate % kSymmetries.size()];
  Columns board;
  ReserveHuge(board, n);
  if (!AppendPolled(board, n, kEmptyRow, stop)) return stop.status();
  const bool done = RunInStretches(1, size_t{n} + 1, stop, [&](size_t first, size_t last) {
    for (uint32_t x = static_cast<uint32_t>(first); x < last; ++x) {
      const uint32_t y = PlacementColumn(placement, n, x);
      const uint32_t r = s.transpose ? y : x;
      const uint32_t c = s.transpose ? x : y;
      const uint32_t row = s.mirror_row ? n + 1 - r : r;
      board[row - 1] = s.mirror_column ? n + 1 - c : c;
    }
  });
  if (!done) return stop.status();
  return board;
}

// Indexed by candidate: whether the composition still fits it.
using Alive = std::array<bool, kCandidates>;

// Rules out the candidates that the queens of rows [first, last) do not fit;
// returns how many are left.
size_t RuleOut(const Columns& composition, size_t first, size_t last, Alive& alive,
               size_t alive_count) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  for (size_t row = first; row < last && alive_count > 0; ++row) {
    const uint32_t column = composition[row - 1];
    if (column == kEmptyRow) continue;
    for (size_t i = 0; i < kCandidates; ++i) {
      if (alive[i] && !Fits(n, static_cast<uint32_t>(row), column, i)) {
        alive[i] = false;
        --alive_count;
      }
    }
  }
  return alive_count;
}

// --- Modular placements: column - 1 = (shift + step * row) mod n. ---
// Every image of one under a symmetry of the square, and every cyclic shift
// of its rows or columns, is one too, so one fit covers them all.
struct Modular {
  uint64_t step = 0, shift = 0;
};

// x^-1 mod m, for x prime to m (extended Euclid).
uint64_t Inverse(uint64_t x, uint64_t m) {
  int64_t a = static_cast<int64_t>(x % m), b = static_cast<int64_t>(m), u = 1, v = 0;
  while (b != 0) {
    const int64_t q = a / b;
    a -= q * b;
    std::swap(a, b);
    u -= q * v;
    std::swap(u, v);
  }
  return static_cast<uint64_t>((u % static_cast<int64_t>(m) + static_cast<int64_t>(m)) %
                               static_cast<int64_t>(m));
}

// The modular placement through every queen of `composition`, if there is
// one and it is a solution (step, step - 1 and step + 1 prime to n). The step
// comes from the first queen and the first later one whose row distance is
// prime to n; queens before that one wait in a short list.
class ModularFit {
 public:
  explicit ModularFit(uint64_t n) : n_(n) {}

  // False once the queens cannot lie on one modular placement.
  bool Add(uint64_t row, uint64_t column) {
    if (!has_first_) {
      has_first_ = true;
      first_row_ = row;
      first_column_ = column - 1;
      return true;
    }
    const uint64_t rows = row - first_row_, columns = (column - 1 + n_ - first_column_) % n_;
    if (has_step_) return step_ * rows % n_ == columns;
    if (std::gcd(rows, n_) != 1) {
      waiting_.push_back({rows, columns});
      return waiting_.size() <= kMaxWaiting;
    }
    step_ = columns * Inverse(rows, n_) % n_;
    has_step_ = true;
    return std::all_of(waiting_.begin(), waiting_.end(),
                       [this](const Offset& o) { return step_ * o.rows % n_ == o.columns; });
  }

  std::optional<Modular> Solution() const {
    if (!has_step_) return std::nullopt;
    const uint64_t step = step_;
    if (std::gcd(step, n_) != 1 || std::gcd(step + 1, n_) != 1 ||
        std::gcd(step + n_ - 1, n_) != 1) {
      return std::nullopt;
    }
    return Modular{step, (first_column_ + n_ - step * first_row_ % n_) % n_};
  }

 private:
  // Queens before the step is known: a composition whose row distances
  // share factors with n this often is not a modular one worth the wait.
  static constexpr size_t kMaxWaiting = 64;
  struct Offset {
    uint64_t rows, columns;
  };

  const uint64_t n_;
  bool has_first_ = false;
  uint64_t first_row_ = 0, first_column_ = 0;
  bool has_step_ = false;
  uint64_t step_ = 0;
  std::vector<Offset> waiting_;
};

absl::StatusOr<std::optional<Columns>> CompleteFromModular(const Columns& composition,
                                                           StopPoller& stop) {
  const uint64_t n = composition.size();
  if (n < 5) return std::nullopt;
  ModularFit fit(n);
  for (size_t first = 1; first <= n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(n + 1, first + StopPoller::kRowsPerPoll);
    for (size_t row = first; row < last; ++row) {
      if (composition[row - 1] != kEmptyRow && !fit.Add(row, composition[row - 1])) {
        return std::nullopt;
      }
    }
  }
  const std::optional<Modular> modular = fit.Solution();
  if (!modular.has_value()) return std::nullopt;
  Columns board;
  ReserveHuge(board, n);
  const bool done = RunInStretches(1, n + 1, stop, [&](size_t first, size_t last) {
    uint64_t residue = (modular->shift + modular->step * first) % n;
    for (size_t row = first; row < last; ++row) {
      board.push_back(static_cast<uint32_t>(residue + 1));
      residue += modular->step;
      if (residue >= n) residue -= n;
    }
  });
  if (!done) return stop.status();
  return board;
}

}  // namespace

absl::StatusOr<std::optional<Columns>> CompleteFromKnownSolution(const Columns& composition,
                                                                 StopPoller& stop) {
  const uint32_t n = static_cast<uint32_t>(composition.size());
  // One pass for all candidates: most inputs rule every one out at the first
  // queen.
  Alive alive;
  size_t alive_count = 0;
  for (size_t i = 0; i < kCandidates; ++i) {
    alive[i] = PlacementExists(static_cast<uint32_t>(i / kSymmetries.size()), n);
    alive_count += alive[i];
  }
  for (size_t first = 1; first <= n && alive_count > 0; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(size_t{n} + 1, first + StopPoller::kRowsPerPoll);
    alive_count = RuleOut(composition, first, last, alive, alive_count);
  }
  for (size_t i = 0; i < kCandidates; ++i) {
    if (alive[i]) return Image(n, i, stop);
  }
  return CompleteFromModular(composition, stop);
}

}  // namespace nqueens::internal
