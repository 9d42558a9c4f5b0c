// TLS, bearer tokens, the health port and the per-client limit, against real
// servers on 127.0.0.1 over real channels (TLS ones where TLS is tested),
// with certificates made by openssl for each test (test_certificates.h), and
// what the server logs of them.
#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metrics_scrape.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/observability/logging.h"
#include "spdlog/sinks/ringbuffer_sink.h"
#include "spdlog/spdlog.h"
#include "test_certificates.h"
#include "test_constants.h"
#include "test_server.h"

namespace nqueens::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Bounds of the loops that wait for something the server does on its own
// (reading changed files, ending a cancelled call): each attempt is a call
// or a handshake, and the waits between attempts are short.
constexpr int kMaxAttempts = 200;
constexpr absl::Duration kBetweenAttempts = absl::Milliseconds(100);

std::unique_ptr<server::Server> StartTwoWorkerServer(server::ServerOptions options) {
  options.service.workers = 2;
  return StartLoopbackServer(std::move(options));
}

server::ServerOptions ServingTls(const KeyPair& identity, const std::string& client_ca = "") {
  server::ServerOptions options;
  options.tls.cert_file = identity.cert_file;
  options.tls.key_file = identity.key_file;
  options.tls.client_ca_file = client_ca;
  return options;
}

// A channel to `server` by the name "localhost", with a handshake of its own:
// no subchannel is shared with an earlier channel.
std::shared_ptr<grpc::Channel> Connect(
    const server::Server& server, const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(absl::StrCat("localhost:", server.port()), credentials,
                                   arguments);
}

std::shared_ptr<grpc::ChannelCredentials> Trusting(const TestCertificateAuthority& ca,
                                                   const KeyPair* client = nullptr) {
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = ReadTextFile(ca.ca_file());
  if (client != nullptr) {
    options.pem_cert_chain = ReadTextFile(client->cert_file);
    options.pem_private_key = ReadTextFile(client->key_file);
  }
  return grpc::SslCredentials(options);
}

std::shared_ptr<grpc::Channel> Plaintext(const server::Server& server) {
  return Connect(server, grpc::InsecureChannelCredentials());
}

struct SolveResult {
  grpc::Status status;
  std::string server_common_name;  // of the certificate the server showed
};

// Solve(8) with `token` as a bearer token, unless empty.
SolveResult Solve8(const std::shared_ptr<grpc::Channel>& channel, const std::string& token = "") {
  auto stub = v1::NQueensService::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kPatience));
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  v1::SolveRequest request;
  request.set_n(8);
  v1::SolveResponse response;
  SolveResult result;
  result.status = stub->Solve(&context, request, &response);
  if (result.status.ok()) {
    EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
    for (const grpc::string_ref& name :
         context.auth_context()->FindPropertyValues("x509_common_name")) {
      result.server_common_name.assign(name.data(), name.size());
    }
  }
  return result;
}

// Tries `attempt` until it returns true, at most kMaxAttempts times within
// kPatience.
template <typename Attempt>
bool Eventually(Attempt attempt) {
  const absl::Time give_up = absl::Now() + kPatience;
  for (int i = 0; i < kMaxAttempts && absl::Now() < give_up; ++i) {
    if (attempt()) return true;
    absl::SleepFor(kBetweenAttempts);
  }
  return false;
}

// A file in the test's temporary directory, named after the test.
std::string WriteTempFile(const std::string& suffix, const std::string& content) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path =
      absl::StrCat(::testing::TempDir(), test->test_suite_name(), ".", test->name(), suffix);
  ReplaceFile(path, content);
  return path;
}

// What spdlog's default logger writes while this lives, as "LEVEL MESSAGE"
// lines: the server's lines, its calls' (no LogToStderr in these tests) and
// gRPC's (RouteGrpcLog). Make it before the server, so that it outlives it.
class CapturedLog {
 public:
  CapturedLog()
      : previous_(spdlog::default_logger()),
        sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(1000)) {
    sink_->set_pattern("%l %v");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", sink_));
    server::RouteGrpcLog();
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;

  // The lines so far that contain `needle`.
  std::vector<std::string> LinesWith(const std::string& needle) const {
    std::vector<std::string> lines;
    for (const std::string& formatted : sink_->last_formatted()) {
      const absl::string_view line = absl::StripSuffix(formatted, "\n");
      if (absl::StrContains(line, needle)) lines.emplace_back(line);
    }
    return lines;
  }
  // Once a line with `needle` is there, and a moment later: those lines.
  std::vector<std::string> SettledLinesWith(const std::string& needle) const;

 private:
  const std::shared_ptr<spdlog::logger> previous_;
  const std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
};

