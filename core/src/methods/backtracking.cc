// Row-by-row backtracking, first solution, columns tried lowest first: the
// first solution in lexicographic order. Up to 64 columns with the bitwise
// left / down / right masks of the survey of constraint-satisfaction
// methods; beyond, with the survey's control arrays (a mark per column and
// per diagonal), which cost a scan of the row per node but whose search
// never gets that far before the node budget anyway (from n = 30 or so
// the first solution takes millions of nodes and more).
#include "methods/backtracking.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/time/clock.h"
#include "base/huge_pages.h"
#include "base/peak_bytes.h"
#include "base/stop_poller.h"

namespace nqueens::internal {
namespace {

// What a search ends with: the board (kSolved), the budget's verdict, or a
// stop of its poller.
struct Search {
  Outcome outcome = Outcome::kUndecided;
  bool stopped = false;
  uint64_t nodes = 0;       // queens placed
  uint64_t backtracks = 0;  // returns to the row above
};

// What the search may spend before it answers UNDECIDED.
struct Budget {
  uint64_t nodes;
  uint64_t backtracks;
};

// Moves `search` from `row` back to the row above; false, with the verdict
// set, when there is none (the tree is exhausted) or the backtracks are
// spent.
bool BackUp(uint32_t& row, const Budget& budget, Search& search) {
  if (row == 0) {
    search.outcome = Outcome::kUnsolvable;
    return false;
  }
  if (search.backtracks == budget.backtracks) return false;
  ++search.backtracks;
  --row;
  return true;
}

// The bitwise search for n <= 64: per row, the columns still free; bit j is
// column j + 1, so the lowest set bit is the lowest column.
Search SearchWithMasks(uint32_t n, const Budget& budget, StopPoller& stop, Columns& columns) {
  const uint64_t full = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  struct Level {
    uint64_t left, down, right, free;
  };
  std::vector<Level> levels(n);
  levels[0] = {0, 0, 0, full};
  Search search;
  uint32_t row = 0;
  while (true) {
    Level& level = levels[row];
    if (level.free == 0) {
      if (!BackUp(row, budget, search)) return search;
      continue;
    }
    if (search.nodes == budget.nodes) return search;
    if (stop.ShouldStop()) {
      search.stopped = true;
      return search;
    }
    const uint64_t bit = level.free & -level.free;
    level.free ^= bit;
    ++search.nodes;
    columns[row] = static_cast<uint32_t>(__builtin_ctzll(bit)) + 1;
    if (row + 1 == n) {
      search.outcome = Outcome::kSolved;
      return search;
    }
    Level& next = levels[row + 1];
    next.left = ((level.left | bit) << 1) & full;
    next.down = level.down | bit;
    next.right = (level.right | bit) >> 1;
    next.free = full & ~(next.left | next.down | next.right);
    ++row;
  }
}

// The array search for any n: a mark per column and per diagonal of each
// kind (row + column, row - column + n - 1); columns[row] is the queen being
// tried in that row (0 before the first).
Search SearchWithArrays(uint32_t n, const Budget& budget, StopPoller& stop, Columns& columns) {
  Search search;
  std::vector<uint8_t> column_used, sum_used, difference_used;
  if (!AppendPolled(column_used, n, 0, stop) || !AppendPolled(sum_used, 2 * size_t{n}, 0, stop) ||
      !AppendPolled(difference_used, 2 * size_t{n}, 0, stop)) {
    search.stopped = true;
    return search;
  }
  const auto mark = [&](uint32_t row, uint32_t column, uint8_t value) {
    column_used[column] = value;
    sum_used[row + column] = value;
    difference_used[row + n - 1 - column] = value;
  };
  uint32_t row = 0;
  while (true) {
    // Columns are 1-based on the board and 0-based in the marks.
    uint32_t column = columns[row];
    if (column != kEmptyRow) mark(row, column - 1, 0);
    const uint32_t from = column;
    while (column < n && (column_used[column] || sum_used[row + column] ||
                          difference_used[row + n - 1 - column])) {
      ++column;
    }
    if (stop.ShouldStop(column - from + 1)) {
      search.stopped = true;
      return search;
    }
    if (column == n) {
      columns[row] = kEmptyRow;
      if (!BackUp(row, budget, search)) return search;
      continue;
    }
    if (search.nodes == budget.nodes) return search;
    ++search.nodes;
    columns[row] = column + 1;
    mark(row, column, 1);
    if (row + 1 == n) {
      search.outcome = Outcome::kSolved;
      return search;
    }
    ++row;
  }
}

using SearchFunction = Search (*)(uint32_t, const Budget&, StopPoller&, Columns&);

absl::StatusOr<CompletionResult> SolveWith(SearchFunction search_function, uint32_t n,
                                           const CallOptions& options, absl::Time give_up_at) {
  const absl::Time start = absl::Now();
  const PipelineParams& params = options.params;
  const Budget budget{std::min(params.backtracking_node_budget, params.exact_node_budget),
                      BacktracksPerRun(params, UINT64_MAX)};
  // One poller for the call's stop and the budget's time, whichever comes
  // first; the budget's means UNDECIDED.
  StopCondition condition = options.stop;
  condition.deadline = std::min(condition.deadline, give_up_at);
  StopPoller stop(condition);
  // Polled (docs/constants.md, AppendPolled), in huge pages, which are freed
  // faster.
  Columns columns;
  ReserveHuge(columns, n);
  Search search;
  search.stopped = !AppendPolled(columns, n, kEmptyRow, stop);
  if (!search.stopped) search = search_function(n, budget, stop, columns);
  const bool out_of_time = stop.status().code() == absl::StatusCode::kDeadlineExceeded &&
                           give_up_at < options.stop.deadline;
  if (search.stopped && !out_of_time) return stop.status();
  CompletionResult result;
  result.outcome = search.stopped ? Outcome::kUndecided : search.outcome;
  if (result.outcome == Outcome::kSolved) result.columns = std::move(columns);
  result.stats.seed = options.seed;
  result.stats.search_nodes = search.nodes;
  result.stats.backtracks = search.backtracks;
  result.stats.total_time = absl::Now() - start;
  return result;
}

}  // namespace

absl::StatusOr<CompletionResult> BacktrackingSolve(uint32_t n, const SolveOptions& options,
                                                   absl::Time give_up_at) {
  return SolveWith(n <= 64 ? SearchWithMasks : SearchWithArrays, n, options, give_up_at);
}

absl::StatusOr<CompletionResult> BacktrackingSolveWithArrays(uint32_t n,
                                                             const SolveOptions& options) {
  return SolveWith(SearchWithArrays, n, options, absl::InfiniteFuture());
}

// A byte per column and per diagonal of each kind.
uint64_t BacktrackingPeakBytes(uint64_t n) { return kFixedPeakBytes + Board(n) + HugeArray(5 * n); }

absl::Span<const Tunable> BacktrackingTunables() {
  static const Tunable kTunables[] = {
      {"backtracking_node_budget", &PipelineParams::backtracking_node_budget, 1, kNoLimit,
       "BACKTRACKING: nodes before giving up (exact_node_budget may lower it)", "docs/methods.md"},
  };
  return kTunables;
}

}  // namespace nqueens::internal
