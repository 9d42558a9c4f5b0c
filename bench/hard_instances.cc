// Hard n-Queens Completion instances from the literature, and how the solver
// does on them (results in docs/hard-instances.md).
//
// Two families, both from Gent, Jefferson & Nightingale, "Complexity of
// n-Queens Completion", JAIR 59 (2017), and their generators on CSPLib
// (prob079):
//  * random: their "natural" generator. On the n x n board, a random free
//    row and a random free column are drawn and a queen is put there unless a
//    placed queen shares a diagonal, until k queens stand. The chance that a
//    completion exists falls from 1 to 0 around n = 0.19 d^2 for d = n - k
//    free rows (their shiftqueens experiments, d <= 30), so d = sqrt(n /
//    --ratio) puts the instances at the transition; for larger d it drifts
//    (see the docs). Instances with a free row or column
//    that no free cell is left in are unsolvable at a glance; they are
//    dropped and counted. At n = 10^6 one run takes about 0.3 s, nearly all
//    of it before the last few thousand rows are placed, and most runs are
//    dropped: --prefix_free_rows shares that part between the runs of a
//    prefix (see the docs).
//  * diagonals: their Excluded Diagonals problem (an m x m board on which
//    some diagonals may not hold a queen), which they found hard near
//    "m diagonals excluded", turned into n-Queens Completion by their
//    reduction: a board of about 266 m rows with all but m queens placed.
//
//   nqueens-hard-instances --family=random --n=50,100,200,400,800 --instances=100
//   nqueens-hard-instances --family=diagonals --m=10,14,18,22 --instances=50
//
// Each instance runs through the public nqueens::Complete three times: with
// the default options; with the exact search allowed up to
// --exact_max_free_rows free rows (default budgets otherwise); and with
// large budgets too (--large_exact_nodes). --engine=exact runs the exact
// search alone instead (internal::ExactComplete, --large_exact_nodes), and
// --engine=engines each of its three engines once, without restarts, on the
// same free board: they must visit the same nodes, so the ns per node
// compare (the word engine also with the diagonal sums bound, which may only
// visit fewer); --engine=threads the exact search alone on 1 and 2 threads
// (also printing the per-instance speedups);
// --engine=defaults the first of the three alone; --engine=certificates the exact search alone with
// a certificate for each UNSOLVABLE answer, checked by the independent checker (checker/). Every
// SOLVED board is validated; a wrong board, or SOLVED and UNSOLVABLE for the same instance, is a
// defect and makes the exit status 1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "base/stop_poller.h"
#include "bench/common/clocks.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "checker/certificate_check.h"
#include "exact/exact_search.h"
#include "exact/free_board.h"
#include "exact/search_engines.h"
#include "exact/word_search.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(std::string, family, "random", "random | diagonals");
ABSL_FLAG(std::vector<std::string>, n, (std::vector<std::string>{"50", "100", "200", "400", "800"}),
          "random family: board sizes, comma-separated");
ABSL_FLAG(double, ratio, 0.19, "random family: n / d^2 at the phase transition");
ABSL_FLAG(uint32_t, prefix_free_rows, 0,
          "random family: when nonzero, the generator runs until this many rows are free and "
          "--tails_per_prefix instances carry on from copies of that board (each drawn as a "
          "fresh run would be, but sharing the prefix's queens); 0: every instance from scratch");
ABSL_FLAG(uint32_t, tails_per_prefix, 64, "random family: instances tried per shared prefix");
ABSL_FLAG(std::vector<std::string>, m, (std::vector<std::string>{"10", "14", "18"}),
          "diagonals family: sizes of the Excluded Diagonals board (free rows), comma-separated");
ABSL_FLAG(double, excluded_per_row, 1.0,
          "diagonals family: diagonals excluded per row of the m x m board");
ABSL_FLAG(uint32_t, min_open, 4,
          "diagonals family: a diagonal is not excluded when that would leave a row or "
          "column of the m x m board with this many open cells or fewer");
ABSL_FLAG(uint32_t, instances, 100, "instances per size");
ABSL_FLAG(std::string, engine, "complete",
          "complete: nqueens::Complete in three configurations; defaults: the first alone; exact: "
          "the exact search alone; "
          "engines: each engine of the exact search once (word, trail, large), same tree (the "
          "word engine also with the diagonal sums, no more nodes); threads: "
          "the exact search alone on 1 and 2 threads; certificates: the exact search alone, each "
          "UNSOLVABLE certificate checked by the independent checker; none: make the instances "
          "only (with --write_boards)");
