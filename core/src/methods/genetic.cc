// The genetic algorithm for n-queens of the survey of constraint-
// satisfaction methods ("Genetic algorithm for the n-queens problem"):
// individuals are permutations (no two queens share a row or a column), the
// fitness `hits` counts attacking pairs on the diagonals, and each
// generation replaces the worse half of the population (those above the
// median) with children of random pairs of the better half. A child keeps
// its parents' common genes and gets the other values at random; with the
// mutation rate (3%) two of its genes swap. The better half survives as it
// is (elitism). Population 75, as in the paper.
//
// Beyond the paper: the plain GA needs thousands of generations from n = 50
// on (the paper reports 43,600 generations and 11 minutes at n = 500), as
// every crossover refills the differing positions at random. Here each new
// individual is also repaired by random swaps (genetic_repair_swaps_per_row
// per row): a queen on an attacked diagonal swaps with a random other row,
// kept unless the attacking pairs grow, priced in O(1) with per-diagonal
// counts. The operators stay the paper's; the repair is what makes boards
// of hundreds of rows quick (docs/methods.md; docs/constants.md,
// genetic_repair_swaps_per_row).
#include "methods/genetic.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/peak_bytes.h"
#include "base/rng.h"
#include "base/stop_poller.h"

namespace nqueens::internal {
namespace {

// Queens per diagonal of each kind for one board (rows and columns 0-based,
// row + column and row - column + n - 1), and the attacking pairs.
class Diagonals {
 public:
  explicit Diagonals(uint32_t n) : n_(n) {}

  // The zeroed counts, written in polled stretches; false once `stop` fires.
  bool Allocate(StopPoller& stop) {
    return AppendPolled(sum_, 2 * size_t{n_}, 0, stop) &&
           AppendPolled(difference_, 2 * size_t{n_}, 0, stop);
  }

  void Add(uint32_t row, uint32_t column) {
    pairs_ += sum_[row + column]++;
    pairs_ += difference_[row + n_ - 1 - column]++;
  }
  void Remove(uint32_t row, uint32_t column) {
    pairs_ -= --sum_[row + column];
    pairs_ -= --difference_[row + n_ - 1 - column];
  }
  bool Attacked(uint32_t row, uint32_t column) const {
    return sum_[row + column] > 1 || difference_[row + n_ - 1 - column] > 1;
  }
  uint64_t pairs() const { return pairs_; }
  void Clear() {
    std::fill(sum_.begin(), sum_.end(), 0);
    std::fill(difference_.begin(), difference_.end(), 0);
    pairs_ = 0;
  }

 private:
  uint32_t n_;
  std::vector<uint32_t> sum_, difference_;
  uint64_t pairs_ = 0;
};

class Genetic {
 public:
  Genetic(uint32_t n, const SolveOptions& options, StopPoller& stop)
      : n_(n),
        size_(options.params.genetic_population),
        params_(options.params),
        stop_(stop),
        rng_(options.seed),
        // Not initialized: each individual is written (and its pages
        // faulted in) when it is created, under the stop's polls.
        genes_(new uint32_t[size_t{n} * size_]),
        hits_(size_),
        diagonals_(n) {}

  // The index of a solution, or -1 once genetic_max_generations
  // (stats.generations) or tot_sim_bound boards given up (stats.backtracks)
  // are spent; the poller's status once it fires. Every O(n) loop polls it
  // per element, so that one individual of a huge board cannot outlast a
  // stop request.
  absl::StatusOr<int64_t> Run(CompletionStats& stats) {
    if (!diagonals_.Allocate(stop_) || !AppendPolled(taken_, n_, 0, stop_)) return stop_.status();
    for (uint32_t i = 0; i < size_; ++i) {
      uint32_t* genes = Individual(i);
      std::iota(genes, genes + n_, 0);
      rng_.Shuffle(genes, genes + n_, [this] { return stop_.ShouldStop(1 << 14); });
      if (auto end = SettleAndJudge(i, stats)) return *std::move(end);
    }
    std::vector<uint32_t> order(size_);
    while (stats.generations < params_.genetic_max_generations) {
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [this](uint32_t a, uint32_t b) { return hits_[a] < hits_[b]; });
      ++stats.generations;
      // The better half (rounded up) breeds; its children replace the rest.
      const uint32_t parents = (size_ + 1) / 2;
      for (uint32_t k = parents; k < size_; ++k) {
        const uint32_t child = order[k];
        Crossover(order[rng_.Below(parents)], order[rng_.Below(parents)], child);
        if (Chance(params_.genetic_mutation_rate)) {
          uint32_t* genes = Individual(child);
          std::swap(genes[rng_.Below(n_)], genes[rng_.Below(n_)]);
        }
        if (auto end = SettleAndJudge(child, stats)) return *std::move(end);
      }
    }
    return -1;
  }

  Columns Board(uint32_t i) const {
    Columns columns(n_);
    const uint32_t* genes = genes_.get() + size_t{i} * n_;
    for (uint32_t row = 0; row < n_; ++row) columns[row] = genes[row] + 1;
    return columns;
  }

 private:
  uint32_t* Individual(uint32_t i) { return genes_.get() + size_t{i} * n_; }

  bool Chance(double probability) {
    return static_cast<double>(rng_.Next() >> 11) * 0x1.0p-53 < probability;
  }

