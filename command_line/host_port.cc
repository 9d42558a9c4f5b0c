#include "command_line/host_port.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace nqueens::command_line {

absl::Status CheckHostPort(absl::string_view flag, absl::string_view address, PortZero zero) {
  const auto refuse = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(flag, " ", address, ": ", why));
  };
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return refuse("no port; write HOST:PORT");
  const absl::string_view host = address.substr(0, colon);
  const absl::string_view port = address.substr(colon + 1);
  if (host.empty()) return refuse("no host; write HOST:PORT (0.0.0.0:PORT for every address)");
  const bool bracketed = host.front() == '[' && host.back() == ']';
  if (!bracketed && host.find(':') != absl::string_view::npos) {
    return refuse("write an IPv6 address in brackets: [ADDRESS]:PORT");
  }
  uint32_t number = 0;
  const bool digits = !port.empty() && port.size() <= 5 &&
                      std::all_of(port.begin(), port.end(), absl::ascii_isdigit) &&
                      absl::SimpleAtoi(port, &number);
  const uint32_t lowest = zero == PortZero::kAllowed ? 0 : 1;
  if (!digits || number < lowest || number > 65535) {
    return refuse(
        absl::StrCat("the port must be a number from ", lowest, " to 65535, not \"", port, "\""));
  }
  return absl::OkStatus();
}

}  // namespace nqueens::command_line
