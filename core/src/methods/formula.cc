// The explicit families of G. Usov, "A set of heuristic algorithms for
// placing queens in the N-queens problem" (2020), as checked here (several
// printed formulas carry typos; each family below is the corrected form,
// validated by tests/core/formula_test.cc for every n up to 60):
//
// - Prototypes 1-4, the four classic explicit placements the article starts
//   from. With m the even one of n and n - 1 (a queen at (n, n) completing
//   odd n): 1, even columns then odd ones (m = 6K, 6K+4); 2, steps of 2 from
//   column m/2 (m = 6K+2, 6K+4; the printed start N1/2 and wrap need
//   N1 = m/2); 3 and 4 the rearrangements for n = 6K+2 and 6K+3.
// - Modular placements ("variant 1a"), for n = 6K+1 and 6K+5: row i holds
//   column (f + df * i - 1) mod n + 1, shift f in 0..n-1, step df with df,
//   df - 1 and df + 1 all coprime to n (then columns and both kinds of
//   diagonals are distinct even modulo n). Their cyclic shifts by rows or
//   columns (the article's moves of the first line to the end) are again
//   modular placements with another shift, so the shifts cover them: n
//   times the steps gives the article's counts (10 at n = 5, 28 at 7, 88 at
//   11, 250 at 25).
// - Products ("matrix in matrix", formula (7)): for n = M * N, the base
//   M x M placement with every queen replaced by an inner N x N modular one;
//   row (i - 1) N + j holds N (base[i] - 1) + inner[j]. The inner one must
//   be modular: two queens of neighbouring blocks would otherwise meet on a
//   diagonal that wraps around the inner board.
#include "methods/formula.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/huge_pages.h"
#include "base/peak_bytes.h"
#include "base/stop_poller.h"
#include "methods/construction.h"
#include "methods/modular_fit.h"

namespace nqueens {
namespace internal {
namespace {

// n as a product of prime powers p^a.
struct PrimePower {
  uint32_t prime = 0;
  uint32_t exponent = 0;
  uint32_t value = 1;  // prime^exponent
};
using Factorization = std::vector<PrimePower>;

Factorization Factorize(uint32_t n) {
  Factorization factors;
  for (uint32_t p = 2; uint64_t{p} * p <= n; ++p) {
    if (n % p != 0) continue;
    PrimePower power{p, 0, 1};
    while (n % p == 0) {
      n /= p;
      ++power.exponent;
      power.value *= p;
    }
    factors.push_back(power);
  }
  if (n > 1) factors.push_back({n, 1, n});
  return factors;
}

// Steps df modulo q = p^a whose df - 1, df, df + 1 are prime to p: the
// residues t p + s with s in 2..p-2.
uint64_t StepsModulo(const PrimePower& power) {
  if (power.prime < 5) return 0;
  return uint64_t{power.value / power.prime} * (power.prime - 3);
}

// The valid steps modulo n, by the Chinese remainder theorem: the product
// over n's prime powers. 0 unless n = 6K+1 or 6K+5 (a factor 2 or 3 leaves
// none).
uint64_t StepCount(const Factorization& factors) {
  uint64_t count = 1;
  for (const PrimePower& power : factors) count *= StepsModulo(power);
  return count;
}

// Step number `index` (< StepCount) in O(number of primes): the index in
// mixed radix over n's prime powers (the first one fastest), each digit a
// residue modulo its prime power, combined by the Chinese remainder theorem.
// For prime n the steps come in increasing order, 2..n-2.
uint32_t StepAt(uint32_t n, const Factorization& factors, uint64_t index) {
  uint64_t step = 0;
  for (const PrimePower& power : factors) {
    const uint64_t digits = StepsModulo(power);
    const uint64_t digit = index % digits;
    index /= digits;
    const uint64_t residue =
        digit / (power.prime - 3) * power.prime + 2 + digit % (power.prime - 3);
    const uint64_t others = n / power.value;
    step = (step + residue * others % n * Inverse(others, power.value)) % n;
  }
  return static_cast<uint32_t>(step);
}

// --- The members' columns, one row at a time (rows 1-based). ---

}  // namespace

// Prototypes 1 and 2 for even m, with the queen (n, n) for odd n = m + 1.
// 3 and 4 are the construction's rearrangements for 6K+2 and 6K+3.
uint32_t PrototypeColumn(uint32_t prototype, uint32_t n, uint32_t row) {
  if (prototype > 2) return ConstructedColumn(n, row);
  const uint32_t m = n - n % 2;
  if (row > m) return n;
  const uint32_t half = m / 2;
  if (prototype == 1) return row <= half ? 2 * row : 2 * (row - half) - 1;
  if (row <= half) return 1 + (2 * (row - 1) + half - 1) % m;
  return m - (2 * (m - row) + half - 1) % m;
}

bool PrototypeExists(uint32_t prototype, uint32_t n) {
  if (n == 1) return prototype == 1;
  if (n < 4) return false;
  const uint32_t m = n - n % 2;
  switch (prototype) {
    case 1:
      return m % 6 != 2;
    case 2:
      return m % 6 != 0;
    case 3:
      return n % 6 == 2;
    default:
      return n % 6 == 3;
  }
}

namespace {

constexpr const char* kPrototypeNames[] = {
    "",
    "prototype 1: even columns, then odd ones",
    "prototype 2: steps of 2 from column n/2",
    "prototype 3: even columns, then 3, 1, 7, 9, ..., 5 (n = 6K+2)",
    "prototype 4: 4, 6, ..., 2, then 5, 7, ..., 1, 3 (n = 6K+3)",
};

uint32_t PrototypeCount(uint32_t n) {
  uint32_t count = 0;
  for (uint32_t p = 1; p <= 4; ++p) count += PrototypeExists(p, n);
  return count;
}

// One member that is not a product: a prototype or a modular placement.
struct SimpleMember {
  uint32_t n = 0;
  uint32_t prototype = 0;  // 1..4, or 0 for a modular placement
  uint32_t shift = 0;
  uint32_t step = 0;

