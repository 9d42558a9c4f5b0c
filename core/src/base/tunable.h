// A row of the options table (nqueens/params.h's ParamTable): one tunable of
// PipelineParams with its range, description and source, as CaDiCaL keeps
// its options. The pipeline's and the exact search's rows are in
// solve/params_table.cc; a method's rows are in its own file, listed by its
// row of the method table (solve/solve_methods.h).
//
// Ranges bound what can be run safely, not what is sensible: a server passes
// no value of this table through without its own limits, and a caller of the
// library gets INVALID_ARGUMENT rather than a crash or an endless loop.
#ifndef NQUEENS_BASE_TUNABLE_H_
#define NQUEENS_BASE_TUNABLE_H_

#include <cstdint>
#include <variant>

#include "nqueens/params.h"

namespace nqueens::internal {

// The top of the uint64_t fields' range: 2^64 as a double, shown as 2^64 - 1.
inline constexpr double kNoLimit = 0x1p64;

// A coefficient of one of the base-level cubics.
struct CubicCoefficient {
  Cubic PipelineParams::*cubic;
  double Cubic::*coefficient;
};

using TunableField =
    std::variant<uint32_t PipelineParams::*, uint64_t PipelineParams::*, double PipelineParams::*,
                 bool PipelineParams::*, CubicCoefficient>;

struct Tunable {
  const char* name;
  TunableField field;
  double min, max;  // inclusive
  const char* description;
  const char* source;
};

}  // namespace nqueens::internal

#endif  // NQUEENS_BASE_TUNABLE_H_
