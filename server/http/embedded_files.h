// Files compiled into the server by cmake/EmbedFile.cmake (server/CMakeLists.txt),
// so that the gateway serves them without reading a file at run time: each
// is its bytes and a terminating zero, and their number without it.
#ifndef NQUEENS_SERVER_HTTP_EMBEDDED_FILES_H_
#define NQUEENS_SERVER_HTTP_EMBEDDED_FILES_H_

#include <cstddef>

namespace nqueens::server::http {

// server/http/playground.html, the page at GET /, which loads nothing from
// elsewhere.
extern const char kPlaygroundPage[];
extern const size_t kPlaygroundPageBytes;

// server/http/openapi.json (scripts/generate-openapi.py), at GET /openapi.json.
extern const char kOpenApiDocument[];
extern const size_t kOpenApiDocumentBytes;

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_EMBEDDED_FILES_H_
