// What a small unary call of the service costs next to gRPC's own health
// Check on the same server (results in docs/load.md, "Small calls"). The
// same client threads call each method in turn for a fixed time, round after
// round, so that every method meets the same machine; the table gives the
// median calls/s of the rounds, their range, the median over rounds of the
// cost ratio to Check in that round (Check's calls/s over the method's), the
// p50 latency, and the server's CPU time per call.
//
// Two servers, one after the other in every round:
//   - nqueens-server, with its defaults: every call logged, counted,
//     admitted and run on the worker pool as always;
//   - the floor: this program started again with --serve_floor, a bare
//     gRPC server with the same health service and Validate, Solve and
//     Complete on gRPC's callback API that run the core at once on gRPC's
//     thread and answer with the same messages, and nothing else (no log,
//     metrics, admission, request id or worker pool). Its ratios are what
//     the callback API and the work cost next to the health service's
//     synchronous API, below which no change to our calls can go.
//
//   nqueens-call-cost --server_binary=build-rel/server/nqueens-server
//
// --compare_binary adds another nqueens-server build to the same rounds.
//
// With --work_times it prints instead how long the core's work of those
// calls takes at most on small boards, without any server: the server runs
// it at once on gRPC's thread up to kQuickSearchMaxRows and
// kQuickValidateMaxRows (server/rpc/handlers.cc).
//
// Every loop is bounded in time; nothing is sent anywhere but the servers
// this program started on loopback.
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/common/clocks.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"
#include "bench/server_process.h"
#include "nqueens/board.h"
#include "nqueens/seed.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "nqueens/validate.h"
#include "wire/convert.h"

ABSL_FLAG(std::string, server_binary, "build/server/nqueens-server", "the server to start");
ABSL_FLAG(std::string, compare_binary, "",
          "also measure this nqueens-server binary in the same rounds (e.g. an older build)");
ABSL_FLAG(int, threads, 8, "client threads, each with a connection of its own");
ABSL_FLAG(int, rounds, 7, "rounds; each calls every method of both servers in turn");
ABSL_FLAG(double, round_seconds, 1.0, "how long each method is called in each round");
ABSL_FLAG(bool, floor, true, "also measure the bare callback server (--serve_floor)");
ABSL_FLAG(std::string, markdown, "", "also write the table as Markdown here");
ABSL_FLAG(bool, serve_floor, false,
          "run as the floor server on --listen instead (how this program starts it)");
ABSL_FLAG(std::string, listen, "127.0.0.1:0", "the floor server's address (with --serve_floor)");
ABSL_FLAG(bool, work_times, false,
          "instead: the slowest Solve, Complete and Validate of the core on small boards");

