// Complete(): chains the stages and owns the backtracking policy between the
// base levels (Grigoryan 2019, sections 4.1-4.2), then falls back to the exact
// search when the heuristic gives up.
//
// Levels: baseLevel1 is the input; block 1 runs from it to baseLevel2;
// block 2 projects; block 3 runs to baseLevel3; blocks 4-5 finish. A dead end
// returns to the start of the block it happened in, or further down once that
// block's bound is spent (simBound3 block-3 restores, then block 1 again).
#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "exact/exact_budget.h"
#include "exact/exact_part.h"
#include "exact/exact_search.h"
#include "methods/known_solutions.h"
#include "methods/min_conflicts.h"
#include "nqueens/memory.h"
#include "pipeline/base_levels.h"
#include "pipeline/stages.h"

namespace nqueens {
namespace {

using internal::BacktrackBudget;
using internal::BlockClock;
using internal::BoardState;
using internal::FinishBounds;
using internal::HugeVector;
using internal::Rng;
using internal::StageResult;
using internal::StopPoller;
using internal::SubBoard;

// Where a run starts (section 4.2).
Block StartBlock(uint32_t n, uint32_t k, const internal::BaseLevels& levels,
                 const PipelineParams& params) {
  if (n < params.finish_only_below_n) return Block::kFinishPrepare;
  if (k >= levels.level3) return Block::kFinishPrepare;
  if (n < params.random_pairing_from_n || k >= levels.level2) return Block::kProjection;
  return Block::kRandomPairing;
}

// One heuristic run from the input, within one backtrack budget. Works on
// `state`, which holds the input when the run starts; kReached leaves the
// solution in it.
class Run {
 public:
  Run(BoardState& state, const CompleteOptions& options, Block start, Rng& rng, StopPoller& stop,
      CompletionStats& stats)
      : state_(state),
        params_(options.params),
        threads_(options.threads),
        start_(start),
        levels_(internal::ComputeBaseLevels(state.n(), params_)),
        rng_(rng),
        stop_(stop),
        stats_(stats),
        budget_(stats, BacktracksPerRun(params_, kDefaultBacktracksPerRun)) {}

  StageResult Go() {
    for (bool first = true; !budget_.Exhausted(); first = false) {
      if (!first && !state_.Restore(stop_)) return StageResult::kStopped;  // to baseLevel1
      if (stop_.CheckNow()) return StageResult::kStopped;
      HugeVector<uint32_t> rows, columns;
      if (start_ == Block::kRandomPairing) {
        BlockClock clock(stats_, Block::kRandomPairing);
        const StageResult result =
            RandomPairing(state_, levels_.level2, params_, threads_, rng_, stop_, rows, columns);
        if (result == StageResult::kStopped) return result;
        if (result == StageResult::kDeadEnd) {
          budget_.Record(Block::kRandomPairing);
          continue;
        }
      } else if (!state_.FreeRows(rows, stop_) || !state_.FreeColumns(columns, stop_)) {
        return StageResult::kStopped;
      }
      const StageResult result = start_ == Block::kFinishPrepare ? FinishFrom(rows, columns)
                                                                 : ProjectAndFill(rows, columns);
      if (result != StageResult::kDeadEnd || budget_.Exhausted()) return result;
      budget_.Record(Block::kRandomPairing);  // simBound3 spent: back to block 1
    }
    return StageResult::kDeadEnd;
  }

