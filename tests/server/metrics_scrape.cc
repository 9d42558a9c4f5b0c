#include "metrics_scrape.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace nqueens::testing {
namespace {

// Closes the descriptor on every way out.
class Socket {
 public:
  Socket() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {}
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  int fd() const { return fd_; }

 private:
  const int fd_;
};

absl::Status Errno(absl::string_view what) {
  return absl::UnavailableError(absl::StrCat(what, ": ", std::strerror(errno)));
}

bool ConnectToLoopback(int fd, int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

bool SendAll(int fd, absl::string_view data) {
  for (size_t sent = 0; sent < data.size();) {
    const ssize_t written = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (written <= 0) return false;
    sent += static_cast<size_t>(written);
  }
  return true;
}

void SetTimeouts(int fd, absl::Duration patience) {
  const timeval timeout = absl::ToTimeval(patience);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

}  // namespace

StalledConnection::StalledConnection(int port, const std::string& sent)
    : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
  connected_ = fd_ >= 0 && ConnectToLoopback(fd_, port) && SendAll(fd_, sent);
}

StalledConnection::~StalledConnection() {
  if (fd_ >= 0) close(fd_);
}

bool StalledConnection::AwaitClosedByServer(absl::Duration patience) {
  SetTimeouts(fd_, patience);
  char buffer[4096];
  // Whatever the server answers first (a 408, say), then the end.
  ssize_t received;
  while ((received = recv(fd_, buffer, sizeof buffer, 0)) > 0) {
  }
  return received == 0 || errno == ECONNRESET;
}

absl::StatusOr<std::string> HttpGet(int port, const std::string& path, absl::Duration patience) {
  Socket socket;
  if (socket.fd() < 0) return Errno("socket");
  SetTimeouts(socket.fd(), patience);
  if (!ConnectToLoopback(socket.fd(), port)) {
    return Errno(absl::StrCat("connect to 127.0.0.1:", port));
  }
  const std::string request = absl::StrCat("GET ", path, " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
  if (!SendAll(socket.fd(), request)) return Errno("send");
  std::string response;
  char buffer[4096];
  while (const ssize_t received = recv(socket.fd(), buffer, sizeof buffer, 0)) {
    if (received < 0) return Errno("recv");
    response.append(buffer, static_cast<size_t>(received));
  }
  const size_t body = response.find("\r\n\r\n");
  const absl::string_view status_line =
      absl::string_view(response).substr(0, response.find("\r\n"));
  if (body == std::string::npos || !absl::StartsWith(status_line, "HTTP/1.") ||
      !absl::StrContains(status_line, " 200 ")) {
    return absl::InternalError(absl::StrCat("GET ", path, " answered: ", response));
  }
  return response.substr(body + 4);
}

Samples ParseSamples(absl::string_view exposition) {
  Samples samples;
  for (absl::string_view line : absl::StrSplit(exposition, '\n', absl::SkipEmpty())) {
    if (absl::StartsWith(line, "#")) continue;
    const size_t space = line.rfind(' ');
    if (space == absl::string_view::npos) continue;
    samples[std::string(line.substr(0, space))] =
        std::strtod(std::string(line.substr(space + 1)).c_str(), nullptr);
  }
  return samples;
}

absl::StatusOr<Samples> Scrape(int port) {
  absl::StatusOr<std::string> body = HttpGet(port, "/metrics");
  if (!body.ok()) return body.status();
  return ParseSamples(*body);
}

double ValueOf(const Samples& samples, const std::string& series) {
  const auto it = samples.find(series);
  return it == samples.end() ? 0 : it->second;
}

}  // namespace nqueens::testing
