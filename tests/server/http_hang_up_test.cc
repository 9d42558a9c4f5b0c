// HTTP clients that hang up while their call runs or while its answer
// streams, dozens of times and at different points: each must cancel its
// call and free the request (ForwardedCall, the gateway's Exchange), and the
// server must go on answering. Run under ASan too, where a use after free
// is reported even when it does not crash. The client is a bare socket, so
// that the test decides exactly when the connection goes.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "server/server.h"

namespace nqueens::testing {
namespace {

constexpr absl::Duration kWaitAtMost = absl::Seconds(30);

// A connection to the HTTP port; closed when it goes.
class HttpConnection {
 public:
  explicit HttpConnection(int port) : socket_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(socket_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  }
  ~HttpConnection() { ::close(socket_); }
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Sends POST `path` with `body` (and `headers`, each ending in \r\n).
  bool Post(const std::string& path, const std::string& body, const std::string& headers = "") {
    return Send(absl::StrCat(
        "POST ", path, " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ", body.size(),
        "\r\nContent-Type: application/json\r\n", headers, "Connection: close\r\n\r\n", body));
  }

  bool Send(const std::string& bytes) {
    return connected_ && ::send(socket_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
                             static_cast<ssize_t>(bytes.size());
  }

  // Reads until `bytes` have come or the server closed; what came.
  std::string Read(size_t bytes = SIZE_MAX) {
    std::string received;
    char buffer[4096];
    while (received.size() < bytes) {
      const ssize_t got = ::recv(socket_, buffer, sizeof(buffer), 0);
      if (got <= 0) break;
      received.append(buffer, static_cast<size_t>(got));
    }
    return received;
  }

 private:
  const int socket_;
  bool connected_ = false;
};

class HttpHangUpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server::ServerOptions options;
    options.listen_addresses = {"127.0.0.1:0"};
    options.http_listen = "127.0.0.1:0";
    options.service.workers = 2;
    options.grace = absl::Seconds(1);
    absl::StatusOr<std::unique_ptr<server::Server>> started = server::Server::Start(options);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
    port_ = std::stoi(server_->http_address().substr(server_->http_address().rfind(':') + 1));
  }
  static void TearDownTestSuite() { server_.reset(); }

  // Waits until `calls` calls are in flight.
  static bool AwaitRunning(int calls) {
    const absl::Time deadline = absl::Now() + kWaitAtMost;
    while (server_->in_flight().running() < calls) {
      if (absl::Now() > deadline) return false;
      absl::SleepFor(absl::Milliseconds(1));  // polling a gauge, bounded above
    }
    return true;
  }

  static void ExpectStillAnswering() {
    ASSERT_TRUE(server_->in_flight().AwaitIdle(absl::Now() + kWaitAtMost))
        << server_->in_flight().running() << " calls left running";
    HttpConnection connection(port_);
    ASSERT_TRUE(connection.Post("/v1/count", R"({"n": 8})"));
    const std::string answer = connection.Read();
    EXPECT_TRUE(absl::StartsWith(answer, "HTTP/1.1 200")) << answer;
    EXPECT_TRUE(absl::StrContains(answer, R"("solutions":"92")")) << answer;
  }

  static inline std::unique_ptr<server::Server> server_;
  static inline int port_ = 0;
};

TEST_F(HttpHangUpTest, ClientsThatHangUpDuringTheCallCancelIt) {
  constexpr int kClients = 20;
  for (int client = 0; client < kClients; ++client) {
    {
      HttpConnection connection(port_);
      // Minutes of work: only the hang-up ends it.
      ASSERT_TRUE(connection.Post("/v1/count", R"({"n": 20})"));
      ASSERT_TRUE(AwaitRunning(1)) << "client " << client;
    }
    ASSERT_TRUE(server_->in_flight().AwaitIdle(absl::Now() + kWaitAtMost))
        << "client " << client << ": its call went on after it hung up";
  }
  ExpectStillAnswering();
}

TEST_F(HttpHangUpTest, ClientsThatHangUpWhileBoardsStreamCancelTheStream) {
  constexpr int kClients = 20;
  for (int client = 0; client < kClients; ++client) {
    {
      HttpConnection connection(port_);
      // 2,279,184 boards of 15 rows as JSON lines: far more than the client reads.
      ASSERT_TRUE(
          connection.Post("/v1/enumerate", R"({"n": 15})", "Accept: application/x-ndjson\r\n"));
      const std::string head = connection.Read(1000 + 3000 * static_cast<size_t>(client));
      ASSERT_TRUE(absl::StartsWith(head, "HTTP/1.1 200")) << head;
    }
    ASSERT_TRUE(server_->in_flight().AwaitIdle(absl::Now() + kWaitAtMost))
        << "client " << client << ": its stream went on after it hung up";
  }
  ExpectStillAnswering();
}

TEST_F(HttpHangUpTest, ClientsThatHangUpBeforeTheirBodyIsInLeaveNothing) {
  constexpr int kClients = 20;
  const uint64_t reserved_before = server_->memory_budget().in_use();
  for (int client = 0; client < kClients; ++client) {
    HttpConnection connection(port_);
    // The body announced, a part of it sent: the gateway holds its share of
    // the memory budget until the connection goes.
    ASSERT_TRUE(connection.Send(absl::StrCat(
        "POST /v1/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n",
        std::string(static_cast<size_t>(client) * 40, ' '))));
  }
  // Every request freed what it held (the connections' threads end
  // asynchronously: poll, bounded).
  const absl::Time deadline = absl::Now() + kWaitAtMost;
  while (server_->memory_budget().in_use() != reserved_before && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  EXPECT_EQ(server_->memory_budget().in_use(), reserved_before);
  ExpectStillAnswering();
}

}  // namespace
}  // namespace nqueens::testing