ABSL_FLAG(uint32_t, exact_max_free_rows, nqueens::PipelineParams{}.exact_max_free_rows,
          "PipelineParams::exact_max_free_rows of the second and third runs");
ABSL_FLAG(uint64_t, large_exact_nodes, 1'000'000'000,
          "exact-search node budget of the large-budget run (and of --engine=exact)");
ABSL_FLAG(double, instance_seconds, 120, "wall-time limit per run (then UNDECIDED)");
ABSL_FLAG(uint64_t, seed, 1, "seed of the whole run");
ABSL_FLAG(std::string, markdown, "", "also write the table as Markdown here");
ABSL_FLAG(std::string, write_boards, "",
          "also write each instance to this directory as FAMILY-SIZE-INDEX.q (the Q format), "
          "to run it elsewhere");

namespace {

using nqueens::Columns;
using nqueens::kEmptyRow;
using nqueens::bench::Below;
using nqueens::bench::Clock;
using nqueens::bench::Diagonal;
using nqueens::bench::ExcludedDiagonals;
using nqueens::bench::ExcludedDiagonalsAsCompletion;
using nqueens::bench::NaturalDraw;
using nqueens::bench::Random;

// A batch of instances of one size, and what making them cost.
struct Batch {
  std::string label;  // e.g. "n=100 d=23"
  std::vector<Columns> instances;
  uint64_t dropped = 0;  // unsolvable at a glance, or the generator gave up
};

// Writes the batch's instances for --write_boards.
void WriteBoards(const std::string& family, uint32_t size, const Batch& batch) {
  const std::string directory = absl::GetFlag(FLAGS_write_boards);
  if (directory.empty()) return;
  for (size_t i = 0; i < batch.instances.size(); ++i) {
    std::string text;
    for (uint32_t column : batch.instances[i]) absl::StrAppend(&text, column, "\n");
    nqueens::bench::WriteFile(absl::StrFormat("%s/%s-%d-%d.q", directory, family, size, i), text);
  }
}

// Each instance is the generator's run carried on from a copy of a shared
// prefix (--prefix_free_rows); without one, from the empty board.
Batch RandomBatch(uint32_t n, uint32_t count, Random& random) {
  const uint32_t d = std::min<uint32_t>(
      n, static_cast<uint32_t>(std::lround(std::sqrt(n / absl::GetFlag(FLAGS_ratio)))));
  const uint32_t prefix_free_rows = absl::GetFlag(FLAGS_prefix_free_rows);
  const bool shared = prefix_free_rows > 0;
  Batch batch;
  batch.label = absl::StrFormat("n=%d d=%d", n, d);
  if (shared) absl::StrAppendFormat(&batch.label, " prefix %d", std::clamp(prefix_free_rows, d, n));
  while (batch.instances.size() < count) {
    NaturalDraw prefix(n);
    if (shared && !prefix.PlaceUntil(std::clamp(prefix_free_rows, d, n), random)) {
      ++batch.dropped;
      continue;
    }
    const uint32_t tails = shared ? absl::GetFlag(FLAGS_tails_per_prefix) : 1;
    for (uint32_t tail = 0; tail < tails && batch.instances.size() < count; ++tail) {
      NaturalDraw draw = prefix;
      if (!draw.PlaceUntil(d, random) || draw.HasDeadLine()) {
        ++batch.dropped;
        continue;
      }
      batch.instances.push_back(draw.composition());
    }
  }
  return batch;
}

// --- The Excluded Diagonals family. ---

Batch DiagonalsBatch(uint32_t m, uint32_t count, Random& random) {
  const uint32_t excluded =
      static_cast<uint32_t>(std::lround(absl::GetFlag(FLAGS_excluded_per_row) * m));
  Batch batch;
  while (batch.instances.size() < count) {
    const std::vector<Diagonal> diagonals =
        ExcludedDiagonals(m, excluded, absl::GetFlag(FLAGS_min_open), random);
    if (diagonals.size() < excluded) {
      ++batch.dropped;  // the board ran out of diagonals to exclude
      continue;
    }
    Columns composition = ExcludedDiagonalsAsCompletion(m, diagonals);
    if (absl::Status status = nqueens::CheckComposition(composition); !status.ok()) {
      absl::FPrintF(stderr, "bug in the reduction: %s\n", status.ToString());
      std::exit(2);
    }
    if (batch.label.empty()) {
      batch.label = absl::StrFormat("m=%d (n=%d) excl=%d", m, composition.size(), excluded);
    }
    batch.instances.push_back(std::move(composition));
  }
  return batch;
}

// --- Running and reporting. ---

struct Run {
  nqueens::Outcome outcome = nqueens::Outcome::kUndecided;
  bool timed_out = false;
  bool wrong_board = false;  // SOLVED with a board that is no extension
  double seconds = 0;
  uint64_t exact_nodes = 0;
};

bool Extends(const Columns& board, const Columns& input) {
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
  if (!report.ok() || !report->complete || board.size() != input.size()) return false;
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != kEmptyRow && board[row] != input[row]) return false;
  }
  return true;
}

