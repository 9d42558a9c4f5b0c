// End-to-end tests of --parts, --part-index and --job-file: the built
// `nqueens` binary, with --local and against real nqueens-server
// subprocesses on loopback, some of which the tests stop (SIGSTOP: a hung
// server whose parts never come back) or kill.
#include <google/protobuf/struct.pb.h>

#include <csignal>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "cli.h"
#include "client/boards/board_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/count.h"
#include "nqueens/v1/nqueens.pb.h"
#include "server_process.h"
#include "subprocess.h"
#include "test_boards.h"
#include "test_certificates.h"
#include "test_dns_server.h"
#include "test_util.h"

namespace nqueens::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> Lines(const std::string& text) {
  return absl::StrSplit(text, '\n', absl::SkipEmpty());
}

// "ipv4:A,B,..." of the servers.
std::string Target(const std::vector<const ServerProcess*>& servers) {
  std::vector<std::string> addresses;
  addresses.reserve(servers.size());
  for (const ServerProcess* server : servers) addresses.push_back(server->address());
  return absl::StrCat("ipv4:", absl::StrJoin(addresses, ","));
}

// How often the job file at `path` records each part (its complete lines
// after the header).
std::map<uint64_t, int> RecordedParts(const std::string& path) {
  std::map<uint64_t, int> parts;
  const std::string content = ReadFile(path);
  const std::vector<std::string> lines = Lines(content.substr(0, content.rfind('\n') + 1));
  for (size_t i = 1; i < lines.size(); ++i) {
    absl::string_view line = lines[i];
    uint64_t part = 0;
    EXPECT_TRUE(absl::ConsumePrefix(&line, "{\"part\":")) << lines[i];
    EXPECT_TRUE(absl::SimpleAtoi(line.substr(0, line.find(',')), &part)) << lines[i];
    ++parts[part];
  }
  return parts;
}

int RecordCount(const std::string& path) {
  int records = 0;
  for (const auto& [part, times] : RecordedParts(path)) records += times;
  return records;
}

// Waits (polling the file) until the job file records at least `records`
// parts; false after a minute.
bool AwaitRecords(const std::string& path, int records) {
  const absl::Time give_up = absl::Now() + absl::Minutes(1);
  while (RecordCount(path) < records) {
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Milliseconds(2));
  }
  return true;
}

// The count's line on stderr without its time, which differs between runs.
std::string WithoutTime(const std::string& line) { return line.substr(0, line.find(" time=")); }

// `parts` (RecordedParts) holds `records` parts of a job of `count`, each
// once.
void ExpectEachPartOnce(const std::map<uint64_t, int>& parts, size_t records, uint64_t count) {
  EXPECT_EQ(parts.size(), records);
  for (const auto& [part, times] : parts) {
    EXPECT_LT(part, count);
    EXPECT_EQ(times, 1) << "part " << part;
  }
}

// The job's count is the core's count of the empty n x n board: solutions,
// fundamental solutions and nodes.
void ExpectTheCoresCount(const v1::CountResult& counted, uint32_t n) {
  const absl::StatusOr<CountResult> core = CountSolutions(Columns(n, kEmptyRow));
  ASSERT_TRUE(core.ok()) << core.status();
  EXPECT_EQ(counted.solutions(), core->solutions);
  EXPECT_EQ(counted.fundamental(), *core->fundamental);
  EXPECT_EQ(counted.nodes(), core->nodes);
}

