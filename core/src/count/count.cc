#include "nqueens/count.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <optional>
#include <utility>
#include <variant>

#include "absl/base/thread_annotations.h"
#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "base/parallel_parts.h"
#include "base/stop_poller.h"
#include "count/constellations.h"
#include "count/frontier_count.h"
#include "count/part_split.h"
#include "count/residual.h"
#include "count/residual_search.h"

namespace nqueens {
namespace {

using internal::Constellation;
using internal::Dfs;
using internal::Geometry;
using internal::PartRunner;
using internal::PartsJob;
using internal::Residual;
using internal::StopPoller;

// The completions below `prefix`, the last level counted by popcount.
template <typename G>
absl::StatusOr<CountPart> CountBelow(const G& geometry, size_t levels,
                                     absl::Span<const uint64_t> prefix, StopPoller& stop) {
  Dfs<G> dfs(geometry, levels, prefix);
  CountPart part;
  const auto run = dfs.template Search<true>(
      [&part](const uint64_t*) {
        ++part.solutions;
        return true;
      },
      [&part](uint64_t open) { part.solutions += absl::popcount(open); }, stop);
  if (run == Dfs<G>::Run::kStopped) return stop.status();
  part.nodes = dfs.nodes();
  return part;
}

// CountBelow's hot case, where nearly all the time of counting the empty
// board goes (frontier_count.h).
absl::StatusOr<CountPart> CountBelow(const internal::ShiftGeometry& geometry, size_t levels,
                                     absl::Span<const uint64_t> prefix, StopPoller& stop) {
  if (prefix.size() + 3 > levels) {
    return CountBelow<internal::ShiftGeometry>(geometry, levels, prefix, stop);
  }

  return internal::CountByFrontiers(geometry, levels, prefix, stop);
}

// The solutions of the empty board whose constellation is one of the
// images of `constellation`, and their classes under the symmetries. Each
// image has as many completions as `constellation`; a solution class meets
// the completions of `constellation` in one orbit of its stabilizer, so
// (Burnside) the classes are the stabilizer's average count of fixed
// completions.
template <typename G>
absl::StatusOr<CountPart> CountConstellation(const G& geometry, const Residual& residual,
                                             const Constellation& constellation, StopPoller& stop) {
  const int symmetries = absl::popcount(constellation.stabilizer);
  const uint64_t images = 8 / symmetries;
  const size_t levels = residual.rows.size();
  if (symmetries == 1) {
    absl::StatusOr<CountPart> part = CountBelow(geometry, levels, {}, stop);
    if (!part.ok()) return part.status();
    part->fundamental = part->solutions;
    part->solutions *= images;
    return part;
  }
  Dfs<G> dfs(geometry, levels, {});
  uint64_t completions = 0, fixed = 0;
  Columns board;
  const auto run = dfs.Search(
      [&](const uint64_t* placed) {
        ++completions;
        internal::FillBoard(geometry, residual, placed, board);
        for (uint32_t symmetry = 0; symmetry < 8; ++symmetry) {
          if ((constellation.stabilizer >> symmetry) & 1) {
            fixed += internal::TransformBoard(board, symmetry) == board;
          }
        }
        return true;
      },
      [](uint64_t) {}, stop);
  if (run == Dfs<G>::Run::kStopped) return stop.status();
  return CountPart{completions * images, fixed / symmetries, dfs.nodes()};
}

// The image of a constellation to search: any image has as many
// completions, and the search is cheapest where its first rows are the most
// constrained. Each image is scored by an estimate of its tree's top: the sum
// over its first kEstimateLevels levels of the product of the open cells of
// the levels down to there. The image it picks takes fewer nodes than the
// canonical one or the one with the first row's queen in the middle
// (docs/constants.md, kEstimateLevels). A constellation with symmetries is
// searched as it is, since its stabilizer refers to it.
constexpr size_t kEstimateLevels = 8;

Columns SearchOrientation(const Constellation& constellation, uint32_t n) {
  Columns board = constellation.Board(n);
  if (constellation.stabilizer != 1) return board;
  Columns best;
  double best_score = HUGE_VAL;
  for (uint32_t symmetry = 0; symmetry < 8; ++symmetry) {
    Columns image = internal::TransformBoard(board, symmetry);
    const Residual residual = internal::ResidualOf(image);
    const internal::ShiftGeometry geometry(residual);
    double score = 0, product = 1;
    for (size_t level = 0; level < residual.rows.size() && level < kEstimateLevels; ++level) {
      product *= absl::popcount(~geometry.blocked(level));
      score += product;
    }
    if (score < best_score) {
      best_score = score;
      best = std::move(image);
    }
  }
  return best;
}

bool IsEmpty(const Columns& board) {
  return std::all_of(board.begin(), board.end(), [](uint32_t c) { return c == kEmptyRow; });
}

}  // namespace

struct CountPlan::State {
  // The empty board: a part per canonical constellation.
  uint32_t board_size = 0;
  std::vector<Constellation> constellations;
  // A composition: a part per prefix of its residual's search.
  std::optional<Residual> residual;
  std::optional<Geometry> geometry;
  std::vector<std::vector<uint64_t>> prefixes;
};

CountPlan::CountPlan(std::unique_ptr<State> state) : state_(std::move(state)) {}
CountPlan::CountPlan(CountPlan&&) noexcept = default;
CountPlan& CountPlan::operator=(CountPlan&&) noexcept = default;
CountPlan::~CountPlan() = default;

absl::StatusOr<CountPlan> CountPlan::Make(Columns composition, PartSelector part) {
  absl::Status valid_part = CheckPartSelector(part);
  if (!valid_part.ok()) return valid_part;
  absl::StatusOr<Residual> residual = internal::MakeResidual(std::move(composition));
  if (!residual.ok()) return residual.status();
  auto state = std::make_unique<State>();
  // The residual of the empty board is the board itself (n <= 64).
  if (IsEmpty(residual->composition)) {
    state->board_size = static_cast<uint32_t>(residual->composition.size());
    state->constellations =
        internal::PartOf(*internal::SharedCanonicalConstellations(state->board_size), part);
    return CountPlan(std::move(state));
  }
  state->geometry = internal::MakeGeometry(*residual);
  const size_t levels = residual->rows.size();
  const size_t wanted = internal::PrefixesWanted(part);
  state->prefixes = internal::PartOf(
      std::visit([levels, wanted](const auto& g) { return internal::Prefixes(g, levels, wanted); },
                 *state->geometry),
      part);
  state->residual = *std::move(residual);
  return CountPlan(std::move(state));
}

size_t CountPlan::parts() const {
  // A plan without constellations or prefixes (n = 2, 3, or a part that
  // got none) still has a part: 0.
  return std::max<size_t>(
      1, state_->residual.has_value() ? state_->prefixes.size() : state_->constellations.size());
}

absl::StatusOr<CountPart> CountPlan::Count(size_t index, const StopCondition& stop) const {
  if (index >= parts()) {
    return absl::InvalidArgumentError(
        absl::StrCat("part index ", index, " is out of range (", parts(), " parts)"));
  }
  StopPoller poller(stop);
  if (state_->residual.has_value()) {
    if (state_->prefixes.empty()) return CountPart{};
    const size_t levels = state_->residual->rows.size();
    return std::visit(
        [&](const auto& g) { return CountBelow(g, levels, state_->prefixes[index], poller); },
        *state_->geometry);
  }
  if (state_->constellations.empty()) return CountPart{};
  const Constellation& constellation = state_->constellations[index];
  const Residual residual =
      internal::ResidualOf(SearchOrientation(constellation, state_->board_size));
  const internal::ShiftGeometry geometry(residual);
  return CountConstellation(geometry, residual, constellation, poller);
}

CountResult CountPlan::Sum(const std::vector<CountPart>& parts) const {
  CountResult result;
  uint64_t fundamental = 0;
  for (const CountPart& part : parts) {
    result.solutions += part.solutions;
    fundamental += part.fundamental;
    result.nodes += part.nodes;
  }
  if (!state_->residual.has_value()) result.fundamental = fundamental;
  return result;
}

namespace {

// The parts' counts, by whichever thread counted them, and the first error.
class PartCounts {
 public:
  explicit PartCounts(size_t parts) : parts_(parts) {}

