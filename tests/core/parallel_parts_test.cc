// The executor of parts: every part runs once on any number of threads, an
// abandoned job takes no more parts, and a helper that starts after the job
// ended touches nothing of it.
#include "base/parallel_parts.h"

#include <atomic>
#include <functional>
#include <vector>

#include "gtest/gtest.h"

namespace nqueens::internal {
namespace {

// A job of `parts` parts that counts how often each ran.
PartsJob CountingJob(std::vector<std::atomic<int>>& runs) {
  PartsJob job;
  job.parts = runs.size();
  job.start_thread = [&runs](bool) -> PartRunner {
    return [&runs](size_t index) {
      runs[index].fetch_add(1);
      return true;
    };
  };
  return job;
}

TEST(ParallelPartsTest, EveryPartRunsOnceOnAnyNumberOfThreads) {
  for (const int threads : {1, 2, 3, 8}) {
    SCOPED_TRACE(threads);
    std::vector<std::atomic<int>> runs(100);
    std::atomic<bool> abandoned{false};
    RunParts(CountingJob(runs), SearchThreads{threads, nullptr}, abandoned);
    EXPECT_FALSE(abandoned.load());
    for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
  }
}

TEST(ParallelPartsTest, APartThatAbandonsTheJobEndsIt) {
  std::atomic<int> ran{0};
  PartsJob job;
  job.parts = 1000;
  job.start_thread = [&ran](bool) -> PartRunner {
    return [&ran](size_t index) {
      ran.fetch_add(1);
      return index != 3;
    };
  };
  std::atomic<bool> abandoned{false};
  RunParts(job, SearchThreads{1, nullptr}, abandoned);
  EXPECT_TRUE(abandoned.load());
  EXPECT_EQ(ran.load(), 4);  // parts 0..3 on the calling thread alone
}

TEST(ParallelPartsTest, KeepGoingFalseEndsTheJobBeforeAnyPart) {
  std::vector<std::atomic<int>> runs(10);
  PartsJob job = CountingJob(runs);
  job.keep_going = [] { return false; };
  std::atomic<bool> abandoned{false};
  RunParts(job, SearchThreads{1, nullptr}, abandoned);
  EXPECT_TRUE(abandoned.load());
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 0);
}

TEST(ParallelPartsTest, AHelperThatStartsLateDoesNothing) {
  std::vector<std::function<void()>> late;
  const SearchThreads deferred{3, [&late](std::function<void()> job) {
                                 late.push_back(std::move(job));
                                 return true;
                               }};
  std::vector<std::atomic<int>> runs(20);
  std::atomic<bool> abandoned{false};
  {
    PartsJob job = CountingJob(runs);
    RunParts(job, deferred, abandoned);
  }
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
  ASSERT_EQ(late.size(), 2u);
  // The job is gone; the helpers must not look at it.
  for (const std::function<void()>& helper : late) helper();
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
}

TEST(ParallelPartsTest, ARefusedHelperLeavesTheWorkToTheCallingThread) {
  std::vector<std::atomic<int>> runs(50);
  std::atomic<bool> abandoned{false};
  RunParts(CountingJob(runs), SearchThreads{4, [](std::function<void()>) { return false; }},
           abandoned);
  for (const std::atomic<int>& count : runs) EXPECT_EQ(count.load(), 1);
}

}  // namespace
}  // namespace nqueens::internal
