// Load and fault scenarios against real nqueens-server processes on
// 127.0.0.1 (results in docs/load.md). Each scenario starts its own server,
// runs a bounded number of calls from client threads (each with its own
// connection), and reports the calls by status code, which of them were not
// what the scenario expects, p50/p99 latency by call size (small: n <= 65,536
// rows), throughput, and the server's resident memory idle / at its peak /
// after the scenario. Every SOLVED board is checked with nqueens::Validate.
//
//   nqueens-load --server_binary=build/server/nqueens-server --markdown=docs/load.md
//
// Every loop is bounded in count and in time; nothing is sent anywhere but
// the servers this program started on loopback.
#include <grpcpp/grpcpp.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/common/clocks.h"
#include "bench/common/report.h"
#include "bench/common/stats.h"
#include "bench/compositions.h"
#include "bench/server_process.h"
#include "nqueens/board.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "nqueens/validate.h"
#include "wire/chunks.h"
#include "wire/limits.h"

ABSL_FLAG(std::string, server_binary, "build/server/nqueens-server", "the server to start");
ABSL_FLAG(std::vector<std::string>, scenarios, {}, "scenarios to run (default: all); see --list");
ABSL_FLAG(bool, list, false, "list the scenarios and exit");
ABSL_FLAG(double, scale, 1.0, "multiplies the number of calls of every scenario");
ABSL_FLAG(std::string, markdown, "", "also write the report as Markdown here");
ABSL_FLAG(uint64_t, seed, 1, "seed of the whole run");

namespace nqueens::bench {
namespace {

namespace v1 = nqueens::v1;
using grpc::StatusCode;

constexpr uint64_t kSmallMaxRows = 65536;

int Scaled(int calls) {
  return std::max(1, static_cast<int>(std::lround(calls * absl::GetFlag(FLAGS_scale))));
}

// --- Boards, made once. ---

Columns RandomSolution(uint32_t n, uint64_t seed) {
  SolveOptions options;
  options.seed = seed;
  absl::StatusOr<CompletionResult> solved = Solve(n, SolveMethod::kRandom, options);
  if (!solved.ok() || solved->outcome != Outcome::kSolved) Fail("cannot make a solution");
  return solved->columns;
}

// Keeps each queen of `solution` with probability `keep`.
Columns Thin(const Columns& solution, double keep, std::mt19937_64& random) {
  Columns composition = solution;
  std::bernoulli_distribution kept(keep);
  for (uint32_t& column : composition) {
    if (!kept(random)) column = kEmptyRow;
  }
  return composition;
}

// Gent, Jefferson & Nightingale's natural generator (see
// bench/hard_instances.cc): queens on random free rows and columns, skipping
// taken diagonals, until n - d stand. Near d = sqrt(n / 0.19) these are at
// the completion phase transition: some take the exact search long.
Columns NaturalComposition(uint32_t n, uint32_t d, std::mt19937_64& random) {
  Columns board(n, kEmptyRow);
  std::vector<bool> column_used(n + 1), down(2 * n + 1), up(2 * n + 1);
  uint32_t placed = 0;
  std::uniform_int_distribution<uint32_t> pick(1, n);
  for (uint64_t draw = 0; placed < n - d && draw < uint64_t{n} * n; ++draw) {
    const uint32_t row = pick(random);
    const uint32_t column = pick(random);
    if (board[row - 1] != kEmptyRow || column_used[column] || down[n + row - column] ||
        up[row + column]) {
      continue;
    }
    board[row - 1] = column;
    column_used[column] = down[n + row - column] = up[row + column] = true;
    ++placed;
  }
  return board;
}

struct Boards {
  Columns solution_1000 = RandomSolution(1000, 1);
  Columns solution_1e4 = RandomSolution(10'000, 2);
  Columns solution_1e5 = RandomSolution(100'000, 3);
  Columns solution_1e6 = RandomSolution(1'000'000, 4);
};

const Boards& TheBoards() {
  static const Boards* boards = new Boards();
  return *boards;
}

// --- One call and what came of it. ---

struct CallOutcome {
  StatusCode code = StatusCode::OK;
  double seconds = 0;
  uint64_t n = 0;
  std::string message;
};

// A SOLVED board must be a full solution keeping every given queen.
bool Extends(const Columns& solution, const Columns& composition) {
  if (solution.size() != composition.size()) return false;
  absl::StatusOr<ValidationReport> report = Validate(solution);
  if (!report.ok() || !report->complete) return false;
  for (size_t row = 0; row < composition.size(); ++row) {
    if (composition[row] != kEmptyRow && solution[row] != composition[row]) return false;
  }
  return true;
}

// An OK status whose board does not check out is a defect: reported as
// INTERNAL so that the scenario counts it as unexpected.
grpc::Status CheckBoard(const grpc::Status& status, v1::Outcome outcome, const Columns& board,
                        const Columns& composition) {
  if (!status.ok() || outcome != v1::OUTCOME_SOLVED || Extends(board, composition)) return status;
  return grpc::Status(StatusCode::INTERNAL, "the server sent a board that is not a solution");
}

// The answers this program's clients take in one message (their channels'
// limit), for the server to know (its unary answers default to gRPC's 4 MiB).
constexpr int kClientMessageBytes = 64 << 20;

void TakeLargeAnswers(grpc::ClientContext& context) {
  context.AddMetadata(nqueens::wire::kMaxResponseBytesKey, std::to_string(kClientMessageBytes));
}

class Client {
 public:
  explicit Client(const std::string& address, uint64_t seed) : random_(seed) {
    grpc::ChannelArguments arguments;
    // A connection of its own, as a separate client process would have.
    arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    arguments.SetMaxReceiveMessageSize(kClientMessageBytes);
    arguments.SetMaxSendMessageSize(kClientMessageBytes);
    stub_ = v1::NQueensService::NewStub(
        grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), arguments));
  }

  std::mt19937_64& random() { return random_; }
  v1::NQueensService::Stub& stub() { return *stub_; }

  // Times `call`, which returns its status.
  CallOutcome Timed(uint64_t n, const std::function<grpc::Status()>& call) {
    const Clock::time_point start = Clock::now();
    const grpc::Status status = call();
    return CallOutcome{status.error_code(), SecondsSince(start), n, status.error_message()};
  }

