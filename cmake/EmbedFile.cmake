# cmake -DINPUT=FILE -DOUTPUT=FILE.cc -DNAME=kName -DNAMESPACE=ns -P EmbedFile.cmake
# Writes a C++ file that defines `const char NAME[]` (the file's bytes and a
# terminating zero) and `const size_t NAMEBytes` (its size) in NAMESPACE.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR bytes "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," chars "${hex}")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT} by cmake/EmbedFile.cmake: do not edit.\n"
  "#include <cstddef>\n\n"
  "namespace ${NAMESPACE} {\n\n"
  "extern const char ${NAME}[] = {\n${chars}'\\0'};\n"
  "extern const size_t ${NAME}Bytes = ${bytes};\n\n"
  "}  // namespace ${NAMESPACE}\n")