// Faults in a fleet, at the CLI: three servers count n = 14 in 64 parts; one
// of them hangs from the start, holding the parts it took, and is killed
// once half the job is recorded. The job cannot end until those parts went
// to the others, and the total is OEIS A000170's.
TEST(CliPartsTest, CountsN14In64PartsOverThreeServersWhenOneHangsAndIsKilledHalfway) {
  ServerProcess first;
  ServerProcess second;
  ServerProcess hung;
  ASSERT_FALSE(first.address().empty() || second.address().empty() || hung.address().empty());
  hung.Signal(SIGSTOP);
  const std::string job = TempPath(".job");
  std::remove(job.c_str());
  Subprocess cli(CliArgs({"--server", Target({&first, &second, &hung}), "count", "14", "--parts",
                          "64", "--job-file", job, "--json", "--quiet"}));
  ASSERT_TRUE(AwaitRecords(job, 32)) << RecordCount(job);
  // The hung server holds two parts (its window): the rest can be done.
  EXPECT_LE(RecordCount(job), 62);
  hung.Signal(SIGKILL);
  const ProcessResult result = cli.Communicate("");

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const auto counted = FromJson<v1::CountResult>(result.out);
  EXPECT_EQ(counted.solutions(), 365596u);   // OEIS A000170
  EXPECT_EQ(counted.fundamental(), 45752u);  // OEIS A002562
  ExpectTheCoresCount(counted, 14);
  ExpectEachPartOnce(RecordedParts(job), 64, 64);
}

// Three servers on 127.0.0.2, .3 and .4 sharing one port, as the servers
// behind one name do; the third logs to the file at `third_log`. Empty when
// no port could be shared.
std::vector<std::unique_ptr<ServerProcess>> ServersSharingAPort(const std::string& third_log) {
  const std::vector<std::string> no_flags;
  for (int attempt = 0; attempt < 5; ++attempt) {
    std::vector<std::unique_ptr<ServerProcess>> servers;
    servers.push_back(std::make_unique<ServerProcess>("127.0.0.2:0", "", no_flags));
    const std::string& first = servers[0]->address();
    if (first.empty()) continue;
    const std::string port = first.substr(first.rfind(':') + 1);
    servers.push_back(std::make_unique<ServerProcess>("127.0.0.3:" + port, "", no_flags));
    servers.push_back(std::make_unique<ServerProcess>("127.0.0.4:" + port, third_log, no_flags));
    if (!servers[1]->address().empty() && !servers[2]->address().empty()) return servers;
  }
  return {};
}

// The Count calls that a server's log records as answered.
int AnsweredCounts(const std::string& log) {
  int calls = 0;
  for (const std::string& line : Lines(log)) {
    calls +=
        absl::StrContains(line, "] Count request_id=") && absl::StrContains(line, " status=OK ");
  }
  return calls;
}

// The fleet follows the fleet: a job over dns://DNS/NAME:PORT, where the
// test's DNS server gives the name two servers' addresses when the job
// starts and three once a quarter of its parts are done. The third server
// gets parts, and the count is the core's.
TEST(CliPartsTest, AServerThatTheNameGivesHalfwayGetsPartsAndTheCountStaysExact) {
  const std::string third_log = TempPath(".third.log");
  std::vector<std::unique_ptr<ServerProcess>> servers = ServersSharingAPort(third_log);
  ASSERT_EQ(servers.size(), 3u) << "no port free on 127.0.0.2, .3 and .4";
  const std::string port = servers[0]->address().substr(servers[0]->address().rfind(':') + 1);
  TestDnsServer dns("fleet.nqueens.test", {"127.0.0.2", "127.0.0.3"});
  ASSERT_FALSE(dns.address().empty());
  const std::string job = TempPath(".job");
  std::remove(job.c_str());
  Subprocess cli(CliArgs(
      {"--server", absl::StrCat("dns://", dns.address(), "/fleet.nqueens.test:", port), "count",
       "16", "--parts", "64", "--resolve-every", "50ms", "--job-file", job, "--json"}));
  ASSERT_TRUE(AwaitRecords(job, 16)) << RecordCount(job);
  EXPECT_EQ(AnsweredCounts(ReadFile(third_log)), 0);  // the name did not give it yet
  dns.SetAddresses({"127.0.0.2", "127.0.0.3", "127.0.0.4"});
  const ProcessResult result = cli.Communicate("");

  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.err,
              HasSubstr(absl::StrCat("nqueens: server 127.0.0.4:", port, " joins the job\n")));
  const auto counted = FromJson<v1::CountResult>(result.out);
  ExpectTheCoresCount(counted, 16);
  ExpectEachPartOnce(RecordedParts(job), 64, 64);
  servers[2].reset();  // its log is complete once it has exited
  EXPECT_GT(AnsweredCounts(ReadFile(third_log)), 0);
}

