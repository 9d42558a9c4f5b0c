// SolutionEnumerator: the residual's search (residual.h) without symmetry
// reduction, kept between batches; for one part of the search, the
// searches below that part's prefixes (part_split.h), one after another.
#include <optional>
#include <utility>
#include <variant>

#include "base/stop_poller.h"
#include "count/part_split.h"
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

// The search over `geometry`'s levels below `prefix`; `geometry` must
// outlive it.
Search StartSearch(const internal::Geometry& geometry, size_t levels,
                   absl::Span<const uint64_t> prefix) {
  return std::visit(
      [levels, prefix](const auto& g) -> Search {
        return Dfs<std::decay_t<decltype(g)>>(g, levels, prefix);
      },
      geometry);
}

// The prefixes of `part`'s searches: the whole search is the one below no
// prefix.
std::vector<std::vector<uint64_t>> PartPrefixes(const internal::Geometry& geometry, size_t levels,
                                                const PartSelector& part) {
  if (part.whole()) return {{}};
  return internal::PartOf(std::visit(
                              [&](const auto& g) {
                                return internal::Prefixes(g, levels,
                                                          internal::PrefixesWanted(part));
                              },
                              geometry),
                          part);
}

}  // namespace

struct SolutionEnumerator::State {
  // State lives on the heap, so `search` may point into `geometry`.
  State(Residual made, const PartSelector& part)
      : residual(std::move(made)),
        geometry(internal::MakeGeometry(residual)),
        prefixes(PartPrefixes(geometry, residual.rows.size(), part)) {}

  // The search below the next prefix, once the current one is done; false
  // when none is left.
  bool NextSearch() {
    if (search.has_value()) {
      earlier_nodes += std::visit([](const auto& dfs) { return dfs.nodes(); }, *search);
      search.reset();
    }
    if (next_prefix == prefixes.size()) return false;
    search = StartSearch(geometry, residual.rows.size(), prefixes[next_prefix++]);
    return true;
  }

  Residual residual;
  internal::Geometry geometry;
  std::vector<std::vector<uint64_t>> prefixes;
  size_t next_prefix = 0;
  std::optional<Search> search;
  uint64_t earlier_nodes = 0;  // of the searches done
  // Boards found in a batch that a stop cut short, handed out next time.
  std::vector<Columns> pending;
  bool searched = false;
};

SolutionEnumerator::SolutionEnumerator(std::unique_ptr<State> state) : state_(std::move(state)) {}
SolutionEnumerator::SolutionEnumerator(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator& SolutionEnumerator::operator=(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator::~SolutionEnumerator() = default;

absl::StatusOr<SolutionEnumerator> SolutionEnumerator::Make(Columns composition,
                                                            PartSelector part) {
  absl::Status valid_part = CheckPartSelector(part);
  if (!valid_part.ok()) return valid_part;
  absl::StatusOr<Residual> residual = internal::MakeResidual(std::move(composition));
  if (!residual.ok()) return residual.status();
  return SolutionEnumerator(std::make_unique<State>(*std::move(residual), part));
}

absl::StatusOr<std::vector<Columns>> SolutionEnumerator::Next(size_t max_boards,
                                                              const StopCondition& stop) {
  State& state = *state_;
  internal::StopPoller poller(stop);
  while (!state.searched && state.pending.size() < max_boards) {
    if (!state.search.has_value() && !state.NextSearch()) {
      state.searched = true;
      break;
    }
    enum class Run { kDone, kPaused, kStopped };
    const Run run = std::visit(
        [&](auto& dfs) {
          using DfsRun = typename std::remove_reference_t<decltype(dfs)>::Run;
          const DfsRun dfs_run = dfs.Search(
              [&](const uint64_t* placed) {
                Columns& board = state.pending.emplace_back();
                internal::FillBoard(dfs.geometry(), state.residual, placed, board);
                return state.pending.size() < max_boards;
              },
              [](uint64_t) {}, poller);
          return dfs_run == DfsRun::kDone     ? Run::kDone
                 : dfs_run == DfsRun::kPaused ? Run::kPaused
                                              : Run::kStopped;
        },
        *state.search);
    if (run == Run::kDone) state.NextSearch();
    if (run == Run::kStopped) return poller.status();
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
  const State& state = *state_;
  if (!state.search.has_value()) return state.earlier_nodes;
  return state.earlier_nodes +
         std::visit([](const auto& dfs) { return dfs.nodes(); }, *state.search);
}

}  // namespace nqueens
