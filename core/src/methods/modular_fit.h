// Fitting queens to a modular placement of the n x n board: column - 1 =
// (shift + step * row) mod n for rows 1..n, a solution when step, step - 1
// and step + 1 are prime to n (G. Usov's modular family). Every image of one
// under a symmetry of the square, and every cyclic shift of its rows or
// columns, is one too, so one fit covers them all.
#ifndef NQUEENS_METHODS_MODULAR_FIT_H_
#define NQUEENS_METHODS_MODULAR_FIT_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

namespace nqueens::internal {

struct Modular {
  uint64_t step = 0, shift = 0;

  // The 1-based column of 1-based `row` on the n x n board.
  uint32_t Column(uint64_t row, uint64_t n) const {
    return static_cast<uint32_t>((shift + step * row) % n + 1);
  }
};

// x^-1 mod m, for x prime to m (extended Euclid).
inline uint64_t Inverse(uint64_t x, uint64_t m) {
  int64_t a = static_cast<int64_t>(x % m), b = static_cast<int64_t>(m), u = 1, v = 0;
  while (b != 0) {
    const int64_t q = a / b;
    a -= q * b;
    std::swap(a, b);
    u -= q * v;
    std::swap(u, v);
  }
  return static_cast<uint64_t>((u % static_cast<int64_t>(m) + static_cast<int64_t>(m)) %
                               static_cast<int64_t>(m));
}

// The modular placement through every queen added (rows 1..n, in any
// order), if there is one and it is a solution (step, step - 1 and step + 1
// prime to n). The step comes from the first queen and the first later one
// whose row distance is prime to n; queens before that one wait in a short
// list.
class ModularFit {
 public:
  explicit ModularFit(uint64_t n) : n_(n) {}

  // False once the queens cannot lie on one modular placement.
  bool Add(uint64_t row, uint64_t column) {
    if (!has_first_) {
      has_first_ = true;
      first_row_ = row;
      first_column_ = column - 1;
      return true;
    }
    const uint64_t rows = (row + n_ - first_row_) % n_,
                   columns = (column - 1 + n_ - first_column_) % n_;
    if (has_step_) return step_ * rows % n_ == columns;
    if (std::gcd(rows, n_) != 1) {
      waiting_.push_back({rows, columns});
      return waiting_.size() <= kMaxWaiting;
    }
    step_ = columns * Inverse(rows, n_) % n_;
    has_step_ = true;
    return std::all_of(waiting_.begin(), waiting_.end(),
                       [this](const Offset& o) { return step_ * o.rows % n_ == o.columns; });
  }

  std::optional<Modular> Solution() const {
    if (!has_step_) return std::nullopt;
    const uint64_t step = step_;
    if (std::gcd(step, n_) != 1 || std::gcd(step + 1, n_) != 1 ||
        std::gcd(step + n_ - 1, n_) != 1) {
      return std::nullopt;
    }
    return Modular{step, (first_column_ + n_ - step * first_row_ % n_) % n_};
  }

 private:
  // Queens before the step is known: a composition whose row distances
  // share factors with n this often is not a modular one worth the wait.
  static constexpr size_t kMaxWaiting = 64;
  struct Offset {
    uint64_t rows, columns;
  };

  const uint64_t n_;
  bool has_first_ = false;
  uint64_t first_row_ = 0, first_column_ = 0;
  bool has_step_ = false;
  uint64_t step_ = 0;
  std::vector<Offset> waiting_;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_METHODS_MODULAR_FIT_H_
