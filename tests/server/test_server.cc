#include "test_server.h"

#include <google/protobuf/unknown_field_set.h>
#include <grpcpp/generic/generic_stub.h>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "nqueens/solver.h"
#include "nqueens/validate.h"
#include "wire/limits.h"

namespace nqueens::testing {

void ServerTest::SetUpTestSuite() {
  server::ServerOptions options;
  options.listen_addresses = {"127.0.0.1:0"};
  options.service.max_n = kMaxN;
  options.service.workers = 4;
  // Calls still running at teardown are cancelled after this.
  options.grace = absl::Seconds(1);
  absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  server_ = *std::move(server);
  ASSERT_NE(server_->port(), 0);
  ASSERT_EQ(server_->address(), "127.0.0.1:" + std::to_string(server_->port()));
  channel_ = grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials());
}

void ServerTest::TearDownTestSuite() {
  channel_.reset();
  server_.reset();
}

BackgroundSolve::BackgroundSolve(v1::NQueensService::Stub& stub, uint64_t n,
                                 absl::Duration deadline) {
  request_.set_n(n);
  request_.set_method(v1::METHOD_RANDOM);
  context_.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  // The answer is never read (the call is cut first): the board may exceed
  // what a client takes by default.
  context_.AddMetadata(wire::kMaxResponseBytesKey, std::to_string(UINT64_MAX));
  thread_ = std::thread([this, &stub] { status_ = stub.Solve(&context_, request_, &response_); });
}

BackgroundSolve::~BackgroundSolve() {
  context_.TryCancel();
  if (thread_.joinable()) thread_.join();
}

grpc::Status BackgroundSolve::Wait() {
  thread_.join();
  return status_;
}

Columns ToColumns(const google::protobuf::RepeatedField<uint32_t>& columns) {
  return Columns(columns.begin(), columns.end());
}

Columns KnownSolution(uint32_t n) {
  SolveOptions options;
  options.seed = 1;
  absl::StatusOr<CompletionResult> solved = Solve(n, SolveMethod::kRandom, options);
  EXPECT_TRUE(solved.ok() && solved->outcome == Outcome::kSolved) << "n = " << n;
  if (!solved.ok()) return Columns(n, kEmptyRow);
  absl::StatusOr<ValidationReport> report = Validate(solved->columns);
  EXPECT_TRUE(report.ok() && report->complete) << "the known solution for n = " << n;
  return solved->columns;
}

void ExpectSolutionExtending(const Columns& solution, const Columns& composition) {
  ASSERT_EQ(solution.size(), composition.size());
  absl::StatusOr<ValidationReport> report = Validate(solution);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete) << report->attacking_pairs << " attacking pairs, "
                                << report->queen_count << " queens";
  for (size_t row = 0; row < composition.size(); ++row) {
    if (composition[row] == kEmptyRow) continue;
    ASSERT_EQ(solution[row], composition[row]) << "row " << row + 1 << " was moved";
  }
}

RawResult RawCall(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                  const std::string& request, const std::string& token) {
  return RawCall(channel, method, std::vector<std::string>{request}, token);
}

RawResult RawCall(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                  const std::vector<std::string>& requests, const std::string& token) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
  grpc::CompletionQueue queue;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> call =
      stub.PrepareCall(&context, method, &queue);
  // Each step is awaited before the next starts, so one tag suffices.
  int tag = 0;
  auto step_ok = [&queue, &tag] {
    void* got = nullptr;
    bool ok = false;
    EXPECT_TRUE(queue.Next(&got, &ok));
    EXPECT_EQ(got, &tag);
    return ok;
  };

  RawResult result;
  call->StartCall(&tag);
  step_ok();
  for (const std::string& request : requests) {
    grpc::Slice slice(request);
    call->Write(grpc::ByteBuffer(&slice, 1), &tag);
    if (!step_ok()) break;  // the server ended the call
  }
  call->WritesDone(&tag);
  step_ok();
  grpc::ByteBuffer response;
  for (call->Read(&response, &tag); step_ok(); call->Read(&response, &tag)) {
    grpc::Slice bytes;
    EXPECT_TRUE(response.DumpToSingleSlice(&bytes).ok());
    result.responses.emplace_back(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
  }
  call->Finish(&result.status, &tag);
  step_ok();
  queue.Shutdown();
  void* ignored_tag;
  bool ignored_ok;
  while (queue.Next(&ignored_tag, &ignored_ok)) {
  }
  return result;
}

std::string Encode(int field, const std::string& value) {
  google::protobuf::UnknownFieldSet fields;
  fields.AddLengthDelimited(field, value);
  std::string bytes;
  EXPECT_TRUE(fields.SerializeToString(&bytes));
  return bytes;
}

void ExpectStatus(const grpc::Status& status, grpc::StatusCode code, const std::string& needle) {
  EXPECT_EQ(status.error_code(), code) << status.error_message();
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr(needle));
}

std::unique_ptr<server::Server> StartLoopbackServer(server::ServerOptions options) {
  options.listen_addresses = {"127.0.0.1:0"};
  options.grace = absl::Seconds(1);
  absl::StatusOr<std::unique_ptr<server::Server>> server = server::Server::Start(options);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? *std::move(server) : nullptr;
}

std::unique_ptr<v1::NQueensService::Stub> StubFor(const server::Server& server) {
  return v1::NQueensService::NewStub(
      grpc::CreateChannel(server.address(), grpc::InsecureChannelCredentials()));
}

}  // namespace nqueens::testing
