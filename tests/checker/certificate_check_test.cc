// The checker (checker/certificate_check.h) on certificates that this test
// writes itself, independently of the core and of the checker: a brute-force
// search over tiny boards writes their whole tree in both formats
// (docs/reference/certificates.md; binary versions 2 and 3, the latter with
// packed and framed subtrees), which the checker must accept on both board
// representations, in frames cut anywhere and sources of any chunk size; and
// altered (cut, flipped, children dropped or doubled, wrong leaves), which it
// must refuse with INVALID_ARGUMENT naming the place.
#include "checker/certificate_check.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "checker/row_matching.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nqueens::checker {
namespace {

using Columns = std::vector<uint32_t>;
using ::testing::HasSubstr;

constexpr char kDead = 0, kHall = 1, kOther = 2, kRanked = 3, kBranch = 4, kRowBranch = 5,
               kColumnBranch = 6, kPacked = 7, kFramed = 8;

std::string Varint(uint64_t value) {
  std::string bytes;
  while (value >= 0x80) {
    bytes.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  bytes.push_back(static_cast<char>(value));
  return bytes;
}

std::string Compressed(absl::string_view bytes) {
  uLongf size = compressBound(bytes.size());
  std::string out(size, '\0');
  EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                      reinterpret_cast<const Bytef*>(bytes.data()), bytes.size(), 9),
            Z_OK);
  out.resize(size);
  return out;
}

std::string Frame(absl::string_view tree_bytes) {
  const std::string zlib = Compressed(tree_bytes);
  return Varint(zlib.size()) + zlib;
}

uint64_t Given(const Columns& composition) {
  return composition.size() - std::count(composition.begin(), composition.end(), 0u);
}

std::string BinaryHeader(const Columns& composition, uint64_t part_index = 0,
                         uint64_t part_count = 0) {
  return absl::StrCat("NQCERT\r\n", Varint(3), Varint(composition.size()),
                      Varint(Given(composition)), Varint(part_index), Varint(part_count));
}

// A binary certificate whose tree stream is `tree`, in one frame per piece
// between the cuts (ascending offsets into the tree).
std::string Binary(const Columns& composition, absl::string_view tree,
                   const std::vector<size_t>& cuts = {}, uint64_t part_index = 0,
                   uint64_t part_count = 0) {
  std::string certificate = BinaryHeader(composition, part_index, part_count);
  size_t start = 0;
  for (const size_t cut : cuts) {
    certificate += Frame(tree.substr(start, cut - start));
    start = cut;
  }
  return certificate + Frame(tree.substr(start)) + Varint(0);
}

// A binary certificate made version 2 (its header's one-byte version).
std::string WithVersion2(std::string certificate) {
  certificate[8] = 2;
  return certificate;
}

std::string TextHeader(const Columns& composition) {
  return absl::StrCat("nqueens-certificate 1\nn ", composition.size(), "\ngiven ",
                      Given(composition), "\nproof\n");
}

bool Attack(int64_t row_a, int64_t column_a, int64_t row_b, int64_t column_b) {
  return row_a == row_b || column_a == column_b || row_a - row_b == column_a - column_b ||
         row_a - row_b == column_b - column_a;
}

// Whether rows `row`.. of `columns` (0: empty) can be filled so that no two
// queens attack each other (1-based columns, 0-based rows).
bool Completes(Columns& columns, uint32_t row) {
  const uint32_t n = static_cast<uint32_t>(columns.size());
  if (row == n) return true;
  if (columns[row] != 0) return Completes(columns, row + 1);
  for (uint32_t column = 1; column <= n; ++column) {
    bool open = true;
    for (uint32_t other = 0; other < n && open; ++other) {
      open = columns[other] == 0 || !Attack(other, columns[other], row, column);
    }
    if (!open) continue;
    columns[row] = column;
    const bool completes = Completes(columns, row + 1);
    columns[row] = 0;
    if (completes) return true;
  }
  return false;
}

// Whether no two queens of `columns` attack each other.
bool Apart(const Columns& columns) {
  for (uint32_t row = 0; row < columns.size(); ++row) {
    for (uint32_t other = 0; other < row; ++other) {
      if (columns[row] != 0 && columns[other] != 0 &&
          Attack(other, columns[other], row, columns[row])) {
        return false;
      }
    }
  }
  return true;
}

// Compositions of 4 to 10 rows without a completion: queens placed at random
// where no other attacks them; square holes (queens in the first k rows and
// the last k columns, leaving consecutive free rows and columns, where the
// checker counts diagonals in its own way); and the empty boards of 2 and 3
// rows.
std::vector<Columns> UnsolvableBoards() {
  std::vector<Columns> boards = {{0, 0}, {0, 0, 0}};
  for (uint32_t n = 5; n <= 10; ++n) {
    for (uint32_t k = 1; k <= 4; ++k) {
      Columns corner(k);
      for (uint32_t j = 0; j < k; ++j) corner[j] = n - k + 1 + j;
      do {
        Columns columns = corner;
        columns.resize(n);
        if (!Apart(columns) || Completes(columns, 0)) continue;
        boards.push_back(columns);
      } while (std::next_permutation(corner.begin(), corner.end()));
    }
  }
  std::mt19937 random(56);
  for (uint32_t n = 4; n <= 10; ++n) {
    int found = 0;
    for (int trial = 0; trial < 2000 && found < 5; ++trial) {
      Columns columns(n);
      const uint32_t queens = 1 + random() % std::min(n - 2, 4u);
      for (uint32_t placed = 0; placed < queens; ++placed) {
        const uint32_t row = random() % n, column = 1 + random() % n;
        bool open = columns[row] == 0;
        for (uint32_t other = 0; other < n && open; ++other) {
          open = columns[other] == 0 || !Attack(other, columns[other], row, column);
        }
        if (open) columns[row] = column;
      }
      if (Completes(columns, 0)) continue;
      boards.push_back(columns);
      ++found;
    }
  }
  return boards;
}

// How the encoder alters its `target`-th branch (in preorder).
enum class Mutation { kNone, kDropChild, kDoubleChild, kDeadLeaf, kHallOfAll, kUnranked };

struct EncoderOptions {
  bool ranked = false;  // a `ranked` root and `branch` nodes, else explicit ones
  bool hall = true;     // Hall leaves where some rows fail Hall's condition
  uint32_t seed = 0;    // of the ranks
  Mutation mutation = Mutation::kNone;
  int target = 0;
  bool packed = false;  // (ranked) the tree in bits: whole, or each child of a framed root's
  bool framed = false;  // each child of the root a framed node of two frames, cut in its middle
};

// The bits of an index among k >= 2 cells left in a packed subtree.
int IndexWidth(uint64_t k) { return 64 - __builtin_clzll(k - 1); }

// Writes the tree of a full search of a composition without a completion,
// by brute force at every node, in the binary format and in the text one,
// as the format describes them (leaves: an empty line, else the diagonal
// sums, else Hall's condition; branches on the line with fewest open
// cells).
class Encoder {
 public:
  Encoder(const Columns& composition, const EncoderOptions& options) : options_(options) {
    const uint32_t n = static_cast<uint32_t>(composition.size());
    std::vector<bool> column_taken(n + 1);
    for (uint32_t row = 1; row <= n; ++row) {
      if (composition[row - 1] == 0) {
        rows_.push_back(row);
      } else {
        queens_.emplace_back(row, composition[row - 1]);
        column_taken[composition[row - 1]] = true;
      }
    }
    for (uint32_t column = 1; column <= n; ++column) {
      if (!column_taken[column]) columns_.push_back(column);
    }
    row_ranks_.resize(rows_.size());
    column_ranks_.resize(columns_.size());
    for (uint32_t x = 0; x < rows_.size(); ++x) row_ranks_[x] = column_ranks_[x] = x;
    std::mt19937 random(options.seed);
    std::shuffle(row_ranks_.begin(), row_ranks_.end(), random);
    std::shuffle(column_ranks_.begin(), column_ranks_.end(), random);
  }

