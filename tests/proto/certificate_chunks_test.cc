// A certificate's chunks: their size for a stream's chunk_size, and their
// reassembly under the API's rules (in order, without gaps, up to the size
// the result header announced).
#include "wire/certificate_chunks.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "wire/limits.h"

namespace nqueens::wire {
namespace {

using ::testing::HasSubstr;

v1::CertificateChunk CertificateChunkAt(uint64_t offset, const std::string& data) {
  v1::CertificateChunk chunk;
  chunk.set_offset(offset);
  chunk.set_data(data);
  return chunk;
}

TEST(CertificateChunkBytesTest, ThreeBytesAColumnOfTheChunkSize) {
  EXPECT_EQ(CertificateChunkBytes(1), 3u);
  EXPECT_EQ(CertificateChunkBytes(0), 3u * kMaxChunkSize);  // 192 KiB
  EXPECT_EQ(CertificateChunkBytes(kMaxChunkSize + 1), 3u * kMaxChunkSize);
}

TEST(CertificateAssemblerTest, JoinsChunksInOrder) {
  CertificateAssembler assembler(7);
  EXPECT_TRUE(assembler.Add(CertificateChunkAt(0, "NQC")).ok());
  EXPECT_TRUE(assembler.Add(CertificateChunkAt(3, "ERT")).ok());
  EXPECT_EQ(assembler.received(), 6u);
  EXPECT_TRUE(assembler.Add(CertificateChunkAt(6, "\r")).ok());
  absl::StatusOr<std::string> whole = std::move(assembler).Finish();
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole, "NQCERT\r");
}

TEST(CertificateAssemblerTest, AGapOrAnOverlapIsRefusedNamingBothOffsets) {
  for (const uint64_t offset : {2u, 4u}) {
    CertificateAssembler assembler(9);
    ASSERT_TRUE(assembler.Add(CertificateChunkAt(0, "abc")).ok());
    const absl::Status added = assembler.Add(CertificateChunkAt(offset, "def"));
    EXPECT_EQ(added.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(added.message(), HasSubstr(absl::StrCat("at byte ", offset, ", expected byte 3")));
  }
}

TEST(CertificateAssemblerTest, ChunksPastTheSizeAreRefused) {
  CertificateAssembler assembler(4);
  ASSERT_TRUE(assembler.Add(CertificateChunkAt(0, "abc")).ok());
  EXPECT_THAT(assembler.Add(CertificateChunkAt(3, "de")).message(),
              HasSubstr("past its size of 4 bytes"));
}

TEST(CertificateAssemblerTest, ACertificateCutShortIsRefused) {
  CertificateAssembler assembler(6);
  ASSERT_TRUE(assembler.Add(CertificateChunkAt(0, "abc")).ok());
  absl::StatusOr<std::string> whole = std::move(assembler).Finish();
  EXPECT_EQ(whole.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(whole.status().message(), HasSubstr("end at byte 3 of 6"));
}

}  // namespace
}  // namespace nqueens::wire