std::vector<std::string> CapturedLog::SettledLinesWith(const std::string& needle) const {
  EXPECT_TRUE(Eventually([&] { return !LinesWith(needle).empty(); })) << needle;
  absl::SleepFor(absl::Milliseconds(300));
  return LinesWith(needle);
}

class TlsTest : public ::testing::Test {
 protected:
  TestCertificateAuthority ca_{"nqueens-test-ca"};
  const KeyPair server_identity_ = ca_.Issue("server-1");
};

TEST_F(TlsTest, ServesAClientThatTrustsItsCa) {
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(ServingTls(server_identity_));
  ASSERT_NE(server, nullptr);
  const SolveResult result = Solve8(Connect(*server, Trusting(ca_)));
  ASSERT_TRUE(result.status.ok()) << result.status.error_message();
  EXPECT_EQ(result.server_common_name, "server-1");
}

TEST_F(TlsTest, APlaintextClientFails) {
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(ServingTls(server_identity_));
  ASSERT_NE(server, nullptr);
  const SolveResult result = Solve8(Plaintext(*server));
  EXPECT_EQ(result.status.error_code(), grpc::StatusCode::UNAVAILABLE)
      << result.status.error_message();
}

// The client's doing, reported once at warn, without gRPC's source paths. (A
// plaintext client: one that distrusts the CA would log its own side of the
// handshake in this process too.)
TEST_F(TlsTest, AFailedHandshakeIsLoggedOnceAtWarn) {
  CapturedLog log;
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(ServingTls(server_identity_));
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(Solve8(Plaintext(*server)).status.error_code(), grpc::StatusCode::UNAVAILABLE);
  const std::vector<std::string> lines = log.SettledLinesWith("andshake");
  ASSERT_EQ(lines.size(), 1u) << absl::StrJoin(lines, "\n");
  EXPECT_THAT(lines[0], ::testing::StartsWith("warning TLS handshake with a client failed: "));
  EXPECT_THAT(lines[0], Not(HasSubstr(".cc")));
  EXPECT_THAT(lines[0], Not(HasSubstr("\n")));
}

TEST_F(TlsTest, AClientThatDoesNotTrustTheCaFails) {
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(ServingTls(server_identity_));
  ASSERT_NE(server, nullptr);
  TestCertificateAuthority other_ca("other-ca");
  const SolveResult result = Solve8(Connect(*server, Trusting(other_ca)));
  ExpectStatus(result.status, grpc::StatusCode::UNAVAILABLE, "certificate verify failed");
}

TEST_F(TlsTest, ACertificateForAnotherHostNameFails) {
  const KeyPair elsewhere = ca_.Issue("elsewhere", "DNS:elsewhere.example");
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(ServingTls(elsewhere));
  ASSERT_NE(server, nullptr);
  const SolveResult result = Solve8(Connect(*server, Trusting(ca_)));
  ExpectStatus(result.status, grpc::StatusCode::UNAVAILABLE,
               "Peer name localhost is not in peer certificate");
}

TEST_F(TlsTest, MutualTlsRequiresAClientCertificateOfItsCa) {
  TestCertificateAuthority client_ca("client-ca");
  std::unique_ptr<server::Server> server =
      StartTwoWorkerServer(ServingTls(server_identity_, client_ca.ca_file()));
  ASSERT_NE(server, nullptr);

  EXPECT_EQ(Solve8(Connect(*server, Trusting(ca_))).status.error_code(),
            grpc::StatusCode::UNAVAILABLE);
  const KeyPair stranger = ca_.Issue("stranger");  // signed by the server's CA, not the clients'
  EXPECT_EQ(Solve8(Connect(*server, Trusting(ca_, &stranger))).status.error_code(),
            grpc::StatusCode::UNAVAILABLE);
  const KeyPair client = client_ca.Issue("client");
  const SolveResult result = Solve8(Connect(*server, Trusting(ca_, &client)));
  EXPECT_TRUE(result.status.ok()) << result.status.error_message();
}

TEST_F(TlsTest, ARenewedCertificateIsServedWithoutRestart) {
  server::ServerOptions options = ServingTls(server_identity_);
  options.tls.refresh_interval = absl::Seconds(1);
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  ASSERT_EQ(Solve8(Connect(*server, Trusting(ca_))).server_common_name, "server-1");

  const KeyPair renewed = ca_.Issue("server-2");
  ReplaceFile(server_identity_.key_file, ReadTextFile(renewed.key_file));
  ReplaceFile(server_identity_.cert_file, ReadTextFile(renewed.cert_file));
  // Each attempt is a new handshake; one that fell between the two renames
  // may fail.
  EXPECT_TRUE(Eventually(
      [&] { return Solve8(Connect(*server, Trusting(ca_))).server_common_name == "server-2"; }));
}