  CallOutcome Solve(uint64_t n, v1::Method method) {
    return Timed(n, [&] {
      v1::SolveRequest request;
      request.set_n(n);
      request.set_method(method);
      v1::SolveResponse response;
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      const grpc::Status status = stub_->Solve(&context, request, &response);
      return CheckBoard(status, response.outcome(),
                        Columns(response.columns().begin(), response.columns().end()),
                        Columns(n, kEmptyRow));
    });
  }

  CallOutcome Complete(const Columns& composition, bool sparse, const v1::Limits& limits = {}) {
    return Timed(composition.size(), [&] {
      v1::CompleteRequest request;
      request.set_n(composition.size());
      *request.mutable_limits() = limits;
      if (sparse) {
        for (uint32_t row = 0; row < composition.size(); ++row) {
          if (composition[row] == kEmptyRow) continue;
          v1::Queen* queen = request.add_queens();
          queen->set_row(row + 1);
          queen->set_column(composition[row]);
        }
      } else {
        request.mutable_columns()->Assign(composition.begin(), composition.end());
      }
      v1::CompleteResponse response;
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      const grpc::Status status = stub_->Complete(&context, request, &response);
      return CheckBoard(status, response.outcome(),
                        Columns(response.columns().begin(), response.columns().end()), composition);
    });
  }

  CallOutcome Validate(const Columns& board) {
    return Timed(board.size(), [&] {
      v1::ValidateRequest request;
      request.set_n(board.size());
      request.mutable_columns()->Assign(board.begin(), board.end());
      v1::ValidateResponse response;
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      grpc::Status status = stub_->Validate(&context, request, &response);
      if (status.ok() && !response.complete()) {
        status = grpc::Status(StatusCode::INTERNAL, "a solution was not found complete");
      }
      return status;
    });
  }

  CallOutcome SolveStream(uint64_t n) {
    return Timed(n, [&] {
      v1::SolveStreamRequest request;
      request.set_n(n);
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      auto reader = stub_->SolveStream(&context, request);
      wire::ChunkAssembler board(n);
      v1::SolveStreamResponse message;
      v1::Outcome outcome = v1::OUTCOME_UNSPECIFIED;
      while (reader->Read(&message)) {
        if (message.has_header()) outcome = message.header().outcome();
        if (message.has_chunk() && !board.Add(message.chunk()).ok()) context.TryCancel();
      }
      const grpc::Status status = reader->Finish();
      absl::StatusOr<Columns> columns = std::move(board).Finish();
      return CheckBoard(status, outcome, columns.ok() ? *columns : Columns(),
                        Columns(n, kEmptyRow));
    });
  }

  // Sends `board` in chunks after `header`: all of them, or the first
  // `chunks` then cancels.
  template <typename Request, typename Stream>
  static void SendBoard(Stream& stream, Request header, const Columns& board, size_t chunks) {
    header.mutable_header()->set_n(board.size());
    stream.Write(header);
    Request message;
    size_t sent = 0;
    wire::ForEachChunk(board, 0, [&](const v1::BoardChunk& chunk) {
      if (sent++ == chunks) return false;
      *message.mutable_chunk() = chunk;
      return stream.Write(message);
    });
  }

  // With `sparse`, the queens travel in the header and no chunks follow.
  CallOutcome CompleteStream(const Columns& composition, bool sparse = false) {
    return Timed(composition.size(), [&] {
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      auto stream = stub_->CompleteStream(&context);
      if (sparse) {
        v1::CompleteStreamRequest header;
        header.mutable_header()->set_n(composition.size());
        for (uint32_t row = 0; row < composition.size(); ++row) {
          if (composition[row] == kEmptyRow) continue;
          v1::Queen* queen = header.mutable_header()->add_queens();
          queen->set_row(row + 1);
          queen->set_column(composition[row]);
        }
        stream->Write(header);
      } else {
        SendBoard(*stream, v1::CompleteStreamRequest(), composition, SIZE_MAX);
      }
      stream->WritesDone();
      wire::ChunkAssembler board(composition.size());
      v1::CompleteStreamResponse message;
      v1::Outcome outcome = v1::OUTCOME_UNSPECIFIED;
      while (stream->Read(&message)) {
        if (message.has_header()) outcome = message.header().outcome();
        if (message.has_chunk() && !board.Add(message.chunk()).ok()) context.TryCancel();
      }
      const grpc::Status status = stream->Finish();
      absl::StatusOr<Columns> columns = std::move(board).Finish();
      return CheckBoard(status, outcome, columns.ok() ? *columns : Columns(), composition);
    });
  }

  CallOutcome ValidateStream(const Columns& board) {
    return Timed(board.size(), [&] {
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      v1::ValidateStreamResponse response;
      auto stream = stub_->ValidateStream(&context, &response);
      SendBoard(*stream, v1::ValidateStreamRequest(), board, SIZE_MAX);
      stream->WritesDone();
      grpc::Status status = stream->Finish();
      if (status.ok() && !response.complete()) {
        status = grpc::Status(StatusCode::INTERNAL, "a solution was not found complete");
      }
      return status;
    });
  }

  // A CompleteStream that sends half its chunks, then cancels.
  CallOutcome CancelMidUpload(const Columns& composition) {
    return Timed(composition.size(), [&] {
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      auto stream = stub_->CompleteStream(&context);
      const size_t chunks = composition.size() / wire::kMaxChunkSize;
      SendBoard(*stream, v1::CompleteStreamRequest(), composition, chunks / 2);
      context.TryCancel();
      return stream->Finish();
    });
  }

  // A SolveStream that reads its header and two chunks, then cancels.
  CallOutcome CancelMidDownload(uint64_t n) {
    return Timed(n, [&] {
      v1::SolveStreamRequest request;
      request.set_n(n);
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      auto reader = stub_->SolveStream(&context, request);
      v1::SolveStreamResponse message;
      for (int i = 0; i < 3 && reader->Read(&message); ++i) {
      }
      context.TryCancel();
      return reader->Finish();
    });
  }

  // A Count of the empty n-row board, read to its end.
  CallOutcome Count(uint32_t n) {
    return Timed(n, [&] {
      v1::CountRequest request;
      request.set_n(n);
      grpc::ClientContext context;
      auto reader = stub_->Count(&context, request);
      v1::CountResponse message;
      while (reader->Read(&message)) {
      }
      return reader->Finish();
    });
  }

