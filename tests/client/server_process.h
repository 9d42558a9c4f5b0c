// An nqueens-server subprocess for the end-to-end tests, listening on
// 127.0.0.1 (or another loopback address) and a port of its own choosing.
#ifndef NQUEENS_TESTS_CLIENT_SERVER_PROCESS_H_
#define NQUEENS_TESTS_CLIENT_SERVER_PROCESS_H_

#include <csignal>
#include <string>
#include <vector>

#include "subprocess.h"

namespace nqueens::testing {

class ServerProcess {
 public:
  // Starts the server with `--listen 127.0.0.1:0` and `extra_flags`, and
  // waits for the "listening on HOST:PORT" line it prints on stdout.
  explicit ServerProcess(const std::vector<std::string>& extra_flags = {});
  // The same listening on `listen` ("127.0.0.2:0", "127.0.0.3:40123"), its
  // log (stderr) written to the file at `log_path` (empty: the test's
  // stderr).
  ServerProcess(const std::string& listen, const std::string& log_path,
                const std::vector<std::string>& extra_flags);

  // "127.0.0.1:PORT", or empty when the server did not announce itself
  // (a port already taken).
  const std::string& address() const { return address_; }

  // Sends SIGTERM: the server starts its shutdown (the destructor waits,
  // and the log is complete once it returns).
  void Terminate() { process_.Signal(SIGTERM); }
  // Sends `signal`: SIGSTOP freezes the server (its connections stay open,
  // unanswered, as a hung machine's), SIGKILL ends it at once.
  void Signal(int signal) { process_.Signal(signal); }

 private:
  Subprocess process_;
  std::string address_;
};

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_CLIENT_SERVER_PROCESS_H_
