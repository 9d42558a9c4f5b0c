#include "server/observability/call_counters.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace nqueens::server {

std::string CallCounters::Summary() const {
  absl::MutexLock lock(&mutex_);
  std::vector<std::pair<absl::StatusCode, uint64_t>> calls(calls_.begin(), calls_.end());
  std::sort(calls.begin(), calls.end());
  uint64_t total = 0;
  std::vector<std::string> by_code;
  for (const auto& [code, count] : calls) {
    total += count;
    by_code.push_back(absl::StrCat(count, " ", absl::StatusCodeToString(code)));
  }
  std::string summary = absl::StrCat(total, total == 1 ? " call" : " calls");
  if (!by_code.empty()) absl::StrAppend(&summary, " (", absl::StrJoin(by_code, ", "), ")");
  std::vector<std::pair<std::string, uint64_t>> refusals(refusals_.begin(), refusals_.end());
  std::sort(refusals.begin(), refusals.end());
  for (size_t i = 0; i < refusals.size(); ++i) {
    absl::StrAppend(&summary, i == 0 ? "; refused by " : ", ", refusals[i].first, " ",
                    refusals[i].second);
  }
  return summary;
}

}  // namespace nqueens::server