  std::string Name() const {
    if (prototype != 0) return kPrototypeNames[prototype];
    return absl::StrCat("modular (n = 6K+", n % 6, "): shift ", shift, ", step ", step);
  }
};

uint64_t SimpleCount(uint32_t n, const Factorization& factors) {
  const uint64_t modular = n >= 5 ? uint64_t{n} * StepCount(factors) : 0;
  return PrototypeCount(n) + modular;
}

// Modular placement `index` < n StepCount(n): by step number, each step's
// n shifts in a row.
SimpleMember ModularAt(uint32_t n, const Factorization& factors, uint64_t index) {
  return {n, 0, static_cast<uint32_t>(index % n), StepAt(n, factors, index / n)};
}

// Member `index` < SimpleCount(n): the prototypes in order, then the
// modular placements.
SimpleMember SimpleAt(uint32_t n, const Factorization& factors, uint64_t index) {
  for (uint32_t p = 1; p <= 4; ++p) {
    if (!PrototypeExists(p, n)) continue;
    if (index == 0) return {n, p, 0, 0};
    --index;
  }
  return ModularAt(n, factors, index);
}

// Calls emit(column) for rows 1..n of `member`, in order.
template <typename Emit>
void ForEachColumn(const SimpleMember& member, uint32_t first_row, uint32_t end_row, Emit&& emit) {
  if (member.prototype != 0) {
    for (uint32_t row = first_row; row < end_row; ++row) {
      emit(PrototypeColumn(member.prototype, member.n, row));
    }
    return;
  }
  // (shift + step * row - 1) mod n, kept as a running residue.
  const uint64_t n = member.n;
  uint64_t residue = (member.shift + uint64_t{member.step} * first_row + n - 1) % n;
  for (uint32_t row = first_row; row < end_row; ++row) {
    emit(static_cast<uint32_t>(residue + 1));
    residue += member.step;
    if (residue >= n) residue -= n;
  }
}

// The board of a simple member, written in polled stretches, in huge pages.
absl::StatusOr<Columns> WriteSimple(const SimpleMember& member, StopPoller& stop) {
  Columns columns;
  ReserveHuge(columns, member.n);
  const auto push = [&columns](uint32_t column) { columns.push_back(column); };
  const bool done = RunInStretches(1, size_t{member.n} + 1, stop, [&](size_t first, size_t last) {
    ForEachColumn(member, static_cast<uint32_t>(first), static_cast<uint32_t>(last), push);
  });
  if (!done) return stop.status();
  return columns;
}

// The prime powers of a divisor d of n, from those of n.
Factorization FactorsOfDivisor(uint32_t d, const Factorization& factors_of_n) {
  Factorization factors;
  for (const PrimePower& power : factors_of_n) {
    PrimePower part{power.prime, 0, 1};
    while (d % power.prime == 0) {
      d /= power.prime;
      ++part.exponent;
      part.value *= power.prime;
    }
    if (part.exponent > 0) factors.push_back(part);
  }
  return factors;
}

// The divisors N of n that can be an inner board (N >= 5, modular steps
// exist) with a base M = n / N >= 4 that has members, ascending, with the
// number of products each gives: members of M times modular members of N.
struct ProductFactor {
  uint32_t inner = 0;  // N
  uint64_t count = 0;
};

std::vector<ProductFactor> ProductFactors(uint32_t n, const Factorization& factors) {
  std::vector<ProductFactor> result;
  // Every divisor, from the exponents (n has at most 1,600 of them).
  std::vector<uint32_t> divisors = {1};
  for (const PrimePower& power : factors) {
    const size_t before = divisors.size();
    for (size_t i = 0; i < before; ++i) {
      uint32_t d = divisors[i];
      for (uint32_t e = 1; e <= power.exponent; ++e) divisors.push_back(d *= power.prime);
    }
  }
  std::sort(divisors.begin(), divisors.end());
  for (const uint32_t inner : divisors) {
    const uint32_t base = n / inner;
    if (inner < 5 || base < 4 || inner % 2 == 0 || inner % 3 == 0) continue;
    const uint64_t inner_count = uint64_t{inner} * StepCount(FactorsOfDivisor(inner, factors));
    const uint64_t base_count = SimpleCount(base, FactorsOfDivisor(base, factors));
    // Both under n^2 / 4 and their product under n^2 < 2^62; the sum over
    // n's divisors stays far below 2^64 (inner boards need primes >= 5).
    if (inner_count > 0 && base_count > 0) result.push_back({inner, inner_count * base_count});
  }
  return result;
}

// A member of the families of n: a simple one, or a product of a simple
// base member and a modular inner one.
struct Member {
  SimpleMember base;
  SimpleMember inner;  // n = 0 unless a product