namespace nqueens::bench {
namespace {

namespace v1 = nqueens::v1;

// A call on any service as bytes: every method goes through the same client
// code, so the client's share of each call is the same.
struct Probe {
  std::string label;
  std::string path;  // "/grpc.health.v1.Health/Check"
  grpc::ByteBuffer request;
  // Whether an answer is the one expected.
  bool (*check)(const std::string& answer);
};

grpc::ByteBuffer Bytes(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

std::string Flatten(const grpc::ByteBuffer& buffer) {
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (!buffer.Dump(&slices).ok()) return bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return bytes;
}

template <typename Response>
Response Parsed(const std::string& bytes) {
  Response response;
  response.ParseFromString(bytes);
  return response;
}

Columns Solution8() {
  absl::StatusOr<CompletionResult> solved = nqueens::Solve(8, SolveMethod::kConstructive);
  if (!solved.ok() || solved->outcome != Outcome::kSolved) Fail("cannot make a solution");
  return solved->columns;
}

std::vector<Probe> Probes() {
  const Columns solution = Solution8();
  v1::ValidateRequest validate;
  validate.set_n(8);
  validate.mutable_columns()->Assign(solution.begin(), solution.end());
  v1::SolveRequest solve;
  solve.set_n(8);
  // Half the queens of the solution: the pipeline places the rest.
  v1::CompleteRequest complete;
  complete.set_n(8);
  for (size_t row = 0; row < solution.size(); ++row) {
    complete.add_columns(row % 2 == 0 ? solution[row] : kEmptyRow);
  }
  return {
      // An empty HealthCheckRequest (the server as a whole); SERVING is
      // field 1 = 1.
      {"health Check", "/grpc.health.v1.Health/Check", Bytes(""),
       [](const std::string& answer) { return answer == "\x08\x01"; }},
      {"Validate n=8", "/nqueens.v1.NQueensService/Validate", Bytes(validate.SerializeAsString()),
       [](const std::string& answer) { return Parsed<v1::ValidateResponse>(answer).complete(); }},
      {"Solve n=8", "/nqueens.v1.NQueensService/Solve", Bytes(solve.SerializeAsString()),
       [](const std::string& answer) {
         return Parsed<v1::SolveResponse>(answer).outcome() == v1::OUTCOME_SOLVED;
       }},
      {"Complete n=8, 4 queens", "/nqueens.v1.NQueensService/Complete",
       Bytes(complete.SerializeAsString()),
       [](const std::string& answer) {
         return Parsed<v1::CompleteResponse>(answer).outcome() == v1::OUTCOME_SOLVED;
       }},
  };
}

// --- The floor server (--serve_floor). ---

class FloorService final : public v1::NQueensService::CallbackService {
 public:
  grpc::ServerUnaryReactor* Validate(grpc::CallbackServerContext* context,
                                     const v1::ValidateRequest* request,
                                     v1::ValidateResponse* response) override {
    absl::StatusOr<ValidationReport> report = nqueens::Validate(request->columns());
    if (report.ok()) wire::ReportToProto(*report, response);
    return Finish(context, report.status());
  }

  grpc::ServerUnaryReactor* Solve(grpc::CallbackServerContext* context,
                                  const v1::SolveRequest* request,
                                  v1::SolveResponse* response) override {
    absl::StatusOr<SolveMethod> method = wire::MethodFromProto(request->method());
    if (!method.ok()) return Finish(context, method.status());
    SolveOptions options;
    options.seed = request->has_seed() ? request->seed() : FreshSeed();
    return Finish(
        context,
        Answer(request->n(), nqueens::Solve(static_cast<uint32_t>(request->n()), *method, options),
               response));
  }

  grpc::ServerUnaryReactor* Complete(grpc::CallbackServerContext* context,
                                     const v1::CompleteRequest* request,
                                     v1::CompleteResponse* response) override {
    absl::StatusOr<Columns> board =
        wire::BoardFromRequest(request->n(), request->columns(), request->queens());
    if (!board.ok()) return Finish(context, board.status());
    CompleteOptions options;
    options.seed = request->has_seed() ? request->seed() : FreshSeed();
    return Finish(context,
                  Answer(request->n(), nqueens::Complete(*std::move(board), options), response));
  }

 private:
  // The fields the service's answer has.
  template <typename Response>
  static absl::Status Answer(uint64_t n, absl::StatusOr<CompletionResult> result,
                             Response* response) {
    if (!result.ok()) return result.status();
    response->set_n(n);
    response->set_outcome(wire::OutcomeToProto(result->outcome));
    *response->mutable_stats() = wire::StatsToProto(result->stats);
    response->mutable_columns()->Assign(result->columns.begin(), result->columns.end());
    return absl::OkStatus();
  }

  static grpc::ServerUnaryReactor* Finish(grpc::CallbackServerContext* context,
                                          const absl::Status& status) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(status.ok() ? grpc::Status::OK
                                : grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                                               std::string(status.message())));
    return reactor;
  }
};

// Serves until SIGTERM or SIGINT, as ServerProcess expects of a server.
int ServeFloor(const std::string& listen) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  // Before gRPC's threads start: they inherit the mask, and sigwait gets them.
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  grpc::EnableDefaultHealthCheckService(true);
  FloorService service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(listen, grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) Fail(absl::StrCat("cannot listen on ", listen));
  std::cout << "listening on " << listen.substr(0, listen.rfind(':')) << ":" << port << std::endl;
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  return 0;
}

// --- The core's work alone (--work_times). ---

// The least of three runs of `work`, in seconds: what the work takes, not
// what the machine's other threads took meanwhile.
template <typename Work>
double Seconds(const Work& work) {
  double least = 1e9;
  for (int run = 0; run < 3; ++run) {
    const Clock::time_point start = Clock::now();
    work();
    least = std::min(least, SecondsSince(start));
  }
  return least;
}

// Queens on random free squares, none attacking another, up to n / 2 + 1 of
// them: many such boards have no completion.
Columns RandomComposition(uint32_t n, std::mt19937_64& random) {
  Columns board(n, kEmptyRow);
  std::uniform_int_distribution<uint32_t> pick(1, n);
  const uint32_t wanted = std::uniform_int_distribution<uint32_t>(0, n / 2 + 1)(random);
  uint32_t placed = 0;
  for (int draw = 0; draw < 1000 && placed < wanted; ++draw) {
    const uint32_t row = pick(random), column = pick(random);
    bool free = board[row - 1] == kEmptyRow;
    for (uint32_t other = 1; other <= n && free; ++other) {
      if (board[other - 1] == kEmptyRow) continue;
      const int rows = static_cast<int>(other) - static_cast<int>(row);
      const int columns = static_cast<int>(board[other - 1]) - static_cast<int>(column);
      free = columns != 0 && rows != columns && rows != -columns;
    }
    if (!free) continue;
    board[row - 1] = column;
    ++placed;
  }
  return board;
}

