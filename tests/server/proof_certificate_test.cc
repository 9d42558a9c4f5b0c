// UNSOLVABLE certificates delivered through a real server: in the format
// asked (text when unset, as API 1.0 sent it), whole in a unary answer, and
// over CompleteStream in chunks after the header when longer than one
// chunk. Small chunk sizes make a small proof span many chunks. Every
// certificate is checked by the independent checker.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "checker/certificate_check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "test_server.h"
#include "wire/certificate_chunks.h"

namespace nqueens::testing {
namespace {

using ::testing::HasSubstr;

// No 4 x 4 solution has a queen in a corner; this 10 x 10 composition has
// no completion either (tests/http/http_api_test.py checks it by its
// checker too).
const Columns kCorner = {1, 0, 0, 0};
const Columns kUnsolvable10 = {1, 0, 0, 0, 2, 0, 0, 0, 0, 8};

constexpr char kBinaryMagic[] = "NQCERT\r\n";
constexpr char kTextFirstLine[] = "nqueens-certificate 1\n";

// A CompleteStream answer: its header, and the certificate as the header
// holds it or as its chunks bring it (their order checked by
// CertificateAssembler).
struct StreamedCertificate {
  grpc::Status status;
  v1::ResultHeader header;
  int chunks = 0;
  std::string certificate;
};

StreamedCertificate CompleteStream(const std::shared_ptr<grpc::Channel>& channel,
                                   const Columns& composition, v1::CertificateFormat format,
                                   uint32_t chunk_size) {
  v1::CompleteStreamRequest request;
  v1::CompleteStreamHeader& header = *request.mutable_header();
  header.set_n(composition.size());
  for (uint32_t row = 0; row < composition.size(); ++row) {
    if (composition[row] == kEmptyRow) continue;
    v1::Queen& queen = *header.add_queens();
    queen.set_row(row + 1);
    queen.set_column(composition[row]);
  }
  header.set_method(v1::COMPLETE_METHOD_EXACT);
  header.set_want_certificate(true);
  header.set_certificate_format(format);
  header.set_chunk_size(chunk_size);
  grpc::ClientContext context;
  std::unique_ptr<v1::NQueensService::Stub> stub = v1::NQueensService::NewStub(channel);
  auto stream = stub->CompleteStream(&context);
  EXPECT_TRUE(stream->Write(request));
  EXPECT_TRUE(stream->WritesDone());
  StreamedCertificate result;
  v1::CompleteStreamResponse message;
  if (stream->Read(&message)) {
    EXPECT_TRUE(message.has_header());
    result.header = message.header();
    result.certificate = result.header.certificate();
    wire::CertificateAssembler chunks(result.header.certificate_size());
    while (stream->Read(&message)) {
      EXPECT_TRUE(message.has_certificate());
      EXPECT_LE(message.certificate().data().size(), wire::CertificateChunkBytes(chunk_size));
      const absl::Status added = chunks.Add(message.certificate());
      EXPECT_TRUE(added.ok()) << added;
      ++result.chunks;
    }
    if (result.chunks > 0) {
      absl::StatusOr<std::string> whole = std::move(chunks).Finish();
      EXPECT_TRUE(whole.ok()) << whole.status();
      if (whole.ok()) result.certificate = *std::move(whole);
    }
  }
  result.status = stream->Finish();
  return result;
}

void ExpectProof(const Columns& composition, const std::string& certificate) {
  const absl::Status checked = checker::CheckCertificate(composition, certificate);
  EXPECT_TRUE(checked.ok()) << checked;
}

class ProofCertificateTest : public ServerTest {};

TEST_F(ProofCertificateTest, ABinaryCertificateLongerThanAChunkFollowsTheHeaderInChunks) {
  for (const Columns& composition : {kCorner, kUnsolvable10}) {
    SCOPED_TRACE(composition.size());
    const StreamedCertificate streamed =
        CompleteStream(channel(), composition, v1::CERTIFICATE_FORMAT_BINARY, 1);
    ASSERT_TRUE(streamed.status.ok()) << streamed.status.error_message();
    EXPECT_EQ(streamed.header.outcome(), v1::OUTCOME_UNSOLVABLE);
    EXPECT_EQ(streamed.header.certificate(), "");  // it follows in chunks
    EXPECT_EQ(streamed.header.certificate_missing(), "");
    // Chunks of 3 bytes: every one full but the last.
    EXPECT_EQ(static_cast<uint64_t>(streamed.chunks), (streamed.header.certificate_size() + 2) / 3);
    EXPECT_GT(streamed.chunks, 1);
    EXPECT_EQ(streamed.certificate.size(), streamed.header.certificate_size());
    EXPECT_TRUE(absl::StartsWith(streamed.certificate, kBinaryMagic));
    ExpectProof(composition, streamed.certificate);
  }
}

TEST_F(ProofCertificateTest, ATextCertificateIsTextWhetherWholeOrInChunks) {
  for (const uint32_t chunk_size : {1u, 0u}) {  // 3-byte chunks; 192 KiB ones
    SCOPED_TRACE(chunk_size);
    const StreamedCertificate streamed =
        CompleteStream(channel(), kUnsolvable10, v1::CERTIFICATE_FORMAT_TEXT, chunk_size);
    ASSERT_TRUE(streamed.status.ok()) << streamed.status.error_message();
    EXPECT_EQ(streamed.chunks > 0, chunk_size == 1);
    EXPECT_EQ(streamed.certificate.size(), streamed.header.certificate_size());
    EXPECT_TRUE(absl::StartsWith(streamed.certificate, kTextFirstLine)) << streamed.certificate;
    ExpectProof(kUnsolvable10, streamed.certificate);
  }
}

TEST_F(ProofCertificateTest, AnUnsetFormatIsTextWholeInTheHeaderAsApiOneSentIt) {
  // A client of API 1.0 knows no CertificateChunk: it gets no chunks, even
  // of 3 bytes.
  const StreamedCertificate streamed =
      CompleteStream(channel(), kUnsolvable10, v1::CERTIFICATE_FORMAT_UNSPECIFIED, 1);
  ASSERT_TRUE(streamed.status.ok()) << streamed.status.error_message();
  EXPECT_EQ(streamed.chunks, 0);
  EXPECT_EQ(streamed.header.certificate_size(), streamed.header.certificate().size());
  EXPECT_TRUE(absl::StartsWith(streamed.header.certificate(), kTextFirstLine));
  ExpectProof(kUnsolvable10, streamed.header.certificate());
}

TEST_F(ProofCertificateTest, CompleteAnswersTheFormatAskedUnsetMeaningText) {
  for (const auto& [format, start] : {std::pair{v1::CERTIFICATE_FORMAT_UNSPECIFIED, kTextFirstLine},
                                      std::pair{v1::CERTIFICATE_FORMAT_TEXT, kTextFirstLine},
                                      std::pair{v1::CERTIFICATE_FORMAT_BINARY, kBinaryMagic}}) {
    SCOPED_TRACE(v1::CertificateFormat_Name(format));
    v1::CompleteRequest request;
    request.set_n(kUnsolvable10.size());
    request.mutable_columns()->Assign(kUnsolvable10.begin(), kUnsolvable10.end());
    request.set_want_certificate(true);
    request.set_certificate_format(format);
    v1::CompleteResponse response;
    grpc::ClientContext context;
    const grpc::Status status = stub().Complete(&context, request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.outcome(), v1::OUTCOME_UNSOLVABLE);
    EXPECT_TRUE(absl::StartsWith(response.certificate(), start)) << response.certificate_missing();
    ExpectProof(kUnsolvable10, response.certificate());
  }
}

TEST_F(ProofCertificateTest, AnUnknownFormatIsInvalidArgumentNamingTheField) {
  v1::CompleteRequest request;
  request.set_n(4);
  request.set_want_certificate(true);
  request.set_certificate_format(static_cast<v1::CertificateFormat>(7));
  v1::CompleteResponse response;
  grpc::ClientContext context;
  ExpectStatus(stub().Complete(&context, request, &response), grpc::StatusCode::INVALID_ARGUMENT,
               "certificate_format 7 is not one of CERTIFICATE_FORMAT_UNSPECIFIED (0)");
}

}  // namespace
}  // namespace nqueens::testing
