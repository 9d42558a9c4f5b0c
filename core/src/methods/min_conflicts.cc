// Min-conflicts repair on a permutation (Minton, Johnston, Philips and Laird,
// "Minimizing conflicts: a heuristic repair method for constraint
// satisfaction and scheduling problems", 1992; Sosic and Gu, "3,000,000
// queens in less than one minute", 1991, and "Efficient local search with
// conflict minimization: a case study of the n-queens problem", 1994,
// algorithms QS1..QS4).
//
// Two phases, as QS4: a greedy start that gives each row, in order, a random
// column among the unplaced ones whose diagonals are free (a Fisher-Yates
// shuffle with rejections, at most kGreedyTries draws a row, after which the
// last one drawn stays, in conflict), then repair: a queen in conflict swaps
// its column with another row's when the swap lowers the number of attacks,
// and with a random row anyway after kPartnerTries draws without one. A run
// that spends its moves starts again from a new greedy start, as many times
// as the pipeline restarts (params.max_restarts).
//
// The greedy start leaves few queens in conflict, all in its last rows
// (docs/constants.md, kAhead), so it is most of the work: at n = 10^8 each
// draw reads a random slot of the 400 MB board and two random diagonal bits,
// and the loop keeps a ring of draws in flight, their memory fetched ahead,
// to overlap those misses. Measured figures: docs/methods.md
// (bench/min_conflicts.cc).
#include "methods/min_conflicts.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/clock.h"
#include "base/bit_array.h"
#include "base/huge_pages.h"
#include "base/peak_bytes.h"
#include "base/prefetch.h"
#include "base/rng.h"
#include "base/stop_poller.h"
#include "base/validation.h"

namespace nqueens::internal {
namespace {

// Columns the greedy start draws for one row before it keeps one in conflict.
// Most rows take one or two; only the last few hundred run out, and each
// leaves a queen for the repair.
constexpr uint32_t kGreedyTries = 32;
// Partners tried for a queen in conflict before it swaps with a random one
// (a random restart of a stuck queen: it also gets small boards out of
// local minima); on boards of fewer than kPartnerTries / kTriesPerPartner
// free rows, kTriesPerPartner a free row, which draws most of them.
constexpr uint32_t kPartnerTries = 4096;
constexpr uint32_t kTriesPerPartner = 8;  // a multiple of kPartnerBatch
// Partners drawn and fetched together; divides kPartnerTries.
constexpr uint32_t kPartnerBatch = 8;
// The first half of the partners tried are drawn this many slots either side
// of the queen moved, the rest anywhere.
constexpr uint32_t kPartnerWindow = 4096;
// Draws of the greedy start in flight: each fetches its slot of the board at
// once, and its diagonal bits half way through the ring.
constexpr uint32_t kAhead = 32;

// How many queens lie on each diagonal and anti-diagonal (index n + c - r
// and r + c): one bit says whether a line holds a queen, and a small map
// counts the queens beyond the first on the few lines that hold more. Exact
// counts of any size in 4 bits a row (2n lines of each kind), where byte
// counters would take 4 bytes a row and need a rule for overflow; and the
// bits of a 10^7 board fit in the cache.
class DiagonalCounts {
 public:
  bool Reset(uint32_t n, StopPoller& stop) {
    n_ = n;
    return occupied_[0].Reset(2 * size_t{n} + 1, stop) &&
           occupied_[1].Reset(2 * size_t{n} + 1, stop);
  }

  // Both lines through (row, column) are empty. Both bits are read, without
  // a branch between them (`|`, not `||`).
  bool Free(uint32_t row, uint32_t column) const {
    return !(static_cast<int>(occupied_[0].Test(Diagonal(row, column))) |
             static_cast<int>(occupied_[1].Test(AntiDiagonal(row, column))));
  }
  void Prefetch(uint32_t row, uint32_t column) const {
    occupied_[0].Prefetch(Diagonal(row, column));
    occupied_[1].Prefetch(AntiDiagonal(row, column));
  }
  // Add() on two empty lines.
  void Claim(uint32_t row, uint32_t column) {
    occupied_[0].Set(Diagonal(row, column));
    occupied_[1].Set(AntiDiagonal(row, column));
  }

  void Add(uint32_t row, uint32_t column) {
    AddTo(0, Diagonal(row, column));
    AddTo(1, AntiDiagonal(row, column));
  }
  void Remove(uint32_t row, uint32_t column) {
    RemoveFrom(0, Diagonal(row, column));
    RemoveFrom(1, AntiDiagonal(row, column));
  }