int WorkTimes() {
  std::cout << "| n | slowest Solve (of 6 methods x 50 seeds) | slowest Complete (of 1,000 random "
               "compositions) |\n|---|---|---|\n";
  for (uint32_t n = 4; n <= 16; ++n) {
    double solve = 0, complete = 0;
    const char* slowest_method = "";
    for (const SolveMethodInfo& method : SolveMethods()) {
      for (uint64_t seed = 1; seed <= 50; ++seed) {
        SolveOptions options;
        options.seed = seed;
        const double seconds = Seconds([&] { (void)nqueens::Solve(n, method.method, options); });
        if (seconds > solve) slowest_method = method.name;
        solve = std::max(solve, seconds);
      }
    }
    std::mt19937_64 random(n);
    for (int board = 0; board < 1000; ++board) {
      const Columns composition = RandomComposition(n, random);
      CompleteOptions options;
      options.seed = board;
      complete =
          std::max(complete, Seconds([&] { (void)nqueens::Complete(composition, options); }));
    }
    std::cout << absl::StrFormat("| %d | %.0f us (%s) | %.0f us |\n", n, solve * 1e6,
                                 slowest_method, complete * 1e6);
  }
  absl::StatusOr<CompletionResult> solution = nqueens::Solve(4096, SolveMethod::kConstructive);
  if (!solution.ok()) Fail("cannot make a solution");
  std::cout << absl::StrFormat("\nValidate of a solution of n = 4,096: %.0f us\n",
                               1e6 * Seconds([&] { (void)nqueens::Validate(solution->columns); }));
  return 0;
}

// --- The measurement. ---

// One method called by every client for a while.
struct Segment {
  double calls_per_second = 0;
  double server_cpu_per_call = 0;  // seconds
  double p50 = 0;                  // seconds
};

class Target {
 public:
  Target(std::string name, const std::string& binary, const std::vector<std::string>& flags)
      : name_(std::move(name)), server_(binary, flags) {
    for (int i = 0; i < absl::GetFlag(FLAGS_threads); ++i) {
      grpc::ChannelArguments arguments;
      // A connection of its own, as a separate client process would have.
      arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      channels_.push_back(grpc::CreateCustomChannel(server_.address(),
                                                    grpc::InsecureChannelCredentials(), arguments));
    }
  }

  const std::string& name() const { return name_; }

  // Every client calls `probe` for `seconds`; exits the program on a call
  // that fails, or when a client's last answer is not the one expected.
  Segment Run(const Probe& probe, double seconds) {
    const double cpu_before = server_.CpuSeconds();
    const Clock::time_point start = Clock::now();
    const Clock::time_point end =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<std::vector<double>> latencies(channels_.size());
    std::vector<std::string> failures(channels_.size());
    std::vector<std::thread> clients;
    for (size_t i = 0; i < channels_.size(); ++i) {
      clients.emplace_back([&, i] { Call(*channels_[i], probe, end, latencies[i], failures[i]); });
    }
    for (std::thread& client : clients) client.join();
    const double elapsed = SecondsSince(start);
    const double cpu = server_.CpuSeconds() - cpu_before;
    std::vector<double> all;
    for (size_t i = 0; i < channels_.size(); ++i) {
      if (!failures[i].empty()) Fail(absl::StrCat(name_, ", ", probe.label, ": ", failures[i]));
      all.insert(all.end(), latencies[i].begin(), latencies[i].end());
    }
    const double calls = static_cast<double>(all.size());
    return Segment{calls / elapsed, cpu / std::max(calls, 1.0), Percentile(all, 0.5)};
  }

 private:
  static void Call(grpc::Channel& channel, const Probe& probe, Clock::time_point end,
                   std::vector<double>& latencies, std::string& failure) {
    const grpc::internal::RpcMethod method(probe.path.c_str(),
                                           grpc::internal::RpcMethod::NORMAL_RPC);
    grpc::ByteBuffer answer;
    for (Clock::time_point now = Clock::now(); now < end;) {
      grpc::ClientContext context;
      const grpc::Status status =
          grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
              &channel, method, &context, probe.request, &answer);
      const Clock::time_point done = Clock::now();
      if (!status.ok()) {
        failure = absl::StrCat("status ", status.error_code(), ": ", status.error_message());
        return;
      }
      latencies.push_back(SecondsBetween(now, done));
      now = done;
    }
    if (!latencies.empty() && !probe.check(Flatten(answer))) failure = "an unexpected answer";
  }

  std::string name_;
  ServerProcess server_;
  std::vector<std::shared_ptr<grpc::Channel>> channels_;
};

