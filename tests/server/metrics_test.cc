// The Prometheus endpoint of a real server, scraped over HTTP before and
// after real calls on loopback: the counters move by what the calls did (the
// standard grpc_server_* series for every service, ours for NQueens calls),
// the gauges show the server's state, the process metrics are there, no
// value is NaN, and the endpoint is off unless asked for.
//
// A call's metrics are recorded when gRPC is done with it, which can be just
// after its client has the answer: each scrape first waits (bounded) until
// no call is in flight, i.e. every call so far has been recorded.
#include "server/observability/metrics.h"

#include <grpcpp/grpcpp.h>
#include <prometheus/registry.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metrics_scrape.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/observability/metrics_endpoint.h"
#include "server/observability/process_metrics.h"
#include "server/server.h"
#include "test_constants.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

constexpr uint64_t kBudget = uint64_t{1} << 30;

std::unique_ptr<server::Server> StartServerWithMetrics(server::ServiceOptions service) {
  server::ServerOptions options;
  options.metrics_listen = "127.0.0.1:0";
  options.service = service;
  return StartLoopbackServer(options);
}

// The samples once every call so far has been recorded.
Samples ScrapeSettled(const server::Server& server) {
  EXPECT_TRUE(server.in_flight().AwaitIdle(absl::Now() + kPatience));
  absl::StatusOr<Samples> samples = Scrape(server.metrics_port());
  EXPECT_TRUE(samples.ok()) << samples.status();
  return samples.value_or(Samples{});
}

grpc::Status Solve(v1::NQueensService::Stub& stub, uint32_t n, v1::SolveResponse& response) {
  grpc::ClientContext context;
  v1::SolveRequest request;
  request.set_n(n);
  return stub.Solve(&context, request, &response);
}

// A grpc_server_* series of an NQueens method called over gRPC, e.g.
// Grpc("grpc_server_started_total", "Solve", "unary").
std::string Grpc(const std::string& name, const std::string& method, const std::string& type,
                 const std::string& code = "",
                 const std::string& service = "nqueens.v1.NQueensService") {
  return absl::StrCat(name, "{", code.empty() ? "" : absl::StrCat(R"(grpc_code=")", code, R"(",)"),
                      R"(grpc_method=")", method, R"(",grpc_service=")", service,
                      R"(",grpc_type=")", type, R"(",transport="grpc"})");
}

class MetricsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServiceOptions service;
    service.memory_budget = kBudget;
    service.workers = 2;
    server_ = StartServerWithMetrics(service).release();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  void SetUp() override {
    ASSERT_NE(server_, nullptr);
    ASSERT_NE(server_->metrics_port(), 0);
  }

  static server::Server* server_;
};

server::Server* MetricsTest::server_ = nullptr;