  // False when the search meets a completion.
  bool Encode() {
    if (options_.ranked) {
      tree_.push_back(kRanked);
      for (const uint32_t a : row_ranks_) tree_ += Varint(a);
      for (const uint32_t b : column_ranks_) tree_ += Varint(b);
    }
    return Node(0);
  }
  const std::string& tree() const { return tree_; }
  const std::string& text() const { return text_; }
  int branches() const { return branches_; }
  // The offsets of the tree where its frames must end (framed nodes').
  const std::vector<size_t>& cuts() const { return cuts_; }
  // The offset of the first packed subtree's bits.
  size_t bits_at() const { return bits_at_; }

  // Whether `bits` proves the board, read as the bits of a packed subtree
  // at the root (then 0 bits up to its byte's end) by the rules of the
  // format, replayed by brute force at every node.
  bool Replays(absl::string_view bits) {
    size_t at = 0;
    if (!Replay(bits, at) || (at + 7) / 8 != bits.size()) return false;
    for (; at < 8 * bits.size(); ++at) {
      if ((bits[at / 8] >> at % 8 & 1) != 0) return false;
    }
    return true;
  }

 private:
  struct Line {
    bool by_row;
    uint32_t x;
    std::vector<uint32_t> open;  // the other free indices of its open cells
  };

  bool Open(uint32_t row, uint32_t column) const {
    for (const auto& [queen_row, queen_column] : queens_) {
      if (Attack(queen_row, queen_column, row, column)) return false;
    }
    return true;
  }
  bool Placed(bool by_row, uint32_t x) const {
    for (const auto& [row, column] : queens_) {
      if ((by_row ? row : column) == (by_row ? rows_[x] : columns_[x])) return true;
    }
    return false;
  }
  // The unplaced lines, rows then columns, in free index order.
  std::vector<Line> Lines() const {
    std::vector<Line> lines;
    for (const bool by_row : {true, false}) {
      for (uint32_t x = 0; x < rows_.size(); ++x) {
        if (Placed(by_row, x)) continue;
        Line line{by_row, x, {}};
        for (uint32_t y = 0; y < rows_.size(); ++y) {
          if (by_row ? Open(rows_[x], columns_[y]) : Open(rows_[y], columns_[x])) {
            line.open.push_back(y);
          }
        }
        lines.push_back(line);
      }
    }
    return lines;
  }

  bool SumsFail(const std::vector<Line>& lines) const {
    std::vector<int64_t> sums, differences;
    int64_t rows = 0, columns = 0;
    uint64_t q = 0;
    for (const Line& line : lines) {
      if (!line.by_row) {
        columns += columns_[line.x];
        continue;
      }
      ++q;
      rows += rows_[line.x];
      for (const uint32_t b : line.open) {
        sums.push_back(int64_t{rows_[line.x]} + columns_[b]);
        differences.push_back(int64_t{rows_[line.x]} - columns_[b]);
      }
    }
    const auto outside = [q](std::vector<int64_t> values, int64_t total) {
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      if (values.size() < q) return true;
      int64_t least = 0, greatest = 0;
      for (uint64_t i = 0; i < q; ++i) {
        least += values[i];
        greatest += values[values.size() - 1 - i];
      }
      return total < least || total > greatest;
    };
    return outside(sums, rows + columns) || outside(differences, rows - columns);
  }

  // Rows failing Hall's condition, or none.
  std::vector<uint32_t> HallRows(const std::vector<Line>& lines) const {
    std::vector<const Line*> rows;
    for (const Line& line : lines) {
      if (line.by_row) rows.push_back(&line);
    }
    for (uint32_t set = 1; set < (1u << rows.size()); ++set) {
      uint64_t columns = 0;
      std::vector<uint32_t> chosen;
      for (uint32_t i = 0; i < rows.size(); ++i) {
        if ((set >> i & 1) == 0) continue;
        chosen.push_back(rows[i]->x);
        for (const uint32_t b : rows[i]->open) columns |= uint64_t{1} << b;
      }
      if (static_cast<size_t>(__builtin_popcountll(columns)) < chosen.size()) return chosen;
    }
    return {};
  }

  // Whether a node is a dead leaf of any reason (a packed one's).
  bool Dead(const std::vector<Line>& lines) const {
    for (const Line& line : lines) {
      if (line.open.empty()) return true;
    }
    return SumsFail(lines) || !HallRows(lines).empty();
  }

  // Packed subtrees: `width` bits of `value`, lowest first.
  void Bits(uint64_t value, int width) {
    for (int i = 0; i < width; ++i, ++bit_) {
      if (bit_ % 8 == 0) tree_.push_back(0);
      if ((value >> i & 1) != 0) tree_.back() = static_cast<char>(tree_.back() | 1 << bit_ % 8);
    }
  }
  // False past the end of `bits`.
  static bool Read(absl::string_view bits, size_t& at, int width, uint64_t* value) {
    *value = 0;
    for (int i = 0; i < width; ++i, ++at) {
      if (at / 8 >= bits.size()) return false;
      *value |= uint64_t{(bits[at / 8] >> at % 8 & 1) != 0} << i;
    }
    return true;
  }
  bool Replay(absl::string_view bits, size_t& at) {
    const std::vector<Line> lines = Lines();
    uint64_t bit;
    if (!Read(bits, at, 1, &bit)) return false;
    if (bit == 0) return Dead(lines);
    if (lines.empty()) return false;
    const Line& line = Choose(lines, 0);
    std::vector<uint32_t> left = line.open;
    while (!left.empty()) {
      uint64_t index = 0;
      if (left.size() > 1 && !Read(bits, at, IndexWidth(left.size()), &index)) return false;
      if (index >= left.size()) return false;
      const uint32_t other = left[index];
      left.erase(left.begin() + static_cast<ptrdiff_t>(index));
      queens_.emplace_back(rows_[line.by_row ? line.x : other],
                           columns_[line.by_row ? other : line.x]);
      const bool proof = Replay(bits, at);
      queens_.pop_back();
      if (!proof) return false;
    }
    return true;
  }

  void DeadTag() {
    if (packing_) {
      Bits(0, 1);
    } else {
      tree_.push_back(kDead);
    }
  }
  void Leaf(absl::string_view text) {
    DeadTag();
    absl::StrAppend(&text_, text, "\n");
  }
  // Binary: a bit per unplaced row, in order; packed: a dead bit.
  void Hall(const std::vector<uint32_t>& rows, const std::vector<Line>& lines) {
    absl::StrAppend(&text_, "h ", rows.size());
    for (const uint32_t a : rows) absl::StrAppend(&text_, " ", rows_[a]);
    text_ += "\n";
    if (packing_) {
      Bits(0, 1);
      return;
    }
    tree_.push_back(kHall);
    std::string bits;
    int unplaced = 0;
    for (const Line& line : lines) {
      if (!line.by_row) continue;
      if (unplaced % 8 == 0) bits.push_back(0);
      if (std::count(rows.begin(), rows.end(), line.x) != 0) bits.back() |= 1 << unplaced % 8;
      ++unplaced;
    }
    tree_ += bits;
  }

