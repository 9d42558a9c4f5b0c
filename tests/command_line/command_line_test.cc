#include "command_line/command_line.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "command_line/flag_file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(std::string, test_text, "", "a string flag");
ABSL_FLAG(bool, test_switch, false, "a boolean flag");
ABSL_FLAG(uint64_t, test_count, 0, "a number flag");
ABSL_FLAG(std::optional<uint64_t>, test_seed, std::nullopt, "an optional flag");
ABSL_FLAG(std::vector<std::string>, test_list, {}, "a list flag");
ABSL_FLAG(absl::Duration, test_wait, absl::Seconds(1), "a duration flag");
ABSL_FLAG(bool, help, false, "the help");

namespace nqueens::command_line {
namespace {

class ParseFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::SetFlag(&FLAGS_test_text, "");
    absl::SetFlag(&FLAGS_test_switch, false);
    absl::SetFlag(&FLAGS_test_count, 0);
    absl::SetFlag(&FLAGS_test_seed, std::nullopt);
    absl::SetFlag(&FLAGS_test_list, {});
    absl::SetFlag(&FLAGS_help, false);
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

TEST_F(ParseFlagsTest, TakesDashHAndNegativeNumbersAsTheyAreMeant) {
  const auto positional = Parse({"-h", "solve", "-5"});
  ASSERT_TRUE(positional.ok()) << positional.status();
  EXPECT_TRUE(absl::GetFlag(FLAGS_help));
  EXPECT_EQ(*positional, (std::vector<std::string>{"solve", "-5"}));
}

TEST_F(ParseFlagsTest, AListFlagGivenAgainAddsToItsList) {
  ASSERT_TRUE(Parse({"--test-list=a", "--test-list", "b,c"}).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_test_list), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(ParseFlagsTest, ADurationWithoutUnitSaysOneIsNeeded) {
  const auto parsed = Parse({"--test-wait", "10"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(std::string(parsed.status().message()),
              ::testing::HasSubstr("expected a duration with a unit"));
}

// A flag file named after the running test: CTest runs tests side by side.
std::string WriteFlagfile(const std::string& text) {
  static int files = 0;
  const std::string path = absl::StrCat(
      ::testing::TempDir(), "/", ::testing::UnitTest::GetInstance()->current_test_info()->name(),
      "-", ++files, ".flags");
  std::ofstream(path) << text;
  return path;
}

TEST_F(ParseFlagsTest, ReadsAFlagFileWithDashedNamesWhereItStands) {
  const std::string path =
      WriteFlagfile("# comment\n--test-count=7\n\n  --test-text=from file\n--test-list=a\n");
  const auto positional =
      Parse({"--flagfile", path.c_str(), "--test-text=later", "--test-list=b", "x"});
  ASSERT_TRUE(positional.ok()) << positional.status();
  EXPECT_EQ(*positional, std::vector<std::string>{"x"});
  EXPECT_EQ(absl::GetFlag(FLAGS_test_count), 7u);
  EXPECT_EQ(absl::GetFlag(FLAGS_test_text), "later");
  EXPECT_EQ(absl::GetFlag(FLAGS_test_list), (std::vector<std::string>{"a", "b"}));
}

TEST_F(ParseFlagsTest, AFlagFileErrorNamesTheFileAndLine) {
  const std::string path = WriteFlagfile("--test-count=7\n--test-count=many\n");
  const std::string bad_value = "--flagfile=" + path;
  const auto parsed = Parse({bad_value.c_str()});
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(std::string(parsed.status().message()),
              ::testing::StartsWith(path + ":2: invalid value \"many\" for --test-count"));
  const std::string positional = WriteFlagfile("solve\n");
  const std::string flag = "--flagfile=" + positional;
  const auto refused = Parse({flag.c_str()});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), positional + ":1: expected a flag");
}

TEST_F(ParseFlagsTest, TheEnvironmentSetsFlagsOfItsFileAndArgvWins) {
  const std::map<std::string, std::string> environment = {{"TEST_TEST_COUNT", "4"},
                                                          {"TEST_TEST_TEXT", "env"}};
  FlagSources sources;
  sources.defined_in = "command_line_test.cc";
  sources.environment_prefix = "TEST";
  sources.environment = [&](const std::string& name) -> std::optional<std::string> {
    auto found = environment.find(name);
    if (found == environment.end()) return std::nullopt;
    return found->second;
  };
  const char* args[] = {"nqueens", "--test-text=argv"};
  ASSERT_TRUE(ParseFlags(2, args, sources).ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_test_count), 4u);
  EXPECT_EQ(absl::GetFlag(FLAGS_test_text), "argv");
}

TEST_F(ParseFlagsTest, AFlagFileAboveOneMebibyteIsRefused) {
  const auto parsed = Parse({"--flagfile=/dev/zero"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(
      parsed.status().message(),
      "--flagfile /dev/zero: larger than 1 MiB, the most a file named by --flagfile may hold");
}

TEST(ReadFlagFileTest, ReadsAFileOfExactlyTheLimit) {
  const std::string path = WriteFlagfile(std::string(1000, 'a'));
  const absl::StatusOr<std::string> read = ReadFlagFile("--tls-cert", path, 1000);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, std::string(1000, 'a'));
}

TEST(ReadFlagFileTest, RefusesOneByteMoreNamingTheFlagFileAndLimit) {
  const std::string path = WriteFlagfile(std::string(1001, 'a'));
  const absl::StatusOr<std::string> read = ReadFlagFile("--tls-cert", path, 1000);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(read.status().message(), "--tls-cert " + path +
                                         ": larger than 1000 bytes, the most a file named by "
                                         "--tls-cert may hold");
}

// A device without end is read up to the limit only.
TEST(ReadFlagFileTest, StopsReadingAnEndlessFileAtTheLimit) {
  const absl::StatusOr<std::string> read = ReadFlagFile("--auth-token-file", "/dev/zero");
  EXPECT_THAT(std::string(read.status().message()),
              ::testing::StartsWith("--auth-token-file /dev/zero: larger than 1 MiB"));
}

TEST(ReadFlagFileTest, AMissingFileIsNamedWithTheReason) {
  const absl::StatusOr<std::string> read = ReadFlagFile("--tls-key", "/nonexistent/key.pem");
  EXPECT_EQ(read.status().message(), "--tls-key /nonexistent/key.pem: No such file or directory");
}

TEST(FlagHelpTest, ListsTheFlagsOfAFileDashedWithDefaultsAndWrappedHelp) {
  const std::string help = FlagHelp("command_line_test.cc");
  EXPECT_THAT(help, ::testing::HasSubstr("  --test-count=0\n      a number flag\n"));
  EXPECT_THAT(help, ::testing::HasSubstr("  --test-text=\"\"\n      a string flag\n"));
  EXPECT_LT(help.find("--test-count"), help.find("--test-text"));  // sorted
}

TEST(VersionLineTest, NamesTheProgramVersionRevisionAndBuild) {
  EXPECT_THAT(VersionLine("nqueens"),
              ::testing::MatchesRegex("nqueens [0-9.]+ \\(git [^,]+, [A-Za-z]+ build\\)"));
}

}  // namespace
}  // namespace nqueens::command_line