TEST_F(MetricsTest, CallsMoveTheCountersByWhatTheyDid) {
  auto stub = StubFor(*server_);
  const Samples before = ScrapeSettled(*server_);

  v1::SolveResponse solved, unsolvable, refused;
  ASSERT_TRUE(Solve(*stub, 8, solved).ok());
  ASSERT_EQ(solved.outcome(), v1::OUTCOME_SOLVED);
  ASSERT_TRUE(Solve(*stub, 3, unsolvable).ok());  // the exact search proves it
  ASSERT_EQ(unsolvable.outcome(), v1::OUTCOME_UNSOLVABLE);
  ASSERT_EQ(Solve(*stub, 0, refused).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  grpc::ClientContext context;
  v1::ValidateRequest validate;
  validate.set_n(8);
  validate.mutable_columns()->Add(solved.columns().begin(), solved.columns().end());
  v1::ValidateResponse report;
  ASSERT_TRUE(stub->Validate(&context, validate, &report).ok());
  ASSERT_TRUE(report.complete());

  const Samples after = ScrapeSettled(*server_);
  const auto moved = [&](const std::string& series) {
    return ValueOf(after, series) - ValueOf(before, series);
  };
  EXPECT_EQ(moved(Grpc("grpc_server_started_total", "Solve", "unary")), 3);
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "Solve", "unary", "OK")), 2);
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "Solve", "unary", "InvalidArgument")), 1);
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "Validate", "unary", "OK")), 1);
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "Complete", "unary", "OK")), 0);
  EXPECT_EQ(moved(Grpc("grpc_server_handling_seconds_count", "Solve", "unary")), 3);
  EXPECT_GT(moved(Grpc("grpc_server_handling_seconds_sum", "Solve", "unary")), 0);
  EXPECT_EQ(moved(R"(grpc_server_handling_seconds_bucket{grpc_method="Solve",)"
                  R"(grpc_service="nqueens.v1.NQueensService",grpc_type="unary",transport="grpc",)"
                  R"(le="+Inf"})"),
            3);
  EXPECT_EQ(moved(Grpc("grpc_server_msg_received_total", "Solve", "unary")), 3);
  // The refused call answered with its status alone.
  EXPECT_EQ(moved(Grpc("grpc_server_msg_sent_total", "Solve", "unary")), 2);
  // n = 0 is no board.
  EXPECT_EQ(moved(R"(nqueens_board_rows_count{method="Solve"})"), 2);
  EXPECT_EQ(moved(R"(nqueens_board_rows_sum{method="Solve"})"), 8 + 3);
  EXPECT_EQ(moved(R"(nqueens_board_rows_bucket{method="Solve",le="10"})"), 2);
  EXPECT_EQ(moved(R"(nqueens_board_rows_count{method="Validate"})"), 1);
  EXPECT_EQ(moved(R"(nqueens_completion_outcomes_total{outcome="SOLVED"})"), 1);
  EXPECT_EQ(moved(R"(nqueens_completion_outcomes_total{outcome="UNSOLVABLE"})"), 1);
  EXPECT_EQ(moved(R"(nqueens_validation_outcomes_total{outcome="complete"})"), 1);
  // Completions' outcomes and validations' verdicts are apart.
  EXPECT_EQ(after.count(R"(nqueens_completion_outcomes_total{outcome="complete"})"), 0u);
  EXPECT_EQ(after.count(R"(nqueens_validation_outcomes_total{outcome="SOLVED"})"), 0u);
  ASSERT_GT(unsolvable.stats().exact_nodes(), 0u);
  EXPECT_EQ(moved("nqueens_exact_nodes_total"),
            solved.stats().exact_nodes() + unsolvable.stats().exact_nodes());
  // Every call that reached a worker: not the refused one.
  EXPECT_EQ(moved("nqueens_queue_wait_seconds_count"), 3);
}