TEST(CliPartsTest, LocalPartsPrintWhatOneCallPrints) {
  const std::string composition = WriteTempFile(
      client::FormatBoard(ThinnedSolution(13, 4), client::BoardFormat::kQArray), ".q");
  for (const std::string& board : {std::string("10"), composition}) {
    SCOPED_TRACE(board);
    const ProcessResult whole = Cli({"--local", "count", board});
    const ProcessResult cut = Cli({"--local", "count", board, "--parts", "7"});
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    ASSERT_EQ(cut.exit_code, 0) << cut.err;
    EXPECT_EQ(cut.out, whole.out);
    EXPECT_EQ(WithoutTime(cut.err), WithoutTime(whole.err));

    const ProcessResult whole_json = Cli({"--local", "count", board, "--json", "--quiet"});
    const ProcessResult cut_json =
        Cli({"--local", "count", board, "--json", "--quiet", "--parts", "7"});
    auto expected = FromJson<v1::CountResult>(whole_json.out);
    auto got = FromJson<v1::CountResult>(cut_json.out);
    EXPECT_GT(got.elapsed_seconds(), 0);
    expected.clear_elapsed_seconds();
    got.clear_elapsed_seconds();
    EXPECT_EQ(got.SerializeAsString(), expected.SerializeAsString()) << cut_json.out;
  }
  EXPECT_EQ(Cli({"--local", "count", "10"}).out, "724\n");
}

