// Every empirical constant of the completion pipeline and of the other
// methods, in one place. Defaults reproduce the paper; tests, benchmarks and
// callers may tune them. ParamTable() lists each with its range, description
// and source (docs/params.md); Solve and Complete refuse values out of range.
//
// Source: E. Grigoryan, "Linear algorithm for solution n-Queens Completion
// problem", arXiv:1912.05935, sections 4.1-4.8 and 7; the bounds of section
// 4.8 are those of the author's code.
#ifndef NQUEENS_PARAMS_H_
#define NQUEENS_PARAMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace nqueens {

// b(u) = c3*u^3 + c2*u^2 + c1*u + c0 with u = log10(n).
struct Cubic {
  double c3, c2, c1, c0;
  double operator()(double u) const { return ((c3 * u + c2) * u + c1) * u + c0; }
};

// How long the exact search runs in a call without a deadline when
// PipelineParams::exact_max_seconds is 0.
inline constexpr double kDefaultExactSeconds = 60;

// The pipeline's backtracks per run when PipelineParams::tot_sim_bound is 0:
// the paper's totSimBound.
inline constexpr uint64_t kDefaultBacktracksPerRun = 1000;

struct PipelineParams {
  // --- Base levels (section 4.1): baseLevelX = n - round(bX(log10 n)). ---
  // The decimal logarithm: with the natural one baseLevel3 falls below
  // baseLevel2 for large n.
  uint32_t large_formula_from_n = 30000;
  Cubic b2_small{12.749568, -46.535838, 120.011829, -89.600272};
  Cubic b3_small{9.717958, -46.144187, 101.296409, -50.669273};
  // The printed article has +146.486415u; the minus sign is continuous at
  // n = 30,000 and is what the author's code uses.
  Cubic b2_large{-0.886344, 56.136743, -146.486415, 227.967782};
  Cubic b3_large{14.959815, -253.661725, 1584.711376, -3060.691342};

  // --- Regimes (section 4.2). ---
  // n below this: the finishing stage (blocks 4-5) from the start.
  uint32_t finish_only_below_n = 50;
  // n below this (and not finish-only): block 2 or block 4 depending on k.
  uint32_t random_pairing_from_n = 100;

  // --- Backtracking bounds (section 4.8). ---
  // Repeats of block 5's inner loop from the same outer choice.
  uint32_t repeat_bound_small_n = 25;  // for n < finish_only_below_n
  uint32_t repeat_bound = 5;
  // Restores of the block-3 start before going back to block 1.
  uint32_t sim_bound3 = 5;
  // Dead ends in block 5 before going back to block 3.
  uint32_t sim_bound5 = 100;
  // Backtracks in all, per run (totSimBound). The RPCs' max_backtracks, so
  // every method that gives up counts its own kind of backtrack against it
  // (docs/methods.md, "Limits"). 0, what the RPCs pass when none is asked
  // for: the methods' own bounds alone, kDefaultBacktracksPerRun for the
  // pipeline.
  uint64_t tot_sim_bound = 0;
  // Whole restarts from the input composition after the first run, when the
  // exact search cannot decide the input (MIN_CONFLICTS: when a run spent its
  // moves). The RPCs' max_restarts.
  uint32_t max_restarts = 10;

  // --- Block 1's chunked passes (beyond the paper, for boards of 10^8 rows). ---
  // From this many rows on, where the diagonal bits outgrow the L2 cache, a
  // pass cuts the free rows and the free columns, each kept in ascending
  // order chunk by chunk, into chunks of `pairing_chunk`, and pairs each row
  // chunk with a random column chunk, at random inside the pair. One chunk
  // pair's diagonals then lie within a few KiB: at n = 10^8 a uniformly
  // random pairing misses the cache on every pair (docs/scale.md). Smaller
  // boards, and passes over fewer than two chunks, pair uniformly at random,
  // as the paper does.
  uint32_t pairing_chunks_from_n = 1u << 21;
  // Small chunks: chunks of a sizable part of the board pack each pass's
  // queens onto a few diagonal bands, and block 5 then backtracks far more
  // often; small ones as rarely as no chunks (docs/pipeline.md;
  // docs/constants.md, pairing_chunk).
  uint32_t pairing_chunk = 2048;

