// CheckRequestJson (server/http/strict_json.h) on the request messages of
// nqueens.v1: what RFC 8259 allows passes, every other thing is refused with
// the byte and the field, and so are unknown fields and enum names.
#include "server/http/strict_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "nqueens/v1/nqueens.pb.h"

namespace nqueens::server::http {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Refusal(absl::string_view json,
                    const google::protobuf::Descriptor& type = *v1::SolveRequest::descriptor()) {
  const absl::Status status = CheckRequestJson(json, type);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << json;
  return std::string(status.message());
}

TEST(StrictJsonTest, TakesWhatRfc8259Allows) {
  const auto& solve = *v1::SolveRequest::descriptor();
  const std::pair<const char*, const google::protobuf::Descriptor*> cases[] = {
      {R"({"n": 8})", &solve},
      {" \t\r\n{}\n", &solve},
      {R"({"n":"8","method":"METHOD_RANDOM","seed":null,"limits":{"max_backtracks":"10",)"
       R"("maxRestarts":2,"maxExactSeconds":-0.5e+1}})",
       &solve},
      {R"({"n": 8, "method": 2})", &solve},
      {R"({"n": 8, "method": "5"})", &solve},
      {R"({"n": 0, "variant": 1E2, "symmetry": 7, "limits": {"maxExactSeconds": 1.5}})", &solve},
      {"{\"n\": 8, \"method\": \"METHOD_\\u0052ANDOM\"}", &solve},
      {R"({"n": 8, "queens": [{"row": 1, "column": 2}, {"row": 3}], "columns": [],)"
       R"( "wantCertificate": true, "method": "COMPLETE_METHOD_EXACT"})",
       v1::CompleteRequest::descriptor()},
      // UTF-8 of 2, 3 and 4 bytes, and every escape.
      {"{\"formula\": \"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80 \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
       "\\u00e9\"}",
       v1::Stats::descriptor()},
  };
  for (const auto& [json, type] : cases) {
    const absl::Status status = CheckRequestJson(json, *type);
    EXPECT_TRUE(status.ok()) << json << ": " << status;
  }
}

TEST(StrictJsonTest, AnEmptyBodySaysWhatToSend) {
  for (const char* json : {"", "  \r\n\t"}) {
    EXPECT_EQ(Refusal(json), "the body is empty: send a JSON object, e.g. {\"n\": 8}");
  }
}

TEST(StrictJsonTest, TrailingCommasNameTheByteAndTheField) {
  EXPECT_EQ(Refusal(R"({"n": 8,})"),
            "request body: invalid JSON at byte 8: a trailing comma before '}'");
  EXPECT_EQ(Refusal(R"({"limits": {"max_backtracks": 1, }})"),
            "request body: invalid JSON at byte 33 (in limits): a trailing comma before '}'");
  EXPECT_EQ(Refusal(R"({"columns": [1, 2,]})", *v1::CompleteRequest::descriptor()),
            "request body: invalid JSON at byte 18 (in columns): a trailing comma before ']'");
}

TEST(StrictJsonTest, RefusesWhatRfc8259DoesNotAllow) {
  struct Case {
    const char* json;
    const char* says;
    int byte;
  };
  for (const Case& c : {
           Case{R"({"n": 08})", "a number with a leading zero", 6},
           Case{R"({"n": -08})", "a number with a leading zero", 7},
           Case{R"({"n": +8})", "expected a value", 6},
           Case{R"({"n": .5})", "expected a value", 6},
           Case{R"({"n": NaN})", "found 'N'", 6},
           Case{R"({"n": -})", "expected a digit after '-'", 7},
           Case{R"({"n": 1.})", "expected a digit after '.'", 8},
           Case{R"({"n": 1e+})", "expected the exponent's digits", 9},
           Case{R"({"n": tru})", "expected true", 6},
           Case{R"({"n": nul})", "expected null", 6},
           Case{R"({'n': 8})", "JSON's strings take double quotes", 1},
           Case{R"({n: 8})", "expected a field name in quotes, found 'n'", 1},
           Case{R"({"n" 8})", "expected ':'", 5},
           Case{R"({"n": 8 "method": 1})", "expected ',' or '}', found '\"'", 8},
           Case{R"({"n": 8} // eight)", "JSON has no comments", 9},
           Case{R"({"n": 8}{"n": 9})", "'{' after the object", 8},
           Case{R"([8])", "the body must be a JSON object", 0},
           Case{R"(8)", "the body must be a JSON object", 0},
           Case{R"({"n": 8)", "expected ',' or '}', found the end of the body", 7},
           Case{R"({"n": )", "expected a value, found the end of the body", 6},
           Case{R"({"n": "8)", "a string without its closing quote", 8},
           Case{"{\"n\": \"8\x01\"}", "a control character (0x01) in a string", 8},
           Case{R"({"n": "\x"})", "an unknown escape: \\ and 'x'", 8},
           Case{R"({"n": "\u12"})", "four hexadecimal digits after \\u, found '\"'", 11},
           Case{"{\"n\": \"\xC3\x28\"}", "not UTF-8", 7},
           Case{"{\"n\": \"\xC0\xAF\"}", "not UTF-8", 7},          // overlong
           Case{"{\"n\": \"\xED\xA0\x80\"}", "not UTF-8", 7},      // a surrogate
           Case{"{\"n\": \"\xF4\x90\x80\x80\"}", "not UTF-8", 7},  // above U+10FFFF
           Case{"{\"n\": \"\xE2\x82\"}", "not UTF-8", 7},          // cut short
           Case{"\xEF\xBB\xBF{\"n\": 8}", "byte 0xEF", 0},         // a byte order mark
       }) {
    EXPECT_THAT(Refusal(c.json),
                AllOf(HasSubstr(absl::StrCat("invalid JSON at byte ", c.byte)), HasSubstr(c.says)))
        << c.json;
  }
}

TEST(StrictJsonTest, ErrorsInArraysNameTheElement) {
  EXPECT_EQ(Refusal(R"({"queens": [{"row": 1}, {"row": 01}]})", *v1::CompleteRequest::descriptor()),
            "request body: invalid JSON at byte 32 (in queens[1].row): a number with a leading "
            "zero");
}

TEST(StrictJsonTest, ARepeatedFieldIsRefusedUnderEitherName) {
  EXPECT_EQ(Refusal(R"({"n": 8, "n": 9})"),
            "request body: invalid JSON at byte 9: the field n appears twice");
  EXPECT_THAT(Refusal(R"({"want_certificate": true, "wantCertificate": false})",
                      *v1::CompleteRequest::descriptor()),
              HasSubstr("the field want_certificate appears twice"));
}

TEST(StrictJsonTest, AnUnknownFieldIsNamedWithTheFieldsThereAre) {
  EXPECT_EQ(Refusal(R"({"n": 8, "bogusField": 1})"),
            "request body: unknown field \"bogusField\" at byte 9 (in SolveRequest); the fields "
            "of SolveRequest are n, method, seed, limits, variant, symmetry");
  EXPECT_EQ(Refusal(R"({"limits": {"maxBogus": 1}})"),
            "request body: unknown field \"maxBogus\" at byte 12 (in limits); the fields of "
            "Limits are max_backtracks, max_restarts, max_exact_nodes, max_exact_seconds");
}

TEST(StrictJsonTest, ALongNameIsQuotedInPart) {
  // 63 ASCII bytes, then a 2-byte UTF-8 letter that the 64-byte cut would split.
  const std::string name = std::string(63, 'x') + "\xC3\xA9" + std::string(100, 'z');
  const std::string message = Refusal(absl::StrCat("{\"", name, "\": 1}"));
  EXPECT_THAT(message, HasSubstr(absl::StrCat("unknown field \"", std::string(63, 'x'), "...\"")));
  EXPECT_THAT(message, Not(HasSubstr("zz")));
  EXPECT_THAT(Refusal(absl::StrCat("{\"method\": \"", name, "\"}")),
              HasSubstr(absl::StrCat("method: \"", std::string(63, 'x'), "...\" is not one of")));
}

TEST(StrictJsonTest, AnUnknownEnumNameListsTheNames) {
  EXPECT_EQ(Refusal(R"({"n": 8, "method": "FORMULA"})"),
            "request body: method: \"FORMULA\" is not one of METHOD_UNSPECIFIED, METHOD_RANDOM, "
            "METHOD_MIN_CONFLICTS, METHOD_BACKTRACKING, METHOD_GENETIC, METHOD_FORMULA, "
            "METHOD_CONSTRUCTIVE (or their numbers), at byte 19");
  // The path of an enum deep in a message.
  EXPECT_THAT(Refusal(R"({"conflicts": [{"line": "LINE_COLUMN"}, {"line": "DIAGONAL"}]})",
                      *v1::ValidateResponse::descriptor()),
              HasSubstr("conflicts[1].line: \"DIAGONAL\" is not one of LINE_UNSPECIFIED, "));
}

TEST(StrictJsonTest, DeepNestingIsRefusedWithoutRecursingFurther) {
  const auto& complete = *v1::CompleteRequest::descriptor();
  // The object and kMaxJsonDepth - 1 arrays pass (protobuf's parser refuses
  // the arrays in arrays later); one more does not, nor a million.
  const auto nested = [](int arrays) {
    return absl::StrCat(R"({"columns": )", std::string(arrays, '['), "1", std::string(arrays, ']'),
                        "}");
  };
  EXPECT_TRUE(CheckRequestJson(nested(kMaxJsonDepth - 1), complete).ok());
  EXPECT_THAT(Refusal(nested(kMaxJsonDepth), complete), HasSubstr("nested too deep"));
  EXPECT_THAT(Refusal(nested(1 << 20), complete), HasSubstr("nested too deep"));
}

}  // namespace
}  // namespace nqueens::server::http
