#include "pipeline/base_levels.h"

#include <algorithm>
#include <cmath>

namespace nqueens::internal {
namespace {

uint32_t LevelBelowN(uint32_t n, double rows_left) {
  const double level = static_cast<double>(n) - std::round(rows_left);
  return static_cast<uint32_t>(std::clamp(level, 0.0, static_cast<double>(n)));
}

}  // namespace

BaseLevels ComputeBaseLevels(uint32_t n, const PipelineParams& params) {
  if (n == 0) return {};
  const double u = std::log10(static_cast<double>(n));
  const bool large = n >= params.large_formula_from_n;
  const Cubic& b2 = large ? params.b2_large : params.b2_small;
  const Cubic& b3 = large ? params.b3_large : params.b3_small;
  return {LevelBelowN(n, b2(u)), LevelBelowN(n, b3(u))};
}

}  // namespace nqueens::internal
