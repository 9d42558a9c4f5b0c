// One client channel over three servers, as inside a cluster behind the
// headless Service: the CLI's channel (client/backends/channel.h) spreads the
// calls over every server its target names, and a server that stops loses
// none of the calls it had not begun (the client retries them elsewhere).
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "client/backends/backend.h"
#include "client/backends/channel.h"
#include "gtest/gtest.h"
#include "metrics_scrape.h"
#include "nqueens/validate.h"
#include "server/server.h"

namespace nqueens::testing {
namespace {

constexpr int kServers = 3;
constexpr int kCalls = 300;
constexpr uint32_t kScaleOutN = 1000;

std::unique_ptr<server::Server> StartScaleOutServer() {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0"};
  options.service.workers = 1;
  options.grace = absl::Seconds(30);
  options.metrics_listen = "127.0.0.1:0";
  absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
  EXPECT_TRUE(started.ok()) << started.status();
  return started.ok() ? *std::move(started) : nullptr;
}

class ScaleOutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> addresses;
    for (int i = 0; i < kServers; ++i) {
      servers_.push_back(StartScaleOutServer());
      ASSERT_NE(servers_.back(), nullptr);
      addresses.push_back(servers_.back()->address());
    }
    // One target that names all three, as a dns:/// name of a headless
    // Service resolves to every pod.
    const std::string target = absl::StrCat("ipv4:", absl::StrJoin(addresses, ","));
    backend_ = client::MakeRemoteBackend(
        client::MakeChannel(target, grpc::InsecureChannelCredentials()), target);
  }

  // A RANDOM Solve of kScaleOutN rows, its board checked with Validate.
  absl::Status SolveOnce() {
    absl::StatusOr<CompletionResult> result =
        backend_->Solve(kScaleOutN, SolveMethod::kRandom, client::RunOptions{});
    if (!result.ok()) return result.status();
    absl::StatusOr<ValidationReport> report = Validate(result->columns);
    if (!report.ok() || !report->complete) return absl::InternalError("not a solution");
    return absl::OkStatus();
  }

  // The server's own count of the Solves it answered OK, from its metrics.
  uint64_t ServedBy(int server) const {
    const absl::StatusOr<Samples> samples = Scrape(servers_[server]->metrics_port());
    EXPECT_TRUE(samples.ok()) << samples.status();
    return static_cast<uint64_t>(ValueOf(
        samples.value_or(Samples{}),
        R"(grpc_server_handled_total{grpc_code="OK",grpc_method="Solve",grpc_service="nqueens.v1.NQueensService",grpc_type="unary",transport="grpc"})"));
  }

  std::vector<std::unique_ptr<server::Server>> servers_;
  std::unique_ptr<client::Backend> backend_;
};

TEST_F(ScaleOutTest, EveryServerServesAShareOfTheCalls) {
  for (int i = 0; i < kCalls; ++i) ASSERT_TRUE(SolveOnce().ok()) << "call " << i;
  uint64_t served = 0;
  for (int server = 0; server < kServers; ++server) {
    SCOPED_TRACE(server);
    EXPECT_GE(ServedBy(server), kCalls * 20 / 100);
    EXPECT_LE(ServedBy(server), kCalls * 47 / 100);
    served += ServedBy(server);
  }
  EXPECT_EQ(served, static_cast<uint64_t>(kCalls));
}

// Four clients share the channel; once a third of the calls are done, one
// server shuts down (draining what it runs). Every call still succeeds.
TEST_F(ScaleOutTest, AServerThatStopsLosesNoCall) {
  constexpr int kClients = 4;
  std::atomic<int> done{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> clients;
  clients.reserve(kClients);
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&] {
      for (int i = 0; i < kCalls / kClients; ++i) {
        const absl::Status status = SolveOnce();
        if (!status.ok()) {
          ADD_FAILURE() << status;
          ++failed;
        }
        ++done;
      }
    });
  }
  // The clients' own progress, not a timer, decides when the server stops;
  // bounded by the clients, which end after kCalls calls in all.
  while (done.load() < kCalls / 3 && failed.load() == 0) std::this_thread::yield();
  servers_[1]->Shutdown();
  for (std::thread& client : clients) client.join();
  EXPECT_EQ(failed.load(), 0);
  // The stopped server's metrics endpoint has stopped too: its own counts.
  const uint64_t served_by_stopped = servers_[1]->counters().calls(absl::StatusCode::kOk);
  EXPECT_GT(served_by_stopped, 0u);
  EXPECT_EQ(ServedBy(0) + served_by_stopped + ServedBy(2), static_cast<uint64_t>(kCalls));
}

}  // namespace
}  // namespace nqueens::testing