nqueens::StopCondition Deadline() {
  nqueens::StopCondition stop;
  stop.deadline = absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_instance_seconds));
  return stop;
}

// One way of deciding an instance.
struct Solver {
  std::string name;
  Run (*run)(const Columns& input, uint64_t seed);
};

Run RunComplete(const Columns& input, const nqueens::CompleteOptions& options) {
  Run run;
  const Clock::time_point start = Clock::now();
  absl::StatusOr<nqueens::CompletionResult> result = nqueens::Complete(input, options);
  run.seconds = nqueens::bench::SecondsSince(start);
  if (!result.ok()) {
    if (result.status().code() != absl::StatusCode::kDeadlineExceeded) {
      absl::FPrintF(stderr, "Complete failed: %s\n", result.status().ToString());
      std::exit(2);
    }
    run.timed_out = true;
    return run;
  }
  run.outcome = result->outcome;
  run.exact_nodes = result->stats.exact_nodes;
  run.wrong_board = run.outcome == nqueens::Outcome::kSolved && !Extends(result->columns, input);
  return run;
}

// As a call without a deadline runs (the exact search stops after
// kDefaultExactSeconds), with --instance_seconds as a safety net.
Run CompleteWithDefaults(const Columns& input, uint64_t seed) {
  nqueens::CompleteOptions options;
  options.seed = seed;
  options.stop = Deadline();
  options.params.exact_max_seconds = nqueens::kDefaultExactSeconds;
  return RunComplete(input, options);
}

Run CompleteWithMoreFreeRows(const Columns& input, uint64_t seed) {
  nqueens::CompleteOptions options;
  options.seed = seed;
  options.stop = Deadline();
  options.params.exact_max_free_rows = absl::GetFlag(FLAGS_exact_max_free_rows);
  return RunComplete(input, options);
}

Run CompleteWithLargeBudgets(const Columns& input, uint64_t seed) {
  nqueens::CompleteOptions options;
  options.seed = seed;
  options.stop = Deadline();
  options.params.exact_max_free_rows = absl::GetFlag(FLAGS_exact_max_free_rows);
  options.params.exact_node_budget = absl::GetFlag(FLAGS_large_exact_nodes);
  return RunComplete(input, options);
}

template <int kThreads>
Run ExactSearchAlone(const Columns& input, uint64_t) {
  Run run;
  const nqueens::StopCondition condition = Deadline();
  nqueens::internal::StopPoller stop(condition);
  const Clock::time_point start = Clock::now();
  absl::StatusOr<nqueens::internal::ExactResult> result = nqueens::internal::ExactComplete(
      input, {absl::GetFlag(FLAGS_large_exact_nodes)}, stop, {kThreads, {}});
  run.seconds = nqueens::bench::SecondsSince(start);
  if (!result.ok()) {
    if (result.status().code() != absl::StatusCode::kDeadlineExceeded) {
      absl::FPrintF(stderr, "ExactComplete failed: %s\n", result.status().ToString());
      std::exit(2);
    }
    run.timed_out = true;
    return run;
  }
  using nqueens::internal::ExactVerdict;
  run.outcome = result->verdict == ExactVerdict::kSolved       ? nqueens::Outcome::kSolved
                : result->verdict == ExactVerdict::kUnsolvable ? nqueens::Outcome::kUnsolvable
                                                               : nqueens::Outcome::kUndecided;
  run.exact_nodes = result->nodes;
  run.wrong_board = run.outcome == nqueens::Outcome::kSolved && !Extends(result->columns, input);
  return run;
}