  // The line of the branch: with ranks, the rule's; else the first line with
  // fewest open cells, rows first at even depths and columns at odd ones.
  const Line& Choose(const std::vector<Line>& lines, size_t depth) const {
    const Line* best = nullptr;
    const auto rank = [&](const Line& line) {
      const std::vector<uint32_t>& order = line.by_row ? row_ranks_ : column_ranks_;
      return std::find(order.begin(), order.end(), line.x) - order.begin();
    };
    for (const Line& line : lines) {
      if (best == nullptr || line.open.size() < best->open.size()) {
        best = &line;
        continue;
      }
      if (line.open.size() > best->open.size()) continue;
      if (options_.ranked) {
        if (line.by_row == best->by_row && rank(line) < rank(*best)) best = &line;
      } else if (!line.by_row && depth % 2 == 1 && best->by_row) {
        best = &line;
      }
    }
    return *best;
  }

  // A packed subtree starts at the root, or below a framed root.
  bool Node(size_t depth) {
    if (!options_.packed || packing_ || (options_.framed && depth == 0)) return Write(depth);
    tree_.push_back(kPacked);
    if (bits_at_ == 0) bits_at_ = tree_.size();
    packing_ = true;
    bit_ = 0;
    const bool closed = Write(depth);
    packing_ = false;
    return closed;
  }

  // A framed node of two frames, cut in the middle of its subtree.
  bool Framed(size_t depth) {
    tree_.push_back(kFramed);
    tree_ += Varint(2);
    cuts_.push_back(tree_.size());
    const size_t start = tree_.size();
    const bool closed = Node(depth);
    cuts_.push_back(start + (tree_.size() - start) / 2);
    cuts_.push_back(tree_.size());
    return closed;
  }

  bool Write(size_t depth) {
    const std::vector<Line> lines = Lines();
    if (lines.empty()) return false;
    for (const Line& line : lines) {
      if (line.open.empty()) {
        Leaf(absl::StrCat("e ", line.by_row ? "r " : "c ",
                          line.by_row ? rows_[line.x] : columns_[line.x]));
        return true;
      }
    }
    if (SumsFail(lines)) {
      Leaf("s");
      return true;
    }
    if (options_.hall) {
      if (const std::vector<uint32_t> rows = HallRows(lines); !rows.empty()) {
        Hall(rows, lines);
        return true;
      }
    }
    return Branch(Choose(lines, depth), lines, depth);
  }

  bool Branch(const Line& line, const std::vector<Line>& lines, size_t depth) {
    const bool target = branches_++ == options_.target;
    const Mutation mutation = target ? options_.mutation : Mutation::kNone;
    if (mutation == Mutation::kDeadLeaf) {
      DeadTag();
      return true;
    }
    if (mutation == Mutation::kHallOfAll) {
      std::vector<uint32_t> rows;
      for (const Line& unplaced : lines) {
        if (unplaced.by_row) rows.push_back(unplaced.x);
      }
      Hall(rows, lines);
      return true;
    }
    if (packing_) {
      Bits(1, 1);
    } else if (options_.ranked || mutation == Mutation::kUnranked) {
      tree_.push_back(kBranch);
    } else {
      tree_.push_back(static_cast<char>(line.by_row ? kRowBranch : kColumnBranch));
      tree_ += Varint(line.x);
    }
    absl::StrAppend(&text_, "b ", line.by_row ? "r " : "c ",
                    line.by_row ? rows_[line.x] : columns_[line.x], " ", line.open.size(), "\n");
    // Children in descending order (any order is the format's), each but
    // the last by its index among the cells left.
    std::vector<uint32_t> children(line.open.rbegin(), line.open.rend());
    std::vector<uint32_t> left = line.open;
    if (mutation == Mutation::kDropChild) children.pop_back();
    if (mutation == Mutation::kDoubleChild) children.push_back(children.front());
    for (size_t i = 0; i < children.size(); ++i) {
      const uint32_t other = children[i];
      const uint32_t row = rows_[line.by_row ? line.x : other];
      const uint32_t column = columns_[line.by_row ? other : line.x];
      const auto cell = std::find(left.begin(), left.end(), other);
      if (i + 1 < line.open.size()) Index(cell - left.begin(), left.size());
      if (cell != left.end()) left.erase(cell);
      absl::StrAppend(&text_, "p ", row, " ", column, "\n");
      queens_.emplace_back(row, column);
      const bool closed = options_.framed && depth == 0 ? Framed(depth + 1) : Node(depth + 1);
      queens_.pop_back();
      if (!closed) return false;
    }
    return true;
  }
  // A child's index among the k cells left.
  void Index(uint64_t index, uint64_t k) {
    if (packing_) {
      Bits(index, IndexWidth(k));
    } else {
      tree_ += Varint(index);
    }
  }

  EncoderOptions options_;
  std::vector<uint32_t> rows_, columns_;  // free lines, board coordinates
  std::vector<std::pair<uint32_t, uint32_t>> queens_;
  std::vector<uint32_t> row_ranks_, column_ranks_;  // free lines by rank
  std::string tree_, text_;
  int branches_ = 0;
  std::vector<size_t> cuts_;
  bool packing_ = false;
  uint64_t bit_ = 0;  // of the packed subtree being written
  size_t bits_at_ = 0;
};

// A source giving `bytes` in chunks of `chunk` bytes.
ByteSource Chunks(absl::string_view bytes, size_t chunk) {
  return [bytes, chunk, at = size_t{0}]() mutable -> absl::StatusOr<absl::string_view> {
    const absl::string_view piece = bytes.substr(std::min(at, bytes.size()), chunk);
    at += piece.size();
    return piece;
  };
}

absl::Status Check(const Columns& composition, absl::string_view certificate,
                   bool wide_board = false, size_t chunk = 0, int threads = 1) {
  CheckOptions options;
  options.wide_board = wide_board;
  options.threads = threads;
  return CheckCertificateSet(
             composition, 1,
             [&](size_t) -> absl::StatusOr<ByteSource> {
               return chunk == 0 ? SourceOf(certificate) : Chunks(certificate, chunk);
             },
             options)
      .status;
}

// Checks on both board representations, which must agree to the message.
absl::Status CheckBoth(const Columns& composition, absl::string_view certificate) {
  const absl::Status word = Check(composition, certificate);
  EXPECT_EQ(word, Check(composition, certificate, true));
  return word;
}

std::string Encoded(const Columns& composition, const EncoderOptions& options) {
  Encoder encoder(composition, options);
  EXPECT_TRUE(encoder.Encode());
  return Binary(composition, encoder.tree(), encoder.cuts());
}

TEST(CertificateCheckTest, TheTestBoardsAreUnsolvable) {
  const std::vector<Columns> boards = UnsolvableBoards();
  EXPECT_GE(boards.size(), 20u);
  for (Columns board : boards) EXPECT_FALSE(Completes(board, 0));
}

