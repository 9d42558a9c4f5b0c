// Compositions drawn from solutions the service itself produces must never
// come back UNDECIDED (docs/hard-instances.md, "Inputs from known
// solutions"). For each n: the CONSTRUCTIVE solution and --variants members
// of the FORMULA families (spread over all of them), each under the 8
// symmetries of the square and --shifts random cyclic shifts of its columns
// and of its rows (each kept only where it is still a solution, as for
// modular placements);
// from each, for every --keep fraction, a composition keeping that share of
// its rows, chosen at random, completed by Complete at default settings.
//
//   nqueens-structured-inputs --n=1000,100003,1000003 --variants=4 --keep=0.5,0.99,0.9999
//
// Every input is completable, so UNSOLVABLE is a wrong verdict; a SOLVED
// board that fails Validate or drops a given queen is wrong too. Any of them,
// or an UNDECIDED, makes the exit status 1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(std::vector<std::string>, n, (std::vector<std::string>{"1000", "100003", "1000003"}),
          "board sizes, comma-separated");
ABSL_FLAG(uint32_t, variants, 4, "FORMULA members per n, spread over all of them");
ABSL_FLAG(uint32_t, shifts, 2, "random cyclic shifts tried per solution image");
ABSL_FLAG(std::vector<std::string>, keep, (std::vector<std::string>{"0.5", "0.99", "0.9999"}),
          "shares of the rows kept, comma-separated");
ABSL_FLAG(uint64_t, seed, 1, "seed of the whole run");

namespace {

using nqueens::Columns;
using nqueens::bench::Clock;
using nqueens::bench::Random;

// A solution and where it came from, e.g. "FORMULA 3 symmetry 5 rows shifted
// by 17".
struct Source {
  std::string label;
  Columns columns;
};

struct Tally {
  uint64_t inputs = 0, solved = 0, unsolvable = 0, undecided = 0, wrong = 0;
  std::vector<double> seconds;
};

void AddIfSolution(std::string label, Columns board, std::vector<Source>& sources) {
  const auto report = nqueens::Validate(board);
  if (report.ok() && report->complete) sources.push_back({std::move(label), std::move(board)});
}

// The solutions of CONSTRUCTIVE and of the chosen FORMULA members, under
// every symmetry, plus their cyclic shifts that are solutions too.
std::vector<Source> Sources(uint32_t n, Random& random) {
  std::vector<std::pair<nqueens::SolveMethod, uint64_t>> methods = {
      {nqueens::SolveMethod::kConstructive, 0}};
  const uint64_t members = nqueens::FormulaVariantCount(n);
  const uint32_t variants = absl::GetFlag(FLAGS_variants);
  for (uint64_t i = 0; i < std::min<uint64_t>(variants, members); ++i) {
    methods.push_back({nqueens::SolveMethod::kFormula, i * members / variants});
  }
  std::vector<Source> sources;
  for (const auto& [method, variant] : methods) {
    for (uint32_t symmetry = 0; symmetry < 8; ++symmetry) {
      nqueens::SolveOptions options;
      options.formula_variant = variant;
      options.symmetry = symmetry;
      const auto solution = nqueens::Solve(n, method, options);
      if (!solution.ok() || solution->outcome != nqueens::Outcome::kSolved) continue;
      const std::string label =
          absl::StrFormat("%s %d symmetry %d", nqueens::SolveMethodName(method), variant, symmetry);
      sources.push_back({label, solution->columns});
      for (uint32_t s = 0; n > 1 && s < absl::GetFlag(FLAGS_shifts); ++s) {
        const uint32_t shift = 1 + nqueens::bench::Below(n - 1, random);
        Columns columns_shifted = solution->columns, rows_shifted(n);
        for (uint32_t& column : columns_shifted) column = (column - 1 + shift) % n + 1;
        for (uint32_t row = 0; row < n; ++row) {
          rows_shifted[(row + shift) % n] = solution->columns[row];
        }
        AddIfSolution(absl::StrFormat("%s columns shifted by %d", label, shift),
                      std::move(columns_shifted), sources);
        AddIfSolution(absl::StrFormat("%s rows shifted by %d", label, shift),
                      std::move(rows_shifted), sources);
      }
    }
  }
  return sources;
}

// Completes `composition`, drawn from `source`; names on stderr every input
// that was not solved, or took over a second.
void Run(const Columns& composition, const std::string& source, Tally& tally) {
  ++tally.inputs;
  const Clock::time_point start = Clock::now();
  const auto result = nqueens::Complete(composition);
  const double seconds = nqueens::bench::SecondsSince(start);
  tally.seconds.push_back(seconds);
  if (!result.ok() || result->outcome != nqueens::Outcome::kSolved || seconds > 1) {
    absl::FPrintF(stderr, "n=%d, %d queens, from %s: %s in %.3g s\n", composition.size(),
                  std::count_if(composition.begin(), composition.end(),
                                [](uint32_t column) { return column != nqueens::kEmptyRow; }),
                  source,
                  result.ok() ? nqueens::OutcomeName(result->outcome) : result.status().ToString(),
                  seconds);
  }
  if (!result.ok()) {
    ++tally.wrong;
    return;
  }
  switch (result->outcome) {
    case nqueens::Outcome::kSolved: {
      const auto report = nqueens::Validate(result->columns);
      bool keeps = true;
      for (size_t row = 0; row < composition.size(); ++row) {
        keeps = keeps && (composition[row] == nqueens::kEmptyRow ||
                          composition[row] == result->columns[row]);
      }
      if (report.ok() && report->complete && keeps) {
        ++tally.solved;
      } else {
        ++tally.wrong;
      }
      break;
    }
    case nqueens::Outcome::kUnsolvable:
      ++tally.unsolvable;
      break;
    default:
      ++tally.undecided;
      break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  Random random(absl::GetFlag(FLAGS_seed));
  std::printf(
      "| n | keep | solutions | inputs | solved | unsolvable (wrong) | undecided | wrong boards "
      "| median s | max s |\n|---|---|---|---|---|---|---|---|---|---|\n");
  bool clean = true;
  for (uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_n))) {
    const std::vector<Source> sources = Sources(n, random);
    for (const std::string& keep_text : absl::GetFlag(FLAGS_keep)) {
      const double keep = std::stod(keep_text);
      const auto kept = std::min<uint32_t>(n - 1, static_cast<uint32_t>(std::lround(keep * n)));
      Tally tally;
      for (const Source& source : sources) {
        Run(nqueens::bench::KeepRandomRows(source.columns, kept, random), source.label, tally);
      }
      absl::PrintF("| %d | %s | %d | %d | %d | %d | %d | %d | %.3g | %.3g |\n", n, keep_text,
                   sources.size(), tally.inputs, tally.solved, tally.unsolvable, tally.undecided,
                   tally.wrong, nqueens::bench::Median(tally.seconds),
                   *std::max_element(tally.seconds.begin(), tally.seconds.end()));
      std::fflush(stdout);
      clean = clean && tally.solved == tally.inputs;
    }
  }
  return clean ? 0 : 1;
}