// An engine without a certificate, as a plain function (a default argument
// does not come with a pointer to the function).
template <auto kRun>
nqueens::internal::SearchOutcome WithoutCertificate(const nqueens::internal::FreeBoard& board,
                                                    uint64_t budget,
                                                    nqueens::internal::StopPoller& stop,
                                                    uint64_t seed) {
  return kRun(board, budget, stop, seed, nullptr);
}

// The word engine without the diagonal sums bound, whose tree is the other
// engines' on every board.
nqueens::internal::SearchOutcome WordEngineWithoutDiagonalSums(
    const nqueens::internal::FreeBoard& board, uint64_t budget, nqueens::internal::StopPoller& stop,
    uint64_t seed) {
  const nqueens::internal::WordBoard word_board(board);
  nqueens::internal::WordSearchOptions options;
  options.without_diagonal_sums = true;
  nqueens::internal::WordSearch search(word_board, stop, seed, options);
  nqueens::internal::NodeAllowance allowance(budget);
  return search.Search({}, allowance);
}

// One run of an engine of the exact search (search_engines.h), timed
// without building the free board.
template <auto kEngine>
Run EngineAlone(const Columns& input, uint64_t) {
  Run run;
  const nqueens::StopCondition condition = Deadline();
  nqueens::internal::StopPoller stop(condition);
  absl::StatusOr<nqueens::internal::FreeBoard> board =
      nqueens::internal::FreeBoard::Build(input, stop);
  if (!board.ok()) {
    absl::FPrintF(stderr, "FreeBoard::Build failed: %s\n", board.status().ToString());
    std::exit(2);
  }
  const Clock::time_point start = Clock::now();
  const nqueens::internal::SearchOutcome outcome =
      kEngine(*board, absl::GetFlag(FLAGS_large_exact_nodes), stop, 0);
  run.seconds = nqueens::bench::SecondsSince(start);
  run.timed_out = !stop.status().ok();
  run.exact_nodes = outcome.nodes;
  run.outcome = outcome.solutions > 0                       ? nqueens::Outcome::kSolved
                : outcome.budget_exhausted || run.timed_out ? nqueens::Outcome::kUndecided
                                                            : nqueens::Outcome::kUnsolvable;
  return run;
}

// The exact search alone with certificates: each UNSOLVABLE answer's
// certificate must pass the independent checker (else a defect).
Run ExactSearchWithCertificates(const Columns& input, uint64_t) {
  Run run;
  const nqueens::StopCondition condition = Deadline();
  nqueens::internal::StopPoller stop(condition);
  const Clock::time_point start = Clock::now();
  absl::StatusOr<nqueens::internal::ExactResult> result =
      nqueens::internal::ExactComplete(input, {absl::GetFlag(FLAGS_large_exact_nodes)}, stop, {},
                                       {nqueens::CertificateFormat::kBinary, size_t{1} << 32});
  run.seconds = nqueens::bench::SecondsSince(start);
  if (!result.ok()) {
    run.timed_out = true;
    return run;
  }
  run.exact_nodes = result->nodes;
  if (result->verdict == nqueens::internal::ExactVerdict::kSolved) {
    run.outcome = nqueens::Outcome::kSolved;
    run.wrong_board = !Extends(result->columns, input);
  } else if (result->verdict == nqueens::internal::ExactVerdict::kUnsolvable) {
    run.outcome = nqueens::Outcome::kUnsolvable;
    const absl::Status checked =
        result->certificate.has_value()
            ? nqueens::checker::CheckCertificate(input, *result->certificate)
            : absl::NotFoundError(result->certificate_missing);
    if (!checked.ok()) {
      absl::FPrintF(stderr, "certificate not checked: %s\n", checked.ToString());
      run.wrong_board = true;
    }
  }
  return run;
}

struct Row {
  std::string batch, solver;
  uint64_t instances = 0, dropped = 0;
  uint64_t solved = 0, unsolvable = 0, undecided = 0, timed_out = 0;
  uint64_t defects = 0;  // wrong boards, and instances SOLVED by one solver, UNSOLVABLE by another
  double median_seconds = 0, max_seconds = 0;
  double median_nodes = 0;
  uint64_t max_nodes = 0;
  double ns_per_node = 0;  // all the runs' time over all their exact nodes
};

