#include "wire/request_id.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens::wire {
namespace {

TEST(RequestIdTest, UsableIdsAreVisibleAsciiAndBounded) {
  EXPECT_TRUE(IsUsableRequestId("a"));
  EXPECT_TRUE(IsUsableRequestId("req-42_{x}:!~"));
  EXPECT_TRUE(IsUsableRequestId(std::string(kMaxRequestIdLength, 'x')));
  EXPECT_FALSE(IsUsableRequestId(""));
  EXPECT_FALSE(IsUsableRequestId(std::string(kMaxRequestIdLength + 1, 'x')));
  EXPECT_FALSE(IsUsableRequestId("with space"));
  EXPECT_FALSE(IsUsableRequestId("line\nbreak"));
  EXPECT_FALSE(IsUsableRequestId("tab\t"));
  EXPECT_FALSE(IsUsableRequestId("\x7f"));
  EXPECT_FALSE(IsUsableRequestId("caf\xc3\xa9"));
}

TEST(RequestIdTest, NewIdsAre32HexDigitsAndDiffer) {
  const std::string first = NewRequestId();
  EXPECT_THAT(first, ::testing::MatchesRegex("[0-9a-f]{32}"));
  EXPECT_TRUE(IsUsableRequestId(first));
  EXPECT_NE(NewRequestId(), first);
}

}  // namespace
}  // namespace nqueens::wire
