// Constants shared by the server's tests.
#ifndef NQUEENS_TESTS_SERVER_TEST_CONSTANTS_H_
#define NQUEENS_TESTS_SERVER_TEST_CONSTANTS_H_

#include <cstdint>

#include "absl/time/time.h"

namespace nqueens::testing {

// How long a test waits for what should happen at once: far longer than it
// takes, so that a slow or loaded machine does not fail a test; a hang still
// ends the wait, with a failure.
inline constexpr absl::Duration kPatience = absl::Seconds(60);

inline constexpr uint64_t kMiB = uint64_t{1} << 20;

// A board whose solve runs long enough to be seen in flight and cancelled.
inline constexpr uint64_t kLongN = 50'000'000;

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_SERVER_TEST_CONSTANTS_H_
