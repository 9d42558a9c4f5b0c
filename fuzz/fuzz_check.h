// The fuzz targets' assertion. A broken invariant must stop the run with a
// crash that libFuzzer records (with the input that caused it), whatever the
// build type: assert() is compiled out under NDEBUG.
#ifndef NQUEENS_FUZZ_FUZZ_CHECK_H_
#define NQUEENS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, ...)                                                            \
  do {                                                                                        \
    if (!(condition)) {                                                                       \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: ", __FILE__, __LINE__, #condition); \
      std::fprintf(stderr, __VA_ARGS__);                                                      \
      std::fputc('\n', stderr);                                                               \
      std::abort();                                                                           \
    }                                                                                         \
  } while (false)

#endif  // NQUEENS_FUZZ_FUZZ_CHECK_H_