 private:
  // Blocks 2-5. kDeadEnd sends the run back to block 1 (or gives up when the
  // run started at block 2 and the budget is spent).
  StageResult ProjectAndFill(const HugeVector<uint32_t>& rows,
                             const HugeVector<uint32_t>& columns) {
    std::optional<SubBoard> projected;
    {
      BlockClock clock(stats_, Block::kProjection);
      projected = SubBoard::Project(state_, rows, columns, internal::CellTracking::kScan, stop_);
    }
    if (!projected) return StageResult::kStopped;
    const uint32_t target_live_rows = state_.n() - std::max(levels_.level3, state_.queens());
    for (uint32_t restore = 0;; ++restore) {
      if (start_ == Block::kRandomPairing && restore >= params_.sim_bound3) {
        return StageResult::kDeadEnd;
      }
      SubBoard filled = *projected;
      StageResult result;
      {
        BlockClock clock(stats_, Block::kRandRand);
        result = projected->HasDeadRow() ? StageResult::kDeadEnd
                                         : RandRand(filled, target_live_rows, rng_, stop_);
      }
      if (result == StageResult::kReached) {
        result = FinishOn(filled);
      }
      if (result != StageResult::kDeadEnd) return result;
      if (!budget_.Record(Block::kRandRand)) return StageResult::kDeadEnd;
    }
  }

  // Blocks 4-5 on the board left by block 3; writes both blocks' queens.
  StageResult FinishOn(const SubBoard& filled) {
    std::optional<SubBoard> finishing;
    {
      BlockClock clock(stats_, Block::kFinishPrepare);
      finishing = filled.Compact(stop_);
    }
    if (!finishing) return StageResult::kStopped;
    internal::FinishCursor cursor;  // a new block-4 state each time
    const StageResult result = RunFinish(*finishing, cursor);
    if (result == StageResult::kReached) {
      filled.WriteTo(state_);
      finishing->WriteTo(state_);
    }
    return result;
  }

  // Blocks 4-5 straight from the input: every dead end returns to block 4.
  StageResult FinishFrom(const HugeVector<uint32_t>& rows, const HugeVector<uint32_t>& columns) {
    std::optional<SubBoard> projected;
    {
      BlockClock clock(stats_, Block::kFinishPrepare);
      projected = SubBoard::Project(state_, rows, columns, internal::CellTracking::kLines, stop_);
    }
    if (!projected) return StageResult::kStopped;
    internal::FinishCursor cursor;  // the same block-4 state every time
    while (true) {
      SubBoard finishing = *projected;
      const StageResult result = RunFinish(finishing, cursor);
      if (result == StageResult::kReached) finishing.WriteTo(state_);
      if (result != StageResult::kDeadEnd) return result;
      if (!budget_.Record(Block::kFinishPrepare)) return StageResult::kDeadEnd;
    }
  }

  StageResult RunFinish(SubBoard& board, internal::FinishCursor& cursor) {
    BlockClock clock(stats_, Block::kFinish);
    const uint32_t n = state_.n();
    const FinishBounds bounds{
        n < params_.finish_only_below_n ? params_.repeat_bound_small_n : params_.repeat_bound,
        params_.sim_bound5};
    return Finish(board, bounds, rng_, stop_, budget_, cursor);
  }