  std::string Name() const {
    if (inner.n == 0) return base.Name();
    return absl::StrCat("product (matrix in matrix) ", base.n, " x ", inner.n, ": base ",
                        base.Name(), "; inner ", inner.Name());
  }
};

uint64_t VariantCount(uint32_t n, const Factorization& factors) {
  if (n == 2 || n == 3 || n == 0) return 0;
  uint64_t count = SimpleCount(n, factors);
  for (const ProductFactor& product : ProductFactors(n, factors)) count += product.count;
  return count;
}

Member MemberAt(uint32_t n, const Factorization& factors, uint64_t variant) {
  const uint64_t simple = SimpleCount(n, factors);
  if (variant < simple) return {SimpleAt(n, factors, variant), {}};
  variant -= simple;
  for (const ProductFactor& product : ProductFactors(n, factors)) {
    if (variant >= product.count) {
      variant -= product.count;
      continue;
    }
    const uint32_t base = n / product.inner;
    const Factorization inner_factors = FactorsOfDivisor(product.inner, factors);
    const uint64_t inner_count = uint64_t{product.inner} * StepCount(inner_factors);
    return {SimpleAt(base, FactorsOfDivisor(base, factors), variant / inner_count),
            ModularAt(product.inner, inner_factors, variant % inner_count)};
  }
  return {};  // unreachable: variant < VariantCount
}

// The board of `member`; a product from its two small boards, row
// (i - 1) N + j holding N (base[i] - 1) + inner[j].
absl::StatusOr<Columns> WriteMember(uint32_t n, const Member& member, StopPoller& stop) {
  if (member.inner.n == 0) return WriteSimple(member.base, stop);
  absl::StatusOr<Columns> base = WriteSimple(member.base, stop);
  if (!base.ok()) return base.status();
  absl::StatusOr<Columns> inner = WriteSimple(member.inner, stop);
  if (!inner.ok()) return inner.status();
  Columns columns;
  ReserveHuge(columns, n);
  const size_t size = member.inner.n;
  const bool done = RunInStretches(0, n, stop, [&](size_t first, size_t last) {
    size_t block = first / size, within = first % size;
    for (size_t row = first; row < last; ++row) {
      columns.push_back(static_cast<uint32_t>(size * ((*base)[block] - 1)) + (*inner)[within]);
      if (++within == size) {
        within = 0;
        ++block;
      }
    }
  });
  if (!done) return stop.status();
  return columns;
}

}  // namespace

absl::StatusOr<CompletionResult> FormulaSolve(uint32_t n, const SolveOptions& options) {
  const absl::Time start = absl::Now();
  const Factorization factors = Factorize(n);
  const uint64_t count = VariantCount(n, factors);
  if (count == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("n = ", n, " has no member of the explicit families"));
  }
  if (options.formula_variant >= count) {
    return absl::InvalidArgumentError(absl::StrCat("variant must be 0..", count - 1, " for n = ", n,
                                                   ", not ", options.formula_variant));
  }
  const Member member = MemberAt(n, factors, options.formula_variant);
  StopPoller stop(options.stop);
  absl::StatusOr<Columns> columns = WriteMember(n, member, stop);
  if (!columns.ok()) return columns.status();
  CompletionResult result;
  result.outcome = Outcome::kSolved;
  result.columns = *std::move(columns);
  result.stats.seed = options.seed;
  result.stats.formula = member.Name();
  result.stats.total_time = absl::Now() - start;
  return result;
}

// A product also holds its base board (at most n / 5 rows) and its inner
// one (at most n / 4).
uint64_t FormulaPeakBytes(uint64_t n) {
  return kFixedPeakBytes + Board(n) + Board(n / 5) + Board(n / 4 + 4);
}

}  // namespace internal

uint64_t FormulaVariantCount(uint32_t n) {
  return internal::VariantCount(n, internal::Factorize(n));
}

}  // namespace nqueens
