#include "test_dns_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace nqueens::testing {
namespace {

constexpr size_t kHeaderSize = 12;
constexpr uint16_t kTypeA = 1;
constexpr uint16_t kClassIn = 1;
constexpr uint16_t kNoSuchName = 3;  // NXDOMAIN
// A response (QR), authoritative (AA), recursion available (RA).
constexpr uint16_t kResponseFlags = 0x8480;
constexpr uint16_t kRecursionDesired = 0x0100;
// How long the server waits for a query before it looks whether to stop.
constexpr int kPollMilliseconds = 20;

uint16_t Get16(absl::string_view bytes, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(bytes[at]) << 8 |
                               static_cast<uint8_t>(bytes[at + 1]));
}

void Put16(uint16_t value, std::string& out) {
  out.push_back(static_cast<char>(value >> 8));
  out.push_back(static_cast<char>(value & 0xff));
}

struct Question {
  std::string name;  // lower case, its labels joined by dots
  uint16_t type = 0;
  size_t end = 0;  // where it ends in the message
};

// The one question of a query; nullopt for any other message.
std::optional<Question> ReadQuestion(absl::string_view message) {
  if (message.size() < kHeaderSize || (message[2] & 0x80) != 0 || Get16(message, 4) != 1) {
    return std::nullopt;
  }
  Question question;
  size_t at = kHeaderSize;
  while (at < message.size() && message[at] != 0) {
    const size_t length = static_cast<uint8_t>(message[at]);
    if (length > 63 || at + 1 + length >= message.size()) return std::nullopt;
    if (!question.name.empty()) question.name += '.';
    question.name += absl::AsciiStrToLower(message.substr(at + 1, length));
    at += 1 + length;
  }
  if (at + 5 > message.size()) return std::nullopt;
  question.type = Get16(message, at + 1);
  question.end = at + 5;
  return question;
}

// The response to `query`, whose question is `question`: `records` (A
// records of 4 bytes each), and NXDOMAIN for a name not `ours`.
std::string Response(absl::string_view query, const Question& question, bool ours,
                     const std::vector<std::string>& records) {
  std::string response(query.substr(0, 2));  // the query's id
  const uint16_t recursion = Get16(query, 2) & kRecursionDesired;
  Put16(kResponseFlags | recursion | (ours ? 0 : kNoSuchName), response);
  for (const size_t count : {size_t{1}, records.size(), size_t{0}, size_t{0}}) {
    Put16(static_cast<uint16_t>(count), response);
  }
  const absl::string_view asked = query.substr(kHeaderSize, question.end - kHeaderSize);
  response.append(asked.data(), asked.size());
  for (const std::string& record : records) {
    Put16(0xc000 | static_cast<uint16_t>(kHeaderSize), response);  // the question's name
    Put16(kTypeA, response);
    Put16(kClassIn, response);
    Put16(0, response);  // a TTL of 0: every look-up asks again
    Put16(0, response);
    Put16(static_cast<uint16_t>(record.size()), response);
    response += record;
  }
  return response;
}

}  // namespace

TestDnsServer::TestDnsServer(std::string name, std::vector<std::string> addresses)
    : name_(absl::AsciiStrToLower(name)) {
  SetAddresses(std::move(addresses));
  socket_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof local;
  if (socket_ < 0 || bind(socket_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
      getsockname(socket_, reinterpret_cast<sockaddr*>(&local), &size) != 0) {
    ADD_FAILURE() << "cannot open the test's DNS server: " << std::strerror(errno);
    return;
  }
  address_ = absl::StrCat("127.0.0.1:", ntohs(local.sin_port));
  thread_ = std::thread([this] { Serve(); });
}

TestDnsServer::~TestDnsServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
  if (socket_ >= 0) close(socket_);
}

void TestDnsServer::SetAddresses(std::vector<std::string> addresses) {
  std::vector<std::string> records;
  for (const std::string& address : addresses) {
    std::array<char, 4> bytes{};
    if (inet_pton(AF_INET, address.c_str(), bytes.data()) != 1) {
      ADD_FAILURE() << "no IPv4 address: " << address;
      continue;
    }
    records.emplace_back(bytes.data(), bytes.size());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  records_ = std::move(records);
}

bool TestDnsServer::AwaitAnswers(int count, absl::Duration timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return answered_changed_.wait_for(lock, absl::ToChronoMilliseconds(timeout),
                                    [&] { return answered_ >= count; });
}

void TestDnsServer::Serve() {
  std::array<char, 512> query{};  // a query of one name fits in a classic UDP message
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
    }
    pollfd ready{socket_, POLLIN, 0};
    if (poll(&ready, 1, kPollMilliseconds) <= 0) continue;
    sockaddr_in client{};
    socklen_t size = sizeof client;
    const ssize_t got = recvfrom(socket_, query.data(), query.size(), 0,
                                 reinterpret_cast<sockaddr*>(&client), &size);
    if (got <= 0) continue;
    const absl::string_view message(query.data(), static_cast<size_t>(got));
    const std::optional<Question> question = ReadQuestion(message);
    if (!question.has_value()) continue;
    const bool ours = question->name == name_;
    std::vector<std::string> records;
    if (ours && question->type == kTypeA) {
      std::lock_guard<std::mutex> lock(mutex_);
      records = records_;
    }
    const std::string response = Response(message, *question, ours, records);
    sendto(socket_, response.data(), response.size(), 0, reinterpret_cast<sockaddr*>(&client),
           size);
    if (ours && question->type == kTypeA) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++answered_;
      answered_changed_.notify_all();
    }
  }
}

}  // namespace nqueens::testing