TEST_F(TlsTest, BadFilesAreRefusedNamingTheFlagAndFile) {
  const KeyPair other = ca_.Issue("other");
  const std::string missing = ca_.directory() + "/missing.pem";
  struct Case {
    server::ServerOptions options;
    std::string expected;
  };
  std::vector<Case> cases;
  cases.push_back({ServingTls({"", server_identity_.key_file}), "--tls-key needs --tls-cert"});
  cases.push_back({ServingTls({server_identity_.cert_file, ""}), "--tls-cert needs --tls-key"});
  cases.push_back({ServingTls({missing, server_identity_.key_file}),
                   "--tls-cert " + missing + ": No such file or directory"});
  cases.push_back(
      {ServingTls({server_identity_.key_file, server_identity_.key_file}), "no PEM certificate"});
  cases.push_back({ServingTls({server_identity_.cert_file, other.key_file}),
                   "--tls-key " + other.key_file + ": not the key of the certificate"});
  cases.push_back({ServingTls(server_identity_, missing), "--tls-client-ca " + missing});
  cases.push_back({ServingTls({"", ""}, ca_.ca_file()), "--tls-client-ca needs --tls-cert"});
  server::ServerOptions no_token_file;
  no_token_file.auth_token_file = missing;
  cases.push_back({no_token_file, "--auth-token-file " + missing});
  server::ServerOptions empty_token_file;
  empty_token_file.auth_token_file = WriteTempFile(".tokens", "\n  \n");
  cases.push_back({empty_token_file, "holds no token"});

  for (Case& bad : cases) {
    bad.options.listen_addresses = {"127.0.0.1:0"};
    absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(bad.options);
    ASSERT_FALSE(server.ok()) << bad.expected;
    EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(server.status().message(), HasSubstr(bad.expected));
  }
}

class TokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    token_file_ = WriteTempFile(".tokens", "  alpha-token-1 \n\n\tbeta-token-2\n");
    server::ServerOptions options;
    options.auth_token_file = token_file_;
    server_ = StartTwoWorkerServer(options);
    ASSERT_NE(server_, nullptr);
    channel_ = Plaintext(*server_);
  }

  std::string token_file_;
  std::unique_ptr<server::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

TEST_F(TokenTest, ACallWithoutATokenIsUnauthenticated) {
  ExpectStatus(Solve8(channel_).status, grpc::StatusCode::UNAUTHENTICATED, "missing bearer token");
}

TEST_F(TokenTest, AWrongTokenIsRefusedAndNotEchoed) {
  const grpc::Status status = Solve8(channel_, "alpha-token-").status;
  ExpectStatus(status, grpc::StatusCode::UNAUTHENTICATED, "bearer token refused");
  EXPECT_THAT(status.error_message(), Not(HasSubstr("alpha-token-")));
}

TEST_F(TokenTest, EveryTokenOfTheFileIsAccepted) {
  for (const std::string token : {"alpha-token-1", "beta-token-2"}) {
    const grpc::Status status = Solve8(channel_, token).status;
    EXPECT_TRUE(status.ok()) << token << ": " << status.error_message();
  }
}

TEST_F(TokenTest, HealthChecksNeedNoToken) {
  const RawResult result = RawCall(channel_, kHealthCheck, Encode(kHealthCheckRequestService, ""));
  EXPECT_TRUE(result.status.ok()) << result.status.error_message();
  EXPECT_EQ(result.responses.size(), 1u);
}

TEST_F(TokenTest, ReflectionNeedsAToken) {
  const std::string list_services = Encode(kReflectionRequestListServices, "*");
  const RawResult refused = RawCall(channel_, kReflectionInfo, list_services);
  ExpectStatus(refused.status, grpc::StatusCode::UNAUTHENTICATED, "missing bearer token");
  EXPECT_TRUE(refused.responses.empty());
  const RawResult wrong = RawCall(channel_, kReflectionInfo, list_services, "gamma");
  ExpectStatus(wrong.status, grpc::StatusCode::UNAUTHENTICATED, "bearer token refused");
  EXPECT_TRUE(wrong.responses.empty());

  const RawResult listed = RawCall(channel_, kReflectionInfo, list_services, "beta-token-2");
  EXPECT_TRUE(listed.status.ok()) << listed.status.error_message();
  EXPECT_EQ(listed.responses.size(), 1u);
}

