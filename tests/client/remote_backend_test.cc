// The remote backend in process, against a real nqueens-server subprocess,
// over a channel whose interceptor records which RPC each call used and how
// the board travelled (queens or dense columns).
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/support/client_interceptor.h>

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "checker/certificate_check.h"
#include "client/backends/backend.h"
#include "gtest/gtest.h"
#include "nqueens/v1/nqueens.pb.h"
#include "nqueens/validate.h"
#include "server_process.h"
#include "test_util.h"

namespace nqueens::testing {
namespace {

using client::Board;
using grpc::experimental::ClientRpcInfo;
using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::InterceptorBatchMethods;

// What one call sent.
struct SentCall {
  std::string method;  // e.g. "/nqueens.v1.NQueensService/SolveStream"
  int messages = 0;
  int queens = 0;   // sparse board entries
  int columns = 0;  // dense board entries
};

void CountBoard(const v1::CompleteRequest& request, SentCall& call) {
  call.queens += request.queens_size();
  call.columns += request.columns_size();
}
void CountBoard(const v1::ValidateRequest& request, SentCall& call) {
  call.queens += request.queens_size();
  call.columns += request.columns_size();
}
template <typename StreamRequest>  // CompleteStreamRequest, ValidateStreamRequest
void CountStreamBoard(const StreamRequest& request, SentCall& call) {
  call.queens += request.header().queens_size();
  call.columns += request.chunk().columns_size();
}

class RecordingInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit RecordingInterceptor(SentCall* call) : call_(call) {}

  void Intercept(InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      Count(methods);
    }
    methods->Proceed();
  }

 private:
  // The message's type follows from the method. The streams' messages are
  // sent serialized (client/backends/remote_backend.cc), so they are read back.
  void Count(InterceptorBatchMethods* methods) {
    ++call_->messages;
    const void* message = methods->GetSendMessage();
    const std::string& method = call_->method;
    if (method == "/nqueens.v1.NQueensService/Complete") {
      CountBoard(*static_cast<const v1::CompleteRequest*>(message), *call_);
    } else if (method == "/nqueens.v1.NQueensService/Validate") {
      CountBoard(*static_cast<const v1::ValidateRequest*>(message), *call_);
    } else if (method == "/nqueens.v1.NQueensService/CompleteStream") {
      CountStreamBoard(Parsed<v1::CompleteStreamRequest>(methods), *call_);
    } else if (method == "/nqueens.v1.NQueensService/ValidateStream") {
      CountStreamBoard(Parsed<v1::ValidateStreamRequest>(methods), *call_);
    }
  }

  template <typename Message>
  static Message Parsed(InterceptorBatchMethods* methods) {
    grpc::ByteBuffer bytes(*methods->GetSerializedSendMessage());
    Message message;
    EXPECT_TRUE(grpc::SerializationTraits<Message>::Deserialize(&bytes, &message).ok());
    return message;
  }

  SentCall* call_;
};

class RecordingFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit RecordingFactory(std::deque<SentCall>* calls) : calls_(calls) {}

  grpc::experimental::Interceptor* CreateClientInterceptor(ClientRpcInfo* info) override {
    calls_->push_back(SentCall{info->method()});
    return new RecordingInterceptor(&calls_->back());
  }

 private:
  std::deque<SentCall>* calls_;  // a deque: its elements never move
};

// Asks CompleteStream for the smallest chunks (chunk_size 1: 3 bytes of
// certificate each), so that a small proof comes in chunks after the
// header as a long one does; counts the certificate chunks received.
class SmallChunksInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit SmallChunksInterceptor(int* certificate_chunks)
      : certificate_chunks_(certificate_chunks) {}

  void Intercept(InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE)) {
      AskSmallChunks(*methods->GetSerializedSendMessage());
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        methods->GetRecvMessage() != nullptr) {
      const v1::CompleteStreamResponse response = Parsed<v1::CompleteStreamResponse>(
          *static_cast<grpc::ByteBuffer*>(methods->GetRecvMessage()));
      *certificate_chunks_ += response.has_certificate();
    }
    methods->Proceed();
  }

 private:
  static void AskSmallChunks(grpc::ByteBuffer& bytes) {
    v1::CompleteStreamRequest request = Parsed<v1::CompleteStreamRequest>(bytes);
    if (!request.has_header()) return;
    request.mutable_header()->set_chunk_size(1);
    bool own_buffer = false;
    ASSERT_TRUE(grpc::SerializationTraits<v1::CompleteStreamRequest>::Serialize(request, &bytes,
                                                                                &own_buffer)
                    .ok());
  }

  template <typename Message>
  static Message Parsed(const grpc::ByteBuffer& bytes) {
    grpc::ByteBuffer copy(bytes);  // parsing consumes it
    Message message;
    EXPECT_TRUE(grpc::SerializationTraits<Message>::Deserialize(&copy, &message).ok());
    return message;
  }

  int* certificate_chunks_;
};

class SmallChunksFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit SmallChunksFactory(int* certificate_chunks) : certificate_chunks_(certificate_chunks) {}

  grpc::experimental::Interceptor* CreateClientInterceptor(ClientRpcInfo* info) override {
    EXPECT_STREQ(info->method(), "/nqueens.v1.NQueensService/CompleteStream");
    return new SmallChunksInterceptor(certificate_chunks_);
  }

 private:
  int* certificate_chunks_;
};

class RemoteBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(server_.address().empty());
    std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> factories;
    factories.push_back(std::make_unique<RecordingFactory>(&calls_));
    backend_ = client::MakeRemoteBackend(grpc::experimental::CreateCustomChannelWithInterceptors(
                                             server_.address(), grpc::InsecureChannelCredentials(),
                                             grpc::ChannelArguments(), std::move(factories)),
                                         server_.address());
  }

  // The one call made since the last look.
  SentCall TakeCall() {
    EXPECT_EQ(calls_.size(), 1u);
    SentCall call = calls_.empty() ? SentCall{} : calls_.back();
    calls_.clear();
    return call;
  }

  static Board Dense(Columns columns) {
    Board board;
    board.n = columns.size();
    board.columns = std::move(columns);
    return board;
  }

  ServerProcess server_;
  std::deque<SentCall> calls_;
  std::unique_ptr<client::Backend> backend_;
};

TEST_F(RemoteBackendTest, SolveStreamsAboveThreshold) {
  for (uint32_t n : {65536u, 65537u}) {
    SCOPED_TRACE(n);
    absl::StatusOr<CompletionResult> result = backend_->Solve(n, SolveMethod::kConstructive, {});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->outcome, Outcome::kSolved);
    EXPECT_TRUE(IsSolutionExtending(result->columns, Columns(n, 0)));
    EXPECT_EQ(TakeCall().method, n == 65536 ? "/nqueens.v1.NQueensService/Solve"
                                            : "/nqueens.v1.NQueensService/SolveStream");
  }
}

