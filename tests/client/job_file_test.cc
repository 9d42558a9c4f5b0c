#include "client/parts/job_file.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_util.h"

namespace nqueens::client {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

const JobHeader kHeader = {
    {"command", "count"}, {"n", "14"}, {"board", "00ff"}, {"part_count", "64"}};

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

class JobFileTest : public ::testing::Test {
 protected:
  void SetUp() override { std::remove(path_.c_str()); }
  const std::string path_ = nqueens::testing::TempPath(".job");
};

TEST_F(JobFileTest, AReopenedFileGivesBackItsRecords) {
  {
    absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_TRUE((*file)->recorded().empty());
    ASSERT_TRUE((*file)->Append(7, "{\"solutions\":\"3\"}\n").ok());
    ASSERT_TRUE((*file)->Append(2, "{\"solutions\":\"5\"}").ok());
  }
  EXPECT_EQ(ReadFile(path_),
            "{\"nqueens_job\":{\"command\":\"count\",\"n\":\"14\",\"board\":\"00ff\","
            "\"part_count\":\"64\"}}\n"
            "{\"part\":7,\"result\":{\"solutions\":\"3\"}}\n"
            "{\"part\":2,\"result\":{\"solutions\":\"5\"}}\n");
  absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_THAT((*file)->recorded(),
              ElementsAre(Pair(2, "{\"solutions\":\"5\"}"), Pair(7, "{\"solutions\":\"3\"}")));
}

TEST_F(JobFileTest, DropsATornLastLineAndWritesOnAFreshLine) {
  {
    absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
    ASSERT_TRUE(file.ok()) << file.status();
    ASSERT_TRUE((*file)->Append(1, "{}").ok());
  }
  std::ofstream(path_, std::ios::app) << "{\"part\":3,\"res";  // a write cut short
  {
    absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ((*file)->recorded().size(), 1u);
    ASSERT_TRUE((*file)->Append(3, "{}").ok());
  }
  absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_THAT((*file)->recorded(), ElementsAre(Pair(1, "{}"), Pair(3, "{}")));
}

TEST_F(JobFileTest, RefusesAnotherJobsFileNamingWhatDiffers) {
  ASSERT_TRUE(JobFile::Open(path_, kHeader).ok());
  JobHeader other = kHeader;
  other[3].second = "32";
  absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, other);
  EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(file.status().message(), HasSubstr("its part_count is 64, this job's 32"));
}

TEST_F(JobFileTest, RefusesALineThatIsNoRecordNamingIt) {
  std::ofstream(path_) << "{\"nqueens_job\":{\"command\":\"count\",\"n\":\"14\",\"board\":"
                          "\"00ff\",\"part_count\":\"64\"}}\n"
                       << "{\"part\":1,\"result\":{}}\n"
                       << "not json\n";
  absl::StatusOr<std::unique_ptr<JobFile>> file = JobFile::Open(path_, kHeader);
  EXPECT_EQ(file.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(file.status().message(), HasSubstr("line 3 is no part record"));

  std::ofstream(path_) << "14200\n";
  file = JobFile::Open(path_, kHeader);
  EXPECT_THAT(file.status().message(), HasSubstr("is no job file"));
}

TEST_F(JobFileTest, IsOneRunsAtATime) {
  absl::StatusOr<std::unique_ptr<JobFile>> first = JobFile::Open(path_, kHeader);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<std::unique_ptr<JobFile>> second = JobFile::Open(path_, kHeader);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(second.status().message(), HasSubstr("in use"));
}

TEST(BoardDigestTest, TellsBoardsAndSizesApart) {
  EXPECT_EQ(BoardDigest(Columns(8, 0)), BoardDigest(Columns(8, 0)));
  EXPECT_NE(BoardDigest(Columns(8, 0)), BoardDigest(Columns(9, 0)));
  Columns queen(8, 0);
  queen[2] = 5;
  EXPECT_NE(BoardDigest(Columns(8, 0)), BoardDigest(queen));
  EXPECT_EQ(BoardDigest(queen).size(), 16u);
}

}  // namespace
}  // namespace nqueens::client
