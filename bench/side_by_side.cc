// Every method of the core on the same boards, for docs/methods.md:
//
//  * Solve: each method at each n where it reaches: the median time of the
//    seeds it solved, its peak memory per row, and the share of seeds
//    solved within --run_seconds. Once a method solves no seed at some n,
//    larger n are not tried.
//  * Complete: each method on Table 2's inputs (rows of random solutions
//    kept, k uniform in [0, n): every one completable) and on Gent et al.'s
//    natural generator at the phase transition (n / d^2 = 0.19 for d free
//    rows: about half completable). Per method: the share decided (SOLVED or
//    UNSOLVABLE), the median time, and wrong verdicts: a board that does not
//    validate or extend its input, UNSOLVABLE for an input another method
//    completed, or on Table 2's inputs anything but SOLVED from a complete
//    search.
//
// Each run is a child process of its own (fork), so that its peak memory is
// its own; the figures come back through a pipe. Every SOLVED board is
// checked with nqueens::Validate.
//
//   nqueens-side-by-side --markdown=side-by-side.md --svg=docs/methods.svg
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "bench/common/clocks.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "bench/proc_memory.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(std::vector<std::string>, solve_n,
          (std::vector<std::string>{"8", "100", "1000", "10000", "1000000", "10000000",
                                    "100000000"}),
          "Solve: board sizes");
ABSL_FLAG(uint32_t, seeds, 5, "Solve: seeds per method and n (3 from 10^7 rows on)");
ABSL_FLAG(std::vector<std::string>, table2_n, (std::vector<std::string>{"100", "1000", "10000"}),
          "Complete: board sizes of Table 2's inputs");
ABSL_FLAG(std::vector<std::string>, transition_n, (std::vector<std::string>{"50", "100", "200"}),
          "Complete: board sizes of the near-transition inputs");
ABSL_FLAG(uint32_t, instances, 20, "Complete: inputs per size");
ABSL_FLAG(double, run_seconds, 30, "deadline of each run");
ABSL_FLAG(uint64_t, seed, 1, "seed of the whole run");
ABSL_FLAG(std::string, markdown, "", "also write the tables as Markdown here");
ABSL_FLAG(std::string, svg, "", "write the plot of Solve's median time against n here");

namespace {

using nqueens::Columns;
using nqueens::CompleteMethod;
using nqueens::CompletionResult;
using nqueens::Outcome;
using nqueens::SolveMethod;
using nqueens::bench::Clock;
using nqueens::bench::Random;

constexpr SolveMethod kSolveMethods[] = {SolveMethod::kConstructive, SolveMethod::kRandom,
                                         SolveMethod::kMinConflicts, SolveMethod::kBacktracking,
                                         SolveMethod::kGenetic,      SolveMethod::kFormula};
constexpr CompleteMethod kCompleteMethods[] = {
    CompleteMethod::kPipeline, CompleteMethod::kMinConflicts, CompleteMethod::kExact};

// What a child reports about its run.
struct Run {
  bool failed = false;   // an error other than the deadline
  bool stopped = false;  // the deadline passed
  Outcome outcome = Outcome::kUndecided;
  bool board_ok = true;  // a SOLVED board validates and extends the input
  double seconds = 0;
  uint64_t peak_bytes = 0;  // resident growth during the call
};

// `board` is a full solution that keeps the queens of `input` (none: any
// full solution).
bool Extends(const Columns& board, const Columns& input) {
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
  if (!report.ok() || !report->complete) return false;
  if (input.empty()) return true;
  if (board.size() != input.size()) return false;
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != nqueens::kEmptyRow && board[row] != input[row]) return false;
  }
  return true;
}

