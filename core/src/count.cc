#include "nqueens/count.h"

namespace nqueens {

struct CountPlan::State {};
CountPlan::CountPlan(std::unique_ptr<State> state) : state_(std::move(state)) {}
CountPlan::CountPlan(CountPlan&&) noexcept = default;
CountPlan& CountPlan::operator=(CountPlan&&) noexcept = default;
CountPlan::~CountPlan() = default;

absl::StatusOr<CountPlan> CountPlan::Make(Columns) {
  return absl::UnimplementedError("counting is not implemented yet");
}
size_t CountPlan::parts() const { return 0; }
absl::StatusOr<CountPart> CountPlan::Count(size_t, const StopCondition&) const {
  return absl::UnimplementedError("counting is not implemented yet");
}
CountResult CountPlan::Sum(const std::vector<CountPart>&) const { return {}; }

absl::StatusOr<CountResult> CountSolutions(Columns, const CountOptions&) {
  return absl::UnimplementedError("counting is not implemented yet");
}

struct SolutionEnumerator::State {};
SolutionEnumerator::SolutionEnumerator(std::unique_ptr<State> state) : state_(std::move(state)) {}
SolutionEnumerator::SolutionEnumerator(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator& SolutionEnumerator::operator=(SolutionEnumerator&&) noexcept = default;
SolutionEnumerator::~SolutionEnumerator() = default;

absl::StatusOr<SolutionEnumerator> SolutionEnumerator::Make(Columns) {
  return absl::UnimplementedError("enumerating is not implemented yet");
}
absl::StatusOr<std::vector<Columns>> SolutionEnumerator::Next(size_t, const StopCondition&) {
  return absl::UnimplementedError("enumerating is not implemented yet");
}
bool SolutionEnumerator::done() const { return true; }
uint64_t SolutionEnumerator::nodes() const { return 0; }

}  // namespace nqueens