// grpc_type follows the proto's shapes, and streams count their messages.
TEST_F(MetricsTest, StreamsAreTypedByTheirShapeAndCountTheirMessages) {
  const Samples before = ScrapeSettled(*server_);
  for (const auto& [method, type] :
       {std::pair{"Solve", "unary"}, std::pair{"SolveStream", "server_stream"},
        std::pair{"ValidateStream", "client_stream"}, std::pair{"CompleteStream", "bidi_stream"},
        std::pair{"CompleteBatch", "bidi_stream"}, std::pair{"Count", "server_stream"}}) {
    EXPECT_EQ(before.count(Grpc("grpc_server_started_total", method, type)), 1u) << method;
    EXPECT_EQ(before.count(Grpc("grpc_server_handled_total", method, type, "Unavailable")), 1u)
        << method;
  }

  auto stub = StubFor(*server_);
  int responses = 0;
  {
    grpc::ClientContext context;
    v1::SolveStreamRequest request;
    request.set_n(8);
    auto reader = stub->SolveStream(&context, request);
    v1::SolveStreamResponse response;
    while (reader->Read(&response)) ++responses;
    ASSERT_TRUE(reader->Finish().ok());
  }
  ASSERT_GE(responses, 2);  // a header and the board
  {
    grpc::ClientContext context;
    v1::ValidateStreamResponse report;
    auto writer = stub->ValidateStream(&context, &report);
    v1::ValidateStreamRequest header;
    header.mutable_header()->set_n(8);
    ASSERT_TRUE(writer->Write(header));
    v1::ValidateStreamRequest chunk;
    for (const uint32_t column : KnownSolution(8)) chunk.mutable_chunk()->add_columns(column);
    ASSERT_TRUE(writer->Write(chunk));
    ASSERT_TRUE(writer->WritesDone());
    ASSERT_TRUE(writer->Finish().ok());
    ASSERT_TRUE(report.complete());
  }

  const Samples after = ScrapeSettled(*server_);
  const auto moved = [&](const std::string& series) {
    return ValueOf(after, series) - ValueOf(before, series);
  };
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "SolveStream", "server_stream", "OK")), 1);
  EXPECT_EQ(moved(Grpc("grpc_server_msg_received_total", "SolveStream", "server_stream")), 1);
  EXPECT_EQ(moved(Grpc("grpc_server_msg_sent_total", "SolveStream", "server_stream")), responses);
  EXPECT_EQ(moved(Grpc("grpc_server_handled_total", "ValidateStream", "client_stream", "OK")), 1);
  EXPECT_EQ(moved(Grpc("grpc_server_msg_received_total", "ValidateStream", "client_stream")), 2);
  EXPECT_EQ(moved(Grpc("grpc_server_msg_sent_total", "ValidateStream", "client_stream")), 1);
}

// The standard services' calls are counted as ours are.
TEST_F(MetricsTest, HealthChecksAreCountedToo) {
  const Samples before = ScrapeSettled(*server_);
  const RawResult health =
      RawCall(grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()),
              kHealthCheck, Encode(kHealthCheckRequestService, ""));
  ASSERT_TRUE(health.status.ok()) << health.status.error_message();
  const Samples after = ScrapeSettled(*server_);
  const std::string handled =
      Grpc("grpc_server_handled_total", "Check", "unary", "OK", "grpc.health.v1.Health");
  EXPECT_EQ(ValueOf(after, handled) - ValueOf(before, handled), 1);
}