  BoardState& state_;
  const PipelineParams& params_;
  const SearchThreads& threads_;
  const Block start_;
  const internal::BaseLevels levels_;
  Rng& rng_;
  StopPoller& stop_;
  CompletionStats& stats_;
  BacktrackBudget budget_;
};

CompletionResult Solved(Columns columns) {
  CompletionResult result;
  result.outcome = Outcome::kSolved;
  result.columns = std::move(columns);
  return result;
}

// The exact search on the input held by `state`. nullopt when it gave up
// and other stages may still go on; UNDECIDED when it gave up at the call's
// deadline (less the time for the answer to reach the caller).
absl::StatusOr<std::optional<CompletionResult>> Decide(const BoardState& state,
                                                       const CompleteOptions& options,
                                                       StopPoller& stop, CompletionStats& stats) {
  BlockClock clock(stats, Block::kExact);
  if (options.reserve_memory) {
    const uint64_t free_rows = state.n() - stats.queens_given;
    if (const uint64_t bytes = ExactSearchBytesBeyondEstimate(free_rows); bytes > 0) {
      if (absl::Status reserved = options.reserve_memory(bytes); !reserved.ok()) {
        return absl::Status(reserved.code(), absl::StrCat("the exact search on more than ",
                                                          kExactFreeRowsInEstimates,
                                                          " free rows: ", reserved.message()));
      }
    }
  }
  const internal::ExactBudget budget =
      internal::ExactBudgetFor(options.params, options.stop, absl::Now());
  internal::CertificateWanted certificate;
  certificate.format = options.certificate_format;
  certificate.max_bytes = options.want_certificate ? options.certificate_max_bytes : 0;
  certificate.reserve_memory = options.reserve_memory;
  absl::StatusOr<internal::ExactResult> exact =
      options.part.whole()
          ? internal::ExactComplete(state.columns(), budget, stop, options.threads, certificate)
          : internal::ExactCompletePart(state.columns(), options.part, budget, stop,
                                        options.threads, certificate, options.reserve_memory);
  if (!exact.ok()) return exact.status();
  stats.exact_nodes += exact->nodes;
  stats.exact_runs = exact->runs;
  stats.exact_explored = exact->explored;
  switch (exact->verdict) {
    case internal::ExactVerdict::kSolved:
      return Solved(std::move(exact->columns));
    case internal::ExactVerdict::kUnsolvable: {
      CompletionResult result;
      result.outcome = Outcome::kUnsolvable;
      result.certificate = std::move(exact->certificate);
      result.certificate_missing = std::move(exact->certificate_missing);
      return result;
    }
    case internal::ExactVerdict::kBudgetExhausted:
      break;
  }
  if (budget.ends_call) return CompletionResult{};  // kUndecided
  return std::nullopt;
}

// The known-solution stage, heuristic runs, then the exact search where it
// applies, then restarts. `state` holds the input.
absl::StatusOr<CompletionResult> Search(BoardState& state, const CompleteOptions& options,
                                        StopPoller& stop, CompletionStats& stats) {
  const uint32_t n = state.n();
  const PipelineParams& params = options.params;
  const uint32_t free_rows = n - stats.queens_given;
  if (params.match_construction && stats.queens_given > 0) {
    BlockClock clock(stats, Block::kConstruction);
    absl::StatusOr<std::optional<Columns>> known =
        internal::CompleteFromKnownSolution(state.columns(), stop);
    if (!known.ok()) return known.status();
    if (known->has_value()) {
      stats.start_block = Block::kConstruction;
      return Solved(std::move(**known));
    }
  }
  stats.start_block =
      StartBlock(n, stats.queens_given, internal::ComputeBaseLevels(n, params), params);
  const bool exact_applies = free_rows <= params.exact_max_free_rows;
  bool exact_tried = false;
  if (exact_applies && free_rows <= params.exact_first_max_free_rows) {
    exact_tried = true;
    stats.start_block = Block::kExact;
    absl::StatusOr<std::optional<CompletionResult>> decided = Decide(state, options, stop, stats);
    if (!decided.ok()) return decided.status();
    if (decided->has_value()) return std::move(**decided);
    stats.start_block =
        StartBlock(n, stats.queens_given, internal::ComputeBaseLevels(n, params), params);
  }
  Rng rng(options.seed);
  for (uint32_t run = 0;; ++run) {
    if (run > 0 && !state.Restore(stop)) return stop.status();
    const StageResult result = Run(state, options, stats.start_block, rng, stop, stats).Go();
    if (result == StageResult::kStopped) return stop.status();
    if (result == StageResult::kReached) {
      return Solved(std::move(state).TakeColumns());
    }
    if (!exact_tried && exact_applies) {
      exact_tried = true;
      if (!state.Restore(stop)) return stop.status();
      absl::StatusOr<std::optional<CompletionResult>> decided = Decide(state, options, stop, stats);
      if (!decided.ok()) return decided.status();
      if (decided->has_value()) return std::move(**decided);
    }
    if (run >= params.max_restarts) return CompletionResult{};  // kUndecided
    ++stats.restarts;
  }
}

// CompleteMethod::kExact: the complete search alone.
absl::StatusOr<CompletionResult> SearchExactly(const BoardState& state,
                                               const CompleteOptions& options, StopPoller& stop,
                                               CompletionStats& stats) {
  const uint32_t free_rows = state.n() - stats.queens_given;
  if (free_rows > options.params.exact_max_free_rows) {
    return absl::InvalidArgumentError(
        absl::StrCat("method EXACT searches boards of at most ", options.params.exact_max_free_rows,
                     " free rows (parameter exact_max_free_rows); this one has ", free_rows));
  }
  stats.start_block = Block::kExact;
  absl::StatusOr<std::optional<CompletionResult>> decided = Decide(state, options, stop, stats);
  if (!decided.ok()) return decided.status();
  if (decided->has_value()) return std::move(**decided);
  return CompletionResult{};  // kUndecided
}

}  // namespace

namespace {

// In the enum's order.
constexpr MethodInfo<CompleteMethod> kCompleteMethods[] = {
    {CompleteMethod::kPipeline, "PIPELINE", "pipeline"},
    {CompleteMethod::kMinConflicts, "MIN_CONFLICTS", "min-conflicts"},
    {CompleteMethod::kExact, "EXACT", "exact"},
};

}  // namespace

absl::Span<const MethodInfo<CompleteMethod>> CompleteMethods() { return kCompleteMethods; }

const char* CompleteMethodName(CompleteMethod method) {
  const auto index = static_cast<size_t>(method);
  return index < std::size(kCompleteMethods) ? kCompleteMethods[index].name : "UNKNOWN";
}

namespace {

// Complete(), with `place` making the state that holds the composition's
// queens.
absl::StatusOr<CompletionResult> CompleteFrom(
    Columns composition, const CompleteOptions& options,
    absl::FunctionRef<absl::StatusOr<BoardState>(Columns, StopPoller&)> place) {
  const absl::Time start = absl::Now();
  if (absl::Status status = CheckBoardSize(composition.size()); !status.ok()) return status;
  if (absl::Status params = CheckParams(options.params); !params.ok()) return params;
  if (absl::Status part = CheckPartSelector(options.part); !part.ok()) return part;
  if (!options.part.whole() && options.complete_method != CompleteMethod::kExact) {
    return absl::InvalidArgumentError("part_count applies to method EXACT only");
  }
  if (options.complete_method == CompleteMethod::kMinConflicts) {
    absl::StatusOr<CompletionResult> result =
        internal::MinConflictsComplete(std::move(composition), options);
    if (result.ok()) result->stats.method = CompleteMethodName(options.complete_method);
    return result;
  }
  StopPoller stop(options.stop);
  absl::StatusOr<BoardState> state = place(std::move(composition), stop);
  if (!state.ok()) return state.status();
  CompletionStats stats;
  stats.seed = options.seed;
  stats.queens_given = state->queens();
  absl::StatusOr<CompletionResult> result = state->queens() == state->n()
                                                ? Solved(std::move(*state).TakeColumns())
                                            : options.complete_method == CompleteMethod::kExact
                                                ? SearchExactly(*state, options, stop, stats)
                                                : Search(*state, options, stop, stats);
  if (!result.ok()) return result.status();
  stats.total_time = absl::Now() - start;
  stats.method = CompleteMethodName(options.complete_method);
  result->stats = stats;
  return result;
}

}  // namespace

absl::StatusOr<CompletionResult> Complete(Columns composition, const CompleteOptions& options) {
  return CompleteFrom(std::move(composition), options, [&options](Columns board, StopPoller& stop) {
    return BoardState::Create(std::move(board), stop, options.threads);
  });
}

absl::StatusOr<CompletionResult> Complete(Columns composition, IncomingComposition incoming,
                                          const CompleteOptions& options) {
  return CompleteFrom(std::move(composition), options, [&](Columns board, StopPoller& stop) {
    // A refused queen is named as Create names it, from the whole board.
    if (incoming.refused_ || incoming.state_ == nullptr) {
      return BoardState::Create(std::move(board), stop, options.threads);
    }
    return BoardState::Adopt(std::move(*incoming.state_), incoming.placed_, std::move(board), stop);
  });
}

}  // namespace nqueens