  // The paper's crossover: the genes both parents agree on stay in place;
  // the values left over fill the other positions in random order.
  void Crossover(uint32_t first, uint32_t second, uint32_t child) {
    const uint32_t* a = Individual(first);
    const uint32_t* b = Individual(second);
    uint32_t* genes = Individual(child);
    std::fill(taken_.begin(), taken_.end(), 0);
    holes_.clear();
    for (uint32_t row = 0; row < n_ && !stop_.ShouldStop(); ++row) {
      if (a[row] == b[row]) {
        genes[row] = a[row];
        taken_[a[row]] = 1;
      } else {
        holes_.push_back(row);
      }
    }
    rest_.clear();
    for (uint32_t value = 0; value < n_; ++value) {
      if (!taken_[value]) rest_.push_back(value);
    }
    rng_.Shuffle(rest_.begin(), rest_.end(), [this] { return stop_.ShouldStop(1 << 14); });
    for (size_t k = 0; k < holes_.size(); ++k) genes[holes_[k]] = rest_[k];
  }

  // Settles individual i; a board that is no solution is GENETIC's
  // backtrack, of which a run may take params.tot_sim_bound (no limit when
  // 0). What ends the run, if this does: i for a solution, -1 once the
  // backtracks are spent, the poller's status once it fires.
  std::optional<absl::StatusOr<int64_t>> SettleAndJudge(uint32_t i, CompletionStats& stats) {
    const bool solved = Settle(i);
    if (!stop_.status().ok()) return stop_.status();
    if (solved) return i;
    if (++stats.backtracks == BacktracksPerRun(params_, UINT64_MAX)) return -1;
    return std::nullopt;
  }

  // Repairs individual i (beyond the paper, see the top) and records its
  // hits; true for a solution.
  bool Settle(uint32_t i) {
    uint32_t* genes = Individual(i);
    for (uint32_t row = 0; row < n_ && !stop_.ShouldStop(); ++row) diagonals_.Add(row, genes[row]);
    const uint64_t swaps = uint64_t{params_.genetic_repair_swaps_per_row} * n_;
    for (uint64_t attempt = 0; attempt < swaps && diagonals_.pairs() > 0 && !stop_.ShouldStop();
         ++attempt) {
      const uint32_t row = rng_.Below(n_);
      if (!diagonals_.Attacked(row, genes[row])) continue;
      TrySwap(genes, row, rng_.Below(n_));
    }
    hits_[i] = diagonals_.pairs();
    diagonals_.Clear();
    return hits_[i] == 0;
  }

  // Swaps the queens of rows r and s unless that adds attacking pairs.
  void TrySwap(uint32_t* genes, uint32_t r, uint32_t s) {
    const uint64_t before = diagonals_.pairs();
    diagonals_.Remove(r, genes[r]);
    diagonals_.Remove(s, genes[s]);
    diagonals_.Add(r, genes[s]);
    diagonals_.Add(s, genes[r]);
    if (diagonals_.pairs() <= before) {
      std::swap(genes[r], genes[s]);
      return;
    }
    diagonals_.Remove(r, genes[s]);
    diagonals_.Remove(s, genes[r]);
    diagonals_.Add(r, genes[r]);
    diagonals_.Add(s, genes[s]);
  }

  const uint32_t n_;
  const uint32_t size_;
  const PipelineParams& params_;
  StopPoller& stop_;
  Rng rng_;
  // size_ permutations of 0..n-1, one after another.
  std::unique_ptr<uint32_t[]> genes_;
  std::vector<uint64_t> hits_;  // attacking pairs of each
  Diagonals diagonals_;         // of the individual being settled
  std::vector<uint8_t> taken_;  // crossover: values kept from the parents
  std::vector<uint32_t> holes_, rest_;
};

}  // namespace

absl::StatusOr<CompletionResult> GeneticSolve(uint32_t n, const SolveOptions& options) {
  const absl::Time start = absl::Now();
  StopPoller stop(options.stop);
  Genetic genetic(n, options, stop);
  CompletionResult result;
  absl::StatusOr<int64_t> solution = genetic.Run(result.stats);
  if (!solution.ok()) return solution.status();
  if (*solution >= 0) {
    result.outcome = Outcome::kSolved;
    result.columns = genetic.Board(static_cast<uint32_t>(*solution));
  }
  result.stats.seed = options.seed;
  result.stats.total_time = absl::Now() - start;
  return result;
}

// The population in one array and the child's diagonal counts, with the
// default genetic_population.
uint64_t GeneticPeakBytes(uint64_t n) {
  const uint64_t population = PipelineParams{}.genetic_population;
  return kFixedPeakBytes + HugeArray(4 * n * population) + HugeArray(16 * n) + Board(n);
}

absl::Span<const Tunable> GeneticTunables() {
  static const Tunable kTunables[] = {
      {"genetic_population", &PipelineParams::genetic_population, 2, 10'000,
       "GENETIC: individuals per generation", "docs/methods.md"},
      {"genetic_mutation_rate", &PipelineParams::genetic_mutation_rate, 0, 1,
       "GENETIC: probability that a new individual is mutated", "docs/methods.md"},
      {"genetic_max_generations", &PipelineParams::genetic_max_generations, 1, kNoLimit,
       "GENETIC: generations before giving up", "docs/methods.md"},
      {"genetic_repair_swaps_per_row", &PipelineParams::genetic_repair_swaps_per_row, 0, 1000,
       "GENETIC: repairing swaps per row for each new individual (0: the plain algorithm)",
       "beyond the source, docs/methods.md"},
  };
  return kTunables;
}

}  // namespace nqueens::internal