TEST(CliPartsTest, OnePartAloneCarriesItsIndexAndThePartsAddUp) {
  uint64_t solutions = 0;
  for (int part = 0; part < 4; ++part) {
    const ProcessResult result = Cli({"--local", "count", "10", "--parts", "4", "--part-index",
                                      absl::StrCat(part), "--json", "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto object = FromJson<google::protobuf::Struct>(result.out);
    EXPECT_EQ(object.fields().at("part_index").number_value(), part);
    EXPECT_EQ(object.fields().at("part_count").number_value(), 4);
    uint64_t count = 0;
    ASSERT_TRUE(absl::SimpleAtoi(object.fields().at("solutions").string_value(), &count));
    EXPECT_LT(count, 724u);
    solutions += count;
  }
  EXPECT_EQ(solutions, 724u);
}

TEST(CliPartsTest, EnumeratesOverTwoServersInPartOrder) {
  ServerProcess first;
  ServerProcess second;
  ASSERT_FALSE(first.address().empty() || second.address().empty());
  const std::string target = Target({&first, &second});
  const ProcessResult cut = Cli({"--server", target, "enumerate", "8", "--parts", "5"});
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_EQ(cut.err, "92 boards\n");
  const std::vector<std::string> boards = Lines(cut.out);
  const std::vector<std::string> whole = Lines(Cli({"--local", "enumerate", "8"}).out);
  ASSERT_EQ(whole.size(), 92u);
  EXPECT_EQ(std::set<std::string>(boards.begin(), boards.end()),
            std::set<std::string>(whole.begin(), whole.end()));
  EXPECT_EQ(boards.size(), 92u);
  for (const std::string& line : boards) {
    absl::StatusOr<client::Board> board = client::ParseBoard(line, client::BoardFormat::kQArray);
    ASSERT_TRUE(board.ok()) << board.status();
    ASSERT_TRUE(client::MakeDense(*board).ok());
    EXPECT_TRUE(IsSolutionExtending(board->columns, Columns(8, kEmptyRow))) << line;
  }
  // Part 0's boards, then part 1's, ...: each part alone, one after another.
  std::string in_part_order;
  for (int part = 0; part < 5; ++part) {
    absl::StrAppend(&in_part_order, Cli({"--server", first.address(), "enumerate", "8", "--parts",
                                         "5", "--part-index", absl::StrCat(part)})
                                        .out);
  }
  EXPECT_EQ(cut.out, in_part_order);
  const ProcessResult limited =
      Cli({"--server", target, "enumerate", "8", "--parts", "5", "--limit", "30"});
  const std::vector<std::string> first_30(boards.begin(), boards.begin() + 30);
  EXPECT_EQ(Lines(limited.out), first_30);
  EXPECT_EQ(limited.err, "30 boards\n");
}

// A composition of 12 rows with no completion: the first of a fixed series
// of random ones that has none.
Columns UnsolvableComposition() {
  for (uint64_t seed = 1;; ++seed) {
    Columns composition = test_boards::RandomComposition(12, 5, seed);
    if (std::count(composition.begin(), composition.end(), kEmptyRow) >= 7 &&
        !test_boards::BruteForceHasCompletion(composition)) {
      return composition;
    }
  }
}

TEST(CliPartsTest, TheExactSearchInPartsProvesAnUnsolvableCompositionWithPartCertificates) {
  ServerProcess server;
  ASSERT_FALSE(server.address().empty());
  const std::string corner = WriteTempFile("1 0 0 0\n", ".corner.q");
  const std::string harder = WriteTempFile(
      client::FormatBoard(UnsolvableComposition(), client::BoardFormat::kQArray), ".harder.q");
  for (const std::vector<std::string>& where :
       {std::vector<std::string>{"--local"},
        std::vector<std::string>{"--server", server.address()}}) {
    for (const auto& [board, format, start] :
         {std::tuple{corner, "binary", "NQCERT\r\n"}, std::tuple{harder, "binary", "NQCERT\r\n"},
          std::tuple{harder, "text", "nqueens-certificate 1\n"}}) {
      SCOPED_TRACE(absl::StrCat(where[0], " ", board, " ", format));
      const std::string certificate = TempPath(".cert");
      std::vector<std::string> args = where;
      args.insert(args.end(), {"complete", board, "--method", "exact", "--parts", "4",
                               "--certificate", certificate, "--certificate-format", format});
      const ProcessResult result = Cli(args);
      EXPECT_EQ(result.exit_code, 1) << result.err;
      EXPECT_THAT(result.err, StartsWith("UNSOLVABLE n="));
      std::vector<std::string> checker = {NQUEENS_CHECKER_PATH, board};
      for (int part = 0; part < 4; ++part) {
        checker.push_back(absl::StrCat(certificate, ".part", part, "-of-4"));
        EXPECT_THAT(ReadFile(checker.back()), StartsWith(start)) << checker.back();
      }
      const ProcessResult checked = testing::Run(checker);
      EXPECT_EQ(checked.exit_code, 0) << checked.err;
      EXPECT_THAT(checked.out, HasSubstr("prove together"));

      args.push_back("--json");
      const ProcessResult json = Cli(args);
      EXPECT_EQ(FromJson<v1::CompleteResponse>(json.out).outcome(), v1::OUTCOME_UNSOLVABLE);
    }
  }
  // A solvable one: SOLVED as soon as a part finds a completion.
  const std::string solvable = kExamples + "/composition-8.q";
  const ProcessResult solved =
      Cli({"--local", "complete", solvable, "--method", "exact", "--parts", "4"});
  EXPECT_EQ(solved.exit_code, 0) << solved.err;
  absl::StatusOr<client::Board> given = client::LoadBoard(solvable, client::BoardFormat::kAuto);
  ASSERT_TRUE(given.ok() && client::MakeDense(*given).ok());
  absl::StatusOr<client::Board> board =
      client::ParseBoard(solved.out, client::BoardFormat::kQArray);
  ASSERT_TRUE(board.ok() && client::MakeDense(*board).ok());
  EXPECT_TRUE(IsSolutionExtending(board->columns, given->columns));
}

// A search in parts that its deadline cuts short gives up, as one call's
// does: UNDECIDED, not an error. The Excluded Diagonals board of m = 24 takes
// seconds of search, far beyond the deadline.
TEST(CliPartsTest, TheExactSearchInPartsIsUndecidedAtItsDeadline) {
  const ProcessResult result = Cli({"--local", "complete", kExamples + "/excluded-diagonals-24.q",
                                    "--method", "exact", "--parts", "4", "--deadline", "300ms"});
  EXPECT_EQ(result.exit_code, 4) << result.err;
  EXPECT_THAT(result.err, StartsWith("UNDECIDED n="));
}

// A job whose last parts hang on a stopped server is killed; a rerun with
// the same job file runs only the parts it does not record.
TEST(CliPartsTest, AJobFileResumesAnInterruptedJobAndRefusesAnotherJobs) {
  ServerProcess server;
  ServerProcess hung;
  ASSERT_FALSE(server.address().empty() || hung.address().empty());
  hung.Signal(SIGSTOP);
  const std::string job = TempPath(".job");
  std::remove(job.c_str());
  {
    Subprocess interrupted(CliArgs({"--server", Target({&server, &hung}), "count", "14", "--parts",
                                    "64", "--job-file", job, "--quiet"}));
    // Every part but the two the hung server holds.
    ASSERT_TRUE(AwaitRecords(job, 62)) << RecordCount(job);
    interrupted.Signal(SIGKILL);
    EXPECT_EQ(interrupted.Communicate("").exit_code, -1);
  }
  hung.Signal(SIGKILL);
  const std::map<uint64_t, int> before = RecordedParts(job);
  ExpectEachPartOnce(before, 62, 64);
  // A torn line, as a write cut short leaves it, is dropped.
  std::ofstream(job, std::ios::app) << "{\"part\":63,\"result\":{\"n\":\"1";

  const ProcessResult resumed =
      Cli({"--server", server.address(), "count", "14", "--parts", "64", "--job-file", job});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(resumed.out, "365596\n");
  EXPECT_THAT(resumed.err, StartsWith("n=14 solutions=365596 fundamental=45752 "));
  // The two parts that were missing, once each, after those recorded.
  ExpectEachPartOnce(RecordedParts(job), 64, 64);

  for (const auto& [args, mismatch] :
       {std::pair{std::vector<std::string>{"count", "13", "--parts", "64"},
                  "its n is 14, this job's 13"},
        std::pair{std::vector<std::string>{"count", "14", "--parts", "32"},
                  "its part_count is 64, this job's 32"},
        std::pair{std::vector<std::string>{"complete", "-", "--method", "exact", "--parts", "64"},
                  "its command is count, this job's complete --method exact"}}) {
    std::vector<std::string> full = {NQUEENS_CLI_PATH, "--local", "--job-file", job};
    full.insert(full.end(), args.begin(), args.end());
    const ProcessResult refused = testing::Run(full, "1 0 0 0\n");
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    ExpectOneErrorLine(refused, absl::StrCat("--job-file ", job, " is another job's: ", mismatch));
  }
  ExpectEachPartOnce(RecordedParts(job), 64, 64);  // a refused job adds nothing
}

// The board's own faults end the job at once with one call's error, however
// many servers there are to try.
TEST(CliPartsTest, TheBoardsOwnFaultsAreOneCallsErrors) {
  ServerProcess first;
  ServerProcess second;
  ASSERT_FALSE(first.address().empty() || second.address().empty());
  const std::string attacking = WriteTempFile("1 2 0 0 0\n", ".q");
  for (const auto& [args, code, message] :
       {std::tuple{std::vector<std::string>{"count", "70"}, 1,
                   "board rejected: counting and enumerating take boards of at most 64 free rows"},
        std::tuple{std::vector<std::string>{"enumerate", attacking}, 1,
                   "board rejected: two queens attack each other"},
        std::tuple{std::vector<std::string>{"complete", attacking, "--method", "exact"}, 1,
                   "board rejected: two queens attack each other"}}) {
    std::vector<std::string> full = {"--server", Target({&first, &second})};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), {"--parts", "16"});
    SCOPED_TRACE(absl::StrJoin(full, " "));
    const ProcessResult result = Cli(full);
    EXPECT_EQ(result.exit_code, code);
    ExpectOneErrorLine(result, message);
    EXPECT_EQ(result.out, "");
  }
}

