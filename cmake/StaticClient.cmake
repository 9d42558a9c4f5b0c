# nqueens_add_client_executable(NAME SOURCES src... LIBRARIES lib...)
#
# A gRPC client program: the `nqueens` CLI, and the benchmark's minimal
# client that measures what any such process costs (bench/client_floor.cc).
# A client process runs once per board, so its start-up is part of every call
# it makes. Linked against the shared gRPC it first loads every library
# gRPC, protobuf and Abseil bring; linked statically it does not. How long
# a client takes from spawn to main() is in docs/scale.md ("The floor under
# the CLI", nqueens-scale --mode=floor, whose client is linked as this option
# says; run it in a build with -DNQUEENS_STATIC_CLI=OFF for the shared link). Bookworm's -dev packages ship the static archives, and
# pkg-config --static lists them with their own dependencies. libstdc++ and
# libgcc are linked in too; only the C library stays shared.
#
# LIBRARIES are our own static libraries, in link order (users first).
option(NQUEENS_STATIC_CLI
  "Link the nqueens CLI statically against gRPC, protobuf and Abseil" ON)
if(NQUEENS_STATIC_CLI)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(CLI_STATIC_DEPS REQUIRED
    grpc++ protobuf absl_flags absl_flags_parse absl_flags_reflection
    absl_status absl_statusor absl_strings absl_str_format absl_time
    absl_flat_hash_map absl_flat_hash_set)
  set(NQUEENS_CLIENT_STATIC_DEPENDENCIES ${CLI_STATIC_DEPS_STATIC_LDFLAGS})
  list(REMOVE_ITEM NQUEENS_CLIENT_STATIC_DEPENDENCIES -pthread)
endif()

function(nqueens_add_client_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LIBRARIES")
  find_package(Threads REQUIRED)
  if(NOT NQUEENS_STATIC_CLI)
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBRARIES})
    return()
  endif()
  # The sources compile with the libraries' usage requirements; the link
  # names our archives by path so that none of the shared libraries those
  # targets carry comes along.
  add_library(${name}_objects OBJECT ${ARG_SOURCES})
  target_link_libraries(${name}_objects PRIVATE ${ARG_LIBRARIES})
  add_executable(${name} $<TARGET_OBJECTS:${name}_objects>)
  add_dependencies(${name} ${ARG_LIBRARIES})
  set(archives)
  foreach(library IN LISTS ARG_LIBRARIES)
    list(APPEND archives $<TARGET_FILE:${library}>)
  endforeach()
  target_link_libraries(${name} PRIVATE ${archives}
    -Wl,-Bstatic -Wl,--start-group ${NQUEENS_CLIENT_STATIC_DEPENDENCIES}
    -Wl,--end-group -Wl,-Bdynamic Threads::Threads)
  # ld.bfd, not the lld the rest of the build may link with: the CLI defines
  # --help and --version itself, and lld, which looks into every archive
  # whatever its place on the line, then also takes the Abseil archive member
  # that defines them (a duplicate symbol).
  target_link_options(${name} PRIVATE -no-pie -static-libstdc++ -static-libgcc
    $<$<BOOL:${NQUEENS_HAVE_LLD}>:-fuse-ld=bfd>)
endfunction()
