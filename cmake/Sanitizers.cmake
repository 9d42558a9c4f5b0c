# Sanitizer builds, each in a build directory of its own:
#
#   NQUEENS_SANITIZE_ADDRESS  AddressSanitizer + UndefinedBehaviorSanitizer,
#                             for the whole suite (build-asan).
#   NQUEENS_SANITIZE_THREAD   ThreadSanitizer, for the tests labelled
#                             `concurrency` (build-tsan; tests/CMakeLists.txt).
#   NQUEENS_BUILD_FUZZERS     the libFuzzer targets in fuzz/, with ASan and
#                             UBSan; needs clang++. scripts/asan-build.sh
#                             turns it on beside NQUEENS_SANITIZE_ADDRESS, so
#                             that the suite and the fuzz targets share one
#                             build (build-asan).
#
# The flags apply to every target of the build, our libraries included, so a
# fault anywhere in our code is caught. Debian's gRPC, protobuf and Abseil stay
# uninstrumented: ASan still checks every access our code makes, but TSan
# cannot see synchronization inside them (see tests/tsan_absl_mutex.cc).
option(NQUEENS_SANITIZE_ADDRESS
  "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(NQUEENS_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
option(NQUEENS_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (clang++ only)" OFF)

if(NQUEENS_SANITIZE_THREAD AND (NQUEENS_SANITIZE_ADDRESS OR NQUEENS_BUILD_FUZZERS))
  # The runtimes cannot share one process.
  message(FATAL_ERROR
    "NQUEENS_SANITIZE_THREAD cannot be combined with NQUEENS_SANITIZE_ADDRESS "
    "or NQUEENS_BUILD_FUZZERS; use separate build directories")
endif()
if(NQUEENS_BUILD_FUZZERS AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR
    "NQUEENS_BUILD_FUZZERS needs libFuzzer, which comes with clang: configure "
    "a fresh build directory with -DCMAKE_CXX_COMPILER=clang++")
endif()

# -fno-sanitize-recover: UBSan otherwise prints and goes on, and the test
# passes. The frame pointers give whole stacks in reports at little cost.
set(NQUEENS_ASAN_UBSAN_FLAGS
  -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer)

if(NQUEENS_BUILD_FUZZERS)
  # fuzzer-no-link: coverage instrumentation everywhere; libFuzzer's own
  # main() is linked into the fuzz targets only (fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link ${NQUEENS_ASAN_UBSAN_FLAGS})
  add_link_options(-fsanitize=address,undefined)
elseif(NQUEENS_SANITIZE_ADDRESS)
  add_compile_options(${NQUEENS_ASAN_UBSAN_FLAGS})
  add_link_options(-fsanitize=address,undefined)
elseif(NQUEENS_SANITIZE_THREAD)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

if(NQUEENS_SANITIZE_ADDRESS OR NQUEENS_SANITIZE_THREAD OR NQUEENS_BUILD_FUZZERS)
  set(NQUEENS_SANITIZED ON)
  # The sanitizer runtimes are shared libraries (GCC) or must come before
  # everything else, and they intercept libc and libstdc++ calls: the static
  # link of the CLI (cmake/StaticClient.cmake, -Bstatic, -static-libstdc++)
  # does not go with them. This normal variable hides the cache option.
  if(NOT DEFINED NQUEENS_STATIC_CLI OR NQUEENS_STATIC_CLI)
    message(STATUS "Sanitizer build: linking the nqueens CLI against the shared libraries (NQUEENS_STATIC_CLI=OFF)")
  endif()
  set(NQUEENS_STATIC_CLI OFF)
else()
  set(NQUEENS_SANITIZED OFF)
endif()
