// The playground page (server/http/playground.html), compiled into the
// server by cmake/EmbedFile.cmake, so that the page needs no file at run
// time and loads nothing from elsewhere.
#ifndef NQUEENS_SERVER_HTTP_PLAYGROUND_PAGE_H_
#define NQUEENS_SERVER_HTTP_PLAYGROUND_PAGE_H_

#include <cstddef>

namespace nqueens::server::http {

extern const char kPlaygroundPage[];
extern const size_t kPlaygroundPageBytes;

}  // namespace nqueens::server::http

#endif  // NQUEENS_SERVER_HTTP_PLAYGROUND_PAGE_H_
