#include "server/http/strict_json.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nqueens::server::http {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;

// What a value should be, as far as the check looks: an object of a
// message, an array of a repeated field's values, or an enum's name. All
// null: anything.
struct Expected {
  const Descriptor* message = nullptr;
  const FieldDescriptor* list = nullptr;
  const EnumDescriptor* enumeration = nullptr;
};

// What `field` holds (`element`: one value of a repeated field). Maps and
// protobuf's well-known types, which have JSON forms of their own, are not
// looked into.
Expected ExpectedOf(const FieldDescriptor& field, bool element) {
  if (field.is_map()) return {};
  if (field.is_repeated() && !element) return {nullptr, &field, nullptr};
  if (const Descriptor* message = field.message_type(); message != nullptr) {
    if (absl::StartsWith(message->file()->name(), "google/protobuf/")) return {};
    return {message, nullptr, nullptr};
  }
  return {nullptr, nullptr, field.enum_type()};
}

// The field of `message` called `name`, by its .proto or its JSON name.
const FieldDescriptor* FindField(const Descriptor& message, absl::string_view name) {
  for (int i = 0; i < message.field_count(); ++i) {
    const FieldDescriptor* field = message.field(i);
    if (name == field->name() || name == field->json_name()) return field;
  }
  return nullptr;
}

// `text` in quotes, for a message; its first 64 bytes (cut between UTF-8
// sequences) when it is longer.
std::string Quoted(absl::string_view text) {
  constexpr size_t kMaxQuoted = 64;
  if (text.size() <= kMaxQuoted) return absl::StrCat("\"", text, "\"");
  size_t cut = kMaxQuoted;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return absl::StrCat("\"", text.substr(0, cut), "...\"");
}

std::string FieldNames(const Descriptor& message) {
  std::string names;
  for (int i = 0; i < message.field_count(); ++i) {
    absl::StrAppend(&names, i == 0 ? "" : ", ", message.field(i)->name());
  }
  return names;
}

std::string ValueNames(const EnumDescriptor& enumeration) {
  std::string names;
  for (int i = 0; i < enumeration.value_count(); ++i) {
    absl::StrAppend(&names, i == 0 ? "" : ", ", enumeration.value(i)->name());
  }
  return names;
}

// The length of the UTF-8 sequence `text` starts with; 0 when that is not
// UTF-8 (cut short, overlong, a surrogate, above U+10FFFF).
size_t Utf8Length(absl::string_view text) {
  const auto byte = [text](size_t i) { return static_cast<unsigned char>(text[i]); };
  size_t length = 0;
  uint32_t code = 0;
  if (byte(0) < 0x80) return 1;
  if (byte(0) >= 0xC2 && byte(0) <= 0xDF) {
    length = 2;
    code = byte(0) & 0x1F;
  } else if ((byte(0) & 0xF0) == 0xE0) {
    length = 3;
    code = byte(0) & 0x0F;
  } else if (byte(0) >= 0xF0 && byte(0) <= 0xF4) {
    length = 4;
    code = byte(0) & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = code << 6 | (byte(i) & 0x3F);
  }
  constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  return code < kSmallest[length] || code > 0x10FFFF || surrogate ? 0 : length;
}

// A recursive descent over RFC 8259's grammar, which stops at the first
// fault. The path is kept as it goes, for the messages.
class Checker {
 public:
  explicit Checker(absl::string_view text) : text_(text) {}

  absl::Status Document(const Descriptor& type) {
    SkipSpace();
    if (AtEnd()) {
      return absl::InvalidArgumentError("the body is empty: send a JSON object, e.g. {\"n\": 8}");
    }
    if (Peek() != '{') {
      return Invalid(
          absl::StrCat("the body must be a JSON object, e.g. {\"n\": 8}; found ", Found()));
    }
    if (absl::Status object = Object(&type); !object.ok()) return object;
    SkipSpace();
    return AtEnd() ? absl::OkStatus() : Invalid(absl::StrCat(Found(), " after the object"));
  }

 private:
  // A field's name, or, with an empty name, an index into an array.
  struct Step {
    absl::string_view name;
    size_t index = 0;
  };

