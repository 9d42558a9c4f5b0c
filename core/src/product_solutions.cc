#include <cstdint>
#include <optional>
#include <vector>

#include "huge_pages.h"
#include "known_solutions.h"
#include "modular_fit.h"
#include "nqueens/solver.h"

namespace nqueens::internal {
namespace {

// The inner sizes N of the products of the n x n board: divisors of n with
// modular placements (N >= 5, prime to 6) and a base M = n / N >= 4.
std::vector<uint32_t> InnerSizes(uint32_t n) {
  std::vector<uint32_t> sizes;
  for (uint64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    for (const uint64_t inner : {d, n / d}) {
      if (inner >= 5 && inner % 2 != 0 && inner % 3 != 0 && n / inner >= 4 &&
          (sizes.empty() || sizes.back() != inner)) {
        sizes.push_back(static_cast<uint32_t>(inner));
      }
    }
  }
  return sizes;
}

// What the queens say of a product with inner size N: row (i - 1) N + j
// holds column N (A[i] - 1) + B[j]. The base's queens so far, and the fit
// of the inner ones.
struct ProductFit {
  Columns base;
  ModularFit inner;
};

// Nullopt once two queens contradict a product with inner size N.
absl::StatusOr<std::optional<ProductFit>> Fit(const Columns& composition, uint32_t inner,
                                              StopPoller& stop) {
  const auto n = static_cast<uint32_t>(composition.size());
  ProductFit fit{Columns(n / inner, kEmptyRow), ModularFit(inner)};
  for (size_t first = 0; first < n; first += StopPoller::kRowsPerPoll) {
    if (stop.CheckNow()) return stop.status();
    const size_t last = std::min<size_t>(n, first + StopPoller::kRowsPerPoll);
    for (size_t row = first; row < last; ++row) {
      if (composition[row] == kEmptyRow) continue;
      const uint32_t column = composition[row] - 1;
      uint32_t& base = fit.base[row / inner];
      if (base != kEmptyRow && base != column / inner + 1) return std::nullopt;
      base = column / inner + 1;
      if (!fit.inner.Add(row % inner + 1, column % inner + 1)) return std::nullopt;
    }
  }
  return fit;
}

// The product of base solution A and inner placement B, in polled stretches.
absl::StatusOr<Columns> Product(const Columns& base, const Modular& inner, uint32_t size,
                                StopPoller& stop) {
  const auto n = static_cast<uint32_t>(base.size() * size);
  Columns board;
  ReserveHuge(board, n);
  const bool done = RunInStretches(0, n, stop, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      board.push_back(size * (base[row / size] - 1) + inner.Column(row % size + 1, size));
    }
  });
  if (!done) return stop.status();
  return board;
}

}  // namespace

absl::StatusOr<std::optional<Columns>> CompleteFromProduct(const Columns& composition,
                                                           StopPoller& stop) {
  const auto n = static_cast<uint32_t>(composition.size());
  for (const uint32_t inner : InnerSizes(n)) {
    absl::StatusOr<std::optional<ProductFit>> fit = Fit(composition, inner, stop);
    if (!fit.ok()) return fit.status();
    if (!fit->has_value()) continue;
    const std::optional<Modular> placement = (*fit)->inner.Solution();
    if (!placement.has_value()) continue;
    // Any solution of the base will do: complete its queens as a board of
    // its own (attacking ones are INVALID_ARGUMENT there: no product).
    CompletionOptions options;
    options.stop = stop.condition();
    absl::StatusOr<CompletionResult> base = Complete(std::move((*fit)->base), options);
    if (!base.ok() && !stop.CheckNow() &&
        base.status().code() == absl::StatusCode::kInvalidArgument) {
      continue;
    }
    if (!base.ok()) return base.status();
    if (base->outcome != Outcome::kSolved) continue;
    return Product(base->columns, *placement, inner, stop);
  }
  return std::nullopt;
}

}  // namespace nqueens::internal