// Each address of a name is reached with the name's TLS settings and token:
// the certificate is for the name only, not for the address connected to.
TEST(CliPartsTest, ReachesEachAddressOfANameAsTheNameOverTlsWithTheToken) {
  TestCertificateAuthority ca("nqueens-test-ca");
  const KeyPair identity = ca.Issue("server-1", "DNS:localhost");
  const std::string token = TempPath(".token");
  ReplaceFile(token, "a-token-of-at-least-sixteen-bytes\n");
  ServerProcess server({"--tls-cert", identity.cert_file, "--tls-key", identity.key_file,
                        "--auth-token-file", token});
  ASSERT_FALSE(server.address().empty());
  const std::string port = server.address().substr(server.address().rfind(':') + 1);
  const std::vector<std::string> security = {"--tls-ca", ca.ca_file(), "--auth-token-file", token,
                                             "--quiet"};
  std::vector<std::string> by_name = {"--server", absl::StrCat("dns:///localhost:", port)};
  by_name.insert(by_name.end(), security.begin(), security.end());
  by_name.insert(by_name.end(), {"count", "10", "--parts", "4"});
  // localhost may resolve to ::1 as well, where nothing listens: its parts
  // go to 127.0.0.1.
  const ProcessResult named = Cli(by_name);
  EXPECT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.out, "724\n");

  std::vector<std::string> by_address = {"--server", server.address()};
  by_address.insert(by_address.end(), security.begin(), security.end());
  by_address.insert(by_address.end(), {"count", "10", "--parts", "4"});
  const ProcessResult refused = Cli(by_address);
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_THAT(refused.err, HasSubstr("TLS failed with server " + server.address()));
}