// Runs `call` in a child process; `input` is the board it must extend
// (empty for Solve).
template <typename Call>
Run InChild(const Call& call, const Columns& input) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    Run run;
    const uint64_t before = nqueens::bench::ProcStatusBytes("self", "VmRSS").value_or(0);
    nqueens::bench::ResetPeakResidentBytes("self");
    const Clock::time_point start = Clock::now();
    absl::StatusOr<CompletionResult> result = call();
    run.seconds = nqueens::bench::SecondsSince(start);
    run.peak_bytes = nqueens::bench::ProcStatusBytes("self", "VmHWM").value_or(0) - before;
    run.stopped = result.status().code() == absl::StatusCode::kDeadlineExceeded;
    run.failed = !result.ok() && !run.stopped;
    if (result.ok()) {
      run.outcome = result->outcome;
      run.board_ok = run.outcome != Outcome::kSolved || Extends(result->columns, input);
    }
    if (write(fds[1], &run, sizeof(run)) != sizeof(run)) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  Run run;
  if (read(fds[0], &run, sizeof(run)) != sizeof(run)) run.failed = true;  // it crashed
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  return run;
}

nqueens::CompleteOptions Options(uint64_t seed) {
  nqueens::CompleteOptions options;
  options.seed = seed;
  options.stop.deadline = absl::Now() + absl::Seconds(absl::GetFlag(FLAGS_run_seconds));
  return options;
}

std::string Seconds(double seconds) {
  if (std::isnan(seconds)) return "-";
  if (seconds < 1e-3) return absl::StrFormat("%.1f us", seconds * 1e6);
  if (seconds < 1) return absl::StrFormat("%.1f ms", seconds * 1e3);
  return absl::StrFormat("%.2f s", seconds);
}

// "12.3 MB (12.9 B/row)": the growth of the resident size during the call.
std::string Memory(double bytes, uint32_t n) {
  if (std::isnan(bytes)) return "-";
  return absl::StrFormat("%.1f MB (%.1f B/row)", bytes / 1e6, bytes / n);
}

// --- Solve. ---

struct SolveCell {
  uint32_t n = 0;
  uint32_t seeds = 0, solved = 0, wrong = 0;
  double median_seconds = NAN;
  double peak_bytes = NAN;
};

SolveCell SolveAt(SolveMethod method, uint32_t n, Random& random) {
  SolveCell cell;
  cell.n = n;
  cell.seeds =
      n >= 10'000'000 ? std::min(3u, absl::GetFlag(FLAGS_seeds)) : absl::GetFlag(FLAGS_seeds);
  std::vector<double> seconds, bytes;
  for (uint32_t i = 0; i < cell.seeds; ++i) {
    const uint64_t seed = random();
    const Run run = InChild(
        [&] { return nqueens::Solve(n, method, nqueens::SolveOptions(Options(seed))); }, Columns());
    if (run.outcome == Outcome::kSolved && !run.stopped && !run.failed) {
      ++cell.solved;
      seconds.push_back(run.seconds);
      bytes.push_back(static_cast<double>(run.peak_bytes));
    }
    if (!run.board_ok) ++cell.wrong;
  }
  cell.median_seconds = nqueens::bench::Median(seconds);
  cell.peak_bytes = nqueens::bench::Median(bytes);
  return cell;
}

std::map<SolveMethod, std::vector<SolveCell>> SolveTable(Random& random) {
  std::map<SolveMethod, std::vector<SolveCell>> table;
  for (const SolveMethod method : kSolveMethods) {
    for (const uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_solve_n))) {
      const SolveCell cell = SolveAt(method, n, random);
      absl::FPrintF(stderr, "solve %s n=%d: %d/%d solved, median %s\n",
                    nqueens::SolveMethodName(method), n, cell.solved, cell.seeds,
                    Seconds(cell.median_seconds));
      table[method].push_back(cell);
      if (cell.solved == 0) break;  // larger boards are out of its reach
    }
  }
  return table;
}

// --- Complete. ---

struct CompleteCell {
  uint32_t inputs = 0, decided = 0, solved = 0, wrong = 0, refused = 0;
  double median_seconds = NAN;
};

struct InputSet {
  std::string label;
  bool completable = false;  // every input extends (Table 2's)
  std::vector<Columns> inputs;
};