// Version 2 too, without packed and framed subtrees.
TEST(CertificateCheckTest, BinaryTreesOfEveryShapeCheck) {
  for (const Columns& board : UnsolvableBoards()) {
    for (const bool hall : {false, true}) {
      for (const bool ranked : {false, true}) {
        for (uint32_t seed = 0; seed < (ranked ? 3u : 1u); ++seed) {
          for (const bool packed : {false, ranked}) {
            for (const bool framed : {false, true}) {
              const std::string certificate =
                  Encoded(board, {ranked, hall, seed, Mutation::kNone, 0, packed, framed});
              EXPECT_TRUE(CheckBoth(board, certificate).ok())
                  << CheckBoth(board, certificate) << " " << ::testing::PrintToString(board)
                  << " packed " << packed << " framed " << framed;
              if (packed || framed) continue;
              EXPECT_TRUE(CheckBoth(board, WithVersion2(certificate)).ok());
            }
          }
        }
      }
    }
  }
}

// The text of a binary certificate, as the checker writes it (its --text).
std::string TextOf(const Columns& board, const std::string& binary) {
  CheckOptions options;
  std::string text;
  options.text = [&text](absl::string_view piece) { absl::StrAppend(&text, piece); };
  EXPECT_TRUE(
      CheckCertificateSet(
          board, 1, [&](size_t) -> absl::StatusOr<ByteSource> { return SourceOf(binary); }, options)
          .status.ok());
  return text;
}

TEST(CertificateCheckTest, TheTextOfABinaryCertificateIsTheTextFormat) {
  for (const Columns& board : UnsolvableBoards()) {
    for (const bool ranked : {false, true}) {
      Encoder encoder(board, {ranked, true, 7});
      ASSERT_TRUE(encoder.Encode());
      const std::string text = TextOf(board, Binary(board, encoder.tree()));
      const std::string expected = TextHeader(board) + encoder.text() + "end\n";
      EXPECT_EQ(text, expected);
      EXPECT_TRUE(CheckBoth(board, expected).ok()) << CheckBoth(board, expected);
    }
  }
}

// A packed subtree's dead leaves carry no reason: the text names the one the
// checker found, which is the encoder's but for the rows of a Hall leaf
// (the checker's matching finds its own), and checks.
TEST(CertificateCheckTest, TheTextOfAPackedTreeNamesTheReasonsFound) {
  const auto without_hall_rows = [](const std::string& text) {
    std::vector<std::string> lines = absl::StrSplit(text, '\n');
    for (std::string& line : lines) {
      if (absl::StartsWith(line, "h ")) line = "h";
    }
    return absl::StrJoin(lines, "\n");
  };
  int hall_leaves = 0;
  for (const Columns& board : UnsolvableBoards()) {
    Encoder encoder(board, {true, true, 7, Mutation::kNone, 0, true});
    ASSERT_TRUE(encoder.Encode());
    const std::string text = TextOf(board, Binary(board, encoder.tree()));
    const std::string expected = TextHeader(board) + encoder.text() + "end\n";
    EXPECT_EQ(without_hall_rows(text), without_hall_rows(expected));
    EXPECT_TRUE(CheckBoth(board, text).ok()) << CheckBoth(board, text);
    hall_leaves += static_cast<int>(absl::StrContains(text, "\nh "));
  }
  EXPECT_GT(hall_leaves, 0);
}

// The longest tree of the test boards, which the tests below cut and alter.
std::pair<Columns, Encoder> LongestTree(const EncoderOptions& options) {
  std::pair<Columns, Encoder> longest = {{}, Encoder({}, options)};
  for (const Columns& board : UnsolvableBoards()) {
    Encoder encoder(board, options);
    EXPECT_TRUE(encoder.Encode());
    if (encoder.tree().size() > longest.second.tree().size()) longest = {board, encoder};
  }
  return longest;
}

// A search on several threads writes their subtrees framed. Checked on
// several threads, which share them out, a certificate gets the verdict it
// gets on one, and the same first error named.
TEST(CertificateCheckTest, FramedSubtreesCheckOnSeveralThreadsAsOnOne) {
  int refused = 0;
  for (const bool packed : {false, true}) {
    const EncoderOptions whole = {true, false, 3, Mutation::kNone, 0, packed, true};
    const auto [board, encoder] = LongestTree(whole);
    ASSERT_GT(encoder.branches(), 5);
    const std::string proof = Binary(board, encoder.tree(), encoder.cuts());
    for (const int threads : {2, 3}) {
      EXPECT_TRUE(Check(board, proof, false, 0, threads).ok());
      EXPECT_TRUE(Check(board, proof, false, 5, threads).ok());
    }
    for (const Mutation mutation : {Mutation::kDropChild, Mutation::kDoubleChild}) {
      for (int target = 0; target < encoder.branches(); ++target) {
        EncoderOptions options = whole;
        options.mutation = mutation;
        options.target = target;
        Encoder altered(board, options);
        altered.Encode();
        const std::string bytes = Binary(board, altered.tree(), altered.cuts());
        const absl::Status one = Check(board, bytes);
        EXPECT_EQ(Check(board, bytes, false, 0, 3), one) << target;
        refused += !one.ok();
      }
    }
  }
  EXPECT_GT(refused, 10);
}

// A packed subtree's bits too cross the frames' ends.
TEST(CertificateCheckTest, FramesEndAnywhere) {
  for (const bool packed : {false, true}) {
    const auto [board, encoder] = LongestTree({true, true, 1, Mutation::kNone, 0, packed});
    const std::string& tree = encoder.tree();
    ASSERT_GT(tree.size(), packed ? 20u : 40u);
    for (size_t cut = 0; cut <= tree.size(); ++cut) {
      EXPECT_TRUE(CheckBoth(board, Binary(board, tree, {cut})).ok()) << cut;
    }
    std::vector<size_t> every_byte;
    for (size_t cut = 1; cut < tree.size(); ++cut) every_byte.push_back(cut);
    EXPECT_TRUE(CheckBoth(board, Binary(board, tree, every_byte)).ok());
    // Frames that inflate to nothing, before and after the tree.
    EXPECT_TRUE(CheckBoth(board, Binary(board, tree, {0, 0, tree.size(), tree.size()})).ok());
  }
}

TEST(CertificateCheckTest, SourcesGiveChunksOfAnySize) {
  const auto [board, encoder] = LongestTree({false, true, 0});
  const std::string binary = Binary(board, encoder.tree());
  const std::string text = TextHeader(board) + encoder.text() + "end\n";
  for (const size_t chunk : {1, 2, 3, 7, 64}) {
    EXPECT_TRUE(Check(board, binary, false, chunk).ok()) << chunk;
    EXPECT_TRUE(Check(board, text, true, chunk).ok()) << chunk;
  }
}

TEST(CertificateCheckTest, ASourcesErrorIsTheVerdict) {
  const auto [board, encoder] = LongestTree({false, true, 0});
  const std::string binary = Binary(board, encoder.tree());
  int calls = 0;
  const SetVerdict verdict =
      CheckCertificateSet(board, 1, [&](size_t) -> absl::StatusOr<ByteSource> {
        return [&]() -> absl::StatusOr<absl::string_view> {
          if (++calls == 3) return absl::DataLossError("disk on fire");
          return absl::string_view(binary).substr((calls - 1) * 10, 10);
        };
      });
  EXPECT_EQ(verdict.status, absl::DataLossError("disk on fire"));
}

