// The log's pieces in process: JSON strings that a strict parser reads back
// whatever they hold, and a call's text line. (The JSON lines of the real
// binary: server_binary_test.)
#include "server/observability/logging.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <memory>
#include <sstream>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spdlog/sinks/ostream_sink.h"
#include "spdlog/spdlog.h"

namespace nqueens::server {
namespace {

using ::testing::HasSubstr;

// `text` through JsonString and back, by protobuf's JSON parser.
std::string RoundTrip(const std::string& text) {
  google::protobuf::Struct parsed;
  const auto status =
      google::protobuf::util::JsonStringToMessage("{\"s\":" + JsonString(text) + "}", &parsed);
  EXPECT_TRUE(status.ok()) << status.ToString() << " for " << JsonString(text);
  return parsed.fields().at("s").string_value();
}

TEST(JsonStringTest, EscapesWhatJsonRequires) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a \"quoted\" \\ path"), R"("a \"quoted\" \\ path")");
  EXPECT_EQ(JsonString("line\nbreak\ttab"), R"("line\u000abreak\u0009tab")");
  for (const std::string text : {"plain", "a \"quoted\" \\ path", "line\nbreak\ttab\r\x01\x1f"}) {
    EXPECT_EQ(RoundTrip(text), text);
  }
}

TEST(JsonStringTest, BytesOutsideAsciiStillParse) {
  EXPECT_EQ(JsonString("\x7f\xff"), R"("\u007f\u00ff")");
  RoundTrip("caf\xc3\xa9 \xff");  // invalid UTF-8 too
}

TEST(LogCallTest, TheTextLineHasEveryField) {
  std::ostringstream out;
  const std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "test", std::make_shared<spdlog::sinks::ostream_sink_st>(out)));
  CallRecord call;
  call.method = "Complete";
  call.request_id = "req-7";
  call.peer = "ipv4:127.0.0.1:5000";
  call.n = 100;
  call.queens_given = 78;
  call.outcome = CallOutcome::kSolved;
  call.status = absl::InvalidArgumentError("rows 3 and 9 attack");
  call.duration = absl::Milliseconds(1500);
  LogCall(call);
  spdlog::set_default_logger(previous);
  EXPECT_THAT(
      out.str(),
      HasSubstr("Complete request_id=req-7 peer=ipv4:127.0.0.1:5000 transport=grpc n=100 k=78 "
                "outcome=SOLVED status=INVALID_ARGUMENT (rows 3 and 9 attack) "
                "1.500s"));
}

}  // namespace
}  // namespace nqueens::server
