#include "command_line/cpu_count.h"

#include <thread>

#include "gtest/gtest.h"

namespace nqueens::command_line {
namespace {

TEST(CpuCountTest, ParsesTheCgroupQuota) {
  EXPECT_EQ(ParseCgroupCpuMax("150000 100000\n"), 1.5);
  EXPECT_EQ(ParseCgroupCpuMax("200000 100000"), 2.0);
  EXPECT_EQ(ParseCgroupCpuMax("max 100000\n"), std::nullopt);
  EXPECT_EQ(ParseCgroupCpuMax(""), std::nullopt);
  EXPECT_EQ(ParseCgroupCpuMax("0 100000"), std::nullopt);
  EXPECT_EQ(ParseCgroupCpuMax("100000"), std::nullopt);
}

TEST(CpuCountTest, UsableCpusIsAtLeastOneAndAtMostTheMachines) {
  const int cpus = UsableCpus();
  EXPECT_GE(cpus, 1);
  EXPECT_LE(static_cast<unsigned>(cpus), std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace nqueens::command_line
