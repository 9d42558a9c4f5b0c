// Start constellations of the empty board (as in the Q27 project and
// Ostermann's NQueensFaf): every solution has exactly one queen in each of
// the four border lines (first and last row, first and last column), and
// these two to four queens are its constellation. Only one constellation of
// each class under the eight symmetries of the square is kept; its
// completions, counted as a composition's, stand for those of every image.
#ifndef NQUEENS_COUNT_CONSTELLATIONS_H_
#define NQUEENS_COUNT_CONSTELLATIONS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "nqueens/board.h"

namespace nqueens::internal {

// Five bytes, as n = 64 has two million of them.
struct Constellation {
  // 0-based: the column of the first row's queen (i) and of the last row's
  // (j), the row of the first column's queen (k) and of the last column's (l).
  uint8_t i = 0, j = 0, k = 0, l = 0;
  // Bit s set when symmetry s maps the constellation to itself (bit 0, the
  // identity, always).
  uint8_t stabilizer = 1;

  // The border queens on the empty n x n board.
  Columns Board(uint32_t n) const;
};

// The canonical constellations of the n x n board (n <= 64), in a fixed
// order.
std::vector<Constellation> CanonicalConstellations(uint32_t n);

// The same, kept for the last n asked for: the parts of one job each make a
// plan of the same board, and the list costs milliseconds to make (n^4
// candidates), more than a small part takes to count.
std::shared_ptr<const std::vector<Constellation>> SharedCanonicalConstellations(uint32_t n);

// The image of an n x n board (empty rows allowed) under `symmetry`: (s mod
// 4) quarter turns, after a left-right mirror when s >= 4.
Columns TransformBoard(const Columns& board, uint32_t symmetry);

}  // namespace nqueens::internal

#endif  // NQUEENS_COUNT_CONSTELLATIONS_H_