TEST_F(TokenTest, AChangedTokenFileIsReadAgain) {
  ASSERT_EQ(Solve8(channel_, "gamma-token-3").status.error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ReplaceFile(token_file_, "gamma-token-3\n");
  EXPECT_TRUE(Eventually([&] { return Solve8(channel_, "gamma-token-3").status.ok(); }));
  ExpectStatus(Solve8(channel_, "alpha-token-1").status, grpc::StatusCode::UNAUTHENTICATED,
               "bearer token refused");
}

TEST(TokenOverTlsTest, AGoodTokenWorksAndAMissingOneIsRefused) {
  TestCertificateAuthority ca("nqueens-test-ca");
  server::ServerOptions options = ServingTls(ca.Issue("server-1"));
  options.auth_token_file = WriteTempFile(".tokens", "tls-token\n");
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  const std::shared_ptr<grpc::Channel> channel = Connect(*server, Trusting(ca));
  EXPECT_EQ(Solve8(channel).status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  const grpc::Status status = Solve8(channel, "tls-token").status;
  EXPECT_TRUE(status.ok()) << status.error_message();
}

// The plaintext health port of a TLS server answers health checks, refuses
// everything else, and leaves the TLS port as it was.
TEST(HealthPortTest, ServesHealthChecksOnlyInPlaintext) {
  TestCertificateAuthority ca("nqueens-test-ca");
  server::ServerOptions options = ServingTls(ca.Issue("server-1"));
  options.health_listen_addresses = {"127.0.0.1:0"};
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  ASSERT_EQ(server->health_addresses().size(), 1u);
  const std::shared_ptr<grpc::Channel> health_port =
      grpc::CreateChannel(server->health_addresses()[0], grpc::InsecureChannelCredentials());

  const RawResult health =
      RawCall(health_port, kHealthCheck, Encode(kHealthCheckRequestService, ""));
  EXPECT_TRUE(health.status.ok()) << health.status.error_message();
  EXPECT_EQ(health.responses.size(), 1u);
  ExpectStatus(Solve8(health_port).status, grpc::StatusCode::UNIMPLEMENTED,
               "serves grpc.health.v1.Health only");
  const RawResult reflection =
      RawCall(health_port, kReflectionInfo, Encode(kReflectionRequestListServices, "*"));
  ExpectStatus(reflection.status, grpc::StatusCode::UNIMPLEMENTED, "health port");
  EXPECT_TRUE(reflection.responses.empty());

  const grpc::Status over_tls = Solve8(Connect(*server, Trusting(ca))).status;
  EXPECT_TRUE(over_tls.ok()) << over_tls.error_message();
}

// An NQueens call on the health port of a server that wants tokens: the
// client is told UNIMPLEMENTED, and the log, the counters and the metrics
// say just that, once.
TEST(HealthPortTest, ACallThereIsLoggedAndCountedOnceAsTheClientSawIt) {
  CapturedLog log;
  TestCertificateAuthority ca("nqueens-test-ca");
  server::ServerOptions options = ServingTls(ca.Issue("server-1"));
  options.health_listen_addresses = {"127.0.0.1:0"};
  options.auth_token_file = WriteTempFile(".tokens", "health-port-token\n");
  options.metrics_listen = "127.0.0.1:0";
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  const std::shared_ptr<grpc::Channel> health_port =
      grpc::CreateChannel(server->health_addresses()[0], grpc::InsecureChannelCredentials());
  ExpectStatus(Solve8(health_port).status, grpc::StatusCode::UNIMPLEMENTED,
               "serves grpc.health.v1.Health only");

  const std::vector<std::string> lines = log.SettledLinesWith("Solve");
  ASSERT_EQ(lines.size(), 1u) << absl::StrJoin(lines, "\n");
  EXPECT_THAT(lines[0], HasSubstr("status=UNIMPLEMENTED"));
  EXPECT_EQ(server->counters().calls(absl::StatusCode::kUnimplemented), 1u);
  EXPECT_EQ(server->counters().calls(absl::StatusCode::kUnauthenticated), 0u);
  const absl::StatusOr<Samples> samples = Scrape(server->metrics_port());
  ASSERT_TRUE(samples.ok()) << samples.status();
  const auto handled = [&](const std::string& code) {
    return ValueOf(*samples,
                   absl::StrCat(R"(grpc_server_handled_total{grpc_code=")", code,
                                R"(",grpc_method="Solve",)"
                                R"(grpc_service="nqueens.v1.NQueensService",grpc_type="unary",)"
                                R"(transport="grpc"})"));
  };
  EXPECT_EQ(handled("Unimplemented"), 1);
  EXPECT_EQ(handled("Unauthenticated"), 0);
  // Reflection there, refused by the health port's gate (and needing a
  // token too): the same, once.
  const RawResult reflection =
      RawCall(health_port, kReflectionInfo, Encode(kReflectionRequestListServices, "*"));
  ExpectStatus(reflection.status, grpc::StatusCode::UNIMPLEMENTED, "health port");
  const std::vector<std::string> refused = log.SettledLinesWith("ServerReflectionInfo");
  ASSERT_EQ(refused.size(), 1u) << absl::StrJoin(refused, "\n");
  EXPECT_THAT(refused[0], HasSubstr("status=UNIMPLEMENTED"));
  const absl::StatusOr<Samples> later = Scrape(server->metrics_port());
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_EQ(ValueOf(*later, R"(grpc_server_handled_total{grpc_code="Unimplemented",)"
                            R"(grpc_method="ServerReflectionInfo",)"
                            R"(grpc_service="grpc.reflection.v1alpha.ServerReflection",)"
                            R"(grpc_type="bidi_stream",transport="grpc"})"),
            1);
}