  // Queens on the two lines through (row, column), counted once per line.
  uint32_t Count(uint32_t row, uint32_t column) const {
    return CountOn(0, Diagonal(row, column)) + CountOn(1, AntiDiagonal(row, column));
  }
  // A queen at (row, column) shares a line with another.
  bool Crowded(uint32_t row, uint32_t column) const {
    return !extra_.empty() && (extra_.contains(Key(0, Diagonal(row, column))) ||
                               extra_.contains(Key(1, AntiDiagonal(row, column))));
  }

 private:
  size_t Diagonal(uint32_t row, uint32_t column) const { return size_t{n_} + column - row; }
  static size_t AntiDiagonal(uint32_t row, uint32_t column) { return size_t{row} + column; }
  static uint64_t Key(int kind, size_t line) { return (uint64_t(kind) << 32) | line; }

  void AddTo(int kind, size_t line) {
    if (!occupied_[kind].Test(line)) {
      occupied_[kind].Set(line);
    } else {
      ++extra_[Key(kind, line)];
    }
  }
  void RemoveFrom(int kind, size_t line) {
    const auto extra = extra_.find(Key(kind, line));
    if (extra == extra_.end()) {
      occupied_[kind].Clear(line);
    } else if (--extra->second == 0) {
      extra_.erase(extra);
    }
  }
  uint32_t CountOn(int kind, size_t line) const {
    if (!occupied_[kind].Test(line)) return 0;
    if (extra_.empty()) return 1;
    const auto extra = extra_.find(Key(kind, line));
    return extra == extra_.end() ? 1 : 1 + extra->second;
  }

  uint32_t n_ = 0;
  std::array<BitArray, 2> occupied_;
  absl::flat_hash_map<uint64_t, uint32_t> extra_;
};

// The rows a run moves queens in: every row (Solve), or the empty rows of
// the input (Complete). Slot k is the k-th of them.
class FreeRows {
 public:
  explicit FreeRows(uint32_t n) : count_(n) {}
  explicit FreeRows(HugeVector<uint32_t> rows)
      : count_(static_cast<uint32_t>(rows.size())), rows_(std::move(rows)) {}

  uint32_t count() const { return count_; }
  uint32_t Row(uint32_t slot) const { return rows_.empty() ? slot + 1 : rows_[slot]; }

 private:
  uint32_t count_;
  HugeVector<uint32_t> rows_;  // empty: every row
};

// The greedy start. slots[k..m) hold the columns not placed yet; slot k gets
// its row's column (FreeRows::Row(k)). Rows whose queen was left in conflict
// go to `conflicted`, by slot. False once `stop` fires.
class GreedyStart {
 public:
  GreedyStart(uint32_t* slots, const FreeRows& rows, DiagonalCounts& lines, Rng& rng,
              std::vector<uint32_t>& conflicted)
      : slots_(slots), rows_(rows), lines_(lines), rng_(rng), conflicted_(conflicted) {}

  bool Run(StopPoller& stop) {
    const uint32_t m = rows_.count();
    // Draws in flight come from slots at least kAhead past the current one,
    // which is where the current slot is at most once they are used.
    std::array<uint32_t, kAhead> ring;
    const auto draw_ahead = [&] {
      const uint32_t slot = next_ + kAhead + rng_.Below(m - next_ - kAhead);
      PrefetchLine(&slots_[slot]);
      return slot;
    };
    if (m > 2 * kAhead) {
      for (uint32_t& slot : ring) slot = draw_ahead();
    }
    for (uint32_t head = 0; next_ + 2 * kAhead < m; head = (head + 1) % kAhead) {
      if (stop.ShouldStop()) return false;
      const uint32_t slot = ring[head];
      ring[head] = draw_ahead();
      // The draw half a ring ahead has its column by now: fetch its
      // diagonals, for about the row it will be tried on.
      lines_.Prefetch(rows_.Row(next_ + kAhead / 2), slots_[ring[(head + kAhead / 2) % kAhead]]);
      Try(slot);
    }
    while (next_ < m) {
      if (stop.ShouldStop()) return false;
      Try(next_ + rng_.Below(m - next_));
    }
    return true;
  }

 private:
  // Offers the column in `slot` to the current slot's row.
  void Try(uint32_t slot) {
    const uint32_t row = rows_.Row(next_), column = slots_[slot];
    if (lines_.Free(row, column)) {
      lines_.Claim(row, column);
    } else if (++tries_ == kGreedyTries) {
      lines_.Add(row, column);
      conflicted_.push_back(next_);
    } else {
      return;
    }
    std::swap(slots_[next_], slots_[slot]);
    ++next_;
    tries_ = 0;
  }

