// Checks, inputs and temporary files shared by the client's tests. Results
// are judged with nqueens::Validate, never by trusting the solver.
#ifndef NQUEENS_TESTS_CLIENT_TEST_UTIL_H_
#define NQUEENS_TESTS_CLIENT_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "nqueens/board.h"
#include "subprocess.h"

namespace nqueens::testing {

// Success when `solution` is a full solution with every queen of
// `composition` in place.
::testing::AssertionResult IsSolutionExtending(absl::Span<const uint32_t> solution,
                                               absl::Span<const uint32_t> composition);

// A composition of the n x n board: the queens of every stride-th row of the
// constructive solution (rows 1, 1 + stride, ...), the other rows empty.
Columns ThinnedSolution(uint32_t n, uint32_t stride);

// The CLI's errors are one line on stderr, "nqueens: ...", that contains
// `part`.
void ExpectOneErrorLine(const ProcessResult& result, absl::string_view part);

// The CLI's --json objects, read back with protobuf's JSON parser.
template <typename Message>
Message FromJson(const std::string& json) {
  Message message;
  const auto parsed = google::protobuf::util::JsonStringToMessage(json, &message);
  EXPECT_TRUE(parsed.ok()) << parsed.ToString() << ": " << json;
  return message;
}

// A path in the test's temporary directory that no other test uses, even
// when ctest runs tests in parallel: named after the running test.
std::string TempPath(absl::string_view suffix);

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_CLIENT_TEST_UTIL_H_
