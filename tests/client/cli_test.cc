// End-to-end tests of the built `nqueens` binary: run as a subprocess, with
// --local and against a real nqueens-server subprocess. Printed boards are
// parsed back and checked with nqueens::Validate.
#include "cli.h"

#include <google/protobuf/struct.pb.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "client/boards/board_io.h"
#include "client/output/render.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/params.h"
#include "nqueens/solver.h"
#include "nqueens/v1/nqueens.grpc.pb.h"
#include "nqueens/v1/nqueens.pb.h"
#include "nqueens/validate.h"
#include "server_process.h"
#include "subprocess.h"
#include "test_boards.h"
#include "test_util.h"

namespace nqueens::testing {
namespace {

using client::Board;
using client::BoardFormat;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;

// A board in `format` as dense columns; an empty board fails the test.
Columns ParseDense(const std::string& text, BoardFormat format = BoardFormat::kQArray) {
  absl::StatusOr<Board> board = client::ParseBoard(text, format);
  EXPECT_TRUE(board.ok()) << board.status();
  if (!board.ok() || !client::MakeDense(*board).ok()) return {};
  return board->columns;
}

// Stderr holds no progress bar: it is drawn only on a terminal.
void ExpectNoProgressBar(const ProcessResult& result) {
  EXPECT_EQ(result.err.find('\r'), std::string::npos) << result.err;
}

// Binds socket `fd` to a free port on 127.0.0.1 and returns the port.
int BindToFreeLoopbackPort(int fd) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), length), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  return ntohs(address.sin_port);
}

// A port on 127.0.0.1 that nothing listens on: bound, then released.
int ClosedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  const int port = BindToFreeLoopbackPort(fd);
  close(fd);
  return port;
}

// A port on 127.0.0.1 whose connections the kernel completes but nobody
// ever answers: the HTTP/2 handshake and any call on it wait forever.
class SilentListener {
 public:
  SilentListener() : fd_(socket(AF_INET, SOCK_STREAM, 0)), port_(BindToFreeLoopbackPort(fd_)) {
    EXPECT_EQ(listen(fd_, 8), 0);
  }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  ~SilentListener() { close(fd_); }

  int port() const { return port_; }

 private:
  int fd_;
  int port_;
};

enum class Where { kLocal, kRemote };

void PrintTo(Where where, std::ostream* out) {
  *out << (where == Where::kLocal ? "--local" : "--server");
}

// Every test of this suite runs once with --local and once against a server.
class CliTest : public ::testing::TestWithParam<Where> {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  void SetUp() override { ASSERT_FALSE(server_->address().empty()); }

  // The command line with the backend flags in front.
  ProcessResult Nqueens(std::vector<std::string> args, absl::string_view input = "") {
    if (GetParam() == Where::kLocal) {
      args.insert(args.begin(), "--local");
    } else {
      args.insert(args.begin(), {"--server", server_->address()});
    }
    return Cli(args, input);
  }

  static ServerProcess* server_;
};

ServerProcess* CliTest::server_ = nullptr;

TEST_P(CliTest, SolvesWithEachMethod) {
  for (const char* method :
       {"constructive", "random", "min-conflicts", "backtracking", "genetic", "formula"}) {
    SCOPED_TRACE(method);
    const ProcessResult result = Nqueens({"solve", "12", "--method", method});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const Columns board = ParseDense(result.out);
    EXPECT_TRUE(IsSolutionExtending(board, Columns(12, kEmptyRow)));
    EXPECT_THAT(result.err, StartsWith("SOLVED n=12 seed="));
    // Boards up to 64 rows are drawn on stderr below the outcome line.
    EXPECT_THAT(result.err, HasSubstr(client::DrawBoard(board)));
  }
}

