// Counting and enumerating every solution of a board, or every completion of
// a composition, by bitwise backtracking (the row-by-row search with left,
// down and right masks; on the empty board reduced by the symmetries of the
// square, which also yields the fundamental solutions).
//
// The search is cut into independent parts so that a caller can spread them
// over its own threads (the server runs them on its worker pool): make a
// CountPlan, count its parts in any order on any threads, and add them up.
#ifndef NQUEENS_COUNT_H_
#define NQUEENS_COUNT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nqueens/board.h"
#include "nqueens/parts.h"
#include "nqueens/stop.h"
#include "nqueens/threads.h"

namespace nqueens {

// Counting and enumerating work on boards whose free rows and free columns
// fit in a machine word each.
inline constexpr uint32_t kCountMaxFreeRows = 64;

struct CountPart {
  uint64_t solutions = 0;
  // Solutions up to symmetry; counted only for the empty board.
  uint64_t fundamental = 0;
  uint64_t nodes = 0;  // search nodes visited
};

struct CountResult {
  uint64_t solutions = 0;
  // Set for the empty board only (OEIS A002562).
  std::optional<uint64_t> fundamental;
  uint64_t nodes = 0;
  absl::Duration elapsed;
};

class CountPlan {
 public:
  // `composition`: a dense board, empty rows allowed. INVALID_ARGUMENT for a
  // malformed board or attacking queens (naming them) and for more than
  // kCountMaxFreeRows free rows (naming the limit), and for a part selector
  // that CheckPartSelector refuses. With a `part` other than the whole, the
  // plan holds that part's share of the search alone: the counts of the
  // part_count plans add up to the whole count (fundamental counts too).
  static absl::StatusOr<CountPlan> Make(Columns composition, PartSelector part = {});

  CountPlan(CountPlan&&) noexcept;
  CountPlan& operator=(CountPlan&&) noexcept;
  ~CountPlan();

  // The number of independent parts (at least 1).
  size_t parts() const;
  // Counts part `index` (< parts()). Safe to call from several threads at
  // once on different parts. DEADLINE_EXCEEDED or CANCELLED when `stop`
  // fires.
  absl::StatusOr<CountPart> Count(size_t index, const StopCondition& stop) const;
  // The total of every part's count.
  CountResult Sum(const std::vector<CountPart>& parts) const;

 private:
  struct State;
  explicit CountPlan(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

struct CountProgress {
  double fraction_done = 0;  // parts done / parts
  uint64_t nodes = 0;
  absl::Duration elapsed;
};

struct CountOptions {
  StopCondition stop;
  // The parts are counted on the calling thread and up to threads.count - 1
  // helpers.
  SearchThreads threads;
  // Called on the calling thread about every progress_interval (to within
  // 20 ms while that thread waits for helpers), whichever thread counts.
  std::function<void(const CountProgress&)> on_progress;
  absl::Duration progress_interval = absl::Milliseconds(500);
};

// Every part of `plan`, on options.threads. DEADLINE_EXCEEDED or CANCELLED
// when options.stop fires before every part is counted.
absl::StatusOr<CountResult> CountSolutions(const CountPlan& plan, const CountOptions& options = {});

// Every part of CountPlan::Make(composition), as above.
absl::StatusOr<CountResult> CountSolutions(Columns composition, const CountOptions& options = {});

// Every solution of the n x n board, or completion of a composition, in a
// fixed order, a batch at a time: the search's state is kept between batches,
// so that a caller can send a batch before asking for the next.
class SolutionEnumerator {
 public:
  // As CountPlan::Make: with a `part`, the enumerator hands out that part's
  // share of the solutions alone, in the same order as the whole does.
  static absl::StatusOr<SolutionEnumerator> Make(Columns composition, PartSelector part = {});

  SolutionEnumerator(SolutionEnumerator&&) noexcept;
  SolutionEnumerator& operator=(SolutionEnumerator&&) noexcept;
  ~SolutionEnumerator();

  // Up to `max_boards` more full boards (each of n columns), fewer only when
  // the search is done. DEADLINE_EXCEEDED or CANCELLED when `stop` fires
  // (the enumerator may then be resumed).
  absl::StatusOr<std::vector<Columns>> Next(size_t max_boards, const StopCondition& stop);
  bool done() const;
  uint64_t nodes() const;

 private:
  struct State;
  explicit SolutionEnumerator(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace nqueens

#endif  // NQUEENS_COUNT_H_