TEST(HealthPortTest, NeedsTls) {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0"};
  options.health_listen_addresses = {"127.0.0.1:0"};
  const absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(options);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(server.status().message()), HasSubstr("--health-listen"));
}

// A CompleteStream whose header is sent and whose board never comes: a call
// in flight that holds no worker, until it is cancelled.
class OpenStream {
 public:
  OpenStream(v1::NQueensService::Stub& stub, const std::string& token) {
    if (!token.empty()) context_.AddMetadata("authorization", "Bearer " + token);
    stream_ = stub.CompleteStream(&context_);
    v1::CompleteStreamRequest header;
    header.mutable_header()->set_n(1000);
    EXPECT_TRUE(stream_->Write(header));
  }
  ~OpenStream() {
    context_.TryCancel();
    stream_->Finish().IgnoreError();
  }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::CompleteStreamRequest, v1::CompleteStreamResponse>>
      stream_;
};

bool RefusedByTheClientLimit(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
         status.error_message().find("(--max-calls-per-client)") != std::string::npos;
}

TEST(ClientLimitTest, ASequentialClientIsNeverRefusedAtALimitOfOne) {
  server::ServerOptions options;
  options.service.max_calls_per_client = 1;
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  const std::shared_ptr<grpc::Channel> channel = Plaintext(*server);
  for (int call = 0; call < 50; ++call) {
    const grpc::Status status = Solve8(channel).status;
    ASSERT_TRUE(status.ok()) << "call " << call << ": " << status.error_message();
  }
}

TEST(ClientLimitTest, CallsBeyondTheLimitAreRefusedUntilOneEnds) {
  server::ServerOptions options;
  options.service.max_calls_per_client = 2;
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  const std::shared_ptr<grpc::Channel> channel = Plaintext(*server);
  auto stub = v1::NQueensService::NewStub(channel);
  auto first = std::make_unique<OpenStream>(*stub, "");
  OpenStream second(*stub, "");
  // Both streams in flight before a third call is sent: a call sent earlier
  // could overtake the second stream and take its slot.
  ASSERT_TRUE(Eventually([&] { return server->in_flight().running() == 2; }));
  EXPECT_TRUE(RefusedByTheClientLimit(Solve8(channel).status));
  EXPECT_GE(server->counters().refusals("--max-calls-per-client"), 1u);

  // A second connection from the same address is the same client.
  EXPECT_TRUE(RefusedByTheClientLimit(Solve8(Plaintext(*server)).status));

  first.reset();  // cancelled: its slot is freed when the server has ended it
  EXPECT_TRUE(Eventually([&] { return Solve8(channel).status.ok(); }));
}

TEST(ClientLimitTest, EachTokenIsAClientOfItsOwn) {
  server::ServerOptions options;
  options.service.max_calls_per_client = 1;
  options.auth_token_file = WriteTempFile(".tokens", "alpha\nbeta\n");
  std::unique_ptr<server::Server> server = StartTwoWorkerServer(options);
  ASSERT_NE(server, nullptr);
  const std::shared_ptr<grpc::Channel> channel = Plaintext(*server);
  auto stub = v1::NQueensService::NewStub(channel);
  OpenStream alpha(*stub, "alpha");
  ASSERT_TRUE(Eventually([&] { return server->in_flight().running() == 1; }));
  EXPECT_TRUE(RefusedByTheClientLimit(Solve8(channel, "alpha").status));
  const grpc::Status beta = Solve8(channel, "beta").status;
  EXPECT_TRUE(beta.ok()) << beta.error_message();
}

}  // namespace
}  // namespace nqueens::testing
