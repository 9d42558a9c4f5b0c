// How the core and the service scale with n: one board size and one
// mode per invocation, so that the peak memory printed belongs to that size.
//
//   nqueens-scale --mode=complete --n=10000000 --runs=5
//   nqueens-scale --mode=e2e --n=1000000 --runs=11 --server_binary=... --cli_binary=...
//
// Modes (inputs as in the paper, section 7):
//   complete  nqueens::Complete in this process on a composition of uniformly
//             random size k in [0, n) taken from one random solution (new k
//             and new rows every run).
//   validate  nqueens::Validate on a solution of the explicit construction.
//   solve     nqueens::Solve(n, kConstructive).
//   random    nqueens::Solve(n, kRandom): the pipeline from the empty board
//             (a new seed every run).
//   bandwidth the memory system's floor under a call that makes a board of n
//             rows: making it (nqueens::MakeEmptyBoard: fresh pages, 4 bytes
//             a row), then writing it again and reading it; the three times
//             are its phases.
// complete and random run on --threads threads (the calling one included);
// --block_times prints where each of their runs spent its time, block by block.
//   e2e       the user's path for complete: the `nqueens` CLI, as a child
//             process, reads the composition from a file written in advance
//             (--file_format), sends it to a real nqueens-server on 127.0.0.1,
//             and writes the solution it gets back to a file. Timed from
//             spawning the CLI to its exit.
//   grpc      the same completions through the CLI's client library in this
//             process, over one channel connected in advance: the service's
//             own latency, without process start and files.
//   floor     what any client process costs here, under the CLI's time at
//             small n: nqueens-client-floor (bench/client_floor.cc, linked
//             like the CLI) spawned against the same server, making one
//             unary Solve(n) and exiting. Timed from the spawn to its exit,
//             and in phases from the times it prints.
// Every result is checked with nqueens::Validate (and, for completions, that
// it extends its input) outside the timed part; a wrong one aborts the run.
//
// Prints a CSV header and one line to stdout:
//   mode,n,runs,median_s,min_s,max_s,median_us_per_row,peak_bytes_per_row,
//   cli_peak_bytes_per_row,start_s,grpc_start_s,call_s
// peak_bytes_per_row is the largest peak resident size over the runs, per
// row: in-process, of this whole process during the timed call (the peak is
// reset after the input is made) less the copy of the solution the bench keeps
// to draw inputs from; for e2e and grpc, of the whole server process during
// one request. cli_peak_bytes_per_row (e2e only) is the CLI process's peak.
// start_s, grpc_start_s and call_s (floor only) are the medians of the floor
// client's phases: spawn to main(), making the channel, and the call; the
// rest of median_s is its exit. For bandwidth they are the medians of making
// the board, writing it again and reading it (median_s is the first).
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "bench/common/clocks.h"
#include "bench/common/stats.h"
#include "bench/proc_memory.h"
#include "bench/server_process.h"
#include "client/backends/backend.h"
#include "client/boards/board_io.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"

extern char** environ;

ABSL_FLAG(std::string, mode, "complete",
          "complete, validate, solve, random, bandwidth, e2e, grpc or floor");
ABSL_FLAG(int, threads, 1, "complete and random: the threads of the call");
ABSL_FLAG(bool, block_times, false,
          "complete and random: print each run's time in each block of the pipeline to stderr "
          "(numbered as nqueens::Block)");
ABSL_FLAG(uint64_t, n, 1000, "board size");
ABSL_FLAG(uint32_t, runs, 5, "timed runs; the median is reported");
ABSL_FLAG(uint64_t, seed, 1, "seed of the inputs and of the solver");
ABSL_FLAG(std::string, server_binary, "build/server/nqueens-server",
          "e2e, grpc and floor: the server to start");
ABSL_FLAG(std::string, cli_binary, "build/client/nqueens", "e2e: the CLI to time");
ABSL_FLAG(std::string, floor_binary, "build/bench/nqueens-client-floor",
          "floor: the minimal client to time");