  // --- Known solutions (beyond the paper). ---
  // Complete inputs lying in an image of the explicit construction by that
  // solution, before any search (their structure defeats the random stages).
  bool match_construction = true;

  // --- Exact search (beyond the paper). ---
  // The complete search decides compositions with at most this many free rows
  // (it takes any number; its memory is about 40 d^2 bytes for d free rows up
  // to 1024, d^2 / 4 beyond, so the most allowed here, 65,536, takes 1 GiB).
  // Lower ceilings left inputs the heuristic gave up on UNDECIDED that the
  // search decides at once (docs/hard-instances-log.md, "Findings", finding
  // 4). Above 1024 free rows the search's memory lies outside
  // nqueens/memory.h's estimates and is asked for through
  // CallOptions::reserve_memory.
  uint32_t exact_max_free_rows = 65536;
  // With at most this many free rows the exact search runs first: on such
  // boards it takes microseconds and decides unsolvable inputs at once, where
  // the heuristic would spend its whole backtrack budget before falling back.
  uint32_t exact_first_max_free_rows = 16;
  // The exact search gives up (UNDECIDED) after this many seconds; 0: at the
  // call's deadline (a little before, for the answer to reach the caller), or
  // after kDefaultExactSeconds for a call without one. By time, not nodes: a
  // node's cost varies by orders of magnitude with the board, and the hardest
  // boards decided within a minute need up to 10^9 nodes
  // (docs/hard-instances.md). The RPCs' max_exact_seconds.
  double exact_max_seconds = 0;
  // Search nodes the exact search may visit before giving up (UNDECIDED); no
  // limit by default, the time decides. The RPCs' max_exact_nodes. This and
  // exact_max_seconds bound BACKTRACKING too, the other complete search.
  uint64_t exact_node_budget = UINT64_MAX;

  // --- The other methods (beyond the pipeline). ---
  // MIN_CONFLICTS: queen moves (swaps) per free row in a run before it
  // restarts or gives up (UNDECIDED), unless tot_sim_bound sets the moves.
  // Large boards need few moves a row, small ones many: the default lies well
  // above the most any seed needed (docs/constants.md,
  // min_conflicts_moves_per_row). The budget only bounds the time spent on
  // inputs the repair cannot finish.
  uint32_t min_conflicts_moves_per_row = 200;
  // BACKTRACKING: nodes before giving up (UNDECIDED); exact_node_budget may
  // lower it.
  uint64_t backtracking_node_budget = 100'000'000;
  // GENETIC (the survey of constraint-satisfaction methods, docs/methods.md):
  // population, mutation rate, and generations before giving up
  // (UNDECIDED).
  uint32_t genetic_population = 75;
  double genetic_mutation_rate = 0.03;
  uint64_t genetic_max_generations = 100'000;
  // Beyond the paper: each new individual then tries this many swaps per
  // row, each of a queen on an attacked diagonal with a random other row,
  // kept unless it adds attacking pairs (genetic.cc says why). 0 is the
  // paper's plain GA.
  uint32_t genetic_repair_swaps_per_row = 1;
};

// The backtracks a method may spend in a run: params.tot_sim_bound, or the
// method's own budget `own` when that is 0.
inline uint64_t BacktracksPerRun(const PipelineParams& params, uint64_t own) {
  return params.tot_sim_bound != 0 ? params.tot_sim_bound : own;
}

// One tunable of PipelineParams (a field, or a coefficient of a cubic such
// as "b2_small.c3"), its values as text.
struct ParamInfo {
  std::string name;
  std::string default_value;
  std::string min, max;  // the range, inclusive
  std::string description;
  std::string source;
};

// Every tunable, in the order of PipelineParams.
std::vector<ParamInfo> ParamTable();

// Sets the tunable `name` from `value` (a number, or true/false).
// INVALID_ARGUMENT naming the parameter and its range when the name is
// unknown or the value is no number of its kind or out of range.
absl::Status SetParam(PipelineParams& params, absl::string_view name, absl::string_view value);

// OK when every tunable lies in its range; else INVALID_ARGUMENT naming the
// first that does not, and its range.
absl::Status CheckParams(const PipelineParams& params);

}  // namespace nqueens

#endif  // NQUEENS_PARAMS_H_