TEST(CertificateCheckTest, EveryCutIsRefused) {
  const auto [board, encoder] = LongestTree({true, true, 2});
  const std::string binary = Binary(board, encoder.tree(), {encoder.tree().size() / 2});
  for (size_t size = 0; size < binary.size(); ++size) {
    const absl::Status status = CheckBoth(board, binary.substr(0, size));
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << size << " " << status;
  }
  const std::string text = TextHeader(board) + encoder.text() + "end\n";
  // Without its final newline, the text is whole.
  for (size_t size = 0; size + 1 < text.size(); ++size) {
    EXPECT_EQ(CheckBoth(board, text.substr(0, size)).code(), absl::StatusCode::kInvalidArgument)
        << size;
  }
}

TEST(CertificateCheckTest, EveryFlippedByteIsRefused) {
  const auto [board, encoder] = LongestTree({false, true, 0});
  const std::string binary = Binary(board, encoder.tree(), {encoder.tree().size() / 3});
  for (size_t i = 0; i < binary.size(); ++i) {
    std::string flipped = binary;
    flipped[i] = static_cast<char>(flipped[i] ^ 0xff);
    const absl::Status status = CheckBoth(board, flipped);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << i << " " << status;
  }
}

TEST(CertificateCheckTest, EveryAlteredBranchIsRefused) {
  for (const bool ranked : {false, true}) {
    const auto [board, encoder] = LongestTree({ranked, false, 3});
    ASSERT_GT(encoder.branches(), 5);
    for (const Mutation mutation :
         {Mutation::kDropChild, Mutation::kDoubleChild, Mutation::kDeadLeaf, Mutation::kHallOfAll,
          Mutation::kUnranked}) {
      if (ranked && mutation == Mutation::kUnranked) continue;
      for (int target = 0; target < encoder.branches(); ++target) {
        Encoder altered(board, {ranked, false, 3, mutation, target});
        altered.Encode();
        const absl::Status status = CheckBoth(board, Binary(board, altered.tree()));
        EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument)
            << static_cast<int>(mutation) << " at branch " << target << ": " << status;
      }
    }
  }
}

// A dead bit where a packed subtree's node is alive: no reason holds there,
// not even Hall's condition, which the checker finds by matching.
TEST(CertificateCheckTest, EveryAliveNodeMadeDeadInAPackedTreeIsRefused) {
  const auto [board, encoder] = LongestTree({true, true, 3, Mutation::kNone, 0, true});
  ASSERT_GT(encoder.branches(), 5);
  for (int target = 0; target < encoder.branches(); ++target) {
    Encoder altered(board, {true, true, 3, Mutation::kDeadLeaf, target, true});
    altered.Encode();
    const absl::Status status = CheckBoth(board, Binary(board, altered.tree()));
    EXPECT_THAT(status.message(), HasSubstr(" bit ")) << target;
    EXPECT_THAT(
        status.message(),
        HasSubstr("not a dead leaf: every unplaced line has an open cell, the diagonal sums "
                  "fit and the unplaced rows match distinct columns"))
        << target;
  }
}

// Any bit string is a packed tree of some shape, so a flipped bit can make
// another proof (a dead leaf at an empty line made a branch on it, with no
// child; two children swapped): the checker must agree with a brute-force
// replay of the bits, and refuse most.
TEST(CertificateCheckTest, AFlippedBitOfAPackedTreeIsRefusedUnlessStillAProof) {
  const auto [board, longest] = LongestTree({true, true, 5, Mutation::kNone, 0, true});
  Encoder encoder = longest;
  const std::string& tree = encoder.tree();
  const size_t at = encoder.bits_at();
  ASSERT_TRUE(encoder.Replays(tree.substr(at)));
  size_t refused = 0;
  for (size_t bit = 8 * at; bit < 8 * tree.size(); ++bit) {
    std::string flipped = tree;
    flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ 1 << bit % 8);
    const absl::Status status = CheckBoth(board, Binary(board, flipped, {bit / 8}));
    EXPECT_EQ(status.ok(), encoder.Replays(flipped.substr(at))) << bit << " " << status;
    refused += status.ok() ? 0 : 1;
  }
  EXPECT_GT(refused, 8 * (tree.size() - at) / 2);
}

// The corner of a 4 x 4 board: row 3 (free row 1) has two open cells,
// columns 2 and 4 (free columns 0 and 2), each leaving an unplaced row
// without one. Its first child names its cell by index 0 of the two; the
// last, the one left, by nothing.
const Columns kCorner = {1, 0, 0, 0};
const std::string kCornerTree = {kRowBranch, 1, 0, kDead, kDead};

// The size of the binary header of kCorner: the offset of its first frame.
constexpr size_t kCornerHeader = 13;

// Ranks for it that branch on row 2 (free row 0, of rank 0), which has two
// open cells, each child dead: in a packed subtree a branch bit, the first
// child's index in one bit, two dead bits.
const std::string kCornerRanks = {kRanked, 0, 1, 2, 0, 1, 2};

TEST(CertificateCheckTest, PackedSubtreesAreCheckedBitByBit) {
  EXPECT_TRUE(
      CheckBoth(kCorner, Binary(kCorner, kCornerRanks + std::string{kPacked, 0b0001})).ok());
  // The second cell first.
  EXPECT_TRUE(
      CheckBoth(kCorner, Binary(kCorner, kCornerRanks + std::string{kPacked, 0b0011})).ok());
  const auto message = [](const Columns& board, const std::string& tree) {
    return std::string(CheckBoth(board, Binary(board, tree)).message());
  };
  EXPECT_EQ(message(kCorner, kCornerRanks + std::string{kPacked, 0b10001}),
            "certificate tree byte 8 bit 4 (frame at byte 13; at the root): a 1 bit after the "
            "packed subtree's last node");
  EXPECT_EQ(message(kCorner, kCornerRanks + std::string{kPacked, 0}),
            "certificate tree byte 8 bit 0 (frame at byte 13; at the root): not a dead leaf: every "
            "unplaced line has an open cell, the diagonal sums fit and the unplaced rows match "
            "distinct columns");
  EXPECT_EQ(message(kCorner, kCornerRanks + std::string{kPacked}),
            "certificate tree byte 8 bit 0 (frame at byte 13; at the root): the tree stream ends "
            "inside a packed subtree");
  EXPECT_EQ(message(kCorner, kCornerRanks + std::string{kPacked, 0b0001, kDead}),
            "certificate tree byte 9: bytes after the tree's last node");
  EXPECT_EQ(message(kCorner, std::string{kPacked, 0b0001}),
            "certificate tree byte 0 (frame at byte 13; at the root): a `packed` node outside any "
            "`ranked` node");
  // The empty 3 x 3 board: row 1 has three open cells, whose index takes
  // two bits, the first child's 3.
  const Columns empty3(3);
  EXPECT_EQ(message(empty3, std::string{kRanked, 0, 1, 2, 0, 1, 2, kPacked, 0b111}),
            "certificate tree byte 8 bit 1 (frame at byte 13; at the root): child 3 of the 3 "
            "cells left");
  // Version 2 has neither node.
  for (const char tag : {kPacked, kFramed}) {
    EXPECT_THAT(
        CheckBoth(kCorner, WithVersion2(Binary(kCorner, kCornerRanks + std::string{tag, 1})))
            .message(),
        HasSubstr(absl::StrCat("tag ", int{tag}, " is no node's in version 2 (0 to 6)")));
  }
}

