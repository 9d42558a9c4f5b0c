// The nqueens-server binary as a subprocess: it reports the bound port on
// stdout, answers calls, finishes an in-flight call after SIGTERM and exits 0,
// refuses bad flags, and logs JSON lines when asked to.
#include <arpa/inet.h>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "test_certificates.h"
#include "test_server.h"
#include "wire/chunks.h"
#include "wire/request_id.h"

extern char** environ;

namespace nqueens::testing {
namespace {

constexpr char kListeningPrefix[] = "listening on ";

// A child process whose stdout is a pipe read line by line, and its stderr
// too when `capture_stderr` (else shared with the test).
class Subprocess {
 public:
  explicit Subprocess(std::vector<std::string> args, bool capture_stderr = false) {
    int pipe_fds[2];
    int err_fds[2] = {-1, -1};
    if (pipe(pipe_fds) != 0 || (capture_stderr && pipe(err_fds) != 0)) {
      ADD_FAILURE() << "pipe failed: errno " << errno;
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
    if (capture_stderr) {
      posix_spawn_file_actions_adddup2(&actions, err_fds[1], STDERR_FILENO);
      posix_spawn_file_actions_addclose(&actions, err_fds[0]);
      posix_spawn_file_actions_addclose(&actions, err_fds[1]);
    }
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const int error = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    stdout_fd_ = pipe_fds[0];
    if (capture_stderr) {
      close(err_fds[1]);
      stderr_fd_ = err_fds[0];
    }
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
    if (stderr_fd_ >= 0) close(stderr_fd_);
  }

  // The next line of the child's stdout without its newline; blocks until it
  // is complete, returns what there is at end of file.
  std::string ReadLine() {
    std::string line;
    char c;
    while (read(stdout_fd_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }

  // The rest of the child's stdout, up to its end.
  std::string ReadAll() {
    std::string out;
    char buffer[4096];
    ssize_t received;
    while ((received = read(stdout_fd_, buffer, sizeof buffer)) > 0) out.append(buffer, received);
    return out;
  }

  // Everything the child writes on stderr, once it has exited (the pipe
  // holds 64 KiB, plenty for a few log lines).
  std::string ReadStderr() {
    std::string err;
    char buffer[4096];
    ssize_t received;
    while ((received = read(stderr_fd_, buffer, sizeof buffer)) > 0) err.append(buffer, received);
    return err;
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
  int stderr_fd_ = -1;
};

Subprocess StartServerProcess(std::vector<std::string> flags, bool capture_stderr = false) {
  std::vector<std::string> args = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0", "--log-level=warn"};
  args.insert(args.end(), flags.begin(), flags.end());
  return Subprocess(args, capture_stderr);
}

// Solve(8) over `channel`, or over a channel of its own to `address`.
grpc::Status SolveEight(const std::shared_ptr<grpc::Channel>& channel,
                        v1::SolveResponse& response) {
  grpc::ClientContext context;
  v1::SolveRequest request;
  request.set_n(8);
  return v1::NQueensService::NewStub(channel)->Solve(&context, request, &response);
}
grpc::Status SolveEight(const std::string& address, v1::SolveResponse& response) {
  return SolveEight(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()), response);
}

// Sends SIGTERM and expects the server to exit 0.
void ExpectCleanExitOnSigterm(Subprocess& server) {
  server.Signal(SIGTERM);
  const int status = server.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// The address from the "listening on HOST:PORT" line.
std::string ReadListeningAddress(Subprocess& server) {
  const std::string line = server.ReadLine();
  EXPECT_EQ(line.rfind(kListeningPrefix, 0), 0u) << "first line: " << line;
  return line.substr(sizeof(kListeningPrefix) - 1);
}

TEST(ServerBinaryTest, ServesAndExitsCleanlyOnSigterm) {
  Subprocess server =
      StartServerProcess({"--workers=2", "--memory-budget=1G", "--stream-idle-timeout=10s"});
  const std::string address = ReadListeningAddress(server);
  ASSERT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  ASSERT_NE(address, "127.0.0.1:0");

  {
    // Closed before SIGTERM: the server waits for open connections to go
    // (up to --grace), and an idle sync client notices only every 5 s.
    v1::SolveResponse response;
    ASSERT_TRUE(SolveEight(address, response).ok());
    ASSERT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
    ExpectSolutionExtending(ToColumns(response.columns()), Columns(8, kEmptyRow));
  }

  ExpectCleanExitOnSigterm(server);
}

// SIGTERM while a SolveStream is mid-way (its header already received): the
// call still delivers the whole board, then the server exits 0.
TEST(ServerBinaryTest, SigtermLetsInFlightCallsFinish) {
  Subprocess server = StartServerProcess({"--grace=60s"});
  const std::string address = ReadListeningAddress(server);
  auto stub =
      v1::NQueensService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  constexpr uint32_t kN = 1'000'000;
  v1::SolveStreamRequest request;
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
  ExpectCleanExitOnSigterm(server);
}

// --completion bash writes a script that completes the flags and the values
// of those that take one of a list.
TEST(ServerBinaryTest, WritesShellCompletionScripts) {
  Subprocess bash({NQUEENS_SERVER_PATH, "--completion=bash"});
  const std::string script = bash.ReadAll();
  EXPECT_EQ(bash.Wait(), 0);
  const std::string path = ::testing::TempDir() + "/nqueens-server.bash";
  std::ofstream(path) << script;
  Subprocess completes({"/bin/bash", "-c",
                        absl::StrCat("source ", path,
                                     "; COMP_WORDS=(nqueens-server --log-level w); COMP_CWORD=2; "
                                     "_nqueens_server; echo \"${COMPREPLY[*]}\"; "
                                     "COMP_WORDS=(nqueens-server --max-q); COMP_CWORD=1; "
                                     "_nqueens_server; echo \"${COMPREPLY[*]}\"")});
  EXPECT_EQ(completes.ReadAll(), "warn\n--max-queued\n");
  Subprocess zsh({NQUEENS_SERVER_PATH, "--completion=zsh"});
  EXPECT_THAT(zsh.ReadAll(), ::testing::StartsWith("#compdef nqueens-server\n"));
  Subprocess fish({NQUEENS_SERVER_PATH, "--completion=fish"}, /*capture_stderr=*/true);
  const int status = fish.Wait();
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_THAT(fish.ReadStderr(), ::testing::HasSubstr("no script for shell \"fish\""));
}

TEST(ServerBinaryTest, ATakenAddressIsAnErrorAtOnce) {
  Subprocess first = StartServerProcess({});
  const std::string address = ReadListeningAddress(first);
  Subprocess second({NQUEENS_SERVER_PATH, "--listen=" + address, "--log-level=warn"},
                    /*capture_stderr=*/true);
  EXPECT_EQ(second.ReadLine(), "");  // no "listening on" line
  const int status = second.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_NE(WEXITSTATUS(status), 0);
  // One line naming the address and the kernel's reason, not gRPC's log.
  EXPECT_EQ(second.ReadStderr(), absl::StrCat("nqueens-server: cannot listen on ", address,
                                              ": Address already in use\n"));
}

// gRPC would listen on 443 for a missing port and on 99999 % 65536 for a
// port out of range: both are refused, naming the flag and the address.
TEST(ServerBinaryTest, AListenAddressNeedsAPortInRange) {
  for (const auto& [flag, why] : std::vector<std::pair<std::string, std::string>>{
           {"--listen=localhost", "--listen localhost: no port"},
           {"--listen=127.0.0.1:99999",
            "--listen 127.0.0.1:99999: the port must be a number "
            "from 0 to 65535, not \"99999\""},
           {"--listen=::1:5", "write an IPv6 address in brackets"},
           {"--health-listen=127.0.0.1:65536", "--health-listen 127.0.0.1:65536: the port"}}) {
    Subprocess server({NQUEENS_SERVER_PATH, flag}, /*capture_stderr=*/true);
    EXPECT_EQ(server.ReadLine(), "") << flag;
    const int status = server.Wait();
    ASSERT_TRUE(WIFEXITED(status)) << flag;
    EXPECT_EQ(WEXITSTATUS(status), 2) << flag;
    const std::string error = server.ReadStderr();
    EXPECT_THAT(error, ::testing::HasSubstr(why));
    EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
  }
}

// An open connection with no call in flight does not hold the server for its
// grace period (600 s here; the bound below is a tenth of it).
TEST(ServerBinaryTest, SigtermWithAnIdleConnectionDoesNotWaitOutTheGrace) {
  Subprocess server = StartServerProcess({"--grace=600s"});
  const std::string address = ReadListeningAddress(server);
  // Its channel stays open, idle, until the server has exited.
  const std::shared_ptr<grpc::Channel> channel =
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  v1::SolveResponse response;
  ASSERT_TRUE(SolveEight(channel, response).ok());

  const absl::Time signalled = absl::Now();
  server.Signal(SIGTERM);
  const int status = server.Wait();
  EXPECT_LT(absl::Now() - signalled, absl::Seconds(60));
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// A call that outlasts the grace period (a Count of n = 20, about 20
// minutes) is cut when the grace ends, and the server exits within a second
// of that: Kubernetes kills at its own grace, so the server must not overrun
// ours.
TEST(ServerBinaryTest, SigtermWithALongCallInFlightExitsWithinTheGracePlusASecond) {
  constexpr absl::Duration kGrace = absl::Seconds(2);
  Subprocess server = StartServerProcess({"--grace=2s"});
  const std::string address = ReadListeningAddress(server);
  auto stub =
      v1::NQueensService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  v1::CountRequest request;
  request.set_n(20);
  request.set_progress_seconds(0.01);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(60)));
  auto reader = stub->Count(&context, request);
  v1::CountResponse message;
  ASSERT_TRUE(reader->Read(&message));  // counting

  const absl::Time signalled = absl::Now();
  server.Signal(SIGTERM);
  const int status = server.Wait();
  const absl::Duration took = absl::Now() - signalled;
  EXPECT_GE(took, kGrace);
  EXPECT_LT(took, kGrace + absl::Seconds(1));
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  while (reader->Read(&message)) {
  }
  // The server's reason, not gRPC's "Cancelling all calls".
  const grpc::Status finished = reader->Finish();
  EXPECT_EQ(finished.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(finished.error_message(), ::testing::HasSubstr("the server shut down"));
  EXPECT_THAT(finished.error_message(), ::testing::HasSubstr("--grace"));
}

// A blocking TCP connection to 127.0.0.1:`port`, sending nothing; -1 when
// it cannot connect.
int ConnectSilently(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
    return fd;
  }
  if (fd >= 0) close(fd);
  return -1;
}

// Whether the server closes the connection `fd` within `patience`.
bool ClosedByServer(int fd, absl::Duration patience) {
  pollfd polled{fd, POLLIN, 0};
  if (poll(&polled, 1, static_cast<int>(absl::ToInt64Milliseconds(patience))) != 1) return false;
  char byte;
  return recv(fd, &byte, 1, 0) <= 0;
}

// More silent connections than the server has descriptors (256 here, soft
// and hard): it closes those it cannot keep at once, and once they are all
// gone a new client is served, without a restart. (gRPC 1.51 alone stopped
// accepting for good at the first "Too many open files".)
TEST(ServerBinaryTest, KeepsAcceptingAfterRunningOutOfDescriptors) {
  constexpr int kDescriptors = 256;
  constexpr int kConnections = 300;
  rlimit own{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &own), 0);
  if (own.rlim_cur < 2 * kConnections) {
    own.rlim_cur = std::min<rlim_t>(own.rlim_max, 2 * kConnections);
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &own), 0);
  }
  // The shell sets both limits (ulimit -n), then becomes the server.
  Subprocess server({"/bin/sh", "-c", absl::StrCat("ulimit -n ", kDescriptors, R"( && exec "$@")"),
                     "sh", NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0", "--log-level=warn"},
                    /*capture_stderr=*/true);
  const std::string address = ReadListeningAddress(server);
  const int port = std::stoi(address.substr(address.rfind(':') + 1));
  std::vector<int> connections;
  for (int i = 0; i < kConnections; ++i) {
    const int fd = ConnectSilently(port);
    ASSERT_GE(fd, 0) << "connection " << i << ": errno " << errno;
    connections.push_back(fd);
  }
  // The server takes connections in order: once the last is closed, it has
  // taken them all.
  EXPECT_TRUE(ClosedByServer(connections.back(), absl::Seconds(10)));
  for (const int fd : connections) close(fd);

  auto stub =
      v1::NQueensService::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  // Waits through reconnection attempts instead of failing at the first.
  context.set_wait_for_ready(true);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  v1::SolveRequest request;
  request.set_n(8);
  v1::SolveResponse response;
  const grpc::Status status = stub->Solve(&context, request, &response);
  EXPECT_TRUE(status.ok()) << status.error_code() << ": " << status.error_message();

  ExpectCleanExitOnSigterm(server);
  const std::string log = server.ReadStderr();
  EXPECT_THAT(log, ::testing::HasSubstr("new connections at once"));
  EXPECT_THAT(log, ::testing::Not(::testing::HasSubstr("Failed accept4")));
}

TEST(ServerBinaryTest, RejectsBadFlags) {
  for (const char* flag :
       {"--log-level=loud", "--memory-budget=lots", "--memory-budget=0", "--stream-idle-timeout=0s",
        "--workers=-1", "--max-queued=-1", "--max-call-seconds=0", "--memory-budget=8M"}) {
    Subprocess server = StartServerProcess({flag});
    EXPECT_EQ(server.ReadLine(), "") << flag;  // no "listening on" line
    const int status = server.Wait();
    ASSERT_TRUE(WIFEXITED(status)) << flag;
    EXPECT_NE(WEXITSTATUS(status), 0) << flag;
  }
}

// Exit status 2 and one line naming what is wrong; returns that line.
std::string ExpectUsageError(std::vector<std::string> args, const std::string& expected) {
  args.insert(args.begin(), NQUEENS_SERVER_PATH);
  Subprocess server(args, /*capture_stderr=*/true);
  const std::string line = server.ReadLine();
  EXPECT_EQ(line, "") << expected;            // no "listening on" line
  if (!line.empty()) server.Signal(SIGKILL);  // it started: do not wait for it
  const int status = server.Wait();
  const std::string error = server.ReadStderr();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << expected << ": status " << status;
  EXPECT_EQ(error.rfind("nqueens-server: " + expected, 0), 0u) << error;
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
  return error;
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
      {{"--tls-refresh-interval=500ms"}, "--tls-refresh-interval must be between 1s and 24h"},
      {{"--tls-refresh-interval=inf"}, "--tls-refresh-interval must be between 1s and 24h"},
      {{"--auth-token-file=" + missing}, "--auth-token-file " + missing},
      {{"--max-calls-per-client=-1"}, "--max-calls-per-client"},
      {{"--max-concurrent-streams=0"}, "--max-concurrent-streams"},
      {{"--max-connection-age=0s"}, "--max-connection-age"},
  };
  for (const auto& [flags, expected] : cases) {
    std::vector<std::string> args = {"--listen=127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    ExpectUsageError(args, expected);
  }
}

// A file a flag names holds at most 1 MiB: a larger one is refused at start,
// naming the flag and the limit, instead of being read without end (as
// /dev/zero was).
TEST(ServerBinaryTest, RefusesFilesAboveOneMebibyteNamingTheFlag) {
  TestCertificateAuthority ca("nqueens-test-ca");
  const KeyPair identity = ca.Issue("server-1");
  const std::string large = ca.directory() + "/large";
  std::ofstream(large) << std::string((1 << 20) + 1, ' ');
  const std::string cert = "--tls-cert=" + identity.cert_file;
  const std::string key = "--tls-key=" + identity.key_file;
  const std::string too_large = ": larger than 1 MiB";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--tls-cert=" + large, key}, "--tls-cert " + large + too_large},
      {{"--tls-cert=/dev/zero", key}, "--tls-cert /dev/zero" + too_large},
      {{cert, "--tls-key=" + large}, "--tls-key " + large + too_large},
      {{cert, key, "--tls-client-ca=" + large}, "--tls-client-ca " + large + too_large},
      {{"--auth-token-file=" + large}, "--auth-token-file " + large + too_large},
      {{"--flagfile=" + large}, "--flagfile " + large + too_large},
  };
  for (const auto& [flags, expected] : cases) {
    std::vector<std::string> args = {"--listen=127.0.0.1:0"};
    args.insert(args.end(), flags.begin(), flags.end());
    ExpectUsageError(args, expected);
  }
}

TEST(ServerBinaryTest, HelpListsEveryFlagDashedWithItsDefault) {
  for (const char* help : {"--help", "-h"}) {
    Subprocess server({NQUEENS_SERVER_PATH, help});
    const std::string out = server.ReadAll();
    EXPECT_EQ(server.Wait(), 0) << help;
    EXPECT_THAT(out, ::testing::StartsWith("usage: nqueens-server [flags]"));
    EXPECT_THAT(out, ::testing::HasSubstr("\n  --max-n=100000000\n"));
    EXPECT_THAT(out, ::testing::HasSubstr("\n  --max-exact-seconds=600\n"));
    EXPECT_THAT(out, ::testing::HasSubstr("\n  --listen=0.0.0.0:50051\n"));
    EXPECT_THAT(out, ::testing::HasSubstr("exit status: 0 after a shutdown"));
  }
}

// The flags' defaults are written once, in the option structs; the tables of
// the server's flags in the operations guide (docs/guides/operations.md) are
// a view of them, checked here: every flag --help lists is in them, and each
// row states its flags' defaults as they are.
TEST(ServerBinaryTest, TheOperationsGuidesFlagTablesStateEveryFlagWithItsDefault) {
  Subprocess server({NQUEENS_SERVER_PATH, "--help"});
  const std::string help = server.ReadAll();
  ASSERT_EQ(server.Wait(), 0);
  std::map<std::string, std::string> defaults;  // "--max-n" -> "100000000"
  for (const absl::string_view line : absl::StrSplit(help, '\n')) {
    if (!absl::StartsWith(line, "  --")) continue;
    const size_t equals = line.find('=');
    ASSERT_NE(equals, absl::string_view::npos) << line;
    defaults[std::string(line.substr(2, equals - 2))] = std::string(line.substr(equals + 1));
  }
  for (const char* not_in_the_table : {"--help", "--version", "--flagfile", "--completion"}) {
    defaults.erase(not_in_the_table);
  }
  ASSERT_GT(defaults.size(), 20u);

  std::ifstream file(NQUEENS_SOURCE_DIR "/docs/guides/operations.md");
  std::stringstream guide;
  guide << file.rdbuf();
  const std::string text = guide.str();
  const size_t begin = text.find("\n## Flags\n");
  ASSERT_NE(begin, std::string::npos);
  const size_t end = text.find("\n## ", begin + 1);
  std::set<std::string> documented;
  for (const absl::string_view row :
       absl::StrSplit(absl::string_view(text).substr(begin, end - begin), '\n')) {
    if (!absl::StartsWith(row, "| `--")) continue;
    const absl::string_view names = row.substr(0, row.find(" | ", 2));
    for (const auto& [flag, value] : defaults) {
      if (!absl::StrContains(names, absl::StrCat("`", flag, " ")) &&
          !absl::StrContains(names, absl::StrCat("`", flag, "`"))) {
        continue;
      }
      documented.insert(flag);
      // Flags without a default value ("") say what they do when not given.
      if (value == "\"\"" || value == "false") continue;
      const std::vector<std::string> phrasings = {
          absl::StrCat("default `", value, "`"), absl::StrCat("default ", value),
          absl::StrCat("Default `", value, "`"), absl::StrCat("`", value, "` (default)"),
          absl::StrCat("default and maximum ", value)};
      EXPECT_TRUE(std::any_of(
          phrasings.begin(), phrasings.end(),
          [&](const std::string& phrasing) { return absl::StrContains(row, phrasing); }))
          << flag << " defaults to " << value
          << ", which its row in the operations guide does not say:\n"
          << row;
    }
  }
  for (const auto& [flag, value] : defaults) {
    EXPECT_TRUE(documented.count(flag) > 0) << flag << " is not in the operations guide's tables";
  }
}

TEST(ServerBinaryTest, VersionNamesTheReleaseAndRevision) {
  Subprocess server({NQUEENS_SERVER_PATH, "--version"});
  const std::string out = server.ReadAll();
  EXPECT_EQ(server.Wait(), 0);
  EXPECT_THAT(out, ::testing::MatchesRegex("nqueens-server [0-9]+\\.[0-9]+\\.[0-9]+ \\(git "
                                           "[^,]+, [A-Za-z]+ build\\)\n"));
}

TEST(ServerBinaryTest, UsageErrorsExitWithTwoSayingWhy) {
  ExpectUsageError({"0.0.0.0:5"}, "unexpected argument \"0.0.0.0:5\": the server takes flags only");
  ExpectUsageError({"--grace", "10"}, "invalid value \"10\" for --grace");
  ExpectUsageError({"--no-such-flag"}, "unknown flag --no-such-flag");
  ExpectUsageError({"--flagfile", "/nonexistent/flags"},
                   "--flagfile /nonexistent/flags: No such file or directory");
}

// Solve(n) on a server started with `flags`: its status code.
grpc::StatusCode SolveOnNewServer(std::vector<std::string> flags, uint64_t n) {
  Subprocess server(flags);
  const std::string line = server.ReadLine();
  if (line.rfind(kListeningPrefix, 0) != 0) {
    ADD_FAILURE() << "no server: " << line;
    return grpc::StatusCode::UNKNOWN;
  }
  auto stub = v1::NQueensService::NewStub(grpc::CreateChannel(
      line.substr(sizeof kListeningPrefix - 1), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  v1::SolveRequest request;
  request.set_n(n);
  v1::SolveResponse response;
  return stub->Solve(&context, request, &response).error_code();
}

TEST(ServerBinaryTest, FlagsComeFromTheEnvironmentTooAndTheCommandLineWins) {
  const std::vector<std::string> flags = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0",
                                          "--log-level=warn"};
  ::setenv("NQUEENS_MAX_N", "many", 1);
  ExpectUsageError({"--listen=127.0.0.1:0"}, "invalid value \"many\" for NQUEENS_MAX_N");
  ::setenv("NQUEENS_MAX_N", "1000", 1);
  EXPECT_EQ(SolveOnNewServer(flags, 2000), grpc::StatusCode::RESOURCE_EXHAUSTED);
  std::vector<std::string> winning = flags;
  winning.push_back("--max-n=5000");
  EXPECT_EQ(SolveOnNewServer(winning, 2000), grpc::StatusCode::OK);
  ::unsetenv("NQUEENS_MAX_N");
}

// The lines the server logs (on stderr) from its start to its exit after
// SIGTERM.
std::vector<std::string> LinesUntilExit(std::vector<std::string> flags) {
  std::vector<std::string> args = {NQUEENS_SERVER_PATH, "--listen=127.0.0.1:0"};
  args.insert(args.end(), flags.begin(), flags.end());
  Subprocess server(args, /*capture_stderr=*/true);
  for (std::string line = server.ReadLine(); !line.empty(); line = server.ReadLine()) {
    if (line.rfind(kListeningPrefix, 0) == 0) server.Signal(SIGTERM);
  }
  server.Wait();
  return absl::StrSplit(server.ReadStderr(), '\n', absl::SkipEmpty());
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

// Outside its validity a certificate fails every handshake: the server
// refuses to start, naming --tls-cert and the certificate's dates.
TEST(ServerBinaryTest, RefusesACertificateThatExpiredOrIsNotValidYet) {
  TestCertificateAuthority ca("nqueens-test-ca");
  const absl::Duration day = absl::Hours(24);
  const KeyPair expired = ca.Issue("expired", kLocalNames, {-30 * day, -day});
  const KeyPair future = ca.Issue("future", kLocalNames, {day, 30 * day});
  const std::string dates =
      "valid from [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} UTC to [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} "
      "UTC\n$";
  for (const auto& [identity, problem] : {std::pair{expired, "the certificate has expired"},
                                          std::pair{future, "the certificate is not valid yet"}}) {
    const std::string error =
        ExpectUsageError({"--listen=127.0.0.1:0", "--tls-cert=" + identity.cert_file,
                          "--tls-key=" + identity.key_file},
                         absl::StrCat("--tls-cert ", identity.cert_file, ": ", problem, ", "));
    EXPECT_THAT(error, ::testing::ContainsRegex(dates));
  }
}

TEST(ServerBinaryTest, WarnsWhenTheCertificateExpiresWithinAWeek) {
  TestCertificateAuthority ca("nqueens-test-ca");
  const KeyPair soon = ca.Issue("soon", kLocalNames, {-absl::Hours(1), absl::Hours(24 * 3)});
  const std::vector<std::string> warned =
      LinesUntilExit({"--tls-cert=" + soon.cert_file, "--tls-key=" + soon.key_file});
  EXPECT_EQ(
      CountContaining(warned, "--tls-cert " + soon.cert_file + ": the certificate expires on "), 1);
  const KeyPair month = ca.Issue("month");  // 30 days
  const std::vector<std::string> quiet =
      LinesUntilExit({"--tls-cert=" + month.cert_file, "--tls-key=" + month.key_file});
  EXPECT_EQ(CountContaining(quiet, "expires"), 0);
  EXPECT_EQ(CountContaining(quiet, "serving TLS with " + month.cert_file), 1);
}

TEST(ServerBinaryTest, BadLogFormatOrMetricsAddressExitsWithTwoNamingTheFlag) {
  for (const auto& [flag, name] :
       {std::pair{"--log-format=xml", "--log-format"},
        std::pair{"--metrics-listen=nonsense", "--metrics-listen"},
        std::pair{"--metrics-listen=127.0.0.1:99999", "--metrics-listen"}}) {
    Subprocess server = StartServerProcess({flag}, /*capture_stderr=*/true);
    EXPECT_EQ(server.ReadLine(), "") << flag;  // no "listening on" line
    const int status = server.Wait();
    ASSERT_TRUE(WIFEXITED(status)) << flag;
    EXPECT_EQ(WEXITSTATUS(status), 2) << flag;
    EXPECT_THAT(server.ReadStderr(), ::testing::HasSubstr(name)) << flag;
  }
}

using google::protobuf::Struct;
using google::protobuf::Value;

// Each line of `log` as a JSON object; a line that is not one fails the test.
std::vector<Struct> JsonLines(const std::string& log) {
  std::vector<Struct> lines;
  for (absl::string_view line : absl::StrSplit(log, '\n', absl::SkipEmpty())) {
    Struct object;
    const auto parsed = google::protobuf::util::JsonStringToMessage(std::string(line), &object);
    EXPECT_TRUE(parsed.ok()) << parsed.ToString() << ": " << line;
    lines.push_back(object);
  }
  return lines;
}

// The call's line by its request id; an empty object when there is none.
Struct CallLine(const std::vector<Struct>& lines, const std::string& request_id) {
  for (const Struct& line : lines) {
    const auto id = line.fields().find("request_id");
    if (id != line.fields().end() && id->second.string_value() == request_id) return line;
  }
  ADD_FAILURE() << "no line for request id " << request_id;
  return Struct();
}

// The field's value; a null one when it is missing.
Value Field(const Struct& line, const std::string& name) {
  const auto field = line.fields().find(name);
  EXPECT_NE(field, line.fields().end()) << name;
  return field == line.fields().end() ? Value() : field->second;
}

grpc::Status SolveWithRequestId(v1::NQueensService::Stub& stub, uint32_t n, const std::string& id) {
  grpc::ClientContext context;
  context.AddMetadata(wire::kRequestIdKey, id);
  v1::SolveRequest request;
  request.set_n(n);
  v1::SolveResponse response;
  return stub.Solve(&context, request, &response);
}

TEST(ServerBinaryTest, JsonLogIsOneObjectPerLineWithEachCallsFields) {
  Subprocess server =
      StartServerProcess({"--log-format=json", "--log-level=info"}, /*capture_stderr=*/true);
  const std::string address = ReadListeningAddress(server);
  // Quotes and a backslash, which the log must escape.
  const std::string ok_id = R"(json-"ok"\1)";
  {
    auto stub = v1::NQueensService::NewStub(
        grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
    ASSERT_TRUE(SolveWithRequestId(*stub, 8, ok_id).ok());
    ASSERT_EQ(SolveWithRequestId(*stub, 0, "json-bad").error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  server.Signal(SIGTERM);
  const int status = server.Wait();
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  ASSERT_EQ(WEXITSTATUS(status), 0);

  const std::vector<Struct> lines = JsonLines(server.ReadStderr());
  ASSERT_GE(lines.size(), 4u);  // at least: serving with, two calls, shut down
  for (const Struct& line : lines) {
    EXPECT_THAT(Field(line, "time").string_value(),
                ::testing::MatchesRegex(
                    "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"));
    EXPECT_THAT(Field(line, "level").string_value(),
                ::testing::MatchesRegex("trace|debug|info|warning|error|critical"));
    EXPECT_EQ(Field(line, "message").kind_case(), Value::kStringValue);
  }
  const Struct ok = CallLine(lines, ok_id);
  EXPECT_EQ(Field(ok, "method").string_value(), "Solve");
  EXPECT_THAT(Field(ok, "peer").string_value(), ::testing::StartsWith("ipv4:127.0.0.1:"));
  EXPECT_EQ(Field(ok, "n").number_value(), 8);
  EXPECT_EQ(Field(ok, "k").number_value(), 0);
  EXPECT_EQ(Field(ok, "outcome").string_value(), "SOLVED");
  EXPECT_EQ(Field(ok, "code").string_value(), "OK");
  EXPECT_EQ(Field(ok, "message").string_value(), "");
  EXPECT_GE(Field(ok, "seconds").number_value(), 0);
  EXPECT_EQ(Field(ok, "seconds").kind_case(), Value::kNumberValue);
  const Struct bad = CallLine(lines, "json-bad");
  EXPECT_EQ(Field(bad, "code").string_value(), "INVALID_ARGUMENT");
  EXPECT_EQ(Field(bad, "outcome").kind_case(), Value::kNullValue);
  EXPECT_NE(Field(bad, "message").string_value(), "");
  // The start line says the limits as a reader would: no node limit is "none".
  const auto start = std::find_if(lines.begin(), lines.end(), [](const Struct& line) {
    return absl::StartsWith(Field(line, "message").string_value(), "serving with");
  });
  ASSERT_NE(start, lines.end());
  EXPECT_THAT(Field(*start, "message").string_value(),
              ::testing::HasSubstr(" max_exact_nodes=none "));
}

}  // namespace
}  // namespace nqueens::testing
