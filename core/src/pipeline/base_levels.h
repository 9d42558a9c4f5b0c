// The pipeline's two return points (arXiv:1912.05935, section 4.1), from the
// cubic fits of PipelineParams.
#ifndef NQUEENS_PIPELINE_BASE_LEVELS_H_
#define NQUEENS_PIPELINE_BASE_LEVELS_H_

#include <cstdint>

#include "nqueens/params.h"

namespace nqueens::internal {

// In queens placed.
struct BaseLevels {
  uint32_t level2 = 0;  // randSet&randSet stops here
  uint32_t level3 = 0;  // rand&rand stops here
};

// baseLevel2 and baseLevel3 for board size n, clamped to 0..n.
BaseLevels ComputeBaseLevels(uint32_t n, const PipelineParams& params);

}  // namespace nqueens::internal

#endif  // NQUEENS_PIPELINE_BASE_LEVELS_H_