// Row 3's first child, (3, 2), leaves row 4 (free row 2) without an open
// cell: its subtree, a branch on row 4 without children, is a framed node's
// of two frames, the kDead of row 3's second child in a frame after them.
TEST(CertificateCheckTest, FramedSubtreesAreExactlyTheirFrames) {
  const auto framed = [](char count) {
    return std::string{kRowBranch, 1, 0, kFramed, count, kRowBranch, 2, kDead};
  };
  const auto frame_at = [](const std::string& tree, std::vector<size_t> cuts, size_t frame) {
    cuts.insert(cuts.begin(), 0);
    size_t at = kCornerHeader;
    for (size_t i = 0; i < frame; ++i)
      at += Frame(tree.substr(cuts[i], cuts[i + 1] - cuts[i])).size();
    return at;
  };
  const std::string two = framed(2);
  const std::vector<size_t> cuts = {5, 6, 7};
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, two, cuts)).ok());
  // A frame that inflates to nothing is one of them.
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, framed(3), {5, 6, 6, 7})).ok());
  // A framed root; framed nodes inside one another.
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, std::string{kFramed, 1} + kCornerTree, {2})).ok());
  const std::string nested = {kRowBranch, 1, 0, kFramed, 2, kFramed, 1, kRowBranch, 2, kDead};
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, nested, {5, 7, 9})).ok());
  const auto message = [](const std::string& certificate) {
    return std::string(CheckBoth(kCorner, certificate).message());
  };
  EXPECT_EQ(message(Binary(kCorner, framed(1), cuts)),
            absl::StrCat("certificate tree byte 5 (frame at byte ", frame_at(two, cuts, 1),
                         "; path (3, 2)): the framed subtree in the 1 frames from byte ",
                         frame_at(two, cuts, 1), " goes on past them"));
  EXPECT_EQ(message(Binary(kCorner, framed(3), cuts)),
            absl::StrCat("certificate tree byte 7 (frame at byte ", frame_at(two, cuts, 3),
                         "; path (3, 2)): the framed subtree in the 3 frames from byte ",
                         frame_at(two, cuts, 1), " ends before them"));
  EXPECT_EQ(message(Binary(kCorner, two, {6, 7})),
            "certificate tree byte 3 (frame at byte 13; path (3, 2)): a `framed` node that is not "
            "the last bytes of its frame");
  EXPECT_THAT(message(Binary(kCorner, framed(0), cuts)), HasSubstr("a `framed` node of no frame"));
  std::string too_many = nested;
  too_many[6] = 2;
  EXPECT_THAT(message(Binary(kCorner, too_many, {5, 7, 9})),
              HasSubstr("a `framed` node of 2 frames: more than can follow"));
  // The certificate's frames end first.
  EXPECT_THAT(message(Binary(kCorner, std::string{kFramed, 2} + kCornerTree, {2})),
              HasSubstr("the framed subtree in the 2 frames from byte"));
  // A chain of framed nodes, each the whole subtree of the one before, each
  // in a frame of its own: up to 64 on one path.
  const auto chain = [](char length) {
    std::string tree;
    std::vector<size_t> frame_ends;
    for (char count = length; count > 0; --count) {
      tree += std::string{kFramed, count};
      frame_ends.push_back(tree.size());
    }
    return Binary(kCorner, tree + kCornerTree, frame_ends);
  };
  EXPECT_TRUE(CheckBoth(kCorner, chain(64)).ok());
  EXPECT_THAT(message(chain(65)), HasSubstr("more than 64 `framed` nodes on one path"));
  // A framed subtree may be checked on a thread of its own: it is proved
  // there whole.
  const std::string other = {kRowBranch, 1, 0, kFramed, 1, kOther, kDead};
  EXPECT_THAT(message(Binary(kCorner, other, {5, 6}, 0, 2)),
              HasSubstr("an `other` leaf in a framed subtree"));
}

TEST(CertificateCheckTest, RowsMatchOrTheirHallRowsFailHallsCondition) {
  std::mt19937 random(3);
  int matched = 0, failed = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const uint32_t size = trial < 2000 ? 1 + random() % 10 : 64;
    uint64_t open[64] = {};
    uint64_t rows = 0;
    for (uint32_t a = 0; a < size; ++a) {
      if (random() % 8 == 0) continue;
      rows |= uint64_t{1} << a;
      for (uint32_t b = 0; b < size; ++b) {
        if (random() % (size < 64 ? 3 : 20) == 0) open[a] |= uint64_t{1} << b;
      }
    }
    // Hall's condition by brute force on small boards.
    bool hall_fails = false;
    for (uint64_t set = rows; size < 64 && set != 0 && !hall_fails; set = (set - 1) & rows) {
      uint64_t columns = 0;
      for (uint32_t a = 0; a < size; ++a) {
        if ((set >> a & 1) != 0) columns |= open[a];
      }
      hall_fails = __builtin_popcountll(columns) < __builtin_popcountll(set);
    }
    uint64_t hall = 0;
    if (RowsMatch(rows, open, &hall)) {
      EXPECT_FALSE(hall_fails) << trial;
      ++matched;
      continue;
    }
    ++failed;
    EXPECT_TRUE(size == 64 || hall_fails) << trial;
    EXPECT_EQ(hall & ~rows, 0u) << trial;
    uint64_t columns = 0;
    for (uint32_t a = 0; a < 64; ++a) {
      if ((hall >> a & 1) != 0) columns |= open[a];
    }
    EXPECT_EQ(__builtin_popcountll(columns) + 1, __builtin_popcountll(hall)) << trial;
  }
  EXPECT_GT(matched, 300);
  EXPECT_GT(failed, 300);
}

TEST(CertificateCheckTest, ErrorsNameTheTreeByteTheFrameAndThePath) {
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, kCornerTree)).ok());
  // Row 3's second child, column 4, made a Hall leaf of row 4 alone (the
  // second of the unplaced rows 2 and 4), which has an open cell there; in
  // a second frame.
  std::string tree = kCornerTree.substr(0, 4) + std::string{kHall, 2};
  const size_t second_frame = kCornerHeader + Frame(tree.substr(0, 3)).size();
  EXPECT_EQ(CheckBoth(kCorner, Binary(kCorner, tree, {3})).message(),
            absl::StrCat("certificate tree byte 4 (frame at byte ", second_frame,
                         "; path (3, 4)): the rows have open cells in 1 columns"));
  tree = {kRowBranch, 1, 2};
  EXPECT_EQ(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
            "certificate tree byte 2 (frame at byte 13; at the root): child 2 of the 2 cells left");
  tree = {kRowBranch, 1};
  EXPECT_EQ(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
            "certificate tree byte 2 (frame at byte 13; at the root): the tree stream ends inside "
            "a node");
  tree = {kDead};
  EXPECT_EQ(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
            "certificate tree byte 0 (frame at byte 13; at the root): not a dead leaf: every "
            "unplaced line has an open cell and the diagonal sums fit");
  tree = kCornerTree + std::string{kDead};
  EXPECT_EQ(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
            "certificate tree byte 5: bytes after the tree's last node");
  tree = {kBranch};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
              HasSubstr("a `branch` outside any `ranked` node"));
  tree = {9};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
              HasSubstr("tag 9 is no node's (0 to 8)"));
  tree = {kColumnBranch, 3};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
              HasSubstr("the branch's line is not an unplaced one"));
  // Hall leaves: a bit for each of the root's 3 unplaced rows, at least one.
  tree = {kHall, 8};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
              HasSubstr("a Hall leaf with bits past the node's 3 unplaced rows"));
  tree = {kHall, 0};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, tree)).message(),
              HasSubstr("a Hall leaf of no row"));
  // The text format names cells: one twice, one closed.
  const std::string text = TextHeader(kCorner) + "b r 3 2\np 3 2\ne r 4\np 3 2\ne r 4\nend\n";
  EXPECT_EQ(CheckBoth(kCorner, text).message(),
            "certificate line 8 (byte 60; at the root): the cell is placed twice");
  EXPECT_EQ(CheckBoth(kCorner, TextHeader(kCorner) + "b r 3 2\np 3 3\n").message(),
            "certificate line 6 (byte 48; at the root): the queen is not on an open cell");
}

