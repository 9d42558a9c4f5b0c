// The nqueens-server binary as a subprocess: it reports the bound port on
// stdout, answers calls, finishes an in-flight call after SIGTERM and exits 0.
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "test_certificates.h"
#include "test_server.h"
#include "wire/chunks.h"

extern char** environ;

namespace nqueens::testing {
namespace {

constexpr char kListeningPrefix[] = "listening on ";

// A child process whose stdout (and stderr too, when `with_stderr`) is a
// pipe read line by line.
class Subprocess {
 public:
  explicit Subprocess(std::vector<std::string> args, bool with_stderr = false) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
      ADD_FAILURE() << "pipe failed: errno " << errno;
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    if (with_stderr) posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int error = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    stdout_fd_ = pipe_fds[0];
    if (error != 0) {
      ADD_FAILURE() << "cannot start " << args[0] << ": errno " << error;
      pid_ = -1;
    }
  }

  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  ~Subprocess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      Wait();
    }
    if (stdout_fd_ >= 0) close(stdout_fd_);
  }

  // The next line of the child's stdout without its newline; blocks until it
  // is complete, returns what there is at end of file.
  std::string ReadLine() {
    std::string line;
    char c;
    while (read(stdout_fd_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }

  void Signal(int signal_number) { kill(pid_, signal_number); }

  // The exit status as waitpid reports it.
  int Wait() {
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
};

Subprocess StartServer(std::vector<std::string> flags) {
  std::vector<std::string> args = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0", "--log-level=warn"};
  args.insert(args.end(), flags.begin(), flags.end());
  return Subprocess(args);
}

// The address from the "listening on HOST:PORT" line.
std::string ReadListeningAddress(Subprocess& server) {
  const std::string line = server.ReadLine();
  EXPECT_EQ(line.rfind(kListeningPrefix, 0), 0u) << "first line: " << line;
  return line.substr(sizeof(kListeningPrefix) - 1);
}

TEST(ServerBinaryTest, ServesAndExitsCleanlyOnSigterm) {
  Subprocess server =
      StartServer({"--workers=2", "--memory-budget=1G", "--stream-idle-timeout=10s"});
  const std::string address = ReadListeningAddress(server);
  ASSERT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  ASSERT_NE(address, "127.0.0.1:0");

  {
    // Closed before SIGTERM: the server waits for open connections to go
    // (up to --grace), and an idle sync client notices only every 5 s.
    auto stub =
        v1::NQueens::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    v1::SolveRequest request;
    request.set_n(8);
    grpc::ClientContext context;
    v1::SolveResponse response;
    ASSERT_TRUE(stub->Solve(&context, request, &response).ok());
    ASSERT_EQ(response.outcome(), v1::SOLVED);
    ExpectSolutionExtending(ToColumns(response.columns()), Columns(8, kEmptyRow));
  }

  server.Signal(SIGTERM);
  const int status = server.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// SIGTERM while a SolveStream is mid-way (its header already received): the
// call still delivers the whole board, then the server exits 0.
TEST(ServerBinaryTest, SigtermLetsInFlightCallsFinish) {
  Subprocess server = StartServer({"--grace=60s"});
  const std::string address = ReadListeningAddress(server);
  auto stub =
      v1::NQueens::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  constexpr uint32_t kN = 1'000'000;
  v1::SolveRequest request;
  request.set_n(kN);
  request.set_chunk_size(1000);
  grpc::ClientContext context;
  auto reader = stub->SolveStream(&context, request);
  v1::SolveStreamResponse message;
  ASSERT_TRUE(reader->Read(&message));
  ASSERT_TRUE(message.has_header());

  server.Signal(SIGTERM);
  wire::ChunkAssembler assembler(kN);
  while (reader->Read(&message)) ASSERT_TRUE(assembler.Add(message.chunk()).ok());
  const grpc::Status status = reader->Finish();
  ASSERT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();
  absl::StatusOr<Columns> board = std::move(assembler).Finish();
  ASSERT_TRUE(board.ok()) << board.status();
  ExpectSolutionExtending(*board, Columns(kN, kEmptyRow));

  const int exit_status = server.Wait();
  ASSERT_TRUE(WIFEXITED(exit_status)) << "status " << exit_status;
  EXPECT_EQ(WEXITSTATUS(exit_status), 0);
}

TEST(ServerBinaryTest, ListensOnEveryAddressGiven) {
  Subprocess server(
      {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0", "--listen", "[::1]:0", "--log-level=warn"});
  EXPECT_EQ(ReadListeningAddress(server).rfind("127.0.0.1:", 0), 0u);
  EXPECT_EQ(ReadListeningAddress(server).rfind("[::1]:", 0), 0u);
  server.Signal(SIGTERM);
  const int status = server.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ServerBinaryTest, ATakenAddressIsAnErrorAtOnce) {
  Subprocess first = StartServer({});
  const std::string address = ReadListeningAddress(first);
  Subprocess second({NQUEENS_SERVER_PATH, "--listen=" + address, "--log-level=warn"});
  EXPECT_EQ(second.ReadLine(), "");  // no "listening on" line
  const int status = second.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_NE(WEXITSTATUS(status), 0);
}

// An open connection with no call in flight does not hold the server for its
// grace period (600 s here; the bound below is a tenth of it).
TEST(ServerBinaryTest, SigtermWithAnIdleConnectionDoesNotWaitOutTheGrace) {
  Subprocess server = StartServer({"--grace=600s"});
  const std::string address = ReadListeningAddress(server);
  auto stub =
      v1::NQueens::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  v1::SolveRequest request;
  request.set_n(8);
  grpc::ClientContext context;
  v1::SolveResponse response;
  ASSERT_TRUE(stub->Solve(&context, request, &response).ok());

  const absl::Time signalled = absl::Now();
  server.Signal(SIGTERM);
  const int status = server.Wait();
  EXPECT_LT(absl::Now() - signalled, absl::Seconds(60));
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ServerBinaryTest, RejectsBadFlags) {
  for (const char* flag :
       {"--log-level=loud", "--memory-budget=lots", "--memory-budget=0", "--stream-idle-timeout=0s",
        "--workers=-1", "--max-queued=-1", "--max-call-seconds=0", "--memory-budget=8M"}) {
    Subprocess server = StartServer({flag});
    EXPECT_EQ(server.ReadLine(), "") << flag;  // no "listening on" line
    const int status = server.Wait();
    ASSERT_TRUE(WIFEXITED(status)) << flag;
    EXPECT_NE(WEXITSTATUS(status), 0) << flag;
  }
}

// Exit status 2 and one line naming the flag (and the file) at fault.
TEST(ServerBinaryTest, RejectsBadSecurityFlagsNamingThem) {
  TestCertificateAuthority ca("nqueens-test-ca");
  const KeyPair identity = ca.Issue("server-1");
  const std::string missing = ca.directory() + "/missing";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--tls-key=" + identity.key_file}, "--tls-key needs --tls-cert"},
      {{"--tls-cert=" + identity.cert_file}, "--tls-cert needs --tls-key"},
      {{"--tls-cert=" + missing, "--tls-key=" + identity.key_file}, "--tls-cert " + missing},
      {{"--tls-client-ca=" + ca.ca_file()}, "--tls-client-ca needs --tls-cert"},
      {{"--auth-token-file=" + missing}, "--auth-token-file " + missing},
      {{"--max-calls-per-client=-1"}, "--max-calls-per-client"},
      {{"--max-concurrent-streams=0"}, "--max-concurrent-streams"},
      {{"--max-connection-age=0s"}, "--max-connection-age"},
  };
  for (const auto& [flags, expected] : cases) {
    std::vector<std::string> args = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    Subprocess server(args, /*with_stderr=*/true);
    const std::string line = server.ReadLine();
    EXPECT_EQ(line.rfind("nqueens-server: " + expected, 0), 0u) << line;
    EXPECT_EQ(server.ReadLine(), "") << expected;  // one line, then the end
    const int status = server.Wait();
    ASSERT_TRUE(WIFEXITED(status)) << expected;
    EXPECT_EQ(WEXITSTATUS(status), 2) << expected;
  }
}

// The lines the server writes on stdout and stderr from its start to its
// exit after SIGTERM.
std::vector<std::string> LinesUntilExit(std::vector<std::string> flags) {
  std::vector<std::string> args = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0"};
  args.insert(args.end(), flags.begin(), flags.end());
  Subprocess server(args, /*with_stderr=*/true);
  std::vector<std::string> lines;
  for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
    lines.push_back(line);
    if (line.rfind(kListeningPrefix, 0) == 0) server.Signal(SIGTERM);
  }
  server.Wait();
  return lines;
}

int CountContaining(const std::vector<std::string>& lines, const std::string& needle) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
    return line.find(needle) != std::string::npos;
  }));
}

TEST(ServerBinaryTest, SaysOnceWhetherItServesPlaintextOrTls) {
  const std::vector<std::string> plaintext = LinesUntilExit({});
  EXPECT_EQ(CountContaining(plaintext, "serving in plaintext"), 1);

  TestCertificateAuthority ca("nqueens-test-ca");
  const KeyPair identity = ca.Issue("server-1");
  const std::vector<std::string> tls =
      LinesUntilExit({"--tls-cert=" + identity.cert_file, "--tls-key=" + identity.key_file});
  EXPECT_EQ(CountContaining(tls, "serving in plaintext"), 0);
  EXPECT_EQ(CountContaining(tls, "serving TLS with " + identity.cert_file), 1);
}

}  // namespace
}  // namespace nqueens::testing
