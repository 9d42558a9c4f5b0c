// What a proof of UNSOLVABLE costs (docs/benchmarks.md, "Certificates"): on
// Excluded Diagonals boards, the exact search's time with and without a
// certificate, the certificate's size in each format, and the independent
// checker's time and peak memory (a process of its own, so that its memory
// is its own) next to the search's.
//
//   nqueens-certificate-bench --boards=examples/excluded-diagonals-24.q --m=26 --runs=3
//
// Each board is searched --runs times in each way on --threads threads
// (medians reported): Complete with method EXACT, without a certificate and
// with a binary one; the text format's size is measured once (--text_size).
// --m draws boards of the m x m Excluded Diagonals problem (Gent et al.'s
// generator, one diagonal excluded per row, seed --seed) until one is
// unsolvable, as the hard-instances benchmark does. Prints a Markdown table.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "bench/common/clocks.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "bench/proc_memory.h"
#include "nqueens/solver.h"

ABSL_FLAG(std::vector<std::string>, boards, {}, "board files (q format) of unsolvable boards");
ABSL_FLAG(std::vector<std::string>, m, {},
          "Excluded Diagonals sizes to draw an unsolvable board of");
ABSL_FLAG(uint64_t, seed, 1, "seed of the Excluded Diagonals draws");
ABSL_FLAG(int, runs, 3, "runs of each measurement (medians)");
ABSL_FLAG(int, threads, 2, "threads of the search");
ABSL_FLAG(bool, text_size, true, "also measure the text format's size (once)");
ABSL_FLAG(std::string, checker, NQUEENS_CHECKER, "the nqueens-check-certificate program");
ABSL_FLAG(std::string, work_dir, "/tmp", "where the board and certificate files go");

namespace nqueens::bench {
namespace {

struct Board {
  std::string name;
  Columns columns;
};

Columns ReadBoard(const std::string& path) {
  std::ifstream file(path);
  Columns columns;
  for (uint32_t column; file >> column;) columns.push_back(column);
  if (!file.eof() || columns.empty()) {
    absl::FPrintF(stderr, "cannot read the board %s\n", path);
    std::exit(2);
  }
  return columns;
}

// Complete with method EXACT: its seconds, and the certificate if asked.
double Search(const Columns& board, bool certificate, CertificateFormat format,
              std::string* proof = nullptr) {
  CompleteOptions options;
  options.complete_method = CompleteMethod::kExact;
  options.threads.count = absl::GetFlag(FLAGS_threads);
  options.params.exact_max_seconds = 3600;
  options.want_certificate = certificate;
  options.certificate_format = format;
  options.certificate_max_bytes = size_t{4} << 30;
  const Clock::time_point start = Clock::now();
  absl::StatusOr<CompletionResult> result = Complete(board, options);
  const double seconds = SecondsSince(start);
  if (!result.ok() || result->outcome != Outcome::kUnsolvable ||
      (certificate && !result->certificate.has_value())) {
    absl::FPrintF(stderr, "no proof: %s %s %s\n", result.status().ToString(),
                  result.ok() ? OutcomeName(result->outcome) : "",
                  result.ok() ? result->certificate_missing : "");
    std::exit(1);
  }
  if (proof != nullptr) *proof = *std::move(result->certificate);
  return seconds;
}

// The first board of the m x m Excluded Diagonals problem drawn from --seed
// that has no solution.
Board DrawUnsolvable(uint32_t m) {
  Random random(absl::GetFlag(FLAGS_seed));
  for (int draw = 1;; ++draw) {
    const std::vector<Diagonal> excluded = ExcludedDiagonals(m, m, 4, random);
    if (excluded.size() < m) continue;
    Columns board = ExcludedDiagonalsAsCompletion(m, excluded);
    CompleteOptions options;
    options.complete_method = CompleteMethod::kExact;
    options.threads.count = absl::GetFlag(FLAGS_threads);
    options.params.exact_max_seconds = 600;
    absl::StatusOr<CompletionResult> result = Complete(board, options);
    if (result.ok() && result->outcome == Outcome::kUnsolvable) {
      return {absl::StrFormat("Excluded Diagonals m = %d (seed %d, draw %d)", m,
                              absl::GetFlag(FLAGS_seed), draw),
              std::move(board)};
    }
  }
}

struct CheckRun {
  double seconds = 0;
  double peak_mb = 0;
};

// The checker on the board and certificate files, as a process of its own:
// its wall time and peak resident memory, its VmHWM read while it runs
// (ru_maxrss would count this process's memory too: a child shares it
// until it execs).
CheckRun Check(const std::string& board_path, const std::string& certificate_path) {
  std::string checker = absl::GetFlag(FLAGS_checker), board = board_path,
              certificate = certificate_path;
  char* arguments[] = {checker.data(), board.data(), certificate.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const Clock::time_point start = Clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, checker.c_str(), &actions, nullptr, arguments, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    absl::FPrintF(stderr, "cannot run %s\n", checker);
    std::exit(2);
  }
  int status = 0;
  uint64_t peak = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    peak = std::max(peak, ProcStatusBytes(std::to_string(pid), "VmHWM").value_or(0));
    absl::SleepFor(absl::Milliseconds(5));
  }
  CheckRun run{SecondsSince(start), peak / 1e6};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    absl::FPrintF(stderr, "the checker rejected the certificate (%s)\n", certificate_path);
    std::exit(1);
  }
  return run;
}

