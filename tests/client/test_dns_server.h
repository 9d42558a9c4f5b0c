// A DNS server for the tests, on 127.0.0.1 and a UDP port of its own, which
// a target dns://ADDRESS/NAME:PORT asks: it answers A queries for one name
// with the IPv4 addresses the test sets (and may change while a client
// runs), AAAA queries for it with no record, and other names with NXDOMAIN.
#ifndef NQUEENS_TESTS_CLIENT_TEST_DNS_SERVER_H_
#define NQUEENS_TESTS_CLIENT_TEST_DNS_SERVER_H_

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"

namespace nqueens::testing {

class TestDnsServer {
 public:
  // Serves `name` (no trailing dot) with `addresses` on a thread of its own
  // until destroyed.
  TestDnsServer(std::string name, std::vector<std::string> addresses);
  ~TestDnsServer();
  TestDnsServer(const TestDnsServer&) = delete;
  TestDnsServer& operator=(const TestDnsServer&) = delete;

  // "127.0.0.1:PORT".
  const std::string& address() const { return address_; }

  // The name's A records from the next query on.
  void SetAddresses(std::vector<std::string> addresses);

  // Waits until the A queries for the name answered so far reach `count`;
  // false when `timeout` passes first.
  bool AwaitAnswers(int count, absl::Duration timeout);

 private:
  // Answers queries until the destructor says to stop.
  void Serve();

  const std::string name_;
  int socket_ = -1;
  std::string address_;
  std::mutex mutex_;
  std::condition_variable answered_changed_;
  std::vector<std::string> records_;  // the A records' 4 bytes; guarded by mutex_
  int answered_ = 0;                  // A queries for the name; guarded by mutex_
  bool stopping_ = false;             // guarded by mutex_
  std::thread thread_;
};

}  // namespace nqueens::testing

#endif  // NQUEENS_TESTS_CLIENT_TEST_DNS_SERVER_H_