  bool AtEnd() const { return at_ == text_.size(); }
  char Peek() const { return text_[at_]; }
  bool At(char c) const { return !AtEnd() && Peek() == c; }
  void SkipSpace() {
    while (At(' ') || At('\t') || At('\n') || At('\r')) ++at_;
  }
  bool Digits() {
    const size_t start = at_;
    while (!AtEnd() && absl::ascii_isdigit(Peek())) ++at_;
    return at_ > start;
  }

  // "limits.max_backtracks", "queens[3].row"
  std::string Path() const {
    std::string path;
    for (const Step& step : path_) {
      if (step.name.empty()) {
        absl::StrAppend(&path, "[", step.index, "]");
      } else {
        absl::StrAppend(&path, path.empty() ? "" : ".", step.name);
      }
    }
    return path;
  }

  // The byte at hand, for a message.
  std::string Found() const {
    if (AtEnd()) return "the end of the body";
    const char c = Peek();
    std::string found = absl::ascii_isgraph(c)
                            ? absl::StrCat("'", absl::string_view(&c, 1), "'")
                            : absl::StrFormat("byte 0x%02X", static_cast<unsigned char>(c));
    if (c == '/') absl::StrAppend(&found, " (JSON has no comments)");
    if (c == '\'') absl::StrAppend(&found, " (JSON's strings take double quotes)");
    return found;
  }