  // One CompleteBatch message of `items`, every answer read; a SOLVED answer
  // must extend its item.
  CallOutcome Batch(const std::vector<Columns>& items, const v1::Limits& limits) {
    return Timed(items.front().size(), [&] {
      grpc::ClientContext context;
      auto stream = stub_->CompleteBatch(&context);
      v1::CompleteBatchRequest message;
      for (const Columns& item : items) {
        v1::CompleteRequest* request = message.add_items();
        request->set_n(item.size());
        request->mutable_columns()->Assign(item.begin(), item.end());
        *request->mutable_limits() = limits;
      }
      stream->Write(message);
      stream->WritesDone();
      grpc::Status checked;
      v1::CompleteBatchResponse response;
      while (stream->Read(&response)) {
        for (const v1::CompleteBatchAnswer& answer : response.answers()) {
          if (!answer.has_response() || answer.index() >= items.size()) continue;
          const v1::CompleteResponse& item = answer.response();
          const grpc::Status board = CheckBoard(
              grpc::Status::OK, item.outcome(),
              Columns(item.columns().begin(), item.columns().end()), items[answer.index()]);
          if (!board.ok()) checked = board;
        }
      }
      const grpc::Status status = stream->Finish();
      return checked.ok() ? status : checked;
    });
  }

  // A CompleteStream that sends its header, then `empty_chunks` chunks
  // without rows, `gap` apart (none: it stalls), and waits for its end.
  CallOutcome StalledStream(uint64_t n, int empty_chunks, absl::Duration gap) {
    return Timed(n, [&] {
      grpc::ClientContext context;
      TakeLargeAnswers(context);
      context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(60)));
      auto stream = stub_->CompleteStream(&context);
      v1::CompleteStreamRequest message;
      message.mutable_header()->set_n(n);
      stream->Write(message);
      message.mutable_chunk()->set_offset(0);
      for (int i = 0; i < empty_chunks && stream->Write(message); ++i) {
        std::this_thread::sleep_for(absl::ToChronoNanoseconds(gap));
      }
      return stream->Finish();
    });
  }

 private:
  std::mt19937_64 random_;
  std::unique_ptr<v1::NQueensService::Stub> stub_;
};

// --- A scenario's record and report. ---

struct Report {
  std::string name;
  std::string what;
  std::map<StatusCode, int> codes;
  int unexpected = 0;
  std::vector<std::string> unexpected_examples;
  std::vector<double> small_seconds, large_seconds;
  double seconds = 0;
  uint64_t rss_idle = 0, rss_peak = 0, rss_after = 0;
  std::vector<std::string> findings;  // targets and other measurements
};

// "-" for a latency of no calls (a NaN percentile).
std::string Millis(double seconds) {
  return std::isnan(seconds) ? "-" : absl::StrFormat("%.1f ms", seconds * 1000);
}
std::string Mib(uint64_t bytes) { return absl::StrFormat("%.0f MB", bytes / 1e6); }

// Collects the outcomes of a scenario's calls from many threads.
class Recorder {
 public:
  explicit Recorder(Report& report) : report_(report) {}

  // `expected` lists the codes this call may end with.
  void Add(const CallOutcome& outcome, std::initializer_list<StatusCode> expected) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++report_.codes[outcome.code];
    if (std::find(expected.begin(), expected.end(), outcome.code) == expected.end()) {
      ++report_.unexpected;
      if (report_.unexpected_examples.size() < 3) {
        report_.unexpected_examples.push_back(
            absl::StrCat("n=", outcome.n, " code ", outcome.code, ": ", outcome.message));
      }
    }
    if (outcome.code == StatusCode::OK) {
      (outcome.n <= kSmallMaxRows ? report_.small_seconds : report_.large_seconds)
          .push_back(outcome.seconds);
    }
  }

 private:
  std::mutex mutex_;
  Report& report_;
};

// Runs `body(client_index)` on `clients` threads and waits for them.
void RunClients(int clients, const std::function<void(int)>& body) {
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) threads.emplace_back(body, i);
  for (std::thread& thread : threads) thread.join();
}

// Small calls of every method from 4 clients at once: what a server
// allocates once, at its first calls (gRPC's and protobuf's lazily built
// tables, the code pages of the paths they take, the threads' stacks), is
// part of its idle size.
void WarmUp(const std::string& address) {
  RunClients(4, [&](int index) {
    Client client(address, index);
    const Columns& solution = TheBoards().solution_1000;
    for (int call = 0; call < 14; ++call) {
      const Columns composition = Thin(solution, 0.5, client.random());
      switch (call % 7) {
        case 0:
          client.Solve(1000, v1::METHOD_RANDOM);
          break;
        case 1:
          client.Complete(composition, false);
          break;
        case 2:
          client.Complete(composition, true);
          break;
        case 3:
          client.Validate(solution);
          break;
        case 4:
          client.SolveStream(1000);
          break;
        case 5:
          client.CompleteStream(composition);
          break;
        case 6:
          client.ValidateStream(solution);
          break;
      }
    }
  });
}

// A server for one scenario, warmed up, its idle memory measured before and
// its memory after the body.
Report WithServer(const std::string& name, const std::string& what,
                  const std::vector<std::string>& flags,
                  const std::function<void(ServerProcess&, Report&)>& body,
                  const std::string& log_path = "") {
  Report report;
  report.name = name;
  report.what = what;
  ServerProcess server(absl::GetFlag(FLAGS_server_binary), flags, log_path);
  WarmUp(server.address());
  server.AwaitQuiet(0.3, 5);
  report.rss_idle = server.ResidentBytes();
  server.ResetPeak();
  const Clock::time_point start = Clock::now();
  body(server, report);
  report.seconds = SecondsSince(start);
  if (server.pid() > 0) {  // not stopped by the body
    server.AwaitQuiet(0.5, 30);
    report.rss_peak = server.PeakResidentBytes();
    report.rss_after = server.ResidentBytes();
    const double growth = static_cast<double>(report.rss_after) / report.rss_idle - 1;
    report.findings.push_back(absl::StrFormat("RSS after within 10%% of idle: %+.0f%% (%s)",
                                              growth * 100, growth <= 0.10 ? "met" : "MISSED"));
  }
  std::cerr << "load: " << name << " done in " << report.seconds << " s\n";
  return report;
}

// --- The scenarios. ---