ABSL_FLAG(std::string, work_dir, "/tmp", "e2e: where the input and output files go");
ABSL_FLAG(std::string, file_format, "binary", "e2e: the CLI's input and output format (q, binary)");

namespace {

using nqueens::Columns;
using nqueens::bench::Clock;

struct Measurement {
  double seconds = 0;
  uint64_t peak_bytes = 0;      // see the top of the file
  uint64_t cli_peak_bytes = 0;  // e2e only
  // floor only: spawn to main(), making the channel, the call.
  std::array<double, 3> phases{};
};

// Thrown, not exited, so that destructors stop the server and delete files.
[[noreturn]] void Fail(const std::string& message) { throw std::runtime_error(message); }

// --- Peak resident memory, from procfs. ---

// A "Vm...:" line of /proc/<pid>/status, in bytes.
uint64_t StatusBytes(const std::string& pid, const std::string& field) {
  const std::optional<uint64_t> bytes = nqueens::bench::ProcStatusBytes(pid, field);
  if (!bytes.has_value()) Fail("no " + field + " in /proc/" + pid + "/status");
  return *bytes;
}

void ResetPeak(const std::string& pid) {
  if (!nqueens::bench::ResetPeakResidentBytes(pid)) {
    Fail("cannot reset the peak RSS of process " + pid);
  }
}

// --- Inputs and checks. ---

// Keeps k rows of `solution` chosen uniformly at random and empties the rest,
// in one pass without an index array (selection sampling, Knuth's Algorithm
// S), so that generating the input costs no memory beyond the input.
Columns KeepRandomRows(const Columns& solution, uint64_t k, uint64_t seed) {
  std::mt19937_64 random(seed);
  Columns composition(solution.size(), nqueens::kEmptyRow);
  uint64_t rows_left = solution.size();
  for (size_t row = 0; row < solution.size() && k > 0; ++row, --rows_left) {
    if (std::uniform_int_distribution<uint64_t>(0, rows_left - 1)(random) < k) {
      composition[row] = solution[row];
      --k;
    }
  }
  return composition;
}

void CheckSolution(const Columns& board, const std::string& what) {
  absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(board);
  if (!report.ok()) Fail(what + ": " + report.status().ToString());
  if (!report->complete) Fail(what + " is not a full solution");
}

void CheckCompletion(const Columns& board, const Columns& input) {
  CheckSolution(board, "completion");
  if (board.size() != input.size()) Fail("completion has the wrong size");
  for (size_t row = 0; row < input.size(); ++row) {
    if (input[row] != nqueens::kEmptyRow && board[row] != input[row]) {
      Fail(absl::StrCat("completion moved the queen of row ", row + 1));
    }
  }
}

Columns RandomSolution(uint32_t n, uint64_t seed) {
  nqueens::SolveOptions options;
  options.seed = seed;
  absl::StatusOr<nqueens::CompletionResult> result =
      nqueens::Solve(n, nqueens::SolveMethod::kRandom, options);
  if (!result.ok() || result->outcome != nqueens::Outcome::kSolved) {
    Fail(absl::StrCat("no random solution for n = ", n));
  }
  CheckSolution(result->columns, "random solution");
  return std::move(result->columns);
}

// With --block_times: where one run's time went, on stderr.
void PrintBlockTimes(const nqueens::CompletionStats& stats, double seconds) {
  if (!absl::GetFlag(FLAGS_block_times)) return;
  std::string line = absl::StrFormat("run of %.3f s:", seconds);
  for (int block = 1; block < nqueens::kBlockCount; ++block) {
    const double block_seconds = absl::ToDoubleSeconds(stats.time_in_block[block]);
    if (block_seconds > 0) absl::StrAppendFormat(&line, " block %d %.3f s", block, block_seconds);
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

// One run's input: the composition, and the seeds to rebuild it and to solve.
struct CompletionInput {
  uint64_t k = 0;
  uint64_t rows_seed = 0;
  uint64_t solver_seed = 0;
};

CompletionInput DrawInput(uint64_t n, std::mt19937_64& random) {
  return {std::uniform_int_distribution<uint64_t>(0, n - 1)(random), random(), random()};
}

// --- In-process modes. ---

std::vector<Measurement> MeasureComplete(uint32_t n, uint32_t runs, std::mt19937_64& random) {
  const Columns solution = RandomSolution(n, random());
  const uint64_t bench_only_bytes = solution.capacity() * sizeof(uint32_t);
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    const CompletionInput input = DrawInput(n, random);
    Columns composition = KeepRandomRows(solution, input.k, input.rows_seed);
    nqueens::CompleteOptions options;
    options.seed = input.solver_seed;
    options.threads.count = absl::GetFlag(FLAGS_threads);
    ResetPeak("self");
    const Clock::time_point start = Clock::now();
    absl::StatusOr<nqueens::CompletionResult> result =
        nqueens::Complete(std::move(composition), options);
    Measurement measurement{nqueens::bench::SecondsSince(start),
                            StatusBytes("self", "VmHWM") - bench_only_bytes};
    if (!result.ok()) Fail("Complete: " + result.status().ToString());
    PrintBlockTimes(result->stats, measurement.seconds);
    if (result->outcome != nqueens::Outcome::kSolved) {
      Fail(absl::StrCat("Complete answered ", nqueens::OutcomeName(result->outcome),
                        " for k = ", input.k));
    }
    CheckCompletion(result->columns, KeepRandomRows(solution, input.k, input.rows_seed));
    measurements.push_back(measurement);
  }
  return measurements;
}

std::vector<Measurement> MeasureValidate(uint32_t n, uint32_t runs, std::mt19937_64&) {
  const std::optional<Columns> solution = nqueens::ConstructSolution(n);
  if (!solution) Fail(absl::StrCat("no constructive solution for n = ", n));
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    ResetPeak("self");
    const Clock::time_point start = Clock::now();
    absl::StatusOr<nqueens::ValidationReport> report = nqueens::Validate(*solution);
    measurements.push_back({nqueens::bench::SecondsSince(start), StatusBytes("self", "VmHWM")});
    if (!report.ok() || !report->complete) Fail("Validate rejected a solution");
  }
  return measurements;
}

std::vector<Measurement> MeasureSolve(uint32_t n, uint32_t runs, std::mt19937_64&) {
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    ResetPeak("self");
    const Clock::time_point start = Clock::now();
    absl::StatusOr<nqueens::CompletionResult> result =
        nqueens::Solve(n, nqueens::SolveMethod::kConstructive);
    measurements.push_back({nqueens::bench::SecondsSince(start), StatusBytes("self", "VmHWM")});
    if (!result.ok() || result->outcome != nqueens::Outcome::kSolved) Fail("Solve failed");
    CheckSolution(result->columns, "constructive solution");
  }
  return measurements;
}