TEST_P(CliTest, JsonHasTheOutcomeStatsAndBoard) {
  const ProcessResult result =
      Nqueens({"complete", kExamples + "/composition-8.q", "--json", "--seed", "7", "--quiet"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
  const auto response = FromJson<v1::CompleteResponse>(result.out);
  EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  EXPECT_EQ(response.n(), 8u);
  EXPECT_EQ(response.stats().seed(), 7u);
  EXPECT_EQ(response.stats().method_used(), "PIPELINE");
  const Columns board(response.columns().begin(), response.columns().end());
  EXPECT_TRUE(IsSolutionExtending(board, ParseDense(ReadFile(kExamples + "/composition-8.q"))));
}

TEST_P(CliTest, JsonReportsValidationCountsAndBoards) {
  const ProcessResult validated = Nqueens({"validate", kExamples + "/attacking-8.q", "--json"});
  EXPECT_EQ(validated.exit_code, 1);
  const auto report = FromJson<v1::ValidateResponse>(validated.out);
  EXPECT_FALSE(report.valid());
  EXPECT_EQ(report.attacking_pairs(), 1u);
  const ProcessResult counted = Nqueens({"count", "8", "--json", "--quiet"});
  EXPECT_EQ(FromJson<v1::CountResult>(counted.out).solutions(), 92u);
  const ProcessResult boards = Nqueens({"enumerate", "6", "--json", "--quiet"});
  const std::vector<std::string> lines = absl::StrSplit(boards.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 4u);
  for (const std::string& line : lines) {
    const auto board = FromJson<v1::Board>(line);
    EXPECT_TRUE(IsSolutionExtending(Columns(board.columns().begin(), board.columns().end()),
                                    Columns(6, kEmptyRow)));
  }
}

TEST_P(CliTest, JsonErrorsNameTheCode) {
  const ProcessResult result = Nqueens({"complete", kExamples + "/attacking-8.q", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  const auto error = FromJson<google::protobuf::Struct>(result.out).fields().at("error");
  EXPECT_EQ(error.struct_value().fields().at("code").string_value(), "INVALID_ARGUMENT");
  EXPECT_THAT(error.struct_value().fields().at("message").string_value(),
              HasSubstr("(row 2, column 3) and (row 5, column 6)"));
  // The keys in one order, as complete --batch writes them; a server's call
  // adds its request id last.
  EXPECT_THAT(result.out, StartsWith("{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":"));
  const size_t request_id = result.out.find(",\"requestId\":\"");
  if (GetParam() == Where::kRemote) {
    EXPECT_GT(request_id, result.out.find("\"message\":")) << result.out;
    EXPECT_NE(request_id, std::string::npos) << result.out;
  } else {
    EXPECT_EQ(request_id, std::string::npos) << result.out;
  }
}

TEST_P(CliTest, DrawsPictures) {
  const std::string picture = TempPath(".svg");
  const ProcessResult completed =
      Nqueens({"complete", kExamples + "/composition-8.q", "--picture", picture, "--quiet"});
  EXPECT_EQ(completed.exit_code, 0) << completed.err;
  const std::string svg = ReadFile(picture);
  EXPECT_THAT(svg, StartsWith("<svg "));
  EXPECT_THAT(svg, HasSubstr("<title>8 queens on 8 x 8</title>"));
  const ProcessResult validated =
      Nqueens({"validate", kExamples + "/attacking-8.q", "--picture", picture});
  EXPECT_EQ(validated.exit_code, 1);
  EXPECT_THAT(ReadFile(picture), HasSubstr("<line "));
  // The drawing on stderr marks the two conflicting queens.
  EXPECT_THAT(validated.err, HasSubstr(". . X . . . . .\n"));
  EXPECT_THAT(validated.err, HasSubstr(". . . . . X . .\n"));
  const ProcessResult too_big = Nqueens({"solve", "10001", "--picture", picture});
  EXPECT_EQ(too_big.exit_code, 2);
  ExpectOneErrorLine(too_big, "--picture draws boards of at most 10000 rows, not 10001");
}

TEST_P(CliTest, DrawsGivenQueensApartFromPlacedOnes) {
  const std::string input = kExamples + "/composition-8.q";
  const ProcessResult result = Nqueens({"complete", input});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const Columns given = ParseDense(ReadFile(input));
  const Columns board = ParseDense(result.out);
  ASSERT_TRUE(IsSolutionExtending(board, given));
  EXPECT_THAT(result.err, HasSubstr(client::DrawBoard(board, given)));
  // Row by row: Q where the input had its queen, q where one was placed.
  const std::vector<std::string> lines = absl::StrSplit(result.err, '\n');
  ASSERT_GE(lines.size(), 10u) << result.err;
  for (size_t row = 0; row < 8; ++row) {
    const std::string& line = lines[row + 1];  // under the outcome line
    SCOPED_TRACE(line);
    const char mark = given[row] != 0 ? 'Q' : 'q';
    EXPECT_EQ(line.find(mark), 2 * (board[row] - 1));
    EXPECT_EQ(std::count_if(line.begin(), line.end(), [](char c) { return c == 'Q' || c == 'q'; }),
              1);
  }
  EXPECT_EQ(lines[9], "Q given, q placed");
}

TEST_P(CliTest, CompletesABatchInInputOrder) {
  // Compositions of the explicit solution of each n, every third row kept;
  // line 5 is no JSON, line 9 has attacking queens, line 12 is blank and
  // the last line is a board too large for a batch item: one answer per
  // line, each error naming its line, and the same refusals in-process as
  // on a server.
  std::string input;
  std::vector<Columns> compositions;
  for (uint32_t n = 8; n < 40; ++n) {
    if (compositions.size() == 4) input += "{not json}\n";
    if (compositions.size() == 10) input += "\n";
    Columns composition = nqueens::Solve(n, SolveMethod::kConstructive, {})->columns;
    for (uint32_t row = 0; row < n; ++row) {
      if (row % 3 != 0) composition[row] = kEmptyRow;
    }
    if (compositions.size() == 7) composition[1] = composition[0] + 1;
    input +=
        absl::StrCat("{\"n\": ", n, ", \"columns\": [", absl::StrJoin(composition, ","), "]}\n");
    compositions.push_back(composition);
  }
  input += "{\"n\": 100000}\n";
  const ProcessResult result = Nqueens({"complete", "--batch", "-"}, input);
  EXPECT_EQ(result.exit_code, 1) << result.err;  // four lines refused, and said so
  EXPECT_EQ(result.err,
            "nqueens: 4 of 35 lines were refused (their {\"error\": ...} lines say why)\n");
  const ProcessResult quiet = Nqueens({"complete", "--batch", "-", "--quiet"}, input);
  EXPECT_EQ(quiet.exit_code, 1);
  EXPECT_EQ(quiet.err, "");
  const std::vector<std::string> lines = absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), compositions.size() + 3);
  const std::map<size_t, std::string> errors = {
      {5, "line 5: "},
      {9, "\"message\":\"line 9: two queens attack each other"},
      {12, "line 12: an empty line, not a CompleteRequest"},
      {lines.size(), "line 35: a batch item has at most 65536 rows, not n = 100000"}};
  size_t item = 0;
  for (size_t line = 1; line <= lines.size(); ++line) {
    const std::string& answer = lines[line - 1];
    SCOPED_TRACE(answer);
    if (errors.count(line) != 0) {
      // The same order of keys in-process as from a server, run after run.
      EXPECT_THAT(answer, StartsWith(absl::StrCat(
                              "{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"line ", line,
                              ": ")));
      EXPECT_THAT(answer, HasSubstr(errors.at(line)));
      item += line == 9 ? 1 : 0;
      continue;
    }
    const auto response = FromJson<v1::CompleteResponse>(answer);
    EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
    EXPECT_TRUE(IsSolutionExtending(Columns(response.columns().begin(), response.columns().end()),
                                    compositions[item++]));
  }
}

// Protobuf's JSON parser takes nested arrays for a repeated number field:
// such a line must be refused, not completed as the empty board.
TEST_P(CliTest, ABatchRefusesNestedArraysNamingTheLine) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const std::string input = "{\"n\": 8, \"columns\": [[]]}\n{\"n\": 8, \"columns\": " + deep +
                            "}\n{\"n\": 8, \"columns\": [1, [2]]}\n{\"n\": 4}\n";
  const ProcessResult result = Nqueens({"complete", "--batch", "-"}, input);
  EXPECT_EQ(result.exit_code, 1) << result.err;
  const std::vector<std::string> lines = absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[0], HasSubstr("line 1: an array inside an array"));
  EXPECT_THAT(lines[1], HasSubstr("line 2: an array inside an array"));
  EXPECT_THAT(lines[2], HasSubstr("line 3: an array inside an array"));
  const auto response = FromJson<v1::CompleteResponse>(lines[3]);
  EXPECT_EQ(response.outcome(), v1::OUTCOME_SOLVED);
  EXPECT_TRUE(IsSolutionExtending(Columns(response.columns().begin(), response.columns().end()),
                                  Columns(4, kEmptyRow)));
}

// A line's seed and method hold for it, the command line's for a line that
// gives none; an UNSOLVABLE item's certificate comes in its answer, in this
// process as from a server.
TEST_P(CliTest, ABatchLineTakesTheCommandLinesOptionsWhereItGivesNone) {
  const std::string input =
      "{\"n\": 8, \"method\": \"COMPLETE_METHOD_PIPELINE\"}\n"
      "{\"n\": 8, \"method\": \"COMPLETE_METHOD_PIPELINE\", \"seed\": 9}\n"
      "{\"n\": 4, \"columns\": [1, 0, 0, 0], \"wantCertificate\": true}\n";
  const ProcessResult result =
      Nqueens({"complete", "--batch", "-", "--seed", "7", "--method", "exact"}, input);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u) << result.out;
  for (size_t line = 0; line < 2; ++line) {
    const auto response = FromJson<v1::CompleteResponse>(lines[line]);
    EXPECT_EQ(response.stats().seed(), line == 0 ? 7u : 9u);
    EXPECT_EQ(response.stats().method_used(), "PIPELINE");
    EXPECT_TRUE(IsSolutionExtending(Columns(response.columns().begin(), response.columns().end()),
                                    Columns(8, kEmptyRow)));
  }
  const auto unsolvable = FromJson<v1::CompleteResponse>(lines[2]);
  EXPECT_EQ(unsolvable.outcome(), v1::OUTCOME_UNSOLVABLE);
  EXPECT_EQ(unsolvable.stats().method_used(), "EXACT");
  const ProcessResult checked = testing::Run({NQUEENS_CHECKER_PATH, WriteTempFile("1 0 0 0\n"),
                                              WriteTempFile(unsolvable.certificate(), ".cert")});
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_THAT(checked.out, HasSubstr("proves that"));
}

TEST_P(CliTest, AnAnswerNamesTheLimitsTheServerLowered) {
  // Above the server's --max-backtracks (1,000,000 by default): it runs
  // with its maximum and says so; in process nothing is lowered.
  const std::string input =
      "{\"n\": 8, \"columns\": [1, 0, 0, 0, 0, 0, 0, 0], \"limits\": {\"maxBacktracks\": "
      "\"5000000\"}}\n";
  const ProcessResult batch = Nqueens({"complete", "--batch", "-"}, input);
  const ProcessResult single =
      Nqueens({"complete", "-", "--json", "--max-backtracks", "5000000"}, "1 0 0 0 0 0 0 0\n");
  for (const ProcessResult* result : {&batch, &single}) {
    EXPECT_EQ(result->exit_code, 0) << result->err;
    const auto response = FromJson<v1::CompleteResponse>(result->out);
    EXPECT_TRUE(IsSolutionExtending(Columns(response.columns().begin(), response.columns().end()),
                                    Columns{1, 0, 0, 0, 0, 0, 0, 0}));
    if (GetParam() == Where::kRemote) {
      EXPECT_THAT(response.stats().lowered_limits(),
                  ElementsAre("max_backtracks=1000000 (--max-backtracks)"));
    } else {
      EXPECT_THAT(response.stats().lowered_limits(), IsEmpty());
    }
  }
}

TEST_P(CliTest, SaysWhichMethodRan) {
  const ProcessResult solved = Nqueens({"solve", "12", "--method", "formula", "--symmetry", "3"});
  EXPECT_EQ(solved.exit_code, 0) << solved.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(solved.out), Columns(12, kEmptyRow)));
  EXPECT_THAT(solved.err, HasSubstr(" method=FORMULA formula=\""));
  const ProcessResult completed =
      Nqueens({"complete", "-", "--method", "exact"}, "1 3 0 0\n");  // no completion
  EXPECT_EQ(completed.exit_code, 1) << completed.err;
  EXPECT_THAT(completed.err, StartsWith("UNSOLVABLE n=4 "));
  EXPECT_THAT(completed.err, HasSubstr(" method=EXACT"));
}