// The mix of every method: small and large boards, unary and streams.
void MixedCall(Client& client, int call, Recorder& recorder) {
  const Boards& boards = TheBoards();
  std::mt19937_64& random = client.random();
  const StatusCode ok = StatusCode::OK;
  switch (call % 7) {
    case 0: {
      const uint64_t sizes[] = {8, 1000, 10'000, 100'000};
      const v1::Method method = random() % 2 ? v1::METHOD_RANDOM : v1::METHOD_CONSTRUCTIVE;
      recorder.Add(client.Solve(sizes[random() % 4], method), {ok});
      break;
    }
    case 1:
      recorder.Add(client.Complete(Thin(boards.solution_1000, 0.5, random), false), {ok});
      break;
    case 2:
      recorder.Add(client.Complete(Thin(boards.solution_1e6, 5e-6, random), true), {ok});
      break;
    case 3:
      recorder.Add(client.Validate(boards.solution_1000), {ok});
      break;
    case 4:
      recorder.Add(client.SolveStream(100'000), {ok});
      break;
    case 5:
      recorder.Add(client.CompleteStream(Thin(boards.solution_1e5, 0.5, random)), {ok});
      break;
    case 6:
      recorder.Add(client.ValidateStream(boards.solution_1e5), {ok});
      break;
  }
}

Report Mixed(int clients) {
  return WithServer(absl::StrCat("mix-", clients),
                    absl::StrCat(clients,
                                 " clients mixing Solve (n up to 10^5), Complete (dense n = 1,000; "
                                 "sparse 5 queens on n = 10^6), Validate and the three streams "
                                 "(n = 10^5)"),
                    {}, [clients](ServerProcess& server, Report& report) {
                      Recorder recorder(report);
                      const int calls = Scaled(std::max(14, 700 / clients));
                      RunClients(clients, [&](int index) {
                        Client client(server.address(), absl::GetFlag(FLAGS_seed) * 1000 + index);
                        for (int call = 0; call < calls; ++call)
                          MixedCall(client, call + index, recorder);
                      });
                    });
}

Report CancelMidStream() {
  return WithServer(
      "cancel-mid-stream",
      "8 clients: CompleteStream (n = 10^6) cancelled halfway through the upload, SolveStream "
      "(n = 10^6) cancelled after two chunks, and small Completes between them",
      {}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        RunClients(8, [&](int index) {
          Client client(server.address(), index);
          for (int i = 0; i < Scaled(10); ++i) {
            recorder.Add(client.CancelMidUpload(TheBoards().solution_1e6), {StatusCode::CANCELLED});
            recorder.Add(client.CancelMidDownload(1'000'000),
                         {StatusCode::CANCELLED, StatusCode::OK});
            recorder.Add(
                client.Complete(Thin(TheBoards().solution_1000, 0.5, client.random()), false),
                {StatusCode::OK});
          }
        });
      });
}

// Small Completes (n = 1,000) from `clients` clients, `calls` each.
void SmallCompletes(const std::string& address, int clients, int calls, Recorder& recorder) {
  RunClients(clients, [&](int index) {
    Client client(address, 500 + index);
    for (int i = 0; i < calls; ++i) {
      recorder.Add(client.Complete(Thin(TheBoards().solution_1000, 0.5, client.random()), false),
                   {StatusCode::OK});
    }
  });
}

Report StalledStreams() {
  return WithServer(
      "stalled-streams",
      "--stream-idle-timeout=1s: 2 streams that send a header and stall, 2 that trickle an "
      "empty chunk every 100 ms (at most 100), and 4 clients making small Completes meanwhile",
      {"--stream-idle-timeout=1s"}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        std::thread attackers([&] {
          RunClients(4, [&](int index) {
            Client client(server.address(), 900 + index);
            const int chunks = index < 2 ? 0 : 100;
            const CallOutcome cut =
                client.StalledStream(1'000'000, chunks, absl::Milliseconds(100));
            recorder.Add(cut, {StatusCode::CANCELLED});
            if (!absl::StrContains(cut.message, "--stream-idle-timeout")) {
              report.findings.push_back("a stalled stream ended without the idle reason: " +
                                        cut.message);
            }
          });
        });
        SmallCompletes(server.address(), 4, Scaled(50), recorder);
        attackers.join();
      });
}

Report IdleStreams() {
  return WithServer(
      "idle-streams",
      "200 CompleteStreams that send a header for n = 10^8 and stay idle for 2 s, and meanwhile "
      "a real CompleteStream of n = 5 * 10^7 (one queen, sparse)",
      {}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        Client client(server.address(), 7);
        std::vector<std::unique_ptr<grpc::ClientContext>> contexts;
        std::vector<std::unique_ptr<
            grpc::ClientReaderWriter<v1::CompleteStreamRequest, v1::CompleteStreamResponse>>>
            streams;
        v1::CompleteStreamRequest header;
        header.mutable_header()->set_n(100'000'000);
        for (int i = 0; i < 200; ++i) {
          contexts.push_back(std::make_unique<grpc::ClientContext>());
          streams.push_back(client.stub().CompleteStream(contexts.back().get()));
          streams.back()->Write(header);
        }
        Columns one_queen(50'000'000, kEmptyRow);
        one_queen[12'345'677] = 33'333'333;
        recorder.Add(client.CompleteStream(one_queen, true), {StatusCode::OK});
        std::this_thread::sleep_for(std::chrono::seconds(2));  // the idle time itself
        for (size_t i = 0; i < streams.size(); ++i) {
          contexts[i]->TryCancel();
          recorder.Add(CallOutcome{streams[i]->Finish().error_code(), 0, 100'000'000, ""},
                       {StatusCode::CANCELLED});
        }
      });
}

// A hard instance of Gent et al.'s Excluded Diagonals family: m = 28 free
// rows (n about 7,400), whose proofs or solutions take the exact search
// minutes (docs/hard-instances.md, "Decided by time"), one excluded diagonal
// per row.
Columns HardSearchBoard(std::mt19937_64& random) {
  constexpr uint32_t kM = 28;
  for (;;) {
    const std::vector<Diagonal> excluded = ExcludedDiagonals(kM, kM, 4, random);
    if (excluded.size() == kM) return ExcludedDiagonalsAsCompletion(kM, excluded);
  }
}

// Limits a client may ask for: every search bounded only by the server.
v1::Limits HugeLimitsRequest() {
  v1::Limits limits;
  limits.set_max_backtracks(UINT64_MAX);
  limits.set_max_restarts(UINT32_MAX);
  limits.set_max_exact_nodes(UINT64_MAX);
  return limits;
}