TEST_F(MetricsTest, BuildInfoNamesTheVersionAndRevision) {
  const Samples samples = ScrapeSettled(*server_);
  int build_infos = 0;
  for (const auto& [series, value] : samples) {
    if (!absl::StartsWith(series, "nqueens_build_info{")) continue;
    ++build_infos;
    EXPECT_EQ(value, 1);
    EXPECT_THAT(series, ::testing::HasSubstr(R"(version="1.)"));
    EXPECT_THAT(series, ::testing::Not(::testing::HasSubstr(R"(revision="unknown")")));
  }
  EXPECT_EQ(build_infos, 1);
}

TEST(BuildInfoTest, ParsesTheVersionLine) {
  const server::BuildInfo build =
      server::ParseVersionLine("nqueens-server 1.2.3 (git 0123abc-dirty, Release build)");
  EXPECT_EQ(build.version, "1.2.3");
  EXPECT_EQ(build.revision, "0123abc-dirty");
  const server::BuildInfo none = server::ParseVersionLine("");
  EXPECT_EQ(none.version, "unknown");
  EXPECT_EQ(none.revision, "unknown");
}

// A fresh server (empty histograms, no call yet) and a used one.
TEST_F(MetricsTest, NoValueOfOursIsNaN) {
  std::unique_ptr<server::Server> fresh = StartServerWithMetrics({});
  ASSERT_NE(fresh, nullptr);
  for (const int port : {fresh->metrics_port(), server_->metrics_port()}) {
    const absl::StatusOr<std::string> page = HttpGet(port, "/metrics");
    ASSERT_TRUE(page.ok()) << page.status();
    for (const absl::string_view line : absl::StrSplit(*page, '\n')) {
      EXPECT_FALSE(absl::StrContains(absl::AsciiStrToLower(line), "nan")) << line;
    }
  }
}

TEST_F(MetricsTest, GaugesShowTheIdleServer) {
  const Samples samples = ScrapeSettled(*server_);
  EXPECT_EQ(ValueOf(samples, "nqueens_memory_budget_bytes"), kBudget);
  // The workers' fixed part stays reserved.
  EXPECT_EQ(ValueOf(samples, "nqueens_memory_reserved_bytes"), server_->memory_budget().in_use());
  EXPECT_GT(ValueOf(samples, "nqueens_memory_reserved_bytes"), 0);
  EXPECT_EQ(samples.count("nqueens_calls_in_flight"), 1u);
  EXPECT_EQ(ValueOf(samples, "nqueens_calls_in_flight"), 0);
  EXPECT_EQ(samples.count("nqueens_calls_queued"), 1u);
  EXPECT_EQ(ValueOf(samples, "nqueens_calls_queued"), 0);
}

TEST_F(MetricsTest, ProcessMetricsAreThere) {
  const Samples samples = ScrapeSettled(*server_);
  ASSERT_EQ(samples.count("process_cpu_seconds_total"), 1u);
  EXPECT_GE(ValueOf(samples, "process_cpu_seconds_total"), 0);
  EXPECT_GT(ValueOf(samples, "process_resident_memory_bytes"), 1 << 20);
  EXPECT_GE(ValueOf(samples, "process_virtual_memory_bytes"),
            ValueOf(samples, "process_resident_memory_bytes"));
  const double now = absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch());
  EXPECT_LE(ValueOf(samples, "process_start_time_seconds"), now + 1);
  EXPECT_GT(ValueOf(samples, "process_start_time_seconds"), now - 24 * 3600);
  EXPECT_GT(ValueOf(samples, "process_open_fds"), 0);
  EXPECT_GE(ValueOf(samples, "process_max_fds"), ValueOf(samples, "process_open_fds"));
}

TEST_F(MetricsTest, OnlyMetricsIsServed) {
  const absl::StatusOr<std::string> other = HttpGet(server_->metrics_port(), "/other");
  EXPECT_FALSE(other.ok());
}