TEST_P(CliTest, CountsSolutionsAndCompletions) {
  const ProcessResult empty = Nqueens({"count", "8"});
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_EQ(empty.out, "92\n");  // OEIS A000170
  EXPECT_THAT(empty.err, StartsWith("n=8 solutions=92 fundamental=12 "));
  // The completions of a queen in row 1, column 1 of the 8 x 8 board: 4.
  const ProcessResult completions = Nqueens({"count", "-"}, "1 0 0 0 0 0 0 0\n");
  EXPECT_EQ(completions.exit_code, 0) << completions.err;
  EXPECT_EQ(completions.out, "4\n");
  // Beyond what the counters take: a board no server counts, refused as such.
  const ProcessResult too_free = Nqueens({"count", "70"});
  EXPECT_EQ(too_free.exit_code, 1);
  EXPECT_THAT(too_free.err, HasSubstr("board rejected: counting and enumerating take boards of "
                                      "at most 64 free rows (rows without a queen); this board "
                                      "has 70"));
  EXPECT_THAT(too_free.err, Not(HasSubstr("kCount")));
}

TEST_P(CliTest, EnumeratesSolutionsOnePerLine) {
  const ProcessResult all = Nqueens({"enumerate", "6"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  const std::vector<std::string> lines = absl::StrSplit(all.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 4u);
  for (const std::string& line : lines) {
    EXPECT_TRUE(IsSolutionExtending(ParseDense(line), Columns(6, kEmptyRow))) << line;
  }
  const ProcessResult limited = Nqueens({"enumerate", "8", "--limit", "5"});
  EXPECT_EQ(limited.exit_code, 0) << limited.err;
  EXPECT_EQ(std::count(limited.out.begin(), limited.out.end(), '\n'), 5);
}

TEST_P(CliTest, SameSeedGivesSameBoard) {
  const std::vector<std::string> args = {"solve", "200", "--method", "random", "--seed", "7"};
  const ProcessResult first = Nqueens(args);
  const ProcessResult second = Nqueens(args);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(first.out), Columns(200, 0)));
  EXPECT_EQ(first.out, second.out);
  EXPECT_THAT(first.err, StartsWith("SOLVED n=200 seed=7 "));
  // No drawing above 64 rows: the outcome line alone.
  EXPECT_EQ(std::count(first.err.begin(), first.err.end(), '\n'), 1);
}

TEST_P(CliTest, UnsolvableExitsWithOne) {
  const ProcessResult result = Nqueens({"solve", "3"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, StartsWith("UNSOLVABLE n=3 "));
  EXPECT_EQ(result.out, "");
}

TEST_P(CliTest, WritesACertificateThatTheCheckerAccepts) {
  // The 4 x 4 board's two solutions have no queen in a corner.
  const std::string board = WriteTempFile("1 0 0 0\n");
  const std::string certificate = TempPath(".cert");
  const ProcessResult result = Nqueens({"complete", board, "--certificate", certificate});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.err, StartsWith("UNSOLVABLE n=4 "));
  EXPECT_THAT(ReadFile(certificate), StartsWith("NQCERT\r\n"));  // binary by default
  const ProcessResult checked = testing::Run({NQUEENS_CHECKER_PATH, board, certificate});
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_THAT(checked.out, HasSubstr("proves that"));
  // Not a proof for the empty board, which has solutions.
  const ProcessResult other =
      testing::Run({NQUEENS_CHECKER_PATH, WriteTempFile("4\n"), certificate});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("not a proof"));
}