Report HugeLimits() {
  return WithServer(
      "huge-limits",
      "--max-call-seconds=3: 2 clients send Completes with max_backtracks = 2^64-1, "
      "max_restarts = 2^32-1, max_exact_nodes = 2^64-1 on boards of Gent et al.'s natural "
      "generator at the phase transition (n = 3,000, 126 free rows); 2 clients make small "
      "Completes meanwhile",
      {"--max-call-seconds=3"}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        std::thread attackers([&] {
          RunClients(2, [&](int index) {
            Client client(server.address(), 300 + index);
            const v1::Limits limits = HugeLimitsRequest();
            for (int i = 0; i < Scaled(3); ++i) {
              const Columns board = NaturalComposition(3000, 126, client.random());
              // Decided (SOLVED, UNSOLVABLE or UNDECIDED: all OK), or stopped
              // by the server's limit, or at a glance refused as invalid.
              recorder.Add(client.Complete(board, false, limits),
                           {StatusCode::OK, StatusCode::RESOURCE_EXHAUSTED});
            }
          });
        });
        SmallCompletes(server.address(), 2, Scaled(100), recorder);
        attackers.join();
      });
}

Report HugeUnary() {
  return WithServer(
      "huge-unary",
      "--memory-budget=512M: 8 clients each send a Validate of about 60 MB (n = 1.5 * 10^7, "
      "dense, 4 bytes a column), and 4 a sparse Complete of 3 * 10^6 queens on n = 10^8 that "
      "the budget cannot hold",
      {"--memory-budget=512M"}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        constexpr uint32_t kN = 15'000'000;
        Columns big(kN);
        std::mt19937_64 random(5);
        std::uniform_int_distribution<uint32_t> column(1u << 21, kN);
        for (uint32_t& value : big) value = column(random);
        Columns sparse(100'000'000, kEmptyRow);
        for (uint32_t i = 0; i < 3'000'000; ++i) sparse[i * 33] = i + 1;
        RunClients(12, [&](int index) {
          Client client(server.address(), 400 + index);
          if (index < 8) {
            // Not a solution: INTERNAL here means the server validated it.
            // UNAVAILABLE: gRPC's memory quota closed the connection while
            // the message came in (clients retry it).
            const CallOutcome outcome = client.Validate(big);
            recorder.Add(outcome, {StatusCode::INTERNAL, StatusCode::RESOURCE_EXHAUSTED,
                                   StatusCode::UNAVAILABLE});
          } else {
            // Refused for the budget, or, when the budget has room for its
            // request, for an answer larger than the client takes.
            recorder.Add(client.Complete(sparse, true),
                         {StatusCode::RESOURCE_EXHAUSTED, StatusCode::FAILED_PRECONDITION});
          }
        });
        report.findings.push_back(
            "INTERNAL here: the board was validated (it is no solution); UNAVAILABLE: gRPC's "
            "memory quota closed the connection while the message came in");
        // The budget, gRPC's own memory (its resource quota: twice the
        // largest message, a quarter of the budget) and the idle server.
        const uint64_t bound = (uint64_t{512} << 20) + 2 * (uint64_t{128} << 20) + report.rss_idle;
        const uint64_t peak = server.PeakResidentBytes();
        report.findings.push_back(
            absl::StrFormat("peak RSS %s within the budget + gRPC's quota + idle = %s: %s",
                            Mib(peak), Mib(bound), peak <= bound ? "met" : "MISSED"));
      });
}

// `hard_clients` clients, client i making up to `calls` calls of
// `hard_call(i, client, recorder)` until the small calls are done, and
// meanwhile 300 sequential small Completes (n = 1,000, half the queens of a
// solution) from one more client: their p99 against the 20 ms target, and
// the other calls' statuses, go into `report`.
void BesideSmallCalls(ServerProcess& server, Report& report, const std::string& beside,
                      int hard_clients, int calls, uint64_t seed,
                      const std::function<void(int, Client&, Recorder&)>& hard_call) {
  Recorder recorder(report);
  std::atomic<bool> done{false};
  std::thread hard_calls([&] {
    RunClients(hard_clients, [&](int index) {
      Client client(server.address(), seed + index);
      for (int i = 0; i < calls && !done.load(); ++i) hard_call(index, client, recorder);
    });
  });
  // Wait for the hard calls to be running before the small ones start.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  Report small;
  Recorder small_recorder(small);
  SmallCompletes(server.address(), 1, Scaled(300), small_recorder);
  done.store(true);
  hard_calls.join();
  for (const auto& [code, count] : small.codes) report.codes[code] += count;
  report.unexpected += small.unexpected;
  for (const std::string& example : small.unexpected_examples) {
    report.unexpected_examples.push_back(example);
  }
  report.small_seconds = small.small_seconds;
  const double p99 = Percentile(small.small_seconds, 0.99);
  report.findings.push_back(absl::StrCat("small calls beside ", beside, ": p99 ", Millis(p99),
                                         " (target <= 20 ms: ", p99 <= 0.020 ? "met" : "MISSED",
                                         ")"));
}

// A Complete of n rows with one queen, sparse.
CallOutcome OneQueenComplete(Client& client, uint32_t n, uint32_t row, uint32_t column) {
  Columns one_queen(n, kEmptyRow);
  one_queen[row] = column;
  return client.Complete(one_queen, true);
}

Report Fairness() {
  return WithServer(
      "fairness",
      "2 clients each keep a Complete of n = 10^7 (one queen, sparse) running; 1 client makes "
      "300 sequential Completes of n = 1,000 (half the queens of a solution) meanwhile",
      {}, [](ServerProcess& server, Report& report) {
        BesideSmallCalls(
            server, report, "two 10^7 calls", 2, 100, 600,
            [](int index, Client& client, Recorder& recorder) {
              recorder.Add(OneQueenComplete(client, 10'000'000, index * 1000, 5'000'000 + index),
                           {StatusCode::OK});
            });
      });
}

Report HardSearches() {
  return WithServer(
      "hard-searches",
      "--max-call-seconds=10: 2 clients each keep a Complete running with limits at the maximum "
      "on a hard Excluded Diagonals board (m = 28 free rows, n = 7,363: small by its size, a "
      "search of minutes cut by the call's limit); 1 client makes 300 sequential Completes of "
      "n = 1,000 meanwhile",
      {"--max-call-seconds=10"}, [](ServerProcess& server, Report& report) {
        BesideSmallCalls(server, report, "two hard searches", 2, 20, 1100,
                         [](int, Client& client, Recorder& recorder) {
                           recorder.Add(client.Complete(HardSearchBoard(client.random()), false,
                                                        HugeLimitsRequest()),
                                        {StatusCode::OK, StatusCode::RESOURCE_EXHAUSTED});
                         });
      });
}