TEST_F(RemoteBackendTest, CompleteSendsFewQueensSparse) {
  const Columns composition = ThinnedSolution(1000, 10);  // 100 < 1000 / 8
  absl::StatusOr<CompletionResult> result = backend_->Complete(Dense(composition), {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(IsSolutionExtending(result->columns, composition));
  const SentCall call = TakeCall();
  EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/Complete");
  EXPECT_EQ(call.queens, 100);
  EXPECT_EQ(call.columns, 0);
}

TEST_F(RemoteBackendTest, CompleteSendsManyQueensDense) {
  const Columns composition = ThinnedSolution(1000, 4);  // 250 >= 1000 / 8
  Board sparse = Dense(composition);
  client::MakeSparse(sparse);
  absl::StatusOr<CompletionResult> result = backend_->Complete(sparse, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(IsSolutionExtending(result->columns, composition));
  const SentCall call = TakeCall();
  EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/Complete");
  EXPECT_EQ(call.queens, 0);
  EXPECT_EQ(call.columns, 1000);
}

TEST_F(RemoteBackendTest, CompleteStreamsLargeBoards) {
  const Columns few = ThinnedSolution(70000, 1000);  // 70 < 70,000 / 8
  absl::StatusOr<CompletionResult> result = backend_->Complete(Dense(few), {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(IsSolutionExtending(result->columns, few));
  SentCall call = TakeCall();
  EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/CompleteStream");
  EXPECT_EQ(call.messages, 1);  // the header, holding the queens
  EXPECT_EQ(call.queens, 70);
  EXPECT_EQ(call.columns, 0);

  const Columns many = ThinnedSolution(70000, 7);  // 10,000 >= 70,000 / 8
  result = backend_->Complete(Dense(many), {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(IsSolutionExtending(result->columns, many));
  call = TakeCall();
  EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/CompleteStream");
  EXPECT_EQ(call.messages, 3);  // the header and chunks of 65,536 + 4,464
  EXPECT_EQ(call.queens, 0);
  EXPECT_EQ(call.columns, 70000);
}

TEST_F(RemoteBackendTest, ValidateStreamsLargeBoards) {
  Columns board = ThinnedSolution(70000, 1);
  board[1] = board[0];  // rows 1 and 2 now share a column
  const absl::StatusOr<ValidationReport> expected = Validate(board);
  ASSERT_TRUE(expected.ok());
  ASSERT_FALSE(expected->valid);

  absl::StatusOr<ValidationReport> report = backend_->Validate(Dense(board), {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->valid, expected->valid);
  EXPECT_EQ(report->complete, expected->complete);
  EXPECT_EQ(report->queen_count, 70000u);
  EXPECT_EQ(report->attacking_pairs, expected->attacking_pairs);
  ASSERT_EQ(report->conflicts.size(), expected->conflicts.size());
  for (size_t i = 0; i < report->conflicts.size(); ++i) {
    EXPECT_EQ(report->conflicts[i].first, expected->conflicts[i].first);
    EXPECT_EQ(report->conflicts[i].second, expected->conflicts[i].second);
    EXPECT_EQ(report->conflicts[i].line, expected->conflicts[i].line);
  }
  const SentCall call = TakeCall();
  EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/ValidateStream");
  EXPECT_EQ(call.columns, 70000);
}

// Sparse queens travel in one message (the stream's header), so their number
// is capped: above kMaxSparseQueens a board goes dense, however sparse.
TEST_F(RemoteBackendTest, SendsAtMostMaxSparseQueensSparse) {
  constexpr uint32_t n = 9'000'000;  // n / 8 > kMaxSparseQueens + 1
  const Columns solution = ThinnedSolution(n, 1);
  for (uint64_t k : {client::kMaxSparseQueens, client::kMaxSparseQueens + 1}) {
    SCOPED_TRACE(k);
    Columns board(n, kEmptyRow);
    for (uint64_t i = 0; i < k; ++i) board[i * 8] = solution[i * 8];
    absl::StatusOr<ValidationReport> report = backend_->Validate(Dense(std::move(board)), {});
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->valid);
    EXPECT_EQ(report->queen_count, k);
    const SentCall call = TakeCall();
    EXPECT_EQ(call.method, "/nqueens.v1.NQueensService/ValidateStream");
    const bool sparse = k <= client::kMaxSparseQueens;
    EXPECT_EQ(call.queens, sparse ? static_cast<int>(k) : 0);
    EXPECT_EQ(call.columns, sparse ? 0 : static_cast<int>(n));
  }
}

TEST_F(RemoteBackendTest, ValidateSendsSmallBoardsUnary) {
  absl::StatusOr<ValidationReport> report = backend_->Validate(Dense(ThinnedSolution(100, 1)), {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->complete);
  EXPECT_EQ(TakeCall().method, "/nqueens.v1.NQueensService/Validate");
}

TEST_F(RemoteBackendTest, AttackingCompositionIsInvalidArgument) {
  Columns composition(8, kEmptyRow);
  composition[1] = 3;
  composition[4] = 6;  // (2, 3) and (5, 6) share a diagonal
  absl::StatusOr<CompletionResult> result = backend_->Complete(Dense(composition), {});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(RemoteBackendTest, ACertificateComesOverTheStreamInTheFormatAsked) {
  const Columns corner = {1, 0, 0, 0};  // no 4 x 4 solution has a corner queen
  for (const auto& [format, start] :
       {std::pair{CertificateFormat::kBinary, "NQCERT\r\n"},
        std::pair{CertificateFormat::kText, "nqueens-certificate 1\n"}}) {
    SCOPED_TRACE(start);
    client::RunOptions options;
    options.want_certificate = true;
    options.certificate_format = format;
    absl::StatusOr<CompletionResult> result = backend_->Complete(Dense(corner), options);
    ASSERT_TRUE(result.ok()) << result.status();
    ASSERT_EQ(result->outcome, Outcome::kUnsolvable);
    ASSERT_TRUE(result->certificate.has_value()) << result->certificate_missing;
    EXPECT_TRUE(absl::StartsWith(*result->certificate, start));
    const absl::Status checked = checker::CheckCertificate(corner, *result->certificate);
    EXPECT_TRUE(checked.ok()) << checked;
    // A certificate may be longer than one message: the stream, not Complete.
    EXPECT_EQ(TakeCall().method, "/nqueens.v1.NQueensService/CompleteStream");
  }
}

TEST_F(RemoteBackendTest, ACertificateInChunksArrivesWhole) {
  int certificate_chunks = 0;
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> factories;
  factories.push_back(std::make_unique<SmallChunksFactory>(&certificate_chunks));
  const std::unique_ptr<client::Backend> backend =
      client::MakeRemoteBackend(grpc::experimental::CreateCustomChannelWithInterceptors(
                                    server_.address(), grpc::InsecureChannelCredentials(),
                                    grpc::ChannelArguments(), std::move(factories)),
                                server_.address());
  const Columns corner = {1, 0, 0, 0};
  client::RunOptions options;
  options.want_certificate = true;
  absl::StatusOr<CompletionResult> result = backend->Complete(Dense(corner), options);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE(result->certificate.has_value()) << result->certificate_missing;
  const std::string& certificate = *result->certificate;
  EXPECT_EQ(static_cast<size_t>(certificate_chunks), (certificate.size() + 2) / 3);
  EXPECT_GT(certificate_chunks, 1);
  EXPECT_TRUE(absl::StartsWith(certificate, "NQCERT\r\n"));
  const absl::Status checked = checker::CheckCertificate(corner, certificate);
  EXPECT_TRUE(checked.ok()) << checked;
}

TEST_F(RemoteBackendTest, SeedIsSentAndReported) {
  client::RunOptions options;
  options.seed = 12345;
  absl::StatusOr<CompletionResult> result = backend_->Solve(100, SolveMethod::kRandom, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->stats.seed, 12345u);
  EXPECT_TRUE(IsSolutionExtending(result->columns, Columns(100, 0)));
}

}  // namespace
}  // namespace nqueens::testing
