// The CLI against TLS and token-protected nqueens-server subprocesses: what
// works, and that every TLS or token failure is one line on stderr saying
// which, with exit status 3. Certificates are made by openssl for each test.
#include <stdlib.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "server_process.h"
#include "subprocess.h"
#include "test_certificates.h"
#include "test_util.h"

namespace nqueens::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitFailure = 3;

// `nqueens --server 127.0.0.1:PORT ... solve 8` against `server`, by the
// address its certificates are for. Not by "localhost", which resolves to
// ::1 too, where nothing listens: the CLI's round_robin channel may then
// report that refused connection instead of the TLS failure under test.
ProcessResult Solve8(const ServerProcess& server, const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {NQUEENS_CLI_PATH, "--quiet", "--server", server.address()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"solve", "8"});
  return Run(argv);
}

std::string WriteTokenFile(const std::string& name, const std::string& token) {
  const std::string path = TempPath("." + name);
  ReplaceFile(path, token + "\n");
  return path;
}

void ExpectSolved(const ProcessResult& result) {
  EXPECT_EQ(result.exit_code, kExitOk) << result.err;
  EXPECT_FALSE(result.out.empty());
}

void ExpectFailure(const ProcessResult& result, const std::string& part) {
  EXPECT_EQ(result.exit_code, kExitFailure) << result.err;
  ExpectOneErrorLine(result, part);
}

class CliTlsTest : public ::testing::Test {
 protected:
  std::vector<std::string> ServerTlsFlags(const KeyPair& identity) {
    return {"--tls-cert", identity.cert_file, "--tls-key", identity.key_file};
  }

  TestCertificateAuthority ca_{"nqueens-test-ca"};
  const KeyPair server_identity_ = ca_.Issue("server-1");
};

TEST_F(CliTlsTest, SolvesOverTlsWithTheServersCa) {
  ServerProcess server(ServerTlsFlags(server_identity_));
  ASSERT_FALSE(server.address().empty());
  ExpectSolved(Solve8(server, {"--tls-ca", ca_.ca_file()}));
}

TEST_F(CliTlsTest, PlaintextAgainstATlsServerFails) {
  ServerProcess server(ServerTlsFlags(server_identity_));
  ASSERT_FALSE(server.address().empty());
  const ProcessResult result = Solve8(server, {});
  ExpectFailure(result, "if it serves TLS, use --tls or --tls-ca");
  EXPECT_THAT(result.err, HasSubstr("cannot reach server 127.0.0.1:"));
}

TEST_F(CliTlsTest, AnUntrustedCertificateIsNamed) {
  ServerProcess server(ServerTlsFlags(server_identity_));
  ASSERT_FALSE(server.address().empty());
  TestCertificateAuthority other_ca("other-ca");
  const ProcessResult result = Solve8(server, {"--tls-ca", other_ca.ca_file()});
  ExpectFailure(result, "its certificate is not trusted");
  EXPECT_THAT(result.err, HasSubstr("TLS failed with server 127.0.0.1:"));
  // The system's CAs do not know ours either.
  ExpectFailure(Solve8(server, {"--tls"}), "its certificate is not trusted");
}

TEST_F(CliTlsTest, AHostNameMismatchIsNamed) {
  ServerProcess server(ServerTlsFlags(ca_.Issue("elsewhere", "DNS:elsewhere.example")));
  ASSERT_FALSE(server.address().empty());
  ExpectFailure(Solve8(server, {"--tls-ca", ca_.ca_file()}),
                "its certificate is not for that host name");
  ExpectSolved(
      Solve8(server, {"--tls-ca", ca_.ca_file(), "--tls-server-name", "elsewhere.example"}));
}

TEST_F(CliTlsTest, MutualTlsWantsAClientCertificate) {
  TestCertificateAuthority client_ca("client-ca");
  std::vector<std::string> flags = ServerTlsFlags(server_identity_);
  flags.insert(flags.end(), {"--tls-client-ca", client_ca.ca_file()});
  ServerProcess server(flags);
  ASSERT_FALSE(server.address().empty());

  ExpectFailure(Solve8(server, {"--tls-ca", ca_.ca_file()}),
                "it may require a client certificate (--tls-cert and --tls-key)");
  const KeyPair stranger = ca_.Issue("stranger");  // not signed by the clients' CA
  ExpectFailure(Solve8(server, {"--tls-ca", ca_.ca_file(), "--tls-cert", stranger.cert_file,
                                "--tls-key", stranger.key_file}),
                "it may not accept the client certificate");
  const KeyPair client = client_ca.Issue("client");
  ExpectSolved(Solve8(server, {"--tls-ca", ca_.ca_file(), "--tls-cert", client.cert_file,
                               "--tls-key", client.key_file}));
}

