#include "count/constellations.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/base/const_init.h"
#include "absl/synchronization/mutex.h"

namespace nqueens::internal {
namespace {

struct Point {
  uint32_t row, column;
};

// Symmetry s rotates by (s mod 4) quarter turns, after a left-right mirror
// when s >= 4.
Point Transform(Point p, uint32_t n, uint32_t symmetry) {
  if (symmetry >= 4) p.column = n - 1 - p.column;
  for (uint32_t turn = 0; turn < symmetry % 4; ++turn) p = {p.column, n - 1 - p.row};
  return p;
}

bool Attack(Point a, Point b) {
  return a.row == b.row || a.column == b.column || a.row + b.column == b.row + a.column ||
         a.row + a.column == b.row + b.column;
}

// The border queens, if they are one constellation: the queen of the first
// row at column i, of the last row at j, of the first column at row k and of
// the last column at row l, corner queens shared, none attacking another.
bool BorderQueens(uint32_t n, uint32_t i, uint32_t j, uint32_t k, uint32_t l,
                  std::vector<Point>& points) {
  const uint32_t last = n - 1;
  // A corner queen belongs to both its lines, and only a corner queen does.
  if ((i == 0) != (k == 0) || (i == last) != (l == 0) || (j == 0) != (k == last) ||
      (j == last) != (l == last)) {
    return false;
  }
  points.clear();
  for (const Point p : {Point{0, i}, Point{last, j}, Point{k, 0}, Point{l, last}}) {
    bool seen = false;
    for (const Point q : points) {
      if (q.row == p.row && q.column == p.column) {
        seen = true;
      } else if (Attack(p, q)) {
        return false;
      }
    }
    if (!seen) points.push_back(p);
  }
  return true;
}

// The queens of `points` under `symmetry`, as one sortable key.
std::array<uint32_t, 4> Key(const std::vector<Point>& points, uint32_t n, uint32_t symmetry) {
  std::array<uint32_t, 4> key;
  key.fill(UINT32_MAX);
  for (size_t q = 0; q < points.size(); ++q) {
    const Point p = Transform(points[q], n, symmetry);
    key[q] = p.row * n + p.column;
  }
  std::sort(key.begin(), key.end());
  return key;
}

}  // namespace

Columns Constellation::Board(uint32_t n) const {
  Columns board(n, kEmptyRow);
  board[0] = i + 1;
  board[n - 1] = j + 1;
  board[k] = 1;
  board[l] = n;
  return board;
}

std::vector<Constellation> CanonicalConstellations(uint32_t n) {
  std::vector<Constellation> constellations;
  std::vector<Point> points;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      for (uint32_t k = 0; k < n; ++k) {
        for (uint32_t l = 0; l < n; ++l) {
          if (!BorderQueens(n, i, j, k, l, points)) continue;
          const std::array<uint32_t, 4> key = Key(points, n, 0);
          uint8_t stabilizer = 1;
          bool canonical = true;
          for (uint32_t symmetry = 1; symmetry < 8 && canonical; ++symmetry) {
            const std::array<uint32_t, 4> image = Key(points, n, symmetry);
            canonical = key <= image;
            if (key == image) stabilizer |= 1 << symmetry;
          }
          if (!canonical) continue;
          constellations.push_back({static_cast<uint8_t>(i), static_cast<uint8_t>(j),
                                    static_cast<uint8_t>(k), static_cast<uint8_t>(l), stabilizer});
        }
      }
    }
  }
  return constellations;
}

std::shared_ptr<const std::vector<Constellation>> SharedCanonicalConstellations(uint32_t n) {
  static absl::Mutex mutex(absl::kConstInit);
  static uint32_t last_n ABSL_GUARDED_BY(mutex) = 0;
  static auto* last = new std::shared_ptr<const std::vector<Constellation>>;
  absl::MutexLock lock(&mutex);
  if (*last == nullptr || last_n != n) {
    *last = std::make_shared<const std::vector<Constellation>>(CanonicalConstellations(n));
    last_n = n;
  }
  return *last;
}

Columns TransformBoard(const Columns& board, uint32_t symmetry) {
  const auto n = static_cast<uint32_t>(board.size());
  Columns image(n, kEmptyRow);
  for (uint32_t row = 0; row < n; ++row) {
    if (board[row] == kEmptyRow) continue;
    const Point p = Transform({row, board[row] - 1}, n, symmetry);
    image[p.row] = p.column + 1;
  }
  return image;
}

}  // namespace nqueens::internal