InputSet Table2Inputs(uint32_t n, Random& random) {
  InputSet set{absl::StrCat("Table 2, n = ", n), true, {}};
  for (uint32_t i = 0; i < absl::GetFlag(FLAGS_instances); ++i) {
    absl::StatusOr<CompletionResult> solution =
        nqueens::Solve(n, SolveMethod::kRandom, nqueens::SolveOptions(Options(random())));
    if (!solution.ok() || solution->outcome != Outcome::kSolved) std::abort();
    set.inputs.push_back(nqueens::bench::KeepRandomRows(solution->columns,
                                                        nqueens::bench::Below(n, random), random));
  }
  return set;
}

InputSet TransitionInputs(uint32_t n, Random& random) {
  const auto d = static_cast<uint32_t>(std::lround(std::sqrt(n / 0.19)));
  InputSet set{absl::StrFormat("transition, n = %d, d = %d", n, d), false, {}};
  while (set.inputs.size() < absl::GetFlag(FLAGS_instances)) {
    nqueens::bench::NaturalDraw draw(n);
    if (draw.PlaceUntil(d, random) && !draw.HasDeadLine()) set.inputs.push_back(draw.composition());
  }
  return set;
}

// Runs every method on every input; an UNSOLVABLE verdict where another
// method completed the input is wrong.
std::map<CompleteMethod, CompleteCell> CompleteRow(const InputSet& set, Random& random) {
  std::map<CompleteMethod, CompleteCell> row;
  std::map<CompleteMethod, std::vector<double>> seconds;
  for (const Columns& input : set.inputs) {
    std::map<CompleteMethod, Run> runs;
    bool completed = set.completable;
    const uint64_t seed = random();
    for (const CompleteMethod method : kCompleteMethods) {
      runs[method] = InChild(
          [&] {
            nqueens::CompleteOptions options = Options(seed);
            options.complete_method = method;
            return nqueens::Complete(input, options);
          },
          input);
      completed |= runs[method].outcome == Outcome::kSolved && runs[method].board_ok;
    }
    for (const auto& [method, run] : runs) {
      CompleteCell& cell = row[method];
      ++cell.inputs;
      if (run.failed) {
        ++cell.refused;  // e.g. EXACT above its free-row limit
        continue;
      }
      const bool decided = !run.stopped && run.outcome != Outcome::kUndecided;
      cell.decided += decided;
      cell.solved += run.outcome == Outcome::kSolved;
      cell.wrong += !run.board_ok || (completed && run.outcome == Outcome::kUnsolvable);
      if (decided) seconds[method].push_back(run.seconds);
    }
  }
  for (auto& [method, cell] : row) cell.median_seconds = nqueens::bench::Median(seconds[method]);
  return row;
}

// --- Report. ---

std::string SolveMarkdown(const std::map<SolveMethod, std::vector<SolveCell>>& table) {
  std::string text =
      "| method | n | solved | median time | peak memory (per row) | wrong boards |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& [method, cells] : table) {
    for (const SolveCell& cell : cells) {
      absl::StrAppend(&text, absl::StrFormat("| %s | %d | %d/%d | %s | %s | %d |\n",
                                             nqueens::SolveMethodName(method), cell.n, cell.solved,
                                             cell.seeds, Seconds(cell.median_seconds),
                                             Memory(cell.peak_bytes, cell.n), cell.wrong));
    }
  }
  return text;
}

std::string CompleteMarkdown(
    const std::vector<std::pair<std::string, std::map<CompleteMethod, CompleteCell>>>& rows) {
  std::string text =
      "| inputs | method | decided | solved | refused | median time (decided) | wrong verdicts "
      "|\n|---|---|---|---|---|---|---|\n";
  for (const auto& [label, row] : rows) {
    for (const auto& [method, cell] : row) {
      absl::StrAppend(&text, absl::StrFormat("| %s | %s | %d/%d | %d | %d | %s | %d |\n", label,
                                             nqueens::CompleteMethodName(method), cell.decided,
                                             cell.inputs, cell.solved, cell.refused,
                                             Seconds(cell.median_seconds), cell.wrong));
    }
  }
  return text;
}