TEST_F(CliTlsTest, TlsAgainstAPlaintextServerIsNamed) {
  ServerProcess server;
  ASSERT_FALSE(server.address().empty());
  ExpectFailure(Solve8(server, {"--tls-ca", ca_.ca_file()}), "does not speak TLS");
}

TEST_F(CliTlsTest, BadTlsFlagsAreUsageErrors) {
  ServerProcess server(ServerTlsFlags(server_identity_));
  const ProcessResult half = Solve8(server, {"--tls-cert", server_identity_.cert_file});
  EXPECT_EQ(half.exit_code, kExitUsage);
  ExpectOneErrorLine(half, "--tls-cert needs --tls-key");
  const std::string missing = ca_.directory() + "/missing.pem";
  const ProcessResult unreadable = Solve8(server, {"--tls-ca", missing});
  EXPECT_EQ(unreadable.exit_code, kExitUsage);
  ExpectOneErrorLine(unreadable, "--tls-ca " + missing + ": No such file or directory");
  for (const char* flag : {"--tls-ca", "--tls-cert", "--tls-key"}) {
    std::vector<std::string> flags = {"--tls-cert", server_identity_.cert_file,
                                      "--tls-key",  server_identity_.key_file,
                                      flag,         "/dev/zero"};
    const ProcessResult endless = Solve8(server, flags);
    EXPECT_EQ(endless.exit_code, kExitUsage) << flag;
    ExpectOneErrorLine(endless, absl::StrCat(flag, " /dev/zero: larger than 1 MiB"));
  }
  // A file without PEM blocks is named at once, not "empty address list"
  // when the channel connects.
  const std::string not_pem = ca_.directory() + "/not-a-certificate.pem";
  ReplaceFile(not_pem, "garbage\n");
  const ProcessResult garbage = Solve8(server, {"--tls-ca", not_pem});
  EXPECT_EQ(garbage.exit_code, kExitUsage);
  ExpectOneErrorLine(garbage, "--tls-ca " + not_pem + ": holds no PEM certificate");
  const ProcessResult key_as_ca = Solve8(server, {"--tls-ca", server_identity_.key_file});
  EXPECT_EQ(key_as_ca.exit_code, kExitUsage);
  ExpectOneErrorLine(key_as_ca, ": holds no PEM certificate");
}

class CliTokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("NQUEENS_AUTH_TOKEN");
    good_token_file_ = WriteTokenFile("good", kGoodToken);
    wrong_token_file_ = WriteTokenFile("wrong", kWrongToken);
    server_ = std::make_unique<ServerProcess>(
        std::vector<std::string>{"--auth-token-file", good_token_file_});
    ASSERT_FALSE(server_->address().empty());
  }
  void TearDown() override { unsetenv("NQUEENS_AUTH_TOKEN"); }

  static constexpr char kGoodToken[] = "good-token-0123";
  static constexpr char kWrongToken[] = "wrong-token-4567";
  std::string good_token_file_;
  std::string wrong_token_file_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(CliTokenTest, AMissingTokenIsNamed) {
  ExpectFailure(Solve8(*server_, {}), "requires a token (--auth-token-file or NQUEENS_AUTH_TOKEN)");
}

TEST_F(CliTokenTest, ARefusedTokenIsNamedAndNotPrinted) {
  const ProcessResult result = Solve8(*server_, {"--auth-token-file", wrong_token_file_});
  ExpectFailure(result, "refused the token");
  EXPECT_THAT(result.err, Not(HasSubstr(kWrongToken)));
}

TEST_F(CliTokenTest, TheTokenComesFromTheFileOrTheEnvironment) {
  ExpectSolved(Solve8(*server_, {"--auth-token-file", good_token_file_}));
  setenv("NQUEENS_AUTH_TOKEN", kGoodToken, 1);
  ExpectSolved(Solve8(*server_, {}));
}

TEST_F(CliTokenTest, TheFlagWinsOverTheEnvironment) {
  setenv("NQUEENS_AUTH_TOKEN", kWrongToken, 1);
  ExpectSolved(Solve8(*server_, {"--auth-token-file", good_token_file_}));
  setenv("NQUEENS_AUTH_TOKEN", kGoodToken, 1);
  ExpectFailure(Solve8(*server_, {"--auth-token-file", wrong_token_file_}), "refused the token");
}

TEST_F(CliTokenTest, AnUnreadableTokenFileIsAUsageError) {
  const std::string missing = TempPath(".missing");
  const ProcessResult result = Solve8(*server_, {"--auth-token-file", missing});
  EXPECT_EQ(result.exit_code, kExitUsage);
  ExpectOneErrorLine(result, "--auth-token-file " + missing);
  const ProcessResult endless = Solve8(*server_, {"--auth-token-file", "/dev/zero"});
  EXPECT_EQ(endless.exit_code, kExitUsage);
  ExpectOneErrorLine(endless, "--auth-token-file /dev/zero: larger than 1 MiB");
}

}  // namespace
}  // namespace nqueens::testing