std::vector<Measurement> MeasureRandom(uint32_t n, uint32_t runs, std::mt19937_64& random) {
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    nqueens::SolveOptions options;
    options.seed = random();
    options.threads.count = absl::GetFlag(FLAGS_threads);
    ResetPeak("self");
    const Clock::time_point start = Clock::now();
    absl::StatusOr<nqueens::CompletionResult> result =
        nqueens::Solve(n, nqueens::SolveMethod::kRandom, options);
    measurements.push_back({nqueens::bench::SecondsSince(start), StatusBytes("self", "VmHWM")});
    if (!result.ok() || result->outcome != nqueens::Outcome::kSolved) Fail("Solve failed");
    PrintBlockTimes(result->stats, measurements.back().seconds);
    CheckSolution(result->columns, "random solution");
  }
  return measurements;
}

std::vector<Measurement> MeasureBandwidth(uint32_t n, uint32_t runs, std::mt19937_64&) {
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    ResetPeak("self");
    Clock::time_point start = Clock::now();
    Columns board = nqueens::MakeEmptyBoard(n);
    Measurement measurement{nqueens::bench::SecondsSince(start), StatusBytes("self", "VmHWM")};
    measurement.phases[0] = measurement.seconds;
    start = Clock::now();
    std::fill(board.begin(), board.end(), run + 1);
    measurement.phases[1] = nqueens::bench::SecondsSince(start);
    start = Clock::now();
    const uint64_t sum = std::accumulate(board.begin(), board.end(), uint64_t{0});
    measurement.phases[2] = nqueens::bench::SecondsSince(start);
    if (sum != uint64_t{n} * (run + 1)) Fail("the board did not read back");
    measurements.push_back(measurement);
  }
  return measurements;
}

