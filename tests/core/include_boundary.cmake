# Shows that a subsystem of the core cannot include a header of one it did
# not declare: the same include compiles against a root that declares the
# subsystem and fails, naming the header, against one that does not.
#   cmake -DCOMPILER=... -DPUBLIC_INCLUDE=... -DDECLARED_ROOT=...
#         -DUNDECLARED_ROOT=... -DHEADER=pipeline/stages.h -DWORK_DIR=... -P include_boundary.cmake
file(MAKE_DIRECTORY ${WORK_DIR})
set(source ${WORK_DIR}/include_boundary.cc)
file(WRITE ${source} "#include \"${HEADER}\"\n")
function(compile root result_var output_var)
  execute_process(
    COMMAND ${COMPILER} -std=c++17 -fsyntax-only -I${PUBLIC_INCLUDE} -I${root} ${source}
    RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result_var} ${result} PARENT_SCOPE)
  set(${output_var} "${out}" PARENT_SCOPE)
endfunction()
compile(${DECLARED_ROOT} result output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${HEADER} should compile against ${DECLARED_ROOT}:\n${output}")
endif()
compile(${UNDECLARED_ROOT} result output)
if(result EQUAL 0)
  message(FATAL_ERROR "${HEADER} compiled against ${UNDECLARED_ROOT}, which does not declare it")
endif()
string(FIND "${output}" "${HEADER}" named)
if(named EQUAL -1)
  message(FATAL_ERROR "the error does not name ${HEADER}:\n${output}")
endif()
message(STATUS "${HEADER}: visible from ${DECLARED_ROOT}, refused from ${UNDECLARED_ROOT}")