  uint32_t* const slots_;
  const FreeRows& rows_;
  DiagonalCounts& lines_;
  Rng& rng_;
  std::vector<uint32_t>& conflicted_;
  uint32_t next_ = 0;   // the slot being filled
  uint32_t tries_ = 0;  // draws for it so far
};

enum class RepairEnd { kSolved, kBudgetSpent, kStopped };

// The repair phase on a full board. Queens are named by their slots
// (FreeRows). Every crowded line holds listed queens (in `conflicted`) for
// all but one of its queens: a queen arriving on a crowded line is listed,
// and a listed queen leaves the list only once neither of its lines is
// crowded. So an empty list is a solution.
class Repair {
 public:
  Repair(Columns& board, const FreeRows& rows, DiagonalCounts& lines, Rng& rng,
         std::vector<uint32_t> conflicted)
      : board_(board),
        rows_(rows),
        lines_(lines),
        rng_(rng),
        conflicted_(std::move(conflicted)),
        tries_per_move_(static_cast<uint32_t>(std::min<uint64_t>(
            kPartnerTries, uint64_t{kTriesPerPartner} * std::max(rows.count(), kPartnerBatch)))) {}

  // Sizes the mark of the listed slots; false once `stop` fires.
  bool Prepare(StopPoller& stop) {
    if (!listed_.Reset(rows_.count(), stop)) return false;
    for (uint32_t slot : conflicted_) listed_.Set(slot);
    return true;
  }

  RepairEnd Run(uint64_t budget, StopPoller& stop) {
    while (!conflicted_.empty()) {
      if (stop.ShouldStop(tries_per_move_)) return RepairEnd::kStopped;
      const size_t at = rng_.Below(static_cast<uint32_t>(conflicted_.size()));
      const uint32_t slot = conflicted_[at];
      if (!lines_.Crowded(rows_.Row(slot), Column(slot))) {
        conflicted_[at] = conflicted_.back();
        conflicted_.pop_back();
        listed_.Clear(slot);
        continue;
      }
      if (moves_ == budget || rows_.count() < 2) return RepairEnd::kBudgetSpent;
      Move(slot);
      ++moves_;
    }
    return RepairEnd::kSolved;
  }

  uint64_t moves() const { return moves_; }

 private:
  uint32_t& Column(uint32_t slot) { return board_[rows_.Row(slot) - 1]; }

  // Swaps the queen of `slot` with the first partner that lowers the
  // attacks, or with a random one. Partners are drawn kPartnerBatch at a
  // time and the lines they would touch fetched at once, so that their cache
  // misses overlap.
  void Move(uint32_t slot) {
    const uint32_t row = rows_.Row(slot), column = Column(slot);
    lines_.Remove(row, column);
    std::array<uint32_t, kPartnerBatch> partners;
    for (uint32_t tries = 0; tries < tries_per_move_; tries += kPartnerBatch) {
      // Near first; anywhere once the neighbourhood has failed (the queens
      // the greedy start leaves in conflict crowd its last rows).
      const uint32_t window = tries < tries_per_move_ / 2 ? kPartnerWindow : rows_.count();
      for (uint32_t& partner : partners) {
        partner = DrawPartner(slot, window);
        const uint32_t partner_column = Column(partner);
        lines_.Prefetch(rows_.Row(partner), partner_column);
        lines_.Prefetch(row, partner_column);
      }
      for (uint32_t partner : partners) {
        const uint32_t partner_row = rows_.Row(partner), partner_column = Column(partner);
        lines_.Remove(partner_row, partner_column);
        if (Attacks(row, partner_column, partner_row, column) <
            Attacks(row, column, partner_row, partner_column)) {
          return Swap(slot, partner, partner_column, column);
        }
        lines_.Add(partner_row, partner_column);
      }
    }
    const uint32_t partner = DrawPartner(slot, rows_.count());
    const uint32_t partner_column = Column(partner);
    lines_.Remove(rows_.Row(partner), partner_column);
    Swap(slot, partner, partner_column, column);
  }

  // Another slot within `window` of `slot` (there are two or more). Near
  // partners first: the partner's new cell then lies on lines near those
  // `slot` leaves, and its row near `slot`'s, which are in the cache; a
  // partner drawn anywhere costs three cache misses a try
  // (docs/constants.md, DrawPartner).
  uint32_t DrawPartner(uint32_t slot, uint32_t window) {
    const uint32_t span = std::min(rows_.count(), 2 * std::min(window, rows_.count()) + 1);
    const uint32_t first = std::min(slot - std::min(slot, window), rows_.count() - span);
    while (true) {
      const uint32_t partner = first + rng_.Below(span);
      if (partner != slot) return partner;
    }
  }