// --- Through a real server: the CLI (e2e) or the client library (grpc). ---

// Starts `args` as a child process whose stdout goes to `stdout_fd`.
pid_t Spawn(const std::vector<std::string>& args, int stdout_fd) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) Fail(absl::StrCat("cannot start ", args[0], ": ", std::strerror(error)));
  return pid;
}

using nqueens::bench::ServerProcess;

// A server on 127.0.0.1 that takes boards of n rows.
ServerProcess StartServer(uint32_t n) {
  return ServerProcess(absl::GetFlag(FLAGS_server_binary),
                       {absl::StrCat("--max-n=", n), "--log-level=warn"});
}

// A work file, deleted when this goes out of scope.
struct ScopedFile {
  std::string path;
  ~ScopedFile() { std::remove(path.c_str()); }
};

// The user's path: the `nqueens` CLI as a child process, from a board file
// written in advance to the solution file it writes. Timed from spawning the
// CLI to its exit.
class CliClient {
 public:
  explicit CliClient(std::string address) : address_(std::move(address)) {
    const std::string format_name = absl::GetFlag(FLAGS_file_format);
    absl::StatusOr<nqueens::client::BoardFormat> format =
        nqueens::client::ParseBoardFormat(format_name);
    if (!format.ok() || *format == nqueens::client::BoardFormat::kAuto) {
      Fail("--file_format must be a board format, e.g. q or binary");
    }
    format_ = *format;
    format_name_ = format_name;
  }

  Columns Complete(const Columns& composition, uint64_t seed, Measurement& measurement) {
    WriteBoardFile(composition);
    std::vector<std::string> args = {absl::GetFlag(FLAGS_cli_binary),
                                     "--server",
                                     address_,
                                     "--seed",
                                     absl::StrCat(seed),
                                     "--quiet",
                                     "--output",
                                     output_.path,
                                     "--format=" + format_name_,
                                     "--output-format=" + format_name_,
                                     "complete",
                                     input_.path};
    const Clock::time_point start = Clock::now();
    // The CLI's stdout (nothing, with --output) goes to our stderr, keeping
    // our stdout for the CSV.
    const pid_t cli = Spawn(args, STDERR_FILENO);
    int status = 0;
    rusage usage{};
    if (wait4(cli, &status, 0, &usage) != cli) Fail("lost the CLI process");
    measurement.seconds = nqueens::bench::SecondsSince(start);
    measurement.cli_peak_bytes = static_cast<uint64_t>(usage.ru_maxrss) * 1024;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      Fail(absl::StrCat("the CLI failed (wait status ", status, ")"));
    }
    absl::StatusOr<nqueens::client::Board> board =
        nqueens::client::LoadBoard(output_.path, format_);
    if (!board.ok()) Fail(board.status().ToString());
    return std::move(board->columns);
  }

 private:
  void WriteBoardFile(const Columns& columns) {
    std::FILE* file = std::fopen(input_.path.c_str(), "wb");
    if (file == nullptr) Fail("cannot write " + input_.path);
    nqueens::client::WriteBoard(columns, format_, [file](absl::string_view piece) {
      std::fwrite(piece.data(), 1, piece.size(), file);
    });
    if (std::fclose(file) != 0) Fail("cannot write " + input_.path);
  }

  std::string address_;
  nqueens::client::BoardFormat format_;
  std::string format_name_;
  const std::string files_ =
      absl::StrCat(absl::GetFlag(FLAGS_work_dir), "/nqueens-scale-", getpid());
  const ScopedFile input_{files_ + "-input"};
  const ScopedFile output_{files_ + "-output"};
};

