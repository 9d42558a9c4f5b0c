// CompleteBatch's throughput over loopback against the same work in-process,
// on the same cores: the CLI's two backends (complete --batch, remote and
// --local) on the same compositions, run after run, so that the ratio of the
// two is measured under the same load.
//
//   nqueens-batch --items=100000 --n=1000 --runs=3
//
// Compositions: half the rows of one of 64 random solutions (the pipeline
// from the empty board, seeded), a fresh choice of rows for every item. The
// remote side starts its own nqueens-server (all CPUs as workers) on
// 127.0.0.1. Every SOLVED board is validated against its composition; a wrong
// one, or a lost answer, makes the exit status 1.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "bench/server_process.h"
#include "client/backends/backend.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

ABSL_FLAG(uint64_t, items, 100'000, "compositions per run");
ABSL_FLAG(uint32_t, n, 1000, "board size");
ABSL_FLAG(int, runs, 3, "runs of each backend, alternating");
ABSL_FLAG(std::string, server_binary, "build/server/nqueens-server", "the server to start");

namespace {

using nqueens::Columns;
using nqueens::bench::Clock;
using nqueens::bench::Random;

constexpr int kSolutions = 64;

struct Measured {
  double items_per_second = 0;
  double client_cpu_per_item = 0;  // this process's CPU seconds
  double server_cpu_per_item = 0;  // the server's, for the loopback runs
  uint64_t wrong = 0;              // answers lost, or SOLVED boards that do not extend
};

// Runs the batch through `backend`: items per second, and what went wrong.
Measured RunBatch(nqueens::client::Backend& backend, const std::vector<Columns>& solutions,
                  uint64_t items, uint64_t seed) {
  Random random(seed);
  std::vector<Columns> sent;  // the compositions, to check the answers
  sent.reserve(items);
  uint64_t answered = 0;
  Measured measured;
  const auto next = [&]() -> std::optional<nqueens::client::BatchItem> {
    if (sent.size() == items) return std::nullopt;
    const Columns& solution = solutions[sent.size() % solutions.size()];
    sent.push_back(nqueens::bench::KeepRandomRows(solution, solution.size() / 2, random));
    nqueens::client::BatchItem item;
    item.composition.n = solution.size();
    item.composition.columns = sent.back();
    return item;
  };
  const auto answer = [&](nqueens::client::Backend::BatchAnswer item) {
    const uint64_t index = answered++;
    if (!item.ok() || item->outcome != nqueens::Outcome::kSolved) return;
    const Columns& board = item->columns;
    absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
    bool extends = report.ok() && report->complete && index < sent.size();
    for (size_t row = 0; extends && row < board.size(); ++row) {
      extends = sent[index][row] == nqueens::kEmptyRow || sent[index][row] == board[row];
    }
    if (!extends) ++measured.wrong;
  };
  const Clock::time_point start = Clock::now();
  const double cpu_start = nqueens::bench::ProcessCpuSeconds();
  const absl::Status status = backend.CompleteBatch(next, answer, {});
  const double seconds = nqueens::bench::SecondsSince(start);
  measured.client_cpu_per_item =
      (nqueens::bench::ProcessCpuSeconds() - cpu_start) / static_cast<double>(items);
  if (!status.ok()) nqueens::bench::Fail(std::string(status.message()));
  measured.wrong += items - answered;
  measured.items_per_second = static_cast<double>(answered) / seconds;
  return measured;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const uint32_t n = absl::GetFlag(FLAGS_n);
  const uint64_t items = absl::GetFlag(FLAGS_items);
  std::vector<Columns> solutions;
  for (int i = 0; i < kSolutions; ++i) {
    nqueens::SolveOptions options;
    options.seed = static_cast<uint64_t>(i) + 1;
    solutions.push_back(nqueens::Solve(n, nqueens::SolveMethod::kRandom, options)->columns);
  }
  const nqueens::bench::ServerProcess server(
      absl::GetFlag(FLAGS_server_binary),
      {"--log-level=warn", "--max-call-seconds=3600", absl::StrFormat("--max-n=%d", n)});
  auto local = nqueens::client::MakeLocalBackend();
  auto remote = nqueens::client::MakeRemoteBackend(server.address());
  std::vector<double> in_process, loopback, ratios;
  uint64_t wrong = 0;
  absl::PrintF(
      "| run | in-process items/s | loopback items/s | ratio | CPU ms per item: in-process | "
      "loopback client | loopback server |\n|---|---|---|---|---|---|---|\n");
  for (int run = 0; run < absl::GetFlag(FLAGS_runs); ++run) {
    const Measured mine = RunBatch(*local, solutions, items, 1000 + run);
    const double server_cpu = server.CpuSeconds();
    Measured theirs = RunBatch(*remote, solutions, items, 1000 + run);
    theirs.server_cpu_per_item = (server.CpuSeconds() - server_cpu) / static_cast<double>(items);
    wrong += mine.wrong + theirs.wrong;
    in_process.push_back(mine.items_per_second);
    loopback.push_back(theirs.items_per_second);
    ratios.push_back(theirs.items_per_second / mine.items_per_second);
    absl::PrintF("| %d | %.0f | %.0f | %.3f | %.3f | %.3f | %.3f |\n", run + 1, in_process.back(),
                 loopback.back(), ratios.back(), 1e3 * mine.client_cpu_per_item,
                 1e3 * theirs.client_cpu_per_item, 1e3 * theirs.server_cpu_per_item);
  }
  absl::PrintF("| median | %.0f | %.0f | %.3f | | | |\n", nqueens::bench::Median(in_process),
               nqueens::bench::Median(loopback), nqueens::bench::Median(ratios));
  absl::PrintF("%d items of n = %d per run; wrong or lost answers: %d\n", items, n, wrong);
  return wrong == 0 ? 0 : 1;
}