Row Summarize(const Batch& batch, const std::string& solver, const std::vector<Run>& runs) {
  Row row{batch.label, solver, runs.size(), batch.dropped};
  std::vector<double> seconds, nodes;
  double total_seconds = 0, total_nodes = 0;
  for (const Run& run : runs) {
    total_seconds += run.seconds;
    total_nodes += static_cast<double>(run.exact_nodes);
    row.solved += run.outcome == nqueens::Outcome::kSolved;
    row.unsolvable += run.outcome == nqueens::Outcome::kUnsolvable;
    row.undecided += run.outcome == nqueens::Outcome::kUndecided;
    row.timed_out += run.timed_out;
    row.defects += run.wrong_board;
    seconds.push_back(run.seconds);
    nodes.push_back(static_cast<double>(run.exact_nodes));
    row.max_nodes = std::max(row.max_nodes, run.exact_nodes);
  }
  row.median_seconds = nqueens::bench::Median(seconds);
  row.max_seconds = *std::max_element(seconds.begin(), seconds.end());
  row.median_nodes = nqueens::bench::Median(nodes);
  row.ns_per_node = total_nodes > 0 ? total_seconds * 1e9 / total_nodes : 0;
  return row;
}

// Instances one solver proved unsolvable and another solved.
uint64_t Contradictions(const std::vector<std::vector<Run>>& runs_by_solver) {
  uint64_t contradictions = 0;
  if (runs_by_solver.empty()) return 0;  // --engine=none
  for (size_t i = 0; i < runs_by_solver.front().size(); ++i) {
    bool solved = false, unsolvable = false;
    for (const std::vector<Run>& runs : runs_by_solver) {
      solved = solved || runs[i].outcome == nqueens::Outcome::kSolved;
      unsolvable = unsolvable || runs[i].outcome == nqueens::Outcome::kUnsolvable;
    }
    contradictions += solved && unsolvable;
  }
  return contradictions;
}

// Instances on which the engines' trees disagree: the word engine with the
// diagonal sums (the first solver) visits no more nodes than without them
// (the second), and the others (from the second on) the same nodes.
uint64_t NodeMismatches(const std::vector<std::vector<Run>>& runs_by_solver) {
  uint64_t mismatches = 0;
  for (size_t i = 0; i < runs_by_solver.front().size(); ++i) {
    const uint64_t same_tree = runs_by_solver[1][i].exact_nodes;
    bool mismatch = runs_by_solver[0][i].exact_nodes > same_tree;
    for (size_t s = 2; s < runs_by_solver.size(); ++s) {
      mismatch |= runs_by_solver[s][i].exact_nodes != same_tree;
    }
    mismatches += mismatch;
  }
  return mismatches;
}

// For --engine=threads: per instance, the first solver's time over each
// other's, as medians over the instances both proved unsolvable and over
// those both solved (a solvable board's tree is searched in another order
// on several threads, so its time may move either way).
void PrintSpeedups(const Batch& batch, const std::vector<Solver>& solvers,
                   const std::vector<std::vector<Run>>& runs_by_solver) {
  for (size_t s = 1; s < solvers.size(); ++s) {
    std::vector<double> unsolvable, solved;
    for (size_t i = 0; i < runs_by_solver[0].size(); ++i) {
      const Run &first = runs_by_solver[0][i], &other = runs_by_solver[s][i];
      if (first.outcome != other.outcome || other.seconds <= 0) continue;
      const double speedup = first.seconds / other.seconds;
      if (first.outcome == nqueens::Outcome::kUnsolvable) unsolvable.push_back(speedup);
      if (first.outcome == nqueens::Outcome::kSolved) solved.push_back(speedup);
    }
    absl::PrintF("%s, %s: per-instance speedup, median %.2f on %d unsolvable, %.2f on %d solved\n",
                 batch.label, solvers[s].name, nqueens::bench::Median(unsolvable),
                 unsolvable.size(), nqueens::bench::Median(solved), solved.size());
  }
}