// The service's own latency: the CLI's remote backend (the client library) in
// this process, over one channel that is connected before the first timed
// call. Timed: the Complete call, from the dense board in memory to the
// result in memory.
class GrpcClient {
 public:
  explicit GrpcClient(const std::string& address)
      : backend_(nqueens::client::MakeRemoteBackend(address)) {
    if (!backend_->Solve(1, nqueens::SolveMethod::kConstructive, {}).ok()) {
      Fail("cannot reach the server at " + address);
    }
  }

  Columns Complete(const Columns& composition, uint64_t seed, Measurement& measurement) {
    nqueens::client::Board board;
    board.n = composition.size();
    board.columns = composition;
    nqueens::client::RunOptions options;
    options.seed = seed;
    const Clock::time_point start = Clock::now();
    absl::StatusOr<nqueens::CompletionResult> result =
        backend_->Complete(std::move(board), options);
    measurement.seconds = nqueens::bench::SecondsSince(start);
    if (!result.ok()) Fail("Complete RPC: " + result.status().ToString());
    if (result->outcome != nqueens::Outcome::kSolved) {
      Fail(absl::StrCat("the server answered ", nqueens::OutcomeName(result->outcome)));
    }
    return std::move(result->columns);
  }

 private:
  std::unique_ptr<nqueens::client::Backend> backend_;
};

// Completions through a server started for this n; the peak memory measured
// is the server's, reset before every run.
template <typename Client>
std::vector<Measurement> MeasureThroughServer(uint32_t n, uint32_t runs, std::mt19937_64& random) {
  const Columns solution = RandomSolution(n, random());
  const ServerProcess server = StartServer(n);
  Client client(server.address());
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    const CompletionInput input = DrawInput(n, random);
    const Columns composition = KeepRandomRows(solution, input.k, input.rows_seed);
    server.ResetPeak();
    Measurement measurement;
    const Columns completion = client.Complete(composition, input.solver_seed, measurement);
    measurement.peak_bytes = server.PeakResidentBytes();
    CheckCompletion(completion, composition);
    measurements.push_back(measurement);
  }
  return measurements;
}

// The floor client (see the top of the file), spawned `runs` times.
std::vector<Measurement> MeasureFloor(uint32_t n, uint32_t runs, std::mt19937_64&) {
  const ServerProcess server = StartServer(n);
  std::vector<Measurement> measurements;
  for (uint32_t run = 0; run < runs; ++run) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) Fail("pipe failed");
    const Clock::time_point start = Clock::now();
    const pid_t client =
        Spawn({absl::GetFlag(FLAGS_floor_binary), server.address(), absl::StrCat(n)}, pipe_fds[1]);
    int status = 0;
    if (waitpid(client, &status, 0) != client) Fail("lost the floor client");
    Measurement measurement;
    measurement.seconds = nqueens::bench::SecondsSince(start);
    close(pipe_fds[1]);
    std::FILE* output = fdopen(pipe_fds[0], "r");
    // Steady clock and CLOCK_MONOTONIC are one clock on Linux.
    unsigned long long main_ns = 0, channel_ns = 0, call_ns = 0;
    unsigned columns = 0;
    const int fields =
        std::fscanf(output, "%llu %llu %llu %u", &main_ns, &channel_ns, &call_ns, &columns);
    std::fclose(output);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || fields != 4 || columns != n) {
      Fail(absl::StrCat("the floor client failed (wait status ", status, ")"));
    }
    const double start_ns =
        std::chrono::duration<double, std::nano>(start.time_since_epoch()).count();
    measurement.phases = {(main_ns - start_ns) / 1e9, (channel_ns - main_ns) / 1e9,
                          (call_ns - channel_ns) / 1e9};
    measurements.push_back(measurement);
  }
  return measurements;
}