  // Attacks on queens at (a, column_a) and (b, column_b), both off the board:
  // the queens on their lines, and each other.
  uint32_t Attacks(uint32_t a, uint32_t column_a, uint32_t b, uint32_t column_b) const {
    const bool diagonal = int64_t{column_a} - a == int64_t{column_b} - b;
    const bool anti_diagonal = a + column_a == b + column_b;
    return lines_.Count(a, column_a) + lines_.Count(b, column_b) + diagonal + anti_diagonal;
  }

  // Puts the queens of slots a and b, both off the board, on new columns.
  void Swap(uint32_t a, uint32_t b, uint32_t column_a, uint32_t column_b) {
    Column(a) = column_a;
    Column(b) = column_b;
    lines_.Add(rows_.Row(a), column_a);
    lines_.Add(rows_.Row(b), column_b);
    for (uint32_t slot : {a, b}) {
      if (!listed_.Test(slot) && lines_.Crowded(rows_.Row(slot), Column(slot))) {
        listed_.Set(slot);
        conflicted_.push_back(slot);
      }
    }
  }

  Columns& board_;
  const FreeRows& rows_;
  DiagonalCounts& lines_;
  Rng& rng_;
  std::vector<uint32_t> conflicted_;
  BitArray listed_;                // index: slot; in conflicted_
  const uint32_t tries_per_move_;  // a multiple of kPartnerBatch
  uint64_t moves_ = 0;
};

// Takes the free rows' queens off `lines` and back into `slots` (slot k
// gets the queen of rows.Row(k)), for a new greedy start. False once `stop`
// fires.
bool TakeBack(const Columns& board, const FreeRows& rows, DiagonalCounts& lines, uint32_t* slots,
              StopPoller& stop) {
  return RunInStretches(0, rows.count(), stop, [&](size_t first, size_t last) {
    for (size_t slot = first; slot < last; ++slot) {
      const uint32_t row = rows.Row(static_cast<uint32_t>(slot)), column = board[row - 1];
      lines.Remove(row, column);
      slots[slot] = column;
    }
  });
}

// Puts slot k's column in row rows.Row(k) of `board`. False once `stop`
// fires.
bool WriteSlots(const uint32_t* slots, const FreeRows& rows, Columns& board, StopPoller& stop) {
  return RunInStretches(0, rows.count(), stop, [&](size_t first, size_t last) {
    for (size_t slot = first; slot < last; ++slot) {
      board[rows.Row(static_cast<uint32_t>(slot)) - 1] = slots[slot];
    }
  });
}

// The runs, each a greedy start and a repair, and the report. `slots` holds
// the columns to place in `rows` (Solve's are the board itself), `lines` the
// given queens alone; `start` is when the call began. A run that spends its
// moves (params.tot_sim_bound, or min_conflicts_moves_per_row a free row
// when that is 0) is followed by up to params.max_restarts others, as the
// pipeline restarts its runs.
absl::StatusOr<CompletionResult> RunAndReport(Columns board, uint32_t* slots, const FreeRows& rows,
                                              DiagonalCounts& lines, StopPoller& stop,
                                              const CallOptions& options, absl::Time start) {
  const PipelineParams& params = options.params;
  const uint64_t moves =
      BacktracksPerRun(params, uint64_t{params.min_conflicts_moves_per_row} * rows.count());
  Rng rng(options.seed);
  CompletionResult result;
  for (uint32_t run = 0;; ++run) {
    if (run > 0 && !TakeBack(board, rows, lines, slots, stop)) return stop.status();
    std::vector<uint32_t> conflicted;
    if (!GreedyStart(slots, rows, lines, rng, conflicted).Run(stop)) return stop.status();
    if (slots != board.data() && !WriteSlots(slots, rows, board, stop)) return stop.status();
    Repair repair(board, rows, lines, rng, std::move(conflicted));
    if (!repair.Prepare(stop)) return stop.status();
    const RepairEnd end = repair.Run(moves, stop);
    if (end == RepairEnd::kStopped) return stop.status();
    result.stats.repairs += repair.moves();
    if (end == RepairEnd::kSolved) {
      result.outcome = Outcome::kSolved;
      result.columns = std::move(board);
      break;
    }
    if (run >= params.max_restarts) break;  // kUndecided
    ++result.stats.restarts;
  }
  result.stats.seed = options.seed;
  result.stats.total_time = absl::Now() - start;
  return result;
}

// The board 1, 2, ..., n: every column once, in huge pages (the start
// shuffles it in place). False once `stop` fires.
bool FillIdentity(uint32_t n, Columns& board, StopPoller& stop) {
  ReserveHuge(board, n);
  return RunInStretches(0, n, stop, [&board](size_t first, size_t last) {
    board.resize(last);
    std::iota(board.begin() + first, board.end(), static_cast<uint32_t>(first + 1));
  });
}

// The empty rows of `board`; nullopt once `stop` fires.
std::optional<uint32_t> CountEmptyRows(const Columns& board, StopPoller& stop) {
  uint32_t count = 0;
  const bool counted = RunInStretches(0, board.size(), stop, [&](size_t first, size_t last) {
    count +=
        static_cast<uint32_t>(std::count(board.begin() + first, board.begin() + last, kEmptyRow));
  });
  if (!counted) return std::nullopt;
  return count;
}

// For Complete: the empty rows and the unused columns of `board`, ascending,
// with the given queens on `lines`. False once `stop` fires.
bool SplitFreeLines(const Columns& board, DiagonalCounts& lines, HugeVector<uint32_t>& rows,
                    HugeVector<uint32_t>& columns, StopPoller& stop) {
  const uint32_t n = static_cast<uint32_t>(board.size());
  BitArray column_used;
  if (!column_used.Reset(size_t{n} + 1, stop)) return false;
  const bool placed = RunInStretches(1, size_t{n} + 1, stop, [&](size_t first, size_t last) {
    for (size_t row = first; row < last; ++row) {
      const uint32_t column = board[row - 1];
      if (column == kEmptyRow) {
        rows.push_back(static_cast<uint32_t>(row));
      } else {
        column_used.Set(column);
        lines.Claim(static_cast<uint32_t>(row), column);
      }
    }
  });
  if (!placed) return false;
  columns.reserve(rows.size());
  return RunInStretches(1, size_t{n} + 1, stop, [&](size_t first, size_t last) {
    column_used.ForEachClear(first, last, [&columns](size_t column) {
      columns.push_back(static_cast<uint32_t>(column));
      return true;
    });
  });
}

}  // namespace

absl::StatusOr<CompletionResult> MinConflictsSolve(uint32_t n, const SolveOptions& options) {
  const absl::Time start = absl::Now();
  StopPoller stop(options.stop);
  Columns board;
  DiagonalCounts lines;
  if (!FillIdentity(n, board, stop) || !lines.Reset(n, stop)) return stop.status();
  const FreeRows rows(n);
  uint32_t* const slots = board.data();  // moving the board keeps its data
  return RunAndReport(std::move(board), slots, rows, lines, stop, options, start);
}

absl::StatusOr<CompletionResult> MinConflictsComplete(Columns composition,
                                                      const CompleteOptions& options) {
  const absl::Time start = absl::Now();
  StopPoller stop(options.stop);
  if (absl::Status status = CheckComposition(composition, stop); !status.ok()) return status;
  const uint32_t n = static_cast<uint32_t>(composition.size());
  const std::optional<uint32_t> free_count = CountEmptyRows(composition, stop);
  if (!free_count.has_value()) return stop.status();
  DiagonalCounts lines;
  if (!lines.Reset(n, stop)) return stop.status();
  HugeVector<uint32_t> free_rows, slots;
  // Room for every row at once: growing by doubling would hold two lists.
  free_rows.reserve(*free_count);
  if (!SplitFreeLines(composition, lines, free_rows, slots, stop)) return stop.status();
  const FreeRows rows(std::move(free_rows));
  absl::StatusOr<CompletionResult> result =
      RunAndReport(std::move(composition), slots.data(), rows, lines, stop, options, start);
  if (result.ok()) result->stats.queens_given = n - rows.count();
  return result;
}

// The board it shuffles in place, a bit per diagonal of each kind and, in
// the repair, a bit per row (its sparse counts and list of queens in
// conflict are small, and fixed-size at these n).
uint64_t MinConflictsPeakBytes(uint64_t n) {
  return kFixedPeakBytes + Board(n) + 2 * Bits(2 * n + 1) + Bits(n);
}

absl::Span<const Tunable> MinConflictsTunables() {
  static const Tunable kTunables[] = {
      {"min_conflicts_moves_per_row", &PipelineParams::min_conflicts_moves_per_row, 0, 1e6,
       "MIN_CONFLICTS: queen moves per free row in a run before it restarts or gives up, unless "
       "tot_sim_bound sets the moves",
       "measured, docs/methods.md"},
  };
  return kTunables;
}

}  // namespace nqueens::internal