TEST_F(MetricsTest, ATakenAddressIsAnError) {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0"};
  options.metrics_listen = server_->metrics_address();
  const absl::StatusOr<std::unique_ptr<server::Server>> second = server::Server::Start(options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
  // One line that names the address, not the web server's internals.
  EXPECT_EQ(second.status().message(),
            absl::StrCat("cannot serve metrics on ", server_->metrics_address(),
                         " (--metrics-listen): Address already in use"));
}

TEST(MetricsEndpointTest, AnAddressNotOfThisMachineIsNamed) {
  const auto started = server::MetricsEndpoint::Start("192.0.2.1:0", {});
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(
      started.status().message(),
      "cannot serve metrics on 192.0.2.1:0 (--metrics-listen): Cannot assign requested address");
}

TEST(MetricsEndpointTest, IsOffByDefault) {
  EXPECT_EQ(server::ServerOptions().metrics_listen, "");
  std::unique_ptr<server::Server> server = StartLoopbackServer({});
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(server->metrics_port(), 0);
  EXPECT_EQ(server->metrics_address(), "");
}

// One worker computing a long call and one large call queued behind it.
TEST(MetricsEndpointTest, GaugesFollowCallsInFlightAndQueued) {
  server::ServiceOptions service;
  service.workers = 1;
  service.max_n = kLongN;
  std::unique_ptr<server::Server> server = StartServerWithMetrics(service);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(*server);
  BackgroundSolve running(*stub, kLongN);
  ASSERT_TRUE(server->pool().AwaitLoad(1, 0, absl::Now() + kPatience));
  BackgroundSolve queued(*stub, 1'000'000);
  ASSERT_TRUE(server->pool().AwaitLoad(1, 1, absl::Now() + kPatience));

  const absl::StatusOr<Samples> loaded = Scrape(server->metrics_port());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(ValueOf(*loaded, "nqueens_calls_in_flight"), 2);
  EXPECT_EQ(ValueOf(*loaded, "nqueens_calls_queued"), 1);
  EXPECT_EQ(ValueOf(*loaded, "nqueens_memory_reserved_bytes"), server->memory_budget().in_use());

  queued.Cancel();
  running.Cancel();
  EXPECT_EQ(queued.Wait().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(running.Wait().error_code(), grpc::StatusCode::CANCELLED);
  const Samples idle = ScrapeSettled(*server);
  EXPECT_EQ(ValueOf(idle, "nqueens_calls_in_flight"), 0);
  EXPECT_EQ(ValueOf(idle, "nqueens_calls_queued"), 0);
  EXPECT_EQ(ValueOf(idle, Grpc("grpc_server_handled_total", "Solve", "unary", "Canceled")), 2);
}

// An endpoint of its own, serving an empty registry.
struct BareEndpoint {
  BareEndpoint() {
    absl::StatusOr<std::unique_ptr<server::MetricsEndpoint>> started =
        server::MetricsEndpoint::Start("127.0.0.1:0", {registry});
    EXPECT_TRUE(started.ok()) << started.status();
    if (started.ok()) endpoint = *std::move(started);
  }
  int port() const { return endpoint->port(); }

  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  std::unique_ptr<server::MetricsEndpoint> endpoint;
};

// Connections that send nothing, or half a request, each hold one of the web
// server's threads (metrics_endpoint.h). `count` of them, alternately.
std::vector<std::unique_ptr<StalledConnection>> StallConnections(int port, int count) {
  std::vector<std::unique_ptr<StalledConnection>> stalled;
  for (int i = 0; i < count; ++i) {
    stalled.push_back(std::make_unique<StalledConnection>(
        port, i % 2 == 0 ? "" : "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
    EXPECT_TRUE(stalled.back()->connected()) << i;
  }
  return stalled;
}

TEST(MetricsEndpointTest, ScrapesAtOnceWhileStalledConnectionsHoldMostThreads) {
  BareEndpoint metrics;
  ASSERT_NE(metrics.endpoint, nullptr);
  const auto stalled = StallConnections(metrics.port(), server::kMetricsThreads - 2);
  const absl::StatusOr<std::string> body =
      HttpGet(metrics.port(), "/metrics", /*patience=*/absl::Seconds(2));
  EXPECT_TRUE(body.ok()) << body.status();
}

// More stalled connections than threads: each is dropped at the request
// timeout, and the scrape waiting behind them is answered then.
TEST(MetricsEndpointTest, ScrapesWithinTheRequestTimeoutWhileAllThreadsAreHeld) {
  BareEndpoint metrics;
  ASSERT_NE(metrics.endpoint, nullptr);
  const auto stalled = StallConnections(metrics.port(), server::kMetricsThreads + 8);
  const absl::Duration patience = server::kMetricsRequestTimeout + absl::Seconds(3);
  const absl::StatusOr<std::string> body = HttpGet(metrics.port(), "/metrics", patience);
  EXPECT_TRUE(body.ok()) << body.status();
  EXPECT_TRUE(stalled.front()->AwaitClosedByServer(patience));
}

TEST(ProcStatTest, ReadsTheFieldsAfterTheCommandName) {
  // The command name may hold spaces and parentheses.
  const std::optional<server::ProcStat> stat = server::ParseProcStat(
      "42 (a b) c) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 12345 678901 234 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n");
  ASSERT_TRUE(stat.has_value());
  EXPECT_EQ(stat->cpu_ticks, 300u);
  EXPECT_EQ(stat->start_ticks, 12345u);
  EXPECT_EQ(stat->virtual_bytes, 678901u);
  EXPECT_EQ(stat->resident_pages, 234u);
  EXPECT_FALSE(server::ParseProcStat("42 (short) S 1 2 3").has_value());
  EXPECT_FALSE(server::ParseProcStat("").has_value());
}

}  // namespace
}  // namespace nqueens::testing