// Median Solve time against n, both on log scales, one line per method.
std::string Plot(const std::map<SolveMethod, std::vector<SolveCell>>& table) {
  constexpr double kWidth = 640, kHeight = 400, kLeft = 70, kRight = 150, kTop = 20, kBottom = 50;
  constexpr double kMinN = 1, kMaxN = 9, kMinT = -6, kMaxT = 2;  // decimal exponents
  const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
  auto x = [&](double n) {
    return kLeft + (std::log10(n) - kMinN) / (kMaxN - kMinN) * (kWidth - kLeft - kRight);
  };
  auto y = [&](double t) {
    const double e = std::clamp(std::log10(t), kMinT, kMaxT);
    return kTop + (kMaxT - e) / (kMaxT - kMinT) * (kHeight - kTop - kBottom);
  };
  std::string svg = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"white\"/>\n",
      kWidth, kHeight);
  for (double e = kMinN; e <= kMaxN; ++e) {
    absl::StrAppend(&svg,
                    absl::StrFormat("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                                    "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
                                    "text-anchor=\"middle\">10^%.0f</text>\n",
                                    x(std::pow(10, e)), kTop, x(std::pow(10, e)), kHeight - kBottom,
                                    x(std::pow(10, e)), kHeight - kBottom + 16, e));
  }
  for (double e = kMinT; e <= kMaxT; ++e) {
    absl::StrAppend(&svg,
                    absl::StrFormat("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                                    "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" "
                                    "text-anchor=\"end\">1e%.0f s</text>\n",
                                    kLeft, y(std::pow(10, e)), kWidth - kRight, y(std::pow(10, e)),
                                    kLeft - 6, y(std::pow(10, e)) + 4, e));
  }
  absl::StrAppend(&svg, absl::StrFormat("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">n "
                                        "(rows)</text>\n",
                                        (kLeft + kWidth - kRight) / 2, kHeight - 10));
  int index = 0;
  for (const auto& [method, cells] : table) {
    const char* colour = colours[index % 6];
    std::string points;
    for (const SolveCell& cell : cells) {
      if (std::isnan(cell.median_seconds)) continue;
      absl::StrAppend(&points, absl::StrFormat("%.1f,%.1f ", x(cell.n),
                                               y(std::max(cell.median_seconds, 1e-6))));
    }
    absl::StrAppend(&svg,
                    absl::StrFormat("<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" "
                                    "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                                    "fill=\"%s\">%s</text>\n",
                                    points, colour, kWidth - kRight + 10, kTop + 16.0 * (index + 1),
                                    colour, nqueens::SolveMethodName(method)));
    ++index;
  }
  return svg + "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  Random random(absl::GetFlag(FLAGS_seed));
  const auto solve = SolveTable(random);
  std::vector<std::pair<std::string, std::map<CompleteMethod, CompleteCell>>> complete;
  std::vector<InputSet> sets;
  for (const uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_table2_n))) {
    sets.push_back(Table2Inputs(n, random));
  }
  for (const uint32_t n : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_transition_n))) {
    sets.push_back(TransitionInputs(n, random));
  }
  uint32_t wrong = 0;
  for (const InputSet& set : sets) {
    complete.emplace_back(set.label, CompleteRow(set, random));
    for (const auto& [method, cell] : complete.back().second) wrong += cell.wrong;
    absl::FPrintF(stderr, "complete %s done\n", set.label);
  }
  for (const auto& [method, cells] : solve) {
    for (const SolveCell& cell : cells) wrong += cell.wrong;
  }
  const std::string markdown = absl::StrCat("### Solve\n\n", SolveMarkdown(solve),
                                            "\n### Complete\n\n", CompleteMarkdown(complete));
  nqueens::bench::PrintReport(markdown, absl::GetFlag(FLAGS_markdown));
  nqueens::bench::WriteFile(absl::GetFlag(FLAGS_svg), Plot(solve));
  return wrong == 0 ? 0 : 1;
}