std::vector<Row> Measure(const Batch& batch, const std::vector<Solver>& solvers, Random& random) {
  std::vector<uint64_t> seeds;
  for (size_t i = 0; i < batch.instances.size(); ++i) seeds.push_back(random());
  // Instance by instance, every solver in turn: the machine's speed drifts,
  // and the solvers' times are compared.
  std::vector<std::vector<Run>> runs_by_solver(solvers.size());
  for (size_t i = 0; i < batch.instances.size(); ++i) {
    for (size_t s = 0; s < solvers.size(); ++s) {
      runs_by_solver[s].push_back(solvers[s].run(batch.instances[i], seeds[i]));
    }
  }
  uint64_t contradictions = Contradictions(runs_by_solver);
  if (absl::GetFlag(FLAGS_engine) == "engines") contradictions += NodeMismatches(runs_by_solver);
  if (absl::GetFlag(FLAGS_engine) == "threads") PrintSpeedups(batch, solvers, runs_by_solver);
  std::vector<Row> rows;
  for (size_t s = 0; s < solvers.size(); ++s) {
    rows.push_back(Summarize(batch, solvers[s].name, runs_by_solver[s]));
    rows.back().defects += contradictions;
  }
  return rows;
}

std::string Markdown(const std::vector<Row>& rows) {
  std::string out =
      "| instances | solver | count | dropped | solved | unsolvable | undecided (timeouts) "
      "| defects | median s | max s | median exact nodes | max exact nodes | ns per node |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    absl::StrAppendFormat(
        &out, "| %s | %s | %d | %d | %d | %d | %d (%d) | %d | %.3g | %.3g | %.0f | %d | %.0f |\n",
        r.batch, r.solver, r.instances, r.dropped, r.solved, r.unsolvable, r.undecided, r.timed_out,
        r.defects, r.median_seconds, r.max_seconds, r.median_nodes, r.max_nodes, r.ns_per_node);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string family = absl::GetFlag(FLAGS_family);
  if (family != "random" && family != "diagonals") {
    absl::FPrintF(stderr, "--family must be random or diagonals\n");
    return 2;
  }
  const std::string engine = absl::GetFlag(FLAGS_engine);
  std::vector<Solver> solvers;
  if (engine == "exact") {
    solvers = {{"exact search alone", ExactSearchAlone<1>}};
  } else if (engine == "certificates") {
    solvers = {{"exact search, certificates checked", ExactSearchWithCertificates}};
  } else if (engine == "threads") {
    solvers = {{"exact search, 1 thread", ExactSearchAlone<1>},
               {"exact search, 2 threads", ExactSearchAlone<2>}};
  } else if (engine == "engines") {
    solvers = {
        {"word engine", EngineAlone<WithoutCertificate<nqueens::internal::RunWordSearch>>},
        {"word engine, no diagonal sums", EngineAlone<WordEngineWithoutDiagonalSums>},
        {"trail engine", EngineAlone<WithoutCertificate<nqueens::internal::RunTrailSearch>>},
        {"large engine", EngineAlone<WithoutCertificate<nqueens::internal::RunLargeSearch>>}};
  } else if (engine == "defaults") {
    solvers = {{"Complete, defaults", CompleteWithDefaults}};
  } else if (engine == "none") {
    solvers = {};
  } else if (engine == "complete") {
    solvers = {{"Complete, defaults", CompleteWithDefaults},
               {"Complete, exact_max_free_rows", CompleteWithMoreFreeRows},
               {"Complete, large budgets", CompleteWithLargeBudgets}};
  } else {
    absl::FPrintF(
        stderr,
        "--engine must be complete, defaults, exact, engines, threads, certificates or none\n");
    return 2;
  }
  Random random(absl::GetFlag(FLAGS_seed));
  std::vector<Row> rows;
  const bool random_family = family == "random";
  for (uint32_t size : nqueens::bench::ParseSizes(random_family ? absl::GetFlag(FLAGS_n)
                                                                : absl::GetFlag(FLAGS_m))) {
    const uint32_t count = absl::GetFlag(FLAGS_instances);
    const Batch batch =
        random_family ? RandomBatch(size, count, random) : DiagonalsBatch(size, count, random);
    WriteBoards(family, size, batch);
    for (Row& row : Measure(batch, solvers, random)) {
      std::fputs(Markdown({row}).c_str(), stderr);  // progress
      rows.push_back(std::move(row));
    }
  }
  nqueens::bench::PrintReport(Markdown(rows), absl::GetFlag(FLAGS_markdown));
  uint64_t defects = 0;
  for (const Row& row : rows) defects += row.defects;
  return defects == 0 ? 0 : 1;
}
