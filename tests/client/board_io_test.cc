#include "client/boards/board_io.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test_util.h"

namespace nqueens::client {
namespace {

using ::testing::HasSubstr;

Columns ParseDense(absl::string_view text, BoardFormat format) {
  absl::StatusOr<Board> board = ParseBoard(text, format);
  EXPECT_TRUE(board.ok()) << board.status();
  if (!board.ok()) return {};
  EXPECT_TRUE(MakeDense(*board).ok());
  return board->columns;
}

// The binary form of `columns`, built by hand: 4 little-endian bytes each.
std::string Bytes(std::initializer_list<uint32_t> columns) {
  std::string bytes;
  for (uint32_t column : columns) {
    for (int shift = 0; shift < 32; shift += 8) {
      bytes += static_cast<char>((column >> shift) & 0xFF);
    }
  }
  return bytes;
}

std::string WriteFile(const std::string& suffix, const std::string& content) {
  const std::string path = testing::TempPath(suffix);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

TEST(ParseBoardTest, QArrayIgnoresLineBreaksCommentsAndBlankLines) {
  const Columns columns =
      ParseDense("# a comment\n2 0\n\n  6 8 # trailing\r\n0 1 7 5\n", BoardFormat::kQArray);
  EXPECT_EQ(columns, (Columns{2, 0, 6, 8, 0, 1, 7, 5}));
}

TEST(ParseBoardTest, MatrixAcceptsDigitsGlyphsAndNoSpaces) {
  const Columns expected = {2, 4, 1, 3};
  EXPECT_EQ(ParseDense("0 1 0 0\n0 0 0 1\n1 0 0 0\n0 0 1 0\n", BoardFormat::kMatrix), expected);
  EXPECT_EQ(ParseDense(". Q . .\n. . . Q\nQ . . .\n. . Q .\n", BoardFormat::kMatrix), expected);
  EXPECT_EQ(ParseDense("0100\n0001\n# comment\n1000\n0010\n", BoardFormat::kMatrix), expected);
  EXPECT_EQ(ParseDense("0000\n0001\n....\n0010\n", BoardFormat::kMatrix), (Columns{0, 4, 0, 3}));
}

TEST(ParseBoardTest, AUtf8ByteOrderMarkIsNoPartOfATextBoard) {
  const std::string mark = "\xEF\xBB\xBF";
  EXPECT_EQ(ParseDense(mark + "2 4 1 3\n", BoardFormat::kAuto), (Columns{2, 4, 1, 3}));
  EXPECT_EQ(ParseDense(mark + "4\n1 2\n", BoardFormat::kAuto), (Columns{2, 0, 0, 0}));
  EXPECT_EQ(ParseDense(mark + ". Q\n. .\n", BoardFormat::kMatrix), (Columns{2, 0}));
  // Detection looks past it too (found by fuzzing: a sparse board was taken
  // for a Q array).
  for (const char* text : {"100110010", "4\n1 2\n", ". Q\n. .\n", "1 2 3\n"}) {
    EXPECT_EQ(DetectFormat(mark + text), DetectFormat(text)) << text;
  }
}

TEST(ParseBoardTest, QArrayCommentsMayFollowANumberDirectly) {
  EXPECT_EQ(ParseDense("2 4#x\n1\t3# y", BoardFormat::kQArray), (Columns{2, 4, 1, 3}));
}

TEST(ParseBoardTest, BinaryIsFourLittleEndianBytesPerRow) {
  EXPECT_EQ(ParseDense(Bytes({2, 4, 1, 3}), BoardFormat::kBinary), (Columns{2, 4, 1, 3}));
  EXPECT_EQ(ParseDense(Bytes({2, 4, 1, 3}), BoardFormat::kAuto), (Columns{2, 4, 1, 3}));
  Columns big(300, kEmptyRow);
  big[7] = 258;  // two bytes: 0x02 0x01
  EXPECT_EQ(ParseDense(FormatBoard(big, BoardFormat::kBinary), BoardFormat::kBinary), big);
}

TEST(ParseBoardTest, SparseKeepsQueensSortedByRow) {
  absl::StatusOr<Board> board = ParseBoard("# n\n8\n7 6\n1 1\n\n4 8\n3 5\n", BoardFormat::kSparse);
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_TRUE(board->is_sparse());
  EXPECT_EQ(board->n, 8u);
  EXPECT_EQ(board->queens, (std::vector<Queen>{{1, 1}, {3, 5}, {4, 8}, {7, 6}}));
  EXPECT_EQ(board->queen_count(), 4u);
  ASSERT_TRUE(MakeDense(*board).ok());
  EXPECT_EQ(board->columns, (Columns{1, 0, 5, 8, 0, 0, 6, 0}));
  EXPECT_EQ(board->queen_count(), 4u);
}

TEST(ParseBoardTest, SparseWithoutQueensIsTheEmptyBoard) {
  absl::StatusOr<Board> board = ParseBoard("1000\n", BoardFormat::kAuto);
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_EQ(board->n, 1000u);
  EXPECT_EQ(board->queen_count(), 0u);
}

TEST(ParseBoardTest, ParsesALargeQArray) {
  constexpr uint32_t n = 1'000'000;
  Columns columns(n);
  for (uint32_t row = 0; row < n; ++row) columns[row] = (row * 7919u) % n + 1;
  EXPECT_EQ(ParseDense(FormatBoard(columns, BoardFormat::kQArray), BoardFormat::kAuto), columns);
}

struct DetectCase {
  std::string text;
  BoardFormat expected;
};

void PrintTo(const DetectCase& c, std::ostream* out) { *out << ::testing::PrintToString(c.text); }

class DetectFormatTest : public ::testing::TestWithParam<DetectCase> {};

TEST_P(DetectFormatTest, FollowsTheDocumentedRules) {
  EXPECT_EQ(DetectFormat(GetParam().text), GetParam().expected) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, DetectFormatTest,
    ::testing::Values(
        // Rule 1: matrix.
        DetectCase{". Q\nQ .\n", BoardFormat::kMatrix}, DetectCase{"Q\n", BoardFormat::kMatrix},
        DetectCase{"0 1\n1 0\n", BoardFormat::kMatrix},
        DetectCase{"# header\n\n0100\n0001\n", BoardFormat::kMatrix},
        // Rule 2: sparse.
        DetectCase{"1000\n", BoardFormat::kSparse}, DetectCase{"1\n", BoardFormat::kSparse},
        DetectCase{"8\n1 1\n3 5\n", BoardFormat::kSparse},
        DetectCase{"# n first\n8 # size\n1 1\n", BoardFormat::kSparse},
        // Rule 3: Q array.
        DetectCase{"2 4 1 3\n", BoardFormat::kQArray},
        DetectCase{"2\n4\n1\n3\n", BoardFormat::kQArray},
        DetectCase{"0 1 0\n1 0\n", BoardFormat::kQArray},
        DetectCase{"4\n1 2 3\n", BoardFormat::kQArray}, DetectCase{"", BoardFormat::kQArray},
        DetectCase{"1 0\n", BoardFormat::kQArray},
        // Rule 0: binary.
        DetectCase{Bytes({2, 4, 1, 3}), BoardFormat::kBinary},
        DetectCase{std::string("1 2\0", 4), BoardFormat::kBinary},
        DetectCase{std::string(5000, ' ') + std::string(1, '\0') + "1", BoardFormat::kQArray}));

struct ErrorCase {
  std::string text;
  BoardFormat format;
  std::string message;
};

void PrintTo(const ErrorCase& c, std::ostream* out) { *out << ::testing::PrintToString(c.text); }

class ParseErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseErrorTest, NamesTheLineAndPlace) {
  const absl::StatusOr<Board> board = ParseBoard(GetParam().text, GetParam().format);
  ASSERT_FALSE(board.ok()) << GetParam().text;
  EXPECT_EQ(board.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(board.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    QArray, ParseErrorTest,
    ::testing::Values(
        ErrorCase{"", BoardFormat::kQArray, "the input holds no board"},
        ErrorCase{"# only a comment\n\n", BoardFormat::kAuto, "the input holds no board"},
        ErrorCase{"1 x 3", BoardFormat::kQArray, "line 1: expected a number, found \"x\""},
        ErrorCase{"1 -2 3", BoardFormat::kQArray, "line 1: expected a number, found \"-2\""},
        ErrorCase{"1 2\n# comment\n9 0\n", BoardFormat::kQArray,
                  "line 3: row 3: column 9 is larger than n = 4"},
        ErrorCase{"0 99999999999999999999999", BoardFormat::kQArray,
                  "line 1: row 2: column 99999999999999999999999 is too large"}));

INSTANTIATE_TEST_SUITE_P(
    Matrix, ParseErrorTest,
    ::testing::Values(ErrorCase{"1 0\n1 1\n", BoardFormat::kMatrix,
                                "line 2: row 2 has more than one queen (columns 1 and 2)"},
                      ErrorCase{"1 0 0\n\n0 1\n0 0 1\n", BoardFormat::kMatrix,
                                "line 3: row 2 has 2 cells, expected 3"},
                      ErrorCase{"1 0\n0 x\n", BoardFormat::kMatrix,
                                "line 2: row 2, column 2: unexpected 'x' (cells are 0, 1, . "
                                "or Q)"},
                      ErrorCase{"1 0\n0 0\n0 1\n", BoardFormat::kMatrix,
                                "line 3: more than 2 rows in a matrix of 2 columns"},
                      ErrorCase{"1 0 0\n0 0 0\n", BoardFormat::kMatrix,
                                "the matrix has 2 rows, expected 3 (one per column)"},
                      ErrorCase{"", BoardFormat::kMatrix, "the input holds no board"}));

INSTANTIATE_TEST_SUITE_P(
    Sparse, ParseErrorTest,
    ::testing::Values(
        ErrorCase{"4 4\n1 1\n", BoardFormat::kSparse,
                  "line 1: expected the board size n alone on the first line"},
        ErrorCase{"0\n", BoardFormat::kSparse, "line 1: n must be at least 1"},
        ErrorCase{"3000000000\n", BoardFormat::kSparse,
                  "line 1: n = 3000000000 is larger than the largest board, "
                  "2147483647"},
        ErrorCase{"4\n1 2 3\n", BoardFormat::kSparse, "line 2: expected \"row column\""},
        ErrorCase{"4\n1\n", BoardFormat::kSparse, "line 2: expected \"row column\""},
        ErrorCase{"4\na 1\n", BoardFormat::kSparse, "line 2: expected a number, found \"a\""},
        ErrorCase{"4\n5 1\n", BoardFormat::kSparse, "line 2: row 5 is outside 1..4"},
        ErrorCase{"4\n1 0\n", BoardFormat::kSparse, "line 2: column 0 is outside 1..4"},
        ErrorCase{"4\n3 1\n2 4\n\n# again\n3 2\n", BoardFormat::kSparse,
                  "line 6: row 3 already has a queen (line 2)"},
        ErrorCase{"", BoardFormat::kSparse, "the input holds no board"}));

INSTANTIATE_TEST_SUITE_P(
    Binary, ParseErrorTest,
    ::testing::Values(ErrorCase{"", BoardFormat::kBinary, "the input holds no board"},
                      ErrorCase{std::string("\1\0\0\0\2", 5), BoardFormat::kBinary,
                                "a binary board holds 4 bytes per row, but the input has 5 "
                                "bytes, not a multiple of 4"},
                      ErrorCase{Bytes({2, 9}), BoardFormat::kBinary,
                                "row 2: column 9 is larger than n = 2"},
                      ErrorCase{Bytes({0xFFFFFFFF}), BoardFormat::kBinary,
                                "row 1: column 4294967295 is larger than n = 1"}));

TEST(FormatBoardTest, WritesEachFormat) {
  const Columns columns = {2, 0, 1};
  EXPECT_EQ(FormatBoard(columns, BoardFormat::kQArray), "2 0 1\n");
  EXPECT_EQ(FormatBoard(columns, BoardFormat::kBinary), Bytes({2, 0, 1}));
  EXPECT_EQ(FormatBoard(columns, BoardFormat::kSparse), "3\n1 2\n3 1\n");
  EXPECT_EQ(FormatBoard(columns, BoardFormat::kMatrix), "0 1 0\n0 0 0\n1 0 0\n");
}

TEST(FormatBoardTest, EveryFormatRoundTripsThroughDetection) {
  for (BoardFormat format :
       {BoardFormat::kQArray, BoardFormat::kMatrix, BoardFormat::kSparse, BoardFormat::kBinary}) {
    SCOPED_TRACE(static_cast<int>(format));
    // More than one 1 MiB output piece, empty rows, a queen in column n.
    const uint32_t n = format == BoardFormat::kMatrix ? 1000 : 300000;
    Columns columns(n, kEmptyRow);
    for (uint32_t row = 0; row < n; row += 3) columns[row] = n - row;
    const std::string text = FormatBoard(columns, format);
    ASSERT_GT(text.size(), size_t{1} << 20);
    EXPECT_EQ(DetectFormat(text), format);
    EXPECT_EQ(ParseDense(text, BoardFormat::kAuto), columns);
  }
}

TEST(FormatBoardTest, MatrixOutputIsLimited) {
  EXPECT_TRUE(CheckOutputFormat(kMaxMatrixOutputSize, BoardFormat::kMatrix).ok());
  const absl::Status too_big = CheckOutputFormat(kMaxMatrixOutputSize + 1, BoardFormat::kMatrix);
  EXPECT_EQ(too_big.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_big.message(), HasSubstr("--output-format q, sparse or binary"));
  EXPECT_TRUE(CheckOutputFormat(uint64_t{1} << 30, BoardFormat::kSparse).ok());
  EXPECT_TRUE(CheckOutputFormat(uint64_t{1} << 30, BoardFormat::kBinary).ok());
  EXPECT_FALSE(CheckOutputFormat(8, BoardFormat::kAuto).ok());
}

TEST(BoardTest, MakeSparseAndMakeDenseRoundTrip) {
  Board board;
  board.n = 6;
  board.columns = {0, 3, 0, 0, 6, 1};
  MakeSparse(board);
  EXPECT_TRUE(board.is_sparse());
  EXPECT_EQ(board.queens, (std::vector<Queen>{{2, 3}, {5, 6}, {6, 1}}));
  ASSERT_TRUE(MakeDense(board).ok());
  EXPECT_EQ(board.columns, (Columns{0, 3, 0, 0, 6, 1}));
  EXPECT_TRUE(board.queens.empty());
}

TEST(BoardFormatTest, ParsesNames) {
  EXPECT_EQ(*ParseBoardFormat("auto"), BoardFormat::kAuto);
  EXPECT_EQ(*ParseBoardFormat("q"), BoardFormat::kQArray);
  EXPECT_EQ(*ParseBoardFormat("matrix"), BoardFormat::kMatrix);
  EXPECT_EQ(*ParseBoardFormat("sparse"), BoardFormat::kSparse);
  EXPECT_EQ(*ParseBoardFormat("binary"), BoardFormat::kBinary);
  EXPECT_EQ(ParseBoardFormat("csv").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(BoardFormatTest, BinaryFileNamesImplyTheBinaryFormat) {
  EXPECT_EQ(FormatFromPath("board.bin"), BoardFormat::kBinary);
  EXPECT_EQ(FormatFromPath("/tmp/x.u32"), BoardFormat::kBinary);
  EXPECT_EQ(FormatFromPath("board.q"), BoardFormat::kAuto);
  EXPECT_EQ(FormatFromPath("bin"), BoardFormat::kAuto);
  EXPECT_EQ(FormatFromPath("-"), BoardFormat::kAuto);
}

TEST(LoadBoardTest, ReadsBinaryFilesByNameOrContent) {
  for (const char* suffix : {".bin", ".u32", ".board"}) {
    SCOPED_TRACE(suffix);
    const std::string path = WriteFile(suffix, Bytes({2, 4, 1, 3}));
    absl::StatusOr<Board> board = LoadBoard(path, BoardFormat::kAuto);
    ASSERT_TRUE(board.ok()) << board.status();
    EXPECT_EQ(board->columns, (Columns{2, 4, 1, 3}));
  }
}

TEST(LoadBoardTest, ReadsLargeBinaryFilesWhole) {
  // More than one read of 16 MiB; ends on a queen in column n.
  constexpr uint32_t n = 5'000'000;
  Columns columns(n, kEmptyRow);
  for (uint32_t row = 0; row < n; row += 1000) columns[row] = n - row;
  const std::string path = WriteFile(".bin", FormatBoard(columns, BoardFormat::kBinary));
  absl::StatusOr<Board> board = LoadBoard(path, BoardFormat::kAuto);
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_EQ(board->n, n);
  EXPECT_TRUE(board->columns == columns);
}

TEST(LoadBoardTest, TheFileNameWinsOverTheContent) {
  const std::string path = WriteFile(".u32", "1 2 3 4\n");  // 8 bytes
  absl::StatusOr<Board> board = LoadBoard(path, BoardFormat::kAuto);
  EXPECT_EQ(board.status().message(),
            absl::StrCat(path, ": row 1: column 540155953 is larger than n = 2"));
  board = LoadBoard(path, BoardFormat::kQArray);
  ASSERT_TRUE(board.ok()) << board.status();
  EXPECT_EQ(board->columns, (Columns{1, 2, 3, 4}));
}

TEST(LoadBoardTest, ErrorsNameTheFile) {
  const std::string odd = WriteFile(".bin", "123456");
  EXPECT_EQ(LoadBoard(odd, BoardFormat::kAuto).status().message(),
            absl::StrCat(odd,
                         ": a binary board holds 4 bytes per row, but "
                         "the input has 6 bytes, not a multiple of 4"));
  const std::string text = WriteFile(".q", "1 x\n");
  EXPECT_EQ(LoadBoard(text, BoardFormat::kAuto).status().message(),
            absl::StrCat(text, ": line 1: expected a number, found \"x\""));
  std::remove(text.c_str());
  EXPECT_EQ(LoadBoard(text, BoardFormat::kAuto).status().message(),
            absl::StrCat("cannot open ", text, ": No such file or directory"));
}

// A file of `size` bytes that takes no room on disk (a hole).
std::string SparseFile(const std::string& suffix, uint64_t size) {
  const std::string path = testing::TempPath(suffix);
  std::ofstream(path, std::ios::binary).flush();
  EXPECT_EQ(truncate(path.c_str(), static_cast<off_t>(size)), 0) << path;
  return path;
}

// Larger than any board in its format: refused by its size, before any of
// it is read.
TEST(LoadBoardTest, RefusesFilesLargerThanTheLargestBoard) {
  const std::string binary = SparseFile(".bin", 4 * kMaxBoardSize + 4);
  EXPECT_EQ(LoadBoard(binary, BoardFormat::kAuto).status().message(),
            absl::StrCat(binary, ": larger than ", 4 * kMaxBoardSize,
                         " bytes, the most a board of at most 2147483647 rows takes in its "
                         "format"));
  std::remove(binary.c_str());
  const std::string text = SparseFile(".q", 16 * kMaxBoardSize + 1);
  EXPECT_THAT(std::string(LoadBoard(text, BoardFormat::kAuto).status().message()),
              ::testing::StartsWith(absl::StrCat(text, ": larger than ", 16 * kMaxBoardSize)));
  std::remove(text.c_str());
}

TEST(ReadInputTest, ReadsAFileAndNamesAMissingOne) {
  const std::string path = testing::TempPath(".q");
  std::ofstream(path) << "2 4 1 3\n";
  const absl::StatusOr<std::string> text = ReadInput(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "2 4 1 3\n");

  std::remove(path.c_str());
  const absl::StatusOr<std::string> missing = ReadInput(path);
  EXPECT_EQ(missing.status().message(),
            absl::StrCat("cannot open ", path, ": No such file or directory"));
}

}  // namespace
}  // namespace nqueens::client
