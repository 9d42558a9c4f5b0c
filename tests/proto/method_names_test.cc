// The core's method tables and the service's enums name the same methods
// with the same numbers, so the server converts one to the other by value.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.pb.h"
#include "wire/convert.h"

namespace nqueens::wire {
namespace {

// The CLI's spelling of a wire name: lower case, with hyphens.
std::string CliSpelling(const std::string& name) {
  return absl::StrReplaceAll(absl::AsciiStrToLower(name), {{"_", "-"}});
}

TEST(MethodNamesTest, EverySolveMethodHasTheProtosNumberAndName) {
  ASSERT_EQ(SolveMethods().size(), static_cast<size_t>(v1::Method_MAX) + 1);
  for (size_t i = 0; i < SolveMethods().size(); ++i) {
    const SolveMethodInfo& info = SolveMethods()[i];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(static_cast<size_t>(info.method), i);
    EXPECT_EQ(v1::Method_Name(MethodToProto(info.method)), info.name);
    EXPECT_EQ(SolveMethodName(info.method), std::string(info.name));
    EXPECT_EQ(CliSpelling(info.name), info.cli_name);
  }
}

TEST(MethodNamesTest, EveryCompleteMethodHasTheProtosNumberAndName) {
  ASSERT_EQ(CompleteMethods().size(), static_cast<size_t>(v1::CompleteMethod_MAX) + 1);
  for (size_t i = 0; i < CompleteMethods().size(); ++i) {
    const MethodInfo<CompleteMethod>& info = CompleteMethods()[i];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(static_cast<size_t>(info.method), i);
    EXPECT_EQ(v1::CompleteMethod_Name(CompleteMethodToProto(info.method)),
              std::string("COMPLETE_METHOD_") + info.name);
    EXPECT_EQ(CompleteMethodName(info.method), std::string(info.name));
    EXPECT_EQ(CliSpelling(info.name), info.cli_name);
  }
}

TEST(MethodNamesTest, AValueBeyondTheEnumIsRefusedNamingTheRange) {
  absl::StatusOr<SolveMethod> method = MethodFromProto(static_cast<v1::Method>(99));
  ASSERT_FALSE(method.ok());
  EXPECT_THAT(std::string(method.status().message()),
              testing::HasSubstr("99 is not one of CONSTRUCTIVE (0) .. FORMULA (5)"));
  absl::StatusOr<CompleteMethod> complete =
      CompleteMethodFromProto(static_cast<v1::CompleteMethod>(7));
  ASSERT_FALSE(complete.ok());
  EXPECT_THAT(std::string(complete.status().message()),
              testing::HasSubstr("COMPLETE_METHOD_PIPELINE (0) .. COMPLETE_METHOD_EXACT (2)"));
}

}  // namespace
}  // namespace nqueens::wire
