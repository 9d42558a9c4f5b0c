// Start constellations of the empty board (as in the Q27 project and
// Ostermann's NQueensFaf): every solution has exactly one queen in each of
// the four border lines (first and last row, first and last column), and
// these two to four queens are its constellation. Only one constellation of
// each class under the eight symmetries of the square is kept; its
// completions, counted as a composition's, stand for those of every image.
#ifndef NQUEENS_SRC_CONSTELLATIONS_H_
#define NQUEENS_SRC_CONSTELLATIONS_H_

#include <cstdint>
#include <vector>

#include "nqueens/board.h"

namespace nqueens::internal {

struct Constellation {
  Columns board;  // the border queens on the empty n x n board
  // The symmetries (numbered as in board.h) mapping `board` to itself,
  // identity first.
  std::vector<uint32_t> stabilizer;
};

// The canonical constellations of the n x n board (n <= 64), in a fixed
// order.
std::vector<Constellation> CanonicalConstellations(uint32_t n);

// The image of a full n x n board under `symmetry` (0..7, as in board.h).
Columns TransformBoard(const Columns& board, uint32_t symmetry);

}  // namespace nqueens::internal

#endif  // NQUEENS_SRC_CONSTELLATIONS_H_
