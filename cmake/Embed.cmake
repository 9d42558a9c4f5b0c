# nqueens_embed_file(INPUT NAME NAMESPACE OUT): compiles the file INPUT in as
# `const char NAME[]` (and `const size_t NAMEBytes`) in NAMESPACE, by
# cmake/EmbedFile.cmake at build time; OUT gets the .cc it makes, to add to a
# target's sources.
function(nqueens_embed_file input name namespace out)
  set(cc ${CMAKE_CURRENT_BINARY_DIR}/${name}.cc)
  file(RELATIVE_PATH shown ${PROJECT_SOURCE_DIR} ${input})
  add_custom_command(OUTPUT ${cc}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${cc} -DNAME=${name}
      -DNAMESPACE=${namespace} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/EmbedFile.cmake
    COMMENT "Embedding ${shown}")
  set(${out} ${cc} PARENT_SCOPE)
endfunction()