TEST(CertificateCheckTest, TheHeaderAndTheFramesAreChecked) {
  const std::string header = BinaryHeader(kCorner);
  ASSERT_EQ(header.size(), kCornerHeader);
  const std::string frame = Frame(kCornerTree);
  const auto message = [](absl::string_view certificate) {
    return std::string(CheckBoth(kCorner, certificate).message());
  };
  EXPECT_EQ(message("NQCERT\n"),
            "certificate byte 0: expected the binary format's magic \"NQCERT\\r\\n\"");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", Varint(4))),
            "certificate byte 8: version 4: this checker reads 2 and 3");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", Varint(2), Varint(5))),
            "certificate byte 9: n 5, not the board's 4");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", Varint(2), Varint(4), Varint(0))),
            "certificate byte 10: given 0, not the composition's 1 queens");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", Varint(2), Varint(4), Varint(1), Varint(2),
                                 Varint(2), frame, Varint(0))),
            "certificate byte 12: part 2 of 2: expected 0 <= part_index < part_count >= 2, or "
            "part 0 of 0 or 1");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", std::string(10, '\xff'), "\x01")),
            "certificate byte 8: the header's version has over 64 bits");
  EXPECT_EQ(message(absl::StrCat("NQCERT\r\n", Varint(2), Varint(4))),
            "certificate byte 10: the certificate ends inside its header, at its given");
  const size_t end = header.size() + frame.size();
  EXPECT_THAT(message(header + frame), HasSubstr(absl::StrCat("the certificate ends at byte ", end,
                                                              " without its end marker")));
  EXPECT_THAT(message(header + frame + Varint(0) + "x"),
              HasSubstr(absl::StrCat("bytes after the end marker, from byte ", end + 1)));
  // A frame longer than the certificate (nothing is allocated by a length;
  // its zlib stream lacks its checksum, after the tree), one shorter than
  // its zlib stream and one longer.
  const std::string zlib = frame.substr(1);
  const std::string huge = Varint(uint64_t{1} << 62);
  EXPECT_EQ(
      message(header + huge + zlib.substr(0, zlib.size() - 1)),
      absl::StrCat("certificate tree byte ", kCornerTree.size(), ": the certificate ends at byte ",
                   header.size() + huge.size() + zlib.size() - 1,
                   ", inside the frame of 4611686018427387904 bytes at byte 13"));
  EXPECT_THAT(
      message(header + huge + zlib + Varint(0)),
      HasSubstr(absl::StrCat("the zlib stream of the frame at byte 13 ends ",
                             (uint64_t{1} << 62) - zlib.size(), " bytes before the frame")));
  EXPECT_THAT(
      message(header + Varint(zlib.size() - 1) + zlib.substr(0, zlib.size() - 1) + Varint(0)),
      HasSubstr("ends inside its zlib stream"));
  EXPECT_THAT(message(header + Varint(zlib.size() + 1) + zlib + std::string(1, '\0') + Varint(0)),
              HasSubstr("the zlib stream of the frame at byte 13 ends 1 bytes before the frame"));
  std::string corrupt = zlib;
  corrupt.back() = static_cast<char>(corrupt.back() ^ 1);
  EXPECT_THAT(
      message(header + Varint(corrupt.size()) + corrupt + Varint(0)),
      HasSubstr("the zlib stream of the frame at byte 13 is corrupt (incorrect data check)"));
  EXPECT_THAT(message(header + Varint(2) + std::string(2, '\0') + Varint(0)),
              HasSubstr("the zlib stream of the frame at byte 13 is corrupt (unknown compression "
                        "method)"));
  EXPECT_THAT(message(header + std::string(10, '\xff') + "\x01"),
              HasSubstr("the frame length at byte 13 has over 64 bits"));
  EXPECT_THAT(message(header + Frame(std::string{kRowBranch} + std::string(10, '\xff') + "\x01") +
                      Varint(0)),
              HasSubstr("a varint of over 64 bits"));
}

TEST(CertificateCheckTest, RanksAreEachLineOnce) {
  // All lines have two open cells: the rule takes row 2, the row of rank 0.
  const std::string ranks = {kRanked, 0, 1, 2, 0, 1, 2};
  const std::string row_2 = {kBranch, 0, kDead, kDead};
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, ranks + row_2)).ok());
  const std::string twice = {kRanked, 0, 1, 1, 0, 1, 2, kDead};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, twice)).message(),
              HasSubstr("the ranked rows are not each free row once"));
  const std::string beyond = {kRanked, 0, 1, 2, 0, 1, 3, kDead};
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, beyond)).message(),
              HasSubstr("the ranked columns are not each free column once"));
  std::string nested;
  for (int i = 0; i < 65; ++i) nested += ranks;
  EXPECT_THAT(CheckBoth(kCorner, Binary(kCorner, nested + row_2)).message(),
              HasSubstr("more than 64 `ranked` nodes on one path"));
  nested.resize(64 * ranks.size());
  EXPECT_TRUE(CheckBoth(kCorner, Binary(kCorner, nested + row_2)).ok());
  // Ranks that put row 4 first: the rule branches on it, whose two
  // children are dead too.
  CheckOptions options;
  std::string text;
  options.text = [&text](absl::string_view piece) { absl::StrAppend(&text, piece); };
  const std::string row_4_first = Binary(kCorner, std::string{kRanked, 2, 1, 0, 0, 1, 2} + row_2);
  EXPECT_TRUE(CheckCertificateSet(
                  kCorner, 1,
                  [&](size_t) -> absl::StatusOr<ByteSource> { return SourceOf(row_4_first); },
                  options)
                  .status.ok());
  EXPECT_THAT(text, HasSubstr("proof\nb r 4 2\np 4 2\n"));
}

TEST(CertificateCheckTest, TheTextFormatHasTheSumsLeaf) {
  // Two free rows whose open cells, (2, 2) and (3, 1), share their sum
  // diagonal: two queens cannot stand on one.
  const Columns sums_fail = {4, 0, 0, 3};
  EXPECT_TRUE(CheckBoth(sums_fail, TextHeader(sums_fail) + "s\nend\n").ok());
  EXPECT_TRUE(CheckBoth(sums_fail, Binary(sums_fail, std::string(1, kDead))).ok());
  EXPECT_EQ(CheckBoth(kCorner, TextHeader(kCorner) + "s\nend\n").message(),
            "certificate line 5 (byte 40; at the root): the diagonal sums fit");
  EXPECT_EQ(CheckBoth(kCorner, TextHeader(kCorner) + "q\nend\n").message(),
            "certificate line 5 (byte 40; at the root): expected a node: `b`, `e`, `h` or `s`");
}

