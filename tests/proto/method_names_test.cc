// The core's method tables and the service's enums name the same methods:
// the proto's value is the core's name behind the enum's prefix, and the
// proto's zero value is the default method.
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

TEST(MethodNamesTest, EverySolveMethodHasTheProtosName) {
  // Every value but METHOD_UNSPECIFIED is a method.
  ASSERT_EQ(SolveMethods().size(), static_cast<size_t>(v1::Method_descriptor()->value_count()) - 1);
  for (size_t i = 0; i < SolveMethods().size(); ++i) {
    const SolveMethodInfo& info = SolveMethods()[i];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(static_cast<size_t>(info.method), i);
    EXPECT_EQ(v1::Method_Name(MethodToProto(info.method)), std::string("METHOD_") + info.name);
    EXPECT_EQ(MethodFromProto(MethodToProto(info.method)).value(), info.method);
    EXPECT_EQ(SolveMethodName(info.method), std::string(info.name));
    EXPECT_EQ(CliSpelling(info.name), info.cli_name);
  }
}

TEST(MethodNamesTest, EveryCompleteMethodHasTheProtosName) {
  ASSERT_EQ(CompleteMethods().size(),
            static_cast<size_t>(v1::CompleteMethod_descriptor()->value_count()) - 1);
  for (size_t i = 0; i < CompleteMethods().size(); ++i) {
    const MethodInfo<CompleteMethod>& info = CompleteMethods()[i];
    SCOPED_TRACE(info.name);
    EXPECT_EQ(static_cast<size_t>(info.method), i);
    EXPECT_EQ(v1::CompleteMethod_Name(CompleteMethodToProto(info.method)),
              std::string("COMPLETE_METHOD_") + info.name);
    EXPECT_EQ(CompleteMethodFromProto(CompleteMethodToProto(info.method)).value(), info.method);
    EXPECT_EQ(CompleteMethodName(info.method), std::string(info.name));
    EXPECT_EQ(CliSpelling(info.name), info.cli_name);
  }
}

TEST(MethodNamesTest, TheUnspecifiedValueIsTheDefaultMethod) {
  EXPECT_EQ(MethodFromProto(v1::METHOD_UNSPECIFIED).value(), SolveMethod::kConstructive);
  EXPECT_EQ(CompleteMethodFromProto(v1::COMPLETE_METHOD_UNSPECIFIED).value(),
            CompleteMethod::kPipeline);
}

TEST(MethodNamesTest, AValueBeyondTheEnumIsRefusedListingTheValues) {
  absl::StatusOr<SolveMethod> method = MethodFromProto(static_cast<v1::Method>(99));
  ASSERT_FALSE(method.ok());
  EXPECT_EQ(method.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(method.status().message()),
              testing::HasSubstr("method 99 is not one of METHOD_UNSPECIFIED (0), METHOD_RANDOM "
                                 "(1), METHOD_MIN_CONFLICTS (2)"));
  EXPECT_THAT(std::string(method.status().message()),
              testing::HasSubstr("METHOD_CONSTRUCTIVE (6)"));
  absl::StatusOr<CompleteMethod> complete =
      CompleteMethodFromProto(static_cast<v1::CompleteMethod>(7));
  ASSERT_FALSE(complete.ok());
  EXPECT_THAT(std::string(complete.status().message()),
              testing::HasSubstr("COMPLETE_METHOD_EXACT (2), COMPLETE_METHOD_PIPELINE (3)"));
}

}  // namespace
}  // namespace nqueens::wire
