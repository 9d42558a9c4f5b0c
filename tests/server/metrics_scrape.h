// Reads a metrics endpoint as Prometheus does: an HTTP GET of /metrics over
// a plain socket to 127.0.0.1, and the text format's samples by series.
#ifndef NQUEENS_TESTS_SERVER_METRICS_SCRAPE_H_
#define NQUEENS_TESTS_SERVER_METRICS_SCRAPE_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nqueens::testing {

// Sample values by series as the text format writes them, labels included:
// `nqueens_board_rows_count{method="Solve"}`.
using Samples = std::map<std::string, double>;

// The body of GET http://127.0.0.1:PORT/PATH (HTTP/1.0, so the server closes
// the connection after it); an error unless the status is 200. Gives up
// after `patience` without data.
absl::StatusOr<std::string> HttpGet(int port, const std::string& path,
                                    absl::Duration patience = absl::Seconds(10));

// A connection to 127.0.0.1:PORT that sends `sent` (e.g. half a request, or
// nothing) and then nothing more, as a slow or hostile client does. Closed
// when it goes.
class StalledConnection {
 public:
  StalledConnection(int port, const std::string& sent);
  ~StalledConnection();
  StalledConnection(const StalledConnection&) = delete;
  StalledConnection& operator=(const StalledConnection&) = delete;

  bool connected() const { return connected_; }
  // Whether the server closed the connection within `patience` (whatever
  // it answered first).
  bool AwaitClosedByServer(absl::Duration patience);

 private:
  int fd_;
  bool connected_ = false;
};

// The samples of a text exposition; comment lines are skipped.
Samples ParseSamples(absl::string_view exposition);

// GET /metrics, parsed.
absl::StatusOr<Samples> Scrape(int port);

// The series' value, 0 when absent (a counter not yet created).
double ValueOf(const Samples& samples, const std::string& series);

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_SERVER_METRICS_SCRAPE_H_