TEST_P(CliTest, WritesATextCertificateWhenAsked) {
  const std::string board = WriteTempFile("1 0 0 0 2 0 0 0 0 8\n");
  const std::string certificate = TempPath(".txt");
  const ProcessResult result =
      Nqueens({"complete", board, "--certificate", certificate, "--certificate-format", "text"});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(ReadFile(certificate), StartsWith("nqueens-certificate 1\nn 10\ngiven 3\n"));
  const ProcessResult checked = testing::Run({NQUEENS_CHECKER_PATH, board, certificate});
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_THAT(checked.out, HasSubstr("proves that"));
}

TEST_P(CliTest, UndecidedExitsWithFour) {
  // The heuristic gives up at once and the exact search, after it, runs out
  // of its time long before it could prove this board unsolvable.
  const ProcessResult result =
      Nqueens({"complete", kExamples + "/excluded-diagonals-24.q", "--max-backtracks", "10",
               "--max-exact-seconds", "0.3", "--seed", "1"});
  EXPECT_EQ(result.exit_code, 4) << result.err;
  EXPECT_THAT(result.err, StartsWith("UNDECIDED n=6299 seed=1 "));
  EXPECT_EQ(result.out, "");
}

TEST_P(CliTest, TheExactSearchDecidesBoardsWithThousandsOfFreeRows) {
  const Columns composition = test_boards::RowOneBlocked(2400);
  for (uint32_t column = 1; column <= composition.size(); ++column) {
    Columns with_row_one = composition;
    with_row_one[0] = column;
    ASSERT_FALSE(Validate(with_row_one)->valid) << "column " << column;
  }
  ASSERT_GT(std::count(composition.begin(), composition.end(), 0u), 1024);

  const ProcessResult result = Nqueens({"complete", "-", "--max-backtracks", "10", "--seed", "1"},
                                       client::FormatBoard(composition, BoardFormat::kQArray));
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_THAT(result.err, StartsWith("UNSOLVABLE n=2400 seed=1 "));
  EXPECT_EQ(result.out, "");
}

TEST_P(CliTest, MaxExactSecondsEndsTheExactSearchWithUndecided) {
  const ProcessResult result =
      Nqueens({"complete", kExamples + "/excluded-diagonals-24.q", "--method", "exact",
               "--max-exact-seconds", "0.3", "--output", TempPath(".q")});
  EXPECT_EQ(result.exit_code, 4) << result.err;
  EXPECT_THAT(result.err, StartsWith("UNDECIDED n=6299 "));
  EXPECT_THAT(result.err, HasSubstr(" exact_runs="));
  EXPECT_THAT(result.err, HasSubstr(" exact_explored="));
}

TEST_P(CliTest, CompletesEveryInputFormat) {
  const Columns expected_input = ParseDense(ReadFile(kExamples + "/composition-8.q"));
  for (const char* name : {"composition-8.q", "composition-8.matrix", "composition-8.sparse"}) {
    SCOPED_TRACE(name);
    const ProcessResult result = Nqueens({"complete", kExamples + "/" + name});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(IsSolutionExtending(ParseDense(result.out), expected_input));
    EXPECT_THAT(result.err, StartsWith("SOLVED n=8 "));
  }
  const std::string big = kExamples + "/composition-1000.sparse";
  const ProcessResult result = Nqueens({"complete", big});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(
      IsSolutionExtending(ParseDense(result.out), ParseDense(ReadFile(big), BoardFormat::kSparse)));
}

TEST_P(CliTest, CompletesStdin) {
  // A lone number is detected as the sparse form of the empty board.
  const ProcessResult empty = Nqueens({"complete", "-"}, "12\n");
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(empty.out), Columns(12, 0)));

  // Detected as a 2 x 2 matrix; --format q reads the Q array of n = 4.
  const ProcessResult q_array = Nqueens({"complete", "-", "--format", "q"}, "0 1\n0 0\n");
  EXPECT_EQ(q_array.exit_code, 0) << q_array.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(q_array.out), Columns{0, 1, 0, 0}));
}

TEST_P(CliTest, RejectsAttackingComposition) {
  const ProcessResult result = Nqueens({"complete", kExamples + "/attacking-8.q"});
  EXPECT_EQ(result.exit_code, 1);
  ExpectOneErrorLine(result, "(row 2, column 3) and (row 5, column 6)");
  EXPECT_EQ(result.out, "");
}

TEST_P(CliTest, ValidateReportsAValidBoard) {
  const ProcessResult result = Nqueens({"validate", kExamples + "/composition-8.matrix"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "n: 8\nvalid: yes\ncomplete: no\nqueens: 4\nattacking pairs: 0\n");
}

TEST_P(CliTest, ValidateReportsAttacks) {
  const ProcessResult result = Nqueens({"validate", kExamples + "/attacking-8.q"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "n: 8\nvalid: no\ncomplete: no\nqueens: 2\nattacking pairs: 1\n"
            "conflict: queens at (row 2, column 3) and (row 5, column 6) "
            "share a diagonal\n");
}

// The report lists the first conflicts and says how many it left out.
TEST_P(CliTest, ValidateSaysHowManyConflictsItLeftOut) {
  const ProcessResult result = Nqueens({"validate", "-"}, "1 1 1 1 1 1 1 1 1 1 1 1\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.out, HasSubstr("attacking pairs: 66\n"));  // 12 * 11 / 2
  const std::vector<std::string> listed = absl::StrSplit(result.out, "conflict: ");
  EXPECT_EQ(listed.size(), 11u);  // the text before the first, and ten
  EXPECT_THAT(result.out, ::testing::EndsWith("conflicts not listed: 56 (the first 10 are)\n"));
}

TEST_P(CliTest, WritesEachOutputFormat) {
  const ProcessResult sparse = Nqueens({"solve", "10", "--output-format", "sparse"});
  EXPECT_EQ(sparse.exit_code, 0) << sparse.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(sparse.out, BoardFormat::kSparse), Columns(10, 0)));

  const ProcessResult matrix = Nqueens({"solve", "10", "--output-format", "matrix"});
  EXPECT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(matrix.out, BoardFormat::kMatrix), Columns(10, 0)));
}