// A method's segments over the rounds, and its cost ratio to the first
// probe (health Check) in each.
struct Measured {
  std::vector<double> rates, ratios, cpu_per_call, p50s;
};

std::string Table(const std::vector<std::unique_ptr<Target>>& targets,
                  const std::vector<Probe>& probes,
                  const std::vector<std::vector<Measured>>& measured) {
  std::string out =
      "| server | method | calls/s (median) | min .. max | cost / health Check | p50 latency | "
      "server CPU per call |\n|---|---|---|---|---|---|---|\n";
  for (size_t t = 0; t < targets.size(); ++t) {
    for (size_t p = 0; p < probes.size(); ++p) {
      const Measured& m = measured[t][p];
      absl::StrAppend(
          &out, "| ", targets[t]->name(), " | ", probes[p].label, " | ",
          absl::StrFormat("%.0f", Median(m.rates)), " | ",
          absl::StrFormat("%.0f .. %.0f", *std::min_element(m.rates.begin(), m.rates.end()),
                          *std::max_element(m.rates.begin(), m.rates.end())),
          " | ", absl::StrFormat("%.2f", Median(m.ratios)), " | ",
          absl::StrFormat("%.0f us", Median(m.p50s) * 1e6), " | ",
          absl::StrFormat("%.0f us", Median(m.cpu_per_call) * 1e6), " |\n");
    }
  }
  return out;
}

int Measure() {
  const int rounds = absl::GetFlag(FLAGS_rounds);
  const double seconds = absl::GetFlag(FLAGS_round_seconds);
  if (rounds < 1 || !(seconds > 0) || absl::GetFlag(FLAGS_threads) < 1) {
    Fail("--rounds, --round_seconds and --threads must be positive");
  }
  const std::vector<Probe> probes = Probes();
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(std::make_unique<Target>("nqueens-server (--server_binary)",
                                             absl::GetFlag(FLAGS_server_binary),
                                             std::vector<std::string>{}));
  if (const std::string other = absl::GetFlag(FLAGS_compare_binary); !other.empty()) {
    targets.push_back(std::make_unique<Target>("nqueens-server (--compare_binary)", other,
                                               std::vector<std::string>{}));
  }
  if (absl::GetFlag(FLAGS_floor)) {
    targets.push_back(std::make_unique<Target>("floor (--serve_floor)", "/proc/self/exe",
                                               std::vector<std::string>{"--serve_floor"}));
  }
  // Connections made, lazily built tables filled, code paged in.
  for (auto& target : targets) {
    for (const Probe& probe : probes) target->Run(probe, std::min(seconds, 0.2));
  }
  std::vector<std::vector<Measured>> measured(targets.size(), std::vector<Measured>(probes.size()));
  for (int round = 0; round < rounds; ++round) {
    for (size_t t = 0; t < targets.size(); ++t) {
      std::vector<Segment> segments(probes.size());
      // Each round starts with another method: none always follows the same.
      for (size_t i = 0; i < probes.size(); ++i) {
        const size_t p = (i + round) % probes.size();
        segments[p] = targets[t]->Run(probes[p], seconds);
      }
      for (size_t p = 0; p < probes.size(); ++p) {
        Measured& m = measured[t][p];
        m.rates.push_back(segments[p].calls_per_second);
        m.ratios.push_back(segments[0].calls_per_second / segments[p].calls_per_second);
        m.cpu_per_call.push_back(segments[p].server_cpu_per_call);
        m.p50s.push_back(segments[p].p50);
      }
    }
    std::cerr << "round " << round + 1 << " of " << rounds << " done\n";
  }
  std::cout << absl::StrFormat(
      "%d client threads, %d rounds of %.1f s per method and server, %u CPUs\n\n",
      absl::GetFlag(FLAGS_threads), rounds, seconds, std::thread::hardware_concurrency());
  PrintReport(Table(targets, probes, measured), absl::GetFlag(FLAGS_markdown));
  return 0;
}

}  // namespace
}  // namespace nqueens::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  if (absl::GetFlag(FLAGS_serve_floor)) {
    return nqueens::bench::ServeFloor(absl::GetFlag(FLAGS_listen));
  }
  if (absl::GetFlag(FLAGS_work_times)) return nqueens::bench::WorkTimes();
  return nqueens::bench::Measure();
}