  // Records part `index`'s count; false (abandoning the count) for an error.
  bool Add(size_t index, absl::StatusOr<CountPart> part) {
    absl::MutexLock lock(&mutex_);
    if (!part.ok()) {
      // The first failure is the answer: the others are its echo.
      if (error_.ok()) error_ = part.status();
      return false;
    }
    parts_[index] = *part;
    ++done_;
    nodes_ += part->nodes;
    return true;
  }

  // Records why the count was abandoned, unless a part has already.
  void Fail(absl::Status status) {
    absl::MutexLock lock(&mutex_);
    if (error_.ok()) error_ = std::move(status);
  }

  CountProgress Progress(absl::Time start) const {
    absl::MutexLock lock(&mutex_);
    return {static_cast<double>(done_) / static_cast<double>(parts_.size()), nodes_,
            absl::Now() - start};
  }

  // The sum once every part is counted, even if the stop fired after the
  // last; otherwise why not.
  absl::StatusOr<CountResult> Result(const CountPlan& plan) const {
    absl::MutexLock lock(&mutex_);
    if (done_ < parts_.size())
      return error_.ok() ? absl::InternalError("the count ended with parts not counted") : error_;
    return plan.Sum(parts_);
  }

 private:
  mutable absl::Mutex mutex_;
  std::vector<CountPart> parts_ ABSL_GUARDED_BY(mutex_);
  size_t done_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t nodes_ ABSL_GUARDED_BY(mutex_) = 0;
  absl::Status error_ ABSL_GUARDED_BY(mutex_);
};

// Why `stop` fired, or OK.
absl::Status StopReason(const StopCondition& stop) {
  if (absl::Now() >= stop.deadline) return absl::DeadlineExceededError("the deadline passed");
  if (stop.cancelled && stop.cancelled()) return absl::CancelledError("cancelled");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CountResult> CountSolutions(const CountPlan& plan, const CountOptions& options) {
  if (options.threads.count < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("CountOptions.threads.count must be at least 1, not ", options.threads.count));
  }
  if (options.on_progress && options.progress_interval <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("CountOptions.progress_interval must be positive");
  }
  const absl::Time start = absl::Now();
  PartCounts counts(plan.parts());
  std::atomic<bool> abandoned{false};
  // Progress comes from the calling thread, between its parts, at its polls
  // inside a part and while it waits for helpers: at least every interval,
  // whichever thread counts.
  absl::Time next_progress = start + options.progress_interval;
  const auto report = [&] {
    if (!options.on_progress || absl::Now() < next_progress) return;
    next_progress = absl::Now() + options.progress_interval;
    options.on_progress(counts.Progress(start));
  };
  const auto keep_going = [&] {
    report();
    absl::Status reason = StopReason(options.stop);
    if (reason.ok()) return true;
    counts.Fail(std::move(reason));
    return false;
  };
  PartsJob job;
  job.parts = plan.parts();
  job.start_thread = [&](bool on_caller) -> PartRunner {
    StopCondition stop;
    stop.deadline = options.stop.deadline;
    stop.cancelled = [&abandoned, &keep_going, on_caller] {
      return abandoned.load() || (on_caller && !keep_going());
    };
    return
        [&plan, &counts, stop](size_t index) { return counts.Add(index, plan.Count(index, stop)); };
  };
  job.keep_going = keep_going;
  internal::RunParts(job, options.threads, abandoned);
  report();
  absl::StatusOr<CountResult> result = counts.Result(plan);
  if (result.ok()) result->elapsed = absl::Now() - start;
  return result;
}

absl::StatusOr<CountResult> CountSolutions(Columns composition, const CountOptions& options) {
  const absl::Time start = absl::Now();
  absl::StatusOr<CountPlan> plan = CountPlan::Make(std::move(composition));
  if (!plan.ok()) return plan.status();
  absl::StatusOr<CountResult> result = CountSolutions(*plan, options);
  if (result.ok()) result->elapsed = absl::Now() - start;
  return result;
}

}  // namespace nqueens