struct BadFlags {
  std::vector<std::string> args;
  std::string message_part;
};

TEST(CliPartsTest, BadFlagsAreUsageErrorsNamingTheFlag) {
  const std::string board = kExamples + "/composition-8.q";
  for (const BadFlags& bad : std::vector<BadFlags>{
           {{"solve", "8", "--parts", "4"}, "--parts applies to complete, count and enumerate"},
           {{"validate", board, "--parts", "4"},
            "--parts applies to complete, count and enumerate"},
           {{"complete", board, "--parts", "4"}, "complete --parts needs --method exact"},
           {{"complete", board, "--method", "min-conflicts", "--parts", "4"},
            "complete --parts needs --method exact"},
           {{"complete", "--batch", board, "--method", "exact", "--parts", "4"},
            "--parts cuts one search: it does not apply to complete --batch"},
           {{"count", "8", "--parts", "0"}, "--parts must be 1 .. 65536, not 0"},
           {{"count", "8", "--parts", "65537"}, "--parts must be 1 .. 65536, not 65537"},
           {{"count", "8", "--parts", "-1"}, "--parts"},
           {{"count", "8", "--parts", "4", "--part-index", "4"},
            "--part-index must be below --parts (4), not 4"},
           {{"count", "8", "--part-index", "1"}, "--part-index needs --parts K"},
           {{"count", "8", "--window", "3"}, "--window needs --parts K"},
           {{"count", "8", "--job-file", "j"}, "--job-file needs --parts K"},
           {{"enumerate", "8", "--parts", "2", "--job-file", "j"},
            "--job-file applies to complete and count, not to enumerate"},
           {{"count", "8", "--parts", "4", "--part-index", "1", "--window", "2"},
            "--window belongs to a job spread over servers"},
           {{"count", "8", "--resolve-every", "1s"}, "--resolve-every needs --parts K"},
           {{"count", "8", "--parts", "4", "--resolve-every", "-1s"},
            "--resolve-every must be 0 (never) or more"},
           {{"count", "8", "--parts", "4", "--resolve-every", "1s"},
            "--resolve-every looks the name of --server up again: it does not apply to --local"},
       }) {
    std::vector<std::string> args = bad.args;
    args.insert(args.begin(), "--local");
    SCOPED_TRACE(absl::StrJoin(args, " "));
    const ProcessResult result = Cli(args);
    EXPECT_EQ(result.exit_code, 2);
    ExpectOneErrorLine(result, bad.message_part);
    EXPECT_EQ(result.out, "");
  }
}

TEST(CliPartsTest, HelpDescribesTheFlags) {
  const ProcessResult help = Cli({"help", "count"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* flag :
       {"--parts", "--part-index", "--window", "--job-file", "--resolve-every"}) {
    EXPECT_THAT(help.out, HasSubstr(flag));
  }
}

}  // namespace
}  // namespace nqueens::testing
