# cmake -DSOURCE_DIR=... -DOUTPUT=... -P GitRevision.cmake
# Writes OUTPUT, a header defining NQUEENS_GIT_REVISION as the source tree's
# revision ("unknown" outside a git checkout, "-dirty" with local changes),
# but only when that changed, so that nothing rebuilds for nothing.
# A build without .git (a container image: .dockerignore leaves it out) is
# given the revision in the NQUEENS_REVISION environment variable instead.
if(NOT "$ENV{NQUEENS_REVISION}" STREQUAL "")
  set(revision "$ENV{NQUEENS_REVISION}")
else()
  execute_process(
    COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
    OUTPUT_VARIABLE revision
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET
    RESULT_VARIABLE failed)
endif()
if(failed OR revision STREQUAL "")
  set(revision "unknown")
endif()
set(text "#define NQUEENS_GIT_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