// Client 0 looping over `hard_call`, client 1 over Completes of n = 10^6
// (one queen, sparse: large calls must get a worker too), beside the small
// calls of BesideSmallCalls.
void BesideAHardCall(ServerProcess& server, Report& report, const std::string& beside,
                     uint64_t seed, const std::function<void(Client&, Recorder&)>& hard_call) {
  BesideSmallCalls(
      server, report, beside, 2, 200, seed, [&](int index, Client& client, Recorder& recorder) {
        if (index == 0) return hard_call(client, recorder);
        recorder.Add(OneQueenComplete(client, 1'000'000, 4321, 777'777), {StatusCode::OK});
      });
}

Report CountsBesideCalls() {
  return WithServer(
      "counts",
      "--max-call-seconds=10: 1 client keeps a Count of n = 20 running (20 minutes of work, "
      "cut by the limit), 1 client makes Completes of n = 10^6 (one queen, sparse), 1 client "
      "300 sequential Completes of n = 1,000 meanwhile",
      {"--max-call-seconds=10"}, [](ServerProcess& server, Report& report) {
        BesideAHardCall(server, report, "a count and large calls", 1200,
                        [](Client& client, Recorder& recorder) {
                          recorder.Add(client.Count(20), {StatusCode::RESOURCE_EXHAUSTED});
                        });
      });
}

Report HardBatches() {
  return WithServer(
      "hard-batches",
      "--max-call-seconds=10: 1 client keeps a CompleteBatch running of 16 items with limits at "
      "the maximum on hard Excluded Diagonals boards (m = 28), 1 client makes "
      "Completes of n = 10^6 (one queen, sparse), 1 client 300 sequential Completes of "
      "n = 1,000 meanwhile",
      {"--max-call-seconds=10"}, [](ServerProcess& server, Report& report) {
        BesideAHardCall(server, report, "a hard batch and large calls", 1300,
                        [](Client& client, Recorder& recorder) {
                          std::vector<Columns> items;
                          for (int item = 0; item < 16; ++item) {
                            items.push_back(HardSearchBoard(client.random()));
                          }
                          recorder.Add(client.Batch(items, HugeLimitsRequest()),
                                       {StatusCode::OK, StatusCode::RESOURCE_EXHAUSTED});
                        });
      });
}

// One throughput client: `calls` Completes of half-filled n-row boards.
void ThroughputClient(ServerProcess& server, uint32_t n, const Columns& solution, int calls,
                      int index, Recorder& recorder) {
  Client client(server.address(), 700 + index);
  std::vector<Columns> compositions;
  for (int i = 0; i < 16; ++i) compositions.push_back(Thin(solution, 0.5, client.random()));
  for (int i = 0; i < calls; ++i) {
    const Columns& composition = compositions[i % compositions.size()];
    if (i % 10 == 0) {
      recorder.Add(client.Complete(composition, false), {StatusCode::OK});
      continue;
    }
    recorder.Add(client.Timed(n,
                              [&] {
                                v1::CompleteRequest request;
                                request.set_n(n);
                                request.mutable_columns()->Assign(composition.begin(),
                                                                  composition.end());
                                v1::CompleteResponse response;
                                grpc::ClientContext context;
                                TakeLargeAnswers(context);
                                return client.stub().Complete(&context, request, &response);
                              }),
                 {StatusCode::OK});
  }
}

// Where a run's CPU went, per call: on the server's workers (the work), and
// everywhere else (gRPC's threads, the clients).
struct CallCpu {
  double work = 0, other = 0;
};

// The most a second worker can raise throughput when every call needs
// `cpu.work` on a worker and `cpu.other` besides, all on `cpus` CPUs:
// throughput with w workers is at most min(w / work, cpus / (work + other)).
double RatioCeiling(const CallCpu& cpu, double cpus) {
  const auto most = [&](double workers) {
    return std::min(workers / cpu.work, cpus / (cpu.work + cpu.other));
  };
  return most(2) / most(1);
}

// Runs `calls` (from the clients) against `server` and measures their CPU.
CallCpu MeasureCallCpu(ServerProcess& server, uint64_t calls, const std::function<void()>& run) {
  const double server_before = server.CpuSeconds();
  const double workers_before = server.ThreadCpuSecondsAtNice(5);
  const double clients_before = ProcessCpuSeconds();
  run();
  const double workers = server.ThreadCpuSecondsAtNice(5) - workers_before;
  const double rest = server.CpuSeconds() - server_before - workers;
  const double clients = ProcessCpuSeconds() - clients_before;
  return {workers / calls, (rest + clients) / calls};
}

// Throughput of small Completes with --workers=1 and 2, and the ratio. The
// clients run on the same two CPUs as the server, so they send prebuilt
// requests and check every tenth answer; the CPU each call takes on the
// workers and elsewhere gives the ratio this machine allows at most.
Report Throughput(uint32_t n) {
  const Columns solution = n == 1000 ? TheBoards().solution_1000 : RandomSolution(n, n);
  Report report;
  report.name = absl::StrCat("throughput-", n);
  report.what =
      absl::StrCat("8 clients making Completes of n = ", n,
                   " (half the queens of a solution) against --workers=1, then --workers=2");
  const int calls_per_client = Scaled(static_cast<int>(std::max<uint32_t>(20, 2'000'000 / n / 8)));
  double rate[3] = {0, 0, 0};
  CallCpu cpu[3];
  for (int workers : {1, 2}) {
    Report part = WithServer(
        report.name, report.what, {absl::StrCat("--workers=", workers)},
        [&](ServerProcess& server, Report& record) {
          Recorder recorder(record);
          const Clock::time_point start = Clock::now();
          cpu[workers] = MeasureCallCpu(server, uint64_t{8} * calls_per_client, [&] {
            RunClients(8, [&](int index) {
              ThroughputClient(server, n, solution, calls_per_client, index, recorder);
            });
          });
          rate[workers] = static_cast<double>(record.small_seconds.size()) / SecondsSince(start);
        });
    for (const auto& [code, count] : part.codes) report.codes[code] += count;
    report.unexpected += part.unexpected;
    report.small_seconds.insert(report.small_seconds.end(), part.small_seconds.begin(),
                                part.small_seconds.end());
    report.seconds += part.seconds;
    report.rss_idle = part.rss_idle;
    report.rss_peak = std::max(report.rss_peak, part.rss_peak);
    report.rss_after = part.rss_after;
    report.findings.push_back(absl::StrFormat(
        "--workers=%d: %.0f calls/s; per call %.0f us of CPU on the workers, %.0f us elsewhere",
        workers, rate[workers], cpu[workers].work * 1e6, cpu[workers].other * 1e6));
  }
  const double ratio = rate[2] / rate[1];
  const double ceiling = RatioCeiling(cpu[2], std::thread::hardware_concurrency());
  report.findings.push_back(absl::StrFormat(
      "2 workers / 1 worker: %.2f (target >= 1.8: %s); the CPU per call measured with 2 workers "
      "caps it at %.2f on %d CPUs shared with the clients (%.0f%% of that reached)",
      ratio, ratio >= 1.8 ? "met" : "MISSED", ceiling, std::thread::hardware_concurrency(),
      100 * ratio / ceiling));
  return report;
}

// What a call costs the machine besides the work: Validates of n = 8 (a few
// microseconds of work) from 8 clients, client and server on the same two
// CPUs. Its inverse bounds how far a second worker can raise throughput.
Report CallOverhead() {
  return WithServer(
      "call-overhead",
      "8 clients making Validates of n = 8 against --workers=2: the cost of a call in gRPC, "
      "client and server together, with next to no work",
      {"--workers=2"}, [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        const Columns board = RandomSolution(8, 1);
        const Clock::time_point start = Clock::now();
        RunClients(8, [&](int index) {
          Client client(server.address(), index);
          for (int i = 0; i < Scaled(2000); ++i)
            recorder.Add(client.Validate(board), {StatusCode::OK});
        });
        const double rate = report.small_seconds.size() / SecondsSince(start);
        report.findings.push_back(
            absl::StrFormat("%.0f calls/s: %.0f us of CPU per call on 2 CPUs", rate, 2e6 / rate));
      });
}

Report SigtermUnderLoad() {
  const std::string log_path = "/tmp/nqueens-load-sigterm.log";
  return WithServer(
      "sigterm",
      "--grace=5s: 8 clients loop over CompleteStreams of n = 10^6 (at most 50 each); SIGTERM "
      "after 1 s; the calls in flight must finish, later ones get UNAVAILABLE",
      {"--grace=5s", "--log-level=info"},
      [](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        std::atomic<bool> stopped{false};
        std::thread clients([&] {
          RunClients(8, [&](int index) {
            Client client(server.address(), 800 + index);
            for (int i = 0; i < 50; ++i) {
              const bool after = stopped.load();
              const CallOutcome outcome =
                  client.CompleteStream(Thin(TheBoards().solution_1e6, 0.5, client.random()));
              if (after) {
                recorder.Add(outcome, {StatusCode::UNAVAILABLE});
                break;
              }
              // Begun before the signal: finished, or refused if it reached
              // the server after it.
              recorder.Add(outcome, {StatusCode::OK, StatusCode::UNAVAILABLE});
              if (outcome.code == StatusCode::UNAVAILABLE) break;
            }
          });
        });
        std::this_thread::sleep_for(std::chrono::seconds(1));  // load, then the signal
        const pid_t pid = server.pid();
        stopped.store(true);
        const Clock::time_point signalled = Clock::now();
        kill(pid, SIGTERM);
        clients.join();
        // The server exits by itself; the scenario's own stop then waits.
        const ServerProcess::Exit exit = server.Stop(0);
        const double seconds = SecondsSince(signalled);
        report.findings.push_back(absl::StrFormat(
            "exit %d after %.2f s from SIGTERM (target: within --grace + 1 s = 6 s: %s)",
            exit.status, seconds, seconds <= 6 && exit.status == 0 ? "met" : "MISSED"));
      },
      log_path);
}

// The server's log line of the last call on n rows; "" when there is none.
std::string LastLoggedCall(const std::string& log_path, uint64_t n) {
  std::ifstream log(log_path);
  std::string line, last;
  const std::string needle = absl::StrCat(" n=", n, " ");
  while (std::getline(log, line)) {
    if (absl::StrContains(line, needle) && absl::EndsWith(line, "s")) last = line;
  }
  return last;
}

// Its duration there (the line ends with "1.234s"); -1 without one.
double LoggedSeconds(const std::string& line) {
  if (line.empty()) return -1;
  return std::atof(line.substr(line.rfind(' ') + 1).c_str());
}

// Its status there ("status=DEADLINE_EXCEEDED (...)").
std::string LoggedStatus(const std::string& line) {
  const size_t at = line.find(" status=");
  if (at == std::string::npos) return "none";
  const size_t start = at + 8;
  return line.substr(start, line.find_first_of(" ", start) - start);
}

// How long after its deadline or its cancellation a call stops in the
// server, at n = 10^8 and 10^9, and whether its memory comes back; and
// whether the server logs the status the client saw.
Report StopLatency() {
  const std::string log_path = "/tmp/nqueens-load-stop-latency.log";
  return WithServer(
      "stop-latency",
      "one call at a time on n = 10^8 and 10^9 (--max-n=1000000000 --memory-budget=22G): "
      "RANDOM SolveStreams with a 1 s deadline, and cancelled 0.5 s in; a CONSTRUCTIVE "
      "SolveStream of 10^9 with a 0.3 s deadline; unary at 10^8: a Complete (one queen) with a "
      "1 s deadline, a CONSTRUCTIVE Solve with a 0.15 s deadline (its board takes about 0.2 s "
      "to make and as long to send); the server's log says how long each ran there and with "
      "what status",
      {"--max-n=1000000000", "--memory-budget=22G", "--log-level=info"},
      [&](ServerProcess& server, Report& report) {
        Recorder recorder(report);
        Client client(server.address(), 1);
        enum class Call { kSolveStream, kSolve, kComplete };
        struct Case {
          uint64_t n;
          v1::Method method;
          Call call;
          double deadline;      // 0: none
          double cancel_after;  // 0: never
        };
        for (const Case& c :
             {Case{100'000'000, v1::METHOD_RANDOM, Call::kSolveStream, 1.0, 0},
              Case{100'000'000, v1::METHOD_RANDOM, Call::kSolveStream, 0, 0.5},
              Case{1'000'000'000, v1::METHOD_RANDOM, Call::kSolveStream, 1.0, 0},
              Case{1'000'000'000, v1::METHOD_RANDOM, Call::kSolveStream, 0, 0.5},
              Case{1'000'000'000, v1::METHOD_CONSTRUCTIVE, Call::kSolveStream, 0.3, 0},
              Case{100'000'000, v1::METHOD_RANDOM, Call::kComplete, 1.0, 0},
              Case{100'000'000, v1::METHOD_CONSTRUCTIVE, Call::kSolve, 0.15, 0}}) {
          grpc::ClientContext context;
          // The unary answers (400 MB) are never read: cut first.
          context.AddMetadata(nqueens::wire::kMaxResponseBytesKey, std::to_string(UINT64_MAX));
          if (c.deadline > 0) {
            context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(c.deadline)));
          }
          v1::SolveStreamRequest request;
          request.set_n(c.n);
          request.set_method(c.method);
          grpc::Status status;
          std::thread call([&] {
            if (c.call == Call::kSolveStream) {
              v1::SolveStreamResponse message;
              auto reader = client.stub().SolveStream(&context, request);
              while (reader->Read(&message)) {
              }
              status = reader->Finish();
            } else if (c.call == Call::kSolve) {
              v1::SolveRequest unary;
              unary.set_n(c.n);
              unary.set_method(c.method);
              v1::SolveResponse response;
              status = client.stub().Solve(&context, unary, &response);
            } else {
              v1::CompleteRequest complete;
              complete.set_n(c.n);
              v1::Queen* queen = complete.add_queens();
              queen->set_row(c.n / 2);
              queen->set_column(c.n / 3);
              v1::CompleteResponse response;
              status = client.stub().Complete(&context, complete, &response);
            }
          });
          if (c.cancel_after > 0) {
            std::this_thread::sleep_for(std::chrono::duration<double>(c.cancel_after));
            context.TryCancel();
          }
          call.join();
          recorder.Add(CallOutcome{status.error_code(), 0, c.n, status.error_message()},
                       {c.deadline > 0 ? StatusCode::DEADLINE_EXCEEDED : StatusCode::CANCELLED});
          server.AwaitQuiet(0.3, 60);
          const std::string logged = LastLoggedCall(log_path, c.n);
          const double late = LoggedSeconds(logged) - std::max(c.deadline, c.cancel_after);
          const std::string client_status =
              absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code()));
          report.findings.push_back(absl::StrFormat(
              "n = %d %s %s, %s: stopped %.3f s later (target <= 0.1 s: %s), logged %s, the "
              "client saw %s (%s), RSS then %s",
              c.n, c.method == v1::METHOD_RANDOM ? "RANDOM" : "CONSTRUCTIVE",
              c.call == Call::kSolveStream ? "SolveStream"
              : c.call == Call::kSolve     ? "Solve"
                                           : "Complete",
              c.deadline > 0 ? absl::StrFormat("deadline %.2f s", c.deadline)
                             : absl::StrFormat("cancelled at %.1f s", c.cancel_after),
              late, late <= 0.1 ? "met" : "MISSED", LoggedStatus(logged), client_status,
              LoggedStatus(logged) == client_status ? "same" : "DIFFERENT",
              Mib(server.ResidentBytes())));
        }
      },
      log_path);
}

// The report as Markdown.
std::string Markdown(const std::vector<Report>& reports) {
  std::string out =
      "| scenario | calls by status | unexpected | small p50 / p99 | large p50 / p99 "
      "| calls/s | RSS idle / peak / after |\n|---|---|---|---|---|---|---|\n";
  for (const Report& report : reports) {
    std::vector<std::string> codes;
    int calls = 0;
    for (const auto& [code, count] : report.codes) {
      codes.push_back(
          absl::StrCat(count, " ", absl::StatusCodeToString(static_cast<absl::StatusCode>(code))));
      calls += count;
    }
    absl::StrAppend(&out, "| ", report.name, " | ", absl::StrJoin(codes, ", "), " | ",
                    report.unexpected, " | ", Millis(Percentile(report.small_seconds, 0.5)), " / ",
                    Millis(Percentile(report.small_seconds, 0.99)), " | ",
                    Millis(Percentile(report.large_seconds, 0.5)), " / ",
                    Millis(Percentile(report.large_seconds, 0.99)), " | ",
                    absl::StrFormat("%.0f", calls / std::max(report.seconds, 1e-9)), " | ",
                    Mib(report.rss_idle), " / ", Mib(report.rss_peak), " / ", Mib(report.rss_after),
                    " |\n");
  }
  out += "\n";
  for (const Report& report : reports) {
    absl::StrAppend(&out, "- **", report.name, "**: ", report.what, ".");
    for (const std::string& finding : report.findings) absl::StrAppend(&out, " ", finding, ".");
    for (const std::string& example : report.unexpected_examples) {
      absl::StrAppend(&out, " Unexpected: ", example, ".");
    }
    out += "\n";
  }
  return out;
}

int WriteReport(const std::vector<Report>& reports) {
  PrintReport(Markdown(reports), absl::GetFlag(FLAGS_markdown));
  int unexpected = 0;
  for (const Report& report : reports) unexpected += report.unexpected;
  return unexpected == 0 ? 0 : 1;
}

}  // namespace
}  // namespace nqueens::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  using namespace nqueens::bench;
  const std::vector<std::pair<std::string, std::function<Report()>>> scenarios = {
      {"mix-1", [] { return Mixed(1); }},
      {"mix-4", [] { return Mixed(4); }},
      {"mix-16", [] { return Mixed(16); }},
      {"mix-64", [] { return Mixed(64); }},
      {"cancel-mid-stream", CancelMidStream},
      {"stalled-streams", StalledStreams},
      {"idle-streams", IdleStreams},
      {"huge-limits", HugeLimits},
      {"huge-unary", HugeUnary},
      {"fairness", Fairness},
      {"hard-searches", HardSearches},
      {"counts", CountsBesideCalls},
      {"hard-batches", HardBatches},
      {"call-overhead", CallOverhead},
      {"throughput-1000", [] { return Throughput(1000); }},
      {"throughput-10000", [] { return Throughput(10'000); }},
      {"throughput-50000", [] { return Throughput(50'000); }},
      {"sigterm", SigtermUnderLoad},
      {"stop-latency", StopLatency},
  };
  if (absl::GetFlag(FLAGS_list)) {
    for (const auto& [name, run] : scenarios) std::cout << name << "\n";
    return 0;
  }
  std::vector<std::string> chosen = absl::GetFlag(FLAGS_scenarios);
  std::vector<Report> reports;
  for (const auto& [name, run] : scenarios) {
    if (chosen.empty() || std::find(chosen.begin(), chosen.end(), name) != chosen.end()) {
      reports.push_back(run());
    }
  }
  return WriteReport(reports);
}
