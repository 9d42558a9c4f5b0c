// SolutionEnumerator: the residual's search (residual.h) without symmetry
// reduction, kept between batches.
#include <utility>
#include <variant>

#include "base/stop_poller.h"
#include "count/residual.h"
#include "count/residual_search.h"
#include "nqueens/count.h"

namespace nqueens {
namespace {

using internal::Dfs;
using internal::Residual;
using internal::ShiftGeometry;
using internal::TableGeometry;

using Search = std::variant<Dfs<ShiftGeometry>, Dfs<TableGeometry>>;

// The search over `geometry`'s levels, which must outlive it.
Search StartSearch(const internal::Geometry& geometry, size_t levels) {
  return std::visit(
      [levels](const auto& g) -> Search { return Dfs<std::decay_t<decltype(g)>>(g, levels, {}); },
      geometry);
}

}  // namespace

struct SolutionEnumerator::State {
  // State lives on the heap, so `search` may point into `geometry`.
  explicit State(Residual made)
      : residual(std::move(made)),
        geometry(internal::MakeGeometry(residual)),
        search(StartSearch(geometry, residual.rows.size())) {}

  Residual residual;
  internal::Geometry geometry;
  Search search;
  // Boards found in a batch that a stop cut short, handed out next time.
  std::vector<Columns> pending;
  bool searched = false;
};

SolutionEnumerator::SolutionEnumerator(std::unique_ptr<State> state) : state_(std::move(state)) {}
SolutionEnumerator::SolutionEnumerator(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator& SolutionEnumerator::operator=(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator::~SolutionEnumerator() = default;

absl::StatusOr<SolutionEnumerator> SolutionEnumerator::Make(Columns composition) {
  absl::StatusOr<Residual> residual = internal::MakeResidual(std::move(composition));
  if (!residual.ok()) return residual.status();
  return SolutionEnumerator(std::make_unique<State>(*std::move(residual)));
}

absl::StatusOr<std::vector<Columns>> SolutionEnumerator::Next(size_t max_boards,
                                                              const StopCondition& stop) {
  State& state = *state_;
  internal::StopPoller poller(stop);
  if (!state.searched && state.pending.size() < max_boards) {
    const bool stopped = std::visit(
        [&](auto& dfs) {
          using Run = typename std::remove_reference_t<decltype(dfs)>::Run;
          const Run run = dfs.Search(
              [&](const uint64_t* placed) {
                Columns& board = state.pending.emplace_back();
                internal::FillBoard(dfs.geometry(), state.residual, placed, board);
                return state.pending.size() < max_boards;
              },
              [](uint64_t) {}, poller);
          state.searched = run == Run::kDone;
          return run == Run::kStopped;
        },
        state.search);
    if (stopped) return poller.status();
  }
  std::vector<Columns> boards;
  if (state.pending.size() <= max_boards) {
    boards.swap(state.pending);
  } else {
    boards.assign(std::make_move_iterator(state.pending.begin()),
                  std::make_move_iterator(state.pending.begin() + max_boards));
    state.pending.erase(state.pending.begin(), state.pending.begin() + max_boards);
  }
  return boards;
}

bool SolutionEnumerator::done() const { return state_->searched && state_->pending.empty(); }

uint64_t SolutionEnumerator::nodes() const {
  return std::visit([](const auto& dfs) { return dfs.nodes(); }, state_->search);
}

}  // namespace nqueens
