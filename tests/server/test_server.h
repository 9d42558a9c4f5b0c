// What the server tests share: a real server on 127.0.0.1 port 0 for each
// test suite, a stub on a real channel to it, and board checks that trust
// nqueens::Validate, never the solver.
#ifndef NQUEENS_TESTS_SERVER_TEST_SERVER_H_
#define NQUEENS_TESTS_SERVER_TEST_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "server/server.h"

namespace nqueens::testing {

class ServerTest : public ::testing::Test {
 protected:
  // Large enough for the 10^7 deadline test, small enough to test the limit.
  static constexpr uint64_t kMaxN = 20'000'000;

  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static std::shared_ptr<grpc::Channel> channel() { return channel_; }
  static server::Server& server() { return *server_; }
  v1::NQueensService::Stub& stub() { return *stub_; }

 private:
  static inline std::unique_ptr<server::Server> server_;
  static inline std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::NQueensService::Stub> stub_ = v1::NQueensService::NewStub(channel_);
};

// A RANDOM Solve on its own thread, so that the test can look at the server
// and cancel it meanwhile.
class BackgroundSolve {
 public:
  BackgroundSolve(v1::NQueensService::Stub& stub, uint64_t n,
                  absl::Duration deadline = absl::Seconds(60));
  ~BackgroundSolve();  // cancels the call and waits for it
  BackgroundSolve(const BackgroundSolve&) = delete;
  BackgroundSolve& operator=(const BackgroundSolve&) = delete;

  void Cancel() { context_.TryCancel(); }
  grpc::Status Wait();

 private:
  v1::SolveRequest request_;
  v1::SolveResponse response_;
  grpc::ClientContext context_;
  grpc::Status status_;
  std::thread thread_;
};

Columns ToColumns(const google::protobuf::RepeatedField<uint32_t>& columns);

// A full solution of n (n = 1 or n >= 4), checked with Validate. A random
// one: sub-compositions of the explicit construction are much harder to
// complete for the pipeline.
Columns KnownSolution(uint32_t n);

// `solution` is a full solution (by Validate) that keeps every queen of
// `composition`.
void ExpectSolutionExtending(const Columns& solution, const Columns& composition);

// The standard services, spoken through RawCall: their generated C++ is not
// installed, so requests are encoded by field number (from
// grpc/health/v1/health.proto and grpc/reflection/v1alpha/reflection.proto).
constexpr char kHealthCheck[] = "/grpc.health.v1.Health/Check";
constexpr int kHealthCheckRequestService = 1;  // string
constexpr char kReflectionInfo[] = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";
// v1 has v1alpha's messages and numbers.
constexpr char kReflectionV1Info[] = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
constexpr int kReflectionRequestListServices = 7;          // string
constexpr int kReflectionRequestFileContainingSymbol = 4;  // string

struct RawResult {
  grpc::Status status;
  std::vector<std::string> responses;
};

// Sends the request messages (with `token` as a bearer token, unless empty)
// and collects the responses. A generic call is a stream on the wire, so
// this serves unary methods too.
RawResult RawCall(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                  const std::vector<std::string>& requests, const std::string& token = "");
RawResult RawCall(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                  const std::string& request, const std::string& token = "");

// A message of one length-delimited field.
std::string Encode(int field, const std::string& value);

// Starts a server with `options` on 127.0.0.1, port 0, with a grace of 1 s;
// null, and a failure of the test, if it does not start.
std::unique_ptr<server::Server> StartLoopbackServer(server::ServerOptions options = {});

// A stub on a new plaintext channel to `server`.
std::unique_ptr<v1::NQueensService::Stub> StubFor(const server::Server& server);

// The status has `code` and its message contains `needle`.
void ExpectStatus(const grpc::Status& status, grpc::StatusCode code, const std::string& needle);

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_SERVER_TEST_SERVER_H_