  absl::Status Invalid(absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("request body: invalid JSON at byte ", at_,
                     path_.empty() ? "" : absl::StrCat(" (in ", Path(), ")"), ": ", what));
  }

  absl::Status Value(const Expected& expected) {
    SkipSpace();
    if (AtEnd()) return Invalid("expected a value, found the end of the body");
    switch (Peek()) {
      case '{':
        return Object(expected.message);
      case '[':
        return Array(expected.list);
      case '"':
        return EnumOrString(expected.enumeration);
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        break;
    }
    if (At('-') || absl::ascii_isdigit(Peek())) return Number();
    return Invalid(absl::StrCat(
        "expected a value (an object, array, string, number, true, false or null), found ",
        Found()));
  }

  // `message`: the object's type, or null for any object.
  absl::Status Object(const Descriptor* message) {
    if (++depth_ > kMaxJsonDepth) return Invalid("objects and arrays nested too deep");
    ++at_;
    SkipSpace();
    absl::flat_hash_set<absl::string_view> seen;
    while (!At('}')) {
      if (!At('"'))
        return Invalid(absl::StrCat("expected a field name in quotes, found ", Found()));
      const size_t name_at = at_;
      absl::StatusOr<absl::string_view> name = String();
      if (!name.ok()) return name.status();
      // A name with escapes is left to protobuf's parser.
      const FieldDescriptor* field = nullptr;
      if (message != nullptr && !absl::StrContains(*name, '\\')) {
        field = FindField(*message, *name);
        if (field == nullptr) {
          return absl::InvalidArgumentError(
              absl::StrCat("request body: unknown field ", Quoted(*name), " at byte ", name_at,
                           " (in ", path_.empty() ? message->name() : Path(), "); the fields of ",
                           message->name(), " are ", FieldNames(*message)));
        }
      }
      const absl::string_view key = field != nullptr ? absl::string_view(field->name()) : *name;
      if (!seen.insert(key).second) {
        at_ = name_at;
        return Invalid(absl::StrCat("the field ", key, " appears twice"));
      }
      SkipSpace();
      if (!At(':'))
        return Invalid(absl::StrCat("expected ':' after a field name, found ", Found()));
      ++at_;
      path_.push_back({key});
      if (absl::Status value = Value(field != nullptr ? ExpectedOf(*field, false) : Expected{});
          !value.ok()) {
        return value;
      }
      path_.pop_back();
      if (absl::Status next = Next('}'); !next.ok()) return next;
    }
    ++at_;
    --depth_;
    return absl::OkStatus();
  }

  // `list`: the repeated field the array holds, or null for any array.
  absl::Status Array(const FieldDescriptor* list) {
    if (++depth_ > kMaxJsonDepth) return Invalid("objects and arrays nested too deep");
    ++at_;
    SkipSpace();
    const Expected element = list != nullptr ? ExpectedOf(*list, true) : Expected{};
    for (size_t index = 0; !At(']'); ++index) {
      path_.push_back({"", index});
      if (absl::Status value = Value(element); !value.ok()) return value;
      path_.pop_back();
      if (absl::Status next = Next(']'); !next.ok()) return next;
    }
    ++at_;
    --depth_;
    return absl::OkStatus();
  }

  // After a member of an object or an array: `close`, or a comma and another.
  absl::Status Next(char close) {
    SkipSpace();
    if (At(close)) return absl::OkStatus();
    if (!At(',')) {
      return Invalid(
          absl::StrCat("expected ',' or '", absl::string_view(&close, 1), "', found ", Found()));
    }
    ++at_;
    SkipSpace();
    if (At(close)) {
      return Invalid(absl::StrCat("a trailing comma before '", absl::string_view(&close, 1), "'"));
    }
    return absl::OkStatus();
  }

  // A string, as it is written between its quotes.
  absl::StatusOr<absl::string_view> String() {
    const size_t start = ++at_;
    while (!At('"')) {
      if (AtEnd()) return Invalid("a string without its closing quote");
      const auto c = static_cast<unsigned char>(Peek());
      if (c < 0x20) {
        return Invalid(absl::StrFormat("a control character (0x%02X) in a string: escape it", c));
      }
      if (c == '\\') {
        if (absl::Status escape = Escape(); !escape.ok()) return escape;
        continue;
      }
      const size_t length = Utf8Length(text_.substr(at_));
      if (length == 0) return Invalid("a string that is not UTF-8");
      at_ += length;
    }
    return text_.substr(start, at_++ - start);
  }

  absl::Status Escape() {
    ++at_;
    if (AtEnd()) return Invalid("a string without its closing quote");
    if (absl::string_view("\"\\/bfnrt").find(Peek()) != absl::string_view::npos) {
      ++at_;
      return absl::OkStatus();
    }
    if (!At('u')) return Invalid(absl::StrCat("an unknown escape: \\ and ", Found()));
    ++at_;
    for (int digit = 0; digit < 4; ++digit, ++at_) {
      if (AtEnd() || !absl::ascii_isxdigit(Peek())) {
        return Invalid(absl::StrCat("expected four hexadecimal digits after \\u, found ", Found()));
      }
    }
    return absl::OkStatus();
  }

  absl::Status EnumOrString(const EnumDescriptor* enumeration) {
    const size_t start = at_;
    absl::StatusOr<absl::string_view> value = String();
    if (!value.ok()) return value.status();
    int number = 0;
    // Escapes and numbers in quotes are left to protobuf's parser.
    if (enumeration == nullptr || absl::StrContains(*value, '\\') ||
        absl::SimpleAtoi(*value, &number) ||
        enumeration->FindValueByName(std::string(*value)) != nullptr) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat("request body: ", Path(), ": ", Quoted(*value),
                                                   " is not one of ", ValueNames(*enumeration),
                                                   " (or their numbers), at byte ", start));
  }

  absl::Status Literal(absl::string_view word) {
    if (!absl::StartsWith(text_.substr(at_), word)) {
      return Invalid(absl::StrCat("expected ", word));
    }
    at_ += word.size();
    return absl::OkStatus();
  }

  absl::Status Number() {
    if (At('-')) ++at_;
    const size_t integer = at_;
    if (!Digits()) return Invalid(absl::StrCat("expected a digit after '-', found ", Found()));
    if (text_[integer] == '0' && at_ > integer + 1) {
      at_ = integer;
      return Invalid("a number with a leading zero");
    }
    if (At('.')) {
      ++at_;
      if (!Digits()) return Invalid(absl::StrCat("expected a digit after '.', found ", Found()));
    }
    if (At('e') || At('E')) {
      ++at_;
      if (At('+') || At('-')) ++at_;
      if (!Digits())
        return Invalid(absl::StrCat("expected the exponent's digits, found ", Found()));
    }
    return absl::OkStatus();
  }

  const absl::string_view text_;
  size_t at_ = 0;
  int depth_ = 0;
  std::vector<Step> path_;
};

}  // namespace

absl::Status CheckRequestJson(absl::string_view json, const Descriptor& type) {
  return Checker(json).Document(type);
}

}  // namespace nqueens::server::http
