// A job cut into parts over real servers (client/parts/parts_backend.h on
// client/parts/parts_job.h): n = 14 counted in 64 parts over three servers,
// one of them killed halfway, equals OEIS A000170 and the core's own count.
#include <csignal>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "client/backends/security.h"
#include "client/parts/job_servers.h"
#include "client/parts/parts_backend.h"
#include "client/parts/parts_job.h"
#include "gtest/gtest.h"
#include "nqueens/count.h"
#include "server_process.h"

namespace nqueens::client {
namespace {

// Faults in a fleet: three servers count n = 14 in 64 parts; one of them is
// killed once half the parts are done, with parts of its own still to come.
TEST(PartsJobWithServersTest, CountsN14In64PartsOverThreeServersWhenOneIsKilledHalfway) {
  std::vector<std::unique_ptr<testing::ServerProcess>> processes;
  std::vector<std::string> addresses;
  for (int i = 0; i < 3; ++i) {
    processes.push_back(std::make_unique<testing::ServerProcess>());
    ASSERT_FALSE(processes.back()->address().empty());
    addresses.push_back(processes.back()->address());
  }
  absl::StatusOr<std::vector<JobServer>> servers =
      RemoteJobServers(absl::StrCat("ipv4:", absl::StrJoin(addresses, ",")), ClientSecurity());
  ASSERT_TRUE(servers.ok()) << servers.status();
  ASSERT_EQ(servers->size(), 3u);

  absl::Mutex mutex;
  bool killed = false;
  int done_by_victim_before = 0;
  int failed_on_victim_after = 0;
  std::map<uint64_t, int> done;
  PartsBackendOptions options;
  options.part_count = 64;
  options.window = 2;
  options.on_event = [&](const PartEvent& event) {
    absl::MutexLock lock(&mutex);
    if (event.kind == PartEvent::Kind::kDone) ++done[event.part];
    if (!killed && event.server == 2 && event.kind == PartEvent::Kind::kDone) {
      ++done_by_victim_before;
    }
    if (killed && event.server == 2 && event.kind == PartEvent::Kind::kFailed) {
      ++failed_on_victim_after;
    }
    // On the thread of the 32nd part's end, before it takes the next: the
    // job goes on without the server from here.
    if (!killed && event.kind == PartEvent::Kind::kDone && event.parts_done >= 32) {
      processes[2]->Signal(SIGKILL);
      killed = true;
    }
  };
  std::unique_ptr<Backend> job = MakePartsBackend(*std::move(servers), std::move(options));
  Board empty;
  empty.n = 14;
  const absl::StatusOr<CountResult> counted = job->Count(empty, RunOptions());
  ASSERT_TRUE(counted.ok()) << counted.status();

  EXPECT_EQ(counted->solutions, 365596u);   // OEIS A000170
  EXPECT_EQ(counted->fundamental, 45752u);  // OEIS A002562
  const absl::StatusOr<CountResult> core = CountSolutions(Columns(14, kEmptyRow));
  ASSERT_TRUE(core.ok()) << core.status();
  EXPECT_EQ(counted->solutions, core->solutions);
  EXPECT_EQ(counted->fundamental, core->fundamental);
  EXPECT_EQ(counted->nodes, core->nodes);

  absl::MutexLock lock(&mutex);
  EXPECT_TRUE(killed);
  EXPECT_GT(done_by_victim_before, 0);   // it took its share until then
  EXPECT_GT(failed_on_victim_after, 0);  // and parts it had then went elsewhere
  EXPECT_EQ(done.size(), 64u);
  for (const auto& [part, times] : done) EXPECT_EQ(times, 1) << "part " << part;
}

}  // namespace
}  // namespace nqueens::client