void Measure(const Board& board, size_t index) {
  const int runs = absl::GetFlag(FLAGS_runs);
  const std::string stem =
      absl::StrFormat("%s/certificate-bench-%d", absl::GetFlag(FLAGS_work_dir), index);
  std::string q;
  for (const uint32_t column : board.columns) absl::StrAppend(&q, column, "\n");
  WriteFile(stem + ".q", q);
  std::vector<double> plain, certified, checked, peak;
  std::string proof;
  for (int run = 0; run < runs; ++run) {
    plain.push_back(Search(board.columns, false, CertificateFormat::kBinary));
    certified.push_back(Search(board.columns, true, CertificateFormat::kBinary, &proof));
    WriteFile(stem + ".cert", proof);
    const CheckRun check = Check(stem + ".q", stem + ".cert");
    checked.push_back(check.seconds);
    peak.push_back(check.peak_mb);
  }
  std::string text_size = "-";
  if (absl::GetFlag(FLAGS_text_size)) {
    std::string text;
    Search(board.columns, true, CertificateFormat::kText, &text);
    text_size = absl::StrFormat("%.1f MB", text.size() / 1e6);
  }
  const double search = Median(plain);
  absl::PrintF("| %s | %.2f s | %.2f s | %.2f | %.1f MB | %s | %.2f s | %.2f | %.0f MB |\n",
               board.name, search, Median(certified), Median(certified) / search,
               proof.size() / 1e6, text_size, Median(checked), Median(checked) / search,
               Median(peak));
}

}  // namespace
}  // namespace nqueens::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  using nqueens::bench::Board;
  std::vector<Board> boards;
  for (const std::string& path : absl::GetFlag(FLAGS_boards)) {
    boards.push_back({path, nqueens::bench::ReadBoard(path)});
  }
  for (const uint32_t m : nqueens::bench::ParseSizes(absl::GetFlag(FLAGS_m))) {
    boards.push_back(nqueens::bench::DrawUnsolvable(m));
  }
  absl::PrintF("%d runs each, medians; %d search threads.\n\n", absl::GetFlag(FLAGS_runs),
               absl::GetFlag(FLAGS_threads));
  absl::PrintF(
      "| board | search | with certificate | ratio | binary size | text size | check | "
      "check / search | checker peak RSS |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- "
      "|\n");
  for (size_t i = 0; i < boards.size(); ++i) nqueens::bench::Measure(boards[i], i);
}