// --- Report. ---

void PrintCsv(const std::string& mode, uint64_t n, const std::vector<Measurement>& measurements) {
  std::vector<double> seconds;
  std::array<std::vector<double>, 3> phases;
  uint64_t peak_bytes = 0, cli_peak_bytes = 0;
  for (const Measurement& m : measurements) {
    seconds.push_back(m.seconds);
    for (size_t phase = 0; phase < phases.size(); ++phase) phases[phase].push_back(m.phases[phase]);
    peak_bytes = std::max(peak_bytes, m.peak_bytes);
    cli_peak_bytes = std::max(cli_peak_bytes, m.cli_peak_bytes);
  }
  const double median = nqueens::bench::Median(seconds);
  const double rows = static_cast<double>(n);
  std::string phase_medians = ",,";
  if (mode == "floor" || mode == "bandwidth") {
    phase_medians =
        absl::StrFormat("%.6f,%.6f,%.6f", nqueens::bench::Median(phases[0]),
                        nqueens::bench::Median(phases[1]), nqueens::bench::Median(phases[2]));
  }
  absl::PrintF(
      "mode,n,runs,median_s,min_s,max_s,median_us_per_row,peak_bytes_per_row,"
      "cli_peak_bytes_per_row,start_s,grpc_start_s,call_s\n");
  absl::PrintF("%s,%d,%d,%.6f,%.6f,%.6f,%.6f,%.2f,%s,%s\n", mode, n, seconds.size(), median,
               *std::min_element(seconds.begin(), seconds.end()),
               *std::max_element(seconds.begin(), seconds.end()), median * 1e6 / rows,
               peak_bytes / rows,
               mode == "e2e" ? absl::StrFormat("%.2f", cli_peak_bytes / rows) : "", phase_medians);
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string mode = absl::GetFlag(FLAGS_mode);
  const uint64_t n = absl::GetFlag(FLAGS_n);
  const uint32_t runs = absl::GetFlag(FLAGS_runs);
  if (n == 0 || n > nqueens::kMaxBoardSize || runs == 0) {
    absl::FPrintF(stderr, "nqueens-scale: --n must be in 1..2^31-1 and --runs at least 1\n");
    return 2;
  }

  using Measure = std::vector<Measurement> (*)(uint32_t, uint32_t, std::mt19937_64&);
  Measure measure = nullptr;
  if (mode == "complete") measure = MeasureComplete;
  if (mode == "validate") measure = MeasureValidate;
  if (mode == "solve") measure = MeasureSolve;
  if (mode == "random") measure = MeasureRandom;
  if (mode == "bandwidth") measure = MeasureBandwidth;
  if (mode == "e2e") measure = MeasureThroughServer<CliClient>;
  if (mode == "grpc") measure = MeasureThroughServer<GrpcClient>;
  if (mode == "floor") measure = MeasureFloor;
  if (measure == nullptr) {
    absl::FPrintF(
        stderr,
        "nqueens-scale: --mode must be complete, validate, solve, random, bandwidth, e2e, grpc or "
        "floor\n");
    return 2;
  }

  std::mt19937_64 random(absl::GetFlag(FLAGS_seed));
  try {
    PrintCsv(mode, n, measure(static_cast<uint32_t>(n), runs, random));
  } catch (const std::runtime_error& error) {
    absl::FPrintF(stderr, "nqueens-scale: %s\n", error.what());
    return 1;
  }
  return 0;
}
