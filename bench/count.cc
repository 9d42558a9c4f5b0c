// Counting every solution of the empty n x n board (nqueens::CountSolutions)
// on 1 and 2 threads, checked against the published totals (OEIS A000170)
// and fundamental counts (A002562):
//
//   nqueens-count --n=12,13,14,15,16,17 --runs=5 --long_runs=3
//
// Per n: the totals, the median wall time of each thread count (runs
// alternate between the thread counts, so that a noisy neighbour hits both),
// the speedup of 2 threads over 1 from those medians, and the machine's load
// average before the runs.
#include "nqueens/count.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"

ABSL_FLAG(std::vector<std::string>, n, (std::vector<std::string>{"12", "13", "14", "15", "16"}),
          "board sizes, comma-separated (published counts known up to 20)");
ABSL_FLAG(int, runs, 5, "runs per thread count for n <= 15 (the median is reported)");
ABSL_FLAG(int, long_runs, 3, "runs per thread count for n >= 16");
ABSL_FLAG(std::vector<std::string>, threads, (std::vector<std::string>{"1", "2"}),
          "thread counts; the speedup column compares the last with the first");
ABSL_FLAG(std::string, markdown, "", "also write the table as Markdown here");

namespace {

// OEIS A000170 and A002562.
const std::map<uint32_t, std::pair<uint64_t, uint64_t>>& Published() {
  static const auto* table = new std::map<uint32_t, std::pair<uint64_t, uint64_t>>{
      {1, {1, 1}},
      {2, {0, 0}},
      {3, {0, 0}},
      {4, {2, 1}},
      {5, {10, 2}},
      {6, {4, 1}},
      {7, {40, 6}},
      {8, {92, 12}},
      {9, {352, 46}},
      {10, {724, 92}},
      {11, {2680, 341}},
      {12, {14200, 1787}},
      {13, {73712, 9233}},
      {14, {365596, 45752}},
      {15, {2279184, 285053}},
      {16, {14772512, 1846955}},
      {17, {95815104, 11977939}},
      {18, {666090624, 83263591}},
      {19, {4968057848, 621012754}},
      {20, {39029188884, 4878666808}},
  };
  return *table;
}

double LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return load;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  std::vector<int> threads;
  for (const std::string& t : absl::GetFlag(FLAGS_threads)) threads.push_back(std::stoi(t));
  std::string table = absl::StrFormat(
      "Command: `%s`\n\n"
      "| n | solutions | fundamental | published | runs | %s | speedup | nodes | load |\n"
      "|---|---|---|---|---|%s---|---|---|\n",
      absl::StrJoin(argv, argv + argc, " "),
      absl::StrJoin(threads, " | ",
                    [](std::string* out, int t) {
                      absl::StrAppend(out, t, t == 1 ? " thread, s" : " threads, s");
                    }),
      absl::StrJoin(std::vector<std::string>(threads.size(), "---|"), ""));
  std::fputs(table.c_str(), stdout);
  bool all_match = true;
  for (const std::string& n_text : absl::GetFlag(FLAGS_n)) {
    const auto n = static_cast<uint32_t>(std::stoul(n_text));
    const int runs = n <= 15 ? absl::GetFlag(FLAGS_runs) : absl::GetFlag(FLAGS_long_runs);
    const double load = LoadAverage();
    std::vector<std::vector<double>> seconds(threads.size());
    nqueens::CountResult last;
    for (int run = 0; run < runs; ++run) {
      for (size_t t = 0; t < threads.size(); ++t) {
        nqueens::CountOptions options;
        options.threads.count = threads[t];
        absl::StatusOr<nqueens::CountResult> result =
            nqueens::CountSolutions(nqueens::Columns(n, nqueens::kEmptyRow), options);
        if (!result.ok()) {
          std::fprintf(stderr, "n = %u: %s\n", n, result.status().ToString().c_str());
          return 1;
        }
        seconds[t].push_back(absl::ToDoubleSeconds(result->elapsed));
        last = *result;
      }
    }
    const auto published = Published().find(n);
    const bool match = published != Published().end() &&
                       published->second.first == last.solutions &&
                       published->second.second == last.fundamental.value_or(0);
    all_match = all_match && match;
    std::vector<std::string> medians;
    for (const std::vector<double>& s : seconds)
      medians.push_back(absl::StrFormat("%.3f", nqueens::bench::Median(s)));
    const std::string row = absl::StrFormat(
        "| %u | %u | %u | %s | %d | %s | %.2fx | %u | %.2f |\n", n, last.solutions,
        last.fundamental.value_or(0),
        published == Published().end() ? "?" : (match ? "equal" : "DIFFERENT"), runs,
        absl::StrJoin(medians, " | "),
        nqueens::bench::Median(seconds.front()) / nqueens::bench::Median(seconds.back()),
        last.nodes, load);
    std::fputs(row.c_str(), stdout);
    std::fflush(stdout);
    table += row;
  }
  nqueens::bench::WriteFile(absl::GetFlag(FLAGS_markdown), table);
  return all_match ? 0 : 2;
}
