#include "command_line.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "gtest/gtest.h"

ABSL_FLAG(std::string, test_text, "", "a string flag");
ABSL_FLAG(bool, test_switch, false, "a boolean flag");
ABSL_FLAG(uint64_t, test_count, 0, "a number flag");
ABSL_FLAG(std::optional<uint64_t>, test_seed, std::nullopt, "an optional flag");

namespace nqueens::client {
namespace {

class ParseFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::SetFlag(&FLAGS_test_text, "");
    absl::SetFlag(&FLAGS_test_switch, false);
    absl::SetFlag(&FLAGS_test_count, 0);
    absl::SetFlag(&FLAGS_test_seed, std::nullopt);
  }

  static absl::StatusOr<std::vector<std::string>> Parse(std::vector<const char*> args) {
    args.insert(args.begin(), "nqueens");
    return ParseFlags(static_cast<int>(args.size()), args.data());
  }
};

TEST_F(ParseFlagsTest, SetsFlagsInEverySpellingAndKeepsPositionals) {
  const auto positional = Parse(
      {"solve", "--test_text=a", "8", "--test-count", "5", "-test_seed=9", "--test-switch", "-"});
  ASSERT_TRUE(positional.ok()) << positional.status();
  EXPECT_EQ(*positional, (std::vector<std::string>{"solve", "8", "-"}));
  EXPECT_EQ(absl::GetFlag(FLAGS_test_text), "a");
  EXPECT_EQ(absl::GetFlag(FLAGS_test_count), 5u);
  EXPECT_EQ(absl::GetFlag(FLAGS_test_seed), std::optional<uint64_t>(9));
  EXPECT_TRUE(absl::GetFlag(FLAGS_test_switch));
}

TEST_F(ParseFlagsTest, NegatesBooleansAndStopsAtDoubleDash) {
  absl::SetFlag(&FLAGS_test_switch, true);
  const auto positional = Parse({"--notest_switch", "--", "--test_count=3", "x"});
  ASSERT_TRUE(positional.ok()) << positional.status();
  EXPECT_FALSE(absl::GetFlag(FLAGS_test_switch));
  EXPECT_EQ(*positional, (std::vector<std::string>{"--test_count=3", "x"}));
  EXPECT_EQ(absl::GetFlag(FLAGS_test_count), 0u);
}

TEST_F(ParseFlagsTest, ReportsErrorsInsteadOfExiting) {
  struct Case {
    std::vector<const char*> args;
    std::string message;
  };
  const Case cases[] = {
      {{"--no_such_flag=1"}, "unknown flag --no_such_flag"},
      {{"-5"}, "unknown flag -5"},
      {{"--notest_count"}, "unknown flag --notest_count"},
      {{"--test_count"}, "missing value for --test_count"},
      {{"--notest_switch=true"}, "--notest_switch takes no value"},
  };
  for (const Case& c : cases) {
    const auto positional = Parse(c.args);
    ASSERT_FALSE(positional.ok()) << c.message;
    EXPECT_EQ(positional.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(positional.status().message(), c.message);
  }
  const auto bad_value = Parse({"--test-count=many"});
  ASSERT_FALSE(bad_value.ok());
  EXPECT_EQ(bad_value.status().message().rfind("invalid value \"many\" for --test-count: ", 0), 0u)
      << bad_value.status().message();
}

}  // namespace
}  // namespace nqueens::client