// Row 3's two children, one in each part: part 0 proves the first and
// leaves the second to part 1, which leaves the first to part 0.
TEST(CertificateCheckTest, PartsProveTogetherInEitherFormat) {
  const std::string part0 = Binary(kCorner, std::string{kRowBranch, 1, 0, kDead, kOther}, {}, 0, 2);
  const std::string part1 = Binary(kCorner, std::string{kRowBranch, 1, 0, kOther, kDead}, {}, 1, 2);
  const std::string text1 = absl::StrCat(
      "nqueens-certificate 1\nn 4\ngiven 1\npart 1 2\nproof\nb r 3 2\np 3 2\nx\np 3 4\ne r "
      "2\nend\n");
  for (const bool wide : {false, true}) {
    CheckOptions options;
    options.wide_board = wide;
    const auto check = [&](std::vector<std::string> set) {
      return CheckCertificateSet(
          kCorner, set.size(),
          [set](size_t i) -> absl::StatusOr<ByteSource> {
            // The set's copy lives as long as the opener.
            return SourceOf(set[i]);
          },
          options);
    };
    EXPECT_TRUE(check({part0, part1}).status.ok()) << check({part0, part1}).status;
    EXPECT_TRUE(check({part0, text1}).status.ok()) << check({part0, text1}).status;
    const SetVerdict alone = check({part0});
    EXPECT_EQ(alone.status.message(),
              "certificate tree byte 4: `other`: no other certificate of the set proves this "
              "subtree");
    EXPECT_EQ(check({part0, part0}).certificate, 0u);
    EXPECT_EQ(check({text1, part1}).status.message(),
              "certificate line 8: `x`: no other certificate of the set proves this subtree");
  }
  EXPECT_THAT(
      CheckBoth(kCorner, Binary(kCorner, std::string{kRowBranch, 1, 0, kDead, kOther})).message(),
      HasSubstr("an `other` leaf in the certificate of a whole search"));
}

// A composition of 104 rows with 67 free ones, which leaves row 1 without
// an open cell (its cells' diagonals all hold queens).
const Columns kWide = [] {
  Columns columns = {0,  82, 12, 20, 9,  94, 36, 85, 68, 63, 0,  84, 19, 90, 0, 41,
                     0,  45, 69, 21, 38, 50, 37, 34, 25, 66, 53, 70, 74, 0,  0, 35,
                     48, 65, 67, 0,  39, 49, 93, 61, 64, 47, 0,  0,  52, 44};
  columns.resize(104);
  return columns;
}();

TEST(CertificateCheckTest, BoardsOfMoreThan64FreeRows) {
  EXPECT_EQ(kWide.size() - Given(kWide), 67u);
  EXPECT_TRUE(Check(kWide, Binary(kWide, std::string(1, kDead))).ok());
  EXPECT_TRUE(Check(kWide, TextHeader(kWide) + "e r 1\nend\n").ok());
  // Row 1 alone, the first of 67 unplaced rows.
  std::string hall = {kHall, 1};
  hall.resize(1 + (67 + 7) / 8);
  EXPECT_TRUE(Check(kWide, Binary(kWide, hall)).ok());
  // A branch on row 11 (free row 1), each child dead for row 1.
  std::string tree = {kRowBranch, 1};
  uint32_t children = 0;
  uint32_t free_column = 0;
  for (uint32_t column = 1; column <= kWide.size(); ++column) {
    if (std::count(kWide.begin(), kWide.end(), column) != 0) continue;
    bool open = true;
    for (uint32_t row = 0; row < kWide.size() && open; ++row) {
      open = kWide[row] == 0 || !Attack(row + 1, kWide[row], 11, column);
    }
    // Each child the first of the cells left, but the last.
    if (open) {
      if (children > 0) tree += std::string{0, kDead};
      ++children;
    }
    ++free_column;
  }
  tree += std::string{kDead};
  EXPECT_EQ(free_column, 67u);
  EXPECT_GT(children, 1u);
  EXPECT_TRUE(Check(kWide, Binary(kWide, tree)).ok()) << Check(kWide, Binary(kWide, tree));
  // Ranks: the rule branches on row 1, which has no child.
  std::string ranked(1, kRanked);
  for (int kind = 0; kind < 2; ++kind) {
    for (uint32_t x = 0; x < 67; ++x) ranked += Varint(x);
  }
  EXPECT_TRUE(Check(kWide, Binary(kWide, ranked + std::string(1, kBranch))).ok());
  // Row 1 has no child: a node after its branch is one too many.
  EXPECT_THAT(Check(kWide, Binary(kWide, std::string{kRowBranch, 0, kDead})).message(),
              HasSubstr("bytes after the tree's last node"));
  // Packed subtrees need each row's open cells in a word.
  EXPECT_EQ(Check(kWide, Binary(kWide, ranked + std::string{kPacked, 1})).message(),
            absl::StrCat("certificate tree byte ", ranked.size(), " (frame at byte ",
                         BinaryHeader(kWide).size(),
                         "; at the root): a `packed` node on a board of more than 64 free rows"));
}

// A full composition (a solution) has no unplaced line: no leaf and no
// branch proves it.
TEST(CertificateCheckTest, NoCertificateOfAFullBoardChecks) {
  const Columns full = {2, 4, 1, 3};
  for (const std::string& tree :
       {std::string{kDead}, std::string{kRanked, kBranch}, std::string{kHall}}) {
    EXPECT_EQ(CheckBoth(full, Binary(full, tree)).code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_THAT(CheckBoth(full, Binary(full, std::string{kRanked, kBranch})).message(),
              HasSubstr("a branch where every line holds a queen"));
  EXPECT_THAT(CheckBoth(full, TextHeader(full) + "s\nend\n").message(),
              HasSubstr("the diagonal sums fit"));
}

// n-queens solutions by the explicit construction (n % 6 is not 2 or 3):
// the even columns, then the odd ones.
Columns Solution(uint32_t n) {
  Columns columns;
  for (uint32_t column = 2; column <= n; column += 2) columns.push_back(column);
  for (uint32_t column = 1; column <= n; column += 2) columns.push_back(column);
  return columns;
}

TEST(CertificateCheckTest, APathAsDeepAsTheBoardIsWalkedWithoutRecursion) {
  for (const uint32_t n : {64u, 4000u}) {
    const Columns solution = Solution(n);
    // Each row's queen by its index among the row's open cells.
    std::vector<bool> column_used(n + 1), down(2 * n + 1), up(2 * n + 1);
    std::string tree;
    for (uint32_t row = 1; row <= n; ++row) {
      uint32_t index = 0, open = 0;
      for (uint32_t column = 1; column <= n; ++column) {
        if (column_used[column] || down[row + n - column] || up[row + column]) continue;
        ++open;
        if (column < solution[row - 1]) ++index;
      }
      tree += std::string(1, kRowBranch) + Varint(row - 1) + (open > 1 ? Varint(index) : "");
      const uint32_t column = solution[row - 1];
      column_used[column] = down[row + n - column] = up[row + column] = true;
    }
    tree.push_back(kDead);
    const absl::Status status = Check(Columns(n), Binary(Columns(n), tree), n > 64);
    EXPECT_THAT(status.message(), HasSubstr(absl::StrCat(" ... ", n - 12, " more ... ")));
    EXPECT_THAT(status.message(),
                HasSubstr(absl::StrCat("(", n, ", ", solution[n - 1], ")): not a dead leaf")));
  }
}

}  // namespace
}  // namespace nqueens::checker