TEST_P(CliTest, WritesTheBoardToOutputFile) {
  const std::string path = TempPath(".q");
  std::remove(path.c_str());
  const ProcessResult result = Nqueens({"solve", "30", "--output", path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_TRUE(IsSolutionExtending(ParseDense(ReadFile(path)), Columns(30, 0)));
}

TEST_P(CliTest, QuietLeavesStderrEmpty) {
  const ProcessResult result = Nqueens({"--quiet", "solve", "8"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err, "");
  EXPECT_TRUE(IsSolutionExtending(ParseDense(result.out), Columns(8, 0)));
}

// Boards of more than 65,536 rows (streaming RPCs on the remote side; see
// remote_backend_test.cc for which RPC carries them).
TEST_P(CliTest, HandlesBoardsAboveTheStreamingThreshold) {
  const ProcessResult solved = Nqueens({"--quiet", "solve", "70000"});
  EXPECT_EQ(solved.exit_code, 0) << solved.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(solved.out), Columns(70000, 0)));

  const ProcessResult validated = Nqueens({"validate", "-"}, solved.out);
  EXPECT_EQ(validated.exit_code, 0) << validated.err;
  EXPECT_THAT(validated.out, HasSubstr("complete: yes"));

  // Few queens (sent sparse) and many queens (sent dense, in chunks).
  for (uint32_t stride : {1000u, 7u}) {
    SCOPED_TRACE(stride);
    const Columns composition = ThinnedSolution(70000, stride);
    const std::string path = WriteTempFile(client::FormatBoard(composition, BoardFormat::kSparse));
    const ProcessResult completed = Nqueens({"--quiet", "complete", path});
    EXPECT_EQ(completed.exit_code, 0) << completed.err;
    EXPECT_TRUE(IsSolutionExtending(ParseDense(completed.out), composition));
  }
}

// Binary files in and out, below (unary RPCs) and above (streams) the
// streaming threshold. A queen in every fifth row is more than n / 8, so the
// board travels dense.
TEST_P(CliTest, CompletesBinaryFiles) {
  for (uint32_t n : {1000u, 70000u}) {
    SCOPED_TRACE(n);
    const Columns composition = ThinnedSolution(n, 5);
    const std::string input =
        WriteTempFile(client::FormatBoard(composition, BoardFormat::kBinary), ".bin");
    const std::string output = TempPath(".out.u32");
    std::remove(output.c_str());
    const ProcessResult completed = Nqueens({"complete", input, "--output", output});
    EXPECT_EQ(completed.exit_code, 0) << completed.err;
    EXPECT_THAT(completed.err, StartsWith(absl::StrCat("SOLVED n=", n, " ")));
    ExpectNoProgressBar(completed);
    const std::string written = ReadFile(output);
    EXPECT_EQ(written.size(), size_t{4} * n);
    EXPECT_TRUE(IsSolutionExtending(ParseDense(written, BoardFormat::kBinary), composition));

    const ProcessResult validated = Nqueens({"validate", output});
    EXPECT_EQ(validated.exit_code, 0) << validated.err;
    EXPECT_THAT(validated.out, HasSubstr("complete: yes"));
    ExpectNoProgressBar(validated);
  }
}

TEST_P(CliTest, BinaryThroughPipes) {
  const ProcessResult solved = Nqueens({"solve", "70000", "--output-format", "binary"});
  EXPECT_EQ(solved.exit_code, 0) << solved.err;
  EXPECT_EQ(solved.out.size(), 4u * 70000);
  EXPECT_TRUE(IsSolutionExtending(ParseDense(solved.out, BoardFormat::kBinary), Columns(70000, 0)));
  // Recognized on stdin by its NUL bytes, or named with --format.
  for (const char* format : {"auto", "binary"}) {
    SCOPED_TRACE(format);
    const ProcessResult validated = Nqueens({"validate", "-", "--format", format}, solved.out);
    EXPECT_EQ(validated.exit_code, 0) << validated.err;
    EXPECT_THAT(validated.out, HasSubstr("n: 70000\nvalid: yes\ncomplete: yes"));
  }
}

TEST_P(CliTest, OutputFormatFlagWinsOverTheFileName) {
  const std::string path = TempPath(".bin");
  const ProcessResult result = Nqueens({"solve", "30", "--output", path, "--output-format", "q"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(IsSolutionExtending(ParseDense(ReadFile(path)), Columns(30, 0)));
}

TEST_P(CliTest, BadBinaryInputNamesTheFile) {
  const std::string path = WriteTempFile("123456", ".bin");
  const ProcessResult result = Nqueens({"validate", path});
  EXPECT_EQ(result.exit_code, 2);
  ExpectOneErrorLine(result, path +
                                 ": a binary board holds 4 bytes per row, "
                                 "but the input has 6 bytes");
}

// A solve that runs into its deadline lasts well beyond
// ProgressBar::kShowAfter, so on a terminal it would be drawn; the tests'
// stderr is a pipe, so nothing but the error may appear.
TEST_P(CliTest, NoProgressBarWhenStderrIsNotATerminal) {
  const ProcessResult result = Nqueens(
      {"complete", "-", "--max-backtracks", "100000000", "--deadline", "400ms", "--seed", "1"},
      client::FormatBoard(test_boards::RowOneBlocked(2400), BoardFormat::kQArray));
  EXPECT_EQ(result.exit_code, 3) << result.err;
  // A server's call is named by its request id.
  const std::string request_id =
      GetParam() == Where::kRemote ? " \\(request id [0-9a-f]{32}\\)" : "";
  EXPECT_THAT(result.err,
              ::testing::MatchesRegex("nqueens: deadline exceeded" + request_id + "\n"));
}

INSTANTIATE_TEST_SUITE_P(Backends, CliTest, ::testing::Values(Where::kLocal, Where::kRemote),
                         [](const ::testing::TestParamInfo<Where>& param_info) {
                           return param_info.param == Where::kLocal ? "Local" : "Remote";
                         });

// Errors found before any backend runs: exit status 2, one line on stderr.
struct UsageCase {
  std::vector<std::string> args;
  std::string input;  // stdin
  std::string message_part;
};

void PrintTo(const UsageCase& c, std::ostream* out) {
  *out << "nqueens " << absl::StrJoin(c.args, " ");
}

class CliUsageTest : public ::testing::TestWithParam<UsageCase> {};

TEST_P(CliUsageTest, ExitsWithTwo) {
  std::vector<std::string> args = GetParam().args;
  args.insert(args.begin(), "--local");
  const ProcessResult result = Cli(args, GetParam().input);
  EXPECT_EQ(result.exit_code, 2) << absl::StrJoin(args, " ");
  ExpectOneErrorLine(result, GetParam().message_part);
  EXPECT_EQ(result.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Errors, CliUsageTest,
    ::testing::Values(
        UsageCase{{}, "", "expected solve N, complete FILE, validate FILE, count N|FILE"},
        UsageCase{{"draw", "8"}, "", "unknown command draw"},
        UsageCase{{"solve", "8", "9"}, "", "unexpected argument 9"},
        UsageCase{{"solve"}, "", "solve needs N"},
        // Checked before the board is solved, not after.
        UsageCase{{"solve", "8", "--output", "/nonexistent/out.q"},
                  "",
                  "cannot open /nonexistent/out.q (--output): No such file or directory"},
        UsageCase{
            {"solve", "8", "--picture", "/"}, "", "cannot open / (--picture): Is a directory"},
        UsageCase{{"--symmetry", "9", "solve", "8"}, "", "--symmetry must be 0..7, not 9"},
        UsageCase{{"--method", "formula", "--variant", "99", "solve", "8"},
                  "",
                  "--variant must be 0..1 for n = 8, not 99"},
        UsageCase{{"--bogus", "solve", "8"}, "", "unknown flag --bogus"},
        UsageCase{{"solve", "8", "--seed", "x"}, "", "for --seed"},
        UsageCase{{"solve", "8", "--seed"}, "", "missing value for --seed"},
        UsageCase{{"solve", "8", "--method", "magic"}, "", "unknown --method"},
        UsageCase{{"complete", "-", "--method", "random"},
                  "",
                  "unknown --method \"random\" for complete"},
        UsageCase{
            {"count", "8", "--method", "random"}, "", "--method applies to solve and complete"},
        UsageCase{{"count", "0"}, "", "n must be 1..2147483647"},
        UsageCase{{"solve", "8", "--deadline", "0s"}, "", "--deadline"},
        UsageCase{
            {"complete", "-", "--max-exact-seconds", "-1"}, "1 0 0 0\n", "--max-exact-seconds"},
        UsageCase{{"solve", "8", "--param", "genetic_population=1"},
                  "",
                  "--param: parameter genetic_population must be in 2..10000, not 1"},
        UsageCase{{"solve", "8", "--param", "speed=11"}, "", "--param: unknown parameter speed"},
        UsageCase{{"solve", "8", "--param", "sim_bound5"},
                  "",
                  "--param sim_bound5: expected NAME=VALUE, e.g. sim_bound5=200"},
        UsageCase{{"complete", "-", "--format", "csv"}, "", "unknown board format"},
        UsageCase{{"solve", "8", "--output-format", "csv"}, "", "--output-format must be"},
        UsageCase{{"solve", "eight"}, "", "N must be a positive integer"},
        UsageCase{{"solve", "-5"}, "", "N must be a positive integer, not \"-5\""},
        UsageCase{{"--server", "x:1", "solve", "8"}, "", "--local and --server exclude each other"},
        UsageCase{{"help", "draw"}, "", "unknown command draw"},
        // Flags a command does not take are refused, not ignored.
        UsageCase{{"solve", "8", "--limit", "3"}, "", "--limit applies to enumerate, not to solve"},
        UsageCase{{"validate", "-", "--output-format", "matrix"},
                  "",
                  "--output-format applies to solve and complete, not to validate"},
        UsageCase{
            {"solve", "8", "--variant", "1"}, "", "--variant picks one of the explicit formulas"},
        UsageCase{{"complete", "--batch", "-", "--picture", "p.svg"},
                  "",
                  "--picture does not apply to complete --batch"},
        UsageCase{{"enumerate", "6", "--output", "boards.bin"},
                  "",
                  "enumerate writes text, one Q array per line: --output boards.bin names a "
                  "binary file"},
        UsageCase{{"health", "--limit", "3"}, "", "--limit applies to enumerate, not to health"},
        UsageCase{{"complete", "-", "--certificate", "p.cert", "--certificate-format", "pdf"},
                  "",
                  "--certificate-format must be binary or text, not \"pdf\""},
        UsageCase{{"complete", "-", "--certificate-format", "text"},
                  "",
                  "--certificate-format needs --certificate FILE"},
        UsageCase{{"solve", "8", "--certificate-format", "text"},
                  "",
                  "--certificate-format applies to complete, not to solve"},
        UsageCase{{"solve", "8", "--deadline", "abc"},
                  "",
                  "invalid value \"abc\" for --deadline: expected a duration with a unit: 10s, "
                  "500ms, 2m, or inf"},
        UsageCase{
            {"complete", "--batch", "/dev/zero"}, "", "/dev/zero: line 1 is longer than 16 MiB"},
        UsageCase{{"--flagfile", "/dev/zero", "solve", "8"},
                  "",
                  "--flagfile /dev/zero: larger than 1 MiB"},
        UsageCase{{"solve", "0"}, "", "n must be 1..2147483647"},
        UsageCase{{"solve", "20000", "--output-format", "matrix"},
                  "",
                  "matrix output is limited to n <= 10000"},
        UsageCase{{"complete", "/nonexistent/board.q"}, "", "cannot open /nonexistent/board.q"},
        UsageCase{{"complete", "-"}, "1 2 x 4\n", "stdin: line 1: expected a number, found \"x\""},
        UsageCase{{"complete", "-"},
                  "# n = 4\n1 0\n0 9\n",
                  "stdin: line 3: row 4: column 9 is larger than n = 4"},
        UsageCase{{"validate", "-"},
                  "Q . .\n. Q Q\n. . .\n",
                  "stdin: line 2: row 2 has more than one queen (columns 2 and 3)"},
        UsageCase{{"validate", "-"}, "4\n1 1\n5 2\n", "stdin: line 3: row 5 is outside 1..4"},
        UsageCase{{"validate", "-"}, "", "stdin: the input holds no board"}));

TEST(CliHelpTest, PrintsUsageAndExitsWithZero) {
  const ProcessResult result = Cli({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out, StartsWith("usage: nqueens"));
  EXPECT_EQ(result.err, "");
}

TEST(CliHelpTest, AnswersDashHAndHelpCommands) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-h"}, {"help"}}) {
    const ProcessResult result = Cli(args);
    EXPECT_EQ(result.exit_code, 0) << args[0];
    EXPECT_THAT(result.out, StartsWith("usage: nqueens [flags] solve N\n"));
    EXPECT_THAT(result.out, HasSubstr("\n  --max-exact-seconds=0\n"));
    EXPECT_THAT(result.out, HasSubstr("\n  --server=\"\"\n"));
  }
  const ProcessResult complete = Cli({"help", "complete"});
  EXPECT_EQ(complete.exit_code, 0);
  EXPECT_THAT(complete.out, StartsWith("usage: nqueens [flags] complete FILE\n"));
  EXPECT_THAT(complete.out, Not(HasSubstr("solve N")));
}

// help COMMAND lists the flags that command takes and no other; every line
// of the help fits 80 columns.
TEST(CliHelpTest, HelpOfACommandListsItsFlags) {
  const ProcessResult enumerate = Cli({"help", "enumerate"});
  EXPECT_EQ(enumerate.exit_code, 0);
  EXPECT_THAT(enumerate.out, HasSubstr("\n  --limit=0\n"));
  EXPECT_THAT(enumerate.out, HasSubstr("\n  --server=\"\"\n"));
  EXPECT_THAT(enumerate.out, Not(HasSubstr("--method")));
  const ProcessResult solve = Cli({"help", "solve"});
  EXPECT_THAT(solve.out, HasSubstr("\n  --method=\"\"\n"));
  EXPECT_THAT(solve.out, Not(HasSubstr("--limit")));
  EXPECT_THAT(solve.out, Not(HasSubstr("--certificate")));
  const ProcessResult all = Cli({"--help"});
  EXPECT_THAT(all.out, HasSubstr("\n       nqueens help [COMMAND]\n"));
  for (const ProcessResult* help : {&enumerate, &solve, &all}) {
    for (absl::string_view line : absl::StrSplit(help->out, '\n')) {
      EXPECT_LE(line.size(), 80u) << line;
    }
  }
}

TEST(CliHelpTest, VersionNamesTheReleaseAndRevision) {
  const ProcessResult result = Cli({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_THAT(result.out,
              ::testing::MatchesRegex(
                  "nqueens [0-9]+\\.[0-9]+\\.[0-9]+ \\(git [^,]+, [A-Za-z]+ build\\)\n"));
}

// What bash's completion by `script` (nqueens completion bash) offers for
// the words typed so far, the last being completed.
std::vector<std::string> BashCompletes(const std::string& script,
                                       const std::vector<std::string>& typed) {
  std::string words = "nqueens";
  for (const std::string& word : typed) absl::StrAppend(&words, " '", word, "'");
  const ProcessResult result =
      Run({"/bin/bash", "-c",
           absl::StrCat("source ", script, "; COMP_WORDS=(", words, "); COMP_CWORD=", typed.size(),
                        "; _nqueens; printf '%s\\n' \"${COMPREPLY[@]}\"")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return absl::StrSplit(result.out, '\n', absl::SkipEmpty());
}

// The scripts are made from the CLI's own tables: every method of the
// core's tables, every board format, every command.
TEST(CliCompletionTest, BashCompletesCommandsFlagsAndTheirValues) {
  const ProcessResult bash = Cli({"completion", "bash"});
  ASSERT_EQ(bash.exit_code, 0) << bash.err;
  const std::string script = WriteTempFile(bash.out, ".bash");
  std::vector<std::string> methods;
  for (const auto& method : SolveMethods()) methods.push_back(method.cli_name);
  for (const auto& method : CompleteMethods()) methods.push_back(method.cli_name);
  const std::vector<std::string> offered = BashCompletes(script, {"--method", ""});
  for (const std::string& method : methods) {
    EXPECT_THAT(offered, ::testing::Contains(method)) << method;
  }
  EXPECT_THAT(BashCompletes(script, {"--method", "=", "gen"}), ::testing::ElementsAre("genetic"));
  EXPECT_THAT(BashCompletes(script, {"--output-format", "m"}), ::testing::ElementsAre("matrix"));
  EXPECT_THAT(BashCompletes(script, {"he"}), ::testing::ElementsAre("health", "help"));
  EXPECT_THAT(BashCompletes(script, {"help", "comp"}),
              ::testing::ElementsAre("complete", "completion"));
  EXPECT_THAT(BashCompletes(script, {"completion", ""}), ::testing::ElementsAre("bash", "zsh"));
  EXPECT_THAT(BashCompletes(script, {"--sym"}), ::testing::ElementsAre("--symmetry"));
  EXPECT_THAT(BashCompletes(script, {"solve", ""}), ::testing::IsEmpty());
}

TEST(CliCompletionTest, WritesZshAndRefusesOtherShells) {
  const ProcessResult zsh = Cli({"completion", "zsh"});
  EXPECT_EQ(zsh.exit_code, 0) << zsh.err;
  EXPECT_THAT(zsh.out, StartsWith("#compdef nqueens\n"));
  EXPECT_THAT(zsh.out, HasSubstr("compadd constructive random"));
  const ProcessResult fish = Cli({"completion", "fish"});
  EXPECT_EQ(fish.exit_code, 2);
  EXPECT_THAT(fish.err, HasSubstr("no script for shell \"fish\" (expected bash or zsh)"));
}

// NQUEENS_ and a flag's name in capitals sets the flag; the command line
// wins; a bad value names the variable.
TEST(CliEnvironmentTest, FlagsComeFromTheEnvironmentTooAndTheCommandLineWins) {
  const ProcessResult local =
      testing::Run({"/usr/bin/env", "NQUEENS_LOCAL=true", "NQUEENS_SYMMETRY=1", NQUEENS_CLI_PATH,
                    "--quiet", "solve", "8"});
  EXPECT_EQ(local.exit_code, 0) << local.err;
  EXPECT_EQ(Validate(ParseDense(local.out))->complete, true);
  const ProcessResult wins = testing::Run({"/usr/bin/env", "NQUEENS_SYMMETRY=9", NQUEENS_CLI_PATH,
                                           "--local", "--symmetry", "0", "solve", "8"});
  EXPECT_EQ(wins.exit_code, 0) << wins.err;
  const ProcessResult bad =
      testing::Run({"/usr/bin/env", "NQUEENS_LOCAL=maybe", NQUEENS_CLI_PATH, "solve", "8"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("NQUEENS_LOCAL"));
}

// Where the work runs follows the same rule: --local on the command line
// sets aside NQUEENS_SERVER, and --server sets aside NQUEENS_LOCAL (port 1
// of loopback has no server, so the call fails, but it was made).
TEST(CliEnvironmentTest, LocalOrServerOnTheCommandLineWinsOverTheOtherInTheEnvironment) {
  const ProcessResult local = testing::Run({"/usr/bin/env", "NQUEENS_SERVER=127.0.0.1:1",
                                            NQUEENS_CLI_PATH, "--local", "--quiet", "solve", "8"});
  EXPECT_EQ(local.exit_code, 0) << local.err;
  EXPECT_EQ(Validate(ParseDense(local.out))->complete, true);
  const ProcessResult remote =
      testing::Run({"/usr/bin/env", "NQUEENS_LOCAL=true", NQUEENS_CLI_PATH, "--server",
                    "127.0.0.1:1", "--deadline", "10s", "solve", "8"});
  EXPECT_EQ(remote.exit_code, 3) << remote.err;
  EXPECT_THAT(remote.err, HasSubstr("cannot reach server 127.0.0.1:1"));
  const ProcessResult both =
      testing::Run({"/usr/bin/env", "NQUEENS_LOCAL=true", "NQUEENS_SERVER=127.0.0.1:1",
                    NQUEENS_CLI_PATH, "solve", "8"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("--local and --server exclude each other"));
}

// `script` (util-linux) runs the CLI on a pseudo-terminal.
TEST(CliTerminalTest, RefusesToWriteBinaryToATerminal) {
  const ProcessResult result = testing::Run(
      {"/usr/bin/script", "-qec",
       absl::StrCat(NQUEENS_CLI_PATH, " --local solve 8 --output-format binary"), "/dev/null"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.out, HasSubstr("binary output would go to the terminal"));
}

TEST(CliParamTest, SetsATunableOfTheLocalSolvers) {
  // Three generations are too few for 20 x 20 with this seed.
  const ProcessResult result = Cli({"--local", "solve", "20", "--method", "genetic", "--seed", "1",
                                    "--param", "genetic_max_generations=3"});
  EXPECT_EQ(result.exit_code, 4) << result.err;
  EXPECT_THAT(result.err, HasSubstr("generations=3"));
}

TEST(CliParamTest, NeedsLocal) {
  const ProcessResult result =
      Cli({"--server", "127.0.0.1:1", "solve", "8", "--param", "sim_bound5=3"});
  EXPECT_EQ(result.exit_code, 2);
  ExpectOneErrorLine(result, "--param needs --local");
}

// Remote failures: exit status 3, one line on stderr.
TEST(CliRemoteErrorTest, UnreachableServerExitsWithThree) {
  const std::string address = absl::StrCat("127.0.0.1:", ClosedPort());
  const ProcessResult result = Cli({"--server", address, "solve", "8"});
  EXPECT_EQ(result.exit_code, 3);
  // A refused connection says how to get a server, or to do without one.
  ExpectOneErrorLine(result, "cannot reach server " + address +
                                 ": connection refused, no server listens there; start "
                                 "nqueens-server (it listens on port 50051 by default) or use "
                                 "--local to run in this process");
}

TEST(CliRemoteErrorTest, ExpiredDeadlineExitsWithThree) {
  // A real server can answer within the deadline (gRPC rounds it up to the
  // next millisecond); one that never answers cannot.
  const SilentListener listener;
  const ProcessResult result = Cli({"--server", absl::StrCat("127.0.0.1:", listener.port()),
                                    "--deadline", "50ms", "solve", "1000"});
  EXPECT_EQ(result.exit_code, 3);
  ExpectOneErrorLine(result, "deadline exceeded");
}

TEST(CliHealthTest, SaysServingOrWhyNot) {
  ServerProcess server(std::vector<std::string>{});
  ASSERT_FALSE(server.address().empty());
  for (const char* service : {"", "nqueens.v1.NQueensService"}) {
    std::vector<std::string> args = {"--server", server.address(), "health"};
    if (*service != '\0') args.push_back(service);
    const ProcessResult result = Cli(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, "SERVING\n");
  }
  const ProcessResult json = Cli({"--server", server.address(), "health", "--json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"status\":\"SERVING\"}\n");
  const ProcessResult unknown = Cli({"--server", server.address(), "health", "no.Such"});
  EXPECT_EQ(unknown.exit_code, 3);
  ExpectOneErrorLine(unknown, "NOT_FOUND");
  const ProcessResult closed =
      Cli({"--server", absl::StrCat("127.0.0.1:", ClosedPort()), "health"});
  EXPECT_EQ(closed.exit_code, 3);
  ExpectOneErrorLine(closed, "UNAVAILABLE");
}

// While a shutdown drains a long call (a Count of n = 20, about 20 minutes),
// the server answers health checks NOT_SERVING: exit 1, apart from the 3 of
// a server that cannot be asked.
TEST(CliHealthTest, NotServingExitsWithOne) {
  ServerProcess server({"--grace=60s"});
  ASSERT_FALSE(server.address().empty());
  auto stub = v1::NQueensService::NewStub(
      grpc::CreateChannel(server.address(), grpc::InsecureChannelCredentials()));
  v1::CountRequest request;
  request.set_n(20);
  request.set_progress_seconds(0.01);
  grpc::ClientContext context;
  auto reader = stub->Count(&context, request);
  v1::CountResponse message;
  ASSERT_TRUE(reader->Read(&message));  // counting

  server.Terminate();
  ProcessResult health;
  for (int attempt = 0; attempt < 100; ++attempt) {  // until the shutdown has begun
    health = Cli({"--server", server.address(), "health"});
    if (health.out != "SERVING\n") break;
  }
  EXPECT_EQ(health.out, "NOT_SERVING\n");
  EXPECT_EQ(health.exit_code, 1) << health.err;
  context.TryCancel();
  while (reader->Read(&message)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
}

TEST(CliRemoteErrorTest, ServerLimitExitsWithFive) {
  ServerProcess server({"--max-n", "1000"});
  ASSERT_FALSE(server.address().empty());
  const ProcessResult result = Cli({"--server", server.address(), "solve", "2000"});
  EXPECT_EQ(result.exit_code, 5);
  ExpectOneErrorLine(result, "limit exceeded");
}

// The error ends with the call's request id, by which the server's log finds
// the call.
TEST(CliRemoteErrorTest, ErrorsNameTheRequestId) {
  ServerProcess server({"--max-n", "1000"});
  ASSERT_FALSE(server.address().empty());
  const ProcessResult result = Cli({"--server", server.address(), "solve", "2000"});
  EXPECT_EQ(result.exit_code, 5);
  ExpectOneErrorLine(result, "limit exceeded");
  EXPECT_THAT(result.err, ::testing::ContainsRegex("\\(request id [0-9a-f]{32}\\)\n$"));
}

}  // namespace
}  // namespace nqueens::testing
